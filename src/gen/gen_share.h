/* gen_share -- the count tables of gen_states.h shared out over the
 * ranks of a job (share.h), for `tally-mpi gen`.
 *
 * What grows with the length is the counts: level d holds O(d) states
 * for Dyck-1 (O(d^2) in all), each with two exact counts of up to d bits,
 * recomputed backwards for every length drawn from; the graph itself is
 * a few bytes a state.  So every rank builds the whole graph alike (the
 * same states, numbered alike) and runs the whole sampler alike (the
 * same random numbers, the same words, rank 0 writes), and only the
 * counts are divided: level d's states are cut in N consecutive blocks,
 * block q is rank q's, and a rank holds the counts of its blocks.
 *
 * gen_share_aim: level by level backwards, each rank sums its own
 * states' counts; the counts of the next level's states that another
 * rank's block reaches are sent to it first (one exchange per level:
 * the blocks' boundaries, as the states of a level are numbered in the
 * order their parents reach them).  gen_share_unrank: a batch of ranks
 * walked down together; at each depth, the counts of the successors of
 * the batch's states are gathered from their owners (one all-gather per
 * depth) and every rank takes the same letters.
 *
 * Ownership: as gen_states.h; these work on a GenStates's inside.
 */
#ifndef TALLY_GEN_SHARE_H
#define TALLY_GEN_SHARE_H

#include "gen/gen_graph.h"
#include "base/share.h"

/* Collective: the job begins, with a fingerprint of the graph to
 * build; g->sh and g->lim set. */
void gen_share_begin(GenStates *g, const Share *sh, Limits *lim,
		     size_t max_len, size_t max_states);
/* This rank's blocks, once the graph is built. */
void gen_share_own(GenStates *g);
/* Collective: gen_states_aim; agrees on the limits first. */
void gen_share_aim(GenStates *g, size_t n);
/* Collective: gen_states_unrank_many; agrees on the limits first. */
void gen_share_unrank(const GenStates *g, bool member, const fmpz *ranks,
		      size_t k, uint32_t *w);

#endif
