/* check_decide.c -- the decision engine against independent answers:
 * explore's verdicts and counterexamples against brute force over all
 * words (the evaluator, itself checked against the naive reference, on
 * every word in shortlex order), run-length evaluation against letter by
 * letter evaluation, hand-derived verdicts on words of 10^20 letters, and
 * the L_k / Dyck-1 pairs of the issue.
 *
 * TALLY_TEST_MULTIPLIER=N (check-heavy) runs N times as many random
 * cases. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/mem.h"
#include "decide/decision.h"
#include "decide/explore.h"
#include "fixture.h"
#include "machine/machine.h"
#include "decide/method.h"
#include "decide/portfolio.h"
#include "randgen.h"
#include "ref_eval.h"
#include "machine/runeval.h"
#include "suites.h"
#include "core/alphabet.h"

FIXTURE_PER_TEST

static Node parse(const char *text)
{
	return fixture_must_parse(&fx, text);
}

static Sym letter(const char *name)
{
	return fixture_letter(&fx, name);
}

static char *text_of(const Runs *w)
{
	return runs_format(w, store_syms(s), 1000);
}

static void query_init(Query *q, Node f, Node g, const Sym *alpha, size_t n,
		       AcceptAt accept, size_t max_length)
{
	memset(q, 0, sizeof *q);
	q->store = s;
	q->root[0] = f;
	q->root[1] = g;
	q->alphabet = alpha;
	q->nletters = n;
	q->accept = accept;
	q->max_length = max_length;
}

/* The shortlex-first word of length <= maxlen on which f and g differ,
 * by evaluating every word; false when none. */
static bool brute_first(Node f, Node g, const Sym *alpha, size_t sigma,
			AcceptAt accept, size_t maxlen, Sym *w, size_t *len)
{
	Node roots[2] = {f, g};
	Evaluator *ev = eval_new(s, roots, 2, accept);
	unsigned digits[16];
	bool found = false;
	for (size_t n = 0; n <= maxlen && !found; n++) {
		memset(digits, 0, sizeof digits);
		do {
			for (size_t i = 0; i < n; i++)
				w[i] = alpha[digits[i]];
			bool acc[2];
			eval_word(ev, w, n, acc);
			if (acc[0] != acc[1]) {
				found = true;
				*len = n;
				break;
			}
		} while (fixture_next_word(digits, n, (unsigned)sigma));
	}
	eval_free(ev);
	return found;
}

/* A witness really separates f and g: run by run, letter by letter and
 * by the naive reference. */
static void check_witness(Node f, Node g, AcceptAt accept, const Runs *w)
{
	Node roots[2] = {f, g};
	RunEval *re = runeval_new(s, roots, 2, accept);
	bool acc[2];
	char *err;
	ck_assert(runeval_word(re, w, acc, &err));
	ck_assert(acc[0] != acc[1]);
	runeval_free(re);
	size_t n;
	Sym *word = runs_expand(w, 64, &n);
	if (!word)
		return;
	bool eos = accept == ACCEPT_EOS;
	ck_assert(ref_accepts(s, f, word, n, eos) !=
		  ref_accepts(s, g, word, n, eos));
	free(word);
}

/* ---- explore against brute force ------------------------------------- */

enum { BRUTE_LEN = 6, BRUTE_PAIRS = 40 };

/* A partner for f: independent, or f changed only where a rare
 * condition holds (so that the pair agrees on many words). */
static Node partner(Rng *rng, const GenOptions *o, Node f)
{
	Node h = randgen_formula(s, rng, o), k = randgen_formula(s, rng, o);
	switch (rng_below(rng, 3)) {
	case 0: return randgen_formula(s, rng, o);
	case 1: return store_make_or2(s, f, store_make_and2(s, h, k));
	default:
		return store_make_and2(s, f,
				       store_make_not(s, store_make_and2(s, h, k)));
	}
}

