/* check_methods.c -- the exact decision methods (presburger, unary, mona,
 * chc) against independent answers: brute force with the naive reference
 * evaluator over all words up to a length (shortest separating word),
 * explore (merged states) up to length 6, each other (mona against
 * presburger and unary), the streaming evaluator on every witness, and
 * hand-derived verdicts for the pairs of the issue (huge coefficients,
 * majority, Dyck-1).
 *
 * TALLY_TEST_MULTIPLIER=N (check-heavy) runs N times as many random
 * pairs. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/chc.h"
#include "machine/eval.h"
#include "decide/explore.h"
#include "fixture.h"
#include "base/mem.h"
#include "decide/method.h"
#include "decide/mona.h"
#include "decide/presburger.h"
#include "core/print.h"
#include "randgen.h"
#include "decide/unary.h"
#include "ref_eval.h"
#include "suites.h"

FIXTURE_PER_TEST

static Node parse(const char *text)
{
	return fixture_must_parse(&fx, text);
}

static Sym letter(const char *name)
{
	return fixture_letter(&fx, name);
}

/* (a & b) | (a & !b): equivalent to a, but not the same node (the store
 * does not apply distributivity), so the methods have something to prove. */
static Node same_as(Node a, Node b)
{
	return store_make_or2(s, store_make_and2(s, a, b),
			      store_make_and2(s, a, store_make_not(s, b)));
}

static int cmp_sym(const void *a, const void *b)
{
	Sym x = *(const Sym *)a, y = *(const Sym *)b;
	return x < y ? -1 : x > y;
}

/* The alphabet of a query: the letters both sides mention plus extra,
 * sorted and distinct, into alpha (room for 16). */
static size_t alphabet(Node a, Node b, const Sym *extra, size_t nextra,
		       Sym *alpha)
{
	size_t n = 0, na, nb;
	Sym *la = store_letters(s, a, &na), *lb = store_letters(s, b, &nb);
	for (size_t i = 0; i < na; i++)
		alpha[n++] = la[i];
	for (size_t i = 0; i < nb; i++)
		alpha[n++] = lb[i];
	for (size_t i = 0; i < nextra; i++)
		alpha[n++] = extra[i];
	free(la);
	free(lb);
	qsort(alpha, n, sizeof *alpha, cmp_sym);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (m == 0 || alpha[m - 1] != alpha[i])
			alpha[m++] = alpha[i];
	return m;
}

static Query query(Node a, Node b, const Sym *alpha, size_t nl, AcceptAt acc)
{
	Query q = { .store = s, .alphabet = alpha, .nletters = nl,
		    .accept = acc, .timeout = 30 };
	q.root[0] = a;
	q.root[1] = b;
	return q;
}

/* The length of a shortest word of length <= maxlen on which the naive
 * reference evaluator separates the sides, or -1. */
static long brute_shortest(const Query *q, size_t maxlen)
{
	Sym w[64];
	unsigned digits[64];
	for (size_t n = 0; n <= maxlen; n++) {
		memset(digits, 0, sizeof digits);
		do {
			for (size_t i = 0; i < n; i++)
				w[i] = q->alphabet[digits[i]];
			bool eos = q->accept == ACCEPT_EOS;
			if (ref_accepts(s, q->root[0], w, n, eos) !=
			    ref_accepts(s, q->root[1], w, n, eos))
				return (long)n;
		} while (n > 0 && q->nletters > 0 &&
			 fixture_next_word(digits, n, (unsigned)q->nletters));
		if (q->nletters == 0)
			break;
	}
	return -1;
}

/* The witness spelled out (it must be at most max letters long). */
static Sym *expand(const Runs *r, size_t max, size_t *n)
{
	fmpz_t len;
	fmpz_init(len);
	runs_length(r, len);
	ck_assert(fmpz_cmp_ui(len, max) <= 0);
	Sym *w = malloc((fmpz_get_ui(len) + 1) * sizeof *w);
	*n = 0;
	for (size_t i = 0; i < r->n; i++)
		for (ulong k = 0; k < fmpz_get_ui(r->count + i); k++)
			w[(*n)++] = r->letter[i];
	fmpz_clear(len);
	return w;
}

/* The streaming/column evaluator (not the method) separates the sides
 * on the witness. */
