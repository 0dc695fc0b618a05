/* fixed.c -- rounding in F_{p,s} and in the IEEE formats (see fixed.h). */
#include <config.h>
#include "transformer/fixed.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "base/buf.h"

bool semantics_parse(const char *text, Semantics *out)
{
	if (strcmp(text, "kneedeep") == 0)
		out->kind = SEM_KNEEDEEP;
	else if (strcmp(text, "rounded-sums") == 0)
		out->kind = SEM_ROUNDED_SUMS;
	else if (strcmp(text, "ieee=fp32") == 0)
		out->kind = SEM_IEEE, out->fmt = IEEE_FP32;
	else if (strcmp(text, "ieee=bf16") == 0)
		out->kind = SEM_IEEE, out->fmt = IEEE_BF16;
	else if (strcmp(text, "ieee=fp16") == 0)
		out->kind = SEM_IEEE, out->fmt = IEEE_FP16;
	else
		return false;
	return true;
}

const char *semantics_name(const Semantics *sem)
{
	switch (sem->kind) {
	case SEM_KNEEDEEP: return "kneedeep";
	case SEM_ROUNDED_SUMS: return "rounded-sums";
	case SEM_IEEE:
		return sem->fmt == IEEE_FP32   ? "ieee=fp32"
		       : sem->fmt == IEEE_BF16 ? "ieee=bf16"
					       : "ieee=fp16";
	}
	return "?";
}

bool precision_parse(const char *text, int *p, int *s)
{
	char *end;
	errno = 0;
	long a = strtol(text, &end, 10);
	if (end == text || *end != ',' || errno)
		return false;
	const char *t = end + 1;
	long b = strtol(t, &end, 10);
	if (end == t || *end != '\0' || errno)
		return false;
	if (a < 2 || a > FIXED_MAX_P || b < 0 || b > a - 2)
		return false;
	*p = (int)a;
	*s = (int)b;
	return true;
}

int64_t fixed_max_m(int p)
{
	return ((int64_t)1 << (p - 1)) - 1;
}

int64_t fixed_min_m(int p)
{
	return -((int64_t)1 << (p - 1));
}

/* floor(a / b) for b > 0. */
static __int128 floor_div(__int128 a, __int128 b)
{
	__int128 q = a / b;
	if (a % b != 0 && a < 0)
		q--;
	return q;
}

static double from_m(const Semantics *sem, __int128 m)
{
	if (m > fixed_max_m(sem->p))
		m = fixed_max_m(sem->p);
	if (m < fixed_min_m(sem->p))
		m = fixed_min_m(sem->p);
	return ldexp((double)(int64_t)m, -sem->s);
}

/* a * 2^k without shifting a negative number (undefined in C). */
static __int128 times_pow2(__int128 a, int k)
{
	return a * ((__int128)1 << k);
}

/* The mantissa of a value of F_{p,s}. */
static __int128 to_m(const Semantics *sem, double x)
{
	return (__int128)(int64_t)ldexp(x, sem->s);
}

/* ---- IEEE through MPFR: the exponent range is switched per operation. */

typedef struct {
	mpfr_exp_t emin, emax;
} Range;

static int ieee_prec(IeeeFormat f)
{
	return f == IEEE_FP32 ? 24 : f == IEEE_BF16 ? 8 : 11;
}

static void ieee_begin(const Semantics *sem, Range *saved)
{
	saved->emin = mpfr_get_emin();
	saved->emax = mpfr_get_emax();
	/* emin = log2(smallest subnormal) + 1, as MPFR's own recipe. */
	switch (sem->fmt) {
	case IEEE_FP32: mpfr_set_emin(-148); mpfr_set_emax(128); break;
	case IEEE_BF16: mpfr_set_emin(-132); mpfr_set_emax(128); break;
	case IEEE_FP16: mpfr_set_emin(-23); mpfr_set_emax(16); break;
	}
}

static double ieee_end(mpfr_t y, int t, Range *saved)
{
	t = mpfr_check_range(y, t, MPFR_RNDN);
	mpfr_subnormalize(y, t, MPFR_RNDN);
	double d = mpfr_get_d(y, MPFR_RNDN);
	mpfr_set_emin(saved->emin);
	mpfr_set_emax(saved->emax);
	return d;
}

