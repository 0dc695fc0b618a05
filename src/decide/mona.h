/* mona -- the threshold fragment decided by MONA (M2L-Str).
 *
 * The fragment: every comparison compares one count with a constant,
 * i.e. after normalisation it is  c * #[phi] + k REL 0  or
 * c * #>[phi] + k REL 0  (c, k integers, c != 0), at any depth, under
 * letters, true/false, !, &, |, Y and MOD; no ?:, min, max, and no sum
 * of two counts.  Each such comparison is a threshold "at least t
 * positions j <= i (j >= i for #>) satisfy phi" or a Boolean combination
 * of two of them, with t <= MONA_MAX_THRESHOLD, and every MOD(m, r) has
 * m <= MONA_MAX_MODULUS; so every formula of the
 * fragment defines a regular language, and one M2L-Str formula says "the
 * two sides differ at the last position".  MONA decides it and gives a
 * shortest satisfying string: a shortest separating word (the empty word
 * is compared directly with the evaluator under --accept-at=last; under
 * eos the end marker is a string position carrying no letter).
 *
 * Outside the fragment the answer is MR_NOT_APPLICABLE with the reason;
 * when the `mona` program cannot be run, MR_UNKNOWN.
 *
 * Ownership: nothing is retained; the temporary files are removed.
 */
#ifndef TALLY_MONA_H
#define TALLY_MONA_H

#include "decide/method.h"

/* "at least t" for t up to this (a comparison c*#[phi] + k REL 0 with
 * <=, =, != needs t + 1). */
#define MONA_MAX_THRESHOLD 12
/* MOD(m, r) up to this m: MONA took 0.08 s at m = 12, 2.9 s at m = 16
 * (MOD(m,5) & Q_a against MOD(m,5) & Q_a & Q_b), doubling with m. */
#define MONA_MAX_MODULUS 12

void mona_decide(const Query *q, MethodResult *out);

/* Whether a root is in the fragment; on false *why says why (static). */
bool mona_in_fragment(const Store *s, Node root, const char **why);

#endif
