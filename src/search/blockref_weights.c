/* blockref_weights.c -- the weight blockref_families of the class F_d(C, T)
 * (past-only, or each count past or future) and the sums of q weights
 * of a set, for blockref's splitting and exact test. */
#include <config.h>

#include "search/blockref_impl.h"

#include <string.h>

#include "base/mem.h"

uint64_t blockref_small_width = 1 << 15, blockref_shift_bits = 1 << 20;

/* ---- weight sets -------------------------------------------------------- */

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

static void wset_of(const int32_t *a, unsigned T, WSet *out)
{
	memset(out, 0, sizeof *out);
	for (unsigned m = 0; m < 1u << T; m++) {
		int32_t s = 0;
		for (unsigned i = 0; i < T; i++)
			if (m >> i & 1)
				s += a[i];
		bool seen = false;
		for (unsigned k = 0; k < out->n && !seen; k++)
			seen = out->w[k] == s;
		if (!seen)
			out->w[out->n++] = s;
	}
	sorted(out->w, out->n, sizeof *out->w, cmp_i32);
	out->lo = out->w[0];
	out->hi = out->w[out->n - 1];
	out->step = out->n > 1 ? out->w[1] - out->w[0] : 1;
	for (unsigned k = 1; k < out->n; k++)
		if (out->w[k] - out->w[k - 1] != out->step)
			out->step = 0;
}

static bool wset_equal(const WSet *x, const WSet *y, int sign)
{
	if (x->n != y->n)
		return false;
	for (unsigned k = 0; k < x->n; k++)
		if (x->w[k] != (sign > 0 ? y->w[k] : -y->w[x->n - 1 - k]))
			return false;
	return true;
}

static bool fam_equal(const Fam *x, const Fam *y, int sign)
{
	return wset_equal(&x->d[0], &y->d[0], sign) &&
	       wset_equal(&x->d[1], &y->d[1], sign);
}

/* The family of coefficients a whose counts in `future` (a mask) are
 * future counts. */
static void fam_of(const int32_t *a, unsigned T, unsigned future, Fam *f)
{
	int32_t part[2][INDIST_MAX_T];
	unsigned n[2] = {0, 0};
	for (unsigned i = 0; i < T; i++) {
		unsigned d = future >> i & 1;
		part[d][n[d]++] = a[i];
	}
	wset_of(part[0], n[0], &f->d[0]);
	wset_of(part[1], n[1], &f->d[1]);
}

/* Every family of a multiset of T coefficients in [-C, C] (and, two-
 * sided, a direction for each) but the one of weights {0} only, once
 * each; half: also once per pair F, -F. */
void blockref_families(Ctx *c)
{
	VEC(Fam) all = {0}, half = {0};
	int32_t a[INDIST_MAX_T];
	int C = (int)c->b.C;
	unsigned T = c->b.T, ndir = c->b.two_sided ? 1u << T : 1;
	for (unsigned i = 0; i < T; i++)
		a[i] = -C;
	for (;;) {
		for (unsigned dir = 0; dir < ndir; dir++) {
			Fam f;
			fam_of(a, T, dir, &f);
			bool dup = f.d[0].n == 1 && f.d[1].n == 1, mirror = false;
			for (size_t k = 0; k < all.len && !dup; k++)
				dup = fam_equal(&f, &all.data[k], 1);
			for (size_t k = 0; k < half.len && !dup && !mirror; k++)
				mirror = fam_equal(&f, &half.data[k], -1);
			if (!dup) {
				VEC_PUSH(all, f);
				if (!mirror)
					VEC_PUSH(half, f);
			}
		}
		unsigned i = T;
		while (i > 0 && a[i - 1] == C)
			i--;
		if (i == 0)
			break;
		a[i - 1]++;
		for (unsigned j = i; j < T; j++)
			a[j] = a[i - 1];
	}
	c->all = all.data;
	c->nall = all.len;
	c->half = half.data;
	c->nhalf = half.len;
}

/* The sums of q weights of w; false when the set is no progression and
 * too costly to list. */
bool blockref_tset_of(const WSet *w, uint64_t q, TSet *t)
{
	*t = (TSet){.lo = (int64_t)q * w->lo, .hi = (int64_t)q * w->hi};
	if (w->step) {
		t->first = t->lo;
		t->step = w->step;
		t->cnt = (uint64_t)(t->hi - t->lo) / (uint64_t)w->step + 1;
		return true;
	}
	uint64_t width = (uint64_t)(t->hi - t->lo) + 1;
	if (q * width * w->n > SUMSET_BUDGET)
		return false;
	/* reach[v - i*lo] after i weights */
	uint8_t *reach = xcalloc(width, 1), *next = xcalloc(width, 1);
	reach[0] = 1;
	uint64_t span = 0;
	for (uint64_t i = 0; i < q; i++) {
		memset(next, 0, width);
		for (uint64_t v = 0; v <= span; v++)
			if (reach[v])
				for (unsigned k = 0; k < w->n; k++)
					next[v + (uint64_t)(w->w[k] - w->lo)] = 1;
		span += (uint64_t)(w->hi - w->lo);
		uint8_t *sw = reach;
		reach = next;
		next = sw;
	}
	t->vals = xmalloc(width * sizeof *t->vals);
	for (uint64_t v = 0; v < width; v++)
		if (reach[v])
			t->vals[t->cnt++] = t->lo + (int64_t)v;
	free(reach);
	free(next);
	return true;
}

int64_t blockref_tset_at(const TSet *t, uint64_t i)
{
	return t->vals ? t->vals[i] : t->first + (int64_t)i * t->step;
}

void blockref_tune(unsigned small_width)
{
	blockref_small_width = small_width ? small_width : 1 << 15;
	blockref_shift_bits = small_width ? small_width : 1 << 20;
}
