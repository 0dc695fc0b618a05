/* hierarchy_table.c -- the pieces `tally hierarchy`'s L_k and D_k tables
 * share: the plot's header, a row's failure, its pair (built by pairgen,
 * checked twice, printed) and the table's ending. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/hierarchy_table.h"
#include "cli/plot_hierarchy.h"
#include "machine/eval.h"

/* The plot's title and the header lines of the text output. */
void table_plot_header(const Table *t, const char *title)
{
	if (!t->plot)
		return;
	char cls[200];
	Buf b = {0};
	plot_title(t->plot, title);
	const Sample *S[2] = {t->ss.S, t->dk ? t->two.S : NULL};
	for (int i = 0; i < 2 && S[i]; i++) {
		buf_printf(&b, "sample%s: %s", !t->dk ? "" : i ? " (two-sided)"
			   : " (past-only)", S[i]->desc);
		plot_line(t->plot, b.data);
		b.len = 0;
	}
	indist_describe(search_bounds(&t->o), cls, sizeof cls);
	buf_printf(&b, "bounds: C = %u, T = %u: %s", t->o.C, t->o.T, cls);
	plot_line(t->plot, b.data);
	buf_free(&b);
}

/* Why a row has no verified formula (NULL when it has one). */
const char *table_row_failure(const Solution *sol)
{
	const SearchResult *r = &sol->r;
	if (!r->found && r->tried && r->refuted[r->tried - 1].cut)
		return "no Boolean combination of the search's comparisons agrees "
		       "with the target on the sample at any depth tried; the bank "
		       "was cut at its memory budget (--max-memory), smallest "
		       "formulas kept";
	if (!r->found)
		return "no Boolean combination of the search's comparisons agrees "
		       "with the target on the sample at any depth tried";
	if (!r->formula)
		return "a limit stopped the extraction of the formula";
	if (sol->have_v && sol->v.ok)
		return NULL;
	if (sol->exhausted)
		return "the candidates kept failing verification (the rounds of "
		       "counterexamples ran out)";
	return "the candidate failed verification";
}

char *table_pair_text(const BlockWord *w)
{
	static const char *const ab[] = {"a", "b"};
	return blockword_text(w, ab);
}

/* "  <label>lower bound: ..." for a pair sought at depth d within b. */
void table_print_lower(const Table *t, const char *label, unsigned d,
			   IndistBounds b, const Lower *lw)
{
	if (!lw->tried)
		return;
	char cls[80];
	search_class_brief(b, cls, sizeof cls);
	if (!lw->found && lw->stopped) {
		printf("  %slower bound: a limit stopped the search for a pair at "
		       "depth %u\n", label, d);
		return;
	}
	if (!lw->found) {
		printf("  %slower bound: no pair certified at depth %u within %u "
		       "candidates\n", label, d, t->lower_tries);
		return;
	}
	const PairCert *p = &lw->pair;
	char *u = table_pair_text(&p->u), *v = table_pair_text(&p->v), tm[32] = "";
	if (!t->no_time)
		snprintf(tm, sizeof tm, ", %.2fs", p->seconds);
	printf("  %slower bound: within %s, no formula of depth <= %u separates "
	       "\"%s\" (in) and \"%s\" (out): %llu letters each, candidate %u%s; "
	       "shown by two exact checks that share no code (blockref, "
	       "blockcheck)\n", label, cls, p->depth, u, v,
	       (unsigned long long)blockword_length(&p->u), p->tries, tm);
	free(u);
	free(v);
}

/* A pair by gen for family member k, certified at depth d within b.
 * False when the two checks disagreed (nothing is printed of it). */
