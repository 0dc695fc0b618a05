#include <config.h>
#include "core/word.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/buf.h"
#include "base/mem.h"
#include "base/vec.h"

/* ---- alphabets ---------------------------------------------------------- */

static bool is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	       c == '\f';
}

/* Bytes of the UTF-8 character that starts with c (1 when invalid). */
static size_t utf8_len(unsigned char c)
{
	return c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf8 ? 4 : 1;
}

static void add_letter(Alphabet *a, Sym l)
{
	if (l >= a->nmember) {
		size_t old = a->nmember;
		mem_grow((void **)&a->member, &a->nmember, (size_t)l + 1, 1);
		memset(a->member + old, 0, a->nmember - old);
	}
	if (a->member[l])
		return;
	a->member[l] = 1;
	size_t cap = a->n;
	mem_grow((void **)&a->letters, &cap, a->n + 1, sizeof *a->letters);
	a->letters[a->n++] = l;
}

static const SymTab *sort_syms;

static int by_name(const void *x, const void *y)
{
	return strcmp(sym_name(sort_syms, *(const Sym *)x),
		      sym_name(sort_syms, *(const Sym *)y));
}

void alphabet_init(Alphabet *a, Store *s, const Node *roots, size_t nroots,
		   const char *spec)
{
	alphabet_init_with(a, s, roots, nroots, NULL, 0, spec);
}

void alphabet_init_with(Alphabet *a, Store *s, const Node *roots,
			size_t nroots, const Sym *extra, size_t nextra,
			const char *spec)
{
	memset(a, 0, sizeof *a);
	a->syms = store_syms(s);
	a->other = SYM_NONE;
	if (spec) {
		a->given = true;
		bool split = strpbrk(spec, ", \t") != NULL;
		for (size_t i = 0, len = strlen(spec); i < len;) {
			size_t j = i;
			if (split)
				while (j < len && spec[j] != ',' && !is_space(spec[j]))
					j++;
			else
				j = i + utf8_len((unsigned char)spec[i]);
			if (j > len)
				j = len;
			if (j > i)
				add_letter(a, sym_intern(a->syms, spec + i, j - i));
			i = split && j == i ? j + 1 : j;
		}
	}
	size_t given = a->n;
	size_t nl;
	/* one sweep: the roots may be every definition of a long program */
	Sym *ls = store_letters_of(s, roots, nroots, &nl);
	for (size_t i = 0; i < nl; i++)
		add_letter(a, ls[i]);
	free(ls);
	for (size_t i = 0; i < nextra; i++)
		add_letter(a, extra[i]);
	sort_syms = a->syms;
	if (a->n > given) /* qsort's base must not be NULL, even for 0 items */
		qsort(a->letters + given, a->n - given, sizeof *a->letters,
		      by_name);
	for (size_t i = 0; i < 256; i++) {
		a->byte_sym[i] = SYM_NONE;
		a->code_sym[i] = i < a->n && i < WORD_CODES ? a->letters[i]
							    : SYM_NONE;
	}
	for (size_t i = 0; i < a->n; i++) {
		const char *name = sym_name(a->syms, a->letters[i]);
		size_t len = strlen(name);
		if (len > a->maxlen)
			a->maxlen = len;
		if (len == 1 && !is_space((unsigned char)name[0]))
			a->byte_sym[(unsigned char)name[0]] = a->letters[i];
	}
}

void alphabet_init_units(Alphabet *a, Store *s, const Node *roots,
			 size_t nroots, const Unit *units, size_t nunits,
			 const char *spec)
{
	size_t n = 0;
	for (size_t i = 0; i < nunits; i++)
		n += units[i].nletters;
	Sym *spelled = xmalloc((n ? n : 1) * sizeof *spelled);
	n = 0;
	for (size_t i = 0; i < nunits; i++)
		for (size_t j = 0; j < units[i].nletters; j++)
			spelled[n++] = units[i].letters[j];
	alphabet_init_with(a, s, roots, nroots, spelled, n, spec);
	free(spelled);
}

void alphabet_free(Alphabet *a)
{
	free(a->letters);
	free(a->member);
	memset(a, 0, sizeof *a);
}

