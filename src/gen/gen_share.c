/* gen_share.c -- gen_states' counts over the ranks (see gen_share.h). */
#include <config.h>

#include "gen/gen_share.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <flint/fmpz_vec.h>

#include "base/mem.h"

/* Words of limbs on their way to a rank: counts as [n, n limbs]. */
typedef struct {
	uint64_t *p;
	size_t n, cap;
} Words;

static void words_push(Words *v, uint64_t x)
{
	mem_grow((void **)&v->p, &v->cap, v->n + 1, sizeof *v->p);
	v->p[v->n++] = x;
}

static void words_count(Words *v, const fmpz_t x)
{
	size_t n = fmpz_size(x); /* 0 for 0 */
	words_push(v, n);
	mem_grow((void **)&v->p, &v->cap, v->n + n, sizeof *v->p);
	if (n)
		fmpz_get_ui_array((ulong *)(v->p + v->n), (slong)n, x);
	v->n += n;
}

/* Reads a count at p into x; returns what follows it. */
static const uint64_t *read_count(const uint64_t *p, fmpz_t x)
{
	if (p[0] == 0)
		fmpz_zero(x);
	else
		fmpz_set_ui_array(x, (const ulong *)(p + 1), (slong)p[0]);
	return p + 1 + p[0];
}

/* ---- ownership ---------------------------------------------------------- */

/* Level d's cuts: rank q's block is cut[q] .. cut[q + 1]. */
static size_t *cuts(const GenStates *g, size_t d)
{
	return g->cut + d * (size_t)(g->sh->size + 1);
}

static void block(const GenStates *g, size_t d, int q, size_t *lo, size_t *hi)
{
	const size_t *c = cuts(g, d);
	*lo = c[q];
	*hi = c[q + 1];
}

/* The rank whose block of level d holds state s: the last q with
 * cut[q] <= s (blocks may be empty). */
static int owner(const GenStates *g, size_t d, size_t s)
{
	const size_t *c = cuts(g, d);
	int lo = 0, hi = g->sh->size - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (c[mid] <= s)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* Whether state s of level d is this rank's (no search: the hot loops
 * ask it for every edge). */
static bool mine(const GenStates *g, size_t d, size_t s)
{
	return s - g->own_lo[d] < g->own_n[d]; /* s < own_lo wraps round */
}

static fmpz *own_cnt(const GenStates *g, int c, size_t d, size_t s)
{
	return &g->cnt[c][g->own_base[d] + s - g->own_lo[d]];
}

void gen_share_begin(GenStates *g, const Share *sh, Limits *lim,
		     size_t max_len, size_t max_states)
{
	g->sh = sh;
	g->lim = lim;
	const Machine *m = &g->m;
	int64_t f[10] = {
		(int64_t)max_len, (int64_t)max_states, (int64_t)g->nletters,
		(int64_t)machine_packed_len(m), (int64_t)m->nslots,
		(int64_t)m->nstep, (int64_t)m->ncodes, (int64_t)g->domain,
		0, 0x67656e /* "gen" */
	};
	for (size_t a = 0; a < g->nletters; a++)
		f[8] = f[8] * 31 + g->code[a];
	sh->begin(machine_packed_hash(f, sizeof f / sizeof *f));
}

/* Which classes each state can reach (bit c: a word of the class of
 * some length, its own included): its counts towards a length are then
 * exact numbers of up to that many bits, 0 for the other class.  Every
 * rank computes it alike. */
static uint8_t *reach(const GenStates *g)
{
	uint8_t *r = xmalloc(g->n);
	for (size_t s = g->n; s-- > 0;) {
		uint8_t b = (uint8_t)(gen_states_in_class(g->cls[s], false) |
				      gen_states_in_class(g->cls[s], true) << 1);
		bool last = s >= g->first[g->nlevels - 1];
		for (size_t a = 0; !last && a < g->nletters; a++)
			b |= r[gen_states_succ(g, (uint32_t)s, a)];
		r[s] = b;
	}
	return r;
}

/* Cuts every level in N blocks of about equal work: a state costs one,
 * and one more per class it can reach (in Dyck-1, the states that went
 * below zero reach non-members only: half the work of the others). */
static void cut_levels(GenStates *g)
{
	uint8_t *r = reach(g);
	int N = g->sh->size;
	for (size_t d = 0; d < g->nlevels; d++) {
		size_t *c = cuts(g, d), f = g->first[d], f1 = g->first[d + 1];
		uint64_t total = 0, acc = 0;
		for (size_t s = f; s < f1; s++)
			total += 1 + (r[s] & 1) + (r[s] >> 1);
		c[0] = f;
		int q = 1;
		for (size_t s = f; s < f1; s++) {
			while (q < N && acc * (uint64_t)N >= total * (uint64_t)q)
				c[q++] = s;
			acc += 1 + (r[s] & 1) + (r[s] >> 1);
		}
		while (q <= N)
			c[q++] = f1;
	}
	free(r);
}

