/* check_gen.c -- the state graph of `tally gen` (gen_states.c) against
 * the naive reference evaluator on random formulas (Y, MOD, ?:, min,
 * max and multiples included, so the clamping of counts meets every
 * kind of reader): the class of every word up to a length, the number of
 * members and non-members per length, unranking (every word of a class
 * once, in order), and which prefixes can still reach a member; with a
 * domain root too.  And the draws below an exact bound.  And the
 * sampling in machine words (gen_unrank.c) against the fmpz one: the
 * same ranks from the same generator, the same words, their states, and
 * the classes of changed words walked from the change against whole
 * walks, at lengths whose counts take one, two and four words. */
#include <config.h>

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "gen/gen_states.h"
#include "gen/gen_unrank.h"
#include "randgen.h"
#include "ref_eval.h"
#include "suites.h"
#include "core/alphabet.h"

enum { MAXLEN = 6, SIGMA = 2 };

typedef struct {
	Fixture fx;
	Node roots[2];
	size_t nroots;
	GenStates *gs;
	Sym alpha[SIGMA];
	uint64_t count[MAXLEN + 1][2];
	Sym w[MAXLEN];
} Case;

/* The reference class of w[0..n): GEN_IN, GEN_DOMAIN bits. */
static unsigned ref_class(Case *c, size_t n)
{
	const Store *s = c->fx.store;
	unsigned k = ref_accepts(s, c->roots[0], c->w, n, false) ? GEN_IN : 0;
	if (c->nroots < 2 || ref_accepts(s, c->roots[1], c->w, n, false))
		k |= GEN_DOMAIN;
	return k;
}

/* Depth-first over the words: the graph's class and the reference's
 * agree; returns whether a member of length <= MAXLEN extends w. */
static bool walk(Case *c, size_t n, uint32_t state)
{
	unsigned k = ref_class(c, n);
	ck_assert_uint_eq(gen_states_class(c->gs, state), k);
	bool member = k == (GEN_IN | GEN_DOMAIN), live = member;
	if (member || k == GEN_DOMAIN)
		c->count[n][member]++;
	for (size_t a = 0; n < MAXLEN && a < SIGMA; a++) {
		c->w[n] = c->alpha[a];
		live |= walk(c, n + 1, gen_states_next(c->gs, state, a));
	}
	ck_assert_int_eq(gen_states_can_finish(c->gs, state), live);
	if (live) { /* a shortest completion is a member */
		uint32_t tail[MAXLEN];
		size_t len = gen_states_witness(c->gs, state, tail);
		ck_assert_uint_le(n + len, MAXLEN);
		Sym keep[MAXLEN];
		memcpy(keep, c->w, sizeof keep);
		for (size_t i = 0; i < len; i++)
			c->w[n + i] = c->alpha[tail[i]];
		ck_assert_uint_eq(ref_class(c, n + len), GEN_IN | GEN_DOMAIN);
		memcpy(c->w, keep, sizeof keep);
	}
	return live;
}

/* Unranking gives each word of the class once, in increasing order. */
static void check_unrank(Case *c, size_t n, bool member)
{
	fmpz_t total, r;
	fmpz_init(total);
	fmpz_init(r);
	gen_states_total(c->gs, n, member, total);
	ck_assert(fmpz_cmp_ui(total, c->count[n][member]) == 0);
	uint32_t w[MAXLEN], prev[MAXLEN];
	for (uint64_t i = 0; i < c->count[n][member]; i++) {
		fmpz_set_ui(r, i);
		gen_states_unrank(c->gs, member, r, w);
		if (i)
			ck_assert(memcmp(prev, w, n * sizeof *w) != 0);
		size_t j = 0;
		while (i && j < n && prev[j] == w[j])
			j++;
		ck_assert(i == 0 || w[j] > prev[j]);
		memcpy(prev, w, n * sizeof *w);
		for (size_t k = 0; k < n; k++)
			c->w[k] = c->alpha[w[k]];
		unsigned cls = ref_class(c, n);
		ck_assert_uint_eq(cls, member ? GEN_IN | GEN_DOMAIN
					      : GEN_DOMAIN);
	}
	fmpz_clear(total);
	fmpz_clear(r);
}

