/* enum.c -- bottom-up enumeration by (depth, size) up to signatures. */
#include <config.h>

#include "search/enum.h"

#include <stdlib.h>
#include <string.h>

#include "search/bank.h"
#include "base/limit.h"
#include "base/mem.h"
#include "base/share.h"
#include "search/sig.h"
#include "base/vec.h"

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

/* A candidate's place in its layer's order: the unit of work (a row of
 * a generator's loops, counted alike on every rank) and its place in
 * the unit. */
typedef struct {
	uint64_t unit, idx;
} Key;

typedef VEC(unsigned char) Bytes;

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
	/* Shared over processes (share.h; NULL: one process): units are
	 * dealt round the ranks, candidates queued for the owner of their
	 * signature's hash; `seen` and `minsize` hold the owned ones. */
	const Share *sh;
	uint64_t unit, idx; /* units begun; the next place in this one */
	Bytes *out;         /* per rank */
	VEC(Key) last;      /* the keys this rank owned in the last flush */
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

/* ---- an enumeration shared over processes ------------------------------ */

/* A candidate on its way to its owner (the signature follows); on its
 * way back, kept, with `fresh` set when its signature was new. */
typedef struct {
	Key key;
	uint64_t hash;
	Recipe r;
	uint32_t fresh;
} Rec;

/* Units between flushes, per rank, and the pairs of a unit of the
 * binary generators (a row of pairs is cut in pieces): keep the queues
 * small. */
enum { FLUSH_UNITS = 16, ROW_UNIT = 1024 };

static int key_cmp(const Key *p, const Key *q)
{
	if (p->unit != q->unit)
		return p->unit < q->unit ? -1 : 1;
	return p->idx < q->idx ? -1 : p->idx > q->idx;
}

static int cmp_rec_at(const void *x, const void *y)
{
	const Rec *p = *(const Rec *const *)x, *q = *(const Rec *const *)y;
	return key_cmp(&p->key, &q->key);
}

static size_t rec_size(const En *e)
{
	return sizeof(Rec) + e->nw * sizeof(Word64);
}

static void queue(En *e, const Word64 *sig, const Recipe *r)
{
	Rec h;
	memset(&h, 0, sizeof h); /* no padding of garbage on the wire */
	h.key = (Key){e->unit, e->idx++};
	h.hash = sig_hash(sig, e->nw);
	h.r = *r;
	Bytes *q = &e->out[(h.hash >> 32) % (uint64_t)e->sh->size];
	size_t sz = rec_size(e);
	mem_grow((void **)&q->data, &q->cap, q->len + sz, 1);
	memcpy(q->data + q->len, &h, sizeof h);
	memcpy(q->data + q->len + sizeof h, sig, e->nw * sizeof(Word64));
	q->len += sz;
}

/* The received Recs (pointers into in), in the layer's order. */
static const unsigned char **sorted_recs(const unsigned char *in, size_t n,
					 size_t sz)
{
	const unsigned char **at = xmalloc((n + 1) * sizeof *at);
	for (size_t i = 0; i < n; i++)
		at[i] = in + i * sz;
	qsort(at, n, sizeof *at, cmp_rec_at);
	return at;
}

/* The owner's step, tally's `consider` on what it received in the
 * layer's order: returns the count received and the count kept, then
 * the kept Recs with their signatures. */
