/* blockcheck_state.c -- the weight sets of blockcheck's vector test. */
#include <config.h>

#include "search/blockcheck_state.h"

#include <stdlib.h>

#include "base/mem.h"

/* The sums of the subsets of the coefficients a_i with bit i of `sel`
 * set, into w (their number returned). */
static unsigned subset_sums(const int *a, unsigned T, unsigned sel, int32_t *w)
{
	unsigned n = 0;
	for (unsigned m = 0; m < 1u << T; m++) {
		if (m & ~sel)
			continue;
		int s = 0;
		for (unsigned i = 0; i < T; i++)
			s += m >> i & 1 ? a[i] : 0;
		unsigned j = 0;
		while (j < n && w[j] != s)
			j++;
		if (j == n)
			w[n++] = s;
	}
	return n;
}

/* The weight sets: for every T-tuple of coefficients in [-C, C] (and,
 * two-sided, every choice of the counts that look ahead), the sums of
 * the subsets of the past and of the future counts (duplicates are
 * harmless here, only slower). */
static void weight_sets(Check *k)
{
	unsigned T = k->b.T, dirs = k->stride == 2 ? 1u << T : 1;
	int C = (int)k->b.C, base = 2 * C + 1;
	size_t total = dirs;
	for (unsigned i = 0; i < T; i++)
		total *= (size_t)base;
	k->coef = xmalloc(total * sizeof *k->coef);
	k->ncoef = xmalloc(total * sizeof *k->ncoef);
	k->nsets = 0;
	for (size_t code = 0; code < total; code++) {
		int a[INDIST_MAX_T];
		size_t c = code;
		bool sorted = true;
		for (unsigned i = 0; i < T; i++) {
			a[i] = (int)(c % (size_t)base) - C;
			c /= (size_t)base;
			sorted &= i == 0 || a[i - 1] <= a[i];
		}
		if (!sorted)
			continue; /* one order of each multiset */
		unsigned ahead = (unsigned)c, all = (1u << T) - 1;
		k->ncoef[k->nsets][0] = subset_sums(a, T, all & ~ahead,
						    k->coef[k->nsets][0]);
		k->ncoef[k->nsets][1] = subset_sums(a, T, ahead, k->coef[k->nsets][1]);
		k->nsets++;
	}
}

void blockcheck_state_init(Check *k, IndistBounds b, struct Limits *lim)
{
	*k = (Check){.b = b, .lim = lim, .stride = b.two_sided ? 2 : 1};
	if (k->b.T < 1)
		k->b.T = 1;
	if (k->b.T > INDIST_MAX_T)
		k->b.T = INDIST_MAX_T;
	weight_sets(k);
}

void blockcheck_state_free(Check *k)
{
	free(k->coef);
	free(k->ncoef);
	free(k->n);
	free(k->m);
	free(k->e);
	free(k->eq);
	free(k->dn);
	free(k->de);
	free(k->rlo);
	free(k->rhi);
	for (int i = 0; i < 4; i++)
		free(k->iv[i]);
}
