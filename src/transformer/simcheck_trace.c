/* simcheck_trace.c -- one word through the model, position by position:
 * every component's value next to the exact value of its label
 * (simcheck.h). */
#include <config.h>
#include "transformer/simcheck_state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/* ---- trace -------------------------------------------------------------- */

/* The exact kneedeep output of a head: floor(-(L+1)/(i+1)) at scale s. */
static double head_exact(const SimCheck *sc, uint32_t c, EvalTable *t,
			 size_t pos, double **prefix)
{
	const Component *cp = &sc->m->comps[c];
	double l = cp->constant;
	for (size_t k = 0; k < cp->ncounts; k++)
		l += cp->counts[k].coef * (pos ? prefix[k][pos] : 0);
	double num = -(l + 1), sc2 = ldexp(1, sc->m->s);
	return floor(num * sc2 / (double)(pos + 1)) / sc2 + 0.0; /* no -0 */
}

/* What a head component holds, by construction. */
static const char *window_label(const Model *m, const Component *cp)
{
	if (cp->kind != COMP_HEAD)
		return "0/1";
	if (!cp->window)
		return "floor(-(L+1)/(i+1))";
	if (strcmp(m->pe, "urpe") == 0)
		return "floor((2 psi(i-1) - 1)/(i+1))";
	if (strcmp(m->pe, "rope") == 0)
		return "1 if only BOS weighs, else the average";
	return "window average";
}

static void row_label(FILE *out, const Component *cp, const char *what)
{
	const char *kind = cp->kind == COMP_HEAD ? "head" : "bool";
	fprintf(out, "L%u %s %s [%s]\n", cp->layer, kind,
		cp->formula ? cp->formula : "?", what);
}

void simcheck_trace(SimCheck *sc, const uint32_t *w, size_t n, FILE *out)
{
	const Model *m = sc->m;
	Sym *word = xcalloc(n ? n : 1, sizeof *word);
	for (size_t i = 0; i < n; i++)
		word[i] = sc->sym_of[w[i]];
	EvalTable *t = NULL;
	size_t nroots;
	Node *roots = simcheck_labels(sc, &nroots);
	/* a count readout's term is no row of the trace */
	size_t skip = sc->root && !store_is_bool(sc->store, sc->root);
	Evaluator *ev = nroots > skip ? eval_new(sc->store, roots + skip,
						 nroots - skip, ACCEPT_LAST)
				      : NULL;
	if (ev)
		t = eval_table(ev, word, n);
	simcheck_run(sc, w, n);
	fprintf(out, "%-8s", "position");
	fprintf(out, " %8s", "BOS");
	for (size_t p = 1; p <= n; p++)
		fprintf(out, " %8zu", p);
	fputc('\n', out);
	fprintf(out, "%-8s", "letter");
	for (size_t p = 0; p <= n; p++)
		fprintf(out, " %8s", p ? m->alphabet[w[p - 1] - 1] : "");
	fputc('\n', out);
	for (uint32_t c = 0; c < m->d; c++) {
		const Component *cp = &m->comps[c];
		if (cp->kind != COMP_BOOL && cp->kind != COMP_HEAD)
			continue;
		row_label(out, cp, window_label(m, cp));
		fprintf(out, "%-8s", "  model");
		for (size_t p = 0; p <= n; p++)
			fprintf(out, " %8g", sim_residual(sc->sim, p, cp->layer)[c]);
		fputc('\n', out);
		if (!t)
			continue;
		fprintf(out, "%-8s", "  logic");
		double **prefix = NULL;
		if (cp->kind == COMP_HEAD) {
			prefix = xcalloc(cp->ncounts + 1, sizeof *prefix);
			for (size_t k = 0; k < cp->ncounts; k++) {
				prefix[k] = xcalloc(n + 1, sizeof **prefix);
				for (size_t p = 1; p <= n; p++)
					prefix[k][p] = prefix[k][p - 1] +
						       eval_table_bool(
							       t, sc->count_node[c][k], p);
			}
		}
		for (size_t p = 0; p <= n; p++) {
			if (cp->kind == COMP_HEAD && cp->window)
				fprintf(out, " %8s", "-");
			else if (cp->kind == COMP_HEAD)
				fprintf(out, " %8g", head_exact(sc, c, t, p, prefix));
			else if (p == 0 && n > 0)
				fprintf(out, " %8s", ".");
			else if (!sc->comp_node[c])
				fprintf(out, " %8s", "?");
			else
				fprintf(out, " %8d",
					eval_table_bool(t, sc->comp_node[c], p));
		}
		fputc('\n', out);
		for (size_t k = 0; prefix && k < cp->ncounts; k++)
			free(prefix[k]);
		free(prefix);
	}
	eval_table_free(t);
	eval_free(ev);
	free(roots);
	free(word);
}
