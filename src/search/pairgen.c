/* pairgen.c -- candidate pairs for L_k, checked twice. */
#include <config.h>

#include "search/pairgen.h"

#include <stdlib.h>

#include "search/blockcheck.h"
#include "search/blockref.h"
#include "base/limit.h"
#include "base/splitmix.h"

/* u and v for L_k from the lengths of the first k - 1 blocks (the last
 * of them, Y's, is n + 1 long in u); `swap`: the prediction task's pair
 * of L_(k+2), the same words the other way round. */
static void shape(unsigned k, const uint64_t *len, bool swap, PairCert *p)
{
	p->u = (BlockWord){0};
	p->v = (BlockWord){0};
	if (k == 1) { /* L_1 = a+: "aa" and "ba" share the last letter */
		blockword_push(&p->u, 0, 2);
		if (swap) { /* P_3: "aba" and "aa" */
			blockword_push(&p->v, 0, 1);
			blockword_push(&p->v, 1, 1);
			blockword_push(&p->v, 0, 1);
		} else {
			blockword_push(&p->v, 1, 1);
			blockword_push(&p->v, 0, 1);
		}
		return;
	}
	for (unsigned i = 0; i + 2 < k; i++) {
		blockword_push(&p->u, (uint8_t)(i % 2), len[i]);
		blockword_push(&p->v, (uint8_t)(i % 2), len[i]);
	}
	uint8_t y = (uint8_t)((k - 2) % 2), x = (uint8_t)(1 - y);
	uint64_t n1 = len[k - 2];
	blockword_push(&p->u, y, n1);
	blockword_push(&p->u, x, 2);
	blockword_push(&p->v, y, n1 - 1);
	blockword_push(&p->v, x, 1);
	blockword_push(&p->v, y, 1);
	blockword_push(&p->v, x, 1);
}

static void shape_for(unsigned k, const uint64_t *len, bool swap, PairCert *p)
{
	shape(k, len, swap, p);
	if (swap) {
		BlockWord t = p->u;
		p->u = p->v;
		p->v = t;
	}
}

/* Block lengths from the end: Y's about m, each earlier block 1.5 to 2.5
 * times all later ones together. */
static void lengths(unsigned k, uint64_t m, uint64_t *rng, uint64_t *len)
{
	if (k < 2)
		return;
	uint64_t later = 2;
	len[k - 2] = m + splitmix64_next(rng) % (m + 1);
	later += len[k - 2];
	for (unsigned i = k - 2; i-- > 0;) {
		uint64_t r = 150 + splitmix64_next(rng) % 101; /* percent */
		len[i] = later * r / 100 + splitmix64_next(rng) % 7;
		later += len[i];
	}
}

int pairgen_check(const PairCert *p, size_t nletters, unsigned d,
		  IndistBounds b, Limits *lim, unsigned *sep, bool *never)
{
	if (never)
		*never = false;
	BlockrefAnswer a = blockref_pair(&p->u, &p->v, nletters, d, b, lim);
	*sep = a.kind == BLOCKREF_SEPARATED || a.kind == BLOCKREF_UNKNOWN
	       ? a.depth : d + 1;
	if (a.kind == BLOCKREF_STOPPED)
		return -2;
	if (a.kind != BLOCKREF_NONE && a.kind != BLOCKREF_NEVER)
		return 0;
	unsigned c = blockcheck_pair(&p->u, &p->v, nletters, d, b, lim);
	if (c == BLOCKCHECK_STOPPED)
		return -2;
	if (c == BLOCKCHECK_UNDECIDED)
		return 0; /* not shown twice: not certified */
	if (never)
		*never = a.kind == BLOCKREF_NEVER && c == BLOCKCHECK_NEVER;
	return c == BLOCKCHECK_NONE || c == BLOCKCHECK_NEVER ? 1 : -1;
}

uint64_t pairgen_scale(unsigned d, IndistBounds b)
{
	/* per unit of C T: measured at C = 1, T = 2 (see the header) */
	static const uint64_t by_depth[] = {4, 4, 4, 15, 20, 25, 175, 500};
	size_t n = sizeof by_depth / sizeof *by_depth;
	uint64_t s = d < n ? by_depth[d] : by_depth[n - 1] << (2 * (d - n + 1));
	return s * b.C * b.T;
}

