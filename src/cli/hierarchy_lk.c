/* hierarchy_lk.c -- `tally hierarchy`'s L_k table: per k the least depth
 * found (searched, or above --search-depth the theory's own formula),
 * the pair that certifies the depth below, and the staircase footer. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/parallel.h"
#include "cli/hierarchy_table.h"
#include "cli/plot_hierarchy.h"
#include "core/json.h"
#include "core/print.h"
#include "search/hierarchy.h"

static void print_header(const Table *t)
{
	char title[120];
	snprintf(title, sizeof title, "tally hierarchy: L_k %s, k = %zu..%zu",
		 t->predict ? "next-token prediction" : "recognition", t->klo,
		 t->khi);
	table_plot_header(t, title);
	if (t->o.json || t->o.csv) {
		if (t->o.csv)
			puts("task,k,target,least_depth,depth_found,"
			     "certified_depth,theory_depth,size,verified,"
			     "evidence,time_s,formula");
		return;
	}
	printf("%s\n", title);
	printf("sample: %s\n", t->ss.S->desc);
	printf("fresh sample: %s\n", t->ss.fresh->desc);
	search_print_bounds(&t->o, t->ss.bank);
}

/* A row's JSON record: what --json prints and --plot draws. */
static json_t *row_json(const Table *t, unsigned k, const char *name,
			const Solution *sol, const DepthClaim *c, double secs,
			const char *f)
{
	const SearchResult *r = &sol->r;
	const Verification *v = sol->have_v ? &sol->v : NULL;
	const Sample *S = t->ss.S;
	const char *why = table_row_failure(sol);
	bool ok = why == NULL;
	unsigned long long size = ok ? store_size(t->st, r->formula) : 0;
	unsigned theory = hierarchy_theory(t->predict, k);
	json_t *o = json_envelope();
	json_object_set_new(o, "task", json_string(t->predict ? "predict" : "recognize"));
	json_object_set_new(o, "k", json_integer(k));
	json_object_set_new(o, "target", json_string(name));
	search_json_claim(o, c);
	json_object_set_new(o, "theory_depth", json_integer(theory));
	json_object_set_new(o, "formula", ok ? json_string(f) : json_null());
	json_object_set_new(o, "size", json_integer((json_int_t)size));
	json_object_set_new(o, "large", json_boolean(ok && r->large));
	json_object_set_new(o, "verified", json_boolean(ok));
	json_object_set_new(o, "failure", why ? json_string(why) : json_null());
	json_object_set_new(o, "evidence", json_string(v ? v->kind : "none"));
	json_object_set_new(o, "verification", json_string(v ? v->text : ""));
	json_object_set_new(o, "counterexamples", json_integer(sol->rounds));
	json_object_set_new(o, "refuted", search_json_refutations(S, r));
	json_object_set_new(o, "sample", json_string(S->desc));
	json_object_set_new(o, "fresh_sample", json_string(t->ss.fresh->desc));
	json_object_set_new(o, "max_const", json_integer(t->o.C));
	json_object_set_new(o, "counts", json_integer(t->o.T));
	json_object_set_new(o, "grammar", json_string(bank_grammar(t->ss.bank)));
	if (!t->no_time)
		json_object_set_new(o, "time_s", json_real(secs));
	return o;
}

static void print_lower(const Table *t, unsigned k, const Lower *lw)
{
	table_print_lower(t, "", hierarchy_theory(t->predict, k) - 1,
		       search_bounds(&t->o), lw);
}

/* Where a row's upper bound came from (JSON "upper_bound"). */
static const char *upper_source(const Table *t, bool built)
{
	return !built ? "search" : t->predict ? "construction" : "definition";
}

