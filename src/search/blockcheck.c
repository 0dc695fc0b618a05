/* blockcheck.c -- the second check of block pairs: runs split by search,
 * vectors compared by Pareto fronts. */
#include <config.h>

#include "search/blockcheck.h"

#include <stdlib.h>
#include <string.h>

#include "base/limit.h"
#include "base/mem.h"

__extension__ typedef __int128 Wide;

/* Past this many points a front is given up (the pair is undecided). */
enum { FRONT_MAX = 1 << 18, CHECK_MAX_DEPTH = 64 };

/* One sparse count vector: classes ascending, counts > 0. */
typedef struct {
	uint32_t *cls;
	uint64_t *cnt;
	size_t n;
} Vec;

typedef struct {
	uint32_t cls;
	uint64_t len;
} Seg;

typedef struct {
	Seg *s;
	size_t n, cap;
} Segs;

/* A class of the level being built: the class below and the counts at
 * its first position. */
typedef struct {
	uint32_t below;
	Vec rep;
} Known;

typedef struct {
	Wide x, y;
} Pt;

/* Per weight set, the weights of the past counts ([0]) and of the future
 * counts ([1]; {0} when past-only). */
typedef struct {
	IndistBounds b;
	int32_t (*coef)[2][1 << INDIST_MAX_T];
	unsigned (*ncoef)[2];
	size_t nsets;
	unsigned stride; /* a Vec's cls is class * stride + direction */
	bool undecided;
	Limits *lim;
	/* scratch kept between calls (grown, never shrunk): apart's
	 * coordinates, and shift_sums' tables and interval lists */
	uint64_t *n, *m, *e;
	unsigned *dn, *de;
	struct Eq_ *eq;
	size_t cap;
	uint64_t eq_key; /* the piece whose equal counts e, de hold sorted */
	size_t eq_n;
	uint64_t piece; /* piece_end's calls, numbered from 1 */
	Wide *rlo, *rhi, *iv[4];
	size_t rcap, ivcap;
} Check;


/* qsort of n items; none or one needs no call (and an empty vector's
 * data may be NULL, which qsort must not get). */
static void sort_n(void *base, size_t n, size_t size,
		   int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

static void segs_push(Segs *v, uint32_t cls, uint64_t len)
{
	if (v->n && v->s[v->n - 1].cls == cls) {
		v->s[v->n - 1].len += len;
		return;
	}
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 16;
		v->s = xrealloc(v->s, v->cap * sizeof *v->s);
	}
	v->s[v->n++] = (Seg){cls, len};
}

/* The sums of the subsets of the coefficients a_i with bit i of `sel`
 * set, into w (their number returned). */
static unsigned subset_sums(const int *a, unsigned T, unsigned sel, int32_t *w)
{
	unsigned n = 0;
	for (unsigned m = 0; m < 1u << T; m++) {
		if (m & ~sel)
			continue;
		int s = 0;
		for (unsigned i = 0; i < T; i++)
			s += m >> i & 1 ? a[i] : 0;
		unsigned j = 0;
		while (j < n && w[j] != s)
			j++;
		if (j == n)
			w[n++] = s;
	}
	return n;
}

/* The weight sets: for every T-tuple of coefficients in [-C, C] (and,
 * two-sided, every choice of the counts that look ahead), the sums of
 * the subsets of the past and of the future counts (duplicates are
 * harmless here, only slower). */
static void weight_sets(Check *k)
{
	unsigned T = k->b.T, dirs = k->stride == 2 ? 1u << T : 1;
	int C = (int)k->b.C, base = 2 * C + 1;
	size_t total = dirs;
	for (unsigned i = 0; i < T; i++)
		total *= (size_t)base;
	k->coef = xmalloc(total * sizeof *k->coef);
	k->ncoef = xmalloc(total * sizeof *k->ncoef);
	k->nsets = 0;
	for (size_t code = 0; code < total; code++) {
		int a[INDIST_MAX_T];
		size_t c = code;
		bool sorted = true;
		for (unsigned i = 0; i < T; i++) {
			a[i] = (int)(c % (size_t)base) - C;
			c /= (size_t)base;
			sorted &= i == 0 || a[i - 1] <= a[i];
		}
		if (!sorted)
			continue; /* one order of each multiset */
		unsigned ahead = (unsigned)c, all = (1u << T) - 1;
		k->ncoef[k->nsets][0] = subset_sums(a, T, all & ~ahead,
						    k->coef[k->nsets][0]);
		k->ncoef[k->nsets][1] = subset_sums(a, T, ahead, k->coef[k->nsets][1]);
		k->nsets++;
	}
}

