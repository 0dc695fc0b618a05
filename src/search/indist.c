/* indist.c -- the classes of positions that a bounded class of formulas
 * cannot tell apart, level by level, and the formulas that split them. */
#include <config.h>

#include "search/indist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limit.h"
#include "base/mem.h"
#include "base/vec.h"

typedef uint64_t Bits;
typedef VEC(uint32_t) U32s;

/* ---- the weights a comparison can give a class --------------------------- */

/* A set of weights: the sums of the subsets of T coefficients (0 among
 * them), with one subset (mask over the coefficients) per weight; [0]
 * for the past coordinates, [1] for the future ones (two-sided: the
 * coefficients of the counts in `ahead` are future counts; past-only,
 * ahead is 0 and [1] is {0}). */
typedef struct {
	int32_t a[INDIST_MAX_T];
	uint8_t ahead;
	size_t n[2];
	int32_t w[2][1 << INDIST_MAX_T];
	uint8_t mask[2][1 << INDIST_MAX_T];
	int32_t maxabs;
} Weights;

static void weights_of(const int32_t *a, unsigned T, unsigned ahead,
		       Weights *out)
{
	memset(out, 0, sizeof *out);
	memcpy(out->a, a, T * sizeof *a);
	out->ahead = (uint8_t)ahead;
	for (unsigned m = 0; m < 1u << T; m++) {
		unsigned d = (m & ahead) != 0;
		if (d && (m & ~ahead))
			continue; /* a coordinate is counted one way */
		int32_t s = 0;
		for (unsigned i = 0; i < T; i++)
			if (m >> i & 1)
				s += a[i];
		for (unsigned e = 0; e < 2; e++) {
			if (m && e != d)
				continue; /* the empty subset serves both */
			size_t k = 0;
			while (k < out->n[e] && out->w[e][k] != s)
				k++;
			if (k == out->n[e]) {
				out->w[e][out->n[e]] = s;
				out->mask[e][out->n[e]++] = (uint8_t)m;
			}
		}
		if (abs(s) > out->maxabs)
			out->maxabs = abs(s);
	}
}

/* Is every weight of p's direction d one of q's (negated when neg)? */
static bool weights_within(const Weights *p, const Weights *q, bool neg)
{
	for (unsigned d = 0; d < 2; d++)
		for (size_t i = 0; i < p->n[d]; i++) {
			bool found = false;
			int32_t v = neg ? -p->w[d][i] : p->w[d][i];
			for (size_t j = 0; j < q->n[d] && !found; j++)
				found = v == q->w[d][j];
			if (!found)
				return false;
		}
	return true;
}

/* The weight sets worth trying: one per multiset of coefficients, less
 * those whose weights (or their negations: negating every weight negates
 * X and Y, and the window [-C, C] is symmetric) another set has too. */
static Weights *weight_sets(IndistBounds b, size_t *n)
{
	VEC(Weights) all = {0};
	int32_t a[INDIST_MAX_T];
	int C = (int)b.C;
	unsigned ndir = b.two_sided ? 1u << b.T : 1;
	for (size_t i = 0; i < b.T; i++)
		a[i] = -C;
	for (;;) {
		for (unsigned dir = 0; dir < ndir; dir++) {
			Weights w;
			weights_of(a, b.T, dir, &w);
			if (w.maxabs > 0)
				VEC_PUSH(all, w);
		}
		/* the next non-decreasing tuple */
		size_t i = b.T;
		while (i > 0 && a[i - 1] == C)
			i--;
		if (i == 0)
			break;
		a[i - 1]++;
		for (size_t j = i; j < b.T; j++)
			a[j] = a[i - 1];
	}
	Weights *out = xmalloc((all.len + 1) * sizeof *out);
	*n = 0;
	for (size_t i = 0; i < all.len; i++) {
		bool dominated = false;
		for (size_t j = 0; j < all.len && !dominated; j++) {
			if (i == j)
				continue;
			const Weights *q = &all.data[j];
			bool in = weights_within(&all.data[i], q, false) ||
				  weights_within(&all.data[i], q, true);
			bool back = weights_within(q, &all.data[i], false) ||
				    weights_within(q, &all.data[i], true);
			/* equal sets: the first one stays */
			dominated = in && (!back || j < i);
		}
		if (!dominated)
			out[(*n)++] = all.data[i];
	}
	VEC_FREE(all);
	return out;
}