/* Exact value x (wide precision, default range) rounded to the format. */
static double ieee_round(const Semantics *sem, mpfr_srcptr x)
{
	Range r;
	mpfr_t y;
	mpfr_init2(y, ieee_prec(sem->fmt));
	ieee_begin(sem, &r);
	int t = mpfr_set(y, x, MPFR_RNDN);
	double d = ieee_end(y, t, &r);
	mpfr_clear(y);
	return d;
}

typedef int (*Binop)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
static double ieee_binop_mpfr(const Semantics *sem, Binop op, double a,
			      double b);

/* An exact double rounded to the format, without MPFR: round to nearest
 * even at the quantum of x's binade (clamped at the subnormal quantum),
 * infinity beyond the largest finite value. */
static double ieee_from_double(const Semantics *sem, double x)
{
	if (sem->fmt == IEEE_FP32)
		return (double)(float)x; /* C's conversion: RNE, subnormals */
	if (x == 0 || isnan(x) || isinf(x))
		return x;
	int p = ieee_prec(sem->fmt), e;
	int emin = sem->fmt == IEEE_FP16 ? -13 : -125; /* frexp exponents */
	double maxf = sem->fmt == IEEE_FP16 ? 65504.0 : ldexp(255.0 / 128, 127);
	frexp(x, &e);
	double q = ldexp(1, (e > emin ? e : emin) - p);
	double y = nearbyint(x / q) * q;
	if (fabs(y) > maxf)
		return copysign(INFINITY, x);
	return y;
}

/* +, *, / of two values of the format.  Computed in binary64 and rounded
 * to the format: rounding twice is innocuous for these operations when
 * the wide precision is at least 2p + 2 (Figueroa 1995; 53 >= 50), so the
 * result is the correctly rounded one.  MPFR is the reference kept for
 * other operations. */
static double ieee_binop(const Semantics *sem, Binop op, double a, double b)
{
	if (op == mpfr_add)
		return ieee_from_double(sem, a + b);
	if (op == mpfr_mul)
		return ieee_from_double(sem, a * b);
	if (op == mpfr_div)
		return ieee_from_double(sem, a / b);
	return ieee_binop_mpfr(sem, op, a, b);
}

static double ieee_binop_mpfr(const Semantics *sem, Binop op, double a,
			      double b)
{
	mpfr_t x, y, z;
	mpfr_inits2(64, x, y, (mpfr_ptr)0);
	mpfr_set_d(x, a, MPFR_RNDN);
	mpfr_set_d(y, b, MPFR_RNDN);
	mpfr_init2(z, ieee_prec(sem->fmt));
	Range r;
	ieee_begin(sem, &r);
	int t = op(z, x, y, MPFR_RNDN);
	double d = ieee_end(z, t, &r);
	mpfr_clears(x, y, z, (mpfr_ptr)0);
	return d;
}

/* ---- the operations ------------------------------------------------- */

double sem_reference_op(const Semantics *sem, char op, double a, double b)
{
	return ieee_binop_mpfr(sem, op == '+' ? mpfr_add
				    : op == '*' ? mpfr_mul : mpfr_div, a, b);
}

double sem_round_dyadic(const Semantics *sem, __int128 num, int k)
{
	if (sem->kind == SEM_IEEE) {
		mpfr_t x;
		mpfr_init2(x, 256);
		int64_t hi = (int64_t)(num / ((__int128)1 << 62));
		int64_t lo = (int64_t)(num % ((__int128)1 << 62));
		mpfr_set_sj_2exp(x, hi, 62, MPFR_RNDN);
		mpfr_t l;
		mpfr_init2(l, 64);
		mpfr_set_sj(l, lo, MPFR_RNDN);
		mpfr_add(x, x, l, MPFR_RNDN); /* exact in 256 bits */
		mpfr_div_2si(x, x, k, MPFR_RNDN);
		double d = ieee_round(sem, x);
		mpfr_clears(x, l, (mpfr_ptr)0);
		return d;
	}
	if (k >= sem->s)
		return from_m(sem, floor_div(num, (__int128)1 << (k - sem->s)));
	/* scaling up: saturate before the shift can overflow */
	__int128 lim = (__int128)1 << (FIXED_MAX_P + 1);
	if (num > lim)
		num = lim;
	if (num < -lim)
		num = -lim;
	return from_m(sem, times_pow2(num, sem->s - k));
}

