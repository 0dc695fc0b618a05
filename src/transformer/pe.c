/* pe.c -- exactly rounded trigonometric features and T5 buckets (see
 * pe.h). */
#include <config.h>
#include "transformer/pe.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "base/buf.h"
#include "base/mem.h"

static int64_t gcd64(int64_t a, int64_t b)
{
	if (a < 0)
		a = -a;
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

bool rational_parse(const char *text, int64_t *num, int64_t *den)
{
	char *end;
	errno = 0;
	long long a = strtoll(text, &end, 10), b = 1;
	if (end == text || errno || a > (1LL << 40) || a < -(1LL << 40))
		return false;
	if (*end == '/') {
		const char *t = end + 1;
		if (*t < '0' || *t > '9')
			return false;
		b = strtoll(t, &end, 10);
		if (errno || b <= 0 || b > (1LL << 40))
			return false;
	}
	if (*end)
		return false;
	int64_t g = gcd64(a, b);
	*num = a / (g ? g : 1);
	*den = b / (g ? g : 1);
	return true;
}

char *rational_text(int64_t num, int64_t den)
{
	Buf b = {0};
	if (den == 1)
		buf_printf(&b, "%lld", (long long)num);
	else
		buf_printf(&b, "%lld/%lld", (long long)num, (long long)den);
	return buf_take(&b);
}

/* x mod m in [0, m), m > 0. */
static __int128 mod128(__int128 x, __int128 m)
{
	__int128 r = x % m;
	return r < 0 ? r + m : r;
}

/* lo <= t * pi <= hi for t = n / d >= 0 (added to lo, hi). */
static void add_pi_multiple(mpfr_t lo, mpfr_t hi, __int128 n, __int128 d)
{
	mpfr_prec_t prec = mpfr_get_prec(lo);
	mpfr_t a, b, q;
	mpfr_inits2(prec, a, b, q, (mpfr_ptr)0);
	mpfr_const_pi(a, MPFR_RNDD);
	mpfr_const_pi(b, MPFR_RNDU);
	/* n and d as two 62-bit halves, exact in 256 bits */
	mpfr_set_prec(q, 256);
	mpfr_set_sj_2exp(q, (intmax_t)(n >> 62), 62, MPFR_RNDN);
	mpfr_add_si(q, q, (long)(n & (((__int128)1 << 62) - 1)), MPFR_RNDN);
	mpfr_mul(a, a, q, MPFR_RNDD);
	mpfr_mul(b, b, q, MPFR_RNDU);
	mpfr_set_sj_2exp(q, (intmax_t)(d >> 62), 62, MPFR_RNDN);
	mpfr_add_si(q, q, (long)(d & (((__int128)1 << 62) - 1)), MPFR_RNDN);
	mpfr_div(a, a, q, MPFR_RNDD);
	mpfr_div(b, b, q, MPFR_RNDU);
	mpfr_add(lo, lo, a, MPFR_RNDD);
	mpfr_add(hi, hi, b, MPFR_RNDU);
	mpfr_clears(a, b, q, (mpfr_ptr)0);
}

/* lo <= pos * base^(-2k/d) <= hi (base > 1: the power grows with the
 * exponent, so bounds of the exponent give bounds of the power). */
static void standard_bounds(mpfr_t lo, mpfr_t hi, const Angle *th,
			    uint64_t pos)
{
	mpfr_prec_t prec = mpfr_get_prec(lo);
	mpfr_t e, p;
	mpfr_inits2(prec, e, p, (mpfr_ptr)0);
	mpfr_set_prec(p, 80);
	mpfr_set_uj(p, pos, MPFR_RNDN); /* exact */
	mpfr_set_si(e, -2 * (long)th->k, MPFR_RNDN);
	mpfr_div_ui(e, e, th->d, MPFR_RNDD);
	mpfr_ui_pow(lo, th->base, e, MPFR_RNDD);
	mpfr_set_si(e, -2 * (long)th->k, MPFR_RNDN);
	mpfr_div_ui(e, e, th->d, MPFR_RNDU);
	mpfr_ui_pow(hi, th->base, e, MPFR_RNDU);
	mpfr_mul(lo, lo, p, MPFR_RNDD);
	mpfr_mul(hi, hi, p, MPFR_RNDU);
	mpfr_clears(e, p, (mpfr_ptr)0);
}

/* Twice cos(t pi) when it is rational (t = n/d in [0, 2): t a multiple
 * of 1/2 or 1/3, Niven's theorem), else false. */
static bool rational_cos(__int128 n, __int128 d, int *twice)
{
	if ((6 * n) % d != 0)
		return false;
	static const int tab[12] = {2, 9, 1, 0, -1, 9, -2, 9, -1, 0, 1, 9};
	int q = (int)(6 * n / d);
	*twice = tab[q];
	return tab[q] != 9;
}

double pe_cos(const Semantics *sem, const Angle *th, int64_t pnum,
	      int64_t pden, uint64_t pos)
{
	__int128 n = 0, d = 1; /* the rational part, times pi, in [0, 2) */
	if (th->standard || pos == 0) {
		d = pden;
		n = mod128(pnum, 2 * d);
	} else {
		d = (__int128)th->den * pden;
		n = mod128((__int128)mod128(pos, 2 * th->den) * th->num * pden +
				   (__int128)pnum * th->den,
			   2 * d);
	}
	int twice;
	if ((!th->standard || pos == 0) && rational_cos(n, d, &twice))
		return sem_round_dyadic(sem, twice, 1);
	double out = 0;
	for (mpfr_prec_t prec = 64; prec <= 1 << 16; prec *= 2) {
		mpfr_t lo, hi, w, c;
		mpfr_inits2(prec, lo, hi, w, c, (mpfr_ptr)0);
		if (th->standard && pos) {
			standard_bounds(lo, hi, th, pos);
		} else {
			mpfr_set_zero(lo, 1);
			mpfr_set_zero(hi, 1);
		}
		add_pi_multiple(lo, hi, n, d);
		/* |cos x - cos y| <= |x - y| */
		mpfr_sub(w, hi, lo, MPFR_RNDU);
		mpfr_cos(c, lo, MPFR_RNDD);
		mpfr_sub(lo, c, w, MPFR_RNDD);
		mpfr_cos(c, hi, MPFR_RNDU);
		mpfr_add(hi, c, w, MPFR_RNDU);
		double a = sem_round_mpfr(sem, lo), b = sem_round_mpfr(sem, hi);
		mpfr_clears(lo, hi, w, c, (mpfr_ptr)0);
		out = a;
		if (a == b)
			break;
	}
	return out;
}

void pe_rotation(const Semantics *sem, const Angle *th, uint64_t pos,
		 double *c, double *s)
{
	*c = pe_cos(sem, th, 0, 1, pos);
	*s = pe_cos(sem, th, -1, 2, pos); /* sin x = cos(x - pi/2) */
}

uint64_t pe_breaks(const Semantics *sem, const Angle *th,
		   uint64_t period, uint64_t limit, uint64_t *first)
{
	uint64_t n = 0;
	*first = limit + 1;
	for (uint64_t i = 0; i <= limit; i++) {
		double c0, s0, c1, s1;
		pe_rotation(sem, th, i, &c0, &s0);
		pe_rotation(sem, th, i + period, &c1, &s1);
		if (c0 != c1 || s0 != s1) {
			if (!n++)
				*first = i;
		}
	}
	return n;
}

char *angle_text(const Angle *a)
{
	Buf b = {0};
	if (a->standard)
		buf_printf(&b, "%u^(-2*%u/%u) rad", a->base, a->k, a->d);
	else if (a->den == 1)
		buf_printf(&b, "%lld pi", (long long)a->num);
	else
		buf_printf(&b, "%lld/%lld pi", (long long)a->num,
			   (long long)a->den);
	return buf_take(&b);
}

/* ---- T5 ----------------------------------------------------------------- */

bool t5_init(T5 *t, uint32_t buckets, uint32_t max_distance,
	     bool bidirectional, const char **err)
{
	memset(t, 0, sizeof *t);
	uint32_t nb = bidirectional ? buckets / 2 : buckets;
	if (buckets > 4096 || nb < 2) {
		*err = "t5: num_buckets must be 2..4096 (4.. when bidirectional)";
		return false;
	}
	uint32_t e = nb / 2, a = nb - e;
	if (max_distance <= e) {
		*err = "t5: max_distance must exceed the exact buckets "
		       "(num_buckets/2, per direction)";
		return false;
	}
	t->buckets = buckets;
	t->max_distance = max_distance;
	t->bidirectional = bidirectional;
	t->exact = e;
	t->top = nb;
	t->start = xcalloc(a, sizeof *t->start);
	mpz_t v, r;
	mpz_inits(v, r, NULL);
	for (uint32_t k = 0; k < a; k++) {
		/* the least n with n^a >= max^k e^(a-k) */
		mpz_ui_pow_ui(v, max_distance, k);
		mpz_ui_pow_ui(r, e, a - k);
		mpz_mul(v, v, r);
		int exact = mpz_root(r, v, a);
		if (!exact)
			mpz_add_ui(r, r, 1);
		t->start[k] = mpz_get_ui(r);
	}
	mpz_clears(v, r, NULL);
	return true;
}

uint32_t t5_bucket(const T5 *t, uint64_t n)
{
	if (n < t->exact)
		return (uint32_t)n;
	/* the number of k >= 1 with start[k] <= n (starts never decrease) */
	uint32_t lo = 1, hi = t->top - t->exact;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (t->start[mid] <= n)
			lo = mid + 1;
		else
			hi = mid;
	}
	return t->exact + lo - 1;
}

uint64_t t5_last_start(const T5 *t)
{
	uint32_t a = t->top - t->exact;
	return a > 1 ? t->start[a - 1] : t->exact;
}

void t5_free(T5 *t)
{
	free(t->start);
	t->start = NULL;
}
