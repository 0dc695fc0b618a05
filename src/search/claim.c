/* claim.c -- the wording of a depth search's result (claim.h). */
#include <config.h>

#include "search/claim.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/limit.h"
#include "base/mem.h"
#include "search/blockcheck.h"
#include "search/blockword.h"

DepthClaim claim_make(bool found, unsigned upper, int lower)
{
	return (DepthClaim){.found = found, .upper = found ? upper : 0,
			    .lower = lower < -1 ? -1 : lower};
}

bool claim_least(const DepthClaim *c)
{
	return c->found && (long)c->upper == (long)c->lower + 1;
}

unsigned claim_lower_bound(const DepthClaim *c)
{
	return (unsigned)(c->lower + 1);
}

void claim_text(const DepthClaim *c, char *out, size_t n)
{
	char low[64];
	if (c->lower >= 0)
		snprintf(low, sizeof low, "lower bound certified to depth %d",
			 c->lower);
	else
		snprintf(low, sizeof low, "no lower bound certified");
	if (claim_least(c))
		snprintf(out, n, "least depth %u", c->upper);
	else if (c->found && (long)c->upper <= (long)c->lower)
		/* the pair is exact, the verification may not be a proof */
		snprintf(out, n, "depth %u found, but a pair certifies that no "
			 "formula of depth <= %d defines the target: the formula "
			 "is wrong on a word its verification did not reach",
			 c->upper, c->lower);
	else if (c->found)
		snprintf(out, n, "depth <= %u found; %s", c->upper, low);
	else
		snprintf(out, n, "%s", low);
}

/* blockcheck's verdict on a sample pair at depth d. */
static unsigned recheck(const Sample *S, const WordPair *p, unsigned d,
			IndistBounds cls, Limits *lim)
{
	uint8_t *u = xmalloc(S->nbits + 1), *v = xmalloc(S->nbits + 1);
	size_t ul = sample_word(S, p->pos, u), vl = sample_word(S, p->neg, v);
	BlockWord bu, bv;
	blockword_from(&bu, u, ul);
	blockword_from(&bv, v, vl);
	unsigned c = blockcheck_pair(&bu, &bv, S->nletters, d, cls, lim);
	blockword_free(&bu);
	blockword_free(&bv);
	free(u);
	free(v);
	return c;
}

ClaimStatus claim_sample_lower(const SearchResult *r, const Sample *S,
			       int floor, Limits *lim, int *out, unsigned *depth,
			       WordPair *pair)
{
	*out = -1;
	/* two-sided searches: whole words, re-checked in the two-sided
	 * class (r->cls.two_sided) */
	if (!r->certified || r->noisy)
		return CLAIM_OK;
	/* the deepest depth first: one pair there bounds all below; none
	 * at or below floor (certified otherwise) is re-checked */
	for (unsigned d = r->tried; d-- > 0 && (int)d > floor;) {
		const Refutation *f = &r->refuted[d];
		for (size_t i = 0; i < f->npairs; i++) {
			unsigned c = recheck(S, &f->pairs[i], d, r->cls, lim);
			if (c == BLOCKCHECK_STOPPED)
				return CLAIM_STOPPED;
			if (c == BLOCKCHECK_UNDECIDED)
				continue; /* not shown twice: not counted */
			if (c != BLOCKCHECK_NONE && c != BLOCKCHECK_NEVER) {
				*depth = d;
				*pair = f->pairs[i];
				return CLAIM_DISAGREE;
			}
			*out = (int)d;
			return CLAIM_OK;
		}
	}
	return CLAIM_OK;
}
