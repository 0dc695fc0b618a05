/* check_exactness.c -- the exactness analysis of compiled models
 * (src/exactness.c) against independent answers: every length it claims
 * (proved or confirmed) is checked with tally's evaluator on every word
 * up to it (capped) and by the breakdown search up to it (capped); a
 * tampered model must be caught as a contradiction; the reproducers of
 * issue 18 give their hand-derived lengths.
 *
 * TALLY_TEST_MULTIPLIER=N (check-heavy) runs N times as many random
 * formulas. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "transformer/breakdown.h"
#include "transformer/compile.h"
#include "machine/eval.h"
#include "transformer/exactness.h"
#include "fixture.h"
#include "core/print.h"
#include "randgen.h"
#include "transformer/sim.h"
#include "suites.h"

FIXTURE_PER_TEST

typedef struct {
	Node root;
	Sym l[2];
	Model m;
	CompileInfo info;
	bool ok;
} Built;

static void build(Built *b, Node root, int p, int sc, FfnKind ffn, PeKind pe)
{
	b->root = root;
	b->l[0] = fixture_letter(&fx, "a");
	b->l[1] = fixture_letter(&fx, "b");
	CompileOptions o = {.p = p, .s = sc, .ffn = ffn, .pe = pe};
	char *err = NULL;
	char *text = tl_print(s, root, SYNTAX_TL, NULL);
	b->ok = compile_formula(s, root, b->l, 2, text, &o, &b->m, &b->info,
				&err);
	free(err);
	free(text);
}

static void analyse(Built *b, SemKind kind, IeeeFormat fmt, size_t states,
		    Exactness *e)
{
	ExactInput in = {&b->m, &b->info, s, b->root, b->l, 2,
			 {.kind = kind, .fmt = fmt}, states};
	exactness_analyse(&in, e);
}

/* The first length <= maxlen at which some word is decided wrongly under
 * sem (every word, an odometer, evaluator by whole words), or -1. */
static long first_wrong(Built *b, const Semantics *sem, size_t maxlen)
{
	Sim *sim = sim_new(&b->m, sem);
	Evaluator *ev = eval_new(s, &b->root, 1, ACCEPT_LAST);
	unsigned w[16];
	Sym x[16];
	long bad = -1;
	for (size_t len = 0; len <= maxlen && bad < 0; len++) {
		for (size_t i = 0; i < len; i++)
			w[i] = 0;
		do {
			sim_reset(sim);
			for (size_t i = 0; i < len; i++) {
				sim_push(sim, w[i] + 1);
				x[i] = b->l[w[i]];
			}
			bool want;
			eval_word(ev, x, len, &want);
			if (sim_accepts(sim) != want)
				bad = (long)len;
		} while (bad < 0 && fixture_next_word(w, len, 2));
	}
	eval_free(ev);
	sim_free(sim);
	return bad;
}

/* Every claimed length is true: no word up to it (capped at 9) is
 * decided wrongly, nor does the breakdown search find one up to it
 * (capped at 60); a reported first disagreement is the first. */
static void check_claims(Built *b, const Semantics *sem, const Exactness *e,
			 const char *what)
{
	size_t len;
	bool all;
	ck_assert_msg(e->contradiction == NULL, "%s: %s", what,
		      e->contradiction);
	if (e->found && e->found_len <= 9)
		ck_assert_msg(first_wrong(b, sem, e->found_len) ==
				      (long)e->found_len,
			      "%s: the first disagreement is not at %zu", what,
			      e->found_len);
	if (!exactness_length(e, &len, &all))
		return;
	long bad = first_wrong(b, sem, all || len > 9 ? 9 : len);
	ck_assert_msg(bad < 0, "%s: claims %zu%s, a word of length %ld is "
		      "wrong", what, len, all ? " (all)" : "", bad);
	Mismatch mm;
	size_t cap = all || len > 60 ? 60 : len;
	if (breakdown_search(&b->m, sem, cap, 200000, NULL, &mm) == BREAK_FOUND)
		ck_abort_msg("%s: claims %zu, the search finds length %zu",
			     what, len, mm.length);
	free(mm.word);
}

/* Random formulas of depth <= 2 (positional ones with every encoding),
 * at several precisions, both feed-forward kinds, every semantics: no
 * contradiction, and every claim holds. */