/* The shifts: the sums of b_K x_K over the classes whose counts agree,
 * as a bitset over [-Bs, Bs] with its prefix counts.  They are the same
 * for every pair of positions of one run of a class (the case that
 * dominates), so the last ones per weight set are kept. */
typedef struct Shifts {
	bool valid;
	U32s key; /* class, count, ... */
	long Bs;
	U32s pc;  /* set bits below each index */
} Shifts;

/* ---- the tree and its levels ------------------------------------------ */

typedef struct {
	uint32_t cls;  /* coordinate: class of the level below * stride + dir */
	uint8_t mask;  /* the coefficients it takes */
} Term;

/* A comparison sum_i a_i #[union of the classes whose mask has i] >= c
 * (ge) or <= c. */
typedef struct {
	uint32_t first, n; /* its terms in the level's arena */
	int32_t a[INDIST_MAX_T];
	uint8_t ahead;     /* the coefficients of future counts */
	int32_t c;
	bool ge;
} Atom;

typedef struct {
	uint32_t atom;
	bool value; /* the class lies where the atom has this value */
} Cut;

typedef VEC(Cut) Cuts;

typedef struct {
	uint32_t *cls; /* per node */
	uint32_t ncls;
	VEC(uint32_t) up;  /* per class: its class at the level below */
	VEC(uint32_t) rep; /* per class: its first node */
	VEC(Cuts) cuts;    /* per class (tracking) */
	VEC(bool) broken;  /* per class: split without a formula */
	VEC(Atom) atoms;
	VEC(Term) terms;
	uint32_t *count;   /* counts of the level below: node * ncol */
	uint32_t nbelow;
	uint32_t ncol;     /* coordinates: nbelow * stride */
} Level;

struct Indist {
	IndistBounds b;
	size_t A, n;
	uint32_t *parent, *len;
	uint8_t *letter;
	size_t nwords;
	uint32_t *end;
	bool track;
	bool inexact; /* some pair was too large to decide */
	unsigned stride; /* 1, or 2 when two-sided: past 2K, future 2K + 1 */
	unsigned nlevels;
	Level lv[INDIST_MAX_DEPTH + 1];
	Weights *ws;
	size_t nws;
	struct Shifts *shc; /* per weight set */
	/* scratch for the decision */
	VEC(Bits) dp, sh;
};

static uint32_t child(Indist *x, U32s *kids, uint32_t p, uint8_t c)
{
	/* kids: first child per node, then next sibling, flattened as
	 * pairs (first child of node i at 2i, next sibling at 2i + 1);
	 * two-sided, a word shares no position with another (a class
	 * depends on what follows), so every word is a fresh chain */
	uint32_t k = x->stride == 2 ? UINT32_MAX : kids->data[2 * p];
	while (k != UINT32_MAX) {
		if (x->letter[k] == c)
			return k;
		k = kids->data[2 * k + 1];
	}
	uint32_t m = (uint32_t)x->n++;
	x->parent = xrealloc(x->parent, x->n * sizeof *x->parent);
	x->letter = xrealloc(x->letter, x->n * sizeof *x->letter);
	x->len = xrealloc(x->len, x->n * sizeof *x->len);
	x->parent[m] = p;
	x->letter[m] = c;
	x->len[m] = x->len[p] + 1;
	VEC_PUSH(*kids, UINT32_MAX);
	VEC_PUSH(*kids, kids->data[2 * p]);
	kids->data[2 * p] = m;
	return m;
}