/* Whether a letter's name can be written as it is in a word or a list
 * of letters: not empty, no blank, quote, backslash or control
 * character, not ε (the empty word) and no ^ (a^3 is a run). */
static bool plain_letter(const char *name)
{
	if (!*name || strcmp(name, "\xce\xb5") == 0)
		return false;
	for (const char *c = name; *c; c++)
		if (is_space((unsigned char)*c) || *c == '\'' || *c == '\\' ||
		    *c == '^' || (unsigned char)*c < 0x20 || *c == 0x7f)
			return false;
	return true;
}

bool word_plain_letter(const char *name)
{
	return plain_letter(name);
}

/* Letters that are not plain are quoted as in TL ('a b', 'ε'), so a list
 * or a word reads back unambiguously and ε always means the empty
 * word. */
void word_put_letter(Buf *b, const char *name)
{
	if (plain_letter(name)) {
		buf_puts(b, name);
		return;
	}
	buf_putc(b, '\'');
	for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
		if (*c == '\'' || *c == '\\')
			buf_printf(b, "\\%c", *c);
		else if (*c < 0x20 || *c == 0x7f)
			buf_printf(b, "\\x%02x", *c);
		else
			buf_putc(b, (char)*c);
	}
	buf_putc(b, '\'');
}

bool word_single_char(const char *name)
{
	size_t n = strlen(name);
	return n > 0 && n == utf8_len((unsigned char)name[0]);
}

bool alphabet_spaced(const Alphabet *a)
{
	for (size_t i = 0; i < a->n; i++)
		if (!word_single_char(sym_name(a->syms, a->letters[i])))
			return true;
	return false;
}

char *letters_describe(const SymTab *syms, const Sym *letters, size_t n)
{
	Buf b = {0};
	buf_puts(&b, "");
	for (size_t i = 0; i < n; i++) {
		if (i)
			buf_putc(&b, ' ');
		word_put_letter(&b, sym_name(syms, letters[i]));
	}
	return buf_take(&b);
}

char *alphabet_describe(const Alphabet *a)
{
	return letters_describe(a->syms, a->letters, a->n);
}

void letters_print_line(FILE *out, const SymTab *syms, const Sym *letters,
			size_t n)
{
	char *text = letters_describe(syms, letters, n);
	fprintf(out, "alphabet: %s\n", *text ? text : "(none)");
	free(text);
}

/* ---- the reader ----------------------------------------------------------- */

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
static void flush_codes(WordReader *r)
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

static void flush(WordReader *r)
{
	if (r->ncode)
		flush_codes(r);
	if (r->nout)
		r->sink.letters(r->sink.ctx, r->out, r->nout);
	r->nout = 0;
}

static void emit(WordReader *r, Sym l)
{
	if (r->ncode)
		flush_codes(r);
	r->out[r->nout++] = l;
	r->pos++;
	if (r->nout == WORD_OUT)
		flush(r);
}

/* A printable rendering of a letter for messages, at most WORD_SHOW bytes:
 * the n bytes known of it, and "..." when it is longer (more). */
static void show(char *dst, const char *s, size_t n, bool more)
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

static void report(WordReader *r, const char *letter, size_t pos)
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
static Sym lookup(const WordReader *r, const char *s, size_t n)
{
	Sym l = n <= r->alpha->maxlen ? sym_lookup(r->alpha->syms, s, n)
				      : SYM_NONE;
	return l != SYM_NONE && l < r->alpha->nmember && r->alpha->member[l]
		       ? l : r->alpha->other;
}

/* One character in character mode; an unknown one is an error only if
 * the line turns out to have no whitespace. */
static void character(WordReader *r, const char *s, size_t n)
{
	Sym l = r->bad ? SYM_NONE : lookup(r, s, n);
	if (l != SYM_NONE) {
		emit(r, l);
		return;
	}
	if (!r->bad) {
		r->bad = true;
		show(r->badtext, s, n, false);
		r->badpos = r->pos + 1;
	}
}

/* A letter written quoted, as word_put_letter writes those that are not
 * plain ('ε', 'a b', 'x^y'): its Sym, or SYM_NONE. */
