/* lineedit -- reading the REPL's input lines.
 *
 * On a terminal, with GNU readline (HAVE_READLINE): line editing, a
 * history file and tab completion; Ctrl-C abandons the line being typed.
 * Anywhere else (a pipe, a file, a build --without-readline) lines are
 * read with getline and no prompt is printed unless stdin is a terminal:
 * readline echoes the prompt and the input when stdin is a pipe, so it
 * is never used then (craft.md).  Everything readline-specific is in
 * lineedit.c, behind these few functions.
 *
 * Ownership: lineedit_read returns a malloc'd line the caller frees; the
 * completer's candidates are malloc'd strings in a malloc'd
 * NULL-terminated array, which lineedit frees.
 */
#ifndef TALLY_LINEEDIT_H
#define TALLY_LINEEDIT_H

#include <stdbool.h>

/* All the words that may complete the word starting at byte `start` of
 * `line` (lineedit keeps those with the typed prefix); NULL for file
 * names (the default completion of readline). */
typedef char **(*LineeditCompleter)(void *ctx, const char *line, int start);

/* interactive: stdin is a terminal (readline, prompts); history: the
 * history file, or NULL for none. */
void lineedit_init(bool interactive, const char *history,
		   LineeditCompleter complete, void *ctx);
/* The next line without its newline; NULL at end of input, or with
 * *interrupted set when Ctrl-C abandoned the line. */
char *lineedit_read(const char *prompt, bool *interrupted);
/* Adds a line to the history (and to the history file at once). */
void lineedit_add_history(const char *line);
void lineedit_end(void);

#endif
