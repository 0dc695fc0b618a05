/* enum.c -- bottom-up enumeration by (depth, size) up to signatures. */
#include <config.h>

#include "enum.h"

#include <stdlib.h>
#include <string.h>

#include "bank.h"
#include "limit.h"
#include "mem.h"
#include "sig.h"
#include "vec.h"

typedef struct {
	Node node;
	uint32_t depth, size;
} Block;

typedef enum { R_LETTER, R_TRUE, R_MOD, R_NOT, R_AND, R_OR, R_PREV, R_CMP1, R_CMP2 } RecipeKind;

/* A candidate before its node exists (built only when it is kept). */
typedef struct {
	RecipeKind kind;
	uint32_t a, b; /* operand blocks (R_LETTER: letter, R_MOD: m, r) */
	int a1, a2, c;
	bool f1, f2;   /* R_CMP1, R_CMP2: the count is a future one #> */
} Recipe;

typedef VEC(uint32_t) Bucket;

typedef struct {
	const EnumOptions *o;
	const Sample *S;
	Store *st;
	size_t nw;
	SigSet *seen;         /* emitted signatures */
	VEC(uint32_t) minsize; /* per seen signature: the smallest kept size */
	VEC(Block) blocks;
	Word64 *arena;        /* block signatures */
	size_t acap;
	int32_t **cnt;        /* per block and direction, lazily: #[block]
			       * (or #>[block]) at every node: [2 i + fut] */
	size_t cntcap;
	Bucket *bucket;       /* [d * (max_size + 1) + s] */
	EnumEmit emit;
	void *ctx;
	EnumLayer *layers;
	EnumLayer *cur;
	EnumStop stop;
	Word64 *tmp;
} En;

static const Word64 *bsig(const En *e, uint32_t i) { return e->arena + (size_t)i * e->nw; }

static Bucket *bucket(En *e, unsigned d, unsigned s)
{
	return &e->bucket[d * (e->o->max_size + 1) + s];
}

static Node count_node(Store *st, Node psi, bool fut)
{
	return fut ? store_make_fcount(st, psi) : store_make_count(st, psi);
}

static Node scaled_count(Store *st, int a, Node psi, bool fut)
{
	fmpz_t c;
	fmpz_init_set_si(c, a);
	Node t = store_make_scale(st, c, count_node(st, psi, fut));
	fmpz_clear(c);
	return t;
}

static Node build(En *e, const Recipe *r)
{
	Store *st = e->st;
	const Block *B = e->blocks.data;
	switch (r->kind) {
	case R_LETTER: return store_make_letter(st, e->S->letters[r->a]);
	case R_TRUE: return store_make_true(st);
	case R_MOD: return store_make_mod(st, r->a, r->b);
	case R_NOT: return store_make_not(st, B[r->a].node);
	case R_AND: return store_make_and2(st, B[r->a].node, B[r->b].node);
	case R_OR: return store_make_or2(st, B[r->a].node, B[r->b].node);
	case R_PREV: return store_make_prev(st, B[r->a].node);
	case R_CMP1:
		return store_make_cmp(st, REL_GE, count_node(st, B[r->a].node, r->f1),
				      store_make_const_si(st, r->c));
	case R_CMP2:
		return store_make_cmp(st, REL_GE,
				      store_make_add2(st, scaled_count(st, r->a1, B[r->a].node, r->f1),
						      scaled_count(st, r->a2, B[r->b].node, r->f2)),
				      store_make_const_si(st, r->c));
	}
	return NODE_NONE;
}

static void keep(En *e, const Word64 *sig, unsigned d, unsigned s, const Recipe *r)
{
	if (e->blocks.len == e->acap) {
		e->acap = e->acap ? 2 * e->acap : 1024;
		e->arena = xrealloc(e->arena, e->acap * e->nw * sizeof(Word64));
	}
	memcpy(e->arena + e->blocks.len * e->nw, sig, e->nw * sizeof(Word64));
	Block b = {build(e, r), d, s};
	uint32_t i = (uint32_t)e->blocks.len;
	VEC_PUSH(e->blocks, b);
	VEC_PUSH(*bucket(e, d, s), i);
	e->cur->kept++;
}

/* One candidate: emitted when its signature is new, kept as a block when
 * it is smaller than every kept formula with its signature. */
