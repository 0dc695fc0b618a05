/* check_compile.c -- the compiler and the simulator (src/compile.c,
 * src/sim.c, src/fixed.c, src/model.c, src/breakdown.c) against
 * independent answers: tally's exact evaluator on every word up to a
 * length and on long random words (prelude formulas and random formulas
 * of depth <= 3), layers = depth, hand-computed roundings, hand-derived
 * breakdown lengths, and a tampered model that must be caught.
 *
 * TALLY_TEST_MULTIPLIER=N (check-heavy) runs N times as many random
 * formulas, on longer words. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transformer/breakdown.h"
#include "transformer/compile.h"
#include "machine/eval.h"
#include "transformer/fixed.h"
#include "fixture.h"
#include "transformer/model.h"
#include "core/print.h"
#include "randgen.h"
#include "transformer/sim.h"
#include "suites.h"

FIXTURE_PER_TEST

/* The sorted letters of root, or {a, b} when it has none. */
static Sym *letters_of(Node root, size_t *n)
{
	Sym *l = store_letters(s, root, n);
	if (*n == 0) {
		free(l);
		l = malloc(2 * sizeof *l);
		l[0] = fixture_letter(&fx, "a");
		l[1] = fixture_letter(&fx, "b");
		*n = 2;
	}
	return l;
}

/* Compiles with a positional encoding; layers = depth unless Y (or MOD
 * through RoPE) costs layers. */
static void compile_pe(Node root, const Sym *l, size_t nl, int p, int sc,
		       FfnKind ffn, PeKind pe, Model *m)
{
	unsigned f = store_flags(s, root);
	bool extra = (f & FLAG_PREV) || ((f & FLAG_MOD) && pe == PE_ROPE);
	CompileOptions o = {.p = p, .s = sc, .ffn = ffn, .pe = pe};
	CompileInfo info;
	char *err = NULL;
	char *text = tl_print(s, root, SYNTAX_TL, NULL);
	bool ok = compile_formula(s, root, l, nl, text, &o, m, &info, &err);
	ck_assert_msg(ok, "compile %s (--pe=%s): %s", text, pe_kind_name(pe),
		      err ? err : "");
	ck_assert_msg(extra ? m->nlayers >= store_depth(s, root)
			    : m->nlayers == store_depth(s, root),
		      "%s: %zu layers for depth %u", text, m->nlayers,
		      store_depth(s, root));
	free(text);
}

static void compile_ok(Node root, const Sym *l, size_t nl, int p, int sc,
		       FfnKind ffn, Model *m)
{
	bool y = store_flags(s, root) & FLAG_PREV;
	compile_pe(root, l, nl, p, sc, ffn, y ? PE_ALIBI : PE_NOPE, m);
}

/* A formula (or prelude name) compiled over its letters. */
typedef struct {
	Node root;
	Sym *l;
	size_t nl;
	Model m;
} Compiled;

static void compiled(Compiled *c, const char *text, int p, int sc, FfnKind ffn)
{
	c->root = fixture_must_parse(&fx, text);
	c->l = letters_of(c->root, &c->nl);
	compile_ok(c->root, c->l, c->nl, p, sc, ffn, &c->m);
}

static void compiled_free(Compiled *c)
{
	model_free(&c->m);
	free(c->l);
}

static char *word_text(const Model *m, const uint32_t *w, size_t n)
{
	Buf b = {0};
	buf_puts(&b, n ? "" : "(empty)");
	for (size_t i = 0; i < n; i++)
		buf_puts(&b, m->alphabet[w[i] - 1]);
	return buf_take(&b);
}

/* Every word up to maxlen (an odometer over tokens 1..nl): the simulator
 * under sem against eval_word.  Returns the first disagreeing length, or
 * -1. */