static void check_witness(const Query *q, const Runs *r, const char *what)
{
	size_t n;
	Sym *w = expand(r, 100000, &n);
	Evaluator *ev = eval_new(s, q->root, 2, q->accept);
	bool acc[2];
	eval_word(ev, w, n, acc);
	ck_assert_msg(acc[0] != acc[1], "%s: the witness (length %zu) does "
		      "not separate", what, n);
	eval_free(ev);
	free(w);
}

/* Runs method f on q and compares with brute force up to maxlen: same
 * verdict where brute force can tell, a separating witness, a shortest
 * one when the method says so. */
static MethodStatus against_brute(MethodFn f, const Query *q, size_t maxlen)
{
	MethodResult r;
	method_result_init(&r);
	f(q, &r);
	long b = brute_shortest(q, maxlen);
	char *t0 = tl_print(s, q->root[0], SYNTAX_TL, NULL);
	char *t1 = tl_print(s, q->root[1], SYNTAX_TL, NULL);
	MethodStatus st = r.status;
	if (st == MR_EQUIVALENT)
		ck_assert_msg(b < 0, "%s vs %s: equivalent, but differ at "
			      "length %ld", t0, t1, b);
	if (st == MR_DIFFERENT) {
		fmpz_t len;
		fmpz_init(len);
		runs_length(&r.witness, len);
		if (fmpz_cmp_ui(len, 100000) <= 0) {
			char *what = xmalloc(strlen(t0) + strlen(t1) + 16);
			sprintf(what, "%s vs %s%s", t0, t1,
				q->accept == ACCEPT_EOS ? " (eos)" : "");
			check_witness(q, &r.witness, what);
			free(what);
		}
		if (r.witness_shortest && b >= 0)
			ck_assert_msg(fmpz_cmp_si(len, b) == 0,
				      "%s vs %s: witness length %s, brute "
				      "force %ld", t0, t1,
				      fmpz_get_str(NULL, 10, len), b);
		if (r.witness_shortest && b < 0)
			ck_assert(fmpz_cmp_ui(len, maxlen) > 0);
		fmpz_clear(len);
	}
	free(t0);
	free(t1);
	method_result_free(&r);
	return st;
}

/* Method f against explore (every word up to length 6, merged states):
 * a separating word of length <= 6 from either must be met by the other
 * with the same length (both are shortest); "equivalent" from f must not
 * meet a counterexample. */
static void against_explore(MethodFn f, const Query *q)
{
	MethodResult r, e;
	method_result_init(&r);
	method_result_init(&e);
	f(q, &r);
	Query qe = *q;
	qe.max_length = 6;
	explore_decide(&qe, &e);
	fmpz_t lr, le;
	fmpz_init(lr);
	fmpz_init(le);
	runs_length(&r.witness, lr);
	runs_length(&e.witness, le);
	if (e.status == MR_DIFFERENT && r.status != MR_UNKNOWN &&
	    r.status != MR_LIMIT)
		ck_assert(r.status == MR_DIFFERENT && fmpz_equal(lr, le));
	if (r.status == MR_DIFFERENT && r.witness_shortest &&
	    fmpz_cmp_ui(lr, 6) <= 0)
		ck_assert(e.status == MR_DIFFERENT && fmpz_equal(lr, le));
	if (r.status == MR_EQUIVALENT)
		ck_assert(e.status != MR_DIFFERENT);
	fmpz_clear(lr);
	fmpz_clear(le);
	method_result_free(&r);
	method_result_free(&e);
}

/* A random test proves little unless both verdicts occur often. */
static void both_verdicts(const unsigned *seen, unsigned n)
{
	if (test_scaled_down())
		return;
	ck_assert_uint_gt(seen[MR_EQUIVALENT], n / 8);
	ck_assert_uint_gt(seen[MR_DIFFERENT], n / 8);
}

START_TEST(test_presburger_majority)
{
	Node a = parse("#[Q_b] < #[Q_a]"), b = parse("2*#[Q_a] > #[true]");
	Sym alpha[16];
	size_t nl = alphabet(a, b, NULL, 0, alpha);
	Query q = query(a, b, alpha, nl, ACCEPT_LAST);
	q.want_certificate = true;
	MethodResult r;
	method_result_init(&r);
	presburger_decide(&q, &r);
	ck_assert_int_eq(r.status, MR_EQUIVALENT);
	ck_assert_ptr_nonnull(r.certificate);
	ck_assert_ptr_nonnull(strstr(r.certificate, "last letter a"));
	method_result_free(&r);
}
END_TEST

