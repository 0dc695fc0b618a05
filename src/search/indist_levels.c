/* indist_levels.c -- the levels of classes, built on demand: level 0 the
 * letters, level k from level k - 1 by the counts of its classes; the
 * depth of a pair is the first level that parts its two ends. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "base/limit.h"
#include "base/mem.h"
#include "search/indist_separable.h"

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
			int s = indist_separable(x, l, cp, l->count + (size_t)q * r, r, &vp);
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
			int s = indist_separable(x, l, cp, l->count + (size_t)l->rep.data[K] * r,
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
		indist_level_free(l);
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