Indist *indist_new(const uint8_t *const *words, const size_t *lens,
		   size_t nwords, size_t nletters, IndistBounds b, bool track)
{
	Indist *x = xcalloc(1, sizeof *x);
	if (b.T < 1)
		b.T = 1;
	if (b.T > INDIST_MAX_T)
		b.T = INDIST_MAX_T;
	if (b.C > INDIST_MAX_C)
		b.C = INDIST_MAX_C;
	x->b = b;
	x->A = nletters;
	x->track = track;
	x->stride = b.two_sided ? 2 : 1;
	x->n = 1;
	x->parent = xmalloc(sizeof *x->parent);
	x->letter = xmalloc(1);
	x->len = xmalloc(sizeof *x->len);
	x->parent[0] = UINT32_MAX;
	x->letter[0] = (uint8_t)nletters; /* the empty word: no letter */
	x->len[0] = 0;
	U32s kids = {0};
	VEC_PUSH(kids, UINT32_MAX);
	VEC_PUSH(kids, UINT32_MAX);
	x->nwords = nwords;
	x->end = xmalloc((nwords + 1) * sizeof *x->end);
	for (size_t i = 0; i < nwords; i++) {
		uint32_t p = 0;
		for (size_t k = 0; k < lens[i]; k++)
			p = child(x, &kids, p, words[i][k]);
		x->end[i] = p;
	}
	VEC_FREE(kids);
	x->ws = weight_sets(x->b, &x->nws);
	x->shc = xcalloc(x->nws + 1, sizeof *x->shc);
	return x;
}

static void level_free(Level *l)
{
	free(l->cls);
	free(l->count);
	VEC_FREE(l->up);
	VEC_FREE(l->rep);
	for (size_t k = 0; k < l->cuts.len; k++)
		VEC_FREE(l->cuts.data[k]);
	VEC_FREE(l->cuts);
	VEC_FREE(l->broken);
	VEC_FREE(l->atoms);
	VEC_FREE(l->terms);
}

void indist_free(Indist *x)
{
	if (!x)
		return;
	for (unsigned k = 0; k < x->nlevels; k++)
		level_free(&x->lv[k]);
	free(x->parent);
	free(x->letter);
	free(x->len);
	free(x->end);
	for (size_t i = 0; i < x->nws; i++) {
		VEC_FREE(x->shc[i].key);
		VEC_FREE(x->shc[i].pc);
	}
	free(x->shc);
	free(x->ws);
	VEC_FREE(x->dp);
	VEC_FREE(x->sh);
	free(x);
}

/* ---- the decision for two count vectors ----------------------------------- */

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

/* Does some comparison of depth k separate the nodes with counts cx and
 * cy (r coordinates below)?  1 yes (when tracking, with an atom appended to
 * l and its value at cx in *vp), 0 no, -1 undecided (too large). */
static int separable(Indist *x, Level *l, const uint32_t *cx, const uint32_t *cy,
		     uint32_t r, bool *vp)
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
			weights_of(a, 1, k % x->stride, &one);
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

/* ---- levels ----------------------------------------------------------- */

static void level0(Indist *x)
{
	Level *l = &x->lv[0];
	memset(l, 0, sizeof *l);
	l->cls = xmalloc(x->n * sizeof *l->cls);
	l->ncls = (uint32_t)x->A + 1;
	for (size_t p = 0; p < x->n; p++)
		l->cls[p] = x->letter[p];
	for (uint32_t k = 0; k < l->ncls; k++) {
		uint32_t none = UINT32_MAX;
		Cuts empty = {0};
		VEC_PUSH(l->up, none);
		VEC_PUSH(l->rep, none);
		VEC_PUSH(l->cuts, empty);
		bool no = false;
		VEC_PUSH(l->broken, no);
	}
	x->nlevels = 1;
}

/* Counts of the classes of level k - 1 at every node: a node adds one to
 * its own class (the empty word is never counted).  Two-sided, also the
 * future counts (column 2K + 1): a node counts itself and what follows
 * in its word's chain (node p + 1 when that is its child). */