static long exhaustive(const Model *m, Node root, const Sym *l, size_t nl,
		       const Semantics *sem, size_t maxlen, bool fail)
{
	Sim *sim = sim_new(m, sem);
	Evaluator *ev = eval_new(s, &root, 1, ACCEPT_LAST);
	uint32_t w[32];
	Sym x[32];
	long bad = -1;
	for (size_t len = 0; len <= maxlen && bad < 0; len++) {
		for (size_t i = 0; i < len; i++)
			w[i] = 1;
		for (;;) {
			sim_reset(sim);
			for (size_t i = 0; i < len; i++) {
				sim_push(sim, w[i]);
				x[i] = l[w[i] - 1];
			}
			bool want;
			eval_word(ev, x, len, &want);
			if (sim_accepts(sim) != want) {
				char *f = tl_print(s, root, SYNTAX_TL, NULL);
				char *wt = word_text(m, w, len);
				if (fail)
					ck_abort_msg("%s on %s: transformer %d, "
						     "formula %d (%s)",
						     f, wt, !want, want,
						     semantics_name(sem));
				free(f);
				free(wt);
				bad = (long)len;
				break;
			}
			size_t i = len;
			while (i > 0 && ++w[i - 1] > nl)
				w[--i] = 1;
			if (i == 0)
				break;
		}
	}
	eval_free(ev);
	sim_free(sim);
	return bad;
}

/* k random words of length len, every prefix, kneedeep. */
static void random_words(const Model *m, Node root, const Sym *l, size_t nl,
			 size_t k, size_t len, uint64_t seed)
{
	Semantics kd = {.kind = SEM_KNEEDEEP};
	Sim *sim = sim_new(m, &kd);
	Evaluator *ev = eval_new(s, &root, 1, ACCEPT_LAST);
	Rng r;
	rng_seed(&r, seed);
	for (size_t j = 0; j < k; j++) {
		sim_reset(sim);
		eval_reset(ev);
		for (size_t i = 0; i < len; i++) {
			uint32_t t = 1 + rng_below(&r, (uint32_t)nl);
			sim_push(sim, t);
			eval_push(ev, l[t - 1]);
			if (sim_accepts(sim) != eval_accepts(ev, 0)) {
				char *f = tl_print(s, root, SYNTAX_TL, NULL);
				ck_abort_msg("%s: random word %zu (seed %llu) "
					     "disagrees at length %zu",
					     f, j, (unsigned long long)seed, i + 1);
			}
		}
	}
	eval_free(ev);
	sim_free(sim);
}

/* ---- the prelude -------------------------------------------------------- */

static const char *const prelude[] = {
	"dyck1", "majority", "anbn", "anbncn", "first_a", "contains_a",
	"contains_ab", "ends_a", "twice_b", "ab_star", "L_1", "L_2",
	"L_3", "L_4", "L_5",
};
enum { NPRELUDE = sizeof prelude / sizeof prelude[0] };

START_TEST(prelude_kneedeep)
{
	Node root = fixture_must_parse(&fx, prelude[_i]);
	size_t nl;
	Sym *l = letters_of(root, &nl);
	size_t maxlen = nl > 2 ? 7 : 10;
	Semantics kd = {.kind = SEM_KNEEDEEP};
	for (int f = 0; f < 2; f++) {
		Model m;
		compile_ok(root, l, nl, 16, f ? 4 : 8, f ? FFN_RELU : FFN_TABLE,
			   &m);
		exhaustive(&m, root, l, nl, &kd, f ? maxlen - 2 : maxlen, true);
		if (!f)
			random_words(&m, root, l, nl, 1, 2000, 7 + (uint64_t)_i);
		model_free(&m);
	}
	free(l);
}
END_TEST

/* The refused fragments. */
START_TEST(refusals)
{
	const char *bad[] = {"parity2", "factor_bb", "MOD(2, 0)"}; /* no --pe */
	for (size_t i = 0; i < 3; i++) {
		Node root = fixture_must_parse(&fx, bad[i]);
		size_t nl;
		Sym *l = letters_of(root, &nl);
		CompileOptions o = {.p = 16, .s = 8, .ffn = FFN_TABLE};
		CompileInfo info;
		Model m;
		char *err = NULL;
		ck_assert_msg(!compile_formula(s, root, l, nl, NULL, &o, &m,
					       &info, &err),
			      "%s compiled", bad[i]);
		ck_assert(err != NULL);
		free(err);
		free(l);
	}
	/* a coefficient too large for the precision */
	Node root = fixture_must_parse(&fx, "#[Q_a] < 1000*#[Q_b]");
	size_t nl;
	Sym *l = letters_of(root, &nl);
	CompileOptions o = {.p = 8, .s = 0, .ffn = FFN_TABLE};
	CompileInfo info;
	Model m;
	char *err = NULL;
	ck_assert(!compile_formula(s, root, l, nl, NULL, &o, &m, &info, &err));
	ck_assert_msg(strstr(err, "p >= 11"), "%s", err);
	free(err);
	free(l);
}
END_TEST

