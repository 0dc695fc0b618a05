/* indist_separable.c -- two count vectors decided by bitsets over the
 * reachable sums, and the atom that separates them. */
#include <config.h>

#include "search/indist_separable.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/* dst |= src shifted up by k bits (down when k < 0); nw words each. */
static void shift_or(Bits *dst, const Bits *src, size_t nw, long k)
{
	if (k >= 0) {
		size_t q = (size_t)k >> 6, r = (size_t)k & 63;
		for (size_t i = nw; i-- > q;) {
			Bits v = src[i - q] << r;
			if (r && i - q > 0)
				v |= src[i - q - 1] >> (64 - r);
			dst[i] |= v;
		}
	} else {
		size_t q = (size_t)(-k) >> 6, r = (size_t)(-k) & 63;
		for (size_t i = 0; i + q < nw; i++) {
			Bits v = src[i + q] >> r;
			if (r && i + q + 1 < nw)
				v |= src[i + q + 1] << (64 - r);
			dst[i] |= v;
		}
	}
}

static bool bit(const Bits *a, size_t i) { return a[i >> 6] >> (i & 63) & 1; }

/* A budget for one decision: beyond it the pair counts as separated
 * without a formula (a finer partition only adds separations, so every
 * "indistinguishable" stays true). */
enum { DP_MAX_WORDS = 1 << 22 };

typedef struct {
	const uint32_t *x, *y; /* counts at p and at q */
	uint32_t *d1, *d0;     /* coordinates with x != y, with x == y > 0 */
	size_t n1, n0;
	unsigned stride;       /* a coordinate's direction: k % stride */
} Diff;

static bool same_key(const Shifts *c, const Diff *df)
{
	if (!c->valid || c->key.len != 2 * df->n0)
		return false;
	for (size_t i = 0; i < df->n0; i++)
		if (c->key.data[2 * i] != df->d0[i] ||
		    c->key.data[2 * i + 1] != df->x[df->d0[i]])
			return false;
	return true;
}

/* Fills sh (all layers when wit, for the way back) and c->pc; false when
 * too large. */
static bool shifts(Indist *x, const Diff *df, const Weights *w, Shifts *c,
		   bool wit)
{
	if (!wit && same_key(c, df))
		return true;
	c->valid = false;
	long s0 = 0;
	for (size_t i = 0; i < df->n0; i++)
		s0 += df->x[df->d0[i]];
	long Bs = w->maxabs * s0;
	size_t swidth = (size_t)(2 * Bs + 1), sw = (swidth + 63) / 64;
	size_t nl = wit ? df->n0 + 1 : 2;
	if (sw * nl > DP_MAX_WORDS)
		return false;
	mem_grow((void **)&x->sh.data, &x->sh.cap, sw * nl, sizeof(Bits));
	Bits *sh = x->sh.data;
	memset(sh, 0, sw * nl * sizeof *sh);
	sh[(size_t)Bs >> 6] |= (Bits)1 << (Bs & 63);
	for (size_t i = 0; i < df->n0; i++) {
		long xk = df->x[df->d0[i]];
		Bits *from = sh + (wit ? i : i % 2) * sw;
		Bits *to = sh + (wit ? i + 1 : (i + 1) % 2) * sw;
		if (!wit)
			memset(to, 0, sw * sizeof *to);
		unsigned d = df->d0[i] % df->stride;
		for (size_t v = 0; v < w->n[d]; v++)
			shift_or(to, from, sw, w->w[d][v] * xk);
	}
	const Bits *last = sh + (wit ? df->n0 : df->n0 % 2) * sw;
	mem_grow((void **)&c->pc.data, &c->pc.cap, swidth + 1, sizeof(uint32_t));
	uint32_t *pc = c->pc.data;
	pc[0] = 0;
	for (size_t i = 0; i < swidth; i++)
		pc[i + 1] = pc[i] + bit(last, i);
	c->Bs = Bs;
	c->key.len = 0;
	for (size_t i = 0; i < df->n0; i++) {
		VEC_PUSH(c->key, df->d0[i]);
		VEC_PUSH(c->key, df->x[df->d0[i]]);
	}
	c->valid = !wit;
	return true;
}

/* Back through the layers: the weight of each class (the caller's
 * layers, `per` words each, n + 1 of them), from the final point. */
static void way_back(const Diff *df, const Weights *w, const Bits *layers,
		     size_t per, size_t rw, bool twod, long Bx, long Bd,
		     long px, long pd, int32_t *wit)
{
	size_t n = twod ? df->n1 : df->n0;
	for (size_t i = n; i-- > 0;) {
		uint32_t k = twod ? df->d1[i] : df->d0[i];
		long xk = df->x[k], dk = (long)df->x[k] - (long)df->y[k];
		const Bits *prev = layers + i * per;
		unsigned dir = k % df->stride;
		for (size_t v = 0; v < w->n[dir]; v++) {
			long b = w->w[dir][v], qx = px - b * xk, qd = twod ? pd - b * dk : 0;
			if (qx < -Bx || qx > Bx || qd < -Bd || qd > Bd ||
			    !bit(prev + (size_t)(qd + Bd) * rw, (size_t)(qx + Bx)))
				continue;
			wit[k] = (int32_t)b;
			px = qx;
			pd = qd;
			break;
		}
	}
}

