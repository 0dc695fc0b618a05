/* terms -- count-valued terms of a stated grammar bottom up by depth, then
 * size, with their values at every node of a prefix-closed sample
 * (logic/README.md §2.7: the integer outputs of sequence tasks).
 *
 * The grammar, over the formulas psi that enum.h emits (one per
 * signature, of size <= body_size):
 *     c                                   |c| <= max_const
 *     a #[psi] + c                        |a| = 1..max_coeff
 *     a1 #[psi1] + a2 #[psi2] + c         psi1 before psi2 in enum's order
 *     (Q_x ? u : v)                       u, v each c or a #[psi] + c
 * A term's depth is the largest depth of its counts (a count is one
 * deeper than its formula; a guard Q_x adds none).  Its size here is
 * the grammar's: 1 per constant or letter test; 1 + size psi per count;
 * 1 more for a coefficient other than 1; 2 for "+ c" (c != 0) and 1 for
 * the "+" of two counts; 2 + the branches' for a guard.
 *
 * Within one depth candidates go by size, and within a size in the order
 * above.  With dedupe, a candidate whose values were seen is skipped, so
 * each behaviour on the sample is emitted once, by its smallest term of
 * the least depth in the grammar; without it every candidate is emitted
 * (a search that stops at its first match needs no table).  A value is
 * an int64 per signature bit (0 at padding), computed from the sample's
 * counts (sample_counts), never through the evaluator.
 *
 * Ownership: terms_run borrows its Sample and Store; emitted Nodes
 * belong to the Store, the values to terms_run (valid during emit).
 */
#ifndef TALLY_TERMS_H
#define TALLY_TERMS_H

#include <stdbool.h>
#include <stdint.h>

#include "search/enum.h"

typedef struct {
	unsigned max_depth;    /* terms of depth 0..max_depth */
	unsigned max_size;     /* of a term (the grammar's size) */
	unsigned body_size;    /* of the formulas under counts */
	unsigned max_const, max_coeff;
	bool dedupe;           /* one term per behaviour on the sample */
	struct Limits *limits; /* polled per size layer; NULL: none */
} TermOptions;

/* Called per emitted term; returning false stops. */
typedef bool (*TermEmit)(void *ctx, Node t, unsigned depth, unsigned size,
			 const int64_t *vals);

EnumStop terms_run(const TermOptions *o, const Sample *S, Store *st,
		   TermEmit emit, void *ctx);

#endif