/* The pair: the sides agree below length 10^20 + 2.  The first
 * holds iff #a > 10^20 #b, the second iff #b = 0 and #a >= 1; so a
 * shortest separating word has #b = 1 and #a = 10^20 + 1. */
START_TEST(test_presburger_big_coefficients)
{
	Node a = parse("100000000000000000001*#[Q_a] > "
		       "100000000000000000000*#[true]");
	Node b = parse("#[Q_b] = 0 & #[Q_a] >= 1");
	Sym alpha[16];
	size_t nl = alphabet(a, b, NULL, 0, alpha);
	Query q = query(a, b, alpha, nl, ACCEPT_LAST);
	MethodResult r;
	method_result_init(&r);
	presburger_decide(&q, &r);
	ck_assert_int_eq(r.status, MR_DIFFERENT);
	ck_assert(r.witness_shortest);
	fmpz_t len, na, nb, want;
	fmpz_init(len);
	fmpz_init(na);
	fmpz_init(nb);
	fmpz_init(want);
	runs_length(&r.witness, len);
	fmpz_set_str(want, "100000000000000000002", 10);
	ck_assert(fmpz_equal(len, want));
	for (size_t i = 0; i < r.witness.n; i++)
		fmpz_add(r.witness.letter[i] == letter("a") ? na : nb,
			 r.witness.letter[i] == letter("a") ? na : nb,
			 r.witness.count + i);
	ck_assert(fmpz_is_one(nb));
	fmpz_set_str(want, "100000000000000000001", 10);
	ck_assert(fmpz_equal(na, want));
	fmpz_clear(len);
	fmpz_clear(na);
	fmpz_clear(nb);
	fmpz_clear(want);
	method_result_free(&r);
}
END_TEST

/* A pair on which Z3's optimiser needs seconds (the length is then
 * minimised by binary search): shortest word ba, by brute force. */
START_TEST(test_presburger_hard_optimum)
{
	Node a = parse("1000000000000000000001*#[Q_a] > "
		       "100000000000000000000*#[true] | "
		       "#[Q_b] = 0 & #[Q_a] >= 1");
	Node b = parse("#[Q_a] > 100000000000000000000*#[Q_b]");
	Sym alpha[16];
	size_t nl = alphabet(a, b, NULL, 0, alpha);
	Query q = query(a, b, alpha, nl, ACCEPT_LAST);
	ck_assert_int_eq(against_brute(presburger_decide, &q, 4),
			 MR_DIFFERENT);
}
END_TEST

START_TEST(test_presburger_refuses_depth2)
{
	Node a = parse("#['('] = #[')'] & #[#['('] < #[')']] = 0");
	Sym alpha[16];
	size_t nl = alphabet(a, a, NULL, 0, alpha);
	Query q = query(a, parse("true"), alpha, nl, ACCEPT_LAST);
	MethodResult r;
	method_result_init(&r);
	presburger_decide(&q, &r);
	ck_assert_int_eq(r.status, MR_NOT_APPLICABLE);
	ck_assert_ptr_nonnull(r.reason);
	method_result_free(&r);
}
END_TEST

/* A letter neither side tests still makes words (the alphabet is an
 * input of the query): #[true] = #[Q_a] holds on a* only. */
START_TEST(test_presburger_extra_letter)
{
	Node a = parse("#[true] = #[Q_a]"), b = parse("true");
	Sym extra = letter("b"), alpha[16];
	size_t nl = alphabet(a, b, &extra, 1, alpha);
	Query q = query(a, b, alpha, nl, ACCEPT_LAST);
	ck_assert_int_eq(against_brute(presburger_decide, &q, 4),
			 MR_DIFFERENT);
}
END_TEST

/* Random pairs of depth <= 1 (with ?:, min, max, subtraction and huge
 * constants): presburger agrees with brute force over all words of
 * length <= 7, its witnesses separate, and are shortest.  Half the pairs
 * are (f, f | (g & !g)) rewrites that the store does not fold. */
