/* pairs -- candidate witness pairs of a partition (parts.h) and their
 * certification by the exact check (indist.h): the bounded negative
 * evidence of search.h's Refutation and of separate.c's Separation.
 *
 * A class that mixes labels holds pairs of words that every atom of the
 * partition confuses; the candidates are its shortest words of either
 * label and its ends of chains (whole words), shortest pairs first, and a
 * candidate is a witness when no formula of the class F_d(C, T) tells it
 * apart (indist_pair).
 *
 * Ownership: the caller owns the candidate vector and the flags of
 * pairs_chain_ends (free).
 */
#ifndef TALLY_PAIRS_H
#define TALLY_PAIRS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/limit.h"
#include "base/vec.h"
#include "search/parts.h"

typedef struct {
	size_t pos, neg, len; /* sample bits (labelled in, out), total length */
} PairCand;

typedef VEC(PairCand) PairCands;

/* Ends of chains (where the witness pairs lie), flagged per bit. */
bool *pairs_chain_ends(const Sample *S);
/* The candidates of the first classes of p, in one pass: in each class
 * its shortest words of either label paired, and its ends of chains
 * paired across labels; sorted by length, each pair once. */
void pairs_candidates(const Parts *p, const Sample *S, const bool *end,
		      PairCands *out);
/* Pairs of p's conflicting classes that no formula of F_d(cls) tells
 * apart, shortest first, into r (up to SEARCH_PAIRS, after a bounded
 * number of checks). */
void pairs_certify(const Parts *p, const Sample *S, unsigned d,
		   IndistBounds cls, Limits *lim, Refutation *r);

#endif
