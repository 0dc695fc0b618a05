/* blockcheck_classes.c -- a level's classes in hash chains, and a piece
 * matched to one of them. */
#include <config.h>

#include "search/blockcheck_classes.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/* Two hashes of (below, v): of the counts capped at C + 1 (the chain)
 * and of the very counts (a quick "not the same vector"). */
static uint64_t hash_counts(uint32_t below, const Vec *v, uint64_t C,
			    uint64_t *exact)
{
	uint64_t h = 0xcbf29ce484222325u ^ below, x = h;
	for (size_t i = 0; i < v->n; i++) {
		uint64_t c = v->cnt[i] > C ? C + 1 : v->cnt[i];
		h = (h ^ v->cls[i]) * 0x100000001b3u;
		h = (h ^ c) * 0x100000001b3u;
		x = (x ^ v->cls[i]) * 0x100000001b3u;
		x = (x ^ v->cnt[i]) * 0x100000001b3u;
	}
	*exact = x ^ x >> 29;
	return h ^ h >> 29;
}

/* Doubles the chains (and the per-class arrays with them). */
static void classes_grow(Classes *cs)
{
	cs->cap = cs->cap ? 2 * cs->cap : 64;
	cs->k = xrealloc(cs->k, cs->cap * sizeof *cs->k);
	cs->hash = xrealloc(cs->hash, cs->cap * sizeof *cs->hash);
	cs->full = xrealloc(cs->full, cs->cap * sizeof *cs->full);
	cs->next = xrealloc(cs->next, cs->cap * sizeof *cs->next);
	cs->run = xrealloc(cs->run, cs->cap * sizeof *cs->run);
	free(cs->head);
	cs->nheads = 2 * cs->cap;
	cs->head = xmalloc(cs->nheads * sizeof *cs->head);
	for (size_t i = 0; i < cs->nheads; i++)
		cs->head[i] = UINT32_MAX;
	for (size_t i = 0; i < cs->n; i++) {
		size_t b = cs->hash[i] & (cs->nheads - 1);
		cs->next[i] = cs->head[b];
		cs->head[b] = (uint32_t)i;
	}
}

static bool vec_same(const Vec *a, const Vec *b)
{
	return a->n == b->n &&
	       (a->n == 0 || (!memcmp(a->cls, b->cls, a->n * sizeof *a->cls) &&
			      !memcmp(a->cnt, b->cnt, a->n * sizeof *a->cnt)));
}

/* Piece v joins class i. */
static uint32_t join(Classes *cs, uint32_t i, Vec *v)
{
	blockcheck_vec_free(v);
	cs->run[i] = cs->runs;
	return i;
}

uint32_t blockcheck_classify(Check *k, Classes *cs, uint32_t below, Vec *v)
{
	uint64_t x, h = hash_counts(below, v, k->b.C, &x);
	if (cs->n == cs->cap)
		classes_grow(cs);
	uint32_t first = cs->head[h & (cs->nheads - 1)];
	/* a class with these very counts (a prefix both words share) */
	for (uint32_t i = first; i != UINT32_MAX; i = cs->next[i])
		if (cs->full[i] == x && cs->k[i].below == below &&
		    vec_same(&cs->k[i].rep, v))
			return join(cs, i, v);
	for (uint32_t i = first; i != UINT32_MAX; i = cs->next[i]) {
		if (cs->hash[i] != h || cs->k[i].below != below ||
		    cs->run[i] == cs->runs)
			continue;
		int r = blockcheck_apart(k, &cs->k[i].rep, v, 0);
		if (r < 0)
			k->undecided = true;
		if (r == 0)
			return join(cs, i, v);
	}
	size_t b = h & (cs->nheads - 1);
	cs->k[cs->n] = (Known){below, *v};
	cs->hash[cs->n] = h;
	cs->full[cs->n] = x;
	cs->next[cs->n] = cs->head[b];
	cs->run[cs->n] = cs->runs;
	cs->head[b] = (uint32_t)cs->n;
	return (uint32_t)cs->n++;
}

void blockcheck_classes_free(Classes *cs)
{
	for (size_t i = 0; i < cs->n; i++)
		blockcheck_vec_free(&cs->k[i].rep);
	free(cs->k);
	free(cs->hash);
	free(cs->full);
	free(cs->next);
	free(cs->head);
	free(cs->run);
}
