/* hierarchy_dk.c -- `tally hierarchy --family=dk`: D_k = L_(2k-1), the
 * least depth with past counts only beside the least depth with future
 * counts #> too, each part's depth below certified by its own pair. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "cli/hierarchy_table.h"
#include "cli/plot_hierarchy.h"
#include "core/json.h"
#include "core/print.h"
#include "search/hierarchy.h"

/* A D_k row's part i (0 past-only, 1 two-sided): the depth expected
 * (2k - 1 by the theorem; k, what the two-sided search finds) and the
 * class its pairs are certified in. */
static unsigned dk_depth(unsigned k, unsigned i)
{
	return i ? k : 2 * k - 1;
}

static IndistBounds dk_bounds(const Table *t, unsigned i)
{
	IndistBounds b = search_bounds(&t->o);
	b.two_sided = i == 1;
	return b;
}

/* A row is searched or built as a whole: built when its past-only depth
 * 2k - 1 exceeds --search-depth.  (The two-sided class is much larger
 * at a depth than the past-only one: D_4's two-sided search spent over
 * 5 minutes and 1.9 GB at depth 3 alone.) */
static bool dk_built(const Table *t, unsigned k)
{
	return 2 * k - 1 > t->search_depth;
}

static const char *dk_built_what(unsigned i)
{
	return i ? "the theory's two-sided formula of depth k, T(a b a ..., "
		   "2k - 1) & !T(b a b ..., 2k - 1): the alternating "
		   "subsequence's middle position with its first half before it "
		   "(past counts) and its second half after it (future counts)"
		 : "the family's own formula";
}

/* Part i of a D_k row: searched, or in a row built (dk_built) the theory's
 * formula, verified by a second path (past-only: L_(2k-1)'s own formula
 * against a count of runs; two-sided: hierarchy_dk_formula as a formula
 * the search found is, samples and the decision engine). */
static void dk_solve(Table *t, unsigned k, unsigned i, const Target *tg,
		     Solution *sol)
{
	if (!dk_built(t, k)) {
		search_solve(i ? &t->two : &t->ss, tg, 2 * k - 1, sol);
		return;
	}
	if (i == 0) {
		table_built_solution(t, tg->node, sol);
		table_check_definition(t, 2 * k - 1, tg->node, &sol->v);
		return;
	}
	Node f = hierarchy_dk_formula(t->st, t->ab[0], t->ab[1], k);
	table_built_solution(t, f, sol);
	sol->r.cls.two_sided = true;
	search_verify(&t->two, tg, f, &sol->v);
}

static void print_dk_header(const Table *t)
{
	char title[120];
	snprintf(title, sizeof title, "tally hierarchy: D_k = L_(2k-1), k = "
		 "%zu..%zu: past-only beside two-sided", t->klo, t->khi);
	table_plot_header(t, title);
	if (t->o.csv)
		puts("family,k,target,past_depth,past_verified,two_sided_depth,"
		     "two_sided_verified,past_formula,two_sided_formula");
	if (t->o.json || t->o.csv)
		return;
	printf("tally hierarchy: D_k = L_(2k-1), k = %zu..%zu: the least depth "
	       "found with past counts only beside the least depth found with "
	       "future counts #> too\n", t->klo, t->khi);
	printf("sample (past-only): %s\n", t->ss.S->desc);
	printf("sample (two-sided): %s\n", t->two.S->desc);
	search_print_bounds(&t->o, t->ss.bank);
	printf("two-sided: the same comparisons also of #> counts, and Q_x & "
	       "atom & atom for the %d smallest of a depth; its pairs are checked "
	       "against the two-sided class (each count #[psi] or #>[psi])\n",
	       BANK_PAIRS);
}

/* "least depth d (evidence)", "depth <= d (evidence)" (the depth below
 * not certified by a pair: search/claim.h) or "no verified formula up to
 * depth d". */
static void dk_cell(const Solution *sol, const DepthClaim *c, char *out,
		    size_t n)
{
	if (table_row_failure(sol))
		snprintf(out, n, "no verified formula up to depth %u",
			 sol->r.found ? sol->r.depth : sol->r.tried ? sol->r.tried - 1 : 0);
	else
		snprintf(out, n, "%sdepth %s%u (%s)", claim_least(c) ? "least " : "",
			 claim_least(c) ? "" : "<= ", sol->r.depth, sol->v.kind);
}

/* A --family=dk row's JSON record (--json, --plot): each part carries
 * the theory's depth, 2k - 1 past-only and k two-sided (Knee-Deep's
 * TLC_depth: D_k is in two-sided depth k and not in k - 1). */