START_TEST(test_presburger_random)
{
	Sym alpha[3] = { letter("a"), letter("b"), letter("c") };
	GenOptions o = { .letters = alpha, .nletters = 2, .max_depth = 1,
			 .max_size = 12, .extended = true };
	Rng rng;
	rng_seed(&rng, 7001);
	unsigned n = test_count(60), seen[MR_NOT_APPLICABLE + 1] = { 0 };
	for (unsigned i = 0; i < n; i++) {
		Node a = randgen_formula(s, &rng, &o);
		Node b = randgen_formula(s, &rng, &o);
		if (i % 2) {
			Node g = randgen_formula(s, &rng, &o);
			Node k[2] = { a, store_make_and2(s, g,
						store_make_not(s, g)) };
			b = store_make_or(s, k, 2);
			b = store_make_or2(s, store_make_and2(s, b, g),
					   store_make_and2(s, a,
						store_make_not(s, g)));
		}
		Sym al[16];
		size_t nl = alphabet(a, b, alpha + 2, i % 3 == 0, al);
		Query q = query(a, b, al, nl,
				i % 4 == 3 ? ACCEPT_EOS : ACCEPT_LAST);
		MethodStatus st = against_brute(presburger_decide, &q,
						nl > 2 ? 5 : 7);
		against_explore(presburger_decide, &q);
		ck_assert(st == MR_EQUIVALENT || st == MR_DIFFERENT);
		seen[st]++;
	}
	both_verdicts(seen, n);
}
END_TEST

/* Hand-made one-letter pairs: long shortest witnesses (exact lengths
 * derived by hand), periodic equivalences with MOD and Y. */
START_TEST(test_unary_cases)
{
	static const struct {
		const char *a, *b, *len; /* len NULL: equivalent */
	} cases[] = {
		{ "#[true] >= 100000000000000000000", "false",
		  "100000000000000000000" },
		{ "MOD(2, 0) & #[true] >= 1",
		  "#[MOD(2, 1)] = #[MOD(2, 0)] & #[true] >= 1", NULL },
		{ "Y Q_a", "#[true] >= 2", NULL },
		{ "Y Y Q_a & !MOD(3, 1)", "#[true] >= 3 & !MOD(3, 1)", NULL },
		{ "3*#[MOD(3, 0)] <= #[true]", "true", NULL },
		{ "#[#[true] >= 1000] = 7", "false", "1006" },
		{ "min(#[true], 500) = 500 & max(#[MOD(2,0)], 9) > 9", "false",
		  "500" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		Node a = parse(cases[i].a), b = parse(cases[i].b);
		Sym alpha[1] = { letter("a") };
		Query q = query(a, b, alpha, 1, ACCEPT_LAST);
		MethodResult r;
		method_result_init(&r);
		unary_decide(&q, &r);
		ck_assert_msg(r.status == (cases[i].len ? MR_DIFFERENT
							: MR_EQUIVALENT),
			      "%s vs %s: status %d", cases[i].a, cases[i].b,
			      r.status);
		if (cases[i].len) {
			fmpz_t len, want;
			fmpz_init(len);
			fmpz_init(want);
			runs_length(&r.witness, len);
			fmpz_set_str(want, cases[i].len, 10);
			ck_assert_msg(fmpz_equal(len, want), "%s: length %s",
				      cases[i].a, fmpz_get_str(NULL, 10, len));
			fmpz_clear(len);
			fmpz_clear(want);
		}
		method_result_free(&r);
	}
}
END_TEST

/* Random one-letter pairs of depth <= 3 with Y, MOD, ?:, min, max and
 * huge constants: unary agrees with brute force over a^0 .. a^40. */
START_TEST(test_unary_random)
{
	Sym alpha[1] = { letter("a") };
	GenOptions o = { .letters = alpha, .nletters = 1, .max_depth = 3,
			 .max_size = 14, .positional = true, .extended = true };
	Rng rng;
	rng_seed(&rng, 7002);
	unsigned n = test_count(80), seen[MR_NOT_APPLICABLE + 1] = { 0 };
	for (unsigned i = 0; i < n; i++) {
		Node a = randgen_formula(s, &rng, &o);
		Node b = randgen_formula(s, &rng, &o);
		if (i % 2)
			b = same_as(a, b);
		Query q = query(a, b, alpha, 1, ACCEPT_LAST);
		MethodStatus st = against_brute(unary_decide, &q, 40);
		against_explore(unary_decide, &q);
		ck_assert(st == MR_EQUIVALENT || st == MR_DIFFERENT ||
			  st == MR_NOT_APPLICABLE);
		seen[st]++;
	}
	both_verdicts(seen, n);
}
END_TEST

static const char *dyck_a = "#['('] = #[')'] & #[#['('] < #[')']] = 0";
static const char *dyck_b =
	"#['('] = #[')'] & #[')' & #[')'] = #['('] + 1] = 0";

/* decide.md's Dyck-1 pair: proved for every length, with an invariant
 * that chc re-checked (initiation, consecution, safety) before
 * answering, printed with columns named by subformulas. */
START_TEST(test_chc_dyck)
{
	Node a = parse(dyck_a), b = parse(dyck_b);
	Sym alpha[16];
	size_t nl = alphabet(a, b, NULL, 0, alpha);
	for (int acc = 0; acc < 2; acc++) {
		Query q = query(a, b, alpha, nl, (AcceptAt)acc);
		q.want_certificate = true;
		MethodResult r;
		method_result_init(&r);
		chc_decide(&q, &r);
		ck_assert_msg(r.status == MR_EQUIVALENT, "%s",
			      r.reason ? r.reason : "");
		ck_assert_ptr_nonnull(strstr(r.certificate,
					     "#[#['('] < #[')']]"));
		ck_assert_ptr_nonnull(strstr(r.certificate, "invariant:"));
		method_result_free(&r);
	}
}
END_TEST

/* Not equivalent: never "equivalent"; Spacer's reachable difference is
 * only a hint (explore finds the word). */
START_TEST(test_chc_different)
{
	static const char *pairs[][2] = {
		{ "#[Q_a & #[Q_b] >= 1] >= 1", "#[Q_b & #[Q_a] >= 1] >= 1" },
		{ "Y Q_a", "Q_a" },
		{ "MOD(2, 0)", "true" },
	};
	for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
		Node a = parse(pairs[i][0]), b = parse(pairs[i][1]);
		Sym alpha[16], extra = letter("b");
		size_t nl = alphabet(a, b, &extra, 1, alpha);
		Query q = query(a, b, alpha, nl, ACCEPT_LAST);
		MethodResult r;
		method_result_init(&r);
		chc_decide(&q, &r);
		ck_assert_msg(r.status == MR_UNKNOWN ||
			      r.status == MR_DIFFERENT, "%s", pairs[i][0]);
		method_result_free(&r);
	}
}
END_TEST