bool table_lower_by(Table *t, PairgenFn *gen, const char *name, unsigned k,
		     unsigned d, IndistBounds b, const Node *roots,
		     size_t nroots, Lower *lw)
{
	memset(lw, 0, sizeof *lw);
	lw->tried = true;
	char what[64];
	snprintf(what, sizeof what, "%s: a pair for depth %u", name, d);
	search_progress(&t->o, "%s", what);
	search_refine_progress(&t->o, what);
	/* two roots: the prediction task's membership and its prefix guard */
	PairgenEval m = {eval_new(t->st, roots, nroots, ACCEPT_LAST), t->ab,
			 nroots == 2};
	PairgenStatus st = pairgen_hook
		? pairgen_hook(gen, k, d, b, t->o.seed, t->lower_tries,
			       pairgen_eval_member, &m, &t->o.lim, &lw->pair)
		: gen(k, d, b, t->o.seed, t->lower_tries, pairgen_eval_member,
		      &m, &t->o.lim, &lw->pair);
	eval_free(m.ev);
	search_refine_progress(&t->o, NULL);
	search_progress_done(&t->o);
	lw->found = st == PAIRGEN_FOUND;
	lw->stopped = st == PAIRGEN_STOPPED;
	if (st != PAIRGEN_DISAGREE)
		return true;
	char *u = table_pair_text(&lw->pair.u), *v = table_pair_text(&lw->pair.v);
	fprintf(stderr, "tally: internal error: blockref finds no formula of depth "
		"<= %u separating \"%s\" and \"%s\", blockcheck finds one; the "
		"pair is not printed\n", d, u, v);
	free(u);
	free(v);
	pairgen_free(&lw->pair);
	lw->found = false;
	return false;
}

/* Writes the plot (when asked) after the table; status otherwise. */
static int table_finish_plot(Table *t, bool complete, int status)
{
	char note[120], *err = NULL;
	if (!t->plot)
		return status;
	snprintf(note, sizeof note, "partial table: a limit stopped it at k = "
		 "%u; the rows before it are complete", t->stopped_at);
	bool ok = plot_hierarchy_write(t->plot, t->dk, complete ? NULL : note,
				       &err);
	t->plot = NULL;
	if (ok)
		return status;
	status_usage_error("--plot: %s", err);
	free(err);
	return EXIT_USAGE;
}

/* The footer's lists of rows (both tables). */
void table_free_lists(Table *t)
{
	buf_free(&t->certified);
	buf_free(&t->search_only);
	buf_free(&t->searched);
	buf_free(&t->built);
}

/* The footer's "lower bounds:" line (both tables): which rows' least
 * depth a pair certifies and which rest on the search's comparisons. */
void table_print_lower_lists(const Table *t)
{
	printf("lower bounds: least depth certified by a pair for %s; resting "
	       "on the search's own comparisons for %s\n", t->certified.len
	       ? t->certified.data : "no row", t->search_only.len
	       ? t->search_only.data : "no row");
}

void table_print_upper_lists(const Table *t, const char *which,
			     const char *what)
{
	if (t->built.len)
		printf("upper bounds: found by the search for %s; not searched "
		       "(%s > --search-depth=%u), %s, for %s\n", t->searched.len
		       ? t->searched.data : "no row", which, t->search_depth, what,
		       t->built.data);
}

void table_print_peak(const Table *t)
{
	printf("peak memory %.0f MB; total %.2fs\n",
	       (double)limit_peak_memory() / (1 << 20), limit_now() - t->o.start);
}

unsigned table_sample_depth(const Table *t, unsigned deepest)
{
	if (deepest > t->search_depth)
		deepest = t->search_depth;
	return deepest > 1 ? deepest - 1 : 1;
}

/* The table's exit status once its rows are printed: a limit's report
 * when one stopped it, then the plot (when asked). */
int table_finish(Table *t, bool complete)
{
	int status = t->all_ok ? EXIT_YES : EXIT_NO;
	if (!complete) {
		char what[64];
		snprintf(what, sizeof what, "rows before k = %u complete "
			 "(partial table)", t->stopped_at);
		status = search_limit_report(&t->o, t->stop, what);
	}
	return table_finish_plot(t, complete, status);
}
