/* blockcheck_front.c -- one weight set against two count vectors: the
 * Pareto front of (X, Y), then the shifts the equal counts add. */
#include <config.h>

#include "search/blockcheck_front.h"

#include <stdlib.h>

#include "base/mem.h"

/* Past this many points a front is given up (the pair is undecided). */
enum { FRONT_MAX = 1 << 18 };

typedef struct {
	Wide x, y;
} Pt;

/* The next front from cur (sorted by x, y rising): cur shifted by each
 * weight's (w n, w m) is sorted too, so the copies are merged, keeping
 * the points no other beats (lower or equal x, higher or equal y) and
 * that the rest can still bring to the goal. */
static size_t step(const Pt *cur, size_t nc, const int32_t *w, unsigned nw,
		   uint64_t n, uint64_t m, Wide C, Wide xrest, Wide yrest,
		   Wide drest, Pt *out)
{
	size_t at[1 << INDIST_MAX_T] = {0}, nout = 0;
	for (;;) {
		int best = -1;
		Pt bp = {0, 0};
		for (unsigned j = 0; j < nw; j++) {
			if (at[j] == nc)
				continue;
			Pt p = {cur[at[j]].x + (Wide)w[j] * n, cur[at[j]].y + (Wide)w[j] * m};
			if (best < 0 || p.x < bp.x || (p.x == bp.x && p.y > bp.y)) {
				best = (int)j;
				bp = p;
			}
		}
		if (best < 0)
			return nout;
		at[best]++;
		if (nout && bp.y <= out[nout - 1].y)
			continue;
		if (bp.x + xrest > C || bp.y + yrest < -C || bp.y - bp.x + drest < 1)
			continue;
		out[nout++] = bp;
	}
}

/* A set of integers as disjoint intervals, ascending. */
typedef struct {
	Wide *lo, *hi;
	size_t n;
} Ivs;

static void ivs_put(Ivs *s, Wide l, Wide h)
{
	if (s->n && l <= s->hi[s->n - 1] + 1) {
		if (h > s->hi[s->n - 1])
			s->hi[s->n - 1] = h;
		return;
	}
	s->lo[s->n] = l;
	s->hi[s->n++] = h;
}

/* cur + w_j * e for every weight (the copies merged), cut to the
 * windows [wl, wh]. */
static void ivs_step(const Ivs *cur, const int32_t *w, unsigned nw, uint64_t e,
		     const Wide *wl, const Wide *wh, size_t nwin, Ivs *out)
{
	size_t at[1 << INDIST_MAX_T] = {0}, q = 0;
	out->n = 0;
	for (;;) {
		int best = -1;
		Wide bl = 0, bh = 0;
		for (unsigned j = 0; j < nw; j++) {
			if (at[j] == cur->n)
				continue;
			Wide l = cur->lo[at[j]] + (Wide)w[j] * e;
			if (best < 0 || l < bl) {
				best = (int)j;
				bl = l;
				bh = cur->hi[at[j]] + (Wide)w[j] * e;
			}
		}
		if (best < 0)
			return;
		at[best]++;
		/* the windows it meets (both lists ascend) */
		while (q < nwin && wh[q] < bl)
			q++;
		for (size_t r = q; r < nwin && wl[r] <= bh; r++)
			ivs_put(out, bl > wl[r] ? bl : wl[r], bh < wh[r] ? bh : wh[r]);
	}
}

/* The least and the largest weight (0 among them) of a set's counts of
 * direction dir. */
static void wrange(const Check *k, size_t set, unsigned dir, int32_t *lo,
		   int32_t *hi)
{
	*lo = *hi = 0;
	for (unsigned i = 0; i < k->ncoef[set][dir]; i++) {
		int32_t w = k->coef[set][dir][i];
		*lo = w < *lo ? w : *lo;
		*hi = w > *hi ? w : *hi;
	}
}

/* Room for n intervals in each of k's two lists (kept). */
static void ivs_room(Check *k, size_t n)
{
	if (n <= k->ivcap)
		return;
	k->ivcap = 2 * n;
	for (int i = 0; i < 4; i++)
		k->iv[i] = xrealloc(k->iv[i], k->ivcap * sizeof(Wide));
}

/* The sums of w_i e_i over the classes whose counts are equal (they add
 * the same to X and Y), as intervals, keeping only what the rest can
 * still bring into one of the windows [a_p, z_p] (sorted by a_p).  False
 * when too many intervals. */
