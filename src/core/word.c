/* word.c -- the reader made and freed, where its letters go, letters
 * looked up and unknown ones reported. */
#include <config.h>

#include "core/word_impl.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"

void word_reader_init(WordReader *r, const Alphabet *a, bool tokens_only,
		      const WordSink *sink, Diag *d)
{
	memset(r, 0, sizeof *r);
	r->alpha = a;
	r->sink = *sink;
	r->diag = d;
	r->tokens_only = r->tokens = tokens_only;
	r->word = 1;
	/* room for a quoted letter, every byte escaped */
	r->tokcap = 2 * (a->maxlen > WORD_SHOW ? a->maxlen : WORD_SHOW) + 3;
	r->prefix = xmalloc(r->tokcap);
	r->tok = xmalloc(r->tokcap);
	toktab_init(&r->toktab, a->syms, a->letters, a->n);
	/* codes when every letter has one, --open-alphabet's stand-in
	 * too (alphabet_open gives it the code after the letters') */
	r->codes = a->n < WORD_CODES;
	r->nsym_code = a->nmember;
	if (a->other != SYM_NONE && a->other >= r->nsym_code)
		r->nsym_code = (size_t)a->other + 1;
	r->sym_code = xmalloc(r->nsym_code ? r->nsym_code : 1);
	memset(r->sym_code, WORD_NOCODE, r->nsym_code);
	for (size_t c = 0; c < 256; c++)
		if (a->code_sym[c] != SYM_NONE)
			r->sym_code[a->code_sym[c]] = (uint8_t)c;
	for (size_t b = 0; b < 256; b++)
		r->byte_code[b] = a->byte_sym[b] == SYM_NONE
			? WORD_NOCODE : r->sym_code[a->byte_sym[b]];
}

void word_reader_free(WordReader *r)
{
	free(r->prefix);
	free(r->tok);
	free(r->sym_code);
	toktab_free(&r->toktab);
}

void word_reader_bytes(WordReader *r, WordBytes *bytes)
{
	r->bytes = bytes;
}

/* The token codes pending: to r->bytes as they are, or as letters. */
void word_flush_codes(WordReader *r)
{
	const Sym *cs = r->alpha->code_sym;
	size_t n = r->ncode;
	r->ncode = 0;
	if (r->bytes) {
		size_t k = r->bytes(r->sink.ctx, r->code, n, cs);
		assert(k == n); /* every code is a letter */
		(void)k;
		return;
	}
	for (size_t i = 0; i < n; i++)
		r->out[i] = cs[r->code[i]];
	r->sink.letters(r->sink.ctx, r->out, n);
}

void word_flush(WordReader *r)
{
	if (r->ncode)
		word_flush_codes(r);
	if (r->nout)
		r->sink.letters(r->sink.ctx, r->out, r->nout);
	r->nout = 0;
}

/* A printable rendering of a letter for messages, at most WORD_SHOW bytes:
 * the n bytes known of it, and "..." when it is longer (more). */
void word_show(char *dst, const char *s, size_t n, bool more)
{
	Buf b = {0};
	size_t i = 0;
	for (; i < n && b.len < WORD_SHOW - 4; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f)
			buf_printf(&b, "\\x%02x", c);
		else
			buf_putc(&b, (char)c);
	}
	if (more || i < n)
		buf_puts(&b, "...");
	snprintf(dst, WORD_SHOW + 1, "%s", b.data ? b.data : "");
	buf_free(&b);
}

void word_report(WordReader *r, const char *letter, size_t pos)
{
	char *al = alphabet_describe(r->alpha);
	diag_plain(r->diag, "word %zu: unknown letter '%s' at position %zu "
			    "(alphabet: %s)%s",
		   r->word, letter, pos, al,
		   r->alpha->given ? "" : "; add letters with --alphabet");
	free(al);
	r->failed = true;
}

/* A letter's Sym; an unknown letter is SYM_NONE, or with an open
 * alphabet the stand-in on which every letter test is false. */
Sym word_lookup(const WordReader *r, const char *s, size_t n)
{
	Sym l = n <= r->alpha->maxlen ? sym_lookup(r->alpha->syms, s, n)
				      : SYM_NONE;
	return l != SYM_NONE && l < r->alpha->nmember && r->alpha->member[l]
		       ? l : r->alpha->other;
}
