/* cmd_search.c -- `tally search`: the least depth at which a formula
 * agrees with a target on a sample, with bounded negative evidence for
 * every shallower depth; or (--separate) the smallest languages of depth
 * D + 1 that no depth-<=D formula matches on the sample. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "cli/getopt_hint.h"
#include "cli/commands.h"
#include "search/hierarchy.h"
#include "search/holdout.h"
#include "search/outside.h"
#include "search/pairgen.h"
#include "gen/families.h"
#include "cli/family_hint.h"
#include "search/seqtask.h"
#include "core/json.h"
#include "base/mem.h"
#include "core/prelude.h"
#include "core/print.h"
#include "cli/search_cli.h"
#include "cli/search_cmd.h"
#include "base/vec.h"
#include "search/verify.h"
#include "core/word.h"

static const char intro[] =
	"Usage: tally search [OPTION]... (-f FORMULA | -F FILE | -P PROGRAM |\n"
	"          --family=NAME | --positive=FILE --negative=FILE | --separate=D)\n"
	"Find the least depth at which a formula agrees with the target on the\n"
	"sample and verify the smallest one found there (a fresh sample, every\n"
	"word up to a length, the decision engine); while it fails, add the\n"
	"words where it differs to the sample and search again.  'least depth'\n"
	"is printed only for a verified formula.  For every shallower depth,\n"
	"print pairs the target separates that no formula of that depth within\n"
	"the class (constants <= C, T counts per comparison) tells apart, as\n"
	"an exact check shows.  With --separate=D, list the smallest\n"
	"depth-(D+1) formulas of the search that separate such a pair.  A\n"
	"count-valued target t is searched directly: the smallest term of the\n"
	"least depth in a term grammar equal to t on the sample, checked by\n"
	"the evaluator and the decision engine (text or --json); in text also\n"
	"through its thresholds t >= k (k = -1..2), whose least depths bound\n"
	"its depth from below.  --family=copy|reverse|sort: why no program\n"
	"computes the task, as far as a pair of words shows.\n\n"
	;

static const char examples[] =
	"\n"
	"Examples:\n"
	"  tally search -f first_a\n"
	"  tally search --family=lk --k=3\n"
	"  tally search --separate=1 --alphabet=ab --max-formulas=3\n\n"
	"Exit status 0: found and verified (--separate: something found);\n"
	"1: no verified formula up to --max-depth (the target's own depth).\n";

/* A target's constants raise C up to this much (beyond, the bank and
 * the checks of indistinguishability grow too large). */
enum { SEARCH_TARGET_C = 4 };
/* Pairs among labelled words checked per depth for a lower bound. */
enum { SEARCH_LABELLED_TRIES = 5000 };

/* ---- the target ----------------------------------------------------------- */

int search_formula_target(Search *s, Node f)
{
	if (store_flags(s->in.store, f) & FLAG_FUTURE)
		s->whole = true; /* its words must be judged whole */
	size_t n;
	Sym *syms = store_letters(s->in.store, f, &n);
	for (size_t i = 0; i < n; i++) {
		const char *name = sym_name(store_syms(s->in.store), syms[i]);
		search_labelled_letter(s, name, strlen(name));
	}
	free(syms);
	s->tg.kind = TARGET_FORMULA;
	s->tg.node = f;
	s->target_text = tl_print_brief(s->in.store, f, SYNTAX_TL);
	/* the class must hold the target: its constants and counts, and
	 * no deeper search than its own depth */
	search_target_shape(s->in.store, f, &s->shape);
	s->has_shape = true;
	if (s->whole && s->shape.outside &&
	    strcmp(s->shape.outside, SEARCH_OUTSIDE_FUTURE) == 0)
		s->shape.outside = NULL; /* two-sided formulas are searched */
	if (!s->o.C_given && s->shape.C > s->o.C)
		s->o.C = s->shape.C < SEARCH_TARGET_C ? s->shape.C : SEARCH_TARGET_C;
	if (!s->o.T_given && s->shape.T > s->o.T)
		s->o.T = s->shape.T < INDIST_MAX_T ? s->shape.T : INDIST_MAX_T;
	if (!s->shape.outside && s->shape.depth < s->maxd)
		s->maxd = s->shape.depth;
	return EXIT_YES;
}

