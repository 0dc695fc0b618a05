/* hierarchy_built.c -- `tally hierarchy`'s rows above --search-depth:
 * the upper bound is a formula the theory gives, not one the search
 * found, verified by a second path before the row prints it. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "cli/hierarchy_table.h"
#include "machine/eval.h"
#include "search/hierarchy.h"

/* L_k's own formula against a count of runs (hierarchy_member, which
 * shares nothing with the formula) on every word up to the exhaustive
 * verification length: a second path for the definition. */
void table_check_definition(Table *t, unsigned k, Node f, Verification *v)
{
	unsigned n = t->ss.exh ? t->ss.exh->n : 0;
	size_t words = 0, bad = 0;
	Evaluator *ev = eval_new(t->st, &f, 1, ACCEPT_LAST);
	uint8_t w[32];
	Sym sw[32];
	char *first = NULL;
	for (unsigned len = 0; len <= n && len < sizeof w; len++)
		for (uint64_t x = 0; x < (uint64_t)1 << len; x++, words++) {
			for (unsigned i = 0; i < len; i++) {
				w[i] = (uint8_t)(x >> i & 1);
				sw[i] = t->ab[w[i]];
			}
			bool acc;
			eval_word(ev, sw, len, &acc);
			if (acc == hierarchy_member(w, len, k))
				continue;
			if (!bad++) {
				first = xmalloc(len + 1);
				for (unsigned i = 0; i < len; i++)
					first[i] = w[i] ? 'b' : 'a';
				first[len] = 0;
			}
		}
	eval_free(ev);
	*v = (Verification){.ok = bad == 0, .exh_bad = bad, .exh_len = n,
			    .exh_words = words, .decided = -1,
			    .kind = "definition"};
	Buf b = {0};
	buf_printf(&b, "L_%u as defined (its own formula, the target itself); a "
		   "count of runs %s it on all %zu words of length <= %u", k,
		   bad ? "DISAGREES with" : "agrees with", words, n);
	if (first)
		buf_printf(&b, " (e.g. \"%s\")", first);
	buf_puts(&b, "; evidence: definition");
	v->text = buf_take(&b);
	free(first);
}

void table_built_solution(Table *t, Node f, Solution *sol)
{
	memset(sol, 0, sizeof *sol);
	SearchResult *r = &sol->r;
	r->formula = f;
	r->found = true;
	r->depth = store_depth(t->st, f);
	r->stop = BANK_OK;
	r->cls = search_bounds(&t->o);
	sol->have_v = true; /* the caller verifies into sol->v */
}

void table_print_built(const Table *t, const char *indent, const char *which,
		       unsigned depth, const char *what)
{
	printf("%supper bound: not searched (%s %u > --search-depth=%u): %s\n",
	       indent, which, depth, t->search_depth, what);
}
