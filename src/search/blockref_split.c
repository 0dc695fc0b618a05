/* blockref_split.c -- a run of one class split into pieces: each M
 * where some comparison can reach [-C, C] alone, the stretches between
 * whole. */
#include <config.h>

#include "search/blockref_impl.h"

#include <string.h>

#include "base/mem.h"

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
		I128 t = blockref_tset_at(&g->t, k);
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
		ok = blockref_tset_of(&f->d[gs->data[i].dir], gs->data[i].q, &gs->data[i].t);
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
		if (grow > blockref_small_width || s->sm.width + grow > blockref_small_width)
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
bool blockref_split_run(Ctx *c, const Ents *base, uint32_t k0, uint64_t v0,
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