static bool fill_counts(Indist *x, Level *l, const Level *below)
{
	uint32_t r = below->ncls, st = x->stride, c = r * st;
	if ((double)x->n * c > 1e8)
		return false;
	l->nbelow = r;
	l->ncol = c;
	l->count = xcalloc(x->n * (size_t)c, sizeof *l->count);
	for (size_t p = 1; p < x->n; p++) {
		uint32_t *row = l->count + p * c;
		const uint32_t *up = l->count + (size_t)x->parent[p] * c;
		for (uint32_t K = 0; K < r; K++)
			row[K * st] = up[K * st];
		row[below->cls[p] * st]++;
	}
	for (size_t p = x->n; st == 2 && p-- > 1;) {
		uint32_t *row = l->count + p * c;
		if (p + 1 < x->n && x->parent[p + 1] == p)
			for (uint32_t K = 0; K < r; K++)
				row[2 * K + 1] = row[c + 2 * K + 1];
		row[2 * below->cls[p] + 1]++;
	}
	return true;
}

static void add_cut(Level *l, uint32_t cls, uint32_t atom, bool value)
{
	Cut c = {atom, value};
	VEC_PUSH(l->cuts.data[cls], c);
}

/* Level k from level k - 1: each node joins the first class of its
 * class below whose representative no comparison separates it from.
 * False when a limit stopped it. */
static bool refine(Indist *x, unsigned k, Limits *lim)
{
	Level *below = &x->lv[k - 1], *l = &x->lv[k];
	memset(l, 0, sizeof *l);
	if (!fill_counts(x, l, below))
		return false;
	uint32_t r = l->ncol;
	l->cls = xmalloc(x->n * sizeof *l->cls);
	/* the classes of each class below, in order */
	U32s *kids = xcalloc(below->ncls, sizeof *kids);
	Cuts pending = {0}; /* the atoms against the earlier representatives */
	bool ok = true;
	for (size_t p = 0; p < x->n && ok; p++) {
		if (limit_poll(lim)) {
			ok = false;
			break;
		}
		uint32_t up = below->cls[p];
		const uint32_t *cp = l->count + p * r;
		uint32_t joined = UINT32_MAX;
		pending.len = 0;
		bool broken = false;
		/* most nodes lie in a run of their parent's class: that one
		 * comparison is cheap (one class differs, by one) */
		uint32_t q = p ? x->parent[p] : UINT32_MAX;
		if (q != UINT32_MAX && below->cls[q] == up) {
			size_t na = l->atoms.len, nt = l->terms.len;
			bool vp;
			int s = separable(x, l, cp, l->count + (size_t)q * r, r, &vp);
			l->atoms.len = na; /* not an atom between representatives */
			l->terms.len = nt;
			if (s == 0) {
				l->cls[p] = l->cls[q];
				continue;
			}
		}
		for (size_t i = 0; i < kids[up].len && joined == UINT32_MAX; i++) {
			uint32_t K = kids[up].data[i];
			size_t before = l->atoms.len;
			bool vp = false;
			int s = separable(x, l, cp, l->count + (size_t)l->rep.data[K] * r,
					  r, &vp);
			if (s == 0) {
				joined = K;
			} else if (s == 1 && l->atoms.len > before) {
				Cut c = {(uint32_t)before, vp};
				VEC_PUSH(pending, c);
			} else {
				Cut c = {UINT32_MAX, false};
				VEC_PUSH(pending, c);
				broken = true;
				if (s < 0)
					x->inexact = true;
			}
		}
		if (joined != UINT32_MAX) {
			l->cls[p] = joined;
			/* the atoms against the earlier representatives are
			 * not needed */
			continue;
		}
		uint32_t K = l->ncls++;
		l->cls[p] = K;
		Cuts empty = {0};
		VEC_PUSH(l->up, up);
		VEC_PUSH(l->rep, (uint32_t)p);
		VEC_PUSH(l->cuts, empty);
		VEC_PUSH(l->broken, broken);
		for (size_t i = 0; i < pending.len; i++) {
			uint32_t other = kids[up].data[i];
			Cut c = pending.data[i];
			if (c.atom == UINT32_MAX) {
				l->broken.data[other] = true;
				continue;
			}
			add_cut(l, K, c.atom, c.value);
			add_cut(l, other, c.atom, !c.value);
		}
		VEC_PUSH(kids[up], K);
	}
	for (uint32_t c = 0; c < below->ncls; c++)
		VEC_FREE(kids[c]);
	free(kids);
	VEC_FREE(pending);
	if (!ok) {
		level_free(l);
		return false;
	}
	x->nlevels = k + 1;
	return true;
}

