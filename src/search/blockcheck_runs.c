/* blockcheck_runs.c -- walking a word's runs and the counts of its
 * positions. */
#include <config.h>

#include "search/blockcheck_runs.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

void blockcheck_segs_push(Segs *v, uint32_t cls, uint64_t len)
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

/* Two-sided: the counts at the run's position `at` (1-based), past
 * 2K and future 2K + 1, every class. */
static void vec_two(const Walk *w, uint32_t c0, uint64_t at, Vec *out)
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
void blockcheck_vec_at(const Walk *w, uint32_t c0, uint64_t extra, Vec *out)
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

void blockcheck_walk_start(Walk *w, const Segs *in, size_t nbelow,
			   bool two_sided)
{
	*w = (Walk){.dense = xcalloc(nbelow + 1, sizeof *w->dense),
		    .seen = xmalloc((nbelow + 1) * sizeof *w->seen),
		    .nbelow = nbelow};
	if (two_sided) {
		w->tot = xcalloc(nbelow + 1, sizeof *w->tot);
		for (size_t r = 0; r < in->n; r++)
			w->tot[in->s[r].cls] += in->s[r].len;
	}
}

void blockcheck_walk_past(Walk *w, uint32_t c0, uint64_t len)
{
	if (!w->dense[c0])
		see(w->seen, &w->nseen, c0);
	w->dense[c0] += len;
}

void blockcheck_walk_free(Walk *w)
{
	free(w->dense);
	free(w->tot);
	free(w->seen);
}
