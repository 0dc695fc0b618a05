/* toktab.c -- the token reader's table of letters (toktab.h). */
#include <config.h>
#include "core/toktab.h"

#include <stdbool.h>
#include <stdlib.h>

#include "base/mem.h"

enum { TRIES = 16 }; /* multipliers tried per table size */

/* Letters the fast path can meet: every byte above the space. */
static bool fast_letter(const char *name, size_t len)
{
	if (len == 0 || len > UINT32_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)name[i] <= ' ')
			return false;
	return true;
}

static void key_of(const char *name, size_t len, uint64_t *k0, uint64_t *k1)
{
	unsigned char b[TOKTAB_WORDS] = {0};
	memcpy(b, name, len < TOKTAB_WORDS ? len : TOKTAB_WORDS);
	*k0 = toktab_load(b);
	*k1 = toktab_load(b + 8);
}

/* splitmix64: a sequence of well-mixed odd multipliers */
static uint64_t next_mul(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return (z ^ (z >> 31)) | 1;
}

/* Puts the m letters into t's slots (2^(64 - shift) of them and an
 * overflow of m + 1, so linear probing never wraps and always ends at an
 * empty slot); returns how many slots the lookups pass over in all (0:
 * every letter in the slot it hashes to). */
static size_t fill(TokTab *t, const void *letters, size_t m)
{
	const TokSlot *in = letters;
	size_t nslots = ((size_t)1 << (64 - t->shift)) + m + 1, passed = 0;
	memset(t->slot, 0, nslots * sizeof *t->slot);
	for (size_t i = 0; i < m; i++) {
		TokSlot *s = t->slot + toktab_hash(t, in[i].k0, in[i].k1);
		for (; s->k0; s++)
			passed++;
		*s = in[i];
	}
	return passed;
}

typedef size_t Filler(TokTab *t, const void *letters, size_t m);

/* Tries multipliers (tries per size, from seed) and sizes of 2^lo to
 * 2^hi slots, stopping at the first for which fill leaves no letter out
 * of place; leaves the best in *mul and *shift and the table filled
 * with it. */
static void choose(TokTab *t, uint64_t *mul, unsigned *shift, unsigned lo,
		   unsigned hi, int tries, uint64_t seed, Filler *fill_with,
		   const void *letters, size_t m)
{
	uint64_t best_mul = 1;
	size_t best = SIZE_MAX;
	unsigned best_shift = 64 - lo;
	for (unsigned b = lo; b <= hi && best; b++)
		for (int k = 0; k < tries && best; k++) {
			*shift = 64 - b;
			*mul = next_mul(&seed);
			size_t out = fill_with(t, letters, m);
			if (out < best) {
				best = out;
				best_mul = *mul;
				best_shift = *shift;
			}
		}
	*mul = best_mul;
	*shift = best_shift;
	fill_with(t, letters, m);
}

/* Puts the letters of at most TOKTAB_DIRECT bytes in the direct table
 * with t->dmul and t->dshift, each where its key hashes unless the slot
 * is taken; returns how many were left out. */
static size_t fill_direct(TokTab *t, const void *letters, size_t m)
{
	const TokDirect *in = letters;
	size_t left = 0;
	memset(t->direct, 0, ((size_t)1 << (64 - t->dshift)) * sizeof *t->direct);
	for (size_t i = 0; i < m; i++) {
		TokDirect *d = t->direct +
			(t->dquick ? toktab_quick_hash(t->dmul, t->dshift,
						       in[i].w, in[i].len)
				   : toktab_direct_hash(t->dmul, t->dshift,
							in[i].w, in[i].len));
		if (d->len)
			left++;
		else
			*d = in[i];
	}
	return left;
}

/* The direct table: the smallest size (of three, from four slots per
 * letter) and multiplier that leave no letter out, else the fewest. */
static void init_direct(TokTab *t, const TokSlot *letters, size_t m)
{
	TokDirect *in = xcalloc(m ? m : 1, sizeof *in);
	size_t k = 0;
	for (size_t i = 0; i < m; i++) {
		if (letters[i].len > TOKTAB_DIRECT)
			continue;
		memcpy(in[k].w, letters[i].name, letters[i].len);
		in[k].len = letters[i].len;
		in[k++].sym = letters[i].sym;
	}
	t->mask = xmalloc((TOKTAB_DIRECT + 1) * sizeof *t->mask);
	for (size_t len = 0; len <= TOKTAB_DIRECT; len++)
		for (size_t j = 0; j < TOKTAB_DIRECT / 8; j++) {
			size_t b = len > 8 * j ? len - 8 * j : 0;
			t->mask[len][j] = b >= 8 ? UINT64_MAX
					  : (UINT64_C(1) << (8 * b)) - 1;
		}
	unsigned bits = 2;
	while (((size_t)1 << bits) < 4 * k)
		bits++;
	t->direct = xmalloc(((size_t)1 << (bits + 2)) * sizeof *t->direct);
	/* the quick hash when it leaves no letter out, else the full one */
	t->dquick = true;
	choose(t, &t->dmul, &t->dshift, bits, bits + 2, 4 * TRIES, 54321,
	       fill_direct, in, k);
	if (fill_direct(t, in, k)) {
		t->dquick = false;
		choose(t, &t->dmul, &t->dshift, bits, bits + 2, 4 * TRIES,
		       54321, fill_direct, in, k);
	}
	free(in);
}

void toktab_init(TokTab *t, const SymTab *syms, const Sym *letters, size_t n)
{
	TokSlot *in = xmalloc((n ? n : 1) * sizeof *in);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		const char *name = sym_name(syms, letters[i]);
		size_t len = strlen(name);
		if (!fast_letter(name, len))
			continue;
		key_of(name, len, &in[m].k0, &in[m].k1);
		in[m].sym = letters[i];
		in[m].len = (uint32_t)len;
		in[m].name = name;
		m++;
	}
	unsigned bits = 4;
	while (((size_t)1 << bits) < 2 * m)
		bits++;
	/* The multiplier (and size, of two) that leaves fewest letters out
	 * of their own slot: for small alphabets usually none. */
	t->slot = xmalloc((((size_t)1 << (bits + 1)) + m + 1) * sizeof *t->slot);
	choose(t, &t->mul, &t->shift, bits, bits + 1, TRIES, 12345, fill, in, m);
	init_direct(t, in, m);
	free(in);
}

void toktab_free(TokTab *t)
{
	free(t->slot);
	t->slot = NULL;
	free(t->direct);
	t->direct = NULL;
	free(t->mask);
	t->mask = NULL;
}
