/* separate.c -- --separate: entries of the bank of depth D + 1 with a
 * certified pair that no formula of F_D tells apart (search.h). */
#include <config.h>

#include "search/search.h"

#include <stdint.h>
#include <stdlib.h>

#include "base/limit.h"
#include "base/mem.h"
#include "base/share.h"
#include "search/atoms.h"
#include "search/pairs.h"
#include "search/parts.h"

static int cmp_gsize(const void *x, const void *y, void *ctx)
{
	const Bank *b = ctx;
	const Entry *p = bank_entry(b, *(const size_t *)x);
	const Entry *q = bank_entry(b, *(const size_t *)y);
	if (p->gsize != q->gsize)
		return p->gsize < q->gsize ? -1 : 1;
	return *(const size_t *)x < *(const size_t *)y ? -1 : 1;
}

/* The verdicts of the exact check, per pair of bits (a small cache: the
 * same pairs come back for many entries). */
typedef struct {
	size_t *key; /* 2 per slot, SIZE_MAX empty */
	int8_t *val; /* 1 certified, 0 not */
	size_t n, cap;
} PairCache;

static size_t cache_slot(const PairCache *c, size_t x, size_t y)
{
	size_t h = (x * 0x9e3779b97f4a7c15u) ^ (y + 0x632be59bd9b4e019u);
	for (size_t i = h & (c->cap - 1);; i = (i + 1) & (c->cap - 1))
		if (c->key[2 * i] == SIZE_MAX ||
		    (c->key[2 * i] == x && c->key[2 * i + 1] == y))
			return i;
}

static void cache_grow(PairCache *c)
{
	PairCache old = *c;
	c->cap = old.cap ? 2 * old.cap : 256;
	c->key = xmalloc(2 * c->cap * sizeof *c->key);
	c->val = xmalloc(c->cap);
	for (size_t i = 0; i < 2 * c->cap; i++)
		c->key[i] = SIZE_MAX;
	for (size_t i = 0; i < old.cap; i++)
		if (old.key[2 * i] != SIZE_MAX) {
			size_t k = cache_slot(c, old.key[2 * i], old.key[2 * i + 1]);
			c->key[2 * k] = old.key[2 * i];
			c->key[2 * k + 1] = old.key[2 * i + 1];
			c->val[k] = old.val[i];
		}
	free(old.key);
	free(old.val);
}

/* Whether no formula of F_D(cls) separates the words of bits x and y
 * (-1: not decided, the budget of checks is spent). */
static int certified(const Sample *S, PairCache *c, size_t x, size_t y,
		     unsigned D, IndistBounds cls, size_t *left, Limits *lim)
{
	if (x > y) {
		size_t t = x;
		x = y;
		y = t;
	}
	if (2 * (c->n + 1) > c->cap)
		cache_grow(c);
	size_t k = cache_slot(c, x, y);
	if (c->key[2 * k] != SIZE_MAX)
		return c->val[k];
	if (*left == 0 || limit_poll(lim))
		return -1;
	(*left)--;
	uint8_t *u = xmalloc(S->nbits + 1), *v = xmalloc(S->nbits + 1);
	size_t ul = sample_word(S, x, u), vl = sample_word(S, y, v);
	c->val[k] = indist_pair(u, ul, v, vl, S->nletters, D, cls, lim) == INDIST_NONE;
	c->key[2 * k] = x;
	c->key[2 * k + 1] = y;
	c->n++;
	free(u);
	free(v);
	return c->val[k];
}

static bool same_parikh(const Sample *S, size_t x, size_t y)
{
	uint8_t *u = xmalloc(S->nbits + 1), *v = xmalloc(S->nbits + 1);
	size_t ul = sample_word(S, x, u), vl = sample_word(S, y, v);
	bool same = indist_parikh(u, ul, v, vl, S->nletters);
	free(u);
	free(v);
	return same;
}