static void explore_vs_brute(uint64_t seed, bool future)
{
	Sym alpha[3] = {letter("a"), letter("b"), letter("c")};
	GenOptions o = {.letters = alpha,
			.nletters = 2,
			.max_depth = 2,
			.max_size = 12,
			.future = future,
			.positional = true,
			.extended = true};
	Rng rng;
	rng_seed(&rng, seed);
	unsigned pairs = test_count(BRUTE_PAIRS);
	unsigned bounded = 0;
	for (unsigned i = 0; i < pairs; i++) {
		Node f = randgen_formula(s, &rng, &o);
		Node g = partner(&rng, &o, f);
		/* Sometimes a letter neither side mentions. */
		size_t sigma = 2 + rng_below(&rng, 2);
		AcceptAt accept = rng_below(&rng, 3) ? ACCEPT_LAST : ACCEPT_EOS;
		Sym w[BRUTE_LEN + 4];
		size_t len = 0;
		bool differ = brute_first(f, g, alpha, sigma, accept, BRUTE_LEN,
					  w, &len);
		Query q;
		query_init(&q, f, g, alpha, sigma, accept, BRUTE_LEN);
		MethodResult r;
		method_result_init(&r);
		explore_decide(&q, &r);
		if (differ) {
			ck_assert_int_eq(r.status, MR_DIFFERENT);
			ck_assert(r.witness_shortest);
			Runs expect;
			runs_init(&expect);
			for (size_t j = 0; j < len; j++)
				runs_push_ui(&expect, w[j], 1);
			char *got = text_of(&r.witness), *want = text_of(&expect);
			ck_assert_str_eq(got, want);
			free(got);
			free(want);
			runs_clear(&expect);
			check_witness(f, g, accept, &r.witness);
		} else if (r.status == MR_EQUIVALENT) {
			/* Exhausted: then longer words agree too.  Never
			 * for #> (generated formulas may lack it). */
			ck_assert(!((store_flags(s, f) | store_flags(s, g)) &
				    FLAG_FUTURE));
			ck_assert(!brute_first(f, g, alpha, sigma, accept,
					       BRUTE_LEN + 2, w, &len));
		} else {
			ck_assert_int_eq(r.status, MR_BOUNDED);
			ck_assert_uint_eq(r.bound, BRUTE_LEN);
			bounded++;
		}
		method_result_free(&r);
	}
	/* The pairs must exercise both outcomes. */
	ck_assert(bounded > 0 || test_scaled_down());
}

START_TEST(explore_past)
{
	explore_vs_brute(0xdec1de00u + (uint64_t)_i, false);
}
END_TEST

START_TEST(explore_future)
{
	explore_vs_brute(0xdec1de80u + (uint64_t)_i, true);
}
END_TEST

/* What explore says it checked when it finds a word: the lengths below
 * the word's (its own length only in part), with #> as without. */
START_TEST(explore_bound_of_witness)
{
	Sym alpha[2] = {letter("a"), letter("b")};
	const char *const pairs[][2] = {
		{"#[Q_a] >= 1 & Q_a", "false"},
		{"#[Q_a] >= 1 & Q_a & #>[true] >= 1", "false"},
	};
	for (size_t i = 0; i < 2; i++) {
		Query q;
		query_init(&q, parse(pairs[i][0]), parse(pairs[i][1]), alpha,
			   2, ACCEPT_LAST, 6);
		MethodResult r;
		method_result_init(&r);
		explore_decide(&q, &r);
		ck_assert_int_eq(r.status, MR_DIFFERENT);
		char *w = text_of(&r.witness);
		ck_assert_str_eq(w, "a"); /* "b" is not looked at */
		free(w);
		ck_assert_uint_eq(r.bound, 0);
		method_result_free(&r);
	}
}
END_TEST

/* ---- the pairs of the issue ------------------------------------------ */

/* L_k of the prelude for any k: alternating subsequence tests, with
 * names of their own (definitions stay in the fixture's scope). */
