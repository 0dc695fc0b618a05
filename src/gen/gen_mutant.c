/* gen_mutant.c -- hard non-members made from members (see
 * gen_mutant.h). */
#include <config.h>

#include "gen/gen_mutant.h"

#include <string.h>

#include "base/mem.h"
#include "base/parallel.h"
#include "base/share.h"
#include "gen/gen_unrank.h"

/* Tries of one kind for one non-member, and the tries after which a
 * kind that never worked at this length is given up. */
enum { MUTANT_TRIES = 16, MUTANT_GIVE_UP = 64 };
/* Tries of a mutant planned together (at most GEN_REWALK_MAX). */
enum { MUTANT_AHEAD = 8 };

static uint64_t step_inverse(void);

void gen_mutant_init(GenDraw *d, size_t maxlen)
{
	d->ahead = xmalloc((maxlen + 1) * MUTANT_AHEAD * sizeof *d->ahead);
	d->step_inverse = step_inverse();
}

/* Exchanges two different letters before the last position. */
static bool swap_letters(GenRng *r, size_t n, GenMutant *m)
{
	const uint32_t *w = m->base;
	if (n < 3)
		return false;
	for (int t = 0; t < 8; t++) {
		size_t i = gen_rng_below(r, n - 1);
		size_t j = gen_rng_below(r, n - 1);
		if (w[i] != w[j]) {
			m->at[0] = i < j ? i : j;
			m->at[1] = i < j ? j : i;
			m->letter[0] = w[m->at[1]];
			m->letter[1] = w[m->at[0]];
			return true;
		}
	}
	return false;
}

/* Changes the letter at a position below `below` to another one. */
static bool change_letter(const GenDraw *d, GenRng *r, size_t below,
			  GenMutant *m)
{
	if (below == 0 || d->nl < 2)
		return false;
	size_t i = gen_rng_below(r, below);
	uint32_t c = (uint32_t)gen_rng_below(r, d->nl - 1);
	m->at[0] = m->at[1] = i;
	m->letter[0] = m->letter[1] = c >= m->base[i] ? c + 1 : c;
	return true;
}

static bool mutate(const GenDraw *d, GenRng *r, GenKind kind, size_t n,
		   GenMutant *m)
{
	switch (kind) {
	case GEN_KIND_SWAP: return swap_letters(r, n, m);
	case GEN_KIND_CHANGE: return n >= 2 && change_letter(d, r, n - 1, m);
	default: return change_letter(d, r, n, m);
	}
}

/* A member to mutate (m->base, m->path): one of those drawn for this
 * chunk (uniform already, and free; with its states when the batch has
 * them), else a new one drawn into w (with d's own generator r only). */
static bool seed_member(GenDraw *d, GenRng *r, uint32_t *w, size_t n,
			GenMutant *m)
{
	const GenBatch *b = &d->batch[1];
	m->path = NULL;
	m->base = w;
	if (!b->count)
		return gen_draw_uniform(d, 1, w, n);
	size_t i = gen_rng_below(r, b->count);
	m->base = gen_batch_word(b, i);
	if (b->path)
		m->path = b->path + i * (b->n + 1);
	return true;
}

/* The mutant's letters into w. */
static void spell(const GenMutant *m, uint32_t *w, size_t n)
{
	if (w != m->base)
		memcpy(w, m->base, n * sizeof *w);
	w[m->at[0]] = m->letter[0];
	w[m->at[1]] = m->letter[1];
}

/* gen_draw_class + 1 from a state's class bits. */
static unsigned class_plus_one(unsigned c)
{
	return !(c & GEN_DOMAIN) ? 0 : (c & GEN_IN) ? 2 : 1;
}

/* ---- mutants tried ahead on the threads ------------------------------- *
 *
 * A try of kind "change" or "any" draws three numbers (the member, the
 * position, the letter) whatever the outcome of the tries before it, so
 * the k-th try after the generator's state s0 starts at s0 advanced by
 * 3k draws: the threads try a window of them at once, and the mutant
 * loop, which takes the tries in order, finds its next try there by the
 * generator's state (a try that drew more numbers, or of another kind,
 * is not found and is made in turn as before).  The random numbers and
 * the outcomes are those of the tries made one by one. */

