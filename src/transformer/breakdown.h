/* breakdown -- the shortest word on which a model under one semantics
 * (rounded-sums, ieee=...) decides differently from the same model under
 * kneedeep, by breadth-first search over the pairs of simulator states.
 *
 * Only for models whose heads all have constant logits (what tally
 * compile builds): the state of such a model after a prefix is its
 * attention accumulators, so words reaching the same pair of states are
 * interchangeable and one representative per pair and length suffices.
 * Under kneedeep the compiled model decides like the formula at every
 * length (Knee-Deep's theorem; tally simulate --check-against-formula
 * tests it), so the first disagreement with kneedeep is the first
 * disagreement with the formula; the caller confirms the witness against
 * the evaluator.
 *
 * Ownership: borrows the Model; the witness in the Mismatch is malloc'd.
 */
#ifndef TALLY_BREAKDOWN_H
#define TALLY_BREAKDOWN_H

#include <stddef.h>

#include "transformer/fixed.h"
#include "transformer/mismatch.h"
#include "transformer/model.h"

typedef enum { BREAK_FOUND, BREAK_NONE, BREAK_LIMIT, BREAK_UNSUPPORTED } BreakResult;

/* Searches lengths 0..maxlen keeping at most maxstates states in all;
 * out->words receives the number of states visited. */
struct Limits;
/* lim: the user's --timeout/--max-memory (limit.h), polled per state;
 * NULL: none.  BREAK_LIMIT when maxstates or one of them was reached;
 * out->length is then the longest length whose words all agree. */
BreakResult breakdown_search(const Model *m, const Semantics *sem,
			     size_t maxlen, size_t maxstates,
			     struct Limits *lim, Mismatch *out);

#endif
