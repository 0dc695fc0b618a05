/* repl -- the interactive workbench (tally repl, see man/tally-repl.1).
 *
 * A Repl is one session: its own Store, a Scope over the prelude, the
 * definitions typed or loaded so far (in order), the running example
 * word and the settings.  It reads lines: a formula, a definition (`let
 * NAME = ...`, `NAME := ...`, the paper form `NAME(i) := ...`) or a `:`
 * command.  An input that ends inside an open bracket continues on the
 * next line.  After each definition its values on the example word are
 * shown.  The `:` commands call the same functions as the commands of
 * the CLI (commands.h).  Errors print with a caret and the session goes
 * on; an input that fails defines nothing.
 *
 * Ownership: a Repl owns its Store, Scopes, Sources and settings;
 * repl_free (and :reset, for the definitions) releases them.
 */
#ifndef TALLY_REPL_H
#define TALLY_REPL_H

#include <stdbool.h>

struct Limits;

typedef struct Repl Repl;

Repl *repl_new(bool interactive);
void repl_free(Repl *r);
/* One input line. */
void repl_line(Repl *r, const char *line);
/* Ctrl-C: forget the input being continued. */
void repl_abandon(Repl *r);
/* The prompt for the next line (continuation or not). */
const char *repl_prompt(const Repl *r);
/* True once :quit was given. */
bool repl_done(const Repl *r);
/* End of input: an unfinished input is an error.  Returns the exit
 * status: EXIT_YES, or EXIT_USAGE when some input failed. */
int repl_finish(Repl *r);
/* Completion candidates (lineedit.h's LineeditCompleter). */
char **repl_complete(void *repl, const char *line, int start);

/* The limits of each : command that can run long (:lang, :equiv,
 * :check; :search takes its own options): copied. */
void repl_set_limits(Repl *r, const struct Limits *lim);

/* The whole session on stdin: readline on a terminal, a script
 * otherwise (echo: each script line is printed after its prompt, as on
 * a terminal).  lim: the limits of each command (repl_set_limits), or
 * NULL.  Returns the exit status. */
int repl_run(bool echo, const struct Limits *lim);

#endif
