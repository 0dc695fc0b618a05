/* print -- TL[#] printers: ASCII, the papers' Unicode, LaTeX, s-expressions.
 *
 * The ASCII and Unicode forms use minimal parentheses and parse back to
 * the same node.  `names` (optional, indexed by node id, SYM_NONE where
 * unnamed) makes the printer write a definition's name instead of its
 * body, for every node but the root.  Results are malloc'd strings the
 * caller frees.
 */
#ifndef TALLY_PRINT_H
#define TALLY_PRINT_H

#include <stdbool.h>

#include "base/buf.h"
#include "core/store.h"
#include "core/unit.h"

typedef enum {
	SYNTAX_TL,    /* ASCII, the default */
	SYNTAX_UTF8,  /* the papers' notation */
	SYNTAX_LATEX,
	SYNTAX_SEXPR,
} Syntax;

/* The printers recurse once per level of the tree they write: a tree
 * higher than this (store_height) is refused by the commands that
 * expand definitions (print --expand), which would otherwise overflow
 * the stack.  Formulas as written nest at most PARSE_MAX_NESTING deep;
 * only inlining chains of definitions goes beyond. */
#define PRINT_MAX_HEIGHT 5000

char *tl_print(const Store *s, Node n, Syntax syn, const Sym *names);
void tl_print_to(Buf *out, const Store *s, Node n, Syntax syn,
		 const Sym *names);
/* tl_print without names, asking stop(ctx) at every node it writes (a
 * user's limit): NULL once stop answered true, the text is dropped. */
char *tl_print_stoppable(const Store *s, Node n, Syntax syn,
			 bool (*stop)(void *ctx), void *ctx);
/* A letter as TL source: Q_a when identifier-like, else quoted. */
void tl_print_letter(Buf *out, const Store *s, Sym letter, Syntax syn);
/* A formula as one line of TL for messages and labels: written out when
 * its tree has at most PRINT_BRIEF_SIZE nodes; otherwise as
 * "let t1 = ...; let t2 = ...; body", naming the shared subformulas and
 * cutting deep chains, so that the text is linear in the DAG and each
 * body shallow (a formula of 2^64 nodes or 10^5 levels prints at once). */
#define PRINT_BRIEF_SIZE 2000
char *tl_print_brief(const Store *s, Node n, Syntax syn);
/* A unit with its definitions: "let NAME = body;" lines, then the output
 * (its name when it is a definition). */
char *tl_print_unit(const Store *s, const Unit *u, Syntax syn);

#endif
