/* check_pe.c -- the arithmetic of positional encodings (src/pe.c) and
 * the simulator's relative-position heads (src/sim.c), against
 * independent answers: the T5 buckets by a per-distance integer test and
 * by the table computed for the design notes, the rounded trigonometric
 * features by MPFR at 4000 bits, and the heads by a naive quadratic
 * attention written here. */
#include <config.h>

#include <gmp.h>
#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

#include "transformer/fixed.h"
#include "transformer/model.h"
#include "transformer/pe.h"
#include "randgen.h"
#include "transformer/sim.h"
#include "suites.h"

/* ---- T5 ------------------------------------------------------------------ */

/* The bucket of distance n straight from the definition: with e exact
 * buckets and A = buckets - e, the largest k with (n/e)^A >= (max/e)^k,
 * i.e. n^A e^k >= max^k e^A, found by trying k = 0, 1, ... */
static uint32_t naive_bucket(uint32_t buckets, uint32_t md, bool bidir,
			     uint64_t n)
{
	uint32_t nb = bidir ? buckets / 2 : buckets, e = nb / 2, a = nb - e;
	if (n < e)
		return (uint32_t)n;
	mpz_t l, r, t;
	mpz_inits(l, r, t, NULL);
	uint32_t k = 0;
	for (;;) {
		mpz_ui_pow_ui(l, n, a);
		mpz_ui_pow_ui(t, e, k + 1);
		mpz_mul(l, l, t);
		mpz_ui_pow_ui(r, md, k + 1);
		mpz_ui_pow_ui(t, e, a);
		mpz_mul(r, r, t);
		if (mpz_cmp(l, r) < 0)
			break;
		k++;
	}
	mpz_clears(l, r, t, NULL);
	return e + k < nb - 1 ? e + k : nb - 1;
}

START_TEST(t5_naive)
{
	static const struct {
		uint32_t nb, md;
		bool bidir;
	} cases[] = {
		{32, 128, false}, {32, 128, true}, {8, 20, false},
		{64, 1000, true}, {10, 37, false}, {2, 2, false},
		{128, 4096, false}, {6, 4, true}, {33, 200, false},
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		T5 t;
		const char *err;
		ck_assert(t5_init(&t, cases[c].nb, cases[c].md, cases[c].bidir,
				  &err));
		for (uint64_t n = 0; n <= 5000; n++)
			ck_assert_msg(t5_bucket(&t, n) ==
					      naive_bucket(cases[c].nb, cases[c].md,
							   cases[c].bidir, n),
				      "t5(%u, %u, %d) at %llu: %u, naive %u",
				      cases[c].nb, cases[c].md, cases[c].bidir,
				      (unsigned long long)n, t5_bucket(&t, n),
				      naive_bucket(cases[c].nb, cases[c].md,
						   cases[c].bidir, n));
		ck_assert(t5_bucket(&t, UINT64_MAX / 2) == t.top - 1);
		t5_free(&t);
	}
	T5 t;
	const char *err;
	ck_assert(!t5_init(&t, 32, 16, false, &err)); /* max <= exact */
	ck_assert(!t5_init(&t, 1, 128, false, &err));
}
END_TEST

/* The first distance of each bucket with T5's defaults, as the design
 * notes computed them (extensions.md §3.1). */
START_TEST(t5_table)
{
	static const uint64_t causal[] = {16, 19, 21, 24, 27, 31, 35, 40,
					  46, 52, 59, 67, 77, 87, 99, 113};
	static const uint64_t bidir[] = {8, 12, 16, 23, 32, 46, 64, 91};
	T5 t;
	const char *err;
	ck_assert(t5_init(&t, 32, 128, false, &err));
	for (uint32_t k = 0; k < 16; k++) {
		ck_assert_uint_eq(t5_bucket(&t, causal[k]), 16 + k);
		ck_assert_uint_eq(t5_bucket(&t, causal[k] - 1), 15 + k);
	}
	ck_assert_uint_eq(t5_last_start(&t), 113);
	t5_free(&t);
	ck_assert(t5_init(&t, 32, 128, true, &err));
	for (uint32_t k = 0; k < 8; k++) {
		ck_assert_uint_eq(t5_bucket(&t, bidir[k]), 8 + k);
		ck_assert_uint_eq(t5_bucket(&t, bidir[k] - 1), 7 + k);
	}
	t5_free(&t);
}
END_TEST