static Sym quoted_letter(const WordReader *r, const char *s, size_t n)
{
	if (n < 3 || s[0] != '\'' || s[n - 1] != '\'')
		return SYM_NONE;
	char *name = xmalloc(n);
	size_t k = 0;
	for (size_t i = 1; i + 1 < n; i++) {
		if (s[i] == '\\' && i + 2 < n && (s[i + 1] == '\'' ||
						    s[i + 1] == '\\'))
			i++;
		name[k++] = s[i];
	}
	Sym l = sym_lookup(r->alpha->syms, name, k);
	free(name);
	return l != SYM_NONE && l < r->alpha->nmember && r->alpha->member[l]
		       ? l : SYM_NONE;
}

static bool end_token(WordReader *r)
{
	if (r->ntok == 0)
		return true;
	size_t n = r->ntok, kept = r->nkept;
	Sym l = lookup(r, r->tok, n);
	if (l == SYM_NONE && kept == n)
		l = quoted_letter(r, r->tok, n);
	r->ntok = r->nkept = 0;
	if (l != SYM_NONE) {
		emit(r, l);
		return true;
	}
	char text[WORD_SHOW + 1];
	show(text, r->tok, kept, kept < n);
	report(r, text, r->pos + 1);
	return false;
}

static bool token_byte(WordReader *r, unsigned char c)
{
	if (is_space(c))
		return end_token(r);
	/* Only a prefix is kept: a token longer than every letter is
	 * unknown, and its first bytes are enough to name it. */
	if (r->nkept == r->ntok && r->nkept < r->tokcap)
		r->tok[r->nkept++] = (char)c;
	r->ntok++;
	return true;
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
		if (!token_byte(r, '\r'))
			return false;
	}
	if (r->tokens)
		return token_byte(r, c);
	if (r->needu8 && (c & 0xc0) != 0x80)
		utf8_done(r); /* truncated sequence: one invalid character */
	if (c == '\r') {
		r->cr = true;
		return true;
	}
	if (is_space(c)) {
		to_tokens(r);
		return token_byte(r, c);
	}
	if (r->linelen < r->tokcap)
		r->prefix[r->linelen] = (char)c;
	r->linelen++;
	if (r->needu8) {
		r->u8[r->nu8++] = c;
		if (r->nu8 == r->needu8)
			utf8_done(r);
	} else if (c >= 0x80 && utf8_len(c) > 1) {
		r->u8[0] = c;
		r->nu8 = 1;
		r->needu8 = utf8_len(c);
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
		ok = end_token(r);
	} else {
		if (r->needu8)
			utf8_done(r);
		if (r->bad) {
			report(r, r->badtext, r->badpos);
			ok = false;
		}
	}
	if (ok) {
		flush(r);
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

/* Byte classes of a line of tokens: a token byte, a blank between
 * tokens (whitespace but the newline; a CR inside the line is a blank),
 * the newline. */
enum { TOKEN_BYTE, BLANK, NEWLINE };
static const unsigned char byte_class[256] = {
	['\t'] = BLANK, ['\v'] = BLANK, ['\f'] = BLANK, ['\r'] = BLANK,
	[' '] = BLANK, ['\n'] = NEWLINE,
};

/* Where the token starting at b[i] ends: the first blank or newline
 * from i on, or n. */
static size_t token_end(const unsigned char *b, size_t i, size_t n)
{
	while (i < n && byte_class[b[i]] == TOKEN_BYTE)
		i++;
	return i;
}

static inline void put(WordReader *r, Sym l)
{
	if (r->ncode)
		flush_codes(r);
	r->out[r->nout++] = l;
	if (r->nout == WORD_OUT)
		flush(r);
}

enum { BLOCK = 64 }; /* bytes whose separators are one 64-bit mask */

/* Bit k set: p[k] separates tokens (a blank or the newline); *nl gets
 * the newlines alone. */
static inline __attribute__((always_inline)) uint64_t
separators(const unsigned char *p, uint64_t *nl)
{
	uint64_t m = 0, n = 0;
#ifdef __SSE2__
	const __m128i space = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t');
	const __m128i four = _mm_set1_epi8(4), lf = _mm_set1_epi8('\n');
	for (int k = 0; k < BLOCK; k += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(p + k));
		/* \t \n \v \f \r are 9..13: v - 9 <= 4, unsigned */
		__m128i d = _mm_sub_epi8(v, tab);
		__m128i c = _mm_or_si128(
			_mm_cmpeq_epi8(v, space),
			_mm_cmpeq_epi8(_mm_min_epu8(d, four), d));
		m |= (uint64_t)(unsigned)_mm_movemask_epi8(c) << k;
		n |= (uint64_t)(unsigned)_mm_movemask_epi8(
			     _mm_cmpeq_epi8(v, lf)) << k;
	}
#else
	for (int k = 0; k < BLOCK; k++) {
		m |= (uint64_t)(byte_class[p[k]] != TOKEN_BYTE) << k;
		n |= (uint64_t)(p[k] == '\n') << k;
	}
#endif
	*nl = n;
	return m;
}

