/* sig.c -- bitset signatures and the hash set that deduplicates them. */
#include <config.h>

#include "sig.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"

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

size_t sig_popcount(const Word64 *a, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += (size_t)__builtin_popcountll(a[i]);
	return c;
}

/* A multiply-xorshift mix per word: cheap, and good enough because every
 * hit is confirmed by memcmp. */
uint64_t sig_hash(const Word64 *a, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15u ^ n;
	for (size_t i = 0; i < n; i++) {
		h ^= a[i] + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
		h *= 0xff51afd7ed558ccdu;
		h ^= h >> 33;
	}
	return h;
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
	uint32_t *slots; /* index + 1; 0 = empty */
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
	       ss->nslots * sizeof(uint32_t);
}

const Word64 *sigset_get(const SigSet *ss, size_t i)
{
	return ss->arena + i * ss->nwords;
}

/* The slot holding sig, or the empty slot where it would go. */
static size_t probe(const SigSet *ss, const Word64 *sig, uint64_t h)
{
	size_t mask = ss->nslots - 1, i = h & mask;
	for (;; i = (i + 1) & mask) {
		uint32_t e = ss->slots[i];
		if (e == 0)
			return i;
		if (ss->hashes[e - 1] == h &&
		    memcmp(sigset_get(ss, e - 1), sig,
			   ss->nwords * sizeof(Word64)) == 0)
			return i;
	}
}

size_t sigset_find(const SigSet *ss, const Word64 *sig)
{
	uint32_t e = ss->slots[probe(ss, sig, sig_hash(sig, ss->nwords))];
	return e ? e - 1 : SIZE_MAX;
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
		ss->slots[i] = (uint32_t)(k + 1);
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
		return ss->slots[i] - 1;
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
	ss->slots[i] = (uint32_t)(k + 1);
	if (ss->count * 2 > ss->nslots)
		rehash(ss);
	return k;
}