static Node lk(unsigned k)
{
	static unsigned serial;
	unsigned id = serial++;
	Buf b = {0};
	for (unsigned j = 1; j <= k + 1; j++)
		for (int first = 0; first < 2; first++) {
			/* A<j>: the alternating word of length j starting
			 * with a is a subsequence; B<j> starting with b. */
			char me = first ? 'B' : 'A';
			char last = ((j % 2 == 1) ^ first) ? 'a' : 'b';
			if (j == 1)
				buf_printf(&b, "let %c%u_1 = 1 <= #[Q_%c]; ", me,
					   id, last);
			else
				buf_printf(&b, "let %c%u_%u = 1 <= #[Q_%c & %c%u_%u]; ",
					   me, id, j, last, me, id, j - 1);
		}
	buf_printf(&b, "A%u_%u & !B%u_%u", id, k, id, k);
	char *text = buf_take(&b);
	Node n = parse(text);
	free(text);
	return n;
}

START_TEST(lk_shortest)
{
	Sym alpha[2] = {letter("a"), letter("b")};
	for (unsigned k = 1; k <= 6; k++) {
		Query q;
		query_init(&q, lk(k), lk(k + 1), alpha, 2, ACCEPT_LAST, 0);
		q.timeout = 60;
		MethodResult r;
		method_result_init(&r);
		explore_decide(&q, &r);
		ck_assert_int_eq(r.status, MR_DIFFERENT);
		/* The shortest word of L_k: abab... of length k (the
		 * shortest of L_(k+1) is longer). */
		char want[16];
		for (unsigned j = 0; j < k; j++)
			want[j] = j % 2 ? 'b' : 'a';
		want[k] = '\0';
		char *got = text_of(&r.witness);
		ck_assert_str_eq(got, want);
		free(got);
		check_witness(q.root[0], q.root[1], ACCEPT_LAST, &r.witness);
		method_result_free(&r);
	}
	/* The prelude's own L_2 and L_3 agree with the generated ones. */
	Query q;
	query_init(&q, parse("L_3"), lk(3), alpha, 2, ACCEPT_LAST, 9);
	MethodResult r;
	method_result_init(&r);
	explore_decide(&q, &r);
	ck_assert_int_eq(r.status, MR_BOUNDED);
	method_result_free(&r);
}
END_TEST

START_TEST(dyck_pair_bounded)
{
	Sym alpha[2] = {letter("("), letter(")")};
	Node f = parse("#['('] = #[')'] & #[#['('] < #[')']] = 0");
	Node g = parse("#['('] = #[')'] & #[')' & #[')'] = #['('] + 1] = 0");
	Query q;
	query_init(&q, f, g, alpha, 2, ACCEPT_LAST, 40);
	MethodResult r;
	method_result_init(&r);
	explore_decide(&q, &r);
	ck_assert_int_eq(r.status, MR_BOUNDED);
	ck_assert_uint_eq(r.bound, 40);
	/* Merging: polynomially many states, against 2^41 words. */
	ck_assert_uint_lt(r.states, 100000);
	method_result_free(&r);
	/* Against balance alone: )( is the shortest balanced word that
	 * dips below zero. */
	Node h = parse("#['('] = #[')']");
	query_init(&q, f, h, alpha, 2, ACCEPT_LAST, 40);
	method_result_init(&r);
	explore_decide(&q, &r);
	ck_assert_int_eq(r.status, MR_DIFFERENT);
	char *got = text_of(&r.witness);
	ck_assert_str_eq(got, ")(");
	free(got);
	method_result_free(&r);
}
END_TEST

