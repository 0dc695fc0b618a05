/* echo -- the text of the word being read, for its result line
 * ("WORD<TAB>accept"), in bounded memory.
 *
 * A result line is written whole (word and verdict) or, after an error
 * in the word, not at all; so the text is held until the verdict.  The
 * first ECHO_MAX bytes stay in memory, the rest goes to a temporary
 * file: a word of 2^25 letters read from standard input costs no memory
 * for its echo.  A final CR belongs to the line ending, not to the word.
 *
 * Ownership: an Echo owns its buffer and its temporary file; echo_free
 * releases them.
 */
#ifndef TALLY_ECHO_H
#define TALLY_ECHO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/buf.h"

#define ECHO_MAX (64 * 1024)

typedef struct {
	Buf text;
	FILE *spill;  /* the text beyond ECHO_MAX, or NULL */
	bool spilled, held_cr;
} Echo;

/* Appends bytes of the current line. */
void echo_add(Echo *e, const char *bytes, size_t n);
/* Writes the line's text (without a final CR) to out. */
void echo_write(Echo *e, FILE *out);
/* Forgets the line (after it was written, or after an error). */
void echo_drop(Echo *e);
void echo_free(Echo *e);

#endif
