/* blockpairs.c -- shared helpers of the block-check tests. */
#include <config.h>

#include "blockpairs.h"

#include <check.h>

#include "search/blockcheck.h"

void blockpairs_word_of(unsigned bits, unsigned n, uint8_t *out)
{
	for (unsigned i = 0; i < n; i++)
		out[i] = bits >> i & 1;
}

size_t blockpairs_random(Rng *r, unsigned blocks, unsigned maxrun, uint8_t *out)
{
	size_t n = 0;
	unsigned nb = 1 + rng_below(r, blocks);
	for (unsigned k = 0; k < nb; k++) {
		unsigned len = 1 + rng_below(r, maxrun);
		uint8_t c = (uint8_t)rng_below(r, 2);
		for (unsigned i = 0; i < len; i++)
			out[n++] = c;
	}
	return n;
}

void blockpairs_each(unsigned maxlen, BlockpairsFn fn, void *ctx)
{
	uint8_t u[32], v[32];
	for (unsigned nu = 1; nu <= maxlen; nu++)
		for (unsigned nv = 1; nv <= maxlen; nv++)
			for (unsigned mu = 0; mu < 1u << nu; mu++)
				for (unsigned mv = 0; mv < 1u << nv; mv++) {
					blockpairs_word_of(mu, nu, u);
					blockpairs_word_of(mv, nv, v);
					fn(u, nu, mu, v, nv, mv, ctx);
				}
}

void blockpairs_agree(const BlockWord *U, const BlockWord *V, size_t nletters,
		      unsigned maxd, IndistBounds b, unsigned i)
{
	BlockrefAnswer a = blockref_pair(U, V, nletters, maxd, b, NULL);
	unsigned c = blockcheck_pair(U, V, nletters, maxd, b, NULL);
	unsigned want = a.kind == BLOCKREF_SEPARATED ? a.depth
			: a.kind == BLOCKREF_NONE ? BLOCKCHECK_NONE
			: a.kind == BLOCKREF_NEVER ? BLOCKCHECK_NEVER : 9999;
	ck_assert_msg(c == want, "case %u (C=%u T=%u two-sided %d): blockref "
		      "kind %d depth %u, blockcheck %u", i, b.C, b.T, b.two_sided,
		      a.kind, a.depth, c);
}

static void witness_shape(Rng *r, const BlockWord *u, BlockWord *v)
{
	blockword_copy(v, u);
	if (rng_below(r, 2)) {
		v->len[rng_below(r, (uint32_t)v->n)] += 1 + rng_below(r, 3);
	} else {
		uint8_t last = v->letter[v->n - 1];
		blockword_push(v, (uint8_t)(1 - last), 1);
		blockword_push(v, last, 1);
	}
}

const BlockpairsShape blockpairs_witness = {witness_shape, 1, 1};

static void dk_shape(Rng *r, const BlockWord *u, BlockWord *v)
{
	size_t at = rng_below(r, (uint32_t)u->n - 1);
	for (size_t k = 0; k < u->n; k++) {
		if (k == at && rng_below(r, 2)) {
			blockword_push(v, u->letter[k], u->len[k] - 1);
			blockword_push(v, u->letter[k + 1], 1);
			blockword_push(v, u->letter[k], 1);
			blockword_push(v, u->letter[k + 1], u->len[k + 1] - 1);
			k++;
			continue;
		}
		blockword_push(v, u->letter[k], u->len[k] + (k == at));
	}
}

const BlockpairsShape blockpairs_dk = {dk_shape, 2, 2};

void blockpairs_recheck(const BlockpairsShape *shape,
			const IndistBounds bounds[3], BlockpairsDraw d)
{
	Rng r;
	rng_seed(&r, d.seed);
	for (unsigned i = 0; i < d.count; i++) {
		unsigned maxrun = d.maxrun[i % 2];
		BlockWord U = {0}, V = {0};
		unsigned nb = shape->least_runs + rng_below(&r, 7 - shape->least_runs);
		for (unsigned k = 0; k < nb; k++)
			blockword_push(&U, (uint8_t)(k % 2),
				       shape->least_run + rng_below(&r, maxrun));
		shape->make(&r, &U, &V);
		blockpairs_agree(&U, &V, 2, d.maxd, bounds[i % 3], i);
		blockword_free(&U);
		blockword_free(&V);
	}
}