START_TEST(exhaustion_and_limits)
{
	Sym alpha[2] = {letter("a"), letter("b")};
	Query q;
	MethodResult r;
	/* Finitely many states: proved for all lengths. */
	query_init(&q, parse("Y Q_a & MOD(3, 1)"),
		   parse("Y Q_a & MOD(3, 1) & (Q_a | Q_b)"), alpha, 2,
		   ACCEPT_LAST, 0);
	method_result_init(&r);
	explore_decide(&q, &r);
	ck_assert_int_eq(r.status, MR_EQUIVALENT);
	method_result_free(&r);
	/* Unbounded counts: the state limit stops it. */
	query_init(&q, parse("#[Q_b] < #[Q_a]"), parse("2*#[Q_a] > #[true]"),
		   alpha, 2, ACCEPT_LAST, 0);
	q.max_states = 1000;
	method_result_init(&r);
	explore_decide(&q, &r);
	ck_assert_int_eq(r.status, MR_LIMIT);
	ck_assert(r.bound > 10);
	method_result_free(&r);
}
END_TEST

START_TEST(machine_state_merging)
{
	Node f = parse("#[Q_a] < #[Q_b] & Y Q_a");
	Machine m;
	machine_init(&m, s, &f, 1, false);
	MachineState x, y;
	machine_state_init(&m, &x);
	machine_state_init(&m, &y);
	uint32_t a = machine_code(&m.codes, letter("a"));
	uint32_t b = machine_code(&m.codes, letter("b"));
	/* ab and ba: equal counts, but Y Q_a remembers the last letter. */
	machine_step(&m, &x, a);
	machine_step(&m, &x, b);
	machine_step(&m, &y, b);
	machine_step(&m, &y, a);
	ck_assert(!machine_state_equal(&m, &x, &y));
	/* Then b: abb and bab have equal counts and last letters. */
	machine_step(&m, &x, b);
	machine_step(&m, &y, b);
	ck_assert(machine_state_equal(&m, &x, &y));
	ck_assert_uint_eq(machine_state_hash(&m, &x), machine_state_hash(&m, &y));
	int64_t px[16], py[16];
	ck_assert_uint_le(machine_packed_len(&m), 16);
	machine_pack(&m, &x, px);
	machine_pack(&m, &y, py);
	ck_assert_uint_eq(machine_packed_hash(px, machine_packed_len(&m)),
			  machine_state_hash(&m, &x));
	/* Unpacking and stepping equals stepping. */
	machine_unpack(&m, &y, px, x.pos);
	machine_step(&m, &x, a);
	machine_step(&m, &y, a);
	machine_query(&m, &x);
	machine_query(&m, &y);
	ck_assert_int_eq(machine_root(&m, &x, 0), machine_root(&m, &y, 0));
	ck_assert(machine_state_equal(&m, &x, &y));
	machine_state_free(&m, &x);
	machine_state_free(&m, &y);
	machine_free(&m);
}
END_TEST

/* ---- run-length words ------------------------------------------------ */

static const unsigned run_lengths[] = {1, 2, 3, 5, 8, 13};
/* Longer runs, for the periodic jumps of MOD under a count. */
static const unsigned mod_lengths[] = {1, 4, 9, 23, 40, 77};
enum { NRUNLEN = sizeof run_lengths / sizeof run_lengths[0], RUN_FORMULAS = 25 };

/* Every word of up to `maxruns` runs over {a,b,c} with the lengths
 * given, run by run against letter by letter. */
