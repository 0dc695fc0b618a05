/* blockcheck_front -- the core of blockcheck's vector test: for one
 * weight set, whether the counts of two positions can be told apart,
 * decided by the Pareto front of the reachable (X, Y) over the classes
 * whose counts differ and by the interval sums of those whose counts are
 * equal (see blockcheck.h for why the front may drop points).
 *
 * Ownership: the scratch it uses is the Check's.
 */
#ifndef TALLY_BLOCKCHECK_FRONT_H
#define TALLY_BLOCKCHECK_FRONT_H

#include "search/blockcheck_state.h"

/* Do X < Y, X <= C, Y >= -C hold for some weights of set `set`?  The
 * coordinates whose counts differ (n, m; directions dn; len of them) by
 * a Pareto front, those with equal counts e (directions de; ne of them,
 * the largest first) by their sums.  1, 0, or -1 (too large). */
int blockcheck_front(Check *k, size_t set, const uint64_t *n,
		     const uint64_t *m, const unsigned *dn, size_t len,
		     const uint64_t *e, const unsigned *de, size_t ne);

#endif
