/* trace_html -- `tally eval --trace --html`: the trace as one
 * self-contained HTML page (no scripts, no external files).
 *
 * Each word gets a section: its verdict first, then a table with one
 * column per position and one row per subformula or definition (the rows
 * of trace.h); Boolean cells that are true are marked (class "t", a
 * coloured background and a check mark), false ones class "f", counts
 * class "n".  The page opens with the overall verdict.
 *
 * Ownership: the caller owns the Buf and the JSON trace (trace_json).
 */
#ifndef TALLY_TRACE_HTML_H
#define TALLY_TRACE_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "base/buf.h"

/* Appends the section of one word: its text, verdicts (one per formula)
 * and trace (the object of trace_json). */
void trace_html_word(Buf *page, json_t *trace, const char *word, size_t n,
		     const bool *accept, size_t nformulas);
/* Writes the whole page: head, overall verdict, then the sections. */
void trace_html_page(FILE *out, const Buf *sections, size_t nwords,
		     size_t nrejected);

#endif
