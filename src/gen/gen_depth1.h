/* gen_depth1 -- the depth-1 baseline of gen's leakage report: the best
 * formula of depth 1 of a simple shape on a split's words, printed as TL
 * that `tally eval` scores to the same accuracy.
 *
 * A depth-1 formula compares counts of depth-0 formulas and reads
 * depth-0 formulas at the last position.  Three families of them are
 * searched, and the best rule of all is kept (on a tie the earlier
 * family):
 *   letters   #[Q_a]                     read with the last letter
 *   MOD       #[Q_a & MOD(2, r)]         with the last letter and the
 *                                        length's parity (MOD(2, r) at n)
 *   Y         #[Q_a & Y Q_b]             with the last two letters
 * A rule is one comparison (>= or =) of an integer combination of such
 * counts with a constant (small coefficients, few of them: see
 * gen_depth1.c) and, per group of the last position's atoms, the label
 * for the comparison true and for it false.
 *
 * Ownership: the caller owns the feature arrays; a Depth1Result owns its
 * formula.
 */
#ifndef TALLY_GEN_DEPTH1_H
#define TALLY_GEN_DEPTH1_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/gen_data.h"

/* Features and groups a word is kept as: depth1_features(nl) counts and
 * DEPTH1_FAMILIES group cells (group * 2 + label). */
enum { DEPTH1_FAMILIES = 3 };
size_t depth1_features(size_t nl);
void depth1_word(size_t nl, const uint32_t *w, size_t n, bool label,
		 uint32_t *feat, uint32_t *cells);

typedef struct {
	bool found;
	uint64_t right; /* words the rule labels right */
	char *formula;  /* the rule as TL */
} Depth1Result;

/* The best rule on `kept` words (feat: kept x depth1_features(nl),
 * cells: kept x DEPTH1_FAMILIES). */
void depth1_best(const GenSpec *sp, const uint32_t *feat,
		 const uint32_t *cells, size_t kept, Depth1Result *out);
void depth1_result_free(Depth1Result *r);

#endif
