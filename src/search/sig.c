/* sig.c -- bitset signatures and the hash set that deduplicates them. */
#include <config.h>

#include "search/sig.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

void sig_and(Word64 *out, const Word64 *a, const Word64 *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = a[i] & b[i];
}

void sig_or(Word64 *out, const Word64 *a, const Word64 *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = a[i] | b[i];
}

void sig_not(Word64 *out, const Word64 *a, const Word64 *valid, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = valid[i] & ~a[i];
}

/* SWAR popcount: without -mpopcnt, __builtin_popcountll is a libgcc
 * call, several times slower than these dozen inline operations. */
static inline size_t pop64(Word64 x)
{
	x -= (x >> 1) & 0x5555555555555555u;
	x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
	return (size_t)((x * 0x0101010101010101u) >> 56);
}

size_t sig_popcount(const Word64 *a, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += pop64(a[i]);
	return c;
}

size_t sig_popcount_and(const Word64 *a, const Word64 *b, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += pop64(a[i] & b[i]);
	return c;
}

/* Four independent multiply lanes (the multiplies pipeline), folded and
 * finalised at the end: a good spread for a hash set whose hits are
 * confirmed by memcmp anyway. */
uint64_t sig_hash(const Word64 *a, size_t n)
{
	uint64_t h[4] = {0x9e3779b97f4a7c15u ^ n, 0xc2b2ae3d27d4eb4fu,
			 0x165667b19e3779f9u, 0x27d4eb2f165667c5u};
	size_t i = 0;
	for (; i + 4 <= n; i += 4)
		for (int j = 0; j < 4; j++)
			h[j] = (h[j] ^ a[i + j]) * 0xff51afd7ed558ccdu;
	for (; i < n; i++)
		h[0] = (h[0] ^ a[i]) * 0xc4ceb9fe1a85ec53u;
	uint64_t x = h[0] ^ (h[1] >> 17 | h[1] << 47) ^ (h[2] >> 31 | h[2] << 33) ^
		     (h[3] >> 43 | h[3] << 21);
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdu;
	x ^= x >> 33;
	return x;
}

bool sig_canonical(Word64 *a, const Word64 *valid, size_t n)
{
	if (!(a[0] & 1))
		return false;
	sig_not(a, a, valid, n);
	return true;
}

struct SigSet {
	size_t nwords;
	Word64 *arena;
	size_t count, cap;
	/* index + 1 in the low half, the hash's high half above it (0 =
	 * empty): a probe rejects most strangers without touching the
	 * arena */
	uint64_t *slots;
	uint64_t *hashes;
	size_t nslots;
};

SigSet *sigset_new(size_t nwords)
{
	SigSet *ss = xcalloc(1, sizeof *ss);
	ss->nwords = nwords;
	ss->nslots = 1024;
	ss->slots = xcalloc(ss->nslots, sizeof *ss->slots);
	return ss;
}

void sigset_free(SigSet *ss)
{
	if (!ss)
		return;
	free(ss->arena);
	free(ss->slots);
	free(ss->hashes);
	free(ss);
}

size_t sigset_count(const SigSet *ss) { return ss->count; }

size_t sigset_bytes(const SigSet *ss)
{
	return ss->cap * (ss->nwords * sizeof(Word64) + sizeof(uint64_t)) +
	       ss->nslots * sizeof(uint64_t);
}

const Word64 *sigset_get(const SigSet *ss, size_t i)
{
	return ss->arena + i * ss->nwords;
}

static uint64_t tag(uint64_t h) { return h & 0xffffffff00000000u; }

/* The slot holding sig, or the empty slot where it would go. */
static size_t probe(const SigSet *ss, const Word64 *sig, uint64_t h)
{
	size_t mask = ss->nslots - 1, i = h & mask;
	for (;; i = (i + 1) & mask) {
		uint64_t e = ss->slots[i];
		if (e == 0)
			return i;
		if (tag(e) == tag(h) &&
		    memcmp(sigset_get(ss, (uint32_t)e - 1), sig,
			   ss->nwords * sizeof(Word64)) == 0)
			return i;
	}
}

size_t sigset_find(const SigSet *ss, const Word64 *sig)
{
	uint64_t e = ss->slots[probe(ss, sig, sig_hash(sig, ss->nwords))];
	return e ? (uint32_t)e - 1 : SIZE_MAX;
}

static void rehash(SigSet *ss)
{
	free(ss->slots);
	ss->nslots *= 2;
	ss->slots = xcalloc(ss->nslots, sizeof *ss->slots);
	size_t mask = ss->nslots - 1;
	for (size_t k = 0; k < ss->count; k++) {
		size_t i = ss->hashes[k] & mask;
		while (ss->slots[i])
			i = (i + 1) & mask;
		ss->slots[i] = tag(ss->hashes[k]) | (k + 1);
	}
}

size_t sigset_insert(SigSet *ss, const Word64 *sig, bool *fresh)
{
	return sigset_insert_hashed(ss, sig, sig_hash(sig, ss->nwords), fresh);
}

size_t sigset_insert_hashed(SigSet *ss, const Word64 *sig, uint64_t h,
			    bool *fresh)
{
	size_t i = probe(ss, sig, h);
	if (ss->slots[i]) {
		*fresh = false;
		return (uint32_t)ss->slots[i] - 1;
	}
	*fresh = true;
	if (ss->count == ss->cap) {
		size_t cap = ss->cap ? ss->cap * 2 : 1024;
		ss->arena = xrealloc(ss->arena, cap * ss->nwords * sizeof(Word64));
		ss->hashes = xrealloc(ss->hashes, cap * sizeof(uint64_t));
		ss->cap = cap;
	}
	size_t k = ss->count++;
	memcpy(ss->arena + k * ss->nwords, sig, ss->nwords * sizeof(Word64));
	ss->hashes[k] = h;
	ss->slots[i] = tag(h) | (k + 1);
	if (ss->count * 2 > ss->nslots)
		rehash(ss);
	return k;
}
