/* blockcheck_last -- the last level blockcheck is asked about, decided
 * from the two words' last positions alone: no other position's class
 * matters there, and refining every run of a long word at that level
 * would be most of the cost.
 *
 * Ownership: nothing is kept.
 */
#ifndef TALLY_BLOCKCHECK_LAST_H
#define TALLY_BLOCKCHECK_LAST_H

#include "search/blockcheck_runs.h"

/* Do the last positions of the two words, given by their runs cur[0],
 * cur[1] of one level (classes < ncls), fall apart at the next level?
 * 1, 0, -1 undecided. */
int blockcheck_last_apart(Check *k, const Segs *cur, size_t ncls);

#endif