static int set_target(Search *s)
{
	Store *st = s->in.store;
	search_labelled_alphabet(s, s->alphabet);
	if (s->pos || s->neg) {
		if (!s->pos || !s->neg)
			return status_usage_error("--positive and --negative go together");
		return search_labelled_target(s);
	}
	if (s->family && (strcmp(s->family, "lk") == 0 ||
			  strcmp(s->family, "lk-predict") == 0)) {
		bool predict = s->family[2] != '\0';
		if (s->k == 0 || (predict && s->k < 3) || s->k > 12)
			return status_usage_error("--family=%s needs --k in %d..12", s->family,
					       predict ? 3 : 1);
		Sym a = sym_intern(store_syms(st), "a", 1), b = sym_intern(store_syms(st), "b", 1);
		free(s->letters); /* a and b first, then --alphabet's others */
		s->letters = xcalloc(2, sizeof *s->letters);
		s->letters[0] = a;
		s->letters[1] = b;
		s->nletters = 2;
		search_labelled_alphabet(s, s->alphabet);
		char buf[64];
		snprintf(buf, sizeof buf, "%s %zu", predict ? "prediction task of L_" : "L_", s->k);
		if (predict) {
			s->tg = (Target){.kind = TARGET_PREDICT, .m = (unsigned)s->k};
			snprintf(buf, sizeof buf, "the prediction task of L_%zu", s->k);
			s->target_text = xstrdup(buf);
			return EXIT_YES;
		}
		return search_formula_target(s, hierarchy_lk(st, a, b, (unsigned)s->k));
	}
	if (s->in.nunits == 0 || s->in.units[s->in.nunits - 1].output == NODE_NONE)
		return status_usage_error("no target: give -f, -F, -P, --family, "
				       "--positive/--negative or --separate");
	if (s->family_alphabet)
		search_labelled_alphabet(s, s->family_alphabet);
	if (search_counts_target(s))
		return EXIT_YES; /* search_counts_run sets each threshold's */
	return search_formula_target(s, s->in.units[s->in.nunits - 1].output);
}

/* A count-valued target: directly in the term grammar (search_terms.c)
 * and, in text, through its thresholds (search_counts.c), whose least
 * depths bound its depth from below.  A term proved equal to the target
 * stands in for it there: the same function, so the same thresholds,
 * and its depth the upper bound.  0 when the thresholds settle it. */
static int search_counts(Search *s)
{
	s->proved_term = NODE_NONE;
	int direct = search_terms_run(s);
	if (s->o.json || direct == EXIT_USAGE || direct == EXIT_INTERNAL)
		return direct;
	printf("\n");
	Unit *u = &s->in.units[s->in.nunits - 1];
	if (s->proved_term != NODE_NONE && s->proved_term != u->output) {
		printf("(the thresholds below are those of the term found, "
		       "proved equal to the target)\n");
		u->output = s->proved_term;
	}
	return search_counts_run(s);
}

/* ---- output ----------------------------------------------------------------- */

/* Labelled words: whether the formula found generalises (holdout.h). */
static void judge(Search *s, const Solution *sol)
{
	const SearchResult *r = &sol->r;
	s->generalises = false;
	if (!r->found || !r->formula)
		return;
	s->held_right = holdout_right(&s->hold, s->in.store, r->formula,
				      s->letters, s->words.data,
				      s->labels.data, s->words.len);
	s->generalises = holdout_generalises(&s->hold, s->held_right,
					     store_size(s->in.store, r->formula));
}