double sem_div(const Semantics *sem, double num, double den)
{
	if (sem->kind == SEM_IEEE)
		return ieee_binop(sem, mpfr_div, num, den);
	assert(den > 0);
	return from_m(sem, floor_div(times_pow2(to_m(sem, num), sem->s), to_m(sem, den)));
}

double sem_mul(const Semantics *sem, double x, double y)
{
	if (sem->kind == SEM_IEEE)
		return ieee_binop(sem, mpfr_mul, x, y);
	return sem_round_dyadic(sem, to_m(sem, x) * to_m(sem, y), 2 * sem->s);
}

double sem_add(const Semantics *sem, double x, double y)
{
	if (sem->kind == SEM_IEEE)
		return ieee_binop(sem, mpfr_add, x, y);
	return from_m(sem, to_m(sem, x) + to_m(sem, y));
}

double sem_affine(const Semantics *sem, const double *w, const double *x,
		  int n, double b)
{
	if (sem->kind == SEM_IEEE) {
		/* exact in binary64 when no product and no partial sum is
		 * rounded (fma and TwoSum tell): then round once */
		double acc0 = b;
		bool exact = true;
		for (int i = 0; i < n && exact; i++) {
			double pr = w[i] * x[i];
			double s = acc0 + pr, bb = s - acc0;
			exact = fma(w[i], x[i], -pr) == 0 &&
				(acc0 - (s - bb)) + (pr - bb) == 0 && isfinite(s);
			acc0 = s;
		}
		if (exact)
			return ieee_from_double(sem, acc0);
		/* exact: products of two 24-bit values over the fp32 range
		 * and their sum fit easily in 1200 bits */
		mpfr_t acc, t, u;
		mpfr_inits2(1200, acc, t, u, (mpfr_ptr)0);
		mpfr_set_d(acc, b, MPFR_RNDN);
		for (int i = 0; i < n; i++) {
			mpfr_set_d(t, w[i], MPFR_RNDN);
			mpfr_set_d(u, x[i], MPFR_RNDN);
			mpfr_mul(t, t, u, MPFR_RNDN);
			mpfr_add(acc, acc, t, MPFR_RNDN);
		}
		double d = ieee_round(sem, acc);
		mpfr_clears(acc, t, u, (mpfr_ptr)0);
		return d;
	}
	__int128 acc = times_pow2(to_m(sem, b), sem->s);
	for (int i = 0; i < n; i++)
		acc += to_m(sem, w[i]) * to_m(sem, x[i]);
	return sem_round_dyadic(sem, acc, 2 * sem->s);
}

double sem_round_mpfr(const Semantics *sem, mpfr_srcptr x)
{
	if (sem->kind == SEM_IEEE)
		return ieee_round(sem, x);
	mpfr_t y;
	mpfr_init2(y, mpfr_get_prec(x) + 2);
	mpfr_mul_2si(y, x, sem->s, MPFR_RNDD); /* exact */
	mpfr_floor(y, y);
	__int128 m;
	if (mpfr_cmp_si(y, (long)fixed_max_m(sem->p)) > 0)
		m = fixed_max_m(sem->p);
	else if (mpfr_cmp_si(y, (long)fixed_min_m(sem->p)) < 0)
		m = fixed_min_m(sem->p);
	else
		m = mpfr_get_sj(y, MPFR_RNDD);
	mpfr_clear(y);
	return from_m(sem, m);
}

double sem_convert(const Semantics *sem, double x)
{
	if (sem->kind != SEM_IEEE)
		return x;
	mpfr_t t;
	mpfr_init2(t, 64);
	mpfr_set_d(t, x, MPFR_RNDN);
	double d = ieee_round(sem, t);
	mpfr_clear(t);
	return d;
}

/* floor(exp(x) * 2^s) by a Ziv loop: bounds from below and above at
 * growing precision until their floors agree; exp(x) is transcendental
 * for x != 0, so this terminates. */