/* Appends to g->give the states of level d + 1 this rank owns that
 * rank q's block of level d reaches, each once (mark: the stamp of the
 * last list a state went to). */
static void give_list(GenStates *g, size_t d, int q, uint32_t *mark,
		      uint32_t stamp, size_t *n)
{
	size_t lo, hi, f1 = g->first[d + 1];
	block(g, d, q, &lo, &hi);
	for (size_t s = lo; s < hi; s++)
		for (size_t a = 0; a < g->nletters; a++) {
			uint32_t t = gen_states_succ(g, (uint32_t)s, a);
			if (!mine(g, d + 1, t) || mark[t - f1] == stamp)
				continue;
			mark[t - f1] = stamp;
			mem_grow((void **)&g->give, &g->give_cap, *n + 1,
				 sizeof *g->give);
			g->give[(*n)++] = t;
		}
}

/* Which counts go where at each level: fixed by the graph, so listed
 * once for every length's counting. */
static void give_lists(GenStates *g)
{
	size_t N = (size_t)g->sh->size, k = 0, last = g->nlevels - 1;
	uint32_t *mark = xcalloc(gen_states_widest(g), sizeof *mark), stamp = 0;
	for (size_t d = 0; d < last; d++)
		for (int q = 0; q < (int)N; q++) {
			g->give_at[d * N + (size_t)q] = k;
			if (q != g->sh->rank)
				give_list(g, d, q, mark, ++stamp, &k);
		}
	for (size_t i = last * N; i <= g->nlevels * N; i++)
		g->give_at[i] = k;
	free(mark);
}

/* The blocks, this rank's place for their counts, and what it sends to
 * whom: once, after the build. */
void gen_share_own(GenStates *g)
{
	size_t N = (size_t)g->sh->size, at = 0, hi;
	g->own_lo = xmalloc(g->nlevels * sizeof *g->own_lo);
	g->own_n = xmalloc(g->nlevels * sizeof *g->own_n);
	g->own_base = xmalloc(g->nlevels * sizeof *g->own_base);
	g->cut = xmalloc(g->nlevels * (N + 1) * sizeof *g->cut);
	g->give_at = xcalloc(g->nlevels * N + 1, sizeof *g->give_at);
	cut_levels(g);
	for (size_t d = 0; d < g->nlevels; d++) {
		block(g, d, g->sh->rank, &g->own_lo[d], &hi);
		g->own_n[d] = hi - g->own_lo[d];
		g->own_base[d] = at;
		at += g->own_n[d];
	}
	g->ncnt = at;
	for (int c = 0; c < 2; c++)
		g->cnt[c] = _fmpz_vec_init((slong)at);
	give_lists(g);
}

/* ---- counting backwards ------------------------------------------------ */

/* The counts of one level that other ranks own and this rank's block of
 * the level above reaches: nbr[c][s - first], valid where received. */
typedef struct {
	fmpz *nbr[2];
	size_t wide;
} Fetch;

/* One exchange: the counts of level d + 1 this rank's block of level d
 * needs from the other ranks, into f->nbr. */
static void fetch_level(const GenStates *g, Fetch *f, size_t d)
{
	int N = g->sh->size;
	Words *out = xcalloc((size_t)N, sizeof *out);
	void **send = xmalloc((size_t)N * sizeof *send);
	size_t *lens = xmalloc((size_t)N * sizeof *lens);
	for (int q = 0; q < N; q++) {
		size_t i = d * (size_t)N + (size_t)q;
		for (size_t j = g->give_at[i]; j < g->give_at[i + 1]; j++) {
			uint32_t t = g->give[j];
			words_push(&out[q], t - g->first[d + 1]);
			for (int c = 0; c < 2; c++)
				words_count(&out[q], own_cnt(g, c, d + 1, t));
		}
		send[q] = out[q].p;
		lens[q] = out[q].n * sizeof *out[q].p;
	}
	size_t len;
	uint64_t *in = g->sh->exchange(send, lens, &len);
	const uint64_t *p = in, *end = in + len / sizeof *in;
	while (p < end) {
		uint64_t x = *p++;
		for (int c = 0; c < 2; c++)
			p = read_count(p, &f->nbr[c][x]);
	}
	free(in);
	for (int q = 0; q < N; q++)
		free(out[q].p);
	free(out);
	free(send);
	free(lens);
}

