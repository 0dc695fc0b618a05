/* repl_session -- the REPL's session (repl.h's Repl): its Store, the
 * Scope over the prelude, the definitions typed or loaded so far, the
 * running example word and the settings; taking an input (a formula or
 * definitions) in the session's scope and showing its values on the
 * example word.  The lines (repl.c) and the : commands
 * (repl_commands.c, its handlers in repl_handlers.h) all work on it.
 *
 * Ownership: a Repl owns its Store, Scopes, Sources and settings;
 * repl_session_close releases the store and definitions, repl_free the
 * rest.
 */
#ifndef TALLY_REPL_SESSION_H
#define TALLY_REPL_SESSION_H

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

/* A new Store, Scope and Lowering, no definitions; and their end. */
void repl_session_open(Repl *r);
void repl_session_close(Repl *r);

SymTab *repl_session_syms(Repl *r);
/* "tally: error: ..." on stderr; the session has failed (exit status). */
void repl_session_fail(Repl *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *repl_session_skip_blank(const char *s);
/* Forgets the scope's names of u's definitions (an input that failed, or
 * an argument that defines nothing). */
void repl_session_forget_unit(Repl *r, const Unit *u);
/* Parses src (adopted) in the session's scope and, when it succeeds,
 * keeps its definitions and shows them.  With `replace`, an input that
 * defines a name the session has defined replaces it (definitions made
 * with the old one keep it).  Returns false when the input failed; *more
 * is set instead when it ends inside an open bracket and more lines may
 * complete it. */
bool repl_session_take_input(Repl *r, Source *src, Flavor f, bool replace,
			     bool *more);
/* The session's alphabet as an --alphabet value ("a,b,c"; NULL when it
 * has no letter): :alphabet's letters, then those of every definition
 * and of the last formula -- the one alphabet every : command asks its
 * question over, whatever letters its own formula mentions. */
char *repl_session_alphabet(const Repl *r);
/* Forgets every definition: a new Store, Scope and Lowering. */
void repl_session_reset(Repl *r);

#endif