/* ---- two vectors: the Pareto front of (X, Y) -------------------------- */

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
static int front(Check *k, size_t set, const uint64_t *n,
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

/* An equal count and its direction. */
typedef struct Eq_ {
	uint64_t v;
	unsigned d;
} Eq;

static int descending(const void *a, const void *b)
{
	uint64_t x = ((const Eq *)a)->v, y = ((const Eq *)b)->v;
	return (x < y) - (x > y);
}

/* Sorts the coordinates (n_i, m_i, d_i) by their larger count, largest
 * first (insertion: the vectors are short). */
static void sort_pairs(uint64_t *n, uint64_t *m, unsigned *d, size_t len)
{
	for (size_t i = 1; i < len; i++)
		for (size_t j = i; j > 0; j--) {
			uint64_t a = n[j] > m[j] ? n[j] : m[j];
			uint64_t b = n[j - 1] > m[j - 1] ? n[j - 1] : m[j - 1];
			if (a <= b)
				break;
			uint64_t t = n[j];
			n[j] = n[j - 1];
			n[j - 1] = t;
			t = m[j];
			m[j] = m[j - 1];
			m[j - 1] = t;
			unsigned td = d[j];
			d[j] = d[j - 1];
			d[j - 1] = td;
		}
}

/* The next coordinate of the merge of a and b (from a->cls[*i] and
 * b->cls[*j]): its two counts and direction.  False past the end. */
static bool coord(const Check *k, const Vec *a, const Vec *b, size_t *i,
		  size_t *j, uint64_t *x, uint64_t *y, unsigned *dir)
{
	if (*i >= a->n && *j >= b->n)
		return false;
	uint32_t ca = *i < a->n ? a->cls[*i] : UINT32_MAX;
	uint32_t cb = *j < b->n ? b->cls[*j] : UINT32_MAX;
	*x = ca <= cb ? a->cnt[*i] : 0;
	*y = cb <= ca ? b->cnt[*j] : 0;
	*dir = (ca < cb ? ca : cb) % k->stride;
	*i += ca <= cb;
	*j += cb <= ca;
	return true;
}

/* Room in k for cap coordinates of apart (kept between calls). */
static void apart_room(Check *k, size_t cap)
{
	if (cap <= k->cap)
		return;
	k->cap = 2 * cap;
	k->n = xrealloc(k->n, k->cap * sizeof *k->n);
	k->m = xrealloc(k->m, k->cap * sizeof *k->m);
	k->e = xrealloc(k->e, k->cap * sizeof *k->e);
	k->eq = xrealloc(k->eq, k->cap * sizeof *k->eq);
	k->dn = xrealloc(k->dn, k->cap * sizeof *k->dn);
	k->de = xrealloc(k->de, k->cap * sizeof *k->de);
}

/* Do the positions with counts a and b fall apart?  1, 0, -1 undecided.
 * `key` (not 0) names the position a: calls with the same key and the
 * same coordinates of equal counts reuse their sorted order. */
static int apart(Check *k, const Vec *a, const Vec *b, uint64_t key)
{
	apart_room(k, a->n + b->n + 1);
	uint64_t *n = k->n, *m = k->m, *e = k->e;
	unsigned *dn = k->dn, *de = k->de;
	Eq *eq = k->eq;
	size_t i = 0, j = 0, len = 0, ne = 0;
	bool alone = false;
	uint64_t x, y;
	unsigned dir;
	while (coord(k, a, b, &i, &j, &x, &y, &dir)) {
		if (x == y) {
			ne++;
			continue;
		}
		/* #[that class] >= c (or #>), c between the two counts */
		alone |= (x < y ? x : y) <= k->b.C;
		n[len] = x;
		m[len] = y;
		dn[len++] = dir;
	}
	if (len == 0 || alone)
		return len != 0;
	if (!key || key != k->eq_key || ne != k->eq_n) {
		/* the equal counts, the largest first: the window prunes soonest */
		size_t q = 0;
		for (i = j = 0; coord(k, a, b, &i, &j, &x, &y, &dir);) {
			if (x == y)
				eq[q++] = (Eq){x, dir};
		}
		sort_n(eq, ne, sizeof *eq, descending);
		for (q = 0; q < ne; q++) {
			e[q] = eq[q].v;
			de[q] = eq[q].d;
		}
		k->eq_key = key;
		k->eq_n = ne;
	}
	sort_pairs(n, m, dn, len);
	int out = 0;
	for (size_t s = 0; s < k->nsets && out != 1; s++) {
		int r = front(k, s, n, m, dn, len, e, de, ne);
		if (r < 0)
			out = -1;
		else if (r > 0)
			out = 1;
	}
	return out;
}

/* ---- one word at the next level ---------------------------------------- */

/* Where a word stands before a run: the counts so far (dense, the
 * classes seen sorted), and, two-sided, the word's totals. */
typedef struct {
	const uint64_t *dense, *tot;
	const uint32_t *seen;
	size_t nseen, nbelow;
} Before;

/* Two-sided: the counts at the run's position `at` (1-based), past
 * 2K and future 2K + 1, every class. */
static void vec_two(const Before *w, uint32_t c0, uint64_t at, Vec *out)
{
	out->cls = xmalloc((2 * w->nbelow + 1) * sizeof *out->cls);
	out->cnt = xmalloc((2 * w->nbelow + 1) * sizeof *out->cnt);
	out->n = 0;
	for (uint32_t K = 0; K < w->nbelow; K++) {
		/* the past count includes the position, so does the future */
		uint64_t past = w->dense[K] + (K == c0 ? at : 0);
		uint64_t ahead = w->tot[K] - w->dense[K] - (K == c0 ? at - 1 : 0);
		if (past) {
			out->cls[out->n] = 2 * K;
			out->cnt[out->n++] = past;
		}
		if (ahead) {
			out->cls[out->n] = 2 * K + 1;
			out->cnt[out->n++] = ahead;
		}
	}
}

/* The counts before a run, with `extra` more of class c0. */
static void vec_at(const Before *w, uint32_t c0, uint64_t extra, Vec *out)
{
	if (w->tot) {
		vec_two(w, c0, extra, out);
		return;
	}
	const uint64_t *dense = w->dense;
	const uint32_t *seen = w->seen;
	size_t nseen = w->nseen;
	out->cls = xmalloc((nseen + 1) * sizeof *out->cls);
	out->cnt = xmalloc((nseen + 1) * sizeof *out->cnt);
	out->n = 0;
	bool put = false;
	for (size_t i = 0; i <= nseen; i++) {
		uint32_t c = i < nseen ? seen[i] : UINT32_MAX;
		if (!put && c0 <= c) {
			uint64_t v = dense[c0] + extra;
			if (v) {
				out->cls[out->n] = c0;
				out->cnt[out->n++] = v;
			}
			put = true;
			if (c == c0)
				continue;
		}
		if (i < nseen && dense[c]) {
			out->cls[out->n] = c;
			out->cnt[out->n++] = dense[c];
		}
	}
}

static void vec_free(Vec *v)
{
	free(v->cls);
	free(v->cnt);
}

/* Positions first and at (1-based in the run) apart? */
static int run_apart(Check *k, const Before *w, uint32_t c0, uint64_t first,
		     uint64_t at)
{
	Vec a, b;
	vec_at(w, c0, first, &a);
	vec_at(w, c0, at, &b);
	int r = apart(k, &a, &b, k->piece);
	vec_free(&a);
	vec_free(&b);
	if (r < 0)
		k->undecided = true;
	return r;
}

/* The last position of the run that no comparison separates from
 * `first`: doubling, then bisection (apartness grows with the distance). */
static uint64_t piece_end(Check *k, const Before *w, uint32_t c0,
			  uint64_t first, uint64_t len)
{
	uint64_t good = first, step = 1, bad = len + 1;
	k->piece++;
	while (good < len) {
		uint64_t t = len - good < step ? len : good + step;
		if (run_apart(k, w, c0, first, t) != 0) {
			bad = t;
			break;
		}
		good = t;
		step *= 2;
	}
	while (bad - good > 1) {
		uint64_t mid = good + (bad - good) / 2;
		if (run_apart(k, w, c0, first, mid) != 0)
			bad = mid;
		else
			good = mid;
	}
	return good;
}

/* The classes of the level being built, chained by a hash of what any
 * two positions of one class must share: the class below, and each
 * count capped at C + 1 (a count of at most C that differs is seen by
 * the comparison #[that class] >= c alone).  The chains only narrow
 * the candidates; `apart` decides. */
typedef struct {
	Known *k;
	uint64_t *hash; /* per class: of the capped counts */
	uint64_t *full; /* per class: of the counts */
	uint32_t *next; /* per class: the next in its chain, or UINT32_MAX */
	uint32_t *head; /* per chain */
	uint64_t *run;  /* per class: the last run (numbered) a piece joined it */
	uint64_t runs;  /* runs begun at this level */
	size_t n, cap, nheads;
} Classes;

/* Two hashes of (below, v): of the counts capped at C + 1 (the chain)
 * and of the very counts (a quick "not the same vector"). */
static uint64_t hash_counts(uint32_t below, const Vec *v, uint64_t C,
			    uint64_t *exact)
{
	uint64_t h = 0xcbf29ce484222325u ^ below, x = h;
	for (size_t i = 0; i < v->n; i++) {
		uint64_t c = v->cnt[i] > C ? C + 1 : v->cnt[i];
		h = (h ^ v->cls[i]) * 0x100000001b3u;
		h = (h ^ c) * 0x100000001b3u;
		x = (x ^ v->cls[i]) * 0x100000001b3u;
		x = (x ^ v->cnt[i]) * 0x100000001b3u;
	}
	*exact = x ^ x >> 29;
	return h ^ h >> 29;
}

/* Doubles the chains (and the per-class arrays with them). */
static void classes_grow(Classes *cs)
{
	cs->cap = cs->cap ? 2 * cs->cap : 64;
	cs->k = xrealloc(cs->k, cs->cap * sizeof *cs->k);
	cs->hash = xrealloc(cs->hash, cs->cap * sizeof *cs->hash);
	cs->full = xrealloc(cs->full, cs->cap * sizeof *cs->full);
	cs->next = xrealloc(cs->next, cs->cap * sizeof *cs->next);
	cs->run = xrealloc(cs->run, cs->cap * sizeof *cs->run);
	free(cs->head);
	cs->nheads = 2 * cs->cap;
	cs->head = xmalloc(cs->nheads * sizeof *cs->head);
	for (size_t i = 0; i < cs->nheads; i++)
		cs->head[i] = UINT32_MAX;
	for (size_t i = 0; i < cs->n; i++) {
		size_t b = cs->hash[i] & (cs->nheads - 1);
		cs->next[i] = cs->head[b];
		cs->head[b] = (uint32_t)i;
	}
}

static bool vec_same(const Vec *a, const Vec *b)
{
	return a->n == b->n &&
	       (a->n == 0 || (!memcmp(a->cls, b->cls, a->n * sizeof *a->cls) &&
			      !memcmp(a->cnt, b->cnt, a->n * sizeof *a->cnt)));
}

/* The class of a piece whose first position has counts v: an earlier
 * class of the same class below that no comparison separates, or a new
 * one (which takes v).  A class that an earlier piece of the same run
 * joined is not tried: the pieces of a run are apart from each other
 * (apartness from a piece's first position grows along the run, which
 * is what piece_end's search rests on). */
static uint32_t join(Classes *cs, uint32_t i, Vec *v)
{
	vec_free(v);
	cs->run[i] = cs->runs;
	return i;
}

static uint32_t classify(Check *k, Classes *cs, uint32_t below, Vec *v)
{
	uint64_t x, h = hash_counts(below, v, k->b.C, &x);
	if (cs->n == cs->cap)
		classes_grow(cs);
	uint32_t first = cs->head[h & (cs->nheads - 1)];
	/* a class with these very counts (a prefix both words share) */
	for (uint32_t i = first; i != UINT32_MAX; i = cs->next[i])
		if (cs->full[i] == x && cs->k[i].below == below &&
		    vec_same(&cs->k[i].rep, v))
			return join(cs, i, v);
	for (uint32_t i = first; i != UINT32_MAX; i = cs->next[i]) {
		if (cs->hash[i] != h || cs->k[i].below != below ||
		    cs->run[i] == cs->runs)
			continue;
		int r = apart(k, &cs->k[i].rep, v, 0);
		if (r < 0)
			k->undecided = true;
		if (r == 0)
			return join(cs, i, v);
	}
	size_t b = h & (cs->nheads - 1);
	cs->k[cs->n] = (Known){below, *v};
	cs->hash[cs->n] = h;
	cs->full[cs->n] = x;
	cs->next[cs->n] = cs->head[b];
	cs->run[cs->n] = cs->runs;
	cs->head[b] = (uint32_t)cs->n;
	return (uint32_t)cs->n++;
}

/* Class c0 joins the classes seen, kept ascending: put in its place. */
static void see(uint32_t *seen, size_t *nseen, uint32_t c0)
{
	size_t at = *nseen;
	while (at > 0 && seen[at - 1] > c0)
		at--;
	memmove(seen + at + 1, seen + at, (*nseen - at) * sizeof *seen);
	seen[at] = c0;
	++*nseen;
}

/* One word from its segments of the level below to those of the next.
 * False when a limit stopped it. */
static bool next_level(Check *k, Classes *cs, const Segs *in, size_t nbelow,
		       Segs *out)
{
	uint64_t *dense = xcalloc(nbelow + 1, sizeof *dense), *tot = NULL;
	uint32_t *seen = xmalloc((nbelow + 1) * sizeof *seen);
	size_t nseen = 0;
	bool ok = true;
	if (k->stride == 2) {
		tot = xcalloc(nbelow + 1, sizeof *tot);
		for (size_t r = 0; r < in->n; r++)
			tot[in->s[r].cls] += in->s[r].len;
	}
	for (size_t r = 0; r < in->n && ok; r++) {
		uint32_t c0 = in->s[r].cls;
		uint64_t len = in->s[r].len, first = 1;
		cs->runs++;
		Before w = {dense, tot, seen, nseen, nbelow};
		while (first <= len) {
			if (limit_poll(k->lim)) {
				ok = false;
				break;
			}
			uint64_t end = piece_end(k, &w, c0, first, len);
			Vec v;
			vec_at(&w, c0, first, &v);
			segs_push(out, classify(k, cs, c0, &v), end - first + 1);
			first = end + 1;
		}
		if (!dense[c0])
			see(seen, &nseen, c0);
		dense[c0] += len;
	}
	free(dense);
	free(tot);
	free(seen);
	return ok;
}

/* A word's last position's counts of the classes of the level below
 * (past, and two-sided future): the runs before the last one, then the
 * last one whole. */
static void last_vec(const Check *k, const Segs *in, size_t nbelow, Vec *out)
{
	uint64_t *dense = xcalloc(nbelow + 1, sizeof *dense), *tot = NULL;
	uint32_t *seen = xmalloc((nbelow + 1) * sizeof *seen);
	size_t nseen = 0;
	if (k->stride == 2) {
		tot = xcalloc(nbelow + 1, sizeof *tot);
		for (size_t r = 0; r < in->n; r++)
			tot[in->s[r].cls] += in->s[r].len;
	}
	for (size_t r = 0; r + 1 < in->n; r++) {
		uint32_t c0 = in->s[r].cls;
		if (!dense[c0])
			see(seen, &nseen, c0);
		dense[c0] += in->s[r].len;
	}
	Before w = {dense, tot, seen, nseen, nbelow};
	vec_at(&w, in->s[in->n - 1].cls, in->s[in->n - 1].len, out);
	free(dense);
	free(tot);
	free(seen);
}

/* The last level (maxd) decided from the two last positions alone: no
 * other position's class matters there, and refining every run of a
 * long word at that level is most of the cost. */
static unsigned last_level(Check *k, const Segs *cur, size_t ncls,
			   unsigned maxd, bool exact)
{
	Vec va, vb;
	last_vec(k, &cur[0], ncls, &va);
	last_vec(k, &cur[1], ncls, &vb);
	int r = apart(k, &va, &vb, 0);
	vec_free(&va);
	vec_free(&vb);
	return r == 0 ? BLOCKCHECK_NONE : r > 0 && exact ? maxd
	       : BLOCKCHECK_UNDECIDED;
}

static void classes_free(Classes *cs)
{
	for (size_t i = 0; i < cs->n; i++)
		vec_free(&cs->k[i].rep);
	free(cs->k);
	free(cs->hash);
	free(cs->full);
	free(cs->next);
	free(cs->head);
	free(cs->run);
}

/* The letters as the classes of level 0, numbered as they come. */
static size_t letters(const BlockWord *const *w, size_t nletters, Segs *out)
{
	int *num = xmalloc((nletters + 1) * sizeof *num);
	for (size_t a = 0; a <= nletters; a++)
		num[a] = -1;
	size_t n = 0;
	for (int i = 0; i < 2; i++)
		for (size_t r = 0; r < w[i]->n; r++) {
			uint8_t a = w[i]->letter[r];
			if (num[a] < 0)
				num[a] = (int)n++;
			segs_push(&out[i], (uint32_t)num[a], w[i]->len[r]);
		}
	free(num);
	return n;
}

unsigned blockcheck_pair(const BlockWord *u, const BlockWord *v,
			 size_t nletters, unsigned maxd, IndistBounds b,
			 Limits *lim)
{
	bool eu = blockword_length(u) == 0, ev = blockword_length(v) == 0;
	if (eu || ev)
		return eu && ev ? BLOCKCHECK_NEVER : 0;
	Check k = {.b = b, .lim = lim, .stride = b.two_sided ? 2 : 1};
	if (k.b.T < 1)
		k.b.T = 1;
	if (k.b.T > INDIST_MAX_T)
		k.b.T = INDIST_MAX_T;
	weight_sets(&k);
	const BlockWord *w[2] = {u, v};
	Segs cur[2] = {{0}, {0}};
	size_t ncls = letters(w, nletters, cur);
	unsigned answer = BLOCKCHECK_NONE;
	bool exact = true;
	for (unsigned d = 0;; d++) {
		if (cur[0].s[cur[0].n - 1].cls != cur[1].s[cur[1].n - 1].cls) {
			answer = exact ? d : BLOCKCHECK_UNDECIDED;
			break;
		}
		if (d == maxd || d == CHECK_MAX_DEPTH)
			break;
		if (d + 1 == maxd) {
			answer = last_level(&k, cur, ncls, maxd, exact);
			break;
		}
		Classes cs = {0};
		Segs next[2] = {{0}, {0}};
		bool ok = true;
		k.undecided = false;
		for (int i = 0; i < 2 && ok; i++)
			ok = next_level(&k, &cs, &cur[i], ncls, &next[i]);
		size_t n = cs.n;
		classes_free(&cs);
		for (int i = 0; i < 2; i++) {
			free(cur[i].s);
			cur[i] = next[i];
		}
		if (!ok) {
			answer = BLOCKCHECK_STOPPED;
			break;
		}
		exact &= !k.undecided;
		if (n == ncls && exact) {
			answer = BLOCKCHECK_NEVER;
			break;
		}
		ncls = n;
	}
	free(cur[0].s);
	free(cur[1].s);
	free(k.coef);
	free(k.ncoef);
	free(k.n);
	free(k.m);
	free(k.e);
	free(k.eq);
	free(k.dn);
	free(k.de);
	free(k.rlo);
	free(k.rhi);
	for (int i = 0; i < 4; i++)
		free(k.iv[i]);
	return answer;
}
