/* indist_weights -- the weights a comparison of the class F_d(C, T) can
 * give a class of the level below: for a multiset of T coefficients in
 * [-C, C] (and, two-sided, a choice of which counts look ahead), the sums
 * of their subsets, past and future apart.  One Weights is one weight
 * family of HACKING.md's reduction.
 *
 * Ownership: indist_weight_sets returns a malloc'd array (free()).
 */
#ifndef TALLY_INDIST_WEIGHTS_H
#define TALLY_INDIST_WEIGHTS_H

#include "search/indist.h"

/* A set of weights: the sums of the subsets of T coefficients (0 among
 * them), with one subset (mask over the coefficients) per weight; [0]
 * for the past coordinates, [1] for the future ones (two-sided: the
 * coefficients of the counts in `ahead` are future counts; past-only,
 * ahead is 0 and [1] is {0}). */
typedef struct {
	int32_t a[INDIST_MAX_T];
	uint8_t ahead;
	size_t n[2];
	int32_t w[2][1 << INDIST_MAX_T];
	uint8_t mask[2][1 << INDIST_MAX_T];
	int32_t maxabs;
} Weights;

/* The weights of the T coefficients a, those in the mask `ahead` future
 * counts. */
void indist_weights_of(const int32_t *a, unsigned T, unsigned ahead,
		       Weights *out);

/* The weight sets worth trying: one per multiset of coefficients, less
 * those whose weights (or their negations) another set has too; their
 * number in *n. */
Weights *indist_weight_sets(IndistBounds b, size_t *n);

#endif