static json_t *dk_json(const Table *t, unsigned k, const char *name,
		       const Solution *const *sols, const DepthClaim *cl,
		       char *const *f, const Lower *lw, double secs)
{
	json_t *o = json_envelope();
	json_object_set_new(o, "family", json_string("dk"));
	json_object_set_new(o, "k", json_integer(k));
	json_object_set_new(o, "target", json_string(name));
	const char *key[2] = {"past", "two_sided"};
	for (int i = 0; i < 2; i++) {
		json_t *c = json_object();
		const char *why = table_row_failure(sols[i]);
		search_json_claim(c, &cl[i]);
		json_object_set_new(c, "theory_depth", json_integer(
			i ? k : hierarchy_theory(false, 2 * k - 1)));
		json_object_set_new(c, "formula", !why ? json_string(f[i]) : json_null());
		json_object_set_new(c, "verified", json_boolean(!why));
		json_object_set_new(c, "failure", why ? json_string(why) : json_null());
		json_object_set_new(c, "upper_bound", json_string(
			!dk_built(t, k) ? "search" : i ? "construction"
						     : "definition"));
		json_object_set_new(c, "evidence", json_string(sols[i]->have_v
			? sols[i]->v.kind : "none"));
		json_object_set_new(c, "refuted", search_json_refutations(
			i ? t->two.S : t->ss.S, &sols[i]->r));
		if (lw[i].found) {
			char *pu = table_pair_text(&lw[i].pair.u), *pv = table_pair_text(&lw[i].pair.v);
			json_object_set_new(c, "lower_bound_pair",
					    json_pack("[s, s]", pu, pv));
			free(pu);
			free(pv);
		}
		json_object_set_new(o, key[i], c);
	}
	if (!t->no_time)
		json_object_set_new(o, "time_s", json_real(secs));
	return o;
}

static void print_dk_row(Table *t, unsigned k, const char *name,
			 const Solution *past, const Solution *two,
			 const Lower *lw, double secs)
{
	const Solution *sols[2] = {past, two};
	char cell[2][80], *f[2];
	DepthClaim cl[2];
	for (int i = 0; i < 2; i++) {
		if (!search_claim(&t->o, i ? t->two.S : t->ss.S, &sols[i]->r,
				  !table_row_failure(sols[i]), lw[i].found ?
				  (int)lw[i].pair.depth : -1, &cl[i]))
			t->disagree = true;
		dk_cell(sols[i], &cl[i], cell[i], sizeof cell[i]);
		f[i] = table_row_failure(sols[i]) ? xstrdup("")
			: tl_print(t->st, sols[i]->r.formula, SYNTAX_TL, NULL);
	}
	json_t *o = t->o.json || t->plot ? dk_json(t, k, name, sols, cl, f, lw, secs)
					 : NULL;
	if (t->plot)
		plot_record(t->plot, o);
	if (t->o.json) {
		json_emit(o);
	} else if (t->o.csv) {
		printf("dk,%u,%s,", k, name);
		for (int i = 0; i < 2; i++) {
			if (!table_row_failure(sols[i]))
				printf("%u,yes,", sols[i]->r.depth);
			else
				printf(",no,");
		}
		search_csv_field(f[0], false);
		search_csv_field(f[1], true);
	} else {
		char tm[32] = "";
		if (!t->no_time)
			snprintf(tm, sizeof tm, "  %.2fs", secs);
		printf("%-3u %-12s past-only: %-28s two-sided: %s%s\n", k, name,
		       cell[0], cell[1], tm);
		const char *label[2] = {"past-only", "two-sided"};
		for (int i = 0; i < 2; i++) {
			char indent[32];
			if (*f[i])
				printf("  %s: %s\n", label[i], f[i]);
			snprintf(indent, sizeof indent, "  %s ", label[i]);
			if (dk_built(t, k))
				table_print_built(t, indent, "the row's past-only "
						  "depth", 2 * k - 1, dk_built_what(i));
			if (sols[i]->have_v)
				printf("  %s verified: %s\n", label[i], sols[i]->v.text);
			search_print_refutations(i ? t->two.S : t->ss.S, &sols[i]->r,
						 indent);
			snprintf(indent, sizeof indent, "%s ", label[i]);
			table_print_lower(t, indent, dk_depth(k, i) - 1,
				       dk_bounds(t, i), &lw[i]);
		}
	}
	if (!t->o.json)
		json_decref(o); /* NULL without --plot */
	fflush(stdout);
	free(f[0]);
	free(f[1]);
}

/* The pairs of a D_k row, past-only (L_(2k-1)'s, at depth 2k - 2) and
 * two-sided (pairgen_dk's, at depth k - 1).  False when the two checks
 * of a pair disagreed. */
static bool dk_lower(Table *t, unsigned k, Node target, Lower *lw)
{
	memset(lw, 0, 2 * sizeof *lw);
	if (!t->lower_tries)
		return true;
	char name[2][24];
	snprintf(name[0], sizeof name[0], "D_%u past-only", k);
	snprintf(name[1], sizeof name[1], "D_%u two-sided", k);
	PairgenFn *gen[2] = {pairgen_lk, pairgen_dk};
	for (unsigned i = 0; i < 2 && t->o.lim.hit == LIMIT_NONE; i++)
		if (!table_lower_by(t, gen[i], name[i], i ? k : 2 * k - 1,
			      dk_depth(k, i) - 1, dk_bounds(t, i), &target, 1,
			      &lw[i]))
			return false;
	return true;
}

