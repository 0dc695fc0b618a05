/* mpi_pairs -- hierarchy's lower-bound pairs (pairgen.h) off the ranks'
 * common path.
 *
 * In tally every row of `hierarchy` first builds its pair (pairgen_lk
 * or pairgen_predict: blockref and blockcheck on words of thousands of
 * letters, L_6's about a second), then searches.  tally-mpi ran that on
 * every rank alike, so it was serial time however many ranks there
 * were.  Here one rank, the last (rank 0 verifies each row's formula
 * alone, share.h), builds the pairs: row k's on a thread of its own,
 * started as soon as row k - 1's pair is handed out, so that it runs
 * while the ranks build the bank and rank 0 verifies; at row k the
 * pair rank joins the thread and broadcasts the pair, its status and
 * the limit its search reached.  The pair is tally's bit for bit: the
 * same generator, arguments and seed, the membership test the same
 * formula's (L_k, and for prediction its prefix guard) evaluated on a
 * Store of the thread's own (the command's Store is not shared between
 * threads).  A row asked for other than the one built ahead (another
 * family, --family=dk, another depth) is built there and then by the
 * pair rank with the caller's own test.  At one rank the hook is not
 * installed.
 *
 * The thread's limits are its own copy of the caller's (the same
 * deadline and --max-memory, the process's resident memory); a limit it
 * reached is the caller's when its pair is taken.  A pair built ahead
 * for a row the table never reaches is stopped (its limit set) and
 * joined by mpi_pairs_end().
 *
 * Ownership: the thread's state is static; the pair handed to the
 * caller is the caller's (pairgen_free).
 */
#ifndef TALLY_MPI_PAIRS_H
#define TALLY_MPI_PAIRS_H

#include "search/pairgen.h"

/* pairgen_hook's implementation (collective: every rank calls it for
 * every row, with the same arguments). */
PairgenStatus mpi_pairs_run(PairgenFn *gen, unsigned k, unsigned d,
			    IndistBounds b, uint64_t seed, unsigned tries,
			    PairgenMember member, void *ctx,
			    struct Limits *lim, PairCert *out);

/* Stops and joins a pair built ahead (after the command). */
void mpi_pairs_end(void);

#endif