static void runs_vs_plain(uint64_t seed, bool future, unsigned formulas,
			  const unsigned *lengths, size_t maxruns)
{
	Sym alpha[3] = {letter("a"), letter("b"), letter("c")};
	GenOptions o = {.letters = alpha,
			.nletters = 3,
			.max_depth = 3,
			.max_size = 14,
			.future = future,
			.positional = true,
			.extended = true};
	Rng rng;
	rng_seed(&rng, seed);
	unsigned nf = test_count(formulas);
	for (unsigned i = 0; i < nf; i++) {
		Node roots[2] = {randgen_formula(s, &rng, &o),
				 randgen_formula(s, &rng, &o)};
		for (int a = 0; a < 2; a++) {
			RunEval *re = runeval_new(s, roots, 2, (AcceptAt)a);
			Evaluator *ev = eval_new(s, roots, 2, (AcceptAt)a);
			unsigned d[6];
			for (size_t nr = 0; nr <= maxruns; nr++) {
				memset(d, 0, sizeof d);
				do {
					Runs w;
					runs_init(&w);
					for (size_t j = 0; j < nr; j++)
						runs_push_ui(&w, alpha[d[2 * j] % 3],
							     lengths[d[2 * j + 1]]);
					size_t n;
					Sym *word = runs_expand(&w, 1000, &n);
					bool x[2], y[2];
					char *err;
					/* No ck_assert in this loop: Check
					 * writes a mark per assertion. */
					if (!runeval_word(re, &w, x, &err))
						ck_abort_msg("%s", err);
					eval_word(ev, word, n, y);
					if (x[0] != y[0] || x[1] != y[1]) {
						char *t = text_of(&w);
						ck_abort_msg("runs %s (%s): %d%d, "
							     "letters %d%d",
							     t, a ? "eos" : "last",
							     x[0], x[1], y[0], y[1]);
					}
					free(word);
					runs_clear(&w);
				} while (fixture_next_word(d, 2 * nr, NRUNLEN));
			}
			runeval_free(re);
			eval_free(ev);
		}
	}
}

START_TEST(runs_past)
{
	runs_vs_plain(0x5e1f0000u + (uint64_t)_i, false, RUN_FORMULAS,
		      run_lengths, 3);
}
END_TEST

START_TEST(runs_future)
{
	runs_vs_plain(0x5e1f0100u + (uint64_t)_i, true, RUN_FORMULAS / 5,
		      run_lengths, 3);
}
END_TEST

/* Formulas that count MOD (the generator mixes MOD in often): two runs
 * of up to 77 letters. */
START_TEST(runs_mod)
{
	runs_vs_plain(0x5e1f0200u + (uint64_t)_i, false, RUN_FORMULAS * 2,
		      mod_lengths, 2);
}
END_TEST

/* Comparisons that flip in the middle of long runs, under MOD: random
 * thresholds and periods, three runs of up to 301 letters. */
START_TEST(runs_mod_thresholds)
{
	static const unsigned lens[] = {1, 37, 150, 301};
	Sym alpha[2] = {letter("a"), letter("b")};
	Rng rng;
	rng_seed(&rng, 0x5e1f0300u);
	unsigned nf = test_count(40);
	for (unsigned i = 0; i < nf; i++) {
		unsigned p = 2 + rng_below(&rng, 4), q = 2 + rng_below(&rng, 3);
		char text[300];
		snprintf(text, sizeof text,
			 "#[MOD(%u, %u) & %u*#[Q_a] - %u*#[MOD(%u, %u) | Q_b] > %u] "
			 "%s %u | Y (min(#[Q_b], %u) = %u)",
			 p, rng_below(&rng, p), 1 + rng_below(&rng, 3),
			 1 + rng_below(&rng, 3), q, rng_below(&rng, q),
			 rng_below(&rng, 120), rng_below(&rng, 2) ? ">=" : "=",
			 rng_below(&rng, 90), 20 + rng_below(&rng, 200),
			 rng_below(&rng, 200));
		Node f = parse(text);
		RunEval *re = runeval_new(s, &f, 1, ACCEPT_LAST);
		Evaluator *ev = eval_new(s, &f, 1, ACCEPT_LAST);
		unsigned d[3];
		memset(d, 0, sizeof d);
		do {
			Runs w;
			runs_init(&w);
			for (size_t j = 0; j < 3; j++)
				runs_push_ui(&w, alpha[j % 2], lens[d[j]]);
			size_t n;
			Sym *word = runs_expand(&w, 1000, &n);
			bool x, y;
			char *err;
			if (!runeval_word(re, &w, &x, &err))
				ck_abort_msg("%s", err);
			eval_word(ev, word, n, &y);
			if (x != y) {
				char *t = text_of(&w);
				ck_abort_msg("%s on %s: runs %d, letters %d", text,
					     t, x, y);
			}
			free(word);
			runs_clear(&w);
		} while (fixture_next_word(d, 3, 4));
		runeval_free(re);
		eval_free(ev);
	}
}
END_TEST

