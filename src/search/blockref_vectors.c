/* blockref_vectors.c -- the exact test of two count vectors: does
 * some comparison of the class give them different truth values? */
#include <config.h>

#include "search/blockref_impl.h"

#include "base/mem.h"

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
		uint64_t off = (uint64_t)(blockref_tset_at(t, k) - t->lo) * n;
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
		I128 t = blockref_tset_at(&g->t, k);
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
			int64_t t = blockref_tset_at(&g[i]->t, k);
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
		if (!blockref_tset_of(&f->d[gs[i].dir], gs[i].q, &gs[i].t)) {
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
		if (gs[i].n == gs[i].m && grow <= blockref_shift_bits &&
		    p.sh.width + grow <= blockref_shift_bits) {
			shifts_add(&p.sh, &gs[i].t, gs[i].n);
		} else if (gs[i].n != gs[i].m && grow <= blockref_small_width &&
			   width + grow <= blockref_small_width) {
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
int blockref_separable(Ctx *c, const Ents *a, const Ents *b)
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
