/* indist_tree -- the data of an Indist: the prefix tree of its words
 * (nodes are positions; two-sided, every word a chain of its own), the
 * levels of classes built over it, the atoms that split them (kept for
 * indist_separator), the weight sets, and the scratch of the decision
 * (indist_separable.c).
 *
 * Ownership: an Indist owns its tree, levels, weight sets and scratch
 * (indist_free); a Level owns its arrays (indist_level_free).
 */
#ifndef TALLY_INDIST_TREE_H
#define TALLY_INDIST_TREE_H

#include "base/vec.h"
#include "search/indist_weights.h"

typedef uint64_t Bits;
typedef VEC(uint32_t) U32s;

/* The shifts: the sums of b_K x_K over the classes whose counts agree,
 * as a bitset over [-Bs, Bs] with its prefix counts.  They are the same
 * for every pair of positions of one run of a class (the case that
 * dominates), so the last ones per weight set are kept. */
typedef struct Shifts {
	bool valid;
	U32s key; /* class, count, ... */
	long Bs;
	U32s pc;  /* set bits below each index */
} Shifts;

typedef struct {
	uint32_t cls;  /* coordinate: class of the level below * stride + dir */
	uint8_t mask;  /* the coefficients it takes */
} Term;

/* A comparison sum_i a_i #[union of the classes whose mask has i] >= c
 * (ge) or <= c. */
typedef struct {
	uint32_t first, n; /* its terms in the level's arena */
	int32_t a[INDIST_MAX_T];
	uint8_t ahead;     /* the coefficients of future counts */
	int32_t c;
	bool ge;
} Atom;

typedef struct {
	uint32_t atom;
	bool value; /* the class lies where the atom has this value */
} Cut;

typedef VEC(Cut) Cuts;

typedef struct {
	uint32_t *cls; /* per node */
	uint32_t ncls;
	VEC(uint32_t) up;  /* per class: its class at the level below */
	VEC(uint32_t) rep; /* per class: its first node */
	VEC(Cuts) cuts;    /* per class (tracking) */
	VEC(bool) broken;  /* per class: split without a formula */
	VEC(Atom) atoms;
	VEC(Term) terms;
	uint32_t *count;   /* counts of the level below: node * ncol */
	uint32_t nbelow;
	uint32_t ncol;     /* coordinates: nbelow * stride */
} Level;

struct Indist {
	IndistBounds b;
	size_t A, n;
	uint32_t *parent, *len;
	uint8_t *letter;
	size_t nwords;
	uint32_t *end;
	bool track;
	bool inexact; /* some pair was too large to decide */
	unsigned stride; /* 1, or 2 when two-sided: past 2K, future 2K + 1 */
	unsigned nlevels;
	Level lv[INDIST_MAX_DEPTH + 1];
	Weights *ws;
	size_t nws;
	struct Shifts *shc; /* per weight set */
	/* scratch for the decision */
	VEC(Bits) dp, sh;
};

void indist_level_free(Level *l);

#endif
