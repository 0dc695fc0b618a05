/* pairs.c -- the candidate witness pairs of a partition and their
 * certification (pairs.h). */
#include <config.h>

#include "search/pairs.h"

#include <stdint.h>
#include <stdlib.h>

#include "base/mem.h"
#include "search/indist.h"

static int cmp_cand(const void *x, const void *y)
{
	const PairCand *p = x, *q = y;
	if (p->len != q->len)
		return p->len < q->len ? -1 : 1;
	if (p->pos != q->pos)
		return p->pos < q->pos ? -1 : 1;
	return p->neg < q->neg ? -1 : p->neg > q->neg;
}

enum { CERT_CLASSES = 256, CERT_SHORT = 3, CERT_TRIES = 96 };

bool *pairs_chain_ends(const Sample *S)
{
	bool *end = xcalloc(S->nbits + 1, 1);
	for (size_t c = 0; c < S->nchains; c++)
		end[S->chains[c].first + (S->chains[c].word.len - S->n - 1)] = true;
	return end;
}

typedef struct {
	size_t bit[2][CERT_SHORT]; /* by label, shortest first */
	size_t n[2];
} Shortest;

static void keep_short(Shortest *sh, int lab, size_t bit, const Sample *S)
{
	size_t *arr = sh->bit[lab];
	size_t k = sh->n[lab] < CERT_SHORT ? sh->n[lab]++ : CERT_SHORT;
	while (k > 0 && S->length[arr[k - 1]] > S->length[bit]) {
		if (k < CERT_SHORT)
			arr[k] = arr[k - 1];
		k--;
	}
	if (k < CERT_SHORT)
		arr[k] = bit;
}

/* Candidates of the classes below CERT_CLASSES, in one pass: in each
 * class its CERT_SHORT shortest words of either label paired, and its
 * ends of chains paired across labels; sorted by length, each pair
 * once. */
void pairs_candidates(const Parts *p, const Sample *S, const bool *end,
		      PairCands *out)
{
	uint32_t nc = p->ncls < CERT_CLASSES ? p->ncls : CERT_CLASSES;
	Shortest *sh = xcalloc(nc + 1, sizeof *sh);
	VEC(size_t) ends = {0};
	for (size_t i = 0; i < p->n; i++) {
		if (p->cls[i] >= nc)
			continue;
		keep_short(&sh[p->cls[i]], p->lab[i], p->bit[i], S);
		if (end[p->bit[i]])
			VEC_PUSH(ends, i);
	}
	for (uint32_t c = 0; c < nc; c++)
		for (size_t i = 0; i < sh[c].n[1]; i++)
			for (size_t j = 0; j < sh[c].n[0]; j++) {
				size_t x = sh[c].bit[1][i], y = sh[c].bit[0][j];
				PairCand cd = {x, y, S->length[x] + S->length[y]};
				VEC_PUSH(*out, cd);
			}
	for (size_t i = 0; i < ends.len; i++)
		for (size_t j = 0; j < ends.len; j++) {
			size_t x = ends.data[i], y = ends.data[j];
			if (p->cls[x] != p->cls[y] || !p->lab[x] || p->lab[y])
				continue;
			PairCand cd = {p->bit[x], p->bit[y],
				    S->length[p->bit[x]] + S->length[p->bit[y]]};
			VEC_PUSH(*out, cd);
		}
	VEC_FREE(ends);
	free(sh);
	if (out->len) /* (no array at all when there is no candidate) */
		qsort(out->data, out->len, sizeof *out->data, cmp_cand);
	size_t m = 0;
	for (size_t i = 0; i < out->len; i++)
		if (m == 0 || out->data[i].pos != out->data[m - 1].pos ||
		    out->data[i].neg != out->data[m - 1].neg)
			out->data[m++] = out->data[i];
	out->len = m;
}

/* Pairs of the conflicting classes that no formula of F_d(cls) tells
 * apart, shortest first (up to SEARCH_PAIRS, after at most CERT_TRIES
 * checks). */
void pairs_certify(const Parts *p, const Sample *S, unsigned d,
		   IndistBounds cls, Limits *lim, Refutation *r)
{
	PairCands cands = {0};
	bool *end = pairs_chain_ends(S);
	pairs_candidates(p, S, end, &cands);
	free(end);
	uint8_t *u = xmalloc(S->nbits + 1), *v = xmalloc(S->nbits + 1);
	r->npairs = 0;
	r->checked = 0;
	for (size_t i = 0; i < cands.len && r->checked < CERT_TRIES &&
			   r->npairs < SEARCH_PAIRS; i++) {
		if (limit_poll(lim))
			break;
		size_t ul = sample_word(S, cands.data[i].pos, u);
		size_t vl = sample_word(S, cands.data[i].neg, v);
		r->checked++;
		if (indist_pair(u, ul, v, vl, S->nletters, d, cls, lim) != INDIST_NONE)
			continue;
		r->pairs[r->npairs] = (WordPair){cands.data[i].pos, cands.data[i].neg};
		r->parikh[r->npairs++] = indist_parikh(u, ul, v, vl, S->nletters);
	}
	free(u);
	free(v);
	VEC_FREE(cands);
}
