/* indist.c -- what indist says without building its classes: the
 * Parikh certificate and the class described.  The classes are in
 * indist_tree.c (the words), indist_levels.c (the levels, the depth of a
 * pair), indist_separable.c (two count vectors decided) and
 * indist_formula.c (the separating formula). */
#include <config.h>

#include "search/indist.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/mem.h"

bool indist_parikh(const uint8_t *u, size_t ulen, const uint8_t *v,
		   size_t vlen, size_t nletters)
{
	if (ulen != vlen || (ulen && u[ulen - 1] != v[vlen - 1]))
		return false;
	size_t *cnt = xcalloc(nletters + 1, sizeof *cnt);
	for (size_t i = 0; i < ulen; i++) {
		cnt[u[i]]++;
		cnt[v[i]]--;
	}
	bool same = true;
	for (size_t k = 0; k < nletters; k++)
		same &= cnt[k] == 0;
	free(cnt);
	return same;
}

void indist_describe(IndistBounds b, char *out, size_t n)
{
	snprintf(out, n, "coefficients and constants within [-%u, %u], at most "
		 "%u counts per comparison%s, relations < <= = != >= >, inner "
		 "formulas of any size", b.C, b.C, b.T, b.two_sided
		 ? " (each a past count #[psi] or a future count #>[psi])" : "");
}
