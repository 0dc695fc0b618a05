/* enum -- every formula of a stated grammar bottom-up by (depth, size),
 * one per signature on a prefix-closed sample (anchors.md, Anchor 4).
 *
 * The grammar: letter tests Q_x and true (and MOD(m, r), m <= max_mod,
 * when asked), negation, conjunction, disjunction, Y (when asked), and at
 * depth d >= 1 the comparisons
 *     #[psi] >= c                        c = 1..max_const
 *     a1 #[psi1] + a2 #[psi2] >= c       |a_i| = 1..max_coeff, |c| <= max_const
 * over formulas psi of depth < d (one of them of depth d - 1), each count
 * also a future one #> when asked (on a whole-word sample).  Sizes:
 * 1 for Q_x, true and MOD; 1 + the operands for !, &, |, Y; 1 plus
 * (1 + size psi) per count for a comparison.
 *
 * Layers go by depth, then size.  A candidate whose signature is new is
 * emitted: so each signature is emitted once, by its smallest formula of
 * the least depth (ties: the order of generation, one-count comparisons
 * and smaller constants first).  A candidate whose signature was seen is
 * still kept as a building block when it is smaller than every kept
 * formula with that signature, so that the emitted set is exactly the set
 * of signatures of all formulas within the bounds (replacing a
 * subformula by a kept one of the same signature, no larger and no
 * deeper, keeps a formula within the bounds).
 *
 * Ownership: the Enumerator borrows its Sample and Store; emitted Nodes
 * belong to the Store.
 */
#ifndef TALLY_ENUM_H
#define TALLY_ENUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "search/sample.h"
#include "core/store.h"

typedef struct {
	unsigned max_depth, max_size;
	unsigned max_const, max_coeff;
	unsigned max_mod; /* MOD(m, r) for m = 2..max_mod (0: none) */
	bool prev;        /* Y */
	bool future;      /* #> counts too (a whole-word sample, sample.h) */
	struct Limits *limits; /* the user's (limit.h), polled per candidate;
				* NULL: none */
} EnumOptions;

typedef struct {
	uint64_t generated, merged, kept, emitted;
} EnumLayer;

typedef enum { ENUM_DONE, ENUM_STOPPED, ENUM_TIME, ENUM_MEMORY } EnumStop;

/* Called for each emitted formula; returning false stops. */
typedef bool (*EnumEmit)(void *ctx, Node f, unsigned depth, unsigned size,
			 const Word64 *sig);

/* layers: (max_depth + 1) * (max_size + 1) entries, [d][s]. */
EnumStop enum_run(const EnumOptions *o, const Sample *S, Store *st,
		  EnumEmit emit, void *ctx, EnumLayer *layers);

#endif