/* The letter of the token p[0..len), at least 16 bytes readable from p
 * (TOKTAB_DIRECT with direct);
 * SYM_NONE when unknown.  The token table answers for every letter
 * above the space without a call; the others (control bytes, an open
 * alphabet's stand-in) and unknown tokens go to the symbol table. */
static inline __attribute__((always_inline)) Sym
block_token(const WordReader *r, const TokTab *tab, const unsigned char *p,
	    size_t len, bool direct)
{
	/* keep[k]: the low k bytes of a word (no branch on the length) */
	static const uint64_t keep[] = {
		0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffffull,
		0xffffffffffffull, 0xffffffffffffffull, UINT64_MAX};
	if (len <= 8) {
		/* most letters: one word, hashed alone (k1 is 0) */
		uint64_t k0 = toktab_load(p) & keep[len];
		const TokSlot *s = tab->slot + toktab_hash(tab, k0, 0);
		if (((s->k0 ^ k0) | (s->len ^ len)) == 0)
			return s->sym;
	} else if (direct) {
		/* TOKTAB_DIRECT bytes readable: a longer letter of up to
		 * that many bytes in one comparison, whatever its length */
		Sym l = toktab_direct(tab, p, len);
		if (l != SYM_NONE)
			return l;
	}
	uint64_t k0 = toktab_load(p) & keep[len < 8 ? len : 8];
	size_t len2 = len > 8 ? len - 8 : 0; /* bytes in word 2 */
	Sym l = toktab_find(tab, k0,
			    toktab_load(p + 8) & keep[len2 < 8 ? len2 : 8], len,
			    (const char *)p + TOKTAB_WORDS);
	return l != SYM_NONE ? l : lookup(r, (const char *)p, len);
}

/* Where the token reader's fast path puts letters: as codes
 * (Alphabet.code_sym) into r->code when every letter has one, else as
 * Syms into r->out; room for at least want more. */
static inline void out_room(WordReader *r, bool codes, size_t want)
{
	if ((codes ? WORD_OUT - r->ncode : WORD_OUT - r->nout) < want)
		flush(r);
}

/* The token's letter as the fast path emits it (its code with codes,
 * from sc[0..nsc), the reader's sym_code; else the Sym); none: *ok
 * false. */
static inline __attribute__((always_inline)) Sym
as_out(const uint8_t *sc, size_t nsc, Sym l, bool codes, bool *ok)
{
	if (!codes) {
		*ok = l != SYM_NONE;
		return l;
	}
	uint8_t c = l < nsc ? sc[l] : WORD_NOCODE;
	*ok = c != WORD_NOCODE;
	return c;
}

/* The tokens from b[i] on, 64 bytes at a time while 32 more are
 * readable, up to a newline: each block's separators are one mask, the
 * tokens' starts and ends its edges, walked by clearing the lowest bit
 * (a token may span blocks), so no byte is looked at twice and no token
 * by a loop.  b[i] starts a token or is a blank.  Adds the tokens
 * emitted to *count; returns where the next step starts: a newline, an
 * unknown token, a token cut by the end of the last block, or after
 * it.  codes: the letters go to r->code as codes (one byte each, the
 * form a line of characters has), else to r->out as Syms. */
