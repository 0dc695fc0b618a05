/* indist -- whether any formula of a bounded class tells two words
 * apart: the exact check behind every "indistinguishable" claim of
 * tally search and tally hierarchy.
 *
 * The class F_d(C, T) holds the past-only formulas of depth <= d, of any
 * size and Boolean structure, whose comparisons are
 *     a_1 #[psi_1] + ... + a_t #[psi_t]  ~  c
 * with t <= T counts, |a_i| <= C, |c| <= C, ~ one of < <= = != >= >, and
 * each psi_i in F_{d-1}(C, T) (F_0: the Boolean functions of the current
 * letter).  The positions of a prefix-closed set of words split into
 * classes: two positions are in one class at depth d when every formula
 * of F_d(C, T) has the same value at both.  Depth 0 is the letter.  At
 * depth d, a formula of F_{d-1} is, on these positions, any union of
 * depth-(d-1) classes (each class is cut out by the atoms that split it
 * from its siblings), so a comparison gives class K the weight b_K, a sum
 * of some of the a_i, and has the value sum_K b_K n_K(p) at position p,
 * n_K(p) being the number of positions of class K among p's prefixes.
 * Two positions p, q of one depth-(d-1) class stay together when no
 * choice of the a_i and the b_K makes X = sum b_K n_K(p) and Y = sum b_K
 * n_K(q) differ with [min(X, Y), max(X, Y)] meeting [-C, C] (an integer
 * c there is a threshold or an equality between them): a subset-sum
 * question decided exactly by a bitset over the reachable (X, X - Y).
 *
 * When two words are told apart, the separating formula is rebuilt from
 * the atoms that split the classes (indist_separator), so the claim can
 * be checked by the evaluator.
 *
 * Ownership: an Indist owns its tree and classes; formulas it builds
 * belong to the Store given.
 */
#ifndef TALLY_INDIST_H
#define TALLY_INDIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/store.h"

struct Limits;

typedef struct {
	unsigned C; /* largest |coefficient| and |constant| */
	unsigned T; /* counts per comparison (1..INDIST_MAX_T) */
	/* The two-sided class: each of the T counts of a comparison is a
	 * past count #[psi] or a future count #>[psi] (mixed in one
	 * comparison), the psi two-sided too.  A position's classes then
	 * depend on the whole word, so words share no positions. */
	bool two_sided;
} IndistBounds;

enum { INDIST_MAX_T = 4, INDIST_MAX_C = 64, INDIST_MAX_DEPTH = 15 };

/* The answer for a pair: the least depth that separates it, or one of
 * these. */
enum { INDIST_NONE = 1000, INDIST_STOPPED = 1001 };

typedef struct Indist Indist;

/* The prefix tree of `nwords` words over letters 0..nletters-1.  track:
 * keep what indist_separator needs (the separating atoms). */
Indist *indist_new(const uint8_t *const *words, const size_t *lens,
		   size_t nwords, size_t nletters, IndistBounds b, bool track);
void indist_free(Indist *x);

/* The least depth <= maxd at which F_d(C, T) separates the ends of
 * words i and j, INDIST_NONE when no formula of depth <= maxd does, or
 * INDIST_STOPPED when a limit stopped the check (lim may be NULL).
 * INDIST_NONE is always established; a depth is exact unless
 * indist_exact() is false (a pair too large to decide was counted as
 * separated, which can only make depths smaller). */
unsigned indist_depth(Indist *x, size_t i, size_t j, unsigned maxd,
		      struct Limits *lim);
bool indist_exact(const Indist *x);

/* A formula of depth <= d that words i and j give different values
 * (true at word i), when indist_depth() found d; letters are the Syms of
 * the letter indices.  NODE_NONE when the Indist was not tracking or a
 * split could not be rebuilt. */
Node indist_separator(Indist *x, Store *st, const Sym *letters, size_t i,
		      size_t j, unsigned d);

/* The same for two words, in one call (no formula). */
unsigned indist_pair(const uint8_t *u, size_t ulen, const uint8_t *v,
		     size_t vlen, size_t nletters, unsigned maxd, IndistBounds b,
		     struct Limits *lim);

/* The unbounded depth-1 certificate: the same last letter and the same
 * number of every letter (no depth-1 formula separates them, whatever
 * its constants). */
bool indist_parikh(const uint8_t *u, size_t ulen, const uint8_t *v,
		   size_t vlen, size_t nletters);

/* "constants and coefficients within [-C, C], at most T counts per
 * comparison" and the relations, for output lines. */
void indist_describe(IndistBounds b, char *out, size_t n);

#endif
