/* blockref.c -- the refinement of runs, level by level: splitting a run
 * where a comparison reaches the window, and matching pieces to classes
 * by an exact test of two count vectors. */
#include <config.h>

#include "search/blockref.h"

#include <stdlib.h>
#include <string.h>

#include "base/limit.h"
#include "base/mem.h"
#include "base/vec.h"

__extension__ typedef __int128 I128;

#define I128_NONE (-((I128)1 << 120))

/* Bounds of the enumerations: past them a test is undecided. */
/* Values of the tables of small counts, and of the shifts of equal
 * counts (blockref_tune() lowers them for tests). */
/* qsort of n items; none or one needs no call (and an empty vector's
 * data may be NULL, which qsort must not get). */
static void sorted(void *base, size_t n, size_t size,
		   int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

static uint64_t SMALL_WIDTH = 1 << 15, SHIFT_BITS = 1 << 20;

enum {
	DFS_BUDGET = 1 << 20,     /* nodes of one enumeration of large groups */
	EMIT_BUDGET = 1 << 22,    /* windows met while splitting one run */
	SUMSET_BUDGET = 1 << 26   /* work for a sumset that is no progression */
};

typedef struct {
	uint32_t cls;
	uint64_t len;
} Run;

typedef struct {
	uint32_t k;
	uint64_t n;
} Ent;

typedef VEC(Run) Runs;
typedef VEC(Ent) Ents;
typedef VEC(uint64_t) U64s;

/* A weight set: the distinct sums of the subsets of T coefficients. */
typedef struct {
	int32_t w[1 << INDIST_MAX_T];
	unsigned n;
	int32_t lo, hi;
	int32_t step; /* the progression's step, 0 when it is none */
} WSet;

/* The sums of q weights of a set: the progression first + step*i for
 * i < cnt, or the listed values (vals, sorted). */
typedef struct {
	int64_t first, step;
	uint64_t cnt;
	int64_t *vals;
	int64_t lo, hi;
} TSet;

/* The weights of one choice of coefficients: d[0] for the past
 * coordinates, d[1] for the future ones (two-sided: each count is one or
 * the other; past-only: d[1] is {0}). */
typedef struct {
	WSet d[2];
} Fam;

typedef struct {
	IndistBounds b;
	Fam *all, *half;  /* every family; one of each pair F, -F */
	size_t nall, nhalf;
	unsigned stride;  /* coordinates per class: 1, or 2 when two-sided */
	bool undecided;   /* some test hit a bound at this level */
	Limits *lim;
} Ctx;

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
static void families(Ctx *c)
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
static bool tset_of(const WSet *w, uint64_t q, TSet *t)
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

static int64_t tset_at(const TSet *t, uint64_t i)
{
	return t->vals ? t->vals[i] : t->first + (int64_t)i * t->step;
}

/* ---- exact integer helpers ------------------------------------------- */

static I128 floordiv(I128 a, I128 b)
{
	I128 q = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static I128 ceildiv(I128 a, I128 b) { return -floordiv(-a, b); }

static I128 imax(I128 a, I128 b) { return a > b ? a : b; }
static I128 imin(I128 a, I128 b) { return a < b ? a : b; }

/* ---- a set of small sums (bytes over [lo, lo + width)) ------------------ */

typedef struct {
	uint8_t *on;
	int64_t lo;
	uint64_t width;
} Small;

/* s + t * n for t in the set, in place. */
static void small_add(Small *s, const TSet *t, uint64_t n)
{
	uint64_t grow = (uint64_t)(t->hi - t->lo) * n, w = s->width + grow;
	uint8_t *out = xcalloc(w, 1);
	if (t->vals) {
		for (uint64_t i = 0; i < t->cnt; i++) {
			uint64_t off = (uint64_t)(t->vals[i] - t->lo) * n;
			for (uint64_t x = 0; x < s->width; x++)
				out[x + off] |= s->on[x];
		}
	} else {
		/* out[z] = OR of on[z - i*st], i < cnt: a sliding window per
		 * residue */
		uint64_t st = (uint64_t)t->step * n, span = t->cnt * st;
		for (uint64_t r = 0; r < st && r < w; r++) {
			uint64_t run = 0;
			for (uint64_t z = r; z < w; z += st) {
				if (z < s->width)
					run += s->on[z];
				if (z >= span && z - span < s->width)
					run -= s->on[z - span];
				out[z] = run > 0;
			}
		}
	}
	free(s->on);
	s->on = out;
	s->lo += t->lo * (int64_t)n;
	s->width = w;
}

void blockref_tune(unsigned small_width)
{
	SMALL_WIDTH = small_width ? small_width : 1 << 15;
	SHIFT_BITS = small_width ? small_width : 1 << 20;
}

/* ---- splitting a run ------------------------------------------------------ */

typedef struct {
	uint64_t n, q; /* q coordinates with count n */
	unsigned dir;  /* of direction dir (0 past, 1 future) */
	TSet t;
} Group;

typedef VEC(Group) Groups;

typedef struct {
	Ctx *c;
	Group *large;
	size_t nlarge;
	I128 *rlo, *rhi; /* per large group: the range of the rest */
	Small sm;
	int32_t beta;
	uint64_t v0, L;  /* the run holds the counts v0 + 1 .. v0 + L */
	uint64_t f1;     /* two-sided: the run's class's future count + v */
	I128 off;        /* what the run's class's future count adds */
	I128 wlo, whi;   /* the sums R that can meet the window */
	U64s crit;       /* pairs lo, hi: positions alone */
	U64s cuts;       /* v: v and v + 1 fall apart */
	uint64_t nodes, emitted;
	bool over;
} Split;

/* R + beta * v in [-C, C] for real v: the positions it isolates, or the
 * cut it makes when it holds no integer. */
static void emit(Split *s, I128 R)
{
	I128 C = s->c->b.C, b = s->beta, a = -C - R, z = C - R;
	if (b < 0) {
		b = -b;
		a = -C + R;
		z = C + R;
	}
	I128 lo = ceildiv(a, b), hi = floordiv(z, b);
	I128 first = (I128)s->v0 + 1, last = (I128)s->v0 + s->L;
	if (++s->emitted > EMIT_BUDGET)
		s->over = true;
	if (lo <= hi) {
		lo = imax(lo, first);
		hi = imin(hi, last);
		if (lo <= hi) {
			VEC_PUSH(s->crit, (uint64_t)lo);
			VEC_PUSH(s->crit, (uint64_t)hi);
		}
	} else if (hi >= first && hi + 1 <= last) {
		VEC_PUSH(s->cuts, (uint64_t)hi);
	}
}

static void leaf(Split *s, I128 P)
{
	I128 lo = imax(s->sm.lo, s->wlo - P);
	I128 hi = imin(s->sm.lo + (I128)s->sm.width - 1, s->whi - P);
	for (I128 x = lo; x <= hi && !s->over; x++)
		if (s->sm.on[(uint64_t)(x - s->sm.lo)])
			emit(s, P + x + s->off);
}

static void dfs_split(Split *s, size_t i, I128 P)
{
	if (s->over || ++s->nodes > DFS_BUDGET) {
		s->over = true;
		return;
	}
	if (i == s->nlarge) {
		leaf(s, P);
		return;
	}
	const Group *g = &s->large[i];
	I128 slo = s->sm.lo, shi = s->sm.lo + (I128)s->sm.width - 1;
	/* t * n must land in [wlo - rest - small, whi - rest - small] */
	I128 need_lo = s->wlo - P - s->rhi[i + 1] - shi;
	I128 need_hi = s->whi - P - s->rlo[i + 1] - slo;
	I128 tlo = ceildiv(need_lo, (I128)g->n), thi = floordiv(need_hi, (I128)g->n);
	for (uint64_t k = 0; k < g->t.cnt && !s->over; k++) {
		I128 t = tset_at(&g->t, k);
		if (t < tlo)
			continue;
		if (t > thi)
			break;
		dfs_split(s, i + 1, P + t * (I128)g->n);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static int cmp_pair(const void *a, const void *b) { return cmp_u64(a, b); }

/* The groups of equal counts of one direction among the base's
 * coordinates other than class k0's, ascending by count.  A coordinate
 * k is class k / stride's, of direction k % stride. */
static void base_groups(const Ents *base, uint32_t k0, unsigned stride,
			Groups *out)
{
	U64s ns = {0};
	for (size_t i = 0; i < base->len; i++)
		if (base->data[i].k / stride != k0 && base->data[i].n)
			VEC_PUSH(ns, base->data[i].n * stride + base->data[i].k % stride);
	if (ns.len)
		sorted(ns.data, ns.len, sizeof *ns.data, cmp_u64);
	out->len = 0;
	for (size_t i = 0; i < ns.len;) {
		size_t j = i;
		while (j < ns.len && ns.data[j] == ns.data[i])
			j++;
		Group g = {.n = ns.data[i] / stride, .q = j - i,
			   .dir = (unsigned)(ns.data[i] % stride)};
		VEC_PUSH(*out, g);
		i = j;
	}
	VEC_FREE(ns);
}

static int cmp_group(const void *a, const void *b)
{
	return cmp_u64(&((const Group *)a)->n, &((const Group *)b)->n);
}

static void groups_free_sets(Groups *g)
{
	for (size_t i = 0; i < g->len; i++) {
		free(g->data[i].t.vals);
		g->data[i].t.vals = NULL;
	}
}

/* The windows of one weight set: every (R, beta) whose window meets the
 * run.  False when a bound was reached. */
static bool split_weights(Ctx *c, const Fam *f, Groups *gs, Split *s)
{
	bool ok = true;
	sorted(gs->data, gs->len, sizeof *gs->data, cmp_group);
	for (size_t i = 0; i < gs->len && ok; i++)
		ok = tset_of(&f->d[gs->data[i].dir], gs->data[i].q, &gs->data[i].t);
	if (!ok) {
		groups_free_sets(gs);
		return false;
	}
	/* the smallest groups in a table, the others enumerated */
	s->sm = (Small){xcalloc(1, 1), 0, 1};
	s->sm.on[0] = 1;
	size_t i = 0;
	for (; i < gs->len; i++) {
		const Group *g = &gs->data[i];
		uint64_t grow = (uint64_t)(g->t.hi - g->t.lo) * g->n;
		if (grow > SMALL_WIDTH || s->sm.width + grow > SMALL_WIDTH)
			break;
		small_add(&s->sm, &g->t, g->n);
	}
	s->large = gs->data + i;
	s->nlarge = gs->len - i;
	/* largest first: the strongest pruning at the top */
	for (size_t a = 0, z = s->nlarge; a + 1 < z; a++, z--) {
		Group t = s->large[a];
		s->large[a] = s->large[z - 1];
		s->large[z - 1] = t;
	}
	s->rlo = xmalloc((s->nlarge + 1) * sizeof *s->rlo);
	s->rhi = xmalloc((s->nlarge + 1) * sizeof *s->rhi);
	s->rlo[s->nlarge] = s->rhi[s->nlarge] = 0;
	for (size_t k = s->nlarge; k-- > 0;) {
		s->rlo[k] = s->rlo[k + 1] + (I128)s->large[k].t.lo * s->large[k].n;
		s->rhi[k] = s->rhi[k + 1] + (I128)s->large[k].t.hi * s->large[k].n;
	}
	I128 C = c->b.C;
	/* at the run's v-th position the class's past count is v, its
	 * future count f1 - v: the weights b, b' give it b' f1 + (b - b') v */
	for (unsigned k = 0; k < f->d[0].n && !s->over; k++)
		for (unsigned k1 = 0; k1 < f->d[1].n && !s->over; k1++) {
			int32_t b = f->d[0].w[k] - f->d[1].w[k1];
			if (!b)
				continue;
			s->beta = b;
			s->off = (I128)f->d[1].w[k1] * s->f1;
			I128 e1 = (I128)b * ((I128)s->v0 + 1);
			I128 e2 = (I128)b * ((I128)s->v0 + s->L);
			s->wlo = -C - imax(e1, e2) - s->off;
			s->whi = C - imin(e1, e2) - s->off;
			s->nodes = 0;
			dfs_split(s, 0, 0);
		}
	free(s->rlo);
	free(s->rhi);
	free(s->sm.on);
	groups_free_sets(gs);
	return !s->over;
}

/* The pieces of a run of class k0 (lengths, in order, into pieces),
 * the base counts before it in base (two-sided: the future counts from
 * the run on, and f1 = k0's future count at the run's start + v0 + 1).
 * False when a bound was reached. */
static bool split_run(Ctx *c, const Ents *base, uint32_t k0, uint64_t v0,
		      uint64_t L, uint64_t f1, U64s *pieces)
{
	Groups gs = {0};
	base_groups(base, k0, c->stride, &gs);
	Split s = {.c = c, .v0 = v0, .L = L, .f1 = f1};
	bool ok = true;
	for (size_t i = 0; i < c->nhalf && ok; i++)
		ok = split_weights(c, &c->half[i], &gs, &s);
	VEC_FREE(gs);
	pieces->len = 0;
	if (!ok) {
		VEC_FREE(s.crit);
		VEC_FREE(s.cuts);
		return false;
	}
	size_t nc = s.crit.len / 2;
	if (nc)
		sorted(s.crit.data, nc, 2 * sizeof *s.crit.data, cmp_pair);
	if (s.cuts.len)
		sorted(s.cuts.data, s.cuts.len, sizeof *s.cuts.data, cmp_u64);
	uint64_t pos = v0 + 1, end = v0 + L;
	size_t ci = 0, cu = 0;
	while (pos <= end) {
		while (ci < nc && s.crit.data[2 * ci + 1] < pos)
			ci++;
		if (ci < nc && s.crit.data[2 * ci] <= pos) {
			uint64_t one = 1;
			VEC_PUSH(*pieces, one); /* alone */
			pos++;
			continue;
		}
		uint64_t stop = end;
		if (ci < nc && s.crit.data[2 * ci] - 1 < stop)
			stop = s.crit.data[2 * ci] - 1;
		while (cu < s.cuts.len && s.cuts.data[cu] < pos)
			cu++;
		if (cu < s.cuts.len && s.cuts.data[cu] < stop)
			stop = s.cuts.data[cu];
		uint64_t len = stop - pos + 1;
		VEC_PUSH(*pieces, len);
		pos = stop + 1;
	}
	VEC_FREE(s.crit);
	VEC_FREE(s.cuts);
	return true;
}

/* ---- the exact test of two count vectors ------------------------------ */

typedef struct {
	uint64_t n, m, q; /* q coordinates with counts n (at p) and m (at q) */
	unsigned dir;     /* of direction dir (0 past, 1 future) */
	TSet t;
} PGroup;

/* The shifts: the sums over the groups whose two counts are equal (they
 * add the same to X and Y), as bits over [lo, lo + width). */
typedef struct {
	uint64_t *bits;
	int64_t lo;
	uint64_t width;
} Shifts;

static void shifts_add(Shifts *s, const TSet *t, uint64_t n)
{
	uint64_t w = s->width + (uint64_t)(t->hi - t->lo) * n;
	size_t nw = (w + 63) / 64, ow = (s->width + 63) / 64;
	uint64_t *out = xcalloc(nw, sizeof *out);
	for (uint64_t k = 0; k < t->cnt; k++) {
		uint64_t off = (uint64_t)(tset_at(t, k) - t->lo) * n;
		size_t q = off >> 6, r = off & 63;
		for (size_t i = 0; i < ow; i++) {
			out[i + q] |= s->bits[i] << r;
			if (r && i + q + 1 < nw)
				out[i + q + 1] |= s->bits[i] >> (64 - r);
		}
	}
	free(s->bits);
	s->bits = out;
	s->lo += t->lo * (int64_t)n;
	s->width = w;
}

/* Some shift in [lo, hi]?  (A scan: the first set word ends it.) */
static bool shifts_any(const Shifts *s, I128 lo, I128 hi)
{
	lo = imax(lo, s->lo);
	hi = imin(hi, s->lo + (I128)s->width - 1);
	if (lo > hi)
		return false;
	uint64_t a = (uint64_t)(lo - s->lo), z = (uint64_t)(hi - s->lo);
	for (uint64_t w = a >> 6; w <= z >> 6; w++) {
		uint64_t bits = s->bits[w];
		if (w == a >> 6)
			bits &= ~(uint64_t)0 << (a & 63);
		if (w == z >> 6 && (z & 63) != 63)
			bits &= ((uint64_t)1 << ((z & 63) + 1)) - 1;
		if (bits)
			return true;
	}
	return false;
}

typedef struct {
	Ctx *c;
	PGroup *large;
	size_t nlarge;
	I128 *xlo, *yhi, *dhi; /* per large group: bounds of the rest */
	I128 *maxy;            /* the table: max Y per x */
	int64_t tlo;           /* x of the table's first entry */
	uint64_t width;
	I128 txlo, tyhi, tdhi; /* the table's bounds */
	Shifts sh;
	uint64_t nodes;
	bool over;
} PTest;

/* With X and Y from the large groups: some x of the table and a shift s
 * with X + x + s <= C, Y + y + s >= -C, Y + y > X + x? */
static bool ptest_leaf(const PTest *p, I128 X, I128 Y)
{
	I128 C = p->c->b.C;
	for (uint64_t i = 0; i < p->width; i++) {
		I128 y = p->maxy[i];
		if (y == I128_NONE)
			continue;
		I128 x = X + p->tlo + (I128)i;
		y += Y;
		if (y > x && shifts_any(&p->sh, -C - y, C - x))
			return true;
	}
	return false;
}

static bool ptest_dfs(PTest *p, size_t i, I128 X, I128 Y)
{
	I128 C = p->c->b.C, slo = p->sh.lo, shi = p->sh.lo + (I128)p->sh.width - 1;
	if (X + p->xlo[i] + p->txlo + slo > C || Y + p->yhi[i] + p->tyhi + shi < -C ||
	    Y - X + p->dhi[i] + p->tdhi < 1)
		return false;
	if (++p->nodes > DFS_BUDGET) {
		p->over = true;
		return false;
	}
	if (i == p->nlarge)
		return ptest_leaf(p, X, Y);
	const PGroup *g = &p->large[i];
	for (uint64_t k = 0; k < g->t.cnt && !p->over; k++) {
		I128 t = tset_at(&g->t, k);
		if (ptest_dfs(p, i + 1, X + t * (I128)g->n, Y + t * (I128)g->m))
			return true;
	}
	return false;
}

/* The table of the small groups whose counts differ: for each x, the
 * largest y (larger y only widens what the shifts must meet). */
static void ptest_table(PTest *p, PGroup *const *g, size_t n)
{
	p->width = 1;
	p->tlo = 0;
	p->maxy = xmalloc(sizeof *p->maxy);
	p->maxy[0] = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t grow = (uint64_t)(g[i]->t.hi - g[i]->t.lo) * g[i]->n;
		uint64_t w = p->width + grow;
		I128 *out = xmalloc(w * sizeof *out);
		for (uint64_t x = 0; x < w; x++)
			out[x] = I128_NONE;
		for (uint64_t k = 0; k < g[i]->t.cnt; k++) {
			int64_t t = tset_at(&g[i]->t, k);
			uint64_t off = (uint64_t)(t - g[i]->t.lo) * g[i]->n;
			I128 dy = (I128)t * g[i]->m;
			for (uint64_t x = 0; x < p->width; x++)
				if (p->maxy[x] != I128_NONE && p->maxy[x] + dy > out[x + off])
					out[x + off] = p->maxy[x] + dy;
		}
		free(p->maxy);
		p->maxy = out;
		p->tlo += g[i]->t.lo * (int64_t)g[i]->n;
		p->width = w;
	}
	p->txlo = p->tyhi = p->tdhi = I128_NONE;
	for (uint64_t x = 0; x < p->width; x++) {
		I128 y = p->maxy[x];
		if (y == I128_NONE)
			continue;
		if (p->txlo == I128_NONE)
			p->txlo = p->tlo + (I128)x;
		p->tyhi = imax(p->tyhi, y);
		p->tdhi = imax(p->tdhi, y - (p->tlo + (I128)x));
	}
}

static int cmp_pgroup_span(const void *a, const void *b)
{
	const PGroup *x = a, *y = b;
	I128 sx = (I128)(x->t.hi - x->t.lo) * x->n, sy = (I128)(y->t.hi - y->t.lo) * y->n;
	return (sx > sy) - (sx < sy);
}

/* The bounds of the large groups after each one. */
static void ptest_bounds(PTest *p)
{
	size_t nl = p->nlarge;
	p->xlo = xcalloc(nl + 1, sizeof *p->xlo);
	p->yhi = xcalloc(nl + 1, sizeof *p->yhi);
	p->dhi = xcalloc(nl + 1, sizeof *p->dhi);
	for (size_t k = nl; k-- > 0;) {
		const PGroup *g = &p->large[k];
		I128 d = (I128)g->m - (I128)g->n;
		p->xlo[k] = p->xlo[k + 1] + (I128)g->t.lo * g->n;
		p->yhi[k] = p->yhi[k + 1] + (I128)g->t.hi * g->m;
		p->dhi[k] = p->dhi[k + 1] + imax(d * g->t.lo, d * g->t.hi);
	}
}

/* One weight set: 1 separated, 0 not, -1 undecided.  Small groups of
 * equal counts go to the shifts, small groups of different counts to the
 * table, the rest are enumerated (largest first). */
static int ptest_weights(Ctx *c, const Fam *f, PGroup *gs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!tset_of(&f->d[gs[i].dir], gs[i].q, &gs[i].t)) {
			for (size_t k = 0; k < i; k++)
				free(gs[k].t.vals);
			return -1;
		}
	sorted(gs, n, sizeof *gs, cmp_pgroup_span);
	PTest p = {.c = c, .sh = {xcalloc(1, sizeof(uint64_t)), 0, 1}};
	p.sh.bits[0] = 1;
	PGroup **tab = xmalloc((n + 1) * sizeof *tab);
	PGroup *large = xmalloc((n + 1) * sizeof *large);
	size_t nt = 0;
	uint64_t width = 1;
	for (size_t i = 0; i < n; i++) {
		uint64_t grow = (uint64_t)(gs[i].t.hi - gs[i].t.lo) * gs[i].n;
		if (gs[i].n == gs[i].m && grow <= SHIFT_BITS &&
		    p.sh.width + grow <= SHIFT_BITS) {
			shifts_add(&p.sh, &gs[i].t, gs[i].n);
		} else if (gs[i].n != gs[i].m && grow <= SMALL_WIDTH &&
			   width + grow <= SMALL_WIDTH) {
			tab[nt++] = &gs[i];
			width += grow;
		} else {
			large[p.nlarge++] = gs[i];
		}
	}
	ptest_table(&p, tab, nt);
	for (size_t a = 0, z = p.nlarge; a + 1 < z; a++, z--) {
		PGroup t = large[a];
		large[a] = large[z - 1];
		large[z - 1] = t;
	}
	p.large = large;
	ptest_bounds(&p);
	bool hit = ptest_dfs(&p, 0, 0, 0);
	free(p.xlo);
	free(p.yhi);
	free(p.dhi);
	free(p.maxy);
	free(p.sh.bits);
	free(tab);
	free(large);
	for (size_t i = 0; i < n; i++) {
		free(gs[i].t.vals);
		gs[i].t.vals = NULL;
	}
	return hit ? 1 : p.over ? -1 : 0;
}

/* X = sum t n, Y = sum t m: X < Y, X <= C, Y >= -C? */
static bool hits(I128 X, I128 Y, I128 C)
{
	return X < Y && X <= C && Y >= -C;
}

/* A quick search for a separating comparison among those that give
 * weight to at most two coordinates (one of each of two groups): most
 * pairs that meet fall apart this way, and a hit is a proof. */
static bool quick(const Ctx *c, const PGroup *gs, size_t n)
{
	I128 C = c->b.C;
	for (size_t w = 0; w < c->nall; w++) {
		const Fam *F = &c->all[w];
		for (size_t g = 0; g < n; g++)
			for (size_t h = g; h < n; h++) {
				if (g == h && gs[g].q < 2 && h + 1 < n)
					continue;
				const WSet *Wg = &F->d[gs[g].dir], *Wh = &F->d[gs[h].dir];
				for (unsigned i = 0; i < Wg->n; i++)
					for (unsigned j = 0; j < Wh->n; j++) {
						I128 bg = Wg->w[i], bh = g == h && gs[g].q < 2 ? 0 : Wh->w[j];
						I128 X = bg * gs[g].n + bh * gs[h].n;
						I128 Y = bg * gs[g].m + bh * gs[h].m;
						if (hits(X, Y, C))
							return true;
					}
			}
	}
	return false;
}

static int cmp_pgroup(const void *a, const void *b)
{
	const PGroup *x = a, *y = b;
	if (x->dir != y->dir)
		return (x->dir > y->dir) - (x->dir < y->dir);
	if (x->n != y->n)
		return (x->n > y->n) - (x->n < y->n);
	return (x->m > y->m) - (x->m < y->m);
}

/* Does some comparison separate the count vectors a and b (sparse,
 * ascending by class)?  1 yes, 0 no, -1 undecided.  Every weight set
 * closed under negation is tried in one orientation: X < Y with
 * X <= C and Y >= -C (negating the weights gives the other). */
static int separable(Ctx *c, const Ents *a, const Ents *b)
{
	VEC(PGroup) gs = {0};
	size_t i = 0, j = 0;
	bool differ = false;
	while (i < a->len || j < b->len) {
		uint32_t ka = i < a->len ? a->data[i].k : UINT32_MAX;
		uint32_t kb = j < b->len ? b->data[j].k : UINT32_MAX;
		PGroup g = {.q = 1, .dir = (ka < kb ? ka : kb) % c->stride};
		if (ka <= kb)
			g.n = a->data[i++].n;
		if (kb <= ka)
			g.m = b->data[j++].n;
		if (g.n != g.m) {
			differ = true;
			if ((g.n < g.m ? g.n : g.m) <= c->b.C) {
				VEC_FREE(gs);
				return 1; /* that class counted alone */
			}
		}
		VEC_PUSH(gs, g);
	}
	if (!differ) {
		VEC_FREE(gs);
		return 0;
	}
	sorted(gs.data, gs.len, sizeof *gs.data, cmp_pgroup);
	size_t n = 0;
	for (size_t k = 0; k < gs.len; k++) {
		if (n && gs.data[n - 1].n == gs.data[k].n &&
		    gs.data[n - 1].m == gs.data[k].m &&
		    gs.data[n - 1].dir == gs.data[k].dir)
			gs.data[n - 1].q++;
		else
			gs.data[n++] = gs.data[k];
	}
	int out = quick(c, gs.data, n) ? 1 : 0;
	for (size_t w = 0; w < c->nall && out != 1; w++) {
		int r = ptest_weights(c, &c->all[w], gs.data, n);
		if (r != 0)
			out = r == 1 ? 1 : -1;
	}
	VEC_FREE(gs);
	return out;
}

/* ---- one level ------------------------------------------------------------ */

typedef struct {
	uint32_t below;   /* its class at the level below */
	uint64_t key;     /* hash of the capped counts and the class below */
	size_t first, n;  /* its representative's counts in the arena */
	uint32_t next;    /* the next class of the same hash bucket */
	uint64_t run;     /* the run whose piece made it */
} Cls;

typedef struct {
	Ctx *c;
	VEC(Cls) cls;
	Ents arena;
	uint32_t *bucket;
	size_t nbucket;
	uint64_t run;     /* the run being split (numbered across words) */
} Matcher;

static uint64_t mix(uint64_t k, uint64_t v)
{
	uint64_t z = k * 0x9e3779b97f4a7c15u ^ (v + 0x632be59bd9b4e019u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static int64_t clamp(int64_t v, int64_t c)
{
	return v < -c ? -c : v > c ? c : v;
}

/* A key that positions of one class share: the class below, every count
 * capped at C + 1 (#[K] >= c), and with two counts per comparison every
 * difference of neighbouring classes K, K + 1 clamped to [-C-1, C+1]
 * (#[K] - #[K+1] >= c).  The differences are taken over all classes, the
 * zero ones left out, so the key is a function of the whole vector. */
static uint64_t key_hash(const Ents *v, uint32_t below, IndistBounds b)
{
	uint64_t h = mix(UINT64_MAX, below), cap = b.C + 1;
	for (size_t i = 0; i < v->len; i++) {
		const Ent *e = &v->data[i];
		h += mix(e->k, e->n < cap ? e->n : cap);
		if (b.T < 2)
			continue;
		uint64_t next = i + 1 < v->len && v->data[i + 1].k == e->k + 1
				? v->data[i + 1].n : 0;
		int64_t d = clamp((int64_t)(e->n > BLOCKWORD_MAX_LEN ? 0 : e->n) -
				  (int64_t)next, (int64_t)cap);
		if (d)
			h += mix(~(uint64_t)e->k, (uint64_t)d);
		bool prev = i > 0 && v->data[i - 1].k + 1 == e->k;
		if (!prev && e->k > 0) /* (K - 1, K) with K - 1 absent */
			h += mix(~(uint64_t)(e->k - 1), (uint64_t)-clamp((int64_t)e->n,
									 (int64_t)cap));
	}
	return h;
}

static bool ents_equal(const Ent *a, size_t na, const Ents *b)
{
	if (na != b->len)
		return false;
	for (size_t i = 0; i < na; i++)
		if (a[i].k != b->data[i].k || a[i].n != b->data[i].n)
			return false;
	return true;
}

/* The class of level j + 1 of a piece with counts v, of class `below`. */
static uint32_t match(Matcher *m, const Ents *v, uint32_t below)
{
	uint64_t h = key_hash(v, below, m->c->b);
	size_t bk = h & (m->nbucket - 1);
	/* the same counts first (the words' common prefix): no test */
	for (uint32_t k = m->bucket[bk]; k != UINT32_MAX; k = m->cls.data[k].next) {
		const Cls *K = &m->cls.data[k];
		if (K->key == h && K->below == below &&
		    ents_equal(m->arena.data + K->first, K->n, v))
			return k;
	}
	for (uint32_t k = m->bucket[bk]; k != UINT32_MAX; k = m->cls.data[k].next) {
		const Cls *K = &m->cls.data[k];
		/* the pieces of one run are apart: a comparison reaches the
		 * window between any two */
		if (K->key != h || K->below != below || K->run == m->run)
			continue;
		const Ent *rep = m->arena.data + K->first;
		Ents r = {(Ent *)rep, K->n, K->n};
		int s = separable(m->c, &r, v);
		if (s == 0)
			return k;
		if (s < 0)
			m->c->undecided = true; /* counted as separated */
	}
	Cls K = {below, h, m->arena.len, v->len, m->bucket[bk], m->run};
	for (size_t i = 0; i < v->len; i++)
		VEC_PUSH(m->arena, v->data[i]);
	m->bucket[bk] = (uint32_t)m->cls.len;
	VEC_PUSH(m->cls, K);
	if (m->cls.len > m->nbucket) { /* rehash at load 1 */
		m->nbucket *= 2;
		free(m->bucket);
		m->bucket = xmalloc(m->nbucket * sizeof *m->bucket);
		memset(m->bucket, 0xff, m->nbucket * sizeof *m->bucket);
		for (uint32_t q = 0; q < m->cls.len; q++) {
			size_t b = m->cls.data[q].key & (m->nbucket - 1);
			m->cls.data[q].next = m->bucket[b];
			m->bucket[b] = q;
		}
	}
	return (uint32_t)(m->cls.len - 1);
}

/* The counts so far of one word: dense, with the classes met listed;
 * two-sided, also the word's totals (the future count of class K from a
 * run on is tot[K] - cnt[K]). */
typedef struct {
	uint64_t *cnt, *tot;
	VEC(uint32_t) met;
	Ents snap;
} Counts;

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static void counts_snapshot(Counts *k, uint32_t nbelow)
{
	k->snap.len = 0;
	if (k->tot) { /* coordinates 2K (past) and 2K + 1 (future) */
		for (uint32_t K = 0; K < nbelow; K++) {
			Ent p = {2 * K, k->cnt[K]}, f = {2 * K + 1, k->tot[K] - k->cnt[K]};
			if (p.n)
				VEC_PUSH(k->snap, p);
			if (f.n)
				VEC_PUSH(k->snap, f);
		}
		return;
	}
	sorted(k->met.data, k->met.len, sizeof *k->met.data, cmp_u32);
	for (size_t i = 0; i < k->met.len; i++) {
		Ent e = {k->met.data[i], k->cnt[k->met.data[i]]};
		VEC_PUSH(k->snap, e);
	}
}

/* Sets class k0's count in a sorted snapshot. */
static void snap_set(Ents *v, uint32_t k0, uint64_t n)
{
	size_t i = 0;
	while (i < v->len && v->data[i].k < k0)
		i++;
	if (i < v->len && v->data[i].k == k0) {
		v->data[i].n = n;
		return;
	}
	Ent e = {k0, n};
	VEC_PUSH(*v, e);
	memmove(v->data + i + 1, v->data + i, (v->len - 1 - i) * sizeof *v->data);
	v->data[i] = e;
}

/* The runs of one word at level j + 1.  False when a bound or a limit
 * stopped it (*stopped says which). */
static bool refine_word(Matcher *m, const Runs *in, uint32_t nbelow, Runs *out,
			bool *stopped)
{
	Counts k = {xcalloc(nbelow, sizeof *k.cnt), NULL, {0}, {0}};
	unsigned stride = m->c->stride;
	if (stride == 2) {
		k.tot = xcalloc(nbelow, sizeof *k.tot);
		for (size_t r = 0; r < in->len; r++)
			k.tot[in->data[r].cls] += in->data[r].len;
	}
	U64s pieces = {0};
	Ents v = {0};
	bool ok = true;
	out->len = 0;
	for (size_t r = 0; r < in->len && ok; r++) {
		uint32_t k0 = in->data[r].cls;
		uint64_t L = in->data[r].len, v0 = k.cnt[k0];
		uint64_t f1 = k.tot ? k.tot[k0] + 1 : 0;
		m->run++;
		counts_snapshot(&k, nbelow);
		if (!split_run(m->c, &k.snap, k0, v0, L, f1, &pieces)) {
			ok = false;
			break;
		}
		uint64_t M = 0;
		for (size_t p = 0; p < pieces.len; p++) {
			if (limit_poll(m->c->lim)) {
				*stopped = true;
				ok = false;
				break;
			}
			v.len = 0;
			for (size_t i = 0; i < k.snap.len; i++)
				VEC_PUSH(v, k.snap.data[i]);
			snap_set(&v, k0 * stride, v0 + M + 1);
			if (k.tot) /* the future count of k0 there */
				snap_set(&v, 2 * k0 + 1, f1 - (v0 + M + 1));
			Run piece = {match(m, &v, k0), pieces.data[p]};
			if (out->len && out->data[out->len - 1].cls == piece.cls)
				out->data[out->len - 1].len += piece.len;
			else
				VEC_PUSH(*out, piece);
			M += pieces.data[p];
		}
		if (v0 == 0)
			VEC_PUSH(k.met, k0);
		k.cnt[k0] += L;
	}
	free(k.cnt);
	free(k.tot);
	VEC_FREE(k.met);
	VEC_FREE(k.snap);
	VEC_FREE(pieces);
	VEC_FREE(v);
	return ok;
}

/* ---- the pair ----------------------------------------------------------- */

/* Level 0: the letters, numbered by first appearance. */
static uint32_t level0(const BlockWord *const *w, Runs *out, size_t nletters)
{
	uint32_t *id = xmalloc((nletters + 1) * sizeof *id), n = 0;
	memset(id, 0xff, (nletters + 1) * sizeof *id);
	for (int i = 0; i < 2; i++) {
		out[i].len = 0;
		for (size_t r = 0; r < w[i]->n; r++) {
			uint8_t a = w[i]->letter[r];
			if (id[a] == UINT32_MAX)
				id[a] = n++;
			if (out[i].len && out[i].data[out[i].len - 1].cls == id[a]) {
				out[i].data[out[i].len - 1].len += w[i]->len[r];
			} else {
				Run x = {id[a], w[i]->len[r]};
				VEC_PUSH(out[i], x);
			}
		}
	}
	free(id);
	return n;
}

static BlockrefAnswer answer(BlockrefKind kind, unsigned d, size_t ncls)
{
	return (BlockrefAnswer){kind, d, ncls};
}

static BlockrefProgress progress_fn;
static void *progress_ctx;

void blockref_progress(BlockrefProgress fn, void *ctx)
{
	progress_fn = fn;
	progress_ctx = ctx;
}

static BlockrefAnswer run_levels(Ctx *c, Runs *cur, uint32_t ncls, unsigned maxd)
{
	bool exact = true;
	for (unsigned d = 0;; d++) {
		uint32_t eu = cur[0].data[cur[0].len - 1].cls;
		uint32_t ev = cur[1].data[cur[1].len - 1].cls;
		if (eu != ev)
			return answer(exact ? BLOCKREF_SEPARATED : BLOCKREF_UNKNOWN, d, ncls);
		if (d == maxd)
			return answer(BLOCKREF_NONE, d, ncls);
		if (limit_check(c->lim))
			return answer(BLOCKREF_STOPPED, d + 1, ncls);
		if (progress_fn)
			progress_fn(progress_ctx, d + 1, ncls);
		Matcher m = {.c = c, .nbucket = 1024};
		m.bucket = xmalloc(m.nbucket * sizeof *m.bucket);
		memset(m.bucket, 0xff, m.nbucket * sizeof *m.bucket);
		Runs next[2] = {{0}, {0}};
		bool stopped = false, ok = true;
		c->undecided = false;
		for (int i = 0; i < 2 && ok; i++)
			ok = refine_word(&m, &cur[i], ncls, &next[i], &stopped);
		uint32_t n = (uint32_t)m.cls.len;
		VEC_FREE(m.cls);
		VEC_FREE(m.arena);
		free(m.bucket);
		for (int i = 0; i < 2; i++) {
			VEC_FREE(cur[i]);
			cur[i] = next[i];
		}
		if (!ok)
			return answer(stopped ? BLOCKREF_STOPPED : BLOCKREF_UNKNOWN,
				      d + 1, ncls);
		exact &= !c->undecided;
		if (n == ncls && exact)
			return answer(BLOCKREF_NEVER, d + 1, n);
		ncls = n;
	}
}

BlockrefAnswer blockref_pair(const BlockWord *u, const BlockWord *v,
			     size_t nletters, unsigned maxd, IndistBounds b,
			     Limits *lim)
{
	uint64_t nu = blockword_length(u), nv = blockword_length(v);
	if (!nu || !nv)
		return answer(nu || nv ? BLOCKREF_SEPARATED : BLOCKREF_NEVER, 0, 1);
	if (maxd > BLOCKREF_MAX_DEPTH)
		maxd = BLOCKREF_MAX_DEPTH;
	if (b.T < 1)
		b.T = 1;
	if (b.T > INDIST_MAX_T)
		b.T = INDIST_MAX_T;
	Ctx c = {.b = b, .lim = lim, .stride = b.two_sided ? 2 : 1};
	families(&c);
	const BlockWord *w[2] = {u, v};
	Runs cur[2] = {{0}, {0}};
	uint32_t n = level0(w, cur, nletters);
	BlockrefAnswer a = run_levels(&c, cur, n, maxd);
	VEC_FREE(cur[0]);
	VEC_FREE(cur[1]);
	free(c.all);
	free(c.half);
	return a;
}
