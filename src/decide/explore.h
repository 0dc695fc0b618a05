/* explore -- breadth-first search over the states of the product machine.
 *
 * Both sides are compiled into one streaming machine (machine.h) with two
 * roots; its persistent state after a prefix determines every future, so
 * prefixes reaching equal states (and equal MOD phases) are merged.  The
 * search runs one length level at a time, letters in alphabet order, and
 * keeps the first prefix reaching each state: the first word on which the
 * verdicts differ is a shortest counterexample (shortlex-least), rebuilt
 * from parent pointers.  When a level adds no new state, every reachable
 * state has been checked and the sides are equivalent for all lengths.
 *
 * Formulas with future counts #> do not stream: explore then checks whole
 * words one by one in shortlex order (no merging) and never claims
 * equivalence.
 *
 * Limits: Query.max_length (levels), max_states, the caller's timeout
 * and the user's limits (Query.limits, polled) end the search with
 * MR_BOUNDED (the length bound was reached) or MR_LIMIT (.bound = the
 * longest length whose words were all checked).
 */
#ifndef TALLY_EXPLORE_H
#define TALLY_EXPLORE_H

#include "decide/method.h"

void explore_decide(const Query *q, MethodResult *out);

/* The merging search, when set (tally-mpi: mpi_explore.h's distributed
 * one, the same answers); NULL: the one of explore.c. */
extern MethodFn explore_merge_hook;

#endif
