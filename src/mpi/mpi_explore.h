/* mpi_explore -- explore's merging search (explore.h) over the ranks of
 * an MPI job: what tally-mpi installs as explore_merge_hook.
 *
 * Each joint state belongs to the rank its hash names (mpi_job_owner);
 * the search goes one length at a time, each level in rounds: every rank
 * steps a slice of the states it owns by every letter and sends each
 * successor to its owner (mpi_exchange.h), until every rank has stepped
 * its part of the level.  The result is the serial search's, whatever
 * the number of ranks: the same verdict, bound, state count and
 * counterexample.  What makes it so:
 *
 *  - Order.  The serial search numbers a level's states in the shortlex
 *    order of the first word reaching each; a successor is known by the
 *    key pos * nletters + letter, pos its parent's number in that order.
 *    An owner keeps the least key that reaches a state (and that
 *    parent), and after the level the keys are ranked across all ranks
 *    (each rank sorts one range of keys): the next level's numbers.
 *  - Counterexample.  Each rank keeps the least key of a word on which
 *    the sides differ; the least over ranks is the serial search's first
 *    one.  Its word is rebuilt from parent references (rank, number),
 *    one broadcast per letter.
 *  - Counts.  The serial search checks --max-states every 256 states;
 *    the states it holds at such a point, and when it meets the
 *    counterexample, are the earlier levels plus the new states whose
 *    key is smaller: a count over ranks, so the state count and the
 *    state limit's verdict are the serial ones.
 *  - --timeout and --max-memory are the job's (mpi_job_agree after each
 *    round); reached, every rank stops after the round.
 */
#ifndef TALLY_MPI_EXPLORE_H
#define TALLY_MPI_EXPLORE_H

#include "decide/method.h"

/* Collective (every rank, the same Query). */
void mpi_explore_merge(const Query *q, MethodResult *out);

#endif