static void consider(En *e, const Word64 *sig, unsigned d, unsigned s, const Recipe *r)
{
	if (e->stop != ENUM_DONE)
		return;
	if (limit_poll(e->o->limits)) {
		e->stop = e->o->limits->hit == LIMIT_TIME ? ENUM_TIME : ENUM_MEMORY;
		return;
	}
	e->cur->generated++;
	bool fresh;
	size_t k = sigset_insert(e->seen, sig, &fresh);
	if (fresh) {
		VEC_PUSH(e->minsize, s);
		keep(e, sig, d, s, r);
		e->cur->emitted++;
		Node n = e->blocks.data[e->blocks.len - 1].node;
		if (!e->emit(e->ctx, n, d, s, sig))
			e->stop = ENUM_STOPPED;
		return;
	}
	if (e->minsize.data[k] > s) {
		e->minsize.data[k] = s;
		keep(e, sig, d, s, r);
		return;
	}
	e->cur->merged++;
}

static const int32_t *counts(En *e, uint32_t i, bool fut)
{
	size_t k = 2 * (size_t)i + fut;
	if (k >= e->cntcap) {
		size_t cap = e->cntcap ? e->cntcap : 256;
		while (cap <= k)
			cap *= 2;
		e->cnt = xrealloc(e->cnt, cap * sizeof *e->cnt);
		memset(e->cnt + e->cntcap, 0, (cap - e->cntcap) * sizeof *e->cnt);
		e->cntcap = cap;
	}
	if (!e->cnt[k]) {
		e->cnt[k] = xmalloc(e->S->nbits * sizeof(int32_t));
		if (fut)
			sample_fcounts(e->S, bsig(e, i), e->cnt[k]);
		else
			sample_counts(e->S, bsig(e, i), e->cnt[k]);
	}
	return e->cnt[k];
}

/* ---- the generators of one layer ------------------------------------------ */

static void leaves(En *e)
{
	const Sample *S = e->S;
	for (size_t x = 0; x < S->nletters; x++) {
		Recipe r = {R_LETTER, (uint32_t)x, 0, 0, 0, 0, 0, 0};
		consider(e, S->letter + x * e->nw, 0, 1, &r);
	}
	Recipe t = {R_TRUE, 0, 0, 0, 0, 0, 0, 0};
	consider(e, S->valid, 0, 1, &t);
	for (unsigned m = 2; m <= e->o->max_mod; m++)
		for (unsigned r = 0; r < m; r++) {
			sample_mod(S, m, r, e->tmp);
			Recipe rc = {R_MOD, m, r, 0, 0, 0, 0, 0};
			consider(e, e->tmp, 0, 1, &rc);
		}
}

static void atoms1(En *e, unsigned d, unsigned s)
{
	if (s < 3)
		return;
	Bucket *b = bucket(e, d - 1, s - 2);
	Word64 *planes = xmalloc(e->o->max_const * e->nw * sizeof(Word64));
	for (int fut = 0; fut <= (int)e->o->future; fut++)
		for (size_t k = 0; k < b->len && e->stop == ENUM_DONE; k++) {
			if (fut)
				sample_fthresholds(e->S, bsig(e, b->data[k]),
						   e->o->max_const, planes);
			else
				sample_thresholds(e->S, bsig(e, b->data[k]),
						  e->o->max_const, planes);
			for (unsigned c = 1; c <= e->o->max_const; c++) {
				Recipe r = {R_CMP1, b->data[k], 0, 0, 0, (int)c, fut, 0};
				consider(e, planes + (c - 1) * e->nw, d, s, &r);
			}
		}
	free(planes);
}

/* a1 #[i] + a2 #[j] >= c for blocks i <= j of sizes s1 + s2 = s - 3,
 * the deeper of depth d - 1. */
static void atoms2_pair(En *e, unsigned d, unsigned s, uint32_t i, uint32_t j,
			bool fi, bool fj)
{
	const int32_t *ci = counts(e, i, fi), *cj = counts(e, j, fj);
	int M = (int)e->o->max_coeff, K = (int)e->o->max_const;
	const Sample *S = e->S;
	for (int ac = 0; ac <= K; ac++)
		for (int sg = 1; sg >= -1; sg -= 2) {
			if (ac == 0 && sg < 0)
				continue;
			int c = sg * ac;
			for (int a1 = -M; a1 <= M; a1++)
				for (int a2 = -M; a2 <= M; a2++) {
					if (a1 == 0 || a2 == 0)
						continue;
					memset(e->tmp, 0, e->nw * sizeof(Word64));
					for (size_t n = 0; n < S->nbits; n++)
						if (sig_bit(S->valid, n) &&
						    (int64_t)a1 * ci[n] + (int64_t)a2 * cj[n] >= c)
							sig_set(e->tmp, n);
					Recipe r = {R_CMP2, i, j, a1, a2, c, fi, fj};
					consider(e, e->tmp, d, s, &r);
				}
		}
}