static inline __attribute__((always_inline)) size_t
token_blocks(WordReader *r, const unsigned char *b, size_t i, size_t n,
	     size_t *count, bool codes)
{
	TokTab tab = r->toktab; /* in registers: out[] stores may alias r */
	const uint8_t *sc = r->sym_code; /* the same */
	size_t nsc = r->nsym_code;
	size_t open = SIZE_MAX; /* the start of a token the last block cut */
	uint64_t before = 1;    /* the byte before the block is a separator */
	for (; n - i >= BLOCK + TOKTAB_DIRECT; i += BLOCK) {
		uint64_t nl, sep = separators(b + i, &nl);
		uint64_t starts = ~sep & ((sep << 1) | before);
		uint64_t ends = sep & ((~sep << 1) | (open != SIZE_MAX));
		/* the token the block's end cuts, if any: its last start */
		size_t cut = sep >> 63 ? SIZE_MAX
			   : starts ? i + 63 - (size_t)__builtin_clzll(starts)
				    : open;
		before = sep >> 63;
		if (nl) {
			unsigned f = (unsigned)__builtin_ctzll(nl);
			starts &= (UINT64_C(1) << f) - 1;
			ends &= (UINT64_C(2) << f) - 1;
		}
		/* at most 64 tokens: room first, then kept in locals */
		out_room(r, codes, BLOCK);
		uint8_t *cout = r->code + r->ncode;
		Sym *sout = r->out + r->nout;
		size_t got = 0, stop = SIZE_MAX;
		/* the first end may close the token the last block cut */
		size_t s = open;
		if (s == SIZE_MAX && ends) {
			s = i + (size_t)__builtin_ctzll(starts);
			starts &= starts - 1;
		}
		while (ends) {
			size_t e = i + (size_t)__builtin_ctzll(ends);
			ends &= ends - 1;
			bool ok;
			Sym l = as_out(sc, nsc,
				       block_token(r, &tab, b + s, e - s, true),
				       codes, &ok);
			if (!ok) {
				stop = s;
				break;
			}
			if (codes)
				cout[got++] = (uint8_t)l;
			else
				sout[got++] = l;
			/* the next start (bit 63 stands in when there is none) */
			s = i + (size_t)__builtin_ctzll(starts | UINT64_C(1) << 63);
			starts &= starts - 1;
		}
		if (codes)
			r->ncode += got;
		else
			r->nout += got;
		*count += got;
		if (stop != SIZE_MAX)
			return stop;
		if (nl)
			return i + (size_t)__builtin_ctzll(nl);
		open = cut;
	}
	return open != SIZE_MAX ? open : i;
}

static size_t __attribute__((noinline))
token_blocks_codes(WordReader *r, const unsigned char *b, size_t i, size_t n,
		   size_t *count)
{
	return token_blocks(r, b, i, n, count, true);
}

static size_t __attribute__((noinline))
token_blocks_syms(WordReader *r, const unsigned char *b, size_t i, size_t n,
		  size_t *count)
{
	return token_blocks(r, b, i, n, count, false);
}

/* One-character letters each followed by a space ("( ) ( )"), eight
 * at a time: the spaces checked by one comparison of sixteen bytes, the
 * letters by the byte table (bs: the codes, or the Syms) without a
 * branch each.  Emits into the reader's codes or Syms while room lasts;
 * adds to *count and returns where the first block that is not of that
 * form starts, for the byte-by-byte loop. */
static inline __attribute__((always_inline)) size_t
spaced_letters(WordReader *r, const unsigned char *b, size_t i, size_t n,
	       size_t *count, bool codes)
{
#ifdef __SSE2__
	const __m128i space = _mm_set1_epi8(' ');
	const Sym *bs = r->alpha->byte_sym;
	const uint8_t *bc = r->byte_code;
	size_t k = 0;
	size_t room = codes ? WORD_OUT - r->ncode : WORD_OUT - r->nout;
	uint8_t *cout = r->code + r->ncode;
	Sym *sout = r->out + r->nout;
	for (; n - i >= 16 && room - k >= 8; i += 16, k += 8) {
		__m128i v = _mm_loadu_si128((const __m128i *)(b + i));
		unsigned sp = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, space));
		if ((sp & 0xaaaa) != 0xaaaa)
			break;
		/* SYM_NONE has the top bit set; a real letter with it too
		 * would only send the block to the slower loop */
		Sym any = 0;
		unsigned bad = 0;