static void check_case(Case *c)
{
	Alphabet al;
	alphabet_init(&al, c->fx.store, c->roots, c->nroots, "ab");
	ck_assert_uint_eq(al.n, SIGMA);
	char *why = NULL;
	c->gs = gen_states_build(c->fx.store, c->roots, c->nroots, &al,
				 MAXLEN, 1000000, NULL, &why);
	if (!c->gs) { /* huge constants: big persistent slots */
		free(why);
		alphabet_free(&al);
		return;
	}
	gen_states_horizon(c->gs, MAXLEN);
	memset(c->count, 0, sizeof c->count);
	walk(c, 0, gen_states_start(c->gs));
	for (size_t n = 0; n <= MAXLEN; n++) {
		gen_states_aim(c->gs, n);
		check_unrank(c, n, true);
		check_unrank(c, n, false);
	}
	gen_states_free(c->gs);
	alphabet_free(&al);
}

static void random_cases(uint64_t seed, size_t nroots)
{
	Rng rng;
	rng_seed(&rng, seed);
	unsigned n = test_count(300);
	for (unsigned i = 0; i < n; i++) {
		Case c = {0};
		fixture_init(&c.fx);
		c.alpha[0] = fixture_letter(&c.fx, "a");
		c.alpha[1] = fixture_letter(&c.fx, "b");
		GenOptions o = {.letters = c.alpha, .nletters = SIGMA,
				.max_depth = 3, .max_size = 14,
				.positional = true, .extended = true};
		c.nroots = nroots;
		for (size_t r = 0; r < nroots; r++)
			c.roots[r] = randgen_formula(c.fx.store, &rng, &o);
		check_case(&c);
		fixture_free(&c.fx);
	}
}

START_TEST(random_formulas)
{
	random_cases(0x6e6e, 1);
}
END_TEST

START_TEST(random_domains)
{
	random_cases(0xd0d0, 2);
}
END_TEST

/* Known languages: Dyck-1 and L_3 counted by hand-checked formulas, and
 * the clamping keeps L_5 small on long words. */
START_TEST(known_languages)
{
	Case c = {0};
	fixture_init(&c.fx);
	c.alpha[0] = fixture_letter(&c.fx, "a");
	c.alpha[1] = fixture_letter(&c.fx, "b");
	c.nroots = 1;
	c.roots[0] = fixture_must_parse(&c.fx, "L_3");
	check_case(&c);
	/* L_3 has C(n-1, 2) members of length n */
	for (size_t n = 3; n <= MAXLEN; n++)
		ck_assert_uint_eq(c.count[n][1], (n - 1) * (n - 2) / 2);
	Node l5 = fixture_must_parse(&c.fx, "L_5");
	Alphabet al;
	alphabet_init(&al, c.fx.store, &l5, 1, "ab");
	char *why = NULL;
	GenStates *g = gen_states_build(c.fx.store, &l5, 1, &al, 200, 100000,
					NULL, &why);
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_lt(gen_states_size(g), 50 * 201); /* not ~n^4 */
	fmpz_t t;
	fmpz_init(t);
	gen_states_total(g, 200, true, t); /* C(199, 4) */
	ck_assert(fmpz_cmp_ui(t, 199ul * 198 * 197 * 196 / 24) == 0);
	fmpz_clear(t);
	gen_states_free(g);
	alphabet_free(&al);
	fixture_free(&c.fx);
}
END_TEST

/* Dyck-1 words of length 2m number Catalan(m). */
START_TEST(dyck_counts)
{
	Fixture fx;
	fixture_init(&fx);
	Node d = fixture_must_parse(&fx, "dyck1");
	Alphabet al;
	alphabet_init(&al, fx.store, &d, 1, NULL);
	char *why = NULL;
	GenStates *g = gen_states_build(fx.store, &d, 1, &al, 60, 100000,
					NULL, &why);
	ck_assert_ptr_nonnull(g);
	fmpz_t t, cat;
	fmpz_init(t);
	fmpz_init(cat);
	fmpz_one(cat);
	for (ulong m = 0; m <= 30; m++) {
		gen_states_total(g, 2 * m, true, t);
		ck_assert(fmpz_equal(t, cat));
		gen_states_total(g, 2 * m + 1, true, t);
		ck_assert(m == 30 || fmpz_is_zero(t));
		/* Catalan(m + 1) = Catalan(m) * 2(2m + 1) / (m + 2) */
		fmpz_mul_ui(cat, cat, 2 * (2 * m + 1));
		fmpz_divexact_ui(cat, cat, m + 2);
	}
	fmpz_clear(t);
	fmpz_clear(cat);
	gen_states_free(g);
	alphabet_free(&al);
	fixture_free(&fx);
}
END_TEST