/* Why there is no verified formula (NULL when there is one). */
static const char *failure(Search *s, const Solution *sol, char *buf, size_t n)
{
	const SearchResult *r = &sol->r;
	bool labels = s->tg.kind == TARGET_LABELS;
	if (labels && r->found && r->formula && sol->have_v && sol->v.ok &&
	    !s->generalises) {
		snprintf(buf, n, "the formula found does not generalise: %zu of "
			 "the %zu held-out words right, size %llu against the "
			 "%zu letters searched", s->held_right, s->hold.nheld,
			 (unsigned long long)store_size(s->in.store, r->formula),
			 s->hold.train_letters);
		return buf;
	}
	if (r->found && r->formula && sol->have_v && sol->v.ok)
		return NULL;
	if (r->noisy && r->found && r->formula && sol->have_v &&
	    sol->v.fresh_bad <= s->o.max_errors)
		return NULL; /* wrong on the words it lists, at most N */
	if (r->stop != BANK_OK && r->found)
		snprintf(buf, n, "at depth %u a Boolean combination of the search's "
			 "comparisons agrees with the target on the sample; a limit "
			 "stopped the extraction of the formula", r->depth);
	else if (r->stop != BANK_OK)
		snprintf(buf, n, "a limit stopped the search during depth %u",
			 r->tried);
	else if (r->found && s->o.lim.hit != LIMIT_NONE)
		snprintf(buf, n, "a limit stopped the verification of the candidate "
			 "of depth %u", r->depth);
	else if (r->found && !r->formula)
		return "a limit stopped the extraction of the formula";
	else if (r->found && sol->exhausted)
		snprintf(buf, n, "the candidates of depth %u kept failing "
			 "verification (%u rounds of counterexamples)", r->depth,
			 sol->rounds);
	else if (r->found)
		snprintf(buf, n, "the candidate of depth %u failed verification",
			 r->depth);
	else if (s->has_shape && s->shape.outside)
		snprintf(buf, n, "no Boolean combination of the search's comparisons "
			 "agrees with the target on the sample; the target is outside "
			 "the class as written (%s)", s->shape.outside);
	else if (s->has_shape && s->shape.depth <= s->maxd)
		snprintf(buf, n, "no Boolean combination of the search's comparisons "
			 "agrees with the target on the sample; the target has depth "
			 "%u itself, so the search's grammar lacks a formula it needs",
			 s->shape.depth);
	else
		snprintf(buf, n, "no Boolean combination of the search's comparisons "
			 "agrees with the target on the sample");
	return buf;
}

/* The labelled words a noisy formula gets wrong, by the evaluator. */
static void print_errors(Search *s, const Sample *S, const SearchResult *r,
			 const Solution *sol)
{
	printf("wrong: %zu of the %zu labelled words (at most %zu allowed)%s",
	       sol->v.fresh_bad, s->words.len, s->o.max_errors,
	       r->nerrors ? ":" : "");
	for (size_t i = 0; i < r->nerrors; i++) {
		char *w = sample_word_brief(S, r->errors[i]);
		size_t k = 0;
		while (k < s->words.len &&
		       sample_node(S, s->words.data[k].w, s->words.data[k].len) !=
			       r->errors[i])
			k++;
		printf("%s \"%s\" (labelled %s)", i ? "," : "", w,
		       k < s->words.len && s->labels.data[k] ? "in" : "out");
		free(w);
	}
	printf("\n");
}

/* The alphabet the question is asked over: the target's letters and
 * --alphabet's (the search's words are over it). */
static void print_alphabet(const Search *s)
{
	letters_print_line(stdout, store_syms(s->in.store), s->letters,
			   s->nletters);
}

static json_t *alphabet_json(const Search *s)
{
	return json_letters(store_syms(s->in.store), s->letters, s->nletters);
}

/* The lines known before the search (printed first, so that a limit
 * leaves them). */