/* One verdict on a word given in text form. */
static bool runs_verdict(const char *formula, const char *word, const char *letters)
{
	Node f = parse(formula);
	Alphabet a;
	alphabet_init(&a, s, &f, 1, letters);
	Runs w;
	runs_init(&w);
	char *err;
	ck_assert_msg(runs_parse(word, strlen(word), &a, &w, &err), "%s", err);
	RunEval *re = runeval_new(s, &f, 1, ACCEPT_LAST);
	bool acc;
	ck_assert_msg(runeval_word(re, &w, &acc, &err), "%s", err);
	runeval_free(re);
	runs_clear(&w);
	alphabet_free(&a);
	return acc;
}

START_TEST(huge_runs)
{
	const char *big = "100000000000000000001*#[Q_a] > 100000000000000000000*#[true]";
	/* At the b of a^k b: (10^20+1) k > 10^20 (k+1) iff k > 10^20. */
	ck_assert(!runs_verdict(big, "a^100000000000000000000 b", "ab"));
	ck_assert(runs_verdict(big, "a^100000000000000000001 b", "ab"));
	ck_assert(!runs_verdict("#[Q_b] = 0 & #[Q_a] >= 1",
				"a^100000000000000000001 b", "ab"));
	const char *n = "1000000000000000000000000000000";
	char w[200];
	snprintf(w, sizeof w, "(^%s )^%s", n, n);
	ck_assert(runs_verdict("dyck1", w, NULL));
	snprintf(w, sizeof w, "(^%s )^%s (", n, n);
	ck_assert(!runs_verdict("dyck1", w, NULL));
	snprintf(w, sizeof w, "(^%s )^%s ) (", n, n);
	ck_assert(!runs_verdict("dyck1", w, NULL));
	ck_assert(runs_verdict("L_3", "a^99999999999999999999 b^7 a^123456789012345678901234567890", NULL));
	ck_assert(!runs_verdict("L_3", "a^99999999999999999999 b^7 a^5 b", NULL));
	ck_assert(runs_verdict("Y Q_a & Q_b", "a^100000000000000000000 b", NULL));
	ck_assert(!runs_verdict("Y Q_a & Q_b", "a^100000000000000000000 b^2", NULL));
	/* MOD under counts: whole periods jumped. */
	ck_assert(runs_verdict("#[MOD(3,1) & #[Q_a & MOD(2,0)] > 1000] = "
			       "33333333333333333333333",
			       "a^100000000000000000002000", NULL));
	ck_assert(!runs_verdict("#[MOD(3,1) & #[Q_a & MOD(2,0)] > 1000] = "
				"33333333333333333333333",
				"a^100000000000000000002003", NULL));
	ck_assert(runs_verdict("MOD(2,0) & #[MOD(3,1)] > 2",
			       "a^100000000000000000000000000", "a"));
	/* min/max and ?: switching inside one run. */
	ck_assert(runs_verdict("min(#[Q_a], 1000000000000 - #[Q_a]) = 7",
			       "a^999999999993", "a"));
	ck_assert(!runs_verdict("min(#[Q_a], 1000000000000 - #[Q_a]) = 7",
				"a^999999999994", "a"));
	ck_assert(runs_verdict("#[(#[Q_a] > 10 ? #[Q_a] : 0) >= 11] = 90",
			       "a^100", "a"));
}
END_TEST

