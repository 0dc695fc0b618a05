/* indist_tree.c -- an Indist made from its words, and freed. */
#include <config.h>

#include "search/indist_tree.h"

#include <stdlib.h>

#include "base/mem.h"

static uint32_t child(Indist *x, U32s *kids, uint32_t p, uint8_t c)
{
	/* kids: first child per node, then next sibling, flattened as
	 * pairs (first child of node i at 2i, next sibling at 2i + 1);
	 * two-sided, a word shares no position with another (a class
	 * depends on what follows), so every word is a fresh chain */
	uint32_t k = x->stride == 2 ? UINT32_MAX : kids->data[2 * p];
	while (k != UINT32_MAX) {
		if (x->letter[k] == c)
			return k;
		k = kids->data[2 * k + 1];
	}
	uint32_t m = (uint32_t)x->n++;
	x->parent = xrealloc(x->parent, x->n * sizeof *x->parent);
	x->letter = xrealloc(x->letter, x->n * sizeof *x->letter);
	x->len = xrealloc(x->len, x->n * sizeof *x->len);
	x->parent[m] = p;
	x->letter[m] = c;
	x->len[m] = x->len[p] + 1;
	VEC_PUSH(*kids, UINT32_MAX);
	VEC_PUSH(*kids, kids->data[2 * p]);
	kids->data[2 * p] = m;
	return m;
}

Indist *indist_new(const uint8_t *const *words, const size_t *lens,
		   size_t nwords, size_t nletters, IndistBounds b, bool track)
{
	Indist *x = xcalloc(1, sizeof *x);
	if (b.T < 1)
		b.T = 1;
	if (b.T > INDIST_MAX_T)
		b.T = INDIST_MAX_T;
	if (b.C > INDIST_MAX_C)
		b.C = INDIST_MAX_C;
	x->b = b;
	x->A = nletters;
	x->track = track;
	x->stride = b.two_sided ? 2 : 1;
	x->n = 1;
	x->parent = xmalloc(sizeof *x->parent);
	x->letter = xmalloc(1);
	x->len = xmalloc(sizeof *x->len);
	x->parent[0] = UINT32_MAX;
	x->letter[0] = (uint8_t)nletters; /* the empty word: no letter */
	x->len[0] = 0;
	U32s kids = {0};
	VEC_PUSH(kids, UINT32_MAX);
	VEC_PUSH(kids, UINT32_MAX);
	x->nwords = nwords;
	x->end = xmalloc((nwords + 1) * sizeof *x->end);
	for (size_t i = 0; i < nwords; i++) {
		uint32_t p = 0;
		for (size_t k = 0; k < lens[i]; k++)
			p = child(x, &kids, p, words[i][k]);
		x->end[i] = p;
	}
	VEC_FREE(kids);
	x->ws = indist_weight_sets(x->b, &x->nws);
	x->shc = xcalloc(x->nws + 1, sizeof *x->shc);
	return x;
}

void indist_level_free(Level *l)
{
	free(l->cls);
	free(l->count);
	VEC_FREE(l->up);
	VEC_FREE(l->rep);
	for (size_t k = 0; k < l->cuts.len; k++)
		VEC_FREE(l->cuts.data[k]);
	VEC_FREE(l->cuts);
	VEC_FREE(l->broken);
	VEC_FREE(l->atoms);
	VEC_FREE(l->terms);
}

void indist_free(Indist *x)
{
	if (!x)
		return;
	for (unsigned k = 0; k < x->nlevels; k++)
		indist_level_free(&x->lv[k]);
	free(x->parent);
	free(x->letter);
	free(x->len);
	free(x->end);
	for (size_t i = 0; i < x->nws; i++) {
		VEC_FREE(x->shc[i].key);
		VEC_FREE(x->shc[i].pc);
	}
	free(x->shc);
	free(x->ws);
	VEC_FREE(x->dp);
	VEC_FREE(x->sh);
	free(x);
}
