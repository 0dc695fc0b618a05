/* cr_words -- word files in the Python C-RASP interpreter's format, and
 * the open alphabet.
 *
 * The interpreter runs its program on every line that does not start
 * with "//" and holds at least one token, tokens separated by
 * whitespace.  A CrWords sits in front of a WordReader (which must read
 * tokens) and drops the other lines as they stream by, so a file of any
 * size is filtered in constant memory.  (The empty word therefore never
 * occurs in this format, as in the interpreter.)
 *
 * With an open alphabet (alphabet_open) a letter that no formula mentions
 * is read as a stand-in on which every letter test is false, as the
 * interpreter's string tests are on tokens the program never mentions.
 *
 * Ownership: a CrWords borrows its WordReader.
 */
#ifndef TALLY_CR_WORDS_H
#define TALLY_CR_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "core/word.h"

typedef struct {
	WordReader *r;
	int state; /* where in the line we are (cr_words.c) */
	Buf out;   /* bytes passed on from the current chunk */
} CrWords;

void cr_words_init(CrWords *w, WordReader *r);
void cr_words_free(CrWords *w);
/* Like word_feed and word_close. */
bool cr_words_feed(CrWords *w, const char *buf, size_t n);
bool cr_words_close(CrWords *w);

/* Unknown letters read as a stand-in named "<other>" (or "<other>'"...
 * when a formula mentions that letter). */
void alphabet_open(Alphabet *a);

#endif
