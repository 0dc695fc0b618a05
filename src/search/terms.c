/* terms.c -- count-valued terms by depth and size (terms.h). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "base/limit.h"
#include "base/mem.h"
#include "base/vec.h"
#include "search/terms.h"

typedef struct {
	Node f;
	unsigned depth, size;
	int32_t *cnt; /* #[f] at every bit */
} Body;

/* A branch of a guard, or a one-count term: a #[body] + c (body < 0: the
 * constant c alone). */
typedef struct {
	long body, a, c;
	unsigned depth, size;
} Simple;

typedef struct {
	const TermOptions *o;
	const Sample *S;
	Store *st;
	TermEmit emit;
	void *ctx;
	VEC(Body) bodies;
	VEC(Simple) simple; /* every a #[psi] + c and c, any depth */
	SigSet *seen;
	int64_t *vals;
	bool stop;
} Terms;

static bool collect_body(void *ctx, Node f, unsigned depth, unsigned size,
			 const Word64 *sig)
{
	Terms *t = ctx;
	Body b = {.f = f, .depth = depth, .size = size,
		  .cnt = xmalloc(t->S->nbits * sizeof(int32_t))};
	sample_counts(t->S, sig, b.cnt);
	VEC_PUSH(t->bodies, b);
	return true;
}

static unsigned count_size(const Terms *t, long body, long a)
{
	return 1 + t->bodies.data[body].size + (a != 1);
}

static unsigned simple_size(const Terms *t, const Simple *s)
{
	if (s->body < 0)
		return 1;
	return count_size(t, s->body, s->a) + (s->c != 0 ? 2 : 0);
}

static int64_t simple_at(const Terms *t, const Simple *s, size_t bit)
{
	return s->body < 0 ? s->c
			   : s->a * (int64_t)t->bodies.data[s->body].cnt[bit] + s->c;
}

static Node simple_node(Terms *t, const Simple *s)
{
	Node c = store_make_const_si(t->st, s->c);
	if (s->body < 0)
		return c;
	Node n = store_make_count(t->st, t->bodies.data[s->body].f);
	if (s->a != 1) {
		fmpz_t a;
		fmpz_init_set_si(a, s->a);
		n = store_make_scale(t->st, a, n);
		fmpz_clear(a);
	}
	return s->c ? store_make_add2(t->st, n, c) : n;
}

/* vals holds a candidate: emit it unless its values were seen. */
static void offer(Terms *t, Node (*build)(Terms *, const void *),
		  const void *what, unsigned depth, unsigned size)
{
	const Sample *S = t->S;
	for (size_t b = 0; b < S->nbits; b++)
		if (!sig_bit(S->valid, b))
			t->vals[b] = 0;
	if (t->o->dedupe) {
		bool fresh;
		sigset_insert(t->seen, (const Word64 *)t->vals, &fresh);
		if (!fresh)
			return;
	}
	if (!t->emit(t->ctx, build(t, what), depth, size, t->vals))
		t->stop = true;
}

static Node build_simple(Terms *t, const void *what)
{
	return simple_node(t, what);
}

typedef struct {
	const Simple *u;
	const Simple *v;
	long b1, a1, b2, a2, c;
	Sym x;
} Compound;

static Node build_pair(Terms *t, const void *what)
{
	const Compound *p = what;
	Simple s1 = {.body = p->b1, .a = p->a1}, s2 = {.body = p->b2, .a = p->a2,
						       .c = p->c};
	return store_make_add2(t->st, simple_node(t, &s1), simple_node(t, &s2));
}

static Node build_guard(Terms *t, const void *what)
{
	const Compound *p = what;
	return store_make_ite(t->st, store_make_letter(t->st, p->x),
			      simple_node(t, p->u), simple_node(t, p->v));
}

/* The one-count terms and constants of depth d and size s. */
static void layer_simple(Terms *t, unsigned d, unsigned s)
{
	for (size_t i = 0; i < t->simple.len && !t->stop; i++) {
		const Simple *m = &t->simple.data[i];
		if (m->depth != d || m->size != s)
			continue;
		for (size_t b = 0; b < t->S->nbits; b++)
			t->vals[b] = simple_at(t, m, b);
		offer(t, build_simple, m, d, s);
	}
}