static void atoms2(En *e, unsigned d, unsigned s)
{
	if (s < 5)
		return;
	for (unsigned s1 = 1; 2 * s1 <= s - 3; s1++) {
		unsigned s2 = s - 3 - s1;
		for (unsigned d1 = 0; d1 < d; d1++)
			for (unsigned d2 = 0; d2 < d; d2++) {
				if (d1 != d - 1 && d2 != d - 1)
					continue;
				Bucket *b1 = bucket(e, d1, s1), *b2 = bucket(e, d2, s2);
				for (size_t x = 0; x < b1->len; x++)
					for (size_t y = 0; y < b2->len && e->stop == ENUM_DONE; y++) {
						uint32_t i = b1->data[x], j = b2->data[y];
						/* unordered pairs once: i <= j when the
						 * two lists can hold the same blocks */
						if (s1 == s2 && i > j)
							continue;
						for (int dir = 0; dir < (e->o->future ? 4 : 1); dir++) {
							/* i == j: one of the two mixed directions */
							if (i == j && dir == 2)
								continue;
							atoms2_pair(e, d, s, i, j, dir & 1, dir >> 1);
						}
					}
			}
	}
}

static void unary(En *e, unsigned d, unsigned s, RecipeKind kind)
{
	if (s < 2)
		return;
	Bucket *b = bucket(e, d, s - 1);
	size_t n = b->len; /* blocks kept by this loop belong to size s */
	for (size_t k = 0; k < n && e->stop == ENUM_DONE; k++) {
		uint32_t i = b->data[k];
		if (kind == R_NOT)
			sig_not(e->tmp, bsig(e, i), e->S->valid, e->nw);
		else
			sample_prev(e->S, bsig(e, i), e->tmp);
		Recipe r = {kind, i, 0, 0, 0, 0, 0, 0};
		consider(e, e->tmp, d, s, &r);
	}
}

static void binary(En *e, unsigned d, unsigned s)
{
	if (s < 3)
		return;
	for (unsigned s1 = 1; s1 <= (s - 1) / 2; s1++) {
		unsigned s2 = s - 1 - s1;
		for (unsigned d1 = 0; d1 <= d; d1++)
			for (unsigned d2 = 0; d2 <= d; d2++) {
				if (d1 != d && d2 != d)
					continue;
				if (s1 == s2 && d1 > d2)
					continue; /* the pair of lists once */
				Bucket *b1 = bucket(e, d1, s1), *b2 = bucket(e, d2, s2);
				size_t n1 = b1->len, n2 = b2->len;
				for (size_t x = 0; x < n1; x++)
					for (size_t y = 0; y < n2 && e->stop == ENUM_DONE; y++) {
						uint32_t i = b1->data[x], j = b2->data[y];
						if (s1 == s2 && d1 == d2 && i >= j)
							continue;
						for (int op = 0; op < 2; op++) {
							if (op == 0)
								sig_and(e->tmp, bsig(e, i), bsig(e, j), e->nw);
							else
								sig_or(e->tmp, bsig(e, i), bsig(e, j), e->nw);
							Recipe r = {op ? R_OR : R_AND, i, j, 0, 0, 0, 0, 0};
							consider(e, e->tmp, d, s, &r);
						}
					}
			}
	}
}

EnumStop enum_run(const EnumOptions *o, const Sample *S, Store *st,
		  EnumEmit emit, void *ctx, EnumLayer *layers)
{
	En e = {.o = o, .S = S, .st = st, .nw = S->nwords, .emit = emit, .ctx = ctx,
		.layers = layers};
	e.seen = sigset_new(S->nwords);
	e.tmp = xmalloc(S->nwords * sizeof(Word64));
	size_t nb = (size_t)(o->max_depth + 1) * (o->max_size + 1);
	e.bucket = xcalloc(nb, sizeof *e.bucket);
	memset(layers, 0, nb * sizeof *layers);
	for (unsigned d = 0; d <= o->max_depth && e.stop == ENUM_DONE; d++)
		for (unsigned s = 1; s <= o->max_size && e.stop == ENUM_DONE; s++) {
			e.cur = &layers[d * (o->max_size + 1) + s];
			if (d == 0 && s == 1)
				leaves(&e);
			if (d >= 1) {
				atoms1(&e, d, s);
				atoms2(&e, d, s);
			}
			unary(&e, d, s, R_NOT);
			binary(&e, d, s);
			if (o->prev)
				unary(&e, d, s, R_PREV);
		}
	for (size_t i = 0; i < e.cntcap; i++)
		free(e.cnt[i]);
	free(e.cnt);
	for (size_t i = 0; i < nb; i++)
		VEC_FREE(e.bucket[i]);
	free(e.bucket);
	free(e.arena);
	VEC_FREE(e.blocks);
	VEC_FREE(e.minsize);
	sigset_free(e.seen);
	free(e.tmp);
	return e.stop;
}