typedef struct Ahead {
	uint64_t start, end; /* the generator's states */
	GenMutant m;         /* base NULL: no mutant */
	unsigned cls;        /* gen_draw_class + 1 */
} Ahead;

/* The generator's step and its inverse modulo 2^64 (splitmix.h). */
#define STEP 0x9e3779b97f4a7c15u

static uint64_t step_inverse(void)
{
	uint64_t x = STEP; /* Newton: each round doubles the bits right */
	for (int i = 0; i < 6; i++)
		x *= 2 - STEP * x;
	return x;
}

typedef struct {
	GenDraw *d;
	size_t n, k, ntask;
} AheadJob;

/* Tries lo..hi of the window, walked MUTANT_AHEAD at a time. */
static void ahead_task(void *ctx, unsigned worker, size_t t)
{
	const AheadJob *J = ctx;
	GenDraw *d = J->d;
	size_t lo = J->k * t / J->ntask, hi = J->k * (t + 1) / J->ntask;
	for (size_t i = lo; i < hi; i += MUTANT_AHEAD) {
		size_t m = hi - i < MUTANT_AHEAD ? hi - i : MUTANT_AHEAD;
		GenMutant walk[MUTANT_AHEAD];
		unsigned cls[MUTANT_AHEAD];
		for (size_t j = 0; j < m; j++) {
			Ahead *a = &d->tried[i + j];
			GenRng r = {a->start = d->tried_s0 + 3 * STEP * (i + j)};
			/* the batch has members: seed_member draws no word */
			if (!seed_member(d, &r, NULL, J->n, &a->m) ||
			    !mutate(d, &r, d->tried_kind, J->n, &a->m))
				a->m.base = NULL;
			a->end = r.state;
			walk[j] = a->m;
			cls[j] = 0;
		}
		gen_states_rewalk(d->gs, J->n, m, walk, cls);
		for (size_t j = 0; j < m; j++)
			d->tried[i + j].cls = walk[j].base
				? class_plus_one(cls[j]) : 0;
	}
	(void)worker;
}

/* Tries ahead are worth it: threads, a graph in this process, members
 * to mutate, and a first kind that draws three numbers. */
static bool ahead_kind(const GenDraw *d, GenKind *kind)
{
	const GenMutants *st = &d->mutants;
	if (d->jobs <= 1 || !d->gs || share_job || !d->batch[1].count ||
	    !(st->tries[GEN_KIND_SWAP] >= MUTANT_GIVE_UP &&
	      !st->wins[GEN_KIND_SWAP]))
		return false;
	*kind = st->tries[GEN_KIND_CHANGE] >= MUTANT_GIVE_UP &&
			!st->wins[GEN_KIND_CHANGE]
		? GEN_KIND_ANY : GEN_KIND_CHANGE;
	return true;
}

/* A new window of tries from the generator's state, enough for the
 * mutants left by the tries each has taken so far. */
static void try_ahead(GenDraw *d, GenKind kind)
{
	const GenMutants *st = &d->mutants;
	uint64_t tries = 0, wins = 0;
	for (int k = 0; k < GEN_KINDS; k++) {
		tries += st->tries[k];
		wins += st->wins[k];
	}
	uint64_t each = wins ? tries / wins + 1 : 12;
	uint64_t k = d->mutants_left * each + each;
	if (k > 1 << 17)
		k = 1 << 17;
	if (k < 64)
		k = 64;
	mem_grow((void **)&d->tried, &d->tried_cap, k, sizeof *d->tried);
	d->tried_s0 = d->rng->state;
	d->tried_n = k;
	d->tried_kind = kind;
	AheadJob J = {d, d->n, k, (size_t)d->jobs * 4};
	parallel_each(d->jobs, J.ntask, ahead_task, &J);
}

/* The try of the window that starts at the generator's state, or
 * NULL. */
static const Ahead *ahead_at(const GenDraw *d, GenKind kind)
{
	if (!d->tried_n || kind != d->tried_kind)
		return NULL;
	uint64_t steps = (d->rng->state - d->tried_s0) * d->step_inverse;
	if (steps % 3 || steps / 3 >= d->tried_n)
		return NULL;
	const Ahead *a = &d->tried[steps / 3];
	return a->start == d->rng->state ? a : NULL;
}