static void print_header(Search *s, const SearchState *ss)
{
	if (s->o.json || s->o.csv)
		return;
	printf("target: %s\n", s->target_text);
	print_alphabet(s);
	if (s->has_shape)
		printf("target depth: %u%s%s\n", s->shape.depth,
		       s->shape.outside ? "; outside the class as written: " : "",
		       s->shape.outside ? s->shape.outside : "");
	printf("sample: %s\n", ss->S->desc);
	search_print_bounds(&s->o, ss->bank);
	if (s->whole)
		printf("two-sided: the pairs are checked against the two-sided "
		       "class (each count #[psi] or #>[psi])\n");
	fflush(stdout);
}

/* The found formula fits every labelled word searched but not the
 * held-out ones, or is too large beside the sample. */
static bool memorises(const Search *s, const Solution *sol)
{
	return s->tg.kind == TARGET_LABELS && sol->r.found && sol->r.formula &&
	       sol->have_v && sol->v.ok && !s->generalises;
}

static void print_holdout(const Search *s, unsigned depth,
			  unsigned long long size)
{
	if (s->hold.nheld)
		printf("held out: %zu of the %zu labelled words (--holdout=%u, "
		       "seed %llu); the depth-%u formula gets %zu of them right",
		       s->hold.nheld, s->words.len, s->holdout,
		       (unsigned long long)s->o.seed, depth, s->held_right);
	else
		printf("held out: none (%s)", s->holdout ? "fewer than 20 "
		       "labelled words" : "--holdout=0");
	printf("; its size %llu against the %zu letters searched (a quarter "
	       "at most to generalise)\n", size, s->hold.train_letters);
}

static json_t *holdout_json(const Search *s)
{
	json_t *h = json_object();
	json_object_set_new(h, "percent", json_integer(s->holdout));
	json_object_set_new(h, "words", json_integer((json_int_t)s->hold.nheld));
	json_object_set_new(h, "right", json_integer((json_int_t)s->held_right));
	json_object_set_new(h, "letters_searched",
			    json_integer((json_int_t)s->hold.train_letters));
	json_object_set_new(h, "generalises", json_boolean(s->generalises));
	return h;
}

/* After a stop: the deepest depth a pair certified, or why none was. */
static void print_stopped_bound(const DepthClaim *c)
{
	if (c->lower >= 0)
		printf("lower bound: certified to depth %d by the pairs above\n",
		       c->lower);
	else
		printf("lower bound: none certified (the limit stopped the search "
		       "before its pairs were checked)\n");
}