unsigned indist_depth(Indist *x, size_t i, size_t j, unsigned maxd, Limits *lim)
{
	uint32_t u = x->end[i], v = x->end[j];
	if (maxd > INDIST_MAX_DEPTH)
		maxd = INDIST_MAX_DEPTH;
	if (x->nlevels == 0)
		level0(x);
	for (unsigned d = 0; d <= maxd; d++) {
		if (d < x->nlevels) {
			if (x->lv[d].cls[u] != x->lv[d].cls[v])
				return d;
			continue;
		}
		if (!refine(x, d, lim))
			return INDIST_STOPPED;
		if (x->lv[d].cls[u] != x->lv[d].cls[v])
			return d;
	}
	return INDIST_NONE;
}

bool indist_exact(const Indist *x) { return !x->inexact; }

unsigned indist_pair(const uint8_t *u, size_t ulen, const uint8_t *v,
		     size_t vlen, size_t nletters, unsigned maxd, IndistBounds b,
		     Limits *lim)
{
	const uint8_t *w[2] = {u, v};
	size_t n[2] = {ulen, vlen};
	Indist *x = indist_new(w, n, 2, nletters, b, false);
	unsigned d = indist_depth(x, 0, 1, maxd, lim);
	indist_free(x);
	return d;
}

bool indist_parikh(const uint8_t *u, size_t ulen, const uint8_t *v,
		   size_t vlen, size_t nletters)
{
	if (ulen != vlen || (ulen && u[ulen - 1] != v[vlen - 1]))
		return false;
	size_t *cnt = xcalloc(nletters + 1, sizeof *cnt);
	for (size_t i = 0; i < ulen; i++) {
		cnt[u[i]]++;
		cnt[v[i]]--;
	}
	bool same = true;
	for (size_t k = 0; k < nletters; k++)
		same &= cnt[k] == 0;
	free(cnt);
	return same;
}

void indist_describe(IndistBounds b, char *out, size_t n)
{
	snprintf(out, n, "coefficients and constants within [-%u, %u], at most "
		 "%u counts per comparison%s, relations < <= = != >= >, inner "
		 "formulas of any size", b.C, b.C, b.T, b.two_sided
		 ? " (each a past count #[psi] or a future count #>[psi])" : "");
}

/* ---- the formulas ----------------------------------------------------- */

typedef struct {
	Indist *x;
	Store *st;
	const Sym *letters;
	Node *memo[INDIST_MAX_DEPTH + 1];
} Builder;

static Node class_formula(Builder *bd, unsigned k, uint32_t K);

/* The union of the classes of level k - 1 whose mask has coefficient
 * i. */
static Node term_formula(Builder *bd, unsigned k, const Atom *at, unsigned i)
{
	Level *l = &bd->x->lv[k];
	VEC(Node) parts = {0};
	bool ok = true;
	for (uint32_t t = 0; t < at->n && ok; t++) {
		const Term *tm = &l->terms.data[at->first + t];
		if (!(tm->mask >> i & 1))
			continue;
		Node f = class_formula(bd, k - 1, tm->cls / bd->x->stride);
		ok = f != NODE_NONE;
		VEC_PUSH(parts, f);
	}
	Node out = ok ? store_make_or(bd->st, parts.data, parts.len) : NODE_NONE;
	VEC_FREE(parts);
	return out;
}