static void print_row(Table *t, unsigned k, const char *name,
		      const Solution *sol, const Lower *lw, const DepthClaim *c,
		      bool built,
		      double secs)
{
	const SearchResult *r = &sol->r;
	const Verification *v = sol->have_v ? &sol->v : NULL;
	const Sample *S = t->ss.S;
	unsigned theory = hierarchy_theory(t->predict, k);
	const char *why = table_row_failure(sol);
	bool ok = why == NULL;
	char *f = ok ? tl_print(t->st, r->formula, SYNTAX_TL, NULL) : xstrdup("");
	unsigned long long size = ok ? store_size(t->st, r->formula) : 0;
	json_t *o = t->o.json || t->plot ? row_json(t, k, name, sol, c, secs, f)
					 : NULL;
	if (o && lw->found) {
		char *pu = table_pair_text(&lw->pair.u), *pv = table_pair_text(&lw->pair.v);
		json_object_set_new(o, "lower_bound_pair", json_pack("[s, s]", pu, pv));
		free(pu);
		free(pv);
	}
	if (o)
		json_object_set_new(o, "upper_bound", json_string(upper_source(t, built)));
	if (t->plot)
		plot_record(t->plot, o);
	if (t->o.json) {
		json_emit(o);
	} else if (t->o.csv) {
		printf("%s,%u,%s,", t->predict ? "predict" : "recognize", k, name);
		search_csv_claim(c);
		printf("%u,%llu,%s,%s,", theory, size, ok ? "yes" : "no",
		       v ? v->kind : "none");
		if (!t->no_time) /* the column stays, empty */
			printf("%.3f", secs);
		putchar(',');
		search_csv_field(f, true);
	} else {
		char tm[64] = "", cl[120];
		if (!t->no_time)
			snprintf(tm, sizeof tm, "  %.2fs, peak %.0f MB", secs,
				 (double)limit_peak_memory() / (1 << 20));
		claim_text(c, cl, sizeof cl);
		if (ok && r->large)
			printf("%-3u %-6s %s (theory %u)  size %llu%s  "
			       "[a Boolean combination of %zu comparisons; --json or "
			       "--csv print it]\n", k, name, cl, theory, size, tm,
			       r->chosen);
		else if (ok)
			printf("%-3u %-6s %s (theory %u)  size %llu%s  %s\n",
			       k, name, cl, theory, size, tm, f);
		else
			printf("%-3u %-6s no verified formula up to depth %u (theory "
			       "%u)%s: %s\n", k, name, r->found ? r->depth : theory,
			       theory, tm, why);
		if (built)
			table_print_built(t, "  ", "depth", r->depth, t->predict
				? "the theory's formula, Q_x & (an alternating "
				  "subsequence b a b ... of length m - 2), x the "
				  "letter of block m" : "the family's own formula");
		if (v)
			printf("  verified: %s\n", v->text);
		if (sol->rounds)
			printf("  counterexamples: %u words where a candidate differed "
			       "from the target were added to the sample\n", sol->rounds);
		search_print_refutations(S, r, "  ");
		print_lower(t, k, lw);
	}
	if (!t->o.json)
		json_decref(o); /* NULL without --plot */
	fflush(stdout);
	free(f);
}

/* A row for the staircase line: settled by a pair, or resting on the
 * search (with how far its lower bound is certified). */
static void staircase_add(Table *t, const char *name, const DepthClaim *c)
{
	if (!c->found)
		return; /* a failed row: the staircase is NOT reproduced */
	Buf *b = claim_least(c) ? &t->certified : &t->search_only;
	buf_printf(b, "%s%s", b->len ? ", " : "", name);
	if (!claim_least(c) && c->lower >= 0)
		buf_printf(b, " (certified to depth %d)", c->lower);
	else if (!claim_least(c))
		buf_printf(b, " (none certified)");
}

/* The row's lower bound: a pair certified at the depth below the
 * theory's (k - 1; m - 3 for the prediction task). */
static bool lower_bound(Table *t, unsigned k, Lower *lw)
{
	memset(lw, 0, sizeof *lw);
	if (!t->lower_tries)
		return true;
	char name[16];
	snprintf(name, sizeof name, "%s_%u", t->predict ? "P" : "L", k);
	Node roots[2] = {hierarchy_lk(t->st, t->ab[0], t->ab[1], k), NODE_NONE};
	if (t->predict)
		roots[1] = hierarchy_prefix_guard(t->st, t->ab[0], t->ab[1], k);
	return table_lower_by(t, t->predict ? pairgen_predict : pairgen_lk, name, k,
			hierarchy_theory(t->predict, k) - 1, search_bounds(&t->o),
			roots, t->predict ? 2 : 1, lw);
}

/* ---- rows above --search-depth: the theory's formula, not searched ---- */

/* A row's upper bound without the search: for recognition L_k's own
 * formula, for the prediction task hierarchy_predict_formula, verified
 * as a formula the search found would be. */
static void build_row(Table *t, unsigned k, const Target *tg, Solution *sol)
{
	if (t->predict) {
		Node f = hierarchy_predict_formula(t->st, t->ab[0], t->ab[1], k);
		table_built_solution(t, f, sol);
		search_verify(&t->ss, tg, f, &sol->v);
	} else {
		table_built_solution(t, tg->node, sol);
		table_check_definition(t, k, tg->node, &sol->v);
	}
}

static void add_name(Buf *b, const char *name)
{
	buf_printf(b, "%s%s", b->len ? ", " : "", name);
}

