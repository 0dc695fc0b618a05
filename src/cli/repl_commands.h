/* repl_commands -- the REPL's : commands (man/tally-repl.1): the table of
 * names, arguments and summaries (:help), each row's handler
 * (repl_handlers.h) calling the same functions as the CLI command whose
 * work it shares (commands.h), over the session's store; and running the
 * commands that may take long in a child process, so that Ctrl-C ends
 * the command and not the session.
 *
 * Ownership: a command borrows the session (repl_session.h) and frees what
 * it makes.
 */
#ifndef TALLY_REPL_COMMANDS_H
#define TALLY_REPL_COMMANDS_H

#include <stddef.h>

#include "cli/repl.h"

/* Runs the : command of line (its first non-blank character is ':'); an
 * unknown name is an error with a suggestion. */
void repl_commands_run(Repl *r, const char *line);

/* The commands' names in :help order, for completion. */
size_t repl_commands_count(void);
const char *repl_commands_name(size_t i);

/* What the command name[0..len) takes as argument, for completion. */
typedef enum {
	REPL_ARG_OTHER,   /* formulas, words, options */
	REPL_ARG_FILE,    /* a file name */
	REPL_ARG_COMMAND, /* a command's name (:help) */
} ReplArg;
ReplArg repl_commands_arg(const char *name, size_t len);

#endif