START_TEST(runs_text)
{
	Node f = parse("Q_a | Q_b | Q_open");
	Alphabet a;
	alphabet_init(&a, s, &f, 1, NULL);
	Runs w;
	runs_init(&w);
	char *err, *t;
	ck_assert(runs_parse("a^3 b", 5, &a, &w, &err));
	t = runs_format(&w, a.syms, 10);
	ck_assert_str_eq(t, "aaab");
	free(t);
	t = runs_format(&w, a.syms, 3);
	ck_assert_str_eq(t, "a^3 b");
	free(t);
	ck_assert(runs_parse("ab^2 open^2 a", 13, &a, &w, &err));
	t = runs_format(&w, a.syms, 100);
	ck_assert_str_eq(t, "a b b open open a");
	free(t);
	ck_assert(runs_parse("", 0, &a, &w, &err));
	ck_assert_uint_eq(w.n, 0);
	const char *bad[] = {"a^0", "x", "a^", "^3", "a^3x", "a^-1"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		ck_assert_msg(!runs_parse(bad[i], strlen(bad[i]), &a, &w, &err),
			      "%s parsed", bad[i]);
		free(err);
	}
	runs_clear(&w);
	alphabet_free(&a);
}
END_TEST

/* The engine of equiv and check (decision.h) on f and g over {a, b}:
 * asked is "auto" or a method's name. */
static void decide_pair(Decision *d, const char *asked, Node f, Node g,
			const Sym *alpha)
{
	Limits none;
	limit_init(&none);
	decision_start(d, asked, &none, 0, 0);
	Query q;
	query_init(&q, f, g, alpha, 2, ACCEPT_LAST, 0);
	q.limits = &d->lim;
	decision_run(d, &q);
}

START_TEST(decision_engine)
{
	Sym alpha[2] = {letter("a"), letter("b")};
	Node f = parse("#[Q_a] >= 2"), g = parse("#[Q_a] >= 1");
	Decision d;
	/* One node: equal by hash-consing, no method run. */
	decide_pair(&d, "auto", f, f, alpha);
	ck_assert_str_eq(d.method, "normalisation");
	ck_assert_int_eq(d.res.status, MR_EQUIVALENT);
	ck_assert_int_eq(d.check, DECISION_SOUND);
	decision_free(&d);
	/* Whichever method separates them, the witness is the shortlex
	 * first one, re-checked: g accepts it. */
	const char *asked[] = {"auto", "presburger", "explore"};
	for (size_t i = 0; i < 3; i++) {
		decide_pair(&d, asked[i], f, g, alpha);
		ck_assert_int_eq(d.res.status, MR_DIFFERENT);
		ck_assert_int_eq(d.check, DECISION_SOUND);
		ck_assert(d.res.witness_shortest);
		ck_assert(!d.accepted_by_first);
		char *t = text_of(&d.res.witness);
		ck_assert_str_eq(t, "a");
		free(t);
		decision_free(&d);
	}
	/* A false proof is caught by the evaluator, with the word. */
	setenv("TALLY_INJECT_PROOF", "1", 1);
	decide_pair(&d, "explore", f, g, alpha);
	unsetenv("TALLY_INJECT_PROOF");
	ck_assert_int_eq(d.check, DECISION_FALSE_PROOF);
	char *t = text_of(&d.fault_word);
	ck_assert_str_eq(t, "a");
	free(t);
	decision_free(&d);
	ck_assert(decision_method_exists("chc"));
	ck_assert(!decision_method_exists("auto"));
}
END_TEST

/* ---- the portfolio's processes (portfolio.h) ---------------------------------- */

static void nap(double seconds)
{
	struct timespec ts = {(time_t)seconds,
			      (long)((seconds - (double)(time_t)seconds) * 1e9)};
	nanosleep(&ts, NULL);
}

/* Fake methods: what an arm sends must arrive whole, a dead or endless
 * arm must be told apart from one that answered. */
static void arm_slow_unknown(const Query *q, MethodResult *out)
{
	(void)q;
	nap(0.2);
	out->status = MR_UNKNOWN;
	out->reason = xstrdup("slow and unsure");
	out->states = 7;
}

static void arm_different(const Query *q, MethodResult *out)
{
	(void)q;
	fmpz_t big;
	fmpz_init(big);
	fmpz_set_str(big, "1000000000000000000000000000001", 10);
	runs_push(&out->witness, letter("a"), big);
	runs_push_ui(&out->witness, letter("b"), 3);
	fmpz_clear(big);
	out->status = MR_DIFFERENT;
	out->witness_shortest = true;
	out->bound = 41;
	out->certificate = xstrdup("line 1\nline 2\n");
}