#pragma GCC unroll 8
		for (int j = 0; j < 8; j++) {
			if (codes) {
				uint8_t c = bc[b[i + 2 * j]];
				cout[k + j] = c;
				bad |= c == WORD_NOCODE;
			} else {
				Sym l = bs[b[i + 2 * j]];
				sout[k + j] = l;
				any |= l;
			}
		}
		if (bad || any >> 31)
			break;
	}
	if (codes)
		r->ncode += k;
	else
		r->nout += k;
	*count += k;
#else
	(void)r, (void)b, (void)n, (void)count, (void)codes;
#endif
	return i;
}

/* The token reader's fast path, from buf[i] in a line of tokens with no
 * token pending: skips blanks and emits every known token that ends
 * inside the buffer.  One-character tokens one blank apart go by the
 * alphabet's byte table, the others by 64-byte blocks.  Returns where it
 * stopped: a newline, the buffer's end, a token cut by the buffer's end
 * or an unknown one (left to token_byte, which reports it). */
static inline __attribute__((always_inline)) size_t
token_run_as(WordReader *r, const char *buf, size_t i, size_t n, bool codes)
{
	const Sym *bs = r->alpha->byte_sym;
	const uint8_t *bc = r->byte_code;
	const unsigned char *b = (const unsigned char *)buf;
	size_t from = i, count = 0;
	while (i < n) {
		/* The common case: one-character letters, one blank apart
		 * ("a b a b"), as tight as the character reader's loop. */
		i = spaced_letters(r, b, i, n, &count, codes);
		if (codes)
			for (uint8_t c; i + 1 < n && r->ncode < WORD_OUT &&
				    (c = bc[b[i]]) != WORD_NOCODE &&
				    byte_class[b[i + 1]] == BLANK;
			     i += 2, count++)
				r->code[r->ncode++] = c;
		else
			for (Sym l; i + 1 < n && r->nout < WORD_OUT &&
				    (l = bs[b[i]]) != SYM_NONE &&
				    byte_class[b[i + 1]] == BLANK;
			     i += 2, count++)
				r->out[r->nout++] = l;
		if ((codes ? r->ncode : r->nout) == WORD_OUT) {
			flush(r);
			continue;
		}
		if (i >= n)
			break;
		unsigned char k = byte_class[b[i]];
		if (k == BLANK) {
			i++;
			continue;
		}
		if (k == NEWLINE)
			break;
		if (n - i >= BLOCK + TOKTAB_DIRECT) {
			size_t j = codes ? token_blocks_codes(r, b, i, n, &count)
					 : token_blocks_syms(r, b, i, n, &count);
			if (j != i) {
				i = j;
				continue;
			}
		}
		/* one token: long, near the buffer's end, unknown or
		 * without a code */
		size_t j = token_end(b, i, n);
		if (j == n)
			break; /* may continue in the next buffer */
		Sym l = n - i >= TOKTAB_WORDS
				? block_token(r, &r->toktab, b + i, j - i, false)
				: lookup(r, buf + i, j - i);
		if (l == SYM_NONE)
			break;
		bool ok;
		Sym o = as_out(r->sym_code, r->nsym_code, l, codes, &ok);
		if (codes && ok) {
			out_room(r, codes, 1);
			r->code[r->ncode++] = (uint8_t)o;
		} else {
			put(r, l);
		}
		count++;
		i = j;
	}
	r->pos += count;
	r->any |= i > from;
	return i;
}

static size_t token_run(WordReader *r, const char *buf, size_t i, size_t n)
{
	if (!r->codes)
		return token_run_as(r, buf, i, n, false);
	if (r->nout)
		flush(r); /* Syms of a slow step first: the order is kept */
	return token_run_as(r, buf, i, n, true);
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
	flush(r);
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
				flush(r);
			i = j - 1;
			continue;
		}
		if (r->tokens && !r->cr && r->ntok == 0 && c != '\n') {
			size_t j = token_run(r, buf, i, n);
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
	flush(r);
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
	Sym quoted = quoted_letter(r, text, n);
	if (quoted != SYM_NONE) {
		if (r->sink.text)
			r->sink.text(r->sink.ctx, text, n);
		emit(r, quoted);
		return end_line(r);
	}
	if (!word_feed(r, text, n))
		return false;
	return end_line(r);
}
