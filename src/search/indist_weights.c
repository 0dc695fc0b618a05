/* indist_weights.c -- the weight sets of indist's comparisons. */
#include <config.h>

#include "search/indist_weights.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/vec.h"

void indist_weights_of(const int32_t *a, unsigned T, unsigned ahead,
		       Weights *out)
{
	memset(out, 0, sizeof *out);
	memcpy(out->a, a, T * sizeof *a);
	out->ahead = (uint8_t)ahead;
	for (unsigned m = 0; m < 1u << T; m++) {
		unsigned d = (m & ahead) != 0;
		if (d && (m & ~ahead))
			continue; /* a coordinate is counted one way */
		int32_t s = 0;
		for (unsigned i = 0; i < T; i++)
			if (m >> i & 1)
				s += a[i];
		for (unsigned e = 0; e < 2; e++) {
			if (m && e != d)
				continue; /* the empty subset serves both */
			size_t k = 0;
			while (k < out->n[e] && out->w[e][k] != s)
				k++;
			if (k == out->n[e]) {
				out->w[e][out->n[e]] = s;
				out->mask[e][out->n[e]++] = (uint8_t)m;
			}
		}
		if (abs(s) > out->maxabs)
			out->maxabs = abs(s);
	}
}

/* Is every weight of p's direction d one of q's (negated when neg)? */
static bool weights_within(const Weights *p, const Weights *q, bool neg)
{
	for (unsigned d = 0; d < 2; d++)
		for (size_t i = 0; i < p->n[d]; i++) {
			bool found = false;
			int32_t v = neg ? -p->w[d][i] : p->w[d][i];
			for (size_t j = 0; j < q->n[d] && !found; j++)
				found = v == q->w[d][j];
			if (!found)
				return false;
		}
	return true;
}

/* The weight sets worth trying: one per multiset of coefficients, less
 * those whose weights (or their negations: negating every weight negates
 * X and Y, and the window [-C, C] is symmetric) another set has too. */
Weights *indist_weight_sets(IndistBounds b, size_t *n)
{
	VEC(Weights) all = {0};
	int32_t a[INDIST_MAX_T];
	int C = (int)b.C;
	unsigned ndir = b.two_sided ? 1u << b.T : 1;
	for (size_t i = 0; i < b.T; i++)
		a[i] = -C;
	for (;;) {
		for (unsigned dir = 0; dir < ndir; dir++) {
			Weights w;
			indist_weights_of(a, b.T, dir, &w);
			if (w.maxabs > 0)
				VEC_PUSH(all, w);
		}
		/* the next non-decreasing tuple */
		size_t i = b.T;
		while (i > 0 && a[i - 1] == C)
			i--;
		if (i == 0)
			break;
		a[i - 1]++;
		for (size_t j = i; j < b.T; j++)
			a[j] = a[i - 1];
	}
	Weights *out = xmalloc((all.len + 1) * sizeof *out);
	*n = 0;
	for (size_t i = 0; i < all.len; i++) {
		bool dominated = false;
		for (size_t j = 0; j < all.len && !dominated; j++) {
			if (i == j)
				continue;
			const Weights *q = &all.data[j];
			bool in = weights_within(&all.data[i], q, false) ||
				  weights_within(&all.data[i], q, true);
			bool back = weights_within(q, &all.data[i], false) ||
				    weights_within(q, &all.data[i], true);
			/* equal sets: the first one stays */
			dominated = in && (!back || j < i);
		}
		if (!dominated)
			out[(*n)++] = all.data[i];
	}
	VEC_FREE(all);
	return out;
}