/* Records which parts of a D_k row a pair certifies, and which were
 * searched or built (the footer). */
static void dk_note(Table *t, unsigned k, const Solution *const *sols,
		    const Lower *lw)
{
	for (unsigned i = 0; i < 2; i++) {
		if (!lw[i].tried)
			continue;
		bool ok = lw[i].found && !table_row_failure(sols[i]) &&
			  lw[i].pair.depth + 1 >= sols[i]->r.depth;
		Buf *b = ok ? &t->certified : &t->search_only;
		buf_printf(b, "%sD_%u %s", b->len ? ", " : "", k,
			   i ? "two-sided" : "past-only");
	}
	for (unsigned i = 0; i < 2; i++) {
		Buf *b = dk_built(t, k) ? &t->built : &t->searched;
		buf_printf(b, "%sD_%u %s", b->len ? ", " : "", k,
			   i ? "two-sided" : "past-only");
	}
}

static bool run_dk_row(Table *t, unsigned k)
{
	double t0 = limit_now();
	unsigned m = 2 * k - 1;
	char name[32];
	snprintf(name, sizeof name, "D_%u = L_%u", k, m);
	Target tg = {.kind = TARGET_FORMULA, .node = hierarchy_lk(t->st, t->ab[0],
								   t->ab[1], m),
		     .name = name};
	Lower lw[2];
	if (!dk_lower(t, k, tg.node, lw)) {
		t->disagree = true;
		return false;
	}
	Solution past, two;
	memset(&two, 0, sizeof two);
	search_progress(&t->o, "%s: past-only", name);
	dk_solve(t, k, 0, &tg, &past);
	bool stopped = past.r.stop != BANK_OK;
	if (!stopped) {
		search_progress(&t->o, "%s: two-sided", name);
		dk_solve(t, k, 1, &tg, &two);
		stopped = two.r.stop != BANK_OK;
	}
	search_progress_done(&t->o);
	if (stopped || t->o.lim.hit != LIMIT_NONE) {
		if (!t->o.json && !t->o.csv)
			printf("%-3u %-12s stopped (partial table)\n", k, name);
		for (int i = 0; i < 2; i++)
			if (lw[i].found)
				pairgen_free(&lw[i].pair);
		t->stop = t->o.lim.hit == LIMIT_MEMORY ? BANK_MEMORY
			  : t->o.lim.hit == LIMIT_TIME ? BANK_TIME : past.r.stop != BANK_OK
			  ? past.r.stop : two.r.stop;
		t->stopped_at = k;
		solution_free(&past);
		solution_free(&two);
		return false;
	}
	print_dk_row(t, k, name, &past, &two, lw, limit_now() - t0);
	if (table_row_failure(&past) || table_row_failure(&two))
		t->all_ok = false;
	const Solution *sols[2] = {&past, &two};
	dk_note(t, k, sols, lw);
	for (int i = 0; i < 2; i++)
		if (lw[i].found)
			pairgen_free(&lw[i].pair);
	solution_free(&past);
	solution_free(&two);
	return true;
}

/* The D_k table: past-only beside two-sided, rows klo..khi. */
int table_run_dk(Table *t)
{
	unsigned dmax = table_sample_depth(t, 2 * (unsigned)t->khi - 1);
	search_progress(&t->o, "building samples");
	search_state_init(&t->ss, &t->o, t->st, t->ab, 2, 1, dmax, NULL, 0, false,
			  false);
	search_state_init(&t->two, &t->o, t->st, t->ab, 2, 1, dmax, NULL, 0, false,
			  true);
	t->all_ok = true;
	print_dk_header(t);
	bool complete = true;
	for (size_t k = t->klo; k <= t->khi && complete; k++)
		complete = run_dk_row(t, (unsigned)k);
	if (t->disagree) { /* said on stderr; no claim of the row printed */
		fflush(stdout);
		search_state_free(&t->ss);
		search_state_free(&t->two);
		store_free(t->st);
		return EXIT_INTERNAL;
	}
	if (!t->o.json && !t->o.csv) {
		printf("two-sided table: %s\n", !complete ? "incomplete (a limit was "
		       "reached)" : t->all_ok ? "every row verified both ways"
		       : "some row has no verified formula (see above)");
		if (t->lower_tries)
			table_print_lower_lists(t);
		table_print_upper_lists(t, "past-only depth 2k - 1",
					"the theory's formulas");
		if (!t->no_time)
			table_print_peak(t);
	}
	fflush(stdout);
	int status = table_finish(t, complete);
	search_state_free(&t->ss);
	search_state_free(&t->two);
	store_free(t->st);
	return status;
}