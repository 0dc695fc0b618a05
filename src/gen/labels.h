/* labels -- `tally eval --check-labels`: read labelled words back (the
 * TSV, JSONL and .cr records of `tally gen`, tally-gen(1)) and evaluate
 * every label again: the word's label and the position labels with the
 * evaluator (eval.h); prediction labels with the state graph of
 * gen_states.h, where the end of the word must match the evaluator's
 * verdict on the prefix and each letter said possible must lead to a
 * member that the evaluator accepts (a shortest completion is built and
 * evaluated).  Disagreements are printed one per line on stdout.
 *
 * Ownership: the caller keeps the Store and Units; everything else is
 * the checker's own.
 */
#ifndef TALLY_LABELS_H
#define TALLY_LABELS_H

#include <stdio.h>

#include "base/diag.h"
#include "machine/eval.h"
#include "core/store.h"
#include "core/unit.h"

/* Checks the records on `in` against units[0] (one unit); alphabet: the
 * --alphabet spec or NULL.  EXIT_YES when every label agrees, EXIT_NO
 * when some do not, EXIT_USAGE on a malformed record, EXIT_INTERNAL when
 * two of tally's own paths disagree. */
int labels_check(Store *s, const Unit *units, size_t nunits,
		 const char *alphabet, AcceptAt accept, FILE *in, Diag *d);

#endif