static unsigned char *own(En *e, unsigned s, const unsigned char *in,
			  size_t len, size_t *outlen)
{
	size_t sz = rec_size(e), n = len / sz, m = 0;
	const unsigned char **at = sorted_recs(in, n, sz);
	uint64_t head[2] = {n, 0};
	unsigned char *kept = xmalloc(sizeof head + n * sz + 1);
	e->last.len = 0;
	for (size_t i = 0; i < n; i++) {
		Rec h;
		memcpy(&h, at[i], sizeof h);
		VEC_PUSH(e->last, h.key);
		const Word64 *sig = (const Word64 *)(at[i] + sizeof h);
		bool fresh;
		size_t k = sigset_insert_hashed(e->seen, sig, h.hash, &fresh);
		if (fresh)
			VEC_PUSH(e->minsize, s);
		else if (e->minsize.data[k] > s)
			e->minsize.data[k] = s;
		else
			continue;
		h.fresh = fresh;
		memcpy(kept + sizeof head + m * sz, &h, sizeof h);
		memcpy(kept + sizeof head + m * sz + sizeof h, sig,
		       e->nw * sizeof(Word64));
		m++;
	}
	head[1] = m;
	memcpy(kept, head, sizeof head);
	free(at);
	*outlen = sizeof head + m * sz;
	return kept;
}

/* Collective, after a stop at key k: the candidates up to it over the
 * ranks (tally counted no further). */
static uint64_t generated_upto(En *e, const Key *k)
{
	uint64_t mine = 0, sum = 0;
	for (size_t i = 0; i < e->last.len; i++)
		mine += key_cmp(&e->last.data[i], k) <= 0;
	size_t total;
	uint64_t *all = e->sh->allgather(&mine, sizeof mine, &total);
	for (size_t r = 0; r < total / sizeof mine; r++)
		sum += all[r];
	free(all);
	return sum;
}

/* Every rank: the kept candidates of all owners (each owner's part: the
 * counts received and kept, the kept Recs), in the layer's order, kept
 * and emitted as one process would. */
static void take(En *e, unsigned d, unsigned s, const unsigned char *all,
		 size_t total)
{
	size_t sz = rec_size(e), nk = 0;
	uint64_t got = 0;
	VEC(const unsigned char *) at = {0};
	for (size_t p = 0; p < total;) {
		uint64_t head[2];
		memcpy(head, all + p, sizeof head);
		got += head[0];
		p += sizeof head;
		for (uint64_t i = 0; i < head[1]; i++, p += sz)
			VEC_PUSH(at, all + p);
	}
	if (at.len)
		qsort(at.data, at.len, sizeof *at.data, cmp_rec_at);
	for (size_t i = 0; i < at.len && e->stop == ENUM_DONE; i++) {
		Rec h;
		memcpy(&h, at.data[i], sizeof h);
		const Word64 *sig = (const Word64 *)(at.data[i] + sizeof h);
		keep(e, sig, d, s, &h.r);
		nk++;
		if (!h.fresh)
			continue;
		e->cur->emitted++;
		Node n = e->blocks.data[e->blocks.len - 1].node;
		if (!e->emit(e->ctx, n, d, s, sig)) {
			e->stop = ENUM_STOPPED;
			got = generated_upto(e, &h.key);
		}
	}
	e->cur->generated += got;
	e->cur->merged += got - nk;
	VEC_FREE(at);
}

/* Collective: the end of a run of units.  The queued candidates go to
 * their owners, who decide; every rank then keeps the kept ones in the
 * layer's order; then the job's limits. */
static void flush(En *e, unsigned d, unsigned s)
{
	if (!e->sh || e->stop != ENUM_DONE)
		return;
	int N = e->sh->size;
	void **send = xmalloc((size_t)N * sizeof *send);
	size_t *lens = xmalloc((size_t)N * sizeof *lens), len, total;
	for (int r = 0; r < N; r++) {
		send[r] = e->out[r].data;
		lens[r] = e->out[r].len;
	}
	unsigned char *in = e->sh->exchange(send, lens, &len);
	for (int r = 0; r < N; r++)
		e->out[r].len = 0;
	free(send);
	free(lens);
	unsigned char *kept = own(e, s, in, len, &len);
	free(in);
	unsigned char *all = e->sh->allgather(kept, len, &total);
	free(kept);
	take(e, d, s, all, total);
	free(all);
	if (e->stop == ENUM_DONE && e->o->limits) {
		e->sh->agree(e->o->limits);
		if (e->o->limits->hit != LIMIT_NONE)
			e->stop = e->o->limits->hit == LIMIT_TIME ? ENUM_TIME
								   : ENUM_MEMORY;
	}
}