PairgenStatus pairgen_grow(PairgenShape make, unsigned k, unsigned d,
			   IndistBounds b, uint64_t rng, unsigned tries,
			   PairgenMember member, void *ctx, Limits *lim,
			   PairCert *out)
{
	uint64_t m = pairgen_scale(d, b);
	double t0 = limit_now();
	for (unsigned t = 1; t <= tries; t++) {
		make(k, m, &rng, out);
		out->depth = d;
		out->tries = t;
		unsigned sep;
		int r = pairgen_check(out, 2, d, b, lim, &sep, NULL);
		out->seconds = limit_now() - t0;
		if (r == 1 && member(ctx, &out->u, true) && member(ctx, &out->v, false))
			return PAIRGEN_FOUND;
		if (r == -1)
			return PAIRGEN_DISAGREE;
		pairgen_free(out);
		if (r == -2)
			return PAIRGEN_STOPPED;
		/* separated: the counts were within reach of the class */
		if (sep <= d)
			m = m * 7 / 5;
	}
	return PAIRGEN_NONE;
}

/* A candidate for L_k of scale m. */
static void lk_candidate(unsigned k, uint64_t m, uint64_t *rng, PairCert *out)
{
	uint64_t len[BLOCKREF_MAX_DEPTH + 2];
	lengths(k, m, rng, len);
	shape_for(k, len, false, out);
}

/* The prediction task's candidate: L_k's the other way round. */
static void predict_candidate(unsigned k, uint64_t m, uint64_t *rng,
			      PairCert *out)
{
	uint64_t len[BLOCKREF_MAX_DEPTH + 2];
	lengths(k, m, rng, len);
	shape_for(k, len, true, out);
}

PairgenStatus pairgen_lk(unsigned k, unsigned d, IndistBounds b, uint64_t seed,
			 unsigned tries, PairgenMember member, void *ctx,
			 Limits *lim, PairCert *out)
{
	if (k > BLOCKREF_MAX_DEPTH)
		return PAIRGEN_NONE;
	return pairgen_grow(lk_candidate, k, d, b,
			    seed * 0x9e3779b97f4a7c15u + k * 31u + d, tries,
			    member, ctx, lim, out);
}

PairgenStatus pairgen_predict(unsigned m, unsigned d, IndistBounds b,
			      uint64_t seed, unsigned tries,
			      PairgenMember member, void *ctx,
			      Limits *lim, PairCert *out)
{
	if (m < 3 || m - 2 > BLOCKREF_MAX_DEPTH)
		return PAIRGEN_NONE;
	return pairgen_grow(predict_candidate, m - 2, d, b,
			    seed * 0x9e3779b97f4a7c15u + (m - 2) * 31u + d, tries,
			    member, ctx, lim, out);
}

bool pairgen_eval_member(void *ctx, const BlockWord *w, bool in)
{
	PairgenEval *m = ctx;
	eval_reset(m->ev);
	for (size_t r = 0; r < w->n; r++)
		for (uint64_t i = 0; i < w->len[r]; i++)
			eval_push(m->ev, m->ab[w->letter[r]]);
	bool judged = !m->predict || eval_accepts(m->ev, 1);
	return judged && eval_accepts(m->ev, 0) == in;
}

PairgenStatus (*pairgen_hook)(PairgenFn *gen, unsigned k, unsigned d,
			      IndistBounds b, uint64_t seed, unsigned tries,
			      PairgenMember member, void *ctx, Limits *lim,
			      PairCert *out);

void pairgen_free(PairCert *p)
{
	blockword_free(&p->u);
	blockword_free(&p->v);
}

/* ---- pairs among labelled words ----------------------------------------- */

typedef struct {
	size_t i, j;  /* in, out */
	uint64_t len; /* the longer */
} Cand;

static int cmp_cand(const void *x, const void *y)
{
	const Cand *p = x, *q = y;
	if (p->len != q->len)
		return p->len < q->len ? -1 : 1;
	if (p->i != q->i)
		return p->i < q->i ? -1 : 1;
	return p->j < q->j ? -1 : p->j > q->j;
}

