/* mpi_count -- lang --count's dynamic programming (lang_count.h) over
 * the ranks of an MPI job: what tally-mpi installs as lang_count_hook.
 *
 * A length's merged machine states are spread over the ranks by hash
 * (mpi_job_owner), each with its multiplicity, the number of prefixes
 * reaching it.  The next length: each rank steps the states it owns by
 * every letter code and sends (state, multiplicity times the letters of
 * the code) to the successor's owner, in rounds (mpi_exchange.h); the
 * owner adds up.  Multiplicities are exact (FLINT) and travel as their
 * 64-bit limbs.  The accepted count of a length is the sum over ranks of
 * what each rank's steps accepted, exact; every rank calls emit with it,
 * once the length is complete, as lang_count does.  --timeout and
 * --max-memory are the job's (mpi_job_agree after each round).
 */
#ifndef TALLY_MPI_COUNT_H
#define TALLY_MPI_COUNT_H

#include "machine/lang_count.h"

/* Collective (every rank, the same arguments); lang_count's contract. */
bool mpi_count(const Store *s, Node root, const Alphabet *alpha,
	       AcceptAt accept, size_t maxlen, Limits *lim,
	       LangCountEmit emit, void *arg);

#endif
