/* cmd_hierarchy.c -- `tally hierarchy`: the depth-hierarchy table of L_k,
 * for recognition or next-token prediction. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/getopt_hint.h"
#include "search/hierarchy.h"
#include "base/buf.h"
#include "base/parallel.h"
#include "core/json.h"
#include "base/mem.h"
#include "machine/eval.h"
#include "cli/plot_hierarchy.h"
#include "search/pairgen.h"
#include "core/print.h"
#include "cli/search_cli.h"
#include "base/share.h"
#include "search/verify.h"

static const char intro[] =
	"Usage: tally hierarchy [OPTION]... [--family=lk] [--k=RANGE]\n"
	"          [--task=recognize|predict]\n"
	"The depth-hierarchy table: for each k, the least depth at which a\n"
	"formula agrees with L_k (exactly k alternating blocks of a and b,\n"
	"starting with a) on the sample and is verified, the smallest formula\n"
	"found there, and for every shallower depth pairs of words that no\n"
	"formula of that depth within the class (constants <= C, T counts per\n"
	"comparison, any size) tells apart, as an exact check shows.  Theory:\n"
	"depth k for recognising L_k, depth m-2 for the prediction task of L_m.\n\n"
	;

static const char outro[] =
	"\n"
	"Method: a bank of formulas by depth, one per signature on the sample;\n"
	"an exact partition test per depth; greedy choice and a small\n"
	"enumeration for the formula; its verification, and while it fails\n"
	"the words where it differs join the sample (rounds of\n"
	"counterexamples).  A shallower depth is refuted by a pair the class\n"
	"cannot separate when one is found, else only by the bank's own\n"
	"comparisons on the sample (the row says which).  Lower bounds: a\n"
	"pair u in L_k, v not, built as runs (u = P Y^(n+1) X X, v = P Y^n X Y\n"
	"X), that no formula of depth k-1 within C, T separates, as two exact\n"
	"checks that share no code both show; a row says \"least depth\" only\n"
	"when such a pair certifies the depth below the one found.\n\n"
	"Examples:\n"
	"  tally hierarchy --k=1..3\n"
	"  tally hierarchy --task=predict --k=3..5 --csv\n"
	"  tally hierarchy --k=1..3 --pairs=0 --max-length=6\n"
	"  tally hierarchy --family=dk --k=1..3\n"
	"  tally hierarchy --k=1..5 --plot=h.svg\n\n"
	"Exit status 0: every row found at the theory's depth and verified;\n"
	"1: some row differs or has no verified formula.\n";

/* A row's lower bound by a pair of block words (pairgen.h). */
typedef struct {
	bool tried, found, stopped; /* stopped: by a limit */
	PairCert pair;
} Lower;

typedef struct {
	SearchOpts o;
	bool predict;
	bool dk;             /* --family=dk: the two-sided table */
	SearchState two;     /* its whole-word samples and bank */
	size_t klo, khi;
	Store *st;
	Sym ab[2];
	SearchState ss;
	unsigned jobs;
	bool all_ok, no_time;
	BankStop stop;       /* why the table stopped (a limit) */
	unsigned stopped_at; /* the row it stopped in */
	const char *plot_path; /* --plot */
	Plot *plot;            /* drawn from the rows' JSON records */
	unsigned lower_tries;  /* --lower-bounds */
	bool disagree;         /* the two checks of a pair disagreed */
	Buf certified, search_only; /* the rows, for the staircase line */
	unsigned search_depth; /* --search-depth: deeper rows are built */
	Buf searched, built;   /* the rows by where the upper bound came from */
} Table;

/* The plot's title and the header lines of the text output. */
static void plot_header(const Table *t, const char *title)
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

