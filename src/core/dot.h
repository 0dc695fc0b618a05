/* dot -- a C-RASP program's dataflow as a Graphviz graph (--to=dot).
 *
 * One graph node per definition, labelled `NAME := operation`, and one
 * per letter the program reads; an edge from every definition or letter
 * to the definitions that read it.  Definitions are grouped in one
 * cluster per layer (= depth, the transformer layer that computes them);
 * counting operations (attention heads) are filled boxes with bold edges
 * coming in, position-wise operations ellipses (Boolean) or hexagons
 * (integer), and the output has a double border.  `dot -Tsvg` renders it.
 *
 * Ownership: the text is appended to the caller's Buf; the program and
 * the Store are borrowed.
 */
#ifndef TALLY_DOT_H
#define TALLY_DOT_H

#include "base/buf.h"
#include "core/crasp.h"

void dot_print(Buf *out, Store *s, const CraspProgram *p);

#endif