/* A unit of work begins (a row of a generator's loops): true when this
 * process does it.  Every rank counts the units alike; every
 * FLUSH_UNITS units per rank the candidates go to their owners. */
static bool unit(En *e, unsigned d, unsigned s)
{
	if (!e->sh)
		return true;
	if (e->unit && e->unit % (FLUSH_UNITS * (uint64_t)e->sh->size) == 0)
		flush(e, d, s);
	if (e->stop != ENUM_DONE)
		return false;
	e->idx = 0;
	return e->unit++ % (uint64_t)e->sh->size == (uint64_t)e->sh->rank;
}

/* Collective, shared: the problem is the same on every rank. */
static void share_begin(En *e)
{
	const EnumOptions *o = e->o;
	int64_t facts[10] = {(int64_t)e->S->nbits, (int64_t)e->nw,
			     (int64_t)e->S->nletters, o->max_depth, o->max_size,
			     o->max_const, o->max_coeff, o->max_mod,
			     o->prev, o->future};
	e->sh->begin(sig_hash((const Word64 *)facts, 10) ^
		     sig_hash(e->S->valid, e->nw));
	e->out = xcalloc((size_t)e->sh->size, sizeof *e->out);
}

static void share_end(En *e)
{
	if (!e->sh)
		return;
	for (int r = 0; r < e->sh->size; r++)
		VEC_FREE(e->out[r]);
	free(e->out);
	VEC_FREE(e->last);
}

/* One candidate: emitted when its signature is new, kept as a block when
 * it is smaller than every kept formula with its signature. */
static void consider(En *e, const Word64 *sig, unsigned d, unsigned s, const Recipe *r)
{
	if (e->stop != ENUM_DONE)
		return;
	if (e->sh) {
		queue(e, sig, r);
		return;
	}
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
	if (!unit(e, 0, 1))
		return;
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
			if (!unit(e, d, s))
				continue;
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
				for (size_t x = 0; x < b1->len; x++) {
					bool mine = false;
					for (size_t y = 0; y < b2->len && e->stop == ENUM_DONE; y++) {
						if (y % ROW_UNIT == 0)
							mine = unit(e, d, s);
						if (!mine)
							continue;
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
}

static void unary(En *e, unsigned d, unsigned s, RecipeKind kind)
{
	if (s < 2)
		return;
	Bucket *b = bucket(e, d, s - 1);
	size_t n = b->len; /* blocks kept by this loop belong to size s */
	for (size_t k = 0; k < n && e->stop == ENUM_DONE; k++) {
		if (!unit(e, d, s))
			continue;
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
				for (size_t x = 0; x < n1; x++) {
					bool mine = false;
					for (size_t y = 0; y < n2 && e->stop == ENUM_DONE; y++) {
						if (y % ROW_UNIT == 0)
							mine = unit(e, d, s);
						if (!mine)
							continue;
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
}

EnumStop enum_run(const EnumOptions *o, const Sample *S, Store *st,
		  EnumEmit emit, void *ctx, EnumLayer *layers)
{
	En e = {.o = o, .S = S, .st = st, .nw = S->nwords, .emit = emit, .ctx = ctx,
		.layers = layers, .sh = share_job};
	e.seen = sigset_new(S->nwords);
	e.tmp = xmalloc(S->nwords * sizeof(Word64));
	size_t nb = (size_t)(o->max_depth + 1) * (o->max_size + 1);
	e.bucket = xcalloc(nb, sizeof *e.bucket);
	memset(layers, 0, nb * sizeof *layers);
	if (e.sh)
		share_begin(&e);
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
			/* the next layers read this one's blocks */
			flush(&e, d, s);
			if (e.sh && s == o->max_size)
				e.sh->layer("enum", d, e.minsize.len);
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
	share_end(&e);
	return e.stop;
}