static void print_search(Search *s, const SearchState *ss, const Solution *sol,
			 const DepthClaim *c)
{
	Store *st = s->in.store;
	const Sample *S = ss->S;
	const SearchResult *r = &sol->r;
	const Verification *v = sol->have_v ? &sol->v : NULL;
	char why[320];
	const char *fail = failure(s, sol, why, sizeof why);
	char *f = r->found && r->formula ? tl_print(st, r->formula, SYNTAX_TL, NULL) : NULL;
	unsigned long long size = f ? store_size(st, r->formula) : 0;
	unsigned upto = r->stop != BANK_OK ? r->tried : r->found ? r->depth : s->maxd;
	if (s->o.json) {
		json_t *o = json_envelope();
		json_object_set_new(o, "target", json_string(s->target_text));
		json_object_set_new(o, "alphabet", alphabet_json(s));
		json_object_set_new(o, "sample", json_string(S->desc));
		json_object_set_new(o, "max_const", json_integer(s->o.C));
		json_object_set_new(o, "counts", json_integer(s->o.T));
		json_object_set_new(o, "grammar", json_string(bank_grammar(ss->bank)));
		json_object_set_new(o, "refuted", search_json_refutations(S, r));
		search_json_claim(o, c);
		json_object_set_new(o, "failure", fail ? json_string(fail) : json_null());
		json_object_set_new(o, "formula", f ? json_string(f) : json_null());
		json_object_set_new(o, "size", json_integer((json_int_t)size));
		json_object_set_new(o, "verified", json_boolean(!fail));
		json_object_set_new(o, "evidence", json_string(v ? v->kind : "none"));
		json_object_set_new(o, "verification", json_string(v ? v->text : ""));
		json_object_set_new(o, "counterexamples", json_integer(sol->rounds));
		if (s->tg.kind == TARGET_LABELS)
			json_object_set_new(o, "holdout", holdout_json(s));
		if (r->noisy) {
			json_t *wr = json_array();
			for (size_t i = 0; i < r->nerrors; i++) {
				char *w = sample_word_text(S, r->errors[i]);
				json_array_append_new(wr, json_string(w));
				free(w);
			}
			json_object_set_new(o, "wrong_words", wr);
		}
		json_emit(o);
	} else if (s->o.csv) {
		puts("target,least_depth,depth_found,certified_depth,size,"
		     "verified,evidence,formula");
		search_csv_field(s->target_text, false);
		search_csv_claim(c);
		printf("%llu,%s,%s,", size, fail ? "no" : "yes", v ? v->kind : "none");
		search_csv_field(f ? f : "", true);
	} else {
		if (sol->rounds) /* the sample grew */
			printf("sample: %s\n", S->desc);
		search_print_refutations(S, r, "");
		if (s->tg.kind == TARGET_LABELS && r->found && f)
			print_holdout(s, r->depth, size);
		if (fail && memorises(s, sol)) {
			printf("no generalising formula up to depth %u; a formula "
			       "that memorises the sample has depth %u and size "
			       "%llu\n", r->depth, r->depth, size);
			printf("formula (memorises the sample): %s\n", f);
		} else if (!fail) {
			char cl[120];
			claim_text(c, cl, sizeof cl);
			if (claim_least(c))
				printf("least depth: %u\n", r->depth);
			else if ((int)c->upper <= c->lower) /* contradiction */
				printf("%s\n", cl);
			else if (c->lower + 2 == (int)c->upper)
				printf("%s (depth %u is refuted by the search's own "
				       "comparisons only, not by a certified pair)\n",
				       cl, c->upper - 1);
			else /* depths lower + 1 .. d - 1 rest on the search */
				printf("%s (depths %d..%u are refuted by the "
				       "search's own comparisons only, not by a "
				       "certified pair)\n", cl, c->lower + 1,
				       c->upper - 1);
			printf("formula: %s\n", f);
			printf("size: %llu%s\n", size,
			       r->large ? " (a Boolean combination of the greedy "
					  "comparisons)" : "");
			if (r->noisy)
				print_errors(s, S, r, sol);
		} else {
			printf("no verified formula up to depth %u: %s\n", upto, fail);
			if (f)
				printf("candidate (not verified): %s\n", f);
			else if (sol->failed)
				printf("candidate (not verified; of depth %u, an "
				       "earlier round's, which failed verification): "
				       "%s\n", sol->failed_depth, sol->failed);
			if (r->stop != BANK_OK || s->o.lim.hit != LIMIT_NONE)
				print_stopped_bound(c);
		}
		if (v)
			printf("verified: %s\n", v->text);
		if (sol->rounds)
			printf("counterexamples: %u rounds added words where a "
			       "candidate differed from the target to the sample\n",
			       sol->rounds);
	}
	free(f);
}

/* Labelled words: per depth, the shortest pair among them that no
 * formula of the depth within C, T separates (pairgen_labelled: two
 * exact checks); a lower bound from the words themselves, whatever the
 * search found. */
typedef struct {
	unsigned maxd;
	PairCert p[SEARCH_MAXD + 1];
	PairgenStatus st[SEARCH_MAXD + 1];
	const char **names;
} LabelledBounds;

