/* outside -- named targets given by a membership function only, for
 * languages outside the logic (PARITY, counting modulo 3, Dyck-2): no
 * formula defines them, so the search's answer is a lower bound at every
 * depth, each certified by a pair of words the engine builds from the
 * membership function (pairgen.h checks each pair twice).
 *
 * A family proposes pairs of one shape, indexed by a size n (the length
 * grows with n: u in the language, v not); outside_pair() takes the
 * least n (doubling, then halving back) whose pair no formula of depth
 * <= d within C, T separates.
 *
 * Ownership: the table is static; a PairCert owns its words.
 */
#ifndef TALLY_OUTSIDE_H
#define TALLY_OUTSIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "search/pairgen.h"

/* A shape of pairs: for a size n >= 1 and the depth d asked (a shape may
 * grow with it), u in the language and v not; false past the shape. */
typedef struct {
	const char *desc; /* in words; NULL ends a family's list */
	bool (*pair)(uint64_t n, unsigned d, BlockWord *u, BlockWord *v);
} OutsideShape;

enum { OUTSIDE_SHAPES = 4 };

typedef struct Outside {
	const char *name;
	const char *letters;    /* one character each, in order */
	const char *definition; /* one line */
	/* Membership of a word over letters (indices into letters). */
	bool (*member)(const BlockWord *w);
	OutsideShape shapes[OUTSIDE_SHAPES]; /* tried in this order */
} Outside;

/* What a search for a pair of one shape at one depth tried: the sizes
 * (every one from nmin to nmax doubling, then the bisection) and the
 * least depth that separated the largest size refused. */
typedef struct {
	unsigned sizes;
	uint64_t nmin, nmax;
	unsigned last_sep; /* at nmax, when nothing was certified */
	uint64_t ulen;     /* the length of u at nmax */
} OutsideTried;

/* The family called name, or NULL. */
const Outside *outside_find(const char *name);
/* The same for a name as a user types it (case, '-', '_' and spaces
 * ignored: "PARITY", "Dyck-2", "mod 3"), or NULL. */
const Outside *outside_lookup(const char *typed);
/* "parity, mod3, dyck2" */
const char *outside_names(void);

/* Of the family's shape number `shape`: the certified pair of least
 * size n (doubling from 1, then back by
 * bisection; every pair printed is checked whatever the order) whose
 * words no formula of depth <= d separates; *fixpoint when both checks
 * reached a fixpoint (no depth separates it).  max_n bounds the sizes
 * tried. */
PairgenStatus outside_pair(const Outside *o, unsigned shape, unsigned d,
			   IndistBounds b, uint64_t max_n, struct Limits *lim,
			   PairCert *out, bool *fixpoint, OutsideTried *tried);

#endif