static void arm_dies(const Query *q, MethodResult *out)
{
	(void)q;
	(void)out;
	_exit(3);
}

static void arm_endless(const Query *q, MethodResult *out)
{
	(void)q;
	(void)out;
	for (;;)
		nap(1);
}

START_TEST(portfolio_arms)
{
	Sym alpha[2] = {letter("a"), letter("b")};
	Node f = parse("#[Q_a] >= 2");
	Query q;
	query_init(&q, f, f, alpha, 2, ACCEPT_LAST, 0);
	double now = limit_now();
	PortfolioArm arms[] = {
		{"slow", arm_slow_unknown, 0, 0},
		{"dies", arm_dies, 0, 0},
		{"endless", arm_endless, 0, now + 0.1},
		{"different", arm_different, 0, 0},
	};
	ArmOutcome out[4];
	portfolio_run(&q, arms, 4, out);
	/* The earlier row was waited for and answered; its reason came
	 * back. */
	ck_assert_int_eq(out[0].state, ARM_ANSWERED);
	ck_assert_int_eq(out[0].res.status, MR_UNKNOWN);
	ck_assert_str_eq(out[0].res.reason, "slow and unsure");
	ck_assert_uint_eq(out[0].res.states, 7);
	ck_assert_int_eq(out[1].state, ARM_FAILED);
	ck_assert_ptr_nonnull(strstr(out[1].failure, "status 3"));
	/* killed at its end plus the grace, or cancelled once every other
	 * arm had answered: never an answer */
	ck_assert(out[2].state == ARM_STOPPED || out[2].state == ARM_CANCELLED);
	ck_assert_int_eq(out[3].state, ARM_ANSWERED);
	const MethodResult *r = &out[3].res;
	ck_assert_int_eq(r->status, MR_DIFFERENT);
	ck_assert(r->witness_shortest);
	ck_assert_uint_eq(r->bound, 41);
	ck_assert_str_eq(r->certificate, "line 1\nline 2\n");
	ck_assert_ptr_null(r->reason);
	ck_assert_uint_eq(r->witness.n, 2);
	ck_assert_uint_eq(r->witness.letter[0], letter("a"));
	char *c = fmpz_get_str(NULL, 10, r->witness.count);
	ck_assert_str_eq(c, "1000000000000000000000000000001");
	flint_free(c);
	ck_assert(fmpz_equal_ui(r->witness.count + 1, 3));
	for (size_t i = 0; i < 4; i++)
		arm_outcome_free(&out[i]);
}
END_TEST

Suite *decide_suite(void)
{
	Suite *su = suite_create("decide");
	TCase *tc = tcase_create("explore");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600 * test_multiplier());
	tcase_add_loop_test(tc, explore_past, 0, 2);
	tcase_add_loop_test(tc, explore_future, 0, 1);
	tcase_add_test(tc, explore_bound_of_witness);
	tcase_add_test(tc, lk_shortest);
	tcase_add_test(tc, dyck_pair_bounded);
	tcase_add_test(tc, exhaustion_and_limits);
	tcase_add_test(tc, machine_state_merging);
	tcase_add_test(tc, decision_engine);
	tcase_add_test(tc, portfolio_arms);
	suite_add_tcase(su, tc);
	tc = tcase_create("runs");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600 * test_multiplier());
	tcase_add_loop_test(tc, runs_past, 0, 2);
	tcase_add_loop_test(tc, runs_future, 0, 1);
	tcase_add_loop_test(tc, runs_mod, 0, 2);
	tcase_add_test(tc, runs_mod_thresholds);
	tcase_add_test(tc, huge_runs);
	tcase_add_test(tc, runs_text);
	suite_add_tcase(su, tc);
	return su;
}
