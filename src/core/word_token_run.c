/* word_token_run.c -- the token fast path: separators as bit masks,
 * tokens looked up in the token table without a call. */
#include <config.h>

#include "core/word_token_run.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/word_impl.h"

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
		word_flush_codes(r);
	r->out[r->nout++] = l;
	if (r->nout == WORD_OUT)
		word_flush(r);
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
	return l != SYM_NONE ? l : word_lookup(r, (const char *)p, len);
}

/* Where the token reader's fast path puts letters: as codes
 * (Alphabet.code_sym) into r->code when every letter has one, else as
 * Syms into r->out; room for at least want more. */
static inline void out_room(WordReader *r, bool codes, size_t want)
{
	if ((codes ? WORD_OUT - r->ncode : WORD_OUT - r->nout) < want)
		word_flush(r);
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
			word_flush(r);
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
				: word_lookup(r, buf + i, j - i);
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

size_t word_token_run(WordReader *r, const char *buf, size_t i, size_t n)
{
	if (!r->codes)
		return token_run_as(r, buf, i, n, false);
	if (r->nout)
		word_flush(r); /* Syms of a slow step first: the order is kept */
	return token_run_as(r, buf, i, n, true);
}