/* ---- random formulas of depth <= 3 ------------------------------------- */

START_TEST(random_formulas)
{
	Sym l[2] = {fixture_letter(&fx, "a"), fixture_letter(&fx, "b")};
	GenOptions go = {.letters = l, .nletters = 2, .max_depth = 3,
			 .max_size = 14};
	Rng r;
	rng_seed(&r, 1300 + (uint64_t)_i);
	Semantics kd = {.kind = SEM_KNEEDEEP};
	unsigned cases = 12 * test_multiplier();
	for (unsigned c = 0; c < cases; c++) {
		Node root = randgen_formula(s, &r, &go);
		Model m;
		FfnKind ffn = c % 3 == 2 ? FFN_RELU : FFN_TABLE;
		compile_ok(root, l, 2, 24, c % 2 ? 0 : 6, ffn, &m);
		exhaustive(&m, root, l, 2, &kd, test_multiplier() > 1 ? 12 : 8,
			   true);
		if (c % 4 == 0)
			random_words(&m, root, l, 2, 1,
				     test_multiplier() > 1 ? 10000 : 1000, c);
		model_free(&m);
	}
}
END_TEST

/* Y through ALiBi heads, T5 buckets and URPE, MOD through sinusoidal
 * features and RoPE: random positional formulas (Y-free ones for MOD,
 * MOD-free ones for Y) against the evaluator on every word up to length
 * 10 and on 1000-letter random words. */
START_TEST(random_pe)
{
	static const struct {
		PeKind pe;
		int p, s;
	} cfg[] = {{PE_ALIBI, 20, 4}, {PE_ALIBI, 24, 8}, {PE_T5, 24, 8},
		   {PE_URPE, 24, 8}, {PE_SINUSOIDAL, 24, 8}, {PE_ROPE, 24, 8}};
	PeKind pe = cfg[_i].pe;
	unsigned want = pe == PE_SINUSOIDAL || pe == PE_ROPE ? FLAG_MOD : FLAG_PREV;
	Sym l[2] = {fixture_letter(&fx, "a"), fixture_letter(&fx, "b")};
	GenOptions go = {.letters = l, .nletters = 2, .max_depth = 2,
			 .max_size = 12, .positional = true};
	Rng r;
	rng_seed(&r, 5100 + (uint64_t)_i);
	Semantics kd = {.kind = SEM_KNEEDEEP};
	unsigned done = 0, cases = 8 * test_multiplier();
	while (done < cases) {
		Node root = randgen_formula(s, &r, &go);
		unsigned f = store_flags(s, root);
		if ((f & (FLAG_PREV | FLAG_MOD)) != want)
			continue;
		Model m;
		compile_pe(root, l, 2, cfg[_i].p, cfg[_i].s,
			   done % 2 ? FFN_RELU : FFN_TABLE, pe, &m);
		exhaustive(&m, root, l, 2, &kd, test_multiplier() > 1 ? 12 : 10,
			   true);
		if (done % 2 == 0)
			random_words(&m, root, l, 2, 1, 1000, done);
		model_free(&m);
		done++;
	}
}
END_TEST

/* MOD through sinusoidal features costs no layer, and the feature test
 * is exact at every s (floor(cos x 2^s) = 2^s iff cos x = 1): even at
 * s = 0; through RoPE it costs a layer under a count. */