static const fmpz *child(const GenStates *g, const Fetch *f, int c,
			 size_t d, uint32_t t)
{
	if (mine(g, d, t))
		return own_cnt(g, c, d, t);
	return &f->nbr[c][t - g->first[d]];
}

void gen_share_aim(GenStates *g, size_t n)
{
	if (g->lim)
		g->sh->agree(g->lim);
	g->aim = n;
	for (size_t s = g->own_lo[n]; s < g->own_lo[n] + g->own_n[n]; s++)
		for (int c = 0; c < 2; c++)
			fmpz_set_ui(own_cnt(g, c, n, s),
				    gen_states_in_class(g->cls[s], c));
	Fetch f = {.wide = gen_states_widest(g)};
	for (int c = 0; c < 2; c++)
		f.nbr[c] = _fmpz_vec_init((slong)f.wide);
	for (size_t d = n; d-- > 0;) {
		fetch_level(g, &f, d);
		for (size_t s = g->own_lo[d]; s < g->own_lo[d] + g->own_n[d];
		     s++)
			for (int c = 0; c < 2; c++) {
				fmpz *x = own_cnt(g, c, d, s);
				fmpz_zero(x);
				for (size_t a = 0; a < g->nletters; a++)
					fmpz_add(x, x, child(g, &f, c, d + 1,
						gen_states_succ(g, (uint32_t)s, a)));
			}
	}
	for (int c = 0; c < 2; c++)
		_fmpz_vec_clear(f.nbr[c], (slong)f.wide);
}

/* ---- walking down ------------------------------------------------------ */

/* Where each rank's counts start in what the all-gather returned: the
 * entries (i, a) of the batch, in order, each owned by one rank. */
static void sections(const GenStates *g, size_t d, const uint32_t *s,
		     size_t k, const uint64_t *all, const uint64_t **sec)
{
	const uint64_t *p = all;
	for (int q = 0; q < g->sh->size; q++) {
		sec[q] = p;
		for (size_t i = 0; i < k; i++)
			for (size_t a = 0; a < g->nletters; a++)
				if (owner(g, d, gen_states_succ(g, s[i], a)) == q)
					p += 1 + p[0];
	}
}

/* One step down for the whole batch: the letters at depth d. */
static void step_down(const GenStates *g, bool member, size_t d, fmpz *r,
		 uint32_t *s, size_t k, uint32_t *w)
{
	Words held = {0};
	for (size_t i = 0; i < k; i++)
		for (size_t a = 0; a < g->nletters; a++) {
			uint32_t t = gen_states_succ(g, s[i], a);
			if (mine(g, d + 1, t))
				words_count(&held, own_cnt(g, member, d + 1, t));
		}
	size_t len;
	uint64_t *all = g->sh->allgather(held.p, held.n * sizeof *held.p,
					 &len);
	free(held.p);
	const uint64_t **sec = xmalloc((size_t)g->sh->size * sizeof *sec);
	sections(g, d + 1, s, k, all, sec);
	fmpz_t x;
	fmpz_init(x);
	for (size_t i = 0; i < k; i++) {
		uint32_t to = UINT32_MAX;
		for (size_t a = 0; a < g->nletters; a++) {
			uint32_t t = gen_states_succ(g, s[i], a);
			int q = owner(g, d + 1, t);
			sec[q] = read_count(sec[q], x);
			if (to != UINT32_MAX)
				continue; /* read on: the cursors move */
			if (fmpz_cmp(&r[i], x) < 0) {
				to = t;
				w[i * g->aim + d] = (uint32_t)a;
			} else {
				fmpz_sub(&r[i], &r[i], x);
			}
		}
		assert(to != UINT32_MAX);
		s[i] = to;
	}
	fmpz_clear(x);
	free(sec);
	free(all);
}

void gen_share_unrank(const GenStates *g, bool member, const fmpz *ranks,
		      size_t k, uint32_t *w)
{
	if (g->lim)
		g->sh->agree(g->lim);
	fmpz *r = _fmpz_vec_init((slong)k);
	_fmpz_vec_set(r, ranks, (slong)k);
	uint32_t *s = xcalloc(k ? k : 1, sizeof *s);
	for (size_t d = 0; d < g->aim; d++)
		step_down(g, member, d, r, s, k, w);
	for (size_t i = 0; i < k; i++)
		assert(gen_states_in_class(g->cls[s[i]], member));
	free(s);
	_fmpz_vec_clear(r, (slong)k);
}