/* One row: returns false when a limit stopped it. */
static bool run_row(Table *t, unsigned k)
{
	double t0 = limit_now();
	char name[32];
	snprintf(name, sizeof name, "%s%u", t->predict ? "P_" : "L_", k);
	Target tg = {.kind = t->predict ? TARGET_PREDICT : TARGET_FORMULA, .m = k,
		     .name = name};
	if (!t->predict)
		tg.node = hierarchy_lk(t->st, t->ab[0], t->ab[1], k);
	/* the lower bound first: a row a limit stops still shows it */
	Lower lw;
	if (!lower_bound(t, k, &lw)) {
		t->disagree = true;
		return false;
	}
	unsigned theory = hierarchy_theory(t->predict, k);
	bool built = theory > t->search_depth;
	search_progress(&t->o, "%s: %s", name, built ? "verifying" : "searching");
	Solution sol;
	if (t->o.lim.hit != LIMIT_NONE) /* the pair's search reached it */
		sol = (Solution){.r.stop = t->o.lim.hit == LIMIT_TIME ? BANK_TIME
							       : BANK_MEMORY};
	else if (built)
		build_row(t, k, &tg, &sol);
	else
		search_solve(&t->ss, &tg, theory, &sol);
	search_progress_done(&t->o);
	if (sol.r.stop != BANK_OK) {
		if (!t->o.json && !t->o.csv) {
			printf("%-3u %-6s stopped at depth %u (partial table)\n", k,
			       name, built ? theory : bank_depth(t->ss.bank) + 1);
			search_print_refutations(t->ss.S, &sol.r, "  ");
			print_lower(t, k, &lw);
		}
		t->stop = sol.r.stop;
		t->stopped_at = k;
		if (lw.found)
			pairgen_free(&lw.pair);
		solution_free(&sol);
		return false;
	}
	DepthClaim c;
	if (!search_claim(&t->o, t->ss.S, &sol.r, !table_row_failure(&sol),
			  lw.found ? (int)lw.pair.depth : -1, &c))
		t->disagree = true;
	print_row(t, k, name, &sol, &lw, &c, built, limit_now() - t0);
	if (table_row_failure(&sol) || sol.r.depth != theory)
		t->all_ok = false;
	staircase_add(t, name, &c);
	add_name(built ? &t->built : &t->searched, name);
	if (lw.found)
		pairgen_free(&lw.pair);
	solution_free(&sol);
	if (t->o.lim.hit != LIMIT_NONE) { /* the verification stopped */
		t->stop = t->o.lim.hit == LIMIT_TIME ? BANK_TIME : BANK_MEMORY;
		t->stopped_at = k;
		return false;
	}
	return true;
}

static void print_footer(const Table *t, bool complete)
{
	if (t->o.json || t->o.csv)
		return;
	/* "reproduced" only when every row's least depth is settled by a
	 * certified pair (search/claim.h); the next line names the rows */
	printf("staircase: %s\n", !complete ? "incomplete (a limit was reached)"
			  : t->all_ok && (t->search_only.len || !t->certified.len)
			  ? "depths found as the theory's, every formula verified; "
			    "not every row's lower bound is certified (see the "
			    "next line)"
			  : t->all_ok ? "reproduced: every least depth equals the "
					"theory's, every formula verified, every "
					"lower bound certified by a pair"
				      : "NOT reproduced: see the rows whose depth differs from the theory's or that failed verification");
	if (t->certified.len || t->search_only.len)
		table_print_lower_lists(t);
	table_print_upper_lists(t, "depth", t->predict ? "the theory's formula "
				"verified instead" : "the family's own formula");
	unsigned long long gen = 0;
	const Bank *b = t->ss.bank;
	printf("bank: %zu signatures (", bank_count(b));
	for (unsigned d = 0; d <= bank_depth(b); d++) {
		printf("%sdepth %u: %llu kept of %llu%s", d ? "; " : "", d,
		       (unsigned long long)bank_stats(b, d)->kept,
		       (unsigned long long)bank_stats(b, d)->generated,
		       bank_stats(b, d)->cut ? ", cut at the memory budget" : "");
		gen += bank_stats(b, d)->generated;
	}
	printf(")\n");
	if (t->no_time)
		return;
	gen += t->ss.generated; /* the banks of earlier samples */
	double bs = bank_seconds(b) + t->ss.bank_seconds;
	double cpu = bank_cpu_seconds(b) + t->ss.bank_cpu;
	printf("bank building: %llu candidate signatures in %.2fs wall, %.2fs CPU "
	       "(%.2g per CPU second; %u threads)\n", gen, bs, cpu,
	       cpu > 0 ? (double)gen / cpu : 0.0, t->jobs);
	table_print_peak(t);
}

/* The L_k table (recognition or prediction), rows klo..khi. */
int table_run_lk(Table *t)
{
	unsigned dmax = table_sample_depth(t, hierarchy_theory(t->predict,
							       (unsigned)t->khi));
	search_progress(&t->o, "building samples");
	search_state_init(&t->ss, &t->o, t->st, t->ab, 2, 1, dmax, NULL, 0, false,
			  false);
	t->jobs = t->o.jobs ? t->o.jobs : parallel_cores();
	t->all_ok = true;
	print_header(t);
	bool complete = true;
	for (size_t k = t->klo; k <= t->khi && complete; k++)
		complete = run_row(t, (unsigned)k);
	int status = EXIT_INTERNAL; /* the two checks of a pair disagreed:
				     * said on stderr, no claim printed */
	if (!t->disagree) {
		print_footer(t, complete);
		fflush(stdout);
		status = table_finish(t, complete);
	}
	fflush(stdout);
	search_state_free(&t->ss);
	store_free(t->st);
	return status;
}
