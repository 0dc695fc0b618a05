/* blockcheck -- a second, independent check of what blockref.h answers,
 * run on every pair before tally prints it as certified.  It shares no
 * code with blockref.c and decides each question another way:
 *  - a run is split by searching (doubling, then bisection) for the last
 *    position that no comparison separates from the piece's first one,
 *    instead of solving for where comparisons reach [-C, C];
 *  - a piece is compared with the classes of its class below whose
 *    counts capped at C + 1 hash alike (chains, not a key of sorted
 *    counts), skipping those an earlier piece of its own run joined
 *    (the pieces of a run are apart from each other);
 *  - two count vectors are compared by the Pareto front of the reachable
 *    (X, Y) = (sum b_K n_K, sum b_K m_K), one class at a time: a point
 *    that is no lower in X and no higher in Y than another can be
 *    dropped, since "X < Y, X <= C, Y >= -C" then holds for the other
 *    whenever it holds for it.
 * Slower than blockref, meant for the few pairs that are printed.
 *
 * Ownership: nothing is kept between calls.
 */
#ifndef TALLY_BLOCKCHECK_H
#define TALLY_BLOCKCHECK_H

#include "search/blockword.h"
#include "search/indist.h"

struct Limits;

/* Answers: the least separating depth (< BLOCKCHECK_NONE), or one of
 * these. */
enum {
	BLOCKCHECK_NONE = 1000,      /* no depth <= maxd separates */
	BLOCKCHECK_NEVER = 1001,     /* a fixpoint: no depth separates */
	BLOCKCHECK_UNDECIDED = 1002, /* a bound of the check was reached */
	BLOCKCHECK_STOPPED = 1003    /* a limit */
};

unsigned blockcheck_pair(const BlockWord *u, const BlockWord *v,
			 size_t nletters, unsigned maxd, IndistBounds b,
			 struct Limits *lim);

#endif