static int cmp_len(const void *x, const void *y, void *ctx)
{
	const BlockWord *w = ctx;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	uint64_t li = blockword_length(&w[i]), lj = blockword_length(&w[j]);
	if (li != lj)
		return li < lj ? -1 : 1;
	return i < j ? -1 : i > j;
}

static uint8_t last_letter(const BlockWord *w)
{
	return w->letter[w->n - 1];
}

/* The candidate pairs, shortest first (NULL: none). */
static Cand *candidates(const BlockWord *w, const bool *in, size_t n,
			size_t *count)
{
	/* the PAIRGEN_WORDS shortest words of each label */
	size_t *ix[2] = {malloc((n + 1) * sizeof(size_t)),
			 malloc((n + 1) * sizeof(size_t))}, cnt[2] = {0, 0};
	for (size_t i = 0; ix[0] && ix[1] && i < n; i++)
		if (w[i].n)
			ix[in[i]][cnt[in[i]]++] = i;
	for (int l = 0; l < 2 && ix[l]; l++) {
		if (cnt[l] > 1)
			qsort_r(ix[l], cnt[l], sizeof *ix[l], cmp_len, (void *)w);
		if (cnt[l] > PAIRGEN_WORDS)
			cnt[l] = PAIRGEN_WORDS;
	}
	size_t m = 0, cap = 64;
	Cand *c = ix[0] && ix[1] ? malloc(cap * sizeof *c) : NULL;
	for (size_t a = 0; c && a < cnt[1]; a++)
		for (size_t b2 = 0; c && b2 < cnt[0]; b2++) {
			size_t i = ix[1][a], j = ix[0][b2];
			if (last_letter(&w[i]) != last_letter(&w[j]))
				continue;
			if (m == cap) {
				cap *= 2;
				Cand *g = realloc(c, cap * sizeof *c);
				if (!g) {
					free(c);
					c = NULL;
					break;
				}
				c = g;
			}
			uint64_t li = blockword_length(&w[i]), lj = blockword_length(&w[j]);
			c[m++] = (Cand){i, j, li > lj ? li : lj};
		}
	free(ix[0]);
	free(ix[1]);
	if (c && m > 1)
		qsort(c, m, sizeof *c, cmp_cand);
	*count = m;
	return c;
}

/* The first certified pair for each depth 0..maxd among the candidates
 * in order: each candidate's least separating depth by blockref once
 * (none up to maxd: maxd + 1), then for each depth still without a pair
 * below that, the candidate re-checked by both checks. */
void pairgen_labelled(const BlockWord *w, const bool *in, size_t n,
		      size_t nletters, unsigned maxd, IndistBounds b,
		      unsigned tries, Limits *lim, PairCert *out,
		      PairgenStatus *st)
{
	for (unsigned d = 0; d <= maxd; d++)
		st[d] = PAIRGEN_NONE;
	size_t m = 0;
	Cand *c = candidates(w, in, n, &m);
	double t0 = limit_now();
	unsigned next = 0; /* the least depth without a pair yet */
	for (size_t k = 0; c && k < m && k < tries && next <= maxd; k++) {
		BlockrefAnswer a = blockref_pair(&w[c[k].i], &w[c[k].j], nletters,
						 maxd, b, lim);
		if (a.kind == BLOCKREF_STOPPED) {
			st[next] = PAIRGEN_STOPPED;
			break;
		}
		unsigned sep = a.kind == BLOCKREF_SEPARATED ? a.depth
			       : a.kind == BLOCKREF_UNKNOWN ? 0 : maxd + 1;
		while (next < sep && next <= maxd) {
			PairCert *p = &out[next];
			*p = (PairCert){.depth = next, .tries = (unsigned)k + 1};
			blockword_copy(&p->u, &w[c[k].i]);
			blockword_copy(&p->v, &w[c[k].j]);
			unsigned s2;
			int r = pairgen_check(p, nletters, next, b, lim, &s2, NULL);
			p->seconds = limit_now() - t0;
			if (r != 1 && r != -1) {
				pairgen_free(p);
				if (r == -2)
					st[next] = PAIRGEN_STOPPED;
				break; /* not shown twice: the next candidate */
			}
			st[next++] = r == 1 ? PAIRGEN_FOUND : PAIRGEN_DISAGREE;
		}
		if (next <= maxd && st[next] == PAIRGEN_STOPPED)
			break;
	}
	free(c);
}
