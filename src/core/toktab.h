/* toktab -- the token reader's table of letters (word_token_run.c).
 *
 * Two tables, built once per alphabet.  The direct one (toktab_direct)
 * answers for letters of up to 32 bytes where 32 bytes are readable: a
 * perfect hash of the whole token (its four words and its length) and
 * one branch-free comparison, whatever the letter's length, so random
 * letters of 14 and 26 bytes cost no mispredicted branch.  The probed
 * one answers everywhere else and for a letter the direct one left out.
 *
 * A token is found by its bytes read as two 64-bit words (its first 16
 * bytes, little-endian, zero beyond its end) and a multiplicative hash:
 * for a letter of at most 16 bytes a lookup is one or two comparisons of
 * words, no call and no byte loop; longer letters also compare their
 * tail.  Only letters whose bytes are all above the space are in the
 * table (a token never contains the others in the reader's fast path);
 * a miss means "not one of those", never "unknown letter": the caller
 * asks the symbol table then.
 *
 * Ownership: a TokTab owns its slots and borrows the letters' names.
 */
#ifndef TALLY_TOKTAB_H
#define TALLY_TOKTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/sym.h"

enum { TOKTAB_WORDS = 16 }; /* bytes of a token in its key */

typedef struct {
	uint64_t k0, k1; /* k0 == 0: an empty slot */
	Sym sym;
	uint32_t len;
	const char *name;
} TokSlot;

/* The direct table: letters of at most TOKTAB_DIRECT bytes, each alone
 * in the slot its whole key hashes to (a perfect hash for the letters,
 * the multiplier chosen when building; a letter that finds its slot
 * taken stays in the probed table only).  Its key is the token's bytes
 * as four words, zero beyond its end, and its length: one comparison of
 * all of it, no loop and no branch on the length. */
enum { TOKTAB_DIRECT = 32 };

typedef struct {
	uint64_t w[TOKTAB_DIRECT / 8];
	uint64_t len; /* 0: an empty slot */
	Sym sym;
} TokDirect;

typedef struct {
	TokSlot *slot; /* 2^bits slots and an overflow ending in an empty one */
	uint64_t mul;
	unsigned shift; /* 64 - bits */
	TokDirect *direct; /* 2^(64 - dshift) slots */
	uint64_t dmul;
	unsigned dshift;
	bool dquick; /* the direct table hashes the first word and length */
	/* mask[len][j]: the bytes of word j a token of len bytes has
	 * (len = TOKTAB_DIRECT stands for every longer token too) */
	uint64_t (*mask)[TOKTAB_DIRECT / 8];
} TokTab;

void toktab_init(TokTab *t, const SymTab *syms, const Sym *letters,
		 size_t n);
void toktab_free(TokTab *t);

/* The 8 bytes at p as a little-endian number, whatever the machine. */
static inline uint64_t toktab_load(const unsigned char *p)
{
	uint64_t x;
	memcpy(&x, p, sizeof x);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

/* The low n bytes of a word (n <= 8). */
static inline uint64_t toktab_keep(uint64_t x, size_t n)
{
	return n >= 8 ? x : x & ((UINT64_C(1) << (8 * n)) - 1);
}

static inline size_t toktab_hash(const TokTab *t, uint64_t k0, uint64_t k1)
{
	/* two independent products: the second only matters for letters
	 * of more than 8 bytes */
	return (size_t)((k0 * t->mul ^ k1 * UINT64_C(0x9e3779b97f4a7c15)) >>
			t->shift);
}

/* Whether a[0..n) = b[0..n): a word at a time, inline (a call to
 * memcmp per long token cost a tenth of the token reader's time). */
static inline bool toktab_tail_equal(const char *a, const char *b, size_t n)
{
	const unsigned char *x = (const unsigned char *)a;
	const unsigned char *y = (const unsigned char *)b;
	uint64_t diff = 0;
	size_t i = 0;
	for (; i + 8 <= n; i += 8)
		diff |= toktab_load(x + i) ^ toktab_load(y + i);
	for (; i < n; i++)
		diff |= (uint64_t)(x[i] ^ y[i]);
	return diff == 0;
}

/* The direct table's hash of a key: the words folded, then one product
 * whose top bits are the slot. */
static inline size_t toktab_direct_hash(uint64_t mul, unsigned shift,
					const uint64_t *w, uint64_t len)
{
	uint64_t x = w[0] ^ (w[1] << 21 | w[1] >> 43) ^
		     (w[2] << 42 | w[2] >> 22) ^ (w[3] * UINT64_C(0x9e3779b97f4a7c15)) ^
		     len << 56;
	return (size_t)((x * mul) >> shift);
}

/* The quick hash of the direct table: the first word and the length
 * only (two operations fewer per token than folding four words), when
 * no two letters share both (dquick). */
static inline size_t toktab_quick_hash(uint64_t mul, unsigned shift,
				       const uint64_t *w, uint64_t len)
{
	return (size_t)(((w[0] ^ len << 56 ^ len) * mul) >> shift);
}

/* The letter of the token p[0..len) from the direct table, at least
 * TOKTAB_DIRECT bytes readable from p; SYM_NONE when it is not there
 * (an unknown token, a longer letter or one left to the probed table:
 * ask toktab_find and the symbol table then). */
static inline Sym toktab_direct(const TokTab *t, const unsigned char *p,
				size_t len)
{
	uint64_t w[TOKTAB_DIRECT / 8];
	const uint64_t *mask = t->mask[len < TOKTAB_DIRECT ? len : TOKTAB_DIRECT];
	for (unsigned j = 0; j < TOKTAB_DIRECT / 8; j++)
		w[j] = toktab_load(p + 8 * j) & mask[j];
	const TokDirect *d = t->direct +
		(t->dquick ? toktab_quick_hash(t->dmul, t->dshift, w, len)
			   : toktab_direct_hash(t->dmul, t->dshift, w, len));
	uint64_t diff = d->len ^ len;
	for (unsigned j = 0; j < TOKTAB_DIRECT / 8; j++)
		diff |= d->w[j] ^ w[j];
	return diff == 0 ? d->sym : SYM_NONE;
}

/* The letter whose key is k0, k1 and whose length is len (tail: its
 * bytes from the 17th on, when len > 16); SYM_NONE when there is none
 * in the table. */
static inline Sym toktab_find(const TokTab *t, uint64_t k0, uint64_t k1,
			      size_t len, const char *tail)
{
	const TokSlot *s = t->slot + toktab_hash(t, k0, k1);
	/* the usual case, a short letter in its own slot: one branch */
	if (((s->k0 ^ k0) | (s->k1 ^ k1) | (s->len ^ len)) == 0 &&
	    len <= TOKTAB_WORDS)
		return s->sym;
	for (; s->k0; s++)
		if (s->k0 == k0 && s->k1 == k1 && s->len == len &&
		    (len <= TOKTAB_WORDS ||
		     toktab_tail_equal(s->name + TOKTAB_WORDS, tail,
				       len - TOKTAB_WORDS)))
			return s->sym;
	return SYM_NONE;
}

#endif
