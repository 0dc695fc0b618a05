/* blockcheck_pieces -- one level of blockcheck: each run of a word is
 * cut into pieces by searching (doubling, then bisection) for the last
 * position no comparison separates from the piece's first, and each
 * piece is matched to a class of the new level (blockcheck_classes.h).
 *
 * Ownership: out is the caller's (grown here).
 */
#ifndef TALLY_BLOCKCHECK_PIECES_H
#define TALLY_BLOCKCHECK_PIECES_H

#include "search/blockcheck_classes.h"
#include "search/blockcheck_runs.h"

/* One word from its runs `in` of the level below (classes < nbelow) to
 * those of the next, into out, the classes met kept in cs.  False when a
 * limit stopped it; an undecided test sets k->undecided. */
bool blockcheck_next_level(Check *k, Classes *cs, const Segs *in,
			   size_t nbelow, Segs *out);

#endif