START_TEST(test_chc_refuses_future)
{
	Node a = parse("#>[Q_a] = 1"), b = parse("Q_a");
	Sym alpha[16];
	size_t nl = alphabet(a, b, NULL, 0, alpha);
	Query q = query(a, b, alpha, nl, ACCEPT_LAST);
	MethodResult r;
	method_result_init(&r);
	chc_decide(&q, &r);
	ck_assert_int_eq(r.status, MR_NOT_APPLICABLE);
	ck_assert_ptr_nonnull(strstr(r.reason, "#>"));
	method_result_free(&r);
}
END_TEST

/* Random past-only pairs of depth <= 2 (Y, MOD included): chc is sound
 * (no "equivalent" where brute force separates the sides up to length
 * 6) and proves some of the (f, rewritten f) pairs. */
START_TEST(test_chc_random)
{
	Sym alpha[2] = { letter("a"), letter("b") };
	GenOptions o = { .letters = alpha, .nletters = 2, .max_depth = 2,
			 .max_size = 8, .positional = true };
	Rng rng;
	rng_seed(&rng, 7003);
	unsigned n = test_count(24), seen[MR_NOT_APPLICABLE + 1] = { 0 };
	for (unsigned i = 0; i < n; i++) {
		Node a = randgen_formula(s, &rng, &o);
		Node b = randgen_formula(s, &rng, &o);
		if (i % 2)
			b = same_as(a, b);
		Sym al[16];
		size_t nl = alphabet(a, b, alpha, 2, al);
		Query q = query(a, b, al, nl,
				i % 4 == 3 ? ACCEPT_EOS : ACCEPT_LAST);
		q.timeout = 2;
		MethodStatus st = against_brute(chc_decide, &q, 6);
		against_explore(chc_decide, &q);
		seen[st]++;
	}
	ck_assert(seen[MR_EQUIVALENT] > n / 4 || test_scaled_down());
}
END_TEST

