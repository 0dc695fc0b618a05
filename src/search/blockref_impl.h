/* blockref_impl -- the inside of blockref (blockref.h), shared by its
 * four files: blockref_weights.c (the weight families of the class,
 * past-only or two-sided, and the sums of q weights), blockref_split.c
 * (splitting a run where a comparison reaches the window),
 * blockref_vectors.c (the exact test of two count vectors) and
 * blockref.c (matching pieces to classes, level by level, and the pair).
 *
 * Two-sided, each class has two coordinates (stride 2: its past count,
 * then its future count) and each count of a comparison has a direction;
 * past-only, stride 1 and every count is a past count.  The same code
 * serves both: a weight family (Fam) carries the weights of each
 * direction.
 *
 * Ownership: nothing is kept between calls of blockref_pair(); a TSet's
 * vals is malloc'd by blockref_tset_of() for the caller.
 */
#ifndef TALLY_BLOCKREF_IMPL_H
#define TALLY_BLOCKREF_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "search/blockref.h"
#include "base/vec.h"

struct Limits;

__extension__ typedef __int128 I128;

#define I128_NONE (-((I128)1 << 120))

/* Bounds of the enumerations: past them a test is undecided. */
enum {
	DFS_BUDGET = 1 << 20,     /* nodes of one enumeration of large groups */
	EMIT_BUDGET = 1 << 22,    /* windows met while splitting one run */
	SUMSET_BUDGET = 1 << 26   /* work for a sumset that is no progression */
};

/* Values of the tables of small counts, and of the shifts of equal
 * counts (blockref_tune() lowers them for tests). */
extern uint64_t blockref_small_width, blockref_shift_bits;

/* qsort of n items; none or one needs no call (and an empty vector's
 * data may be NULL, which qsort must not get). */
static inline void sorted(void *base, size_t n, size_t size,
			  int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

typedef struct {
	uint32_t cls;
	uint64_t len;
} Run;

typedef struct {
	uint32_t k;
	uint64_t n;
} Ent;

typedef VEC(Run) Runs;
typedef VEC(Ent) Ents;
typedef VEC(uint64_t) U64s;

/* A weight set: the distinct sums of the subsets of T coefficients. */
typedef struct {
	int32_t w[1 << INDIST_MAX_T];
	unsigned n;
	int32_t lo, hi;
	int32_t step; /* the progression's step, 0 when it is none */
} WSet;

/* The sums of q weights of a set: the progression first + step*i for
 * i < cnt, or the listed values (vals, sorted). */
typedef struct {
	int64_t first, step;
	uint64_t cnt;
	int64_t *vals;
	int64_t lo, hi;
} TSet;

/* The weights of one choice of coefficients: d[0] for the past
 * coordinates, d[1] for the future ones (two-sided: each count is one or
 * the other; past-only: d[1] is {0}). */
typedef struct {
	WSet d[2];
} Fam;

typedef struct {
	IndistBounds b;
	Fam *all, *half;  /* every family; one of each pair F, -F */
	size_t nall, nhalf;
	unsigned stride;  /* coordinates per class: 1, or 2 when two-sided */
	bool undecided;   /* some test hit a bound at this level */
	struct Limits *lim;
} Ctx;

/* ---- exact integer helpers ------------------------------------------- */

static inline I128 floordiv(I128 a, I128 b)
{
	I128 q = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static inline I128 ceildiv(I128 a, I128 b) { return -floordiv(-a, b); }

static inline I128 imax(I128 a, I128 b) { return a > b ? a : b; }
static inline I128 imin(I128 a, I128 b) { return a < b ? a : b; }

/* ---- across the files ---------------------------------------------------- */

/* c->all and c->half from c->b (blockref_weights.c). */
void blockref_families(Ctx *c);
/* The sums of q weights of w; false when the set is no progression and
 * too costly to list (blockref_weights.c). */
bool blockref_tset_of(const WSet *w, uint64_t q, TSet *t);
int64_t blockref_tset_at(const TSet *t, uint64_t i);
/* The pieces of a run (blockref_split.c). */
bool blockref_split_run(Ctx *c, const Ents *base, uint32_t k0, uint64_t v0,
			uint64_t L, uint64_t f1, U64s *pieces);
/* Whether some comparison separates two count vectors: 1, 0, or -1
 * undecided (blockref_vectors.c). */
int blockref_separable(Ctx *c, const Ents *a, const Ents *b);

#endif
