/* repl_args -- what a : command's argument names (repl_commands.h):
 * a formula, parsed in the session's scope and defining nothing, or the
 * last formula typed; one of the session's definitions; a file name.
 * The handlers of every kind of command (repl_handlers.h) read their
 * arguments through these, so an argument means the same everywhere.
 *
 * Ownership: nothing returned is the caller's but the Unit
 * repl_subject_unit fills (unit_free it).
 */
#ifndef TALLY_REPL_ARGS_H
#define TALLY_REPL_ARGS_H

#include <stdbool.h>

#include "core/parse.h"

struct Repl; /* the session (repl_session.h) */

/* The formula of a command's argument (with `terms`, an integer term
 * too), or the last formula when arg is blank; NODE_NONE after a
 * message. */
Node repl_subject_of(struct Repl *r, const char *arg, bool terms);
/* A formula: the argument, else the last one typed. */
Node repl_subject(struct Repl *r, const char *arg);
/* The unit the CLI's functions describe: the session's definitions that
 * n uses (so that they print under their names), then n. */
void repl_subject_unit(struct Repl *r, Node n, Unit *u);
/* A name the session defined (not the prelude's): its node, or
 * NODE_NONE. */
Node repl_defined(struct Repl *r, const char *name);
/* The first word of *arg, a file name, cut off (*arg moves past it);
 * NULL after a message naming :cmd when there is none. */
char *repl_file_arg(struct Repl *r, char **arg, const char *cmd);

#endif
