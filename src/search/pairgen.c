/* pairgen.c -- candidate pairs for L_k, checked twice. */
#include <config.h>

#include "search/pairgen.h"

#include "search/blockcheck.h"
#include "search/blockref.h"
#include "base/limit.h"
#include "base/splitmix.h"

/* u and v for L_k from the lengths of the first k - 1 blocks (the last
 * of them, Y's, is n + 1 long in u). */
static void shape(unsigned k, const uint64_t *len, PairCert *p)
{
	p->u = (BlockWord){0};
	p->v = (BlockWord){0};
	if (k == 1) { /* L_1 = a+: "aa" and "ba" share the last letter */
		blockword_push(&p->u, 0, 2);
		blockword_push(&p->v, 1, 1);
		blockword_push(&p->v, 0, 1);
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

PairgenStatus pairgen_lk(unsigned k, unsigned d, IndistBounds b, uint64_t seed,
			 unsigned tries, PairgenMember member, void *ctx,
			 Limits *lim, PairCert *out)
{
	uint64_t rng = seed * 0x9e3779b97f4a7c15u + k * 31u + d;
	uint64_t len[BLOCKREF_MAX_DEPTH + 2];
	/* the last block's scale: grows with the class and the depth */
	uint64_t m = (uint64_t)b.C * b.T * (d < 3 ? 4 : 5 * d);
	double t0 = limit_now();
	for (unsigned t = 1; t <= tries; t++) {
		if (k > BLOCKREF_MAX_DEPTH)
			return PAIRGEN_NONE;
		lengths(k, m, &rng, len);
		shape(k, len, out);
		out->depth = d;
		out->tries = t;
		unsigned sep;
		int r = pairgen_check(out, 2, d, b, lim, &sep, NULL);
		out->seconds = limit_now() - t0;
		if (r == 1 && member(ctx, &out->u) && !member(ctx, &out->v))
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

void pairgen_free(PairCert *p)
{
	blockword_free(&p->u);
	blockword_free(&p->v);
}
