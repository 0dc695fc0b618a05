/* trace -- the per-position table of `tally eval --trace`.
 *
 * The table of the papers: a header of positions and letters, then one
 * row per subformula (printed with the unit's definition names) or, for a
 * unit with definitions (a C-RASP program, let-definitions), one row per
 * definition, named as in the program: every definition, used or not,
 * with the values of its own node (trace_table).  Booleans print as 1/0,
 * counts as exact integers; columns are aligned.
 *
 * Ownership: a Trace owns its row labels; it borrows the Store.
 */
#ifndef TALLY_TRACE_H
#define TALLY_TRACE_H

#include <stdio.h>

#include <jansson.h>

#include "machine/eval.h"
#include "core/unit.h"

typedef struct Trace Trace;

Trace *trace_new(const Store *s, const Unit *units, size_t nunits);
void trace_free(Trace *tr);
/* The values of the rows over the window first..last of word[0..n):
 * each row from its own node (a definition merged into a larger node by
 * the store, or used by no output, included), so not the evaluator's
 * table of the outputs. */
EvalTable *trace_table(const Trace *tr, AcceptAt accept, const Sym *word,
		       size_t n, size_t first, size_t last);
/* The rows over the table's positions; word[0..n) are the letters.  A
 * table without some row's node (eval_table of the outputs) is replaced
 * by trace_table over its window, at the cost of a second evaluation. */
void trace_print(const Trace *tr, const EvalTable *t, const Sym *word,
		 size_t n, FILE *out);
/* {"positions": [...], "letters": [...], "rows": [{"label", "values"}]} */
json_t *trace_json(const Trace *tr, const EvalTable *t, const Sym *word,
		   size_t n);

#endif
