/* blockcheck_apart -- blockcheck's exact test of two positions: given
 * their count vectors, does some comparison of the class tell them
 * apart?  The coordinates are merged, those with a count <= C that
 * differ decide at once, the rest go to blockcheck_front.h weight set by
 * weight set.
 *
 * Ownership: a Vec owns its arrays (blockcheck_vec_free); the test keeps
 * its scratch in the Check.
 */
#ifndef TALLY_BLOCKCHECK_APART_H
#define TALLY_BLOCKCHECK_APART_H

#include "search/blockcheck_state.h"

/* One sparse count vector: classes ascending, counts > 0. */
typedef struct {
	uint32_t *cls;
	uint64_t *cnt;
	size_t n;
} Vec;

/* Do the positions with counts a and b fall apart?  1, 0, -1 undecided.
 * `key` (not 0) names the position a: calls with the same key and the
 * same coordinates of equal counts reuse their sorted order. */
int blockcheck_apart(Check *k, const Vec *a, const Vec *b, uint64_t key);

void blockcheck_vec_free(Vec *v);

#endif
