/* repl_impl -- what the REPL's session (repl.c) shares with its :
 * commands (repl_commands.c): the session itself, and the session's
 * operations a command performs (report an error, take an input in the
 * session's scope, start over).
 *
 * Ownership: as repl.h.  A command changes the session through these
 * fields and functions only; the Store, Scope and Sources stay the
 * session's.
 */
#ifndef TALLY_REPL_IMPL_H
#define TALLY_REPL_IMPL_H

#include <stdbool.h>

#include "base/buf.h"
#include "base/limit.h"
#include "base/vec.h"
#include "cli/repl.h"
#include "core/lower.h"
#include "core/parse.h"

struct Repl {
	bool interactive;
	Store *store;
	Scope *scope; /* over the prelude, which it owns */
	Lowering *lw;
	VEC(Source *) sources; /* of the definitions: they point into them */
	VEC(Def) defs;         /* the session's definitions, in order */
	Node last;             /* the last formula: what :info etc. describe */
	char *word;            /* the running example word, or NULL */
	bool examples;
	char *alphabet; /* :alphabet, or NULL */
	Buf pending;    /* an input continued over several lines */
	int pending_line;
	bool continuing;
	int line; /* lines read */
	bool failed, quit;
	Limits lim; /* of each long command (tally repl --timeout ...) */
};

SymTab *repl_syms(Repl *r);
/* "tally: error: ..." on stderr; the session has failed (exit status). */
void repl_fail(Repl *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *repl_skip_blank(const char *s);
/* Forgets the scope's names of u's definitions (an input that failed, or
 * an argument that defines nothing). */
void repl_forget_unit(Repl *r, const Unit *u);
/* Parses src (adopted) in the session's scope and, when it succeeds,
 * keeps its definitions and shows them.  With `replace`, an input that
 * defines a name the session has defined replaces it (definitions made
 * with the old one keep it).  Returns false when the input failed; *more
 * is set instead when it ends inside an open bracket and more lines may
 * complete it. */
bool repl_take_input(Repl *r, Source *src, Flavor f, bool replace,
		     bool *more);
/* Forgets every definition: a new Store, Scope and Lowering. */
void repl_reset_store(Repl *r);

#endif