/* The deepest depth certified, or -1. */
static int labelled_bounds(Search *s, LabelledBounds *lb)
{
	size_t n = s->words.len;
	BlockWord *w = xcalloc(n + 1, sizeof *w);
	lb->names = xcalloc(s->nletters + 1, sizeof *lb->names);
	for (size_t i = 0; i < s->nletters; i++)
		lb->names[i] = sym_name(store_syms(s->in.store), s->letters[i]);
	for (size_t i = 0; i < n; i++)
		blockword_from(&w[i], s->words.data[i].w, s->words.data[i].len);
	lb->maxd = s->maxd < SEARCH_MAXD ? s->maxd : SEARCH_MAXD;
	search_progress(&s->o, "pairs among the labelled words");
	pairgen_labelled(w, s->labels.data, n, s->nletters, lb->maxd,
			 search_bounds(&s->o), SEARCH_LABELLED_TRIES, &s->o.lim,
			 lb->p, lb->st);
	search_progress_done(&s->o);
	for (size_t i = 0; i < n; i++)
		blockword_free(&w[i]);
	free(w);
	int deepest = -1;
	for (unsigned d = 0; d <= lb->maxd && lb->st[d] == PAIRGEN_FOUND; d++)
		deepest = (int)d;
	return deepest;
}

/* Prints them (text) and frees them.  False when the checks disagreed
 * (said on stderr). */
static bool print_labelled_bounds(Search *s, LabelledBounds *lb, bool text)
{
	char cls[80];
	search_class_brief(search_bounds(&s->o), cls, sizeof cls);
	bool ok = true;
	for (unsigned d = 0; d <= lb->maxd; d++) {
		if (lb->st[d] == PAIRGEN_STOPPED)
			break;
		if (lb->st[d] == PAIRGEN_NONE) {
			if (text)
				printf("lower bound from the labelled words: none at "
				       "depth %u (no pair of them certified; at most "
				       "%d pairs with the same last letter checked, "
				       "shortest first)\n", d, SEARCH_LABELLED_TRIES);
			break;
		}
		char *u = blockword_text(&lb->p[d].u, lb->names);
		char *v = blockword_text(&lb->p[d].v, lb->names);
		if (lb->st[d] == PAIRGEN_DISAGREE) {
			fprintf(stderr, "tally: internal error: the two exact checks "
				"disagree on \"%s\" and \"%s\" at depth %u\n", u, v, d);
			ok = false;
		} else if (text) {
			printf("lower bound from the labelled words: within %s, no "
			       "depth-<=%u formula separates \"%s\" (in) and \"%s\" "
			       "(out): %llu and %llu letters; shown by two exact checks "
			       "that share no code (blockref, blockcheck)\n", cls, d, u,
			       v, (unsigned long long)blockword_length(&lb->p[d].u),
			       (unsigned long long)blockword_length(&lb->p[d].v));
		}
		free(u);
		free(v);
	}
	for (unsigned d = 0; d <= lb->maxd; d++)
		if (lb->st[d] == PAIRGEN_FOUND || lb->st[d] == PAIRGEN_DISAGREE)
			pairgen_free(&lb->p[d]);
	free(lb->names);
	return ok;
}