/* Is there a shift s with X1 + s in the window of delta?  The least such
 * index s + Bs in *at. */
static bool shift_hits(const Shifts *c, long C, long X1, long delta, long *at)
{
	long Bs = c->Bs, lo = -C + (delta < 0 ? delta : 0);
	long hi = C + (delta > 0 ? delta : 0);
	long a = lo - X1 + Bs, z = hi - X1 + Bs;
	if (a < 0)
		a = 0;
	if (z > 2 * Bs)
		z = 2 * Bs;
	const uint32_t *pc = c->pc.data;
	if (a > z || pc[z + 1] == pc[a])
		return false;
	while (pc[a + 1] == pc[a])
		a++;
	*at = a;
	return true;
}

/* Few classes differ: every choice of their weights is tried in turn
 * (the common case: one class differs), instead of the 2-D bitset. */
enum { FEW_CHOICES = 256 };

static bool few(const Diff *df, const Weights *w)
{
	size_t n = 1;
	for (size_t i = 0; i < df->n1 && n <= FEW_CHOICES; i++)
		n *= w->n[df->d1[i] % df->stride];
	return n <= FEW_CHOICES;
}

static int decide_few(Indist *x, const Diff *df, size_t wi, int32_t *wit,
		      long *X, long *Y)
{
	const Weights *w = &x->ws[wi];
	Shifts *c = &x->shc[wi];
	if (!shifts(x, df, w, c, wit != NULL))
		return -1;
	size_t digit[64] = {0};
	long C = (long)x->b.C;
	for (;;) {
		long X1 = 0, delta = 0, at;
		for (size_t i = 0; i < df->n1; i++) {
			uint32_t k = df->d1[i];
			long b = w->w[k % df->stride][digit[i]];
			X1 += b * (long)df->x[k];
			delta += b * ((long)df->x[k] - (long)df->y[k]);
		}
		if (delta != 0 && shift_hits(c, C, X1, delta, &at)) {
			if (wit) {
				for (size_t i = 0; i < df->n1; i++) {
					uint32_t k = df->d1[i];
					wit[k] = w->w[k % df->stride][digit[i]];
				}
				size_t sw = ((size_t)(2 * c->Bs + 1) + 63) / 64;
				way_back(df, w, x->sh.data, sw, sw, false, c->Bs, 0,
					 at - c->Bs, 0, wit);
				*X = X1 + (at - c->Bs);
				*Y = *X - delta;
			}
			return 1;
		}
		size_t i = 0;
		while (i < df->n1 && ++digit[i] == w->n[df->d1[i] % df->stride])
			digit[i++] = 0;
		if (i == df->n1)
			return 0;
	}
}

/* Decides one weight set.  Reachable (X1, Delta) over the classes whose
 * counts differ (rows by Delta, bits by X1), plus a shift s: separated
 * when some Delta != 0 row has X1 with X1 + s in [-C + min(Delta, 0),
 * C + max(Delta, 0)].  With `wit`, the weight of every class is written
 * there (indexed by class) and *X, *Y get the values.  Returns 1, 0, or
 * -1 (too large). */