static double fixed_exp(const Semantics *sem, double x)
{
	if (x == 0)
		return from_m(sem, (__int128)1 << sem->s);
	/* exp(x) < 2^-s iff x < -s ln 2: the floor is 0 (the margin is far
	 * above the error of the double) */
	if (x < -sem->s * M_LN2 - 1e-9)
		return 0;
	double lim = ldexp(1.0, sem->p); /* beyond any mantissa */
	for (mpfr_prec_t prec = 64;; prec *= 2) {
		mpfr_t xm, lo, hi;
		mpfr_inits2(prec, xm, lo, hi, (mpfr_ptr)0);
		mpfr_set_d(xm, x, MPFR_RNDN);
		mpfr_exp(lo, xm, MPFR_RNDD);
		mpfr_exp(hi, xm, MPFR_RNDU);
		mpfr_mul_2si(lo, lo, sem->s, MPFR_RNDD);
		mpfr_mul_2si(hi, hi, sem->s, MPFR_RNDU);
		mpfr_floor(lo, lo);
		mpfr_floor(hi, hi);
		bool done = mpfr_equal_p(lo, hi) || mpfr_cmp_d(lo, lim) > 0;
		double m = mpfr_cmp_d(lo, lim) > 0 ? lim : mpfr_get_d(lo, MPFR_RNDN);
		mpfr_clears(xm, lo, hi, (mpfr_ptr)0);
		if (done)
			return from_m(sem, (__int128)(int64_t)m);
	}
}

double sem_exp(const Semantics *sem, double x)
{
	if (sem->kind != SEM_IEEE)
		return fixed_exp(sem, x);
	/* below half the least subnormal (2^-150, 2^-134, 2^-25): 0 */
	double under = sem->fmt == IEEE_FP32 ? -150 : sem->fmt == IEEE_BF16 ? -134 : -25;
	if (x < under * M_LN2 - 1e-9)
		return 0;
	mpfr_t xm, y;
	mpfr_init2(xm, 64);
	mpfr_set_d(xm, x, MPFR_RNDN);
	mpfr_init2(y, ieee_prec(sem->fmt));
	Range r;
	ieee_begin(sem, &r);
	int t = mpfr_exp(y, xm, MPFR_RNDN);
	double d = ieee_end(y, t, &r);
	mpfr_clears(xm, y, (mpfr_ptr)0);
	return d;
}

void acc_zero(Acc *a)
{
	a->m = 0;
	a->v = 0;
}

void acc_add(const Semantics *sem, Acc *a, double term)
{
	if (sem->kind == SEM_KNEEDEEP)
		a->m += to_m(sem, term);
	else
		a->v = sem_add(sem, a->v, term);
}

bool acc_is_zero(const Semantics *sem, const Acc *a)
{
	return sem->kind == SEM_KNEEDEEP ? a->m == 0 : a->v == 0;
}

double acc_div(const Semantics *sem, const Acc *num, const Acc *den)
{
	if (sem->kind == SEM_KNEEDEEP)
		return from_m(sem, floor_div(times_pow2(num->m, sem->s), den->m));
	return sem_div(sem, num->v, den->v);
}

char *dyadic_text(double x)
{
	int k = 0;
	while (x != floor(x) && k < 62) {
		x *= 2;
		k++;
	}
	Buf b = {0};
	if (k == 0)
		buf_printf(&b, "%lld", (long long)x);
	else
		buf_printf(&b, "%lld/%llu", (long long)x,
			   (unsigned long long)1 << k);
	return buf_take(&b);
}

bool dyadic_parse(const char *text, double *out)
{
	char *end;
	errno = 0;
	long long m = strtoll(text, &end, 10);
	if (end == text || errno || m > (1LL << 53) || m < -(1LL << 53))
		return false;
	int k = 0;
	if (*end == '/') {
		const char *t = end + 1;
		if (*t < '0' || *t > '9')
			return false;
		unsigned long long d = strtoull(t, &end, 10);
		if (errno || d == 0 || (d & (d - 1)) != 0)
			return false;
		while (d > 1) {
			d >>= 1;
			k++;
		}
	}
	if (*end != '\0')
		return false;
	*out = ldexp((double)m, -k);
	return true;
}