int search_run_target(Search *s)
{
	Store *st = s->in.store;
	bool labels = s->tg.kind == TARGET_LABELS;
	unsigned dmax = labels ? 0 : s->maxd > 1 ? s->maxd - 1 : 1;
	if (dmax > 4)
		dmax = 4;
	SearchState ss;
	search_state_init(&ss, &s->o, st, s->letters, s->nletters, 1, dmax,
			  s->train.data, s->train.len, labels, s->whole);
	print_header(s, &ss);
	search_progress(&s->o, "searching");
	Solution sol;
	search_solve(&ss, &s->tg, s->maxd, &sol);
	search_progress_done(&s->o);
	if (labels)
		judge(s, &sol);
	char why[320];
	int status = failure(s, &sol, why, sizeof why) ? EXIT_NO : EXIT_YES;
	const SearchResult *r = &sol.r;
	/* the lower bound: the sample's certified pairs, and for labelled
	 * words the pairs among them */
	LabelledBounds lb;
	bool bounds = labels && !s->whole;
	int lower = bounds ? labelled_bounds(s, &lb) : -1;
	if (s->o.max_errors) /* a pair may be among the words it gets wrong */
		lower = -1;
	DepthClaim c;
	bool agree = search_claim(&s->o, ss.S, r, status == EXIT_YES, lower, &c);
	print_search(s, &ss, &sol, &c);
	if (bounds && !print_labelled_bounds(s, &lb, !s->o.json && !s->o.csv))
		agree = false;
	fflush(stdout);
	s->lower = claim_lower_bound(&c);
	s->settled = claim_least(&c);
	if (r->stop == BANK_OK && s->o.lim.hit != LIMIT_NONE)
		status = limit_report(&s->o.lim, "what is printed was established "
				      "before it");
	if (r->stop != BANK_OK) {
		char what[64];
		snprintf(what, sizeof what, "depths 0..%u searched (partial "
			 "result)", r->found ? r->depth : r->tried ? r->tried - 1 : 0);
		status = r->tried || r->found ? search_limit_report(&s->o, r->stop, what)
				 : search_limit_report(&s->o, r->stop, "no depth "
						       "searched");
	}
	solution_free(&sol);
	search_state_free(&ss);
	return agree ? status : EXIT_INTERNAL;
}

/* ---- options ---------------------------------------------------------------- */

/* --target-formula=F: the same as -f F. */
static int target_row(const Option *row, const char *arg)
{
	inputs_option(row->ctx, 'f', arg);
	return EXIT_YES;
}

