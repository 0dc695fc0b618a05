/* word_impl -- what the parts of the reader (word_tokens.c,
 * word_token_run.c, word_feed.c) share from word.c: the reader's
 * output, letters looked up, unknown letters reported.
 *
 * Ownership: as word.h.
 */
#ifndef TALLY_WORD_IMPL_H
#define TALLY_WORD_IMPL_H

#include "core/word.h"

/* The token codes pending: to r->bytes as they are, or as letters. */
void word_flush_codes(WordReader *r);
/* Everything pending (codes, then letters) to the sink. */
void word_flush(WordReader *r);

/* One letter of the current word, counted. */
static inline void word_emit(WordReader *r, Sym l)
{
	if (r->ncode)
		word_flush_codes(r);
	r->out[r->nout++] = l;
	r->pos++;
	if (r->nout == WORD_OUT)
		word_flush(r);
}

/* A printable rendering of a letter for messages, at most WORD_SHOW bytes:
 * the n bytes known of it, and "..." when it is longer (more). */
void word_show(char *dst, const char *s, size_t n, bool more);
/* "word N: unknown letter ..." for the letter shown, at 1-based pos;
 * the reader has failed. */
void word_report(WordReader *r, const char *letter, size_t pos);
/* A letter's Sym; an unknown letter is SYM_NONE, or with an open
 * alphabet the stand-in on which every letter test is false. */
Sym word_lookup(const WordReader *r, const char *s, size_t n);

#endif
