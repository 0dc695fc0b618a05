/* pairgen_dk.c -- candidate pairs for D_k = L_(2k-1) in the two-sided
 * class: the difference in the middle of the word, where neither past
 * nor future counts reach it cheaply. */
#include <config.h>

#include "search/pairgen.h"

#include "base/splitmix.h"

/* Block lengths of a word of 2k - 1 blocks: the two middle blocks k and
 * k + 1 (1-based) about m each, then outwards, alternately to the left
 * and to the right, each block a multiple of all inner blocks together,
 * so that a count reaches a block only past all it encloses.  The
 * multiple is 1.5 to 2.5 up to k = 3 (the shortest pairs certified) and
 * 2.5 to 4.5 from k = 4 on: at depth 3 the narrower one leaves some
 * difference of class sums next to zero and every candidate is
 * separated (0 of 4 certified, C = 1, T = 2), the wider one certified
 * 12 of 12 (62k to 276k letters, 0.6-0.9 s each). */
static void dk_lengths(unsigned k, uint64_t m, uint64_t *rng, uint64_t *len)
{
	unsigned nb = 2 * k - 1, lo = k - 1, hi = k; /* 0-based middle pair */
	unsigned least = k < 4 ? 150 : 250, span = k < 4 ? 101 : 201; /* percent */
	len[lo] = m + splitmix64_next(rng) % (m + 1);
	len[hi] = m + splitmix64_next(rng) % (m + 1);
	uint64_t inner = len[lo] + len[hi];
	for (unsigned step = 0; lo > 0 || hi + 1 < nb; step++) {
		unsigned at = step % 2 == 0 && lo > 0 ? --lo : hi + 1 < nb ? ++hi : --lo;
		uint64_t r = least + splitmix64_next(rng) % span;
		len[at] = inner * r / 100 + splitmix64_next(rng) % 7;
		inner += len[at];
	}
}

/* u: the blocks; v: the same with the last letter of the middle block k
 * and the first of block k + 1 swapped (two blocks more, the same
 * letters).  k = 1: "aa" and "ba". */
static void dk_shape(unsigned k, const uint64_t *len, PairCert *p)
{
	p->u = (BlockWord){0};
	p->v = (BlockWord){0};
	if (k == 1) {
		blockword_push(&p->u, 0, 2);
		blockword_push(&p->v, 1, 1);
		blockword_push(&p->v, 0, 1);
		return;
	}
	for (unsigned i = 0; i < 2 * k - 1; i++) {
		uint8_t c = (uint8_t)(i % 2);
		blockword_push(&p->u, c, len[i]);
		if (i == k - 1) {
			blockword_push(&p->v, c, len[i] - 1);
			blockword_push(&p->v, (uint8_t)(1 - c), 1);
			blockword_push(&p->v, c, 1);
		} else if (i == k) {
			blockword_push(&p->v, c, len[i] - 1);
		} else {
			blockword_push(&p->v, c, len[i]);
		}
	}
}

static void dk_candidate(unsigned k, uint64_t m, uint64_t *rng, PairCert *out)
{
	uint64_t len[2 * PAIRGEN_DK_MAX];
	dk_lengths(k, m, rng, len);
	dk_shape(k, len, out);
}

PairgenStatus pairgen_dk(unsigned k, unsigned d, IndistBounds b, uint64_t seed,
			 unsigned tries, PairgenMember member, void *ctx,
			 struct Limits *lim, PairCert *out)
{
	if (k < 1 || k > PAIRGEN_DK_MAX)
		return PAIRGEN_NONE;
	return pairgen_grow(dk_candidate, k, d, b,
			    seed * 0x9e3779b97f4a7c15u + k * 37u + d + 1, tries,
			    member, ctx, lim, out);
}
