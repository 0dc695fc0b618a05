/* search_run.c -- `tally search` on a Boolean target: setting the class
 * from the target's shape, the search itself (search_solve), its lower
 * bounds (pairs, labelled words' pairs) and the result in text or JSON.
 * A count-valued target runs this once per threshold (search_counts.c). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/holdout.h"
#include "search/outside.h"
#include "search/pairgen.h"
#include "core/json.h"
#include "core/print.h"
#include "cli/search_cmd.h"
#include "core/alphabet.h"

/* A target's constants raise C up to this much (beyond, the bank and
 * the checks of indistinguishability grow too large). */
enum { SEARCH_TARGET_C = 4 };
/* Pairs among labelled words checked per depth for a lower bound. */
enum { SEARCH_LABELLED_TRIES = 5000 };

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