/* a1 #[psi1] + a2 #[psi2] + c of depth d and size s. */
static void layer_pairs(Terms *t, unsigned d, unsigned s)
{
	long M = (long)t->o->max_coeff, C = (long)t->o->max_const;
	size_t nb = t->bodies.len;
	for (size_t i = 0; i < nb && !t->stop; i++)
		for (size_t j = i + 1; j < nb && !t->stop; j++) {
			const Body *p = &t->bodies.data[i], *q = &t->bodies.data[j];
			unsigned depth = 1 + (p->depth > q->depth ? p->depth : q->depth);
			if (depth != d)
				continue;
			for (long a1 = -M; a1 <= M && !t->stop; a1++)
				for (long a2 = -M; a2 <= M && !t->stop; a2++)
					for (long c = -C; c <= C && !t->stop; c++) {
						if (!a1 || !a2)
							continue;
						unsigned size = count_size(t, (long)i, a1) +
								count_size(t, (long)j, a2) + 1 +
								(c ? 2 : 0);
						if (size != s)
							continue;
						for (size_t b = 0; b < t->S->nbits; b++)
							t->vals[b] = a1 * (int64_t)p->cnt[b] +
								     a2 * (int64_t)q->cnt[b] + c;
						Compound k = {.b1 = (long)i, .a1 = a1, .b2 = (long)j,
							      .a2 = a2, .c = c};
						offer(t, build_pair, &k, d, s);
					}
		}
}

/* (Q_x ? u : v) of depth d and size s. */
static void layer_guards(Terms *t, unsigned d, unsigned s)
{
	const Sample *S = t->S;
	for (size_t i = 0; i < t->simple.len && !t->stop; i++) {
		const Simple *u = &t->simple.data[i];
		if (u->depth > d || u->size + 3 > s)
			continue;
		for (size_t j = 0; j < t->simple.len && !t->stop; j++) {
			const Simple *v = &t->simple.data[j];
			if (v->depth > d || (u->depth != d && v->depth != d) ||
			    2 + u->size + v->size != s || i == j)
				continue;
			for (size_t x = 0; x < S->nletters && !t->stop; x++) {
				for (size_t b = 0; b < S->nbits; b++)
					t->vals[b] = sig_bit(S->letter + x * S->nwords, b)
							     ? simple_at(t, u, b)
							     : simple_at(t, v, b);
				Compound k = {.u = u, .v = v, .x = S->letters[x]};
				offer(t, build_guard, &k, d, s);
			}
		}
	}
}

static void make_simple(Terms *t)
{
	long M = (long)t->o->max_coeff, C = (long)t->o->max_const;
	for (long c = -C; c <= C; c++) {
		Simple s = {.body = -1, .c = c, .size = 1};
		VEC_PUSH(t->simple, s);
	}
	for (size_t i = 0; i < t->bodies.len; i++)
		for (long a = -M; a <= M; a++)
			for (long c = -C; c <= C; c++) {
				if (!a)
					continue;
				Simple s = {.body = (long)i, .a = a, .c = c,
					    .depth = t->bodies.data[i].depth + 1};
				s.size = simple_size(t, &s);
				VEC_PUSH(t->simple, s);
			}
}

EnumStop terms_run(const TermOptions *o, const Sample *S, Store *st,
		   TermEmit emit, void *ctx)
{
	Terms t = {.o = o, .S = S, .st = st, .emit = emit, .ctx = ctx};
	EnumStop stop = ENUM_DONE;
	if (o->max_depth > 0) {
		EnumOptions eo = {.max_depth = o->max_depth - 1,
				  .max_size = o->body_size,
				  .max_const = o->max_const ? o->max_const : 1,
				  .max_coeff = o->max_coeff ? o->max_coeff : 1,
				  .limits = o->limits};
		EnumLayer *layers = xcalloc((eo.max_depth + 1) * (eo.max_size + 1),
					    sizeof *layers);
		stop = enum_run(&eo, S, st, collect_body, &t, layers);
		free(layers);
	}
	make_simple(&t);
	t.vals = xcalloc(S->nbits, sizeof *t.vals);
	if (o->dedupe)
		t.seen = sigset_new(S->nbits);
	for (unsigned d = 0; d <= o->max_depth && !t.stop && stop == ENUM_DONE; d++)
		for (unsigned s = 1; s <= o->max_size && !t.stop; s++) {
			layer_simple(&t, d, s);
			layer_pairs(&t, d, s);
			layer_guards(&t, d, s);
			if (o->limits && limit_check(o->limits)) {
				stop = o->limits->hit == LIMIT_TIME ? ENUM_TIME
								    : ENUM_MEMORY;
				break;
			}
		}
	if (stop == ENUM_DONE && t.stop)
		stop = ENUM_STOPPED;
	for (size_t i = 0; i < t.bodies.len; i++)
		free(t.bodies.data[i].cnt);
	VEC_FREE(t.bodies);
	VEC_FREE(t.simple);
	if (t.seen)
		sigset_free(t.seen);
	free(t.vals);
	return stop;
}
