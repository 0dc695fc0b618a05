/* cr_peer -- .cr statements grouped exactly as the interpreter's ANTLR
 * parser groups them (the "peer" reading of cr_syntax.h): the grouping
 * that decides what is a .cr program and what it means.  How the
 * grammar's ambiguity is resolved is told at the top of cr_peer.c.
 *
 * Ownership: adds nodes to the caller's CrTree (cr_syntax.h), which
 * cr_lex filled.
 */
#ifndef TALLY_CR_PEER_H
#define TALLY_CR_PEER_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "core/cr_syntax.h"

/* Parses the right side of an assignment starting at token *pos to the
 * statement's end (where *pos ends); returns its root, or 0 after a
 * caret diagnostic. */
uint32_t cr_peer_rhs(CrTree *t, size_t *pos, const Source *src, Diag *d);

#endif