START_TEST(mod_layers)
{
	Compiled c;
	c.root = fixture_must_parse(&fx, "#[Q_a & MOD(3, 1)] < #[Q_b | MOD(2, 0)]");
	c.l = letters_of(c.root, &c.nl);
	compile_pe(c.root, c.l, c.nl, 16, 0, FFN_TABLE, PE_SINUSOIDAL, &c.m);
	ck_assert_uint_eq(c.m.nlayers, 1);
	ck_assert_uint_eq(c.m.nfeats, 2);
	Semantics kd = {.kind = SEM_KNEEDEEP};
	exhaustive(&c.m, c.root, c.l, c.nl, &kd, 10, true);
	model_free(&c.m);
	compile_pe(c.root, c.l, c.nl, 20, 8, FFN_TABLE, PE_ROPE, &c.m);
	ck_assert_uint_eq(c.m.nlayers, 2);
	exhaustive(&c.m, c.root, c.l, c.nl, &kd, 10, true);
	compiled_free(&c);
}
END_TEST

/* Refusals of the positional encodings, and T5's bias by hand: at s = 8
 * 256 e^-5 = 1.72 and 256 e^-6 = 0.63, so C = 6. */
START_TEST(pe_refusals)
{
	ck_assert(compile_t5_bias(16, 8) == -6);
	ck_assert(compile_t5_bias(16, 14) == 0); /* C = 11 > 2 = max */
	struct {
		const char *f;
		PeKind pe;
		const char *why;
	} bad[] = {
		{"factor_bb", PE_SINUSOIDAL, "--pe=t5"},
		{"factor_bb", PE_ROPE, "--pe=urpe"},
		{"MOD(2, 1)", PE_T5, "--pe=sinusoidal"},
		{"MOD(2, 1)", PE_ALIBI, "--pe=rope"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		Node root = fixture_must_parse(&fx, bad[i].f);
		size_t nl;
		Sym *l = letters_of(root, &nl);
		CompileOptions o = {.p = 16, .s = 8, .ffn = FFN_TABLE,
				    .pe = bad[i].pe};
		CompileInfo info;
		Model m;
		char *err = NULL;
		ck_assert(!compile_formula(s, root, l, nl, NULL, &o, &m, &info,
					   &err));
		ck_assert_msg(strstr(err, bad[i].why), "%s", err);
		free(err);
		free(l);
	}
}
END_TEST

/* The slope by hand: at s = 2 a window of exactly 2 needs a > ln 4 / 2 =
 * 0.69 and, for the gates, floor(4 e^-a) >= 2, a <= ln 2: none.  At s = 3
 * a > ln 8 / 2 = 1.04 and floor(8 e^-a) >= 2, a <= ln 4 = 1.39: the
 * smallest multiple of 1/8 is 1.125. */
START_TEST(alibi_slope)
{
	ck_assert(compile_alibi_slope(16, 2) == 0);
	ck_assert(compile_alibi_slope(16, 3) == 1.125);
	Semantics f = {.kind = SEM_KNEEDEEP, .p = 16, .s = 3};
	ck_assert_uint_eq(sim_alibi_window(&f, 1.125), 2);
}
END_TEST

/* ---- the JSON form -------------------------------------------------------- */

START_TEST(json_round_trip)
{
	Compiled c;
	compiled(&c, "dyck1", 16, 8, _i ? FFN_RELU : FFN_TABLE);
	Model back;
	json_t *j = model_to_json(&c.m);
	char *err = NULL;
	ck_assert_msg(model_from_json(j, &back, &err), "%s", err);
	Semantics kd = {.kind = SEM_KNEEDEEP};
	exhaustive(&back, c.root, c.l, c.nl, &kd, 8, true);
	/* a weight outside F_{16,8} and a non-dyadic weight are refused */
	json_t *emb = json_array_get(json_object_get(j, "embedding"), 1);
	json_array_set_new(emb, 0, json_string("1000"));
	Model bad;
	ck_assert(!model_from_json(j, &bad, &err));
	ck_assert_msg(strstr(err, "not in F_{16,8}"), "%s", err);
	free(err);
	json_array_set_new(emb, 0, json_string("1/3"));
	ck_assert(!model_from_json(j, &bad, &err));
	ck_assert_msg(strstr(err, "dyadic"), "%s", err);
	free(err);
	json_decref(j);
	model_free(&back);
	compiled_free(&c);
}
END_TEST

/* A model whose BOS value is off by one is caught by the exhaustive
 * comparison: the check can fail. */
START_TEST(tampered_model)
{
	Compiled c;
	compiled(&c, "majority", 16, 8, FFN_TABLE);
	Head *h = &c.m.layers[0].heads[0];
	for (size_t i = 0; i < h->wv.n; i++)
		if (h->wv.e[i].col == 0)
			h->wv.e[i].w += 1;
	Semantics kd = {.kind = SEM_KNEEDEEP};
	long bad = exhaustive(&c.m, c.root, c.l, c.nl, &kd, 6, false);
	/* at a tie #a = #b the shifted head says "more a's" */
	ck_assert_int_eq(bad, 0);
	compiled_free(&c);
}
END_TEST

/* ---- roundings, by hand ---------------------------------------------------- */

START_TEST(fixed_rounding)
{
	Semantics f = {.kind = SEM_KNEEDEEP, .p = 16, .s = 8};
	/* floor(e * 256) = 695, floor(e^-1 * 256) = 94 */
	ck_assert(sem_exp(&f, 1) == 695.0 / 256);
	ck_assert(sem_exp(&f, -1) == 94.0 / 256);
	ck_assert(sem_exp(&f, 0) == 1);
	/* exp(-6) * 256 = 0.63: rounds to 0; exp(10) saturates */
	ck_assert(sem_exp(&f, -6) == 0);
	ck_assert(sem_exp(&f, 10) == 32767.0 / 256);
	/* -1/3 = -85.33/256 floors to -86/256 */
	ck_assert(sem_div(&f, -1, 3) == -86.0 / 256);
	ck_assert(sem_div(&f, 1, 3) == 85.0 / 256);
	ck_assert(sem_add(&f, 127, 5) == 32767.0 / 256);
	ck_assert(sem_add(&f, -128, -1) == -128);
	ck_assert(sem_mul(&f, 3.0 / 256, 1.0 / 2) == 1.0 / 256);
	ck_assert(sem_mul(&f, -3.0 / 256, 1.0 / 2) == -2.0 / 256);
	Semantics h = {.kind = SEM_IEEE, .fmt = IEEE_FP16};
	ck_assert(sem_add(&h, 2048, 1) == 2048);
	ck_assert(sem_add(&h, 2048, 3) == 2052);
	ck_assert(sem_div(&h, ldexp(1, -24), 2) == 0);        /* tie to even */
	ck_assert(sem_div(&h, 3 * ldexp(1, -24), 2) == ldexp(1, -23));
	ck_assert(sem_mul(&h, 300, 300) == INFINITY);
	Semantics b = {.kind = SEM_IEEE, .fmt = IEEE_BF16};
	ck_assert(sem_add(&b, 256, 1) == 256);
	ck_assert(sem_add(&b, 256, 2) == 258);
	Semantics w = {.kind = SEM_IEEE, .fmt = IEEE_FP32};
	ck_assert(sem_add(&w, ldexp(1, 24), 1) == ldexp(1, 24));
	ck_assert(sem_div(&w, ldexp(1, -149), 2) == 0);
	ck_assert(sem_exp(&w, 1) == (double)2.71828182845904523536f);
	double x;
	ck_assert(dyadic_parse("-3/16", &x) && x == -3.0 / 16);
	ck_assert(!dyadic_parse("1/3", &x));
	char *t = dyadic_text(-3.0 / 16);
	ck_assert_str_eq(t, "-3/16");
	free(t);
}
END_TEST

static bool same(double x, double y)
{
	return x == y || (isnan(x) && isnan(y));
}

/* The binary64 fast path of the IEEE operations against MPFR, on random
 * values of each format (normal, subnormal, huge). */
START_TEST(ieee_fast_path)
{
	static const IeeeFormat fmts[] = {IEEE_FP32, IEEE_BF16, IEEE_FP16};
	Semantics sem = {.kind = SEM_IEEE, .fmt = fmts[_i]};
	Rng r;
	rng_seed(&r, 99);
	int span = fmts[_i] == IEEE_FP16 ? 26 : 140;
	for (int k = 0; k < 20000; k++) {
		double a = sem_convert(&sem, ldexp((double)rng_next(&r) / 0x1p64,
						   (int)rng_below(&r, 2 * span) - span));
		double b = sem_convert(&sem, ldexp((double)rng_next(&r) / 0x1p64,
						   (int)rng_below(&r, 2 * span) - span));
		if (rng_below(&r, 2))
			b = -b;
		ck_assert(same(sem_add(&sem, a, b),
			       sem_reference_op(&sem, '+', a, b)));
		ck_assert(same(sem_mul(&sem, a, b),
			       sem_reference_op(&sem, '*', a, b)));
		if (b != 0)
			ck_assert(same(sem_div(&sem, a, b),
				       sem_reference_op(&sem, '/', a, b)));
	}
}
END_TEST

/* ALiBi windows: exp(-a d) * 2^s < 1 from d = ceil(s ln 2 / a) on. */
START_TEST(alibi_window)
{
	Semantics f = {.kind = SEM_KNEEDEEP, .p = 16, .s = 8};
	/* slope 1: 256 e^-5 = 1.72, 256 e^-6 = 0.63 */
	ck_assert_uint_eq(sim_alibi_window(&f, 1), 6);
	/* slope 1/2: 256 e^-5.5 = 1.05 (d = 11), 256 e^-6 = 0.63 (d = 12) */
	ck_assert_uint_eq(sim_alibi_window(&f, 0.5), 12);
	ck_assert_uint_eq(sim_alibi_window(&f, 0), 0);
}
END_TEST

/* ---- breakdown lengths, derived by hand ----------------------------------- */

/* In F_{10,4} values saturate at -32 and 31.9375.  Majority's head sums
 * -1 (BOS) + #a - #b; on b^32 a^32 the rounded sum saturates at -32 after
 * the b's and climbs back to 0 >= 0: "more a's", while #a = #b.  No
 * shorter word can move a partial sum past the saturation point and back
 * to the other sign. */
START_TEST(breakdown_majority)
{
	Compiled c;
	compiled(&c, "majority", 10, 4, FFN_TABLE);
	Semantics rs = {.kind = SEM_ROUNDED_SUMS};
	Mismatch mm;
	ck_assert_int_eq(breakdown_search(&c.m, &rs, 200, 1000000, NULL, &mm),
			 BREAK_FOUND);
	ck_assert_uint_eq(mm.length, 64);
	ck_assert(mm.model_accepts);
	free(mm.word);
	/* kneedeep never breaks */
	Semantics kd = {.kind = SEM_KNEEDEEP};
	ck_assert_int_eq(breakdown_search(&c.m, &kd, 100, 1000000, NULL, &mm),
			 BREAK_NONE);
	free(mm.word);
	/* the exhaustive comparison agrees below 14 letters */
	ck_assert_int_eq(exhaustive(&c.m, c.root, c.l, c.nl, &rs, 12, false),
			 -1);
	compiled_free(&c);
}
END_TEST

Suite *compile_suite(void)
{
	Suite *su = suite_create("compile");
	TCase *tc = tcase_create("kneedeep");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600 * test_multiplier());
	tcase_add_loop_test(tc, prelude_kneedeep, 0, NPRELUDE);
	tcase_add_loop_test(tc, random_formulas, 0, 3);
	tcase_add_test(tc, refusals);
	tcase_add_loop_test(tc, json_round_trip, 0, 2);
	tcase_add_test(tc, tampered_model);
	tcase_add_test(tc, alibi_slope);
	tcase_add_loop_test(tc, random_pe, 0, 6);
	tcase_add_test(tc, mod_layers);
	tcase_add_test(tc, pe_refusals);
	suite_add_tcase(su, tc);
	tc = tcase_create("semantics");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, fixed_rounding);
	tcase_add_test(tc, alibi_window);
	tcase_add_loop_test(tc, ieee_fast_path, 0, 3);
	tcase_add_test(tc, breakdown_majority);
	suite_add_tcase(su, tc);
	return su;
}