/* ---- trigonometric features ------------------------------------------- */

/* cos(pos theta + phase pi) at 4000 bits, rounded by the semantics (the
 * floor and the saturation of F_{p,s} done here). */
static double reference_cos(const Semantics *sem, const Angle *th,
			    int64_t pnum, int64_t pden, uint64_t pos)
{
	mpfr_t x, y, pi;
	mpfr_inits2(4000, x, y, pi, (mpfr_ptr)0);
	mpfr_const_pi(pi, MPFR_RNDN);
	if (th->standard) {
		mpfr_set_si(y, -2 * (long)th->k, MPFR_RNDN);
		mpfr_div_ui(y, y, th->d, MPFR_RNDN);
		mpfr_ui_pow(x, th->base, y, MPFR_RNDN);
	} else {
		mpfr_mul_si(x, pi, (long)th->num, MPFR_RNDN);
		mpfr_div_si(x, x, (long)th->den, MPFR_RNDN);
	}
	mpfr_mul_ui(x, x, (unsigned long)pos, MPFR_RNDN);
	mpfr_mul_si(y, pi, (long)pnum, MPFR_RNDN);
	mpfr_div_si(y, y, (long)pden, MPFR_RNDN);
	mpfr_add(x, x, y, MPFR_RNDN);
	mpfr_cos(y, x, MPFR_RNDN);
	/* the exact values (0, +-1/2, +-1 at multiples of pi/3 and pi/2) are
	 * 2^-3900 away at most: snap them */
	mpfr_set_prec(pi, 4000);
	mpfr_mul_2si(x, y, 1, MPFR_RNDN);
	mpfr_round(pi, x);
	mpfr_sub(x, x, pi, MPFR_RNDN);
	if (mpfr_zero_p(x) || mpfr_get_exp(x) < -3900)
		mpfr_div_2si(y, pi, 1, MPFR_RNDN);
	double out;
	if (sem->kind == SEM_IEEE) {
		out = sem_round_mpfr(sem, y);
	} else {
		mpfr_mul_2si(y, y, sem->s, MPFR_RNDN);
		mpfr_floor(y, y);
		long m = mpfr_get_si(y, MPFR_RNDN);
		long hi = (1L << (sem->p - 1)) - 1;
		out = ldexp((double)(m > hi ? hi : m), -sem->s);
	}
	mpfr_clears(x, y, pi, (mpfr_ptr)0);
	return out;
}

START_TEST(trig_rounding)
{
	static const Semantics sems[] = {
		{.kind = SEM_KNEEDEEP, .p = 16, .s = 8},
		{.kind = SEM_KNEEDEEP, .p = 12, .s = 3},
		{.kind = SEM_KNEEDEEP, .p = 32, .s = 24},
		{.kind = SEM_IEEE, .fmt = IEEE_FP32},
		{.kind = SEM_IEEE, .fmt = IEEE_BF16},
		{.kind = SEM_IEEE, .fmt = IEEE_FP16},
	};
	const Semantics *sem = &sems[_i];
	Angle angles[] = {
		{.num = 1, .den = 3},  {.num = 2, .den = 5}, {.num = 2, .den = 7},
		{.num = 1, .den = 1},  {.num = 1, .den = 2}, {.num = 3, .den = 4},
		{.num = -7, .den = 9}, {.num = 2, .den = 1000},
		{.standard = true, .base = 10000, .k = 0, .d = 64},
		{.standard = true, .base = 10000, .k = 1, .d = 64},
		{.standard = true, .base = 10000, .k = 13, .d = 64},
		{.standard = true, .base = 10000, .k = 31, .d = 64},
	};
	static const int64_t phases[][2] = {{0, 1}, {-1, 2}, {1, 3}, {-4, 7}};
	static const uint64_t far[] = {1000003, 2147483659ULL, 355, 710};
	for (size_t a = 0; a < sizeof angles / sizeof angles[0]; a++)
		for (size_t f = 0; f < 4; f++)
			for (uint64_t k = 0; k < 40 + 4; k++) {
				uint64_t pos = k < 40 ? k : far[k - 40];
				double got = pe_cos(sem, &angles[a], phases[f][0],
						    phases[f][1], pos);
				double want = reference_cos(sem, &angles[a],
							    phases[f][0],
							    phases[f][1], pos);
				ck_assert_msg(got == want,
					      "%s: angle %zu phase %zu pos %llu: "
					      "%.17g, MPFR %.17g",
					      semantics_name(sem), a, f,
					      (unsigned long long)pos, got, want);
			}
}
END_TEST