static int parse(Search *s, int argc, char **argv)
{
	const Option rows[] = {
		CLI_INPUT_ROWS(&s->in),
		OPTION_TEXT_ROW("Target:\n"),
		OPTION_CALL_ROW(0, "target-formula", "F", target_row, &s->in,
				"the target formula (the same as -f F)"),
		OPTION_STRING_ROW(0, "family", "NAME", &s->family,
				  "a family of tally gen (lk, lk-predict, ek,\n"
				  "... with --k; tally gen --list), or one\n"
				  "outside the logic by its membership: parity,\n"
				  "mod3, dyck2 (a certified pair per depth; also\n"
				  "-f parity, -f MOD3, -f Dyck-2); or a sequence\n"
				  "task copy, reverse, sort (why no program\n"
				  "computes it)"),
		OPTION_COUNT_ROW(0, "k", "K", 0, SIZE_MAX, &s->k,
				 "the k of --family=lk / lk-predict"),
		OPTION_STRING_ROW(0, "positive", "FILE", &s->pos,
				  "words the target accepts, one per line"),
		OPTION_STRING_ROW(0, "negative", "FILE", &s->neg,
				  "words it rejects (both files together)"),
		OPTION_COUNT_ROW(0, "separate", "D", 0, 5, &s->separate,
				 "no target: separate depth D+1 from depth <= D"),
		OPTION_COUNT_ROW(0, "max-formulas", "N", 1, 100000, &s->count,
				 "with --separate: how many formulas (default 10)"),
		OPTION_STRING_ROW(0, "alphabet", "LETTERS", &s->alphabet,
				  "letters besides the target's (default ab for\n"
				  "--separate)"),
		OPTION_COUNT_ROW(0, "max-depth", "D", 0, 8, &s->maxd,
				 "the deepest depth searched (default 5; a target\n"
				 "formula's own depth when smaller)"),
		OPTION_FLAG_ROW(0, "two-sided", &s->whole,
				"search formulas with future counts #> too,\n"
				"on whole words (implied by a target with #>)"),
		OPTION_COUNT_ROW(0, "holdout", "PERCENT", 0, 90, &s->holdout,
				 "labelled words: the share kept out of the\n"
				 "search to judge the formula on (default 20;\n"
				 "0: none)"),
		OPTION_COUNT_ROW(0, "max-errors", "N", 0, 1000000, &s->o.max_errors,
				 "labelled words: the least depth whose best\n"
				 "formula gets at most N words wrong (listed)"),
		SEARCH_CLI_ROWS(&s->o),
		OPTION_HELP_ROW,
	};
	const OptionTable table = OPTION_TABLE(intro, rows, examples);
	int status = options_parse(&table, argc, argv);
	if (status != EXIT_YES)
		return status;
	if (s->o.max_errors && !s->pos)
		return status_usage_error("--max-errors goes with --positive and "
				       "--negative (labelled words)");
	/* -f parity, -f MOD3, -f Dyck-2: a family outside the logic by the
	 * name a user types (no formula has these names) */
	if (!s->family && s->in.nspecs == 1 &&
	    s->in.specs[0].kind == INPUT_FORMULA &&
	    outside_lookup(s->in.specs[0].text)) {
		s->family = outside_lookup(s->in.specs[0].text)->name;
		s->in.nspecs = 0;
	}
	if (s->family && outside_lookup(s->family))
		s->family = outside_lookup(s->family)->name;
	if (s->family && (outside_find(s->family) || seqtask_find(s->family))) {
		if (optind < argc)
			return status_usage_error("unexpected argument '%s'", argv[optind]);
		return EXIT_YES; /* a membership function: search_outside_run */
	}
	if (s->family && strcmp(s->family, "lk") != 0 &&
	    strcmp(s->family, "lk-predict") != 0) {
		/* a family of tally gen (its formula and alphabet); a prelude
		 * name is -f NAME, never read silently in its place */
		const Family *fam = family_find(s->family);
		if (!fam)
			return family_unknown(s->family,
					      "; a prelude formula is -f NAME");
		if (fam && fam->in_domain)
			return status_usage_error("--family=%s is a task on part of the "
					       "words; only lk-predict is supported",
					       s->family);
		if (fam && fam->kmin > 0 && (long)s->k < fam->kmin)
			return status_usage_error("--family=%s needs --k >= %ld", s->family,
					       fam->kmin);
		s->family_text = fam->formula(fam->kmin > 0 ? (long)s->k : 0);
		s->family_alphabet = fam->alphabet;
		inputs_option(&s->in, 'f', s->family_text);
	}
	if (s->in.nspecs == 0) { /* --family=lk, labels or --separate */
		if (optind < argc)
			return status_usage_error("unexpected argument '%s'", argv[optind]);
		return EXIT_YES;
	}
	return cli_load_inputs(&s->in, argc, argv, false);
}

int cmd_search(int argc, char **argv)
{
	Search s = {.separate = -1, .count = 10, .maxd = 5,
		    .holdout = HOLDOUT_PERCENT};
	search_opts_init(&s.o);
	inputs_init(&s.in);
	s.in.terms = true; /* a count-valued target (search_counts.c) */
	int status = parse(&s, argc, argv);
	if (status == EXIT_YES) {
		limit_start(&s.o.lim);
		if (s.family && outside_find(s.family)) {
			status = search_outside_run(&s, outside_find(s.family));
		} else if (s.family && seqtask_find(s.family)) {
			status = search_seqtask_run(&s, seqtask_find(s.family));
		} else if (s.separate >= 0) {
			search_labelled_alphabet(&s, s.alphabet);
			status = search_separating_run(&s);
		} else {
			status = set_target(&s);
			if (status == EXIT_YES && search_counts_target(&s))
				status = search_counts(&s);
			else if (status == EXIT_YES)
				status = search_run_target(&s);
		}
	}
	if (status < 0)
		status = EXIT_YES;
	for (size_t i = 0; i < s.words.len; i++)
		free(s.words.data[i].w);
	VEC_FREE(s.words);
	VEC_FREE(s.labels);
	VEC_FREE(s.train);
	VEC_FREE(s.train_labels);
	holdout_free(&s.hold);
	free(s.letters);
	free(s.target_text);
	free(s.family_text);
	inputs_free(&s.in);
	return status;
}