static Node atom_formula(Builder *bd, unsigned k, uint32_t a)
{
	const Atom *at = &bd->x->lv[k].atoms.data[a];
	Store *st = bd->st;
	Node sum = NODE_NONE;
	for (unsigned i = 0; i < bd->x->b.T; i++) {
		if (!at->a[i])
			continue;
		Node psi = term_formula(bd, k, at, i);
		if (psi == NODE_NONE)
			return NODE_NONE;
		fmpz_t c;
		fmpz_init_set_si(c, at->a[i]);
		Node n = at->ahead >> i & 1 ? store_make_fcount(st, psi)
					    : store_make_count(st, psi);
		Node t = store_make_scale(st, c, n);
		fmpz_clear(c);
		sum = sum == NODE_NONE ? t : store_make_add2(st, sum, t);
	}
	if (sum == NODE_NONE)
		sum = store_make_const_si(st, 0);
	return store_make_cmp(st, at->ge ? REL_GE : REL_LE, sum,
			      store_make_const_si(st, at->c));
}

static Node class_formula(Builder *bd, unsigned k, uint32_t K)
{
	Indist *x = bd->x;
	Level *l = &x->lv[k];
	if (bd->memo[k][K] != NODE_NONE)
		return bd->memo[k][K];
	Store *st = bd->st;
	Node f = NODE_NONE;
	if (k == 0) {
		if (K < x->A) {
			f = store_make_letter(st, bd->letters[K]);
		} else {
			Node *q = xmalloc((x->A + 1) * sizeof *q);
			for (size_t c = 0; c < x->A; c++)
				q[c] = store_make_letter(st, bd->letters[c]);
			f = store_make_not(st, store_make_or(st, q, x->A));
			free(q);
		}
	} else if (!l->broken.data[K]) {
		f = class_formula(bd, k - 1, l->up.data[K]);
		const Cuts *cs = &l->cuts.data[K];
		for (size_t i = 0; i < cs->len && f != NODE_NONE; i++) {
			Node a = atom_formula(bd, k, cs->data[i].atom);
			if (a == NODE_NONE) {
				f = NODE_NONE;
				break;
			}
			f = store_make_and2(st, f, cs->data[i].value ? a
							       : store_make_not(st, a));
		}
	}
	bd->memo[k][K] = f;
	return f;
}

Node indist_separator(Indist *x, Store *st, const Sym *letters, size_t i,
		      size_t j, unsigned d)
{
	if (!x->track || d >= x->nlevels)
		return NODE_NONE;
	uint32_t u = x->end[i], v = x->end[j];
	Level *l = &x->lv[d];
	uint32_t ku = l->cls[u], kv = l->cls[v];
	if (ku == kv)
		return NODE_NONE;
	Builder bd = {x, st, letters, {0}};
	for (unsigned k = 0; k <= d; k++)
		bd.memo[k] = xcalloc(x->lv[k].ncls + 1, sizeof(Node));
	Node out = NODE_NONE;
	if (d == 0) {
		out = class_formula(&bd, 0, ku);
	} else {
		/* the cut of u's class against v's class (siblings) */
		const Cuts *cs = &l->cuts.data[ku];
		for (size_t c = 0; c < cs->len && out == NODE_NONE; c++) {
			uint32_t a = cs->data[c].atom;
			bool other = false;
			const Cuts *vs = &l->cuts.data[kv];
			for (size_t e = 0; e < vs->len && !other; e++)
				other = vs->data[e].atom == a;
			if (!other)
				continue;
			out = atom_formula(&bd, d, a);
			if (out != NODE_NONE && !cs->data[c].value)
				out = store_make_not(st, out);
		}
	}
	for (unsigned k = 0; k <= d; k++)
		free(bd.memo[k]);
	return out;
}