static bool ahead_covers(const GenDraw *d, GenKind kind)
{
	return ahead_at(d, kind) != NULL;
}

/* The try that starts at the generator's state, when it was made ahead:
 * its mutant and class into m and *cls, the generator moved past it. */
static bool ahead_try(GenDraw *d, GenKind kind, GenMutant *m, unsigned *cls)
{
	const Ahead *a = ahead_at(d, kind);
	if (!a)
		return false;
	*m = a->m;
	*cls = a->cls;
	d->rng->state = a->end;
	return true;
}

/* Tries planned ahead: the random numbers of each drawn in turn as if
 * it were the only one (none depends on an earlier try's outcome within
 * one kind), the generator's state after each kept so that the ones
 * after the first success are given back. */
typedef struct {
	size_t k; /* tries planned */
	GenMutant m[MUTANT_AHEAD]; /* base NULL: no member, or none changed */
	uint64_t after[MUTANT_AHEAD];
	unsigned cls[MUTANT_AHEAD];
	bool known[MUTANT_AHEAD]; /* tried ahead on the threads */
} Plan;

/* Plans up to k tries of one kind (fewer when a limit stops them); the
 * class of each, plus one (0 outside the domain, 1 non-member). */
static void plan_tries(GenDraw *d, GenKind kind, size_t n, size_t k,
		       Plan *p)
{
	for (p->k = 0; p->k < k; p->k++) {
		if (gen_states_poll(d->gs, d->limits))
			break;
		size_t i = p->k;
		GenMutant *m = &p->m[i];
		p->cls[i] = 0;
		p->known[i] = ahead_try(d, kind, m, &p->cls[i]);
		if (!p->known[i] && (!seed_member(d, d->rng, d->ahead + i * n,
						 n, m) ||
				     !mutate(d, d->rng, kind, n, m)))
			m->base = NULL;
		p->after[i] = d->rng->state;
	}
	if (!d->gs) { /* no graph: the evaluator, one by one */
		for (size_t i = 0; i < p->k; i++)
			if (p->m[i].base) {
				spell(&p->m[i], d->tmp, n);
				p->cls[i] = (unsigned)(gen_draw_class(
					d, d->tmp, n) + 1);
			}
		return;
	}
	GenMutant walk[MUTANT_AHEAD];
	for (size_t i = 0; i < p->k; i++) {
		walk[i] = p->m[i];
		if (p->known[i])
			walk[i].base = NULL;
	}
	gen_states_rewalk(d->gs, n, p->k, walk, p->cls);
	for (size_t i = 0; i < p->k; i++)
		if (!p->known[i])
			p->cls[i] = class_plus_one(p->cls[i]);
}

/* The tries are planned a few at a time and their classes walked
 * together; they are then taken in order as if made one by one. */
bool gen_mutant(GenDraw *d, size_t n)
{
	GenMutants *st = &d->mutants;
	static const GenKind order[] = {GEN_KIND_SWAP, GEN_KIND_CHANGE,
					GEN_KIND_ANY};
	GenBatch *neg = &d->batch[0];
	Plan p;
	GenKind first;
	if (ahead_kind(d, &first) && !ahead_covers(d, first))
		try_ahead(d, first);
	for (size_t k = 0; k < 3; k++) {
		GenKind kind = order[k];
		if (st->tries[kind] >= MUTANT_GIVE_UP && !st->wins[kind])
			continue;
		for (size_t t = 0; t < MUTANT_TRIES;) {
			size_t want = MUTANT_TRIES - t < MUTANT_AHEAD
				? MUTANT_TRIES - t : MUTANT_AHEAD;
			plan_tries(d, kind, n, want, &p);
			for (size_t i = 0; i < p.k; i++, t++) {
				st->tries[kind]++;
				/* a non-member in the domain: class 0 */
				if (!p.m[i].base || p.cls[i] != 1)
					continue;
				spell(&p.m[i], d->tmp, n);
				if (!gen_draw_add(d, neg, d->tmp, NULL, kind))
					continue;
				st->wins[kind]++;
				d->rng->state = p.after[i];
				return true;
			}
			if (p.k < want) {
				d->stopped = true;
				return false;
			}
		}
	}
	return false;
}
