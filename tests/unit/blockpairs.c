/* blockpairs.c -- shared helpers of the block-check tests. */
#include <config.h>

#include "blockpairs.h"

#include <check.h>

#include "search/blockcheck.h"
#include "search/indist.h"

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

BlockrefAnswer blockpairs_blockref(const uint8_t *u, size_t nu,
				   const uint8_t *v, size_t nv, unsigned maxd,
				   IndistBounds b)
{
	BlockWord U, V;
	blockword_from(&U, u, nu);
	blockword_from(&V, v, nv);
	BlockrefAnswer a = blockref_pair(&U, &V, 2, maxd, b, NULL);
	blockword_free(&U);
	blockword_free(&V);
	return a;
}

/* blockref's answer as a depth or INDIST_NONE (undecided fails). */
static unsigned blockref_depth(const uint8_t *u, size_t nu, const uint8_t *v,
			       size_t nv, unsigned maxd, IndistBounds b)
{
	BlockrefAnswer a = blockpairs_blockref(u, nu, v, nv, maxd, b);
	ck_assert_msg(a.kind != BLOCKREF_UNKNOWN && a.kind != BLOCKREF_STOPPED,
		      "blockref undecided on a short pair");
	return a.kind == BLOCKREF_SEPARATED ? a.depth : INDIST_NONE;
}

unsigned blockpairs_explicit_agrees(const uint8_t *u, unsigned nu, unsigned mu,
				    const uint8_t *v, unsigned nv, unsigned mv,
				    unsigned maxd, IndistBounds b)
{
	unsigned e = indist_pair(u, nu, v, nv, 2, maxd, b, NULL);
	unsigned g = blockref_depth(u, nu, v, nv, maxd, b);
	ck_assert_msg(e == g, "C=%u T=%u words %x/%u %x/%u: explicit %u, "
		      "blocks %u", b.C, b.T, mu, nu, mv, nv, e, g);
	return e;
}

bool blockpairs_never_agrees(const uint8_t *u, unsigned nu, unsigned mu,
			     const uint8_t *v, unsigned nv, unsigned mv,
			     IndistBounds b)
{
	BlockrefAnswer a =
		blockpairs_blockref(u, nu, v, nv, INDIST_MAX_DEPTH, b);
	unsigned e = indist_pair(u, nu, v, nv, 2, INDIST_MAX_DEPTH, b, NULL);
	ck_assert_msg((a.kind == BLOCKREF_NEVER) == (e == INDIST_NONE),
		      "words %x/%u %x/%u: blocks kind %d, explicit %u", mu, nu,
		      mv, nv, a.kind, e);
	return a.kind == BLOCKREF_NEVER;
}

void blockpairs_explicit_random(uint64_t seed, unsigned n, IndistBounds b,
				unsigned maxrun, unsigned tune,
				BlockpairsPerturb perturb)
{
	Rng r;
	rng_seed(&r, seed);
	uint8_t u[512], v[512];
	blockref_tune(tune);
	for (unsigned i = 0; i < n; i++) {
		size_t nu = blockpairs_random(&r, 6, maxrun, u);
		size_t nv = perturb(&r, u, nu, maxrun, v);
		unsigned e = indist_pair(u, nu, v, nv, 2, 5, b, NULL);
		unsigned g = blockref_depth(u, nu, v, nv, 5, b);
		ck_assert_msg(e == g, "seed %llu case %u (C=%u T=%u, tune %u): "
			      "explicit %u, blocks %u", (unsigned long long)seed,
			      i, b.C, b.T, tune, e, g);
	}
	blockref_tune(0);
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
		unsigned nb = shape->least_runs +
			      rng_below(&r, 7 - shape->least_runs);
		for (unsigned k = 0; k < nb; k++)
			blockword_push(&U, (uint8_t)(k % 2),
				       shape->least_run + rng_below(&r, maxrun));
		shape->make(&r, &U, &V);
		blockpairs_agree(&U, &V, 2, d.maxd, bounds[i % 3], i);
		blockword_free(&U);
		blockword_free(&V);
	}
}
