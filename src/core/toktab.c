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
static size_t fill(TokTab *t, const TokSlot *in, size_t m)
{
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
	uint64_t seed = 12345, best_mul = 0;
	size_t best = SIZE_MAX;
	unsigned best_shift = 0;
	for (unsigned b = bits; b <= bits + 1 && best; b++)
		for (int k = 0; k < TRIES && best; k++) {
			t->shift = 64 - b;
			t->mul = next_mul(&seed);
			size_t passed = fill(t, in, m);
			if (passed < best) {
				best = passed;
				best_mul = t->mul;
				best_shift = t->shift;
			}
		}
	t->mul = best_mul;
	t->shift = best_shift;
	fill(t, in, m);
	free(in);
}

void toktab_free(TokTab *t)
{
	free(t->slot);
	t->slot = NULL;
}
