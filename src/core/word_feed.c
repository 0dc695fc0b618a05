/* word_feed.c -- bytes fed to the reader: the character reader, a line
 * that turns to tokens, line ends, and the dispatch between the fast
 * paths (runs of one-byte letters here, tokens in word_token_run.c). */
#include <config.h>

#include <string.h>

#include "core/word_impl.h"
#include "core/word_token_run.h"
#include "core/word_tokens.h"

/* One character in character mode; an unknown one is an error only if
 * the line turns out to have no whitespace. */
static void character(WordReader *r, const char *s, size_t n)
{
	Sym l = r->bad ? SYM_NONE : word_lookup(r, s, n);
	if (l != SYM_NONE) {
		word_emit(r, l);
		return;
	}
	if (!r->bad) {
		r->bad = true;
		word_show(r->badtext, s, n, false);
		r->badpos = r->pos + 1;
	}
}

/* Whitespace in a line read as characters: it is a list of tokens, and
 * what was read so far is its first token. */
static void to_tokens(WordReader *r)
{
	r->nout = r->ncode = 0;
	r->sink.restart(r->sink.ctx);
	r->tokens = true;
	r->bad = false;
	r->pos = 0;
	r->nu8 = r->needu8 = 0;
	r->nkept = r->linelen < r->tokcap ? r->linelen : r->tokcap;
	memcpy(r->tok, r->prefix, r->nkept);
	r->ntok = r->linelen;
}

static void utf8_done(WordReader *r)
{
	character(r, (const char *)r->u8, r->nu8);
	r->nu8 = r->needu8 = 0;
}

/* Everything but the common case: whitespace, CR, UTF-8, unknown bytes. */
static bool slow_byte(WordReader *r, unsigned char c)
{
	r->any = true;
	if (r->cr) {
		r->cr = false;
		if (!r->tokens)
			to_tokens(r);
		if (!word_token_byte(r, '\r'))
			return false;
	}
	if (r->tokens)
		return word_token_byte(r, c);
	if (r->needu8 && (c & 0xc0) != 0x80)
		utf8_done(r); /* truncated sequence: one invalid character */
	if (c == '\r') {
		r->cr = true;
		return true;
	}
	if (word_is_space(c)) {
		to_tokens(r);
		return word_token_byte(r, c);
	}
	if (r->linelen < r->tokcap)
		r->prefix[r->linelen] = (char)c;
	r->linelen++;
	if (r->needu8) {
		r->u8[r->nu8++] = c;
		if (r->nu8 == r->needu8)
			utf8_done(r);
	} else if (c >= 0x80 && word_utf8_len(c) > 1) {
		r->u8[0] = c;
		r->nu8 = 1;
		r->needu8 = word_utf8_len(c);
	} else {
		character(r, (const char *)&c, 1);
	}
	return true;
}

static bool end_line(WordReader *r)
{
	r->cr = false;
	bool ok = true;
	if (r->tokens) {
		ok = word_end_token(r);
	} else {
		if (r->needu8)
			utf8_done(r);
		if (r->bad) {
			word_report(r, r->badtext, r->badpos);
			ok = false;
		}
	}
	if (ok) {
		word_flush(r);
		ok = r->sink.end(r->sink.ctx);
	}
	r->tokens = r->tokens_only;
	r->bad = r->any = false;
	r->pos = r->linelen = r->nout = r->ncode = r->ntok = r->nkept = 0;
	r->word++;
	if (!ok)
		r->failed = true;
	return ok;
}

/* The run of one-byte letters from buf[i] on, as letters into out[]
 * while it has room; returns where the run stopped. */
static size_t letter_syms(WordReader *r, const char *buf, size_t i, size_t n)
{
	const Sym *bs = r->alpha->byte_sym;
	size_t j = i, room = WORD_OUT - r->nout;
	Sym *out = r->out + r->nout;
	for (Sym l; j < n && j - i < room &&
		    (l = bs[(unsigned char)buf[j]]) != SYM_NONE;
	     j++)
		out[j - i] = l;
	r->nout += j - i;
	return j;
}

/* The same run handed to r->bytes, after the letters pending. */
static size_t letter_bytes(WordReader *r, const char *buf, size_t i, size_t n)
{
	word_flush(r);
	return i + r->bytes(r->sink.ctx, (const unsigned char *)buf + i, n - i,
			    r->alpha->byte_sym);
}

bool word_feed(WordReader *r, const char *buf, size_t n)
{
	const Sym *bs = r->alpha->byte_sym;
	size_t keep = r->tokcap, seg = 0;
	if (r->failed)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (bs[c] != SYM_NONE && !r->tokens && !r->cr && !r->needu8 &&
		    !r->bad) {
			/* The common case: a run of one-byte letters. */
			size_t j = r->bytes ? letter_bytes(r, buf, i, n)
						 : letter_syms(r, buf, i, n);
			if (r->linelen < keep) {
				size_t k = j - i < keep - r->linelen
						   ? j - i : keep - r->linelen;
				memcpy(r->prefix + r->linelen, buf + i, k);
			}
			r->linelen += j - i;
			r->pos += j - i;
			r->any = true;
			if (r->nout == WORD_OUT)
				word_flush(r);
			i = j - 1;
			continue;
		}
		if (r->tokens && !r->cr && r->ntok == 0 && c != '\n') {
			size_t j = word_token_run(r, buf, i, n);
			if (j > i) {
				i = j - 1;
				continue;
			}
		}
		if (c == '\n') {
			r->sink.text(r->sink.ctx, buf + seg, i - seg);
			seg = i + 1;
			if (!end_line(r))
				return false;
			continue;
		}
		if (!slow_byte(r, c))
			return false;
	}
	if (seg < n)
		r->sink.text(r->sink.ctx, buf + seg, n - seg);
	word_flush(r);
	return true;
}

void word_line_done(WordReader *r)
{
	r->word++;
}

bool word_close(WordReader *r)
{
	if (r->failed)
		return false;
	if (!r->any && r->linelen == 0)
		return true;
	return end_line(r);
}

/* Whether text is "ε" and ε is not a letter: then it is the empty word,
 * as tally prints it (a letter ε keeps its meaning). */
static bool epsilon(const WordReader *r, const char *text, size_t n)
{
	static const char eps[] = "\xce\xb5";
	if (n != sizeof eps - 1 || memcmp(text, eps, n) != 0)
		return false;
	Sym s = sym_lookup(r->alpha->syms, eps, n);
	return s == SYM_NONE || s >= r->alpha->nmember || !r->alpha->member[s];
}

bool word_one(WordReader *r, const char *text, size_t n)
{
	if (epsilon(r, text, n))
		n = 0;
	Sym quoted = word_quoted_letter(r, text, n);
	if (quoted != SYM_NONE) {
		if (r->sink.text)
			r->sink.text(r->sink.ctx, text, n);
		word_emit(r, quoted);
		return end_line(r);
	}
	if (!word_feed(r, text, n))
		return false;
	return end_line(r);
}