/* By hand at s = 8: cos(pi/3) = 1/2, sin(pi/4) 256 = 181.02, cos of 2 pi
 * is 1 and of pi/2 is 0 exactly, and floor keeps -1/2 at -1/2. */
START_TEST(trig_by_hand)
{
	Semantics f = {.kind = SEM_KNEEDEEP, .p = 16, .s = 8};
	Angle third = {.num = 1, .den = 3}, quarter = {.num = 1, .den = 4};
	double c, s;
	pe_rotation(&f, &third, 1, &c, &s);
	ck_assert(c == 0.5);
	ck_assert(s == 221.0 / 256); /* 256 sin(pi/3) = 221.7 */
	pe_rotation(&f, &quarter, 1, &c, &s);
	ck_assert(c == 181.0 / 256 && s == 181.0 / 256);
	pe_rotation(&f, &quarter, 3, &c, &s);
	ck_assert(c == -182.0 / 256 && s == 181.0 / 256);
	pe_rotation(&f, &third, 6, &c, &s);
	ck_assert(c == 1 && s == 0);
	pe_rotation(&f, &third, 2, &c, &s);
	ck_assert(c == -0.5);
	Semantics h = {.kind = SEM_IEEE, .fmt = IEEE_FP16};
	pe_rotation(&h, &quarter, 1, &c, &s); /* 0.70710678: 1448/2048 */
	ck_assert(c == 1448.0 / 2048);
	/* rational angles repeat exactly with their period */
	Angle sev = {.num = 2, .den = 7};
	for (uint64_t i = 0; i < 200; i++)
		ck_assert(pe_cos(&f, &sev, -1, 3, i) ==
			  pe_cos(&f, &sev, -1, 3, i + 7));
}
END_TEST

/* ---- relative-position heads against a naive attention ----------------- */

/* A one-head model over {a, b}: value 3 [a] - 1 at letters and `bos` at
 * BOS, content-free logits with the given T5 biases (NULL: none), URPE
 * diagonals and ALiBi slope. */
static void one_head(Model *m, const double *t5, const double *urpe,
		     size_t nurpe, double beyond, double slope, int s)
{
	memset(m, 0, sizeof *m);
	m->p = 20;
	m->s = s;
	m->pe = strdup("t5");
	m->nletters = 2;
	m->alphabet = calloc(3, sizeof *m->alphabet);
	m->alphabet[0] = strdup("a");
	m->alphabet[1] = strdup("b");
	m->d = 3; /* BOS, [a], head */
	m->comps = calloc(3, sizeof *m->comps);
	m->embed = calloc(9, sizeof *m->embed);
	m->embed[0] = 1;     /* BOS */
	m->embed[3 + 1] = 1; /* a */
	m->nlayers = 1;
	m->layers = calloc(1, sizeof *m->layers);
	Head *h = calloc(1, sizeof *h);
	m->layers[0].heads = h;
	m->layers[0].nheads = 1;
	h->wv = (Sparse){1, calloc(2, sizeof(Entry)), 2};
	h->wv.e[0] = (Entry){0, 1, 3};
	h->wv.e[1] = (Entry){0, 0, -2}; /* BOS: -2 - 1 = -3 */
	h->bv = -1;
	h->slope = slope;
	h->out = 2;
	if (t5) {
		h->t5 = calloc(1, sizeof *h->t5);
		*h->t5 = (T5Bias){16, 40, false, calloc(16, sizeof(double))};
		memcpy(h->t5->bias, t5, 16 * sizeof(double));
	}
	if (urpe) {
		h->urpe = calloc(nurpe, sizeof(double));
		memcpy(h->urpe, urpe, nurpe * sizeof(double));
		h->nurpe = nurpe;
		h->urpe_beyond = beyond;
	}
	m->wout = (Sparse){1, calloc(1, sizeof(Entry)), 1};
	m->wout.e[0] = (Entry){0, 2, 1};
}

