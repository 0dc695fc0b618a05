/* mpi_pairs.c -- hierarchy's pairs built by one rank, a row ahead
 * (mpi_pairs.h). */
#include <config.h>
#include "mpi/mpi_pairs.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/limit.h"
#include "base/mem.h"
#include "base/sym.h"
#include "core/store.h"
#include "machine/eval.h"
#include "mpi/mpi_job.h"
#include "search/hierarchy.h"

/* What a pair depends on (besides the membership test, which the row
 * and the generator fix). */
typedef struct {
	PairgenFn *gen;
	unsigned k, d, tries;
	IndistBounds b;
	uint64_t seed;
} Row;

static bool same_row(const Row *x, const Row *y)
{
	return x->gen == y->gen && x->k == y->k && x->d == y->d &&
	       x->tries == y->tries && x->seed == y->seed && x->b.C == y->b.C &&
	       x->b.T == y->b.T && x->b.two_sided == y->b.two_sided;
}

/* The pair being built ahead on the pair rank (on = its thread runs or
 * has not been joined). */
static struct {
	bool on;
	pthread_t th;
	Row row;
	Limits lim;
	PairgenStatus st;
	PairCert pair;
} ahead;

/* The thread: the row's formula in a Store of its own, judged as
 * hierarchy judges it (pairgen_eval_member). */
static void *build(void *unused)
{
	(void)unused;
	const Row *r = &ahead.row;
	Store *st = store_new();
	Sym ab[2] = {sym_intern(store_syms(st), "a", 1),
		     sym_intern(store_syms(st), "b", 1)};
	PairgenEval m = {.ab = ab, .predict = r->gen == pairgen_predict};
	Node roots[2] = {hierarchy_lk(st, ab[0], ab[1], r->k), NODE_NONE};
	if (m.predict)
		roots[1] = hierarchy_prefix_guard(st, ab[0], ab[1], r->k);
	m.ev = eval_new(st, roots, m.predict ? 2 : 1, ACCEPT_LAST);
	ahead.st = r->gen(r->k, r->d, r->b, r->seed, r->tries,
			  pairgen_eval_member, &m, &ahead.lim, &ahead.pair);
	eval_free(m.ev);
	store_free(st);
	return NULL;
}

/* Row r's pair on a thread, within a copy of lim. */
static void start(const Row *r, const Limits *lim)
{
	ahead.row = *r;
	ahead.lim = *lim;
	ahead.lim.hit = LIMIT_NONE;
	ahead.lim.polls = 0;
	ahead.lim.memory = 0;
	memset(&ahead.pair, 0, sizeof ahead.pair);
	ahead.on = pthread_create(&ahead.th, NULL, build, NULL) == 0;
}

/* The pair built ahead, and the limit its search reached (lim's). */
static PairgenStatus take(Limits *lim, PairCert *out)
{
	pthread_join(ahead.th, NULL);
	ahead.on = false;
	*out = ahead.pair;
	if (ahead.lim.hit != LIMIT_NONE && lim->hit == LIMIT_NONE) {
		lim->hit = ahead.lim.hit;
		lim->memory = ahead.lim.memory;
	}
	return ahead.st;
}

/* A pair built ahead for a row not asked for: its limit is set (the
 * generator polls it and returns) and it is dropped. */
static void cancel(void)
{
	if (!ahead.on)
		return;
	__atomic_store_n(&ahead.lim.hit, LIMIT_INTERRUPT, __ATOMIC_RELAXED);
	pthread_join(ahead.th, NULL);
	ahead.on = false;
	if (ahead.st == PAIRGEN_FOUND || ahead.st == PAIRGEN_DISAGREE)
		pairgen_free(&ahead.pair);
}

void mpi_pairs_end(void)
{
	cancel();
}

static void words_in(BlockWord *w, const uint64_t *at, size_t n)
{
	w->n = n;
	w->letter = xmalloc(n + 1);
	w->len = xmalloc((n + 1) * sizeof *w->len);
	for (size_t i = 0; i < n; i++) {
		w->letter[i] = (uint8_t)at[2 * i];
		w->len[i] = at[2 * i + 1];
	}
}

static void words_out(const BlockWord *w, uint64_t *at)
{
	for (size_t i = 0; i < w->n; i++) {
		at[2 * i] = w->letter[i];
		at[2 * i + 1] = w->len[i];
	}
}

/* Rank `from`'s status, pair and limit to every rank (the words only
 * when the status holds them: found, or the checks' disagreement). */
static void hand_out(int from, PairgenStatus *st, Limits *lim, PairCert *out)
{
	bool mine = mpi_job_rank() == from;
	bool words = *st == PAIRGEN_FOUND || *st == PAIRGEN_DISAGREE;
	uint64_t h[8] = {0};
	if (mine) {
		h[0] = (uint64_t)*st;
		h[1] = out->depth;
		h[2] = out->tries;
		memcpy(&h[3], &out->seconds, sizeof out->seconds);
		h[4] = (uint64_t)lim->hit;
		h[5] = lim->memory;
		h[6] = words ? out->u.n : 0;
		h[7] = words ? out->v.n : 0;
	}
	mpi_job_bcast(h, 8, from);
	if (!mine) {
		*st = (PairgenStatus)h[0];
		memset(out, 0, sizeof *out);
		out->depth = (unsigned)h[1];
		out->tries = (unsigned)h[2];
		memcpy(&out->seconds, &h[3], sizeof out->seconds);
		if (h[4] != LIMIT_NONE && lim->hit == LIMIT_NONE) {
			lim->hit = (LimitKind)h[4];
			lim->memory = h[5];
		}
	}
	size_t n = h[6] + h[7];
	if (!n)
		return;
	uint64_t *body = xmalloc(2 * n * sizeof *body);
	if (mine) {
		words_out(&out->u, body);
		words_out(&out->v, body + 2 * h[6]);
	}
	mpi_job_bcast(body, 2 * n, from);
	if (!mine) {
		words_in(&out->u, body, h[6]);
		words_in(&out->v, body + 2 * h[6], h[7]);
	}
	free(body);
}

PairgenStatus mpi_pairs_run(PairgenFn *gen, unsigned k, unsigned d,
			    IndistBounds b, uint64_t seed, unsigned tries,
			    PairgenMember member_fn, void *ctx, Limits *lim,
			    PairCert *out)
{
	/* the last rank: rank 0 verifies each row alone */
	int from = mpi_job_size() - 1;
	bool mine = mpi_job_rank() == from;
	Row r = {gen, k, d, tries, b, seed};
	PairgenStatus st = PAIRGEN_NONE;
	memset(out, 0, sizeof *out);
	if (mine && ahead.on && same_row(&ahead.row, &r)) {
		st = take(lim, out);
	} else if (mine) {
		cancel();
		st = gen(k, d, b, seed, tries, member_fn, ctx, lim, out);
	}
	hand_out(from, &st, lim, out);
	/* the next row's pair, while this row is searched and verified */
	bool family = gen == pairgen_lk || gen == pairgen_predict;
	if (mine && family && lim->hit == LIMIT_NONE &&
	    st != PAIRGEN_DISAGREE) {
		Row next = r;
		next.k = k + 1;
		next.d = hierarchy_theory(gen == pairgen_predict, k + 1) - 1;
		start(&next, lim);
	}
	return st;
}