static void print_header(const Table *t)
{
	char title[120];
	snprintf(title, sizeof title, "tally hierarchy: L_k %s, k = %zu..%zu",
		 t->predict ? "next-token prediction" : "recognition", t->klo,
		 t->khi);
	plot_header(t, title);
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

/* Why a row has no verified formula (NULL when it has one). */
static const char *row_failure(const Solution *sol)
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

/* A row's JSON record: what --json prints and --plot draws. */
static json_t *row_json(const Table *t, unsigned k, const char *name,
			const Solution *sol, const DepthClaim *c, double secs,
			const char *f)
{
	const SearchResult *r = &sol->r;
	const Verification *v = sol->have_v ? &sol->v : NULL;
	const Sample *S = t->ss.S;
	const char *why = row_failure(sol);
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

static char *pair_text(const BlockWord *w)
{
	static const char *const ab[] = {"a", "b"};
	return blockword_text(w, ab);
}

/* "  <label>lower bound: ..." for a pair sought at depth d within b. */
static void print_lower_as(const Table *t, const char *label, unsigned d,
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
	char *u = pair_text(&p->u), *v = pair_text(&p->v), tm[32] = "";
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

static void print_lower(const Table *t, unsigned k, const Lower *lw)
{
	print_lower_as(t, "", hierarchy_theory(t->predict, k) - 1,
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
	const char *why = row_failure(sol);
	bool ok = why == NULL;
	char *f = ok ? tl_print(t->st, r->formula, SYNTAX_TL, NULL) : xstrdup("");
	unsigned long long size = ok ? store_size(t->st, r->formula) : 0;
	json_t *o = t->o.json || t->plot ? row_json(t, k, name, sol, c, secs, f)
					 : NULL;
	if (o && lw->found) {
		char *pu = pair_text(&lw->pair.u), *pv = pair_text(&lw->pair.v);
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
			printf("  upper bound: not searched (depth %u > "
			       "--search-depth=%u): %s\n", r->depth, t->search_depth,
			       t->predict ? "the theory's formula, Q_x & (an "
			       "alternating subsequence b a b ... of length m - 2), "
			       "x the letter of block m" : "the family's own formula");
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

typedef PairgenStatus (*PairGen)(unsigned k, unsigned d, IndistBounds b,
				 uint64_t seed, unsigned tries,
				 PairgenMember member, void *ctx, Limits *lim,
				 PairCert *out);

/* A pair by gen for family member k, certified at depth d within b.
 * False when the two checks disagreed (nothing is printed of it). */
static bool lower_by(Table *t, PairGen gen, const char *name, unsigned k,
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
	char *u = pair_text(&lw->pair.u), *v = pair_text(&lw->pair.v);
	fprintf(stderr, "tally: internal error: blockref finds no formula of depth "
		"<= %u separating \"%s\" and \"%s\", blockcheck finds one; the "
		"pair is not printed\n", d, u, v);
	free(u);
	free(v);
	pairgen_free(&lw->pair);
	lw->found = false;
	return false;
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
	return lower_by(t, t->predict ? pairgen_predict : pairgen_lk, name, k,
			hierarchy_theory(t->predict, k) - 1, search_bounds(&t->o),
			roots, t->predict ? 2 : 1, lw);
}

/* ---- rows above --search-depth: the theory's formula, not searched ---- */

/* L_k's own formula against a count of runs (hierarchy_member, which
 * shares nothing with the formula) on every word up to the exhaustive
 * verification length: a second path for the definition. */
static void check_definition(Table *t, unsigned k, Node f, Verification *v)
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

/* A row's upper bound without the search: for recognition L_k's own
 * formula, for the prediction task hierarchy_predict_formula, verified
 * as a formula the search found would be. */
static void build_row(Table *t, unsigned k, const Target *tg, Solution *sol)
{
	memset(sol, 0, sizeof *sol);
	SearchResult *r = &sol->r;
	r->formula = t->predict ? hierarchy_predict_formula(t->st, t->ab[0],
							    t->ab[1], k)
				: tg->node;
	r->found = true;
	r->depth = store_depth(t->st, r->formula);
	r->stop = BANK_OK;
	r->cls = search_bounds(&t->o);
	if (t->predict)
		search_verify(&t->ss, tg, r->formula, &sol->v);
	else
		check_definition(t, k, r->formula, &sol->v);
	sol->have_v = true;
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
	if (!search_claim(&t->o, t->ss.S, &sol.r, !row_failure(&sol),
			  lw.found ? (int)lw.pair.depth : -1, &c))
		t->disagree = true;
	print_row(t, k, name, &sol, &lw, &c, built, limit_now() - t0);
	if (row_failure(&sol) || sol.r.depth != theory)
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
		printf("lower bounds: least depth certified by a pair for %s; "
		       "resting on the search's own comparisons for %s\n",
		       t->certified.len ? t->certified.data : "no row",
		       t->search_only.len ? t->search_only.data : "no row");
	if (t->built.len)
		printf("upper bounds: found by the search for %s; not searched "
		       "(depth > --search-depth=%u), %s, for %s\n",
		       t->searched.len ? t->searched.data : "no row",
		       t->search_depth, t->predict ? "the theory's formula "
		       "verified instead" : "the family's own formula",
		       t->built.data);
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
	printf("peak memory %.0f MB; total %.2fs\n", (double)limit_peak_memory() / (1 << 20), limit_now() - t->o.start);
}

static int parse(Table *t, int argc, char **argv)
{
	static const char *const families[] = {"lk", "dk", NULL};
	static const char *const tasks[] = {"recognize", "predict", NULL};
	const char *family = "lk", *task = "recognize";
	bool k_given = false;
	const Option rows[] = {
		OPTION_TEXT_ROW("Table:\n"),
		OPTION_CHOICE_ROW("family", "FAMILY", families, &family,
				  "lk (default), or dk: D_k = L_(2k-1), the\n"
				  "least depth with past counts only beside the\n"
				  "least depth with future counts #> too\n"
				  "(default k = 1..3)"),
		{.name = "k", .kind = OPTION_RANGE, .meta = "RANGE", .lo = 0,
		 .hi = 12, .bounded = true, .dest = &t->klo, .dest2 = &t->khi,
		 .width = sizeof t->klo, .given = &k_given,
		 .help = "the rows: N, N..M (default 1..4; predict 3..6)"},
		OPTION_CHOICE_ROW("task", "TASK", tasks, &task,
				  "recognize (default) or predict: accept exactly\n"
				  "the nonempty prefixes of members of L_k that\n"
				  "are members, judged on those prefixes"),
		SEARCH_CLI_ROWS(&t->o),
		OPTION_COUNT_ROW(0, "search-depth", "N", 0, SEARCH_MAXD,
				 &t->search_depth,
				 "search only rows whose theory depth is at\n"
				 "most N (default 5); a deeper row takes the\n"
				 "theory's formula as its upper bound (L_k's own,\n"
				 "or Q_x & S(b a b ...) for prediction), verified,\n"
				 "and keeps its certified lower bound"),
		OPTION_COUNT_ROW(0, "lower-bounds", "N", 0, 1000, &t->lower_tries,
				 "candidates per row for a pair the engine builds\n"
				 "itself that certifies the depth below the\n"
				 "theory's: k-1, or m-3 for prediction (default\n"
				 "12; 0: none)"),
		OPTION_FLAG_ROW(0, "no-time", &t->no_time,
				"no times and no memory figures (reproducible\n"
				"output)"),
		OPTION_STRING_ROW(0, "plot", "FILE", &t->plot_path,
				  "also draw the table as an SVG chart in FILE:\n"
				  "per row and depth found (proof, bound or\n"
				  "sample only), refuted (by pairs, or by the\n"
				  "search on the sample) or not tried"),
		OPTION_HELP_ROW,
	};
	const OptionTable table = OPTION_TABLE(intro, rows, outro);
	int status = options_parse(&table, argc, argv);
	if (status != EXIT_YES)
		return status;
	if (optind < argc)
		return status_usage_error("unexpected argument '%s'", argv[optind]);
	t->dk = strcmp(family, "dk") == 0;
	t->predict = strcmp(task, "predict") == 0;
	if (t->dk && t->predict)
		return status_usage_error("--family=dk is a recognition table");
	size_t kmin = t->predict ? 3 : 1;
	if (!k_given) {
		t->klo = kmin;
		t->khi = t->predict ? 6 : t->dk ? 3 : 4;
	}
	if (t->klo < kmin)
		t->klo = kmin;
	if (t->khi < t->klo)
		return status_usage_error("--k must lie in %zu..12", kmin);
	return EXIT_YES;
}

/* --plot: the temporary file, created before any work. */
static int open_plot(Table *t)
{
	char *err = NULL;
	if (!*t->plot_path)
		return status_usage_error("--plot needs a file name");
	t->plot = plot_open(t->plot_path, &err);
	if (t->plot)
		return EXIT_YES;
	status_usage_error("--plot: %s", err);
	free(err);
	return EXIT_USAGE;
}

/* Writes the plot (when asked) after the table; status otherwise. */
static int finish_plot(Table *t, bool complete, int status)
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

/* ---- --family=dk: past-only beside two-sided ----------------------------- */

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

static void print_dk_header(const Table *t)
{
	char title[120];
	snprintf(title, sizeof title, "tally hierarchy: D_k = L_(2k-1), k = "
		 "%zu..%zu: past-only beside two-sided", t->klo, t->khi);
	plot_header(t, title);
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
	if (row_failure(sol))
		snprintf(out, n, "no verified formula up to depth %u",
			 sol->r.found ? sol->r.depth : sol->r.tried ? sol->r.tried - 1 : 0);
	else
		snprintf(out, n, "%sdepth %s%u (%s)", claim_least(c) ? "least " : "",
			 claim_least(c) ? "" : "<= ", sol->r.depth, sol->v.kind);
}

/* A --family=dk row's JSON record (--json, --plot): the past-only part
 * carries the theory's depth (2k-1), the two-sided part none. */
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
		const char *why = row_failure(sols[i]);
		search_json_claim(c, &cl[i]);
		if (i == 0)
			json_object_set_new(c, "theory_depth", json_integer(
				hierarchy_theory(false, 2 * k - 1)));
		json_object_set_new(c, "formula", !why ? json_string(f[i]) : json_null());
		json_object_set_new(c, "verified", json_boolean(!why));
		json_object_set_new(c, "failure", why ? json_string(why) : json_null());
		json_object_set_new(c, "evidence", json_string(sols[i]->have_v
			? sols[i]->v.kind : "none"));
		json_object_set_new(c, "refuted", search_json_refutations(
			i ? t->two.S : t->ss.S, &sols[i]->r));
		if (lw[i].found) {
			char *pu = pair_text(&lw[i].pair.u), *pv = pair_text(&lw[i].pair.v);
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
				  !row_failure(sols[i]), lw[i].found ?
				  (int)lw[i].pair.depth : -1, &cl[i]))
			t->disagree = true;
		dk_cell(sols[i], &cl[i], cell[i], sizeof cell[i]);
		f[i] = row_failure(sols[i]) ? xstrdup("")
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
			if (!row_failure(sols[i]))
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
			if (sols[i]->have_v)
				printf("  %s verified: %s\n", label[i], sols[i]->v.text);
			snprintf(indent, sizeof indent, "  %s ", label[i]);
			search_print_refutations(i ? t->two.S : t->ss.S, &sols[i]->r,
						 indent);
			snprintf(indent, sizeof indent, "%s ", label[i]);
			print_lower_as(t, indent, dk_depth(k, i) - 1,
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
	PairGen gen[2] = {pairgen_lk, pairgen_dk};
	for (unsigned i = 0; i < 2 && t->o.lim.hit == LIMIT_NONE; i++)
		if (!lower_by(t, gen[i], name[i], i ? k : 2 * k - 1,
			      dk_depth(k, i) - 1, dk_bounds(t, i), &target, 1,
			      &lw[i]))
			return false;
	return true;
}

/* Records which parts of a D_k row a pair certifies (the footer). */
static void dk_note(Table *t, unsigned k, const Solution *const *sols,
		    const Lower *lw)
{
	for (unsigned i = 0; i < 2; i++) {
		if (!lw[i].tried)
			continue;
		bool ok = lw[i].found && !row_failure(sols[i]) &&
			  lw[i].pair.depth + 1 >= sols[i]->r.depth;
		Buf *b = ok ? &t->certified : &t->search_only;
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
	search_solve(&t->ss, &tg, m, &past);
	bool stopped = past.r.stop != BANK_OK;
	if (!stopped) {
		search_progress(&t->o, "%s: two-sided", name);
		search_solve(&t->two, &tg, m, &two);
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
	if (row_failure(&past) || row_failure(&two))
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

/* The footer's lists of rows (both tables). */
static void free_lists(Table *t)
{
	buf_free(&t->certified);
	buf_free(&t->search_only);
	buf_free(&t->searched);
	buf_free(&t->built);
}

static int run_dk(Table *t)
{
	unsigned dmax = 2 * (unsigned)t->khi - 2;
	if (dmax < 1)
		dmax = 1;
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
			printf("lower bounds: least depth certified by a pair for "
			       "%s; resting on the search's own comparisons for "
			       "%s\n", t->certified.len
			       ? t->certified.data : "no row", t->search_only.len
			       ? t->search_only.data : "no row");
		if (!t->no_time)
			printf("peak memory %.0f MB; total %.2fs\n",
			       (double)limit_peak_memory() / (1 << 20),
			       limit_now() - t->o.start);
	}
	fflush(stdout);
	int status = t->all_ok ? EXIT_YES : EXIT_NO;
	if (!complete) {
		char what[64];
		snprintf(what, sizeof what, "rows before k = %u complete "
			 "(partial table)", t->stopped_at);
		status = search_limit_report(&t->o, t->stop, what);
	}
	status = finish_plot(t, complete, status);
	if (t->disagree) /* said on stderr */
		status = EXIT_INTERNAL;
	search_state_free(&t->ss);
	search_state_free(&t->two);
	store_free(t->st);
	return status;
}

int cmd_hierarchy(int argc, char **argv)
{
	Table t = {.lower_tries = 12, .search_depth = 5};
	search_opts_init(&t.o);
	t.o.base1 = t.o.base; /* a larger depth-2 layer imitates L_5 */
	int status = parse(&t, argc, argv);
	if (status != EXIT_YES)
		return status < 0 ? EXIT_YES : status;
	/* under tally-mpi every rank runs the command: rank 0 draws */
	if (share_job && share_job->rank != 0)
		t.plot_path = NULL;
	if (t.plot_path && (status = open_plot(&t)) != EXIT_YES)
		return status;
	limit_start(&t.o.lim);
	t.st = store_new();
	t.ab[0] = sym_intern(store_syms(t.st), "a", 1);
	t.ab[1] = sym_intern(store_syms(t.st), "b", 1);
	if (t.dk) {
		status = run_dk(&t);
		free_lists(&t);
		return status;
	}
	/* witness pairs for every depth the search must exclude */
	unsigned maxd = hierarchy_theory(t.predict, (unsigned)t.khi);
	if (maxd > t.search_depth)
		maxd = t.search_depth;
	unsigned dmax = maxd > 1 ? maxd - 1 : 1;
	search_progress(&t.o, "building samples");
	search_state_init(&t.ss, &t.o, t.st, t.ab, 2, 1, dmax, NULL, 0, false, false);
	t.jobs = t.o.jobs ? t.o.jobs : parallel_cores();
	t.all_ok = true;
	print_header(&t);
	bool complete = true;
	for (size_t k = t.klo; k <= t.khi && complete; k++)
		complete = run_row(&t, (unsigned)k);
	if (t.disagree) { /* said on stderr; no claim of the row printed */
		fflush(stdout);
		search_state_free(&t.ss);
		store_free(t.st);
		free_lists(&t);
		return EXIT_INTERNAL;
	}
	print_footer(&t, complete);
	fflush(stdout);
	status = t.all_ok ? EXIT_YES : EXIT_NO;
	if (!complete) {
		char what[64];
		snprintf(what, sizeof what, "rows before k = %u complete "
			 "(partial table)", t.stopped_at);
		status = search_limit_report(&t.o, t.stop, what);
	}
	status = finish_plot(&t, complete, status);
	search_state_free(&t.ss);
	store_free(t.st);
	free_lists(&t);
	return status;
}
