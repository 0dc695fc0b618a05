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

typedef struct Outside {
	const char *name;
	const char *letters;    /* one character each, in order */
	const char *definition; /* one line */
	const char *shape;      /* the pairs tried, in words */
	/* Membership of a word over letters (indices into letters). */
	bool (*member)(const BlockWord *w);
	/* The pair of size n >= 1 (u in, v out); false past the shape. */
	bool (*pair)(uint64_t n, BlockWord *u, BlockWord *v);
} Outside;

/* The family called name, or NULL. */
const Outside *outside_find(const char *name);
/* "parity, mod3, dyck2" */
const char *outside_names(void);

/* The certified pair of least size n (doubling from 1, then back by
 * bisection; every pair printed is checked whatever the order) whose
 * words no formula of depth <= d separates; *fixpoint when both checks
 * reached a fixpoint (no depth separates it).  max_n bounds the sizes
 * tried. */
PairgenStatus outside_pair(const Outside *o, unsigned d, IndistBounds b,
			   uint64_t max_n, struct Limits *lim, PairCert *out,
			   bool *fixpoint);

#endif