static bool shift_sums(Check *k, size_t set, const uint64_t *e,
		       const unsigned *de, size_t ne, const Wide *a,
		       const Wide *z, size_t nwin, Ivs *out)
{
	if (ne + 1 > k->rcap) {
		k->rcap = 2 * (ne + 1);
		k->rlo = xrealloc(k->rlo, k->rcap * sizeof *k->rlo);
		k->rhi = xrealloc(k->rhi, k->rcap * sizeof *k->rhi);
	}
	Wide *rlo = k->rlo, *rhi = k->rhi;
	rlo[ne] = rhi[ne] = 0;
	for (size_t i = ne; i-- > 0;) {
		int32_t wlo, whi;
		wrange(k, set, de[i], &wlo, &whi);
		rlo[i] = rlo[i + 1] + (Wide)wlo * e[i];
		rhi[i] = rhi[i + 1] + (Wide)whi * e[i];
	}
	Wide *wl = xmalloc((nwin + 1) * sizeof *wl), *wh = xmalloc((nwin + 1) * sizeof *wh);
	/* two interval lists in turn, in k->iv (lo, hi of each) */
	int c = 0;
	ivs_room(k, 2);
	Ivs cur = {k->iv[0], k->iv[1], 1};
	cur.lo[0] = cur.hi[0] = 0;
	bool ok = true;
	for (size_t i = 0; i < ne && cur.n && ok; i++) {
		/* the windows widened by what the classes after i can add */
		size_t n = 0;
		for (size_t p = 0; p < nwin; p++) {
			Wide l = a[p] - rhi[i + 1], h = z[p] - rlo[i + 1];
			if (n && l <= wh[n - 1] + 1) {
				wh[n - 1] = h > wh[n - 1] ? h : wh[n - 1];
				continue;
			}
			wl[n] = l;
			wh[n++] = h;
		}
		const int32_t *w = k->coef[set][de[i]];
		unsigned nw = k->ncoef[set][de[i]];
		ivs_room(k, (cur.n * nw + 1) * (n + 1));
		cur.lo = k->iv[2 * c];
		cur.hi = k->iv[2 * c + 1];
		Ivs next = {k->iv[2 * (1 - c)], k->iv[2 * (1 - c) + 1], 0};
		ivs_step(&cur, w, nw, e[i], wl, wh, n, &next);
		cur = next;
		c = 1 - c;
		ok = cur.n <= FRONT_MAX;
	}
	free(wl);
	free(wh);
	*out = cur; /* k's scratch: valid until the next call */
	return ok;
}

/* Do X < Y, X <= C, Y >= -C hold for some weights of this set?  The
 * coordinates whose counts differ (n, m; directions dn) by a Pareto
 * front, those with equal counts e (directions de) by their sums.  1, 0,
 * or -1 (too large). */
int blockcheck_front(Check *k, size_t set, const uint64_t *n,
		     const uint64_t *m, const unsigned *dn, size_t len,
		     const uint64_t *e, const unsigned *de, size_t ne)
{
	/* the best the coordinates from i on can still add */
	Wide *xr = xcalloc(len + 1, sizeof *xr), *yr = xcalloc(len + 1, sizeof *yr);
	Wide *dr = xcalloc(len + 1, sizeof *dr);
	for (size_t i = 0; i < ne; i++) {
		int32_t lo, hi;
		wrange(k, set, de[i], &lo, &hi);
		xr[len] += (Wide)lo * e[i];
		yr[len] += (Wide)hi * e[i];
	}
	for (size_t i = len; i-- > 0;) {
		int32_t lo, hi;
		wrange(k, set, dn[i], &lo, &hi);
		Wide d = (Wide)m[i] - (Wide)n[i];
		xr[i] = xr[i + 1] + (Wide)lo * n[i];
		yr[i] = yr[i + 1] + (Wide)hi * m[i];
		dr[i] = dr[i + 1] + (d * lo > d * hi ? d * lo : d * hi);
	}
	Wide C = k->b.C;
	Pt *cur = xmalloc(sizeof *cur);
	cur[0] = (Pt){0, 0};
	size_t nc = xr[0] > C || yr[0] < -C || dr[0] < 1 ? 0 : 1;
	int out = 0;
	for (size_t i = 0; i < len && nc && out == 0; i++) {
		const int32_t *w = k->coef[set][dn[i]];
		unsigned nw = k->ncoef[set][dn[i]];
		Pt *next = xmalloc(nc * nw * sizeof *next);
		nc = step(cur, nc, w, nw, n[i], m[i], C, xr[i + 1], yr[i + 1],
			  dr[i + 1], next);
		free(cur);
		cur = next;
		if (nc > FRONT_MAX)
			out = -1;
	}
	/* a shift s with X + s <= C and Y + s >= -C, for a point with X < Y:
	 * the windows [-C - Y, C - X], sorted by their left ends */
	Wide *wa = xmalloc((nc + 1) * sizeof *wa), *wz = xmalloc((nc + 1) * sizeof *wz);
	size_t nwin = 0;
	for (size_t p = nc; p-- > 0 && out == 0;)
		if (cur[p].x < cur[p].y) {
			wa[nwin] = -C - cur[p].y;
			wz[nwin++] = C - cur[p].x;
		}
	Ivs sums = {0};
	if (nwin && !shift_sums(k, set, e, de, ne, wa, wz, nwin, &sums))
		out = -1;
	free(wa);
	free(wz);
	for (size_t p = 0; p < nc && out == 0 && nwin; p++) {
		if (cur[p].x >= cur[p].y)
			continue;
		Wide a = -C - cur[p].y, z = C - cur[p].x;
		size_t l = 0, r = sums.n; /* the first interval ending >= a */
		while (l < r) {
			size_t mid = l + (r - l) / 2;
			if (sums.hi[mid] < a)
				l = mid + 1;
			else
				r = mid;
		}
		if (l < sums.n && sums.lo[l] <= z)
			out = 1;
	}
	free(cur);
	free(xr);
	free(yr);
	free(dr);
	return out;
}