START_TEST(random_claims)
{
	static const struct {
		PeKind pe;
		int p, s;
	} cfg[] = {{PE_NOPE, 12, 4}, {PE_NOPE, 16, 8},  {PE_URPE, 16, 8},
		   {PE_T5, 16, 8},   {PE_SINUSOIDAL, 14, 6}, {PE_ROPE, 24, 8},
		   {PE_ALIBI, 20, 6}};
	static const struct {
		SemKind kind;
		IeeeFormat fmt;
	} sems[] = {{SEM_ROUNDED_SUMS, 0}, {SEM_IEEE, IEEE_FP32},
		    {SEM_IEEE, IEEE_BF16}, {SEM_IEEE, IEEE_FP16}};
	PeKind pe = cfg[_i].pe;
	Sym l[2] = {fixture_letter(&fx, "a"), fixture_letter(&fx, "b")};
	GenOptions go = {.letters = l, .nletters = 2, .max_depth = 2,
			 .max_size = 10, .positional = pe != PE_NOPE};
	Rng r;
	rng_seed(&r, 1800 + (uint64_t)_i);
	unsigned done = 0, cases = test_count(3), tries = 0;
	while (done < cases && tries++ < 500) {
		Node root = randgen_formula(s, &r, &go);
		unsigned f = store_flags(s, root);
		bool mod = pe == PE_SINUSOIDAL || pe == PE_ROPE;
		if ((f & FLAG_MOD) && !mod)
			continue;
		if ((f & FLAG_PREV) && (mod || pe == PE_NOPE))
			continue;
		Built b;
		build(&b, root, cfg[_i].p, cfg[_i].s,
		      done % 2 ? FFN_RELU : FFN_TABLE, pe);
		if (!b.ok)
			continue; /* too small a precision for this formula */
		for (size_t k = 0; k < sizeof sems / sizeof sems[0]; k++) {
			Semantics sem = {.kind = sems[k].kind, .fmt = sems[k].fmt};
			Exactness e;
			analyse(&b, sem.kind, sem.fmt, 3000, &e);
			char *t = tl_print(s, root, SYNTAX_TL, NULL);
			char what[256];
			snprintf(what, sizeof what, "%s (--pe=%s, %s)", t,
				 pe_kind_name(pe), semantics_name(&sem));
			free(t);
			check_claims(&b, &sem, &e, what);
			exactness_free(&e);
		}
		model_free(&b.m);
		done++;
	}
	ck_assert_uint_eq(done, cases);
}
END_TEST

/* Majority with ReLU blocks under fp32: proved up to 2^8 - 1 (the ReLU
 * ge0 gadget needs N/(n+1) <= -2^-8), and a^128 b^128 (N = -1, n = 256)
 * is the first word decided wrongly. */
START_TEST(relu_majority)
{
	Built b;
	build(&b, fixture_must_parse(&fx, "majority"), 16, 8, FFN_RELU,
	      PE_NOPE);
	ck_assert(b.ok);
	Exactness e;
	analyse(&b, SEM_IEEE, IEEE_FP32, 0, &e);
	ck_assert_ptr_null(e.contradiction);
	ck_assert(e.proved && !e.proved_all);
	ck_assert_uint_eq(e.proved_len, 255);
	ck_assert(e.found);
	ck_assert_uint_eq(e.found_len, 256);
	ck_assert_str_eq(e.found_word, "a^128 b^128");
	exactness_free(&e);
	/* the table gates read the sign exactly: (n+1)*3 <= 2^24 */
	model_free(&b.m);
	build(&b, fixture_must_parse(&fx, "majority"), 16, 8, FFN_TABLE,
	      PE_NOPE);
	analyse(&b, SEM_IEEE, IEEE_BF16, 0, &e);
	ck_assert(e.proved && !e.proved_all);
	ck_assert_uint_eq(e.proved_len, 256 / 3 - 1);
	exactness_free(&e);
	model_free(&b.m);
}
END_TEST

/* RoPE MOD, T5 and ALiBi heads under IEEE: no proof, and a search. */
START_TEST(no_proof_under_ieee)
{
	static const struct {
		const char *f;
		PeKind pe;
	} c[] = {{"#[Q_a & MOD(3, 1)] < #[Q_b]", PE_ROPE},
		 {"#[Y Q_a] < #[Q_b]", PE_T5},
		 {"#[Y Q_b & Q_b] >= 1", PE_ALIBI}};
	for (size_t i = 0; i < 3; i++) {
		Built b;
		build(&b, fixture_must_parse(&fx, c[i].f), 16, 8, FFN_TABLE,
		      c[i].pe);
		ck_assert(b.ok);
		Exactness e;
		analyse(&b, SEM_IEEE, IEEE_FP16, 0, &e);
		ck_assert_msg(!e.proved, "%s: proved", c[i].f);
		ck_assert_msg(e.searched || e.found, "%s: no search", c[i].f);
		Semantics sem = {.kind = SEM_IEEE, .fmt = IEEE_FP16};
		check_claims(&b, &sem, &e, c[i].f);
		exactness_free(&e);
		model_free(&b.m);
	}
}
END_TEST

/* A model whose BOS value is off by one: the proof (which reads the
 * construction) still claims every length under kneedeep, and the spot
 * check must catch it as a contradiction; under rounded sums the search
 * compares two tampered runs and sees nothing, the spot check again
 * catches it. */
START_TEST(tampered)
{
	for (int k = 0; k < 2; k++) {
		Built b;
		build(&b, fixture_must_parse(&fx, "majority"), 16, 8, FFN_TABLE,
		      PE_NOPE);
		Head *h = &b.m.layers[0].heads[0];
		for (size_t i = 0; i < h->wv.n; i++)
			if (h->wv.e[i].col == 0)
				h->wv.e[i].w += 1;
		Exactness e;
		analyse(&b, k ? SEM_ROUNDED_SUMS : SEM_KNEEDEEP, 0, 2000, &e);
		ck_assert_msg(e.contradiction != NULL, "tampered model, %s: "
			      "no contradiction", k ? "rounded-sums" : "kneedeep");
		exactness_free(&e);
		model_free(&b.m);
	}
}
END_TEST

Suite *exactness_suite(void)
{
	Suite *su = suite_create("exactness");
	TCase *tc = tcase_create("claims");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600 * test_multiplier());
	tcase_add_loop_test(tc, random_claims, 0, 7);
	tcase_add_test(tc, relu_majority);
	tcase_add_test(tc, no_proof_under_ieee);
	tcase_add_test(tc, tampered);
	suite_add_tcase(su, tc);
	return su;
}