/* A random formula of the threshold fragment: letters, !, &, |, Y, MOD
 * and comparisons c*#[phi] + k REL 0 (#> too when future). */
static Node gen_threshold(Rng *r, unsigned depth, const Sym *al, size_t nl,
			  bool future)
{
	switch (rng_below(r, depth ? 7 : 3)) {
	case 0:
	case 1: return store_make_letter(s, al[rng_below(r, (uint32_t)nl)]);
	case 2: return store_make_mod(s, 1 + rng_below(r, 3), rng_below(r, 3));
	case 3:
		return store_make_not(s, gen_threshold(r, depth, al, nl,
						       future));
	case 4: {
		Node a = gen_threshold(r, depth - 1, al, nl, future);
		Node b = gen_threshold(r, depth - 1, al, nl, future);
		return rng_below(r, 2) ? store_make_and2(s, a, b)
				       : store_make_or2(s, a, b);
	}
	case 5:
		return store_make_prev(s, gen_threshold(r, depth - 1, al, nl,
							future));
	default: {
		Node phi = gen_threshold(r, depth - 1, al, nl, future);
		Node cnt = future && rng_below(r, 3) == 0
				   ? store_make_fcount(s, phi)
				   : store_make_count(s, phi);
		fmpz_t c;
		fmpz_init_set_si(c, (long)rng_below(r, 5) - 2);
		if (fmpz_is_zero(c))
			fmpz_one(c);
		Node t = store_make_scale(s, c, cnt);
		fmpz_clear(c);
		Node k = store_make_const_si(s, (long)rng_below(r, 9) - 4);
		return store_make_cmp(s, (Rel)rng_below(r, 6), t, k);
	}
	}
}

/* The fragment boundary, as mona.h states it. */
START_TEST(test_mona_fragment)
{
	const char *why;
	ck_assert(mona_in_fragment(s, parse("#[Q_a & #[Q_b] >= 2] < 3 | "
					    "Y MOD(2, 1)"), &why));
	ck_assert(mona_in_fragment(s, parse("2*#>[Q_a] != 3"), &why));
	ck_assert(!mona_in_fragment(s, parse("#[Q_a] < #[Q_b]"), &why));
	ck_assert(!mona_in_fragment(s, parse("min(#[Q_a], 2) = 2"), &why));
	ck_assert(!mona_in_fragment(s, parse("#[Q_a] >= 13"), &why));
	ck_assert(mona_in_fragment(s, parse("#[Q_a] >= 11"), &why));
}
END_TEST