START_TEST(draws_below)
{
	GenRng r = {7};
	fmpz_t n, x;
	fmpz_init(n);
	fmpz_init(x);
	fmpz_set_str(n, "1267650600228229401496703205377", 10); /* 2^100+1 */
	int high = 0;
	for (int i = 0; i < 2000; i++) {
		gen_rng_below_fmpz(&r, x, n);
		ck_assert(fmpz_sgn(x) >= 0 && fmpz_cmp(x, n) < 0);
		high += fmpz_bits(x) == 101; /* x >= 2^100: almost never */
		high += fmpz_bits(x) == 100; /* about half of them */
	}
	ck_assert_int_gt(high, 850);
	ck_assert_int_lt(high, 1150);
	for (uint64_t b = 1; b < 40; b++)
		ck_assert_uint_lt(gen_rng_below(&r, b), b);
	fmpz_clear(n);
	fmpz_clear(x);
}
END_TEST

/* At length n: k draws of each class by both paths. */
static void limbs_against_fmpz(GenStates *g, size_t n, size_t nl, int k)
{
	gen_states_aim(g, n);
	GenRng a = {n * 977}, b = {n * 977};
	fmpz_t r, x;
	fmpz_init(r);
	fmpz_init(x);
	uint32_t *w = malloc(2 * n * sizeof *w), *path = malloc((n + 1) *
							     sizeof *path);
	uint64_t rank[8];
	for (int i = 0; i < k; i++) {
		bool member = i % 2;
		size_t L = gen_states_limbs(g, member);
		ck_assert_uint_le(L, 8);
		bool ok = gen_states_draw_rank(g, member, &a, r);
		ck_assert_int_eq(gen_states_draw_limbs(g, member, &b, rank), ok);
		ck_assert_uint_eq(a.state, b.state);
		if (!ok)
			continue;
		fmpz_set_ui_array(x, rank, (slong)L);
		ck_assert(fmpz_equal(x, r));
		gen_states_unrank(g, member, r, w);
		gen_states_unrank_limbs(g, member, rank, 1, w + n, path);
		ck_assert(memcmp(w, w + n, n * sizeof *w) == 0);
		ck_assert_uint_eq(path[0], gen_states_start(g));
		for (size_t d = 0; d < n; d++)
			ck_assert_uint_eq(path[d + 1],
					  gen_states_next(g, path[d], w[d]));
		/* one or two letters changed: walked from the change */
		GenMutant m = {w, path, {0, 0}, {0, 0}};
		m.at[0] = (size_t)(b.state >> 7) % n;
		m.at[1] = i % 4 < 2 ? m.at[0] : m.at[0] + (n - m.at[0]) / 2;
		m.letter[0] = (w[m.at[0]] + 1) % (uint32_t)nl;
		m.letter[1] = m.at[1] == m.at[0] ? m.letter[0]
						 : (uint32_t)(b.state % nl);
		unsigned cls = 99;
		gen_states_rewalk(g, n, 1, &m, &cls);
		memcpy(w + n, w, n * sizeof *w);
		w[n + m.at[0]] = m.letter[0];
		w[n + m.at[1]] = m.letter[1];
		ck_assert_uint_eq(cls, gen_states_word(g, w + n, n));
	}
	free(w);
	free(path);
	fmpz_clear(r);
	fmpz_clear(x);
}

START_TEST(machine_words)
{
	static const struct {
		const char *formula, *letters;
		size_t len[3];
	} cases[] = {
		{"#[Q_a & #[Q_b & #[Q_a] < #[Q_b]] >= 1] > #[Q_b]", "ab",
		 {40, 100, 140}},
		{"dyck1", NULL, {60, 120, 250}},
		{"Q_a & #[Q_c] < 3", "abc", {30, 70, 140}},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		Fixture fx;
		fixture_init(&fx);
		Node f = fixture_must_parse(&fx, cases[i].formula);
		Alphabet al;
		alphabet_init(&al, fx.store, &f, 1, cases[i].letters);
		char *why = NULL;
		GenStates *g = gen_states_build(fx.store, &f, 1, &al,
						cases[i].len[2], 1000000, NULL,
						&why);
		ck_assert_ptr_nonnull(g);
		for (int j = 0; j < 3; j++)
			limbs_against_fmpz(g, cases[i].len[j], al.n,
					   (int)test_count(60));
		gen_states_free(g);
		alphabet_free(&al);
		fixture_free(&fx);
	}
}
END_TEST

Suite *gen_suite(void)
{
	Suite *s = suite_create("gen");
	TCase *tc = tcase_create("states");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, random_formulas);
	tcase_add_test(tc, random_domains);
	tcase_add_test(tc, known_languages);
	tcase_add_test(tc, dyck_counts);
	tcase_add_test(tc, draws_below);
	tcase_add_test(tc, machine_words);
	suite_add_tcase(s, tc);
	return s;
}