/* The head's output at the last position of w, summing over every key
 * in the order BOS, 1, ..., i (the semantics' order). */
static double naive_head(const Model *m, const Semantics *sem,
			 const uint32_t *w, size_t n)
{
	const Head *h = &m->layers[0].heads[0];
	T5 t;
	const char *err;
	if (h->t5)
		t5_init(&t, h->t5->buckets, h->t5->max_distance, false, &err);
	Acc num, den;
	acc_zero(&num);
	acc_zero(&den);
	for (size_t j = 0; j <= n; j++) {
		size_t d = n - j;
		double b = -h->slope * (double)d;
		if (h->t5)
			b += h->t5->bias[t5_bucket(&t, d)];
		double e = sem_exp(sem, sem_affine(sem, NULL, NULL, 0, b));
		double v = j == 0 ? -3 : w[j - 1] == 1 ? 2 : -1;
		double c = !h->urpe ? 1 : d < h->nurpe ? h->urpe[d] : h->urpe_beyond;
		if (e != 0)
			acc_add(sem, &den, e);
		if (e != 0 && c != 0)
			acc_add(sem, &num, sem_mul(sem, h->urpe ? sem_mul(sem, e, c) : e, v));
	}
	if (h->t5)
		t5_free(&t);
	if (acc_is_zero(sem, &den)) { /* uniform row, then C */
		for (size_t j = 0; j <= n; j++) {
			size_t d = n - j;
			double v = j == 0 ? -3 : w[j - 1] == 1 ? 2 : -1;
			double c = !h->urpe ? 1 : d < h->nurpe ? h->urpe[d] : h->urpe_beyond;
			acc_add(sem, &den, 1);
			if (c != 0)
				acc_add(sem, &num, sem_mul(sem, h->urpe ? sem_mul(sem, 1, c) : 1, v));
		}
	}
	return acc_div(sem, &num, &den);
}

START_TEST(heads_naive)
{
	Rng r;
	rng_seed(&r, 77 + (uint64_t)_i);
	static const Semantics sems[] = {
		{.kind = SEM_KNEEDEEP}, {.kind = SEM_ROUNDED_SUMS},
		{.kind = SEM_IEEE, .fmt = IEEE_BF16},
	};
	for (int rep = 0; rep < 6; rep++) {
		double t5[16], urpe[5];
		for (int b = 0; b < 16; b++) /* biases in [-8, 2), steps of 1/4 */
			t5[b] = ((double)rng_below(&r, 40) - 32) / 4;
		for (int d = 0; d < 5; d++)
			urpe[d] = ((double)rng_below(&r, 16) - 8) / 4;
		double beyond = ((double)rng_below(&r, 8) - 4) / 4;
		double slope = rep % 3 == 2 ? (double)rng_below(&r, 8) / 8 : 0;
		Model m;
		one_head(&m, rep % 3 == 1 ? NULL : t5, rep % 3 ? urpe : NULL,
			 rep % 2 ? 5 : 2, beyond, slope, 6);
		for (size_t si = 0; si < 3; si++) {
			Sim *sim = sim_new(&m, &sems[si]);
			Semantics sem = sems[si];
			sem.p = 20;
			sem.s = 6;
			uint32_t w[300];
			for (size_t i = 0; i < 300; i++) {
				w[i] = 1 + rng_below(&r, 2);
				sim_push(sim, w[i]);
				double got = sim_residual(sim, i + 1, 1)[2];
				double want = naive_head(&m, &sem, w, i + 1);
				ck_assert_msg(got == want,
					      "rep %d %s at %zu: %g, naive %g", rep,
					      semantics_name(&sem), i + 1, got, want);
			}
			sim_free(sim);
		}
		model_free(&m);
	}
}
END_TEST

Suite *pe_suite(void)
{
	Suite *su = suite_create("pe");
	TCase *tc = tcase_create("arithmetic");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, t5_naive);
	tcase_add_test(tc, t5_table);
	tcase_add_loop_test(tc, trig_rounding, 0, 6);
	tcase_add_test(tc, trig_by_hand);
	tcase_add_loop_test(tc, heads_naive, 0, 2);
	suite_add_tcase(su, tc);
	return su;
}