/* Hand-checked pairs (future counts are inclusive). */
START_TEST(test_mona_cases)
{
	static const struct {
		const char *a, *b;
		long len; /* -1: equivalent */
	} cases[] = {
		{ "#>[Q_a] = 1", "Q_a", -1 },
		{ "#[Q_a & #>[Q_a] >= 2] >= 1", "#[Q_a] >= 2", -1 },
		{ "#[Q_a & #>[Q_a] >= 3] >= 1", "#[Q_a] >= 2", 2 },
		{ "#[Q_a] >= 11", "false", 11 },
		{ "#[#[Q_a] = 2] >= 4 & MOD(3, 0)", "false", 6 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		Node a = parse(cases[i].a), b = parse(cases[i].b);
		Sym alpha[16], extra = letter("b");
		size_t nl = alphabet(a, b, &extra, 1, alpha);
		Query q = query(a, b, alpha, nl, ACCEPT_LAST);
		MethodResult r;
		method_result_init(&r);
		mona_decide(&q, &r);
		ck_assert_msg(r.status == (cases[i].len < 0 ? MR_EQUIVALENT
							    : MR_DIFFERENT),
			      "%s: status %d", cases[i].a, r.status);
		if (cases[i].len >= 0) {
			fmpz_t len;
			fmpz_init(len);
			runs_length(&r.witness, len);
			ck_assert(fmpz_equal_si(len, cases[i].len));
			fmpz_clear(len);
		}
		method_result_free(&r);
	}
}
END_TEST

/* Random threshold pairs (depth <= 3, Y, MOD, #> on half of them, both
 * conventions): MONA agrees with brute force over all words of length
 * <= 6; its witnesses separate and are shortest. */
START_TEST(test_mona_random)
{
	Sym alpha[2] = { letter("a"), letter("b") };
	Rng rng;
	rng_seed(&rng, 7004);
	unsigned n = test_count(60), seen[MR_NOT_APPLICABLE + 1] = { 0 };
	for (unsigned i = 0; i < n; i++) {
		bool fut = i % 2;
		Node a = gen_threshold(&rng, 3, alpha, 2, fut);
		Node b = gen_threshold(&rng, 3, alpha, 2, fut);
		if (i % 3 == 0)
			b = same_as(a, b);
		Sym al[16];
		size_t nl = alphabet(a, b, alpha, 2, al);
		Query q = query(a, b, al, nl,
				i % 4 == 3 ? ACCEPT_EOS : ACCEPT_LAST);
		MethodStatus st = against_brute(mona_decide, &q, 6);
		against_explore(mona_decide, &q);
		ck_assert_msg(st == MR_EQUIVALENT || st == MR_DIFFERENT,
			      "status %d", st);
		seen[st]++;
	}
	both_verdicts(seen, n);
}
END_TEST

/* Two exact methods with shortest witnesses must give the same verdict
 * and the same witness length: mona against presburger on depth-1
 * threshold pairs and against unary on one-letter ones. */
START_TEST(test_mona_vs_exact)
{
	Sym alpha[2] = { letter("a"), letter("b") };
	Rng rng;
	rng_seed(&rng, 7005);
	for (unsigned i = 0; i < test_count(40); i++) {
		size_t nl0 = i % 2 ? 1 : 2;
		Node a = gen_threshold(&rng, nl0 == 1 ? 2 : 1, alpha, nl0,
				       false);
		Node b = gen_threshold(&rng, nl0 == 1 ? 2 : 1, alpha, nl0,
				       false);
		Sym al[16];
		size_t nl = alphabet(a, b, alpha, nl0, al);
		Query q = query(a, b, al, nl, ACCEPT_LAST);
		MethodFn other = nl0 == 1 ? unary_decide : presburger_decide;
		MethodResult r1, r2;
		method_result_init(&r1);
		method_result_init(&r2);
		mona_decide(&q, &r1);
		other(&q, &r2);
		if (r2.status == MR_NOT_APPLICABLE) { /* Y or MOD at depth 1 */
			method_result_free(&r1);
			method_result_free(&r2);
			continue;
		}
		ck_assert_int_eq(r1.status, r2.status);
		if (r1.status == MR_DIFFERENT) {
			fmpz_t l1, l2;
			fmpz_init(l1);
			fmpz_init(l2);
			runs_length(&r1.witness, l1);
			runs_length(&r2.witness, l2);
			ck_assert(fmpz_equal(l1, l2));
			fmpz_clear(l1);
			fmpz_clear(l2);
		}
		method_result_free(&r1);
		method_result_free(&r2);
	}
}
END_TEST

/* One test case per method, each with the fixture. */
static TCase *method_case(Suite *su, const char *name)
{
	TCase *tc = tcase_create(name);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 240);
	suite_add_tcase(su, tc);
	return tc;
}

Suite *methods_suite(void)
{
	Suite *su = suite_create("methods");
	TCase *tc = method_case(su, "presburger");
	tcase_add_test(tc, test_presburger_majority);
	tcase_add_test(tc, test_presburger_big_coefficients);
	tcase_add_test(tc, test_presburger_hard_optimum);
	tcase_add_test(tc, test_presburger_refuses_depth2);
	tcase_add_test(tc, test_presburger_extra_letter);
	tcase_add_test(tc, test_presburger_random);
	tc = method_case(su, "unary");
	tcase_add_test(tc, test_unary_cases);
	tcase_add_test(tc, test_unary_random);
	tc = method_case(su, "mona");
	tcase_add_test(tc, test_mona_fragment);
	tcase_add_test(tc, test_mona_cases);
	tcase_add_test(tc, test_mona_random);
	tcase_add_test(tc, test_mona_vs_exact);
	tc = method_case(su, "chc");
	tcase_add_test(tc, test_chc_dyck);
	tcase_add_test(tc, test_chc_different);
	tcase_add_test(tc, test_chc_refuses_future);
	tcase_add_test(tc, test_chc_random);
	return su;
}