enum { SEP_PER_ENTRY = 8, SEP_CHUNK = 64 };

/* A certified pair that sig separates within one class of the depth-<=D
 * partition: the candidates of pairs_candidates with the entry's values
 * as labels, Parikh-equal ones first at D = 1. */
static bool separated_pair(const Sample *S, Parts *p, const bool *end,
			   const Word64 *sig, unsigned D, IndistBounds cls,
			   PairCache *cache,
			   size_t *left, Limits *lim, Separation *out)
{
	for (size_t i = 0; i < p->n; i++)
		p->lab[i] = sig_bit(sig, p->bit[i]);
	PairCands cands = {0};
	pairs_candidates(p, S, end, &cands);
	bool found = false;
	for (int pass = D == 1 ? 0 : 1; pass < 2 && !found; pass++)
		for (size_t i = 0, n = 0; i < cands.len && n < SEP_PER_ENTRY && !found;
		     i++) {
			size_t x = cands.data[i].pos, y = cands.data[i].neg;
			bool pk = D == 1 && same_parikh(S, x, y);
			if (pass == 0 && !pk)
				continue;
			n++;
			if (!pk && certified(S, cache, x, y, D, cls, left, lim) != 1)
				continue;
			out->pair = (WordPair){x, y};
			out->parikh = pk;
			found = true;
		}
	VEC_FREE(cands);
	return found;
}

size_t search_separate(Bank *b, const Sample *S, unsigned D, IndistBounds cls,
		       size_t max, size_t tries, Separation *out)
{
	size_t nw = S->nwords;
	if (bank_build_full(b, D + 1) != BANK_OK && bank_depth(b) < D + 1)
		return 0;
	/* the partition of the sample by the depth-<=D comparisons */
	Atoms a;
	atoms_collect(b, S, D, true, &a);
	Parts p;
	parts_init(&p, S, S->valid, S->valid);
	parts_split_all(&p, &a);
	atoms_free(&a);
	size_t lo = bank_first(b, D + 1), hi = bank_first(b, D + 2), m = 0;
	size_t *ents = xmalloc((hi - lo + 1) * sizeof *ents);
	for (size_t i = lo; i < hi; i++)
		ents[i - lo] = i;
	qsort_r(ents, hi - lo, sizeof *ents, cmp_gsize, b);
	Word64 *sig = xmalloc(nw * sizeof(Word64));
	PairCache cache = {0};
	size_t left = tries;
	bool *end = pairs_chain_ends(S), stopped = false;
	const Share *sh = bank_share(b);
	/* shared bank: the entries in chunks, their signatures pinned on
	 * every rank; rank 0 checks them and tells the others */
	for (size_t e = 0; e < hi - lo && m < max && left > 0 && !stopped;) {
		size_t upto = hi - lo;
		if (sh) {
			upto = e + SEP_CHUNK < upto ? e + SEP_CHUNK : upto;
			bank_pin(b, ents + e, upto - e);
		}
		for (; (!sh || sh->rank == 0) && e < upto && m < max && left > 0; e++) {
			if ((stopped = limit_poll(bank_limits(b))))
				break;
			bank_sig(b, bank_entry(b, ents[e]), sig);
			out[m].entry = ents[e];
			if (separated_pair(S, &p, end, sig, D, cls, &cache, &left,
					   bank_limits(b), &out[m]))
				m++;
		}
		if (sh) {
			uint64_t at[4] = {upto, m, left, stopped};
			sh->bcast(at, sizeof at);
			e = (size_t)at[0];
			m = (size_t)at[1];
			left = (size_t)at[2];
			stopped = at[3];
			sh->bcast(out, m * sizeof *out);
		}
	}
	if (sh)
		bank_stop_now(b); /* every rank knows of a limit */
	free(end);
	free(cache.key);
	free(cache.val);
	free(sig);
	free(ents);
	parts_free(&p);
	return m;
}
