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