static int decide_weights(Indist *x, const Diff *df, size_t wi, int32_t *wit,
			  long *X, long *Y)
{
	const Weights *w = &x->ws[wi];
	Shifts *c = &x->shc[wi];
	long m = w->maxabs, C = (long)x->b.C;
	long sx = 0, sd = 0;
	for (size_t i = 0; i < df->n1; i++) {
		uint32_t k = df->d1[i];
		sx += df->x[k];
		sd += labs((long)df->x[k] - (long)df->y[k]);
	}
	long Bx = m * sx, Bd = m * sd;
	if (few(df, w))
		return decide_few(x, df, wi, wit, X, Y);
	size_t width = (size_t)(2 * Bx + 1), rows = (size_t)(2 * Bd + 1);
	size_t rw = (width + 63) / 64, layer = rows * rw;
	size_t nl = wit ? df->n1 + 1 : 2;
	if (layer * nl > DP_MAX_WORDS || !shifts(x, df, w, c, wit != NULL))
		return -1;
	mem_grow((void **)&x->dp.data, &x->dp.cap, layer * nl, sizeof(Bits));
	Bits *dp = x->dp.data;
	memset(dp, 0, layer * nl * sizeof *dp);
	dp[(size_t)Bd * rw + ((size_t)Bx >> 6)] |= (Bits)1 << (Bx & 63);
	for (size_t i = 0; i < df->n1; i++) {
		uint32_t k = df->d1[i];
		long xk = df->x[k], dk = (long)df->x[k] - (long)df->y[k];
		Bits *from = dp + (wit ? i : i % 2) * layer;
		Bits *to = dp + (wit ? i + 1 : (i + 1) % 2) * layer;
		if (!wit)
			memset(to, 0, layer * sizeof *to);
		unsigned dir = k % df->stride;
		for (size_t v = 0; v < w->n[dir]; v++) {
			long b = w->w[dir][v], drow = b * dk;
			for (size_t r = 0; r < rows; r++) {
				long t = (long)r + drow;
				if (t >= 0 && t < (long)rows)
					shift_or(to + (size_t)t * rw, from + r * rw, rw,
						 b * xk);
			}
		}
	}
	const Bits *last = dp + (wit ? df->n1 : df->n1 % 2) * layer;
	for (size_t r = 0; r < rows; r++) {
		long delta = (long)r - Bd, at;
		if (delta == 0)
			continue;
		const Bits *row = last + r * rw;
		for (size_t j = 0; j < rw; j++)
			for (Bits v = row[j]; v; v &= v - 1) {
				long X1 = (long)(j * 64 + (size_t)__builtin_ctzll(v)) - Bx;
				if (!shift_hits(c, C, X1, delta, &at))
					continue;
				if (!wit)
					return 1;
				way_back(df, w, dp, layer, rw, true, Bx, Bd, X1, delta, wit);
				size_t sw = ((size_t)(2 * c->Bs + 1) + 63) / 64;
				way_back(df, w, x->sh.data, sw, sw, false, c->Bs, 0,
					 at - c->Bs, 0, wit);
				*X = X1 + (at - c->Bs);
				*Y = *X - delta;
				return 1;
			}
	}
	return 0;
}

/* The atom from the weights: the terms of the classes with a weight and
 * a threshold between X (at p) and Y (at q) within [-C, C]: sum >= c
 * with c in (min, max], else (min = C) sum <= C.  Returns its value at
 * p. */
static bool make_atom(Indist *x, Level *l, const Weights *w, const int32_t *wit,
		      uint32_t r, long X, long Y)
{
	Atom at = {.first = (uint32_t)l->terms.len, .ahead = w->ahead};
	memcpy(at.a, w->a, sizeof at.a);
	for (uint32_t k = 0; k < r; k++) {
		if (!wit[k])
			continue;
		unsigned dir = k % x->stride;
		size_t v = 0;
		while (w->w[dir][v] != wit[k])
			v++;
		Term t = {k, w->mask[dir][v]};
		VEC_PUSH(l->terms, t);
		at.n++;
	}
	long C = (long)x->b.C, lo = X < Y ? X : Y, hi = X < Y ? Y : X;
	long c = lo + 1 > -C ? lo + 1 : -C;
	at.ge = c <= hi && c <= C;
	at.c = (int32_t)(at.ge ? c : C);
	VEC_PUSH(l->atoms, at);
	return at.ge ? X >= at.c : X <= at.c;
}

int indist_separable(Indist *x, Level *l, const uint32_t *cx,
		      const uint32_t *cy, uint32_t r, bool *vp)
{
	Diff df = {cx, cy, xmalloc((r + 1) * sizeof(uint32_t)),
		   xmalloc((r + 1) * sizeof(uint32_t)), 0, 0, x->stride};
	int out = 0;
	long C = (long)x->b.C;
	int32_t *wit = x->track ? xcalloc(r + 1, sizeof *wit) : NULL;
	for (uint32_t k = 0; k < r; k++) {
		if (cx[k] != cy[k])
			df.d1[df.n1++] = k;
		else if (cx[k])
			df.d0[df.n0++] = k;
	}
	/* one class counted alone: #[K] >= c between the two counts */
	for (size_t i = 0; i < df.n1 && !out; i++) {
		uint32_t k = df.d1[i];
		if ((cx[k] < cy[k] ? cx[k] : cy[k]) > C)
			continue;
		out = 1;
		if (wit) {
			Weights one;
			int32_t a[INDIST_MAX_T] = {1};
			indist_weights_of(a, 1, k % x->stride, &one);
			wit[k] = 1;
			*vp = make_atom(x, l, &one, wit, r, cx[k], cy[k]);
		}
	}
	bool unknown = false;
	for (size_t i = 0; i < x->nws && df.n1 && !out; i++) {
		long X = 0, Y = 0;
		int got = decide_weights(x, &df, i, NULL, NULL, NULL);
		if (got < 0)
			unknown = true;
		if (got != 1)
			continue;
		out = 1;
		if (wit) {
			memset(wit, 0, (r + 1) * sizeof *wit);
			if (decide_weights(x, &df, i, wit, &X, &Y) == 1)
				*vp = make_atom(x, l, &x->ws[i], wit, r, X, Y);
			else
				out = -1; /* separated, but no room to say how */
		}
	}
	if (out == 0 && unknown)
		out = -1;
	free(wit);
	free(df.d1);
	free(df.d0);
	return out;
}
