/* bank_share.c -- a bank shared over processes (share.h, tally-mpi):
 * candidates queued for the owners of their signatures, the end of a
 * block, the pinned copies of signatures (bank.h, bank_impl.h).  One
 * process never comes here but through the no-op checks of
 * bank_share_flush and bank_pin. */
#include <config.h>

#include "search/bank_impl.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/* A candidate on its way to its owner: its place in the block's order,
 * its hash, its entry (neg set); the signature follows. */
typedef struct {
	uint64_t key, hash;
	Entry e;
} Rec;

static int owner_of(const Share *sh, uint64_t hash)
{
	return (int)((hash >> 32) % (uint64_t)sh->size);
}

/* Which counts of an entry with this own signature can be nonzero (the
 * root is never counted). */
static uint8_t nonzero(const Bank *b, const Word64 *own)
{
	size_t nw = b->S->nwords;
	Word64 any = own[0] & ~(Word64)1, anyn = (b->S->valid[0] & ~own[0]) & ~(Word64)1;
	for (size_t w = 1; w < nw; w++) {
		any |= own[w];
		anyn |= b->S->valid[w] & ~own[w];
	}
	return (uint8_t)((any != 0) | (anyn != 0) << 1);
}

static int cmp_rec_key(const void *x, const void *y)
{
	uint64_t p = ((const Rec *)x)->key, q = ((const Rec *)y)->key;
	return p < q ? -1 : p > q;
}

/* The owner's side of a block: its own candidates as they are queued,
 * then those of the other ranks part by part in whatever order they
 * arrive (share.h's exchange_each), each inserted where it lies.  A signature new in this block gets the next
 * index of the set (base + i) and kept[i] its candidate; a later one
 * with the same signature and a smaller key takes its place, so the
 * kept entry is the block's least key, as when the candidates were
 * taken in key order. */
struct BankOwner {
	Bank *b;
	bool open;      /* a block is under way */
	size_t base;
	VEC(Rec) kept;
	uint64_t got;
	Word64 *own;
};
typedef struct BankOwner Owner;

/* The block under way (opened by its first candidate, or its flush). */
static Owner *block_owner(Bank *b)
{
	if (!b->owner) {
		b->owner = xcalloc(1, sizeof *b->owner);
		b->owner->b = b;
		b->owner->own = xmalloc(b->S->nwords * sizeof(Word64));
	}
	Owner *o = b->owner;
	if (!o->open) {
		o->open = true;
		o->base = sigset_count(b->set);
		o->kept.len = 0;
		o->got = 0;
	}
	return o;
}

void bank_share_free(Bank *b)
{
	if (!b->owner)
		return;
	VEC_FREE(b->owner->kept);
	free(b->owner->own);
	free(b->owner);
	b->owner = NULL;
}

static void own_rec(Owner *o, Rec *r, const Word64 *canon)
{
	Bank *b = o->b;
	size_t nw = b->S->nwords;
	r->e.owner = (uint16_t)b->sh->rank;
	if (r->e.neg)
		sig_not(o->own, canon, b->S->valid, nw);
	else
		memcpy(o->own, canon, nw * sizeof(Word64));
	r->e.nz = nonzero(b, o->own);
}

/* One candidate whose signature this rank owns. */
static void own_one(Owner *o, Rec r, const Word64 *sig)
{
	bool fresh;
	size_t k = sigset_insert_hashed(o->b->set, sig, r.hash, &fresh);
	o->got++;
	if (fresh) {
		r.e.sig = (uint32_t)k;
		own_rec(o, &r, sig);
		VEC_PUSH(o->kept, r);
	} else if (k >= o->base && r.key < o->kept.data[k - o->base].key) {
		r.e.sig = (uint32_t)k;
		own_rec(o, &r, sig);
		o->kept.data[k - o->base] = r;
	}
}

static void own_part(void *ctx, int from, const void *p, size_t len)
{
	(void)from;
	Owner *o = ctx;
	size_t sz = sizeof(Rec) + o->b->S->nwords * sizeof(Word64), n = len / sz;
	const unsigned char *at = p;
	for (size_t i = 0; i < n; i++, at += sz) {
		Rec r;
		memcpy(&r, at, sizeof r);
		own_one(o, r, (const Word64 *)(at + sizeof r));
	}
}

void bank_share_queue(Bank *b, uint64_t key, const Word64 *sig,
		      const Cand *c, Entry e)
{
	size_t nw = b->S->nwords, sz = sizeof(Rec) + nw * sizeof(Word64);
	int r = owner_of(b->sh, c->hash);
	Rec h = {key, c->hash, e};
	h.e.neg = c->neg;
	if (r == b->sh->rank) { /* no copy, no message */
		own_one(block_owner(b), h, sig);
		return;
	}
	mem_grow((void **)&b->out[r].data, &b->out[r].cap, b->out[r].len + sz, 1);
	memcpy(b->out[r].data + b->out[r].len, &h, sizeof h);
	memcpy(b->out[r].data + b->out[r].len + sizeof h, sig, nw * sizeof(Word64));
	b->out[r].len += sz;
}

/* The kept ones (Recs without signatures) after the counts of those
 * received and of those kept, for the all-gather. */
static unsigned char *owned_block(Owner *o, size_t *outlen)
{
	uint64_t head[2] = {o->got, o->kept.len};
	size_t body = o->kept.len * sizeof(Rec);
	unsigned char *kept = xmalloc(sizeof head + body + 1);
	memcpy(kept, head, sizeof head);
	if (body)
		memcpy(kept + sizeof head, o->kept.data, body);
	*outlen = sizeof head + body;
	return kept;
}

void bank_share_flush(Bank *b, unsigned d)
{
	if (!b->sh)
		return;
	int N = b->sh->size;
	void **send = xmalloc((size_t)N * sizeof *send);
	size_t *lens = xmalloc((size_t)N * sizeof *lens), len, total;
	for (int r = 0; r < N; r++) {
		send[r] = b->out[r].data;
		lens[r] = b->out[r].len;
	}
	Owner *o = block_owner(b);
	b->sh->exchange_each(send, lens, own_part, o);
	for (int r = 0; r < N; r++)
		b->out[r].len = 0;
	free(send);
	free(lens);
	unsigned char *kept = owned_block(o, &len);
	o->open = false;
	unsigned char *all = b->sh->allgather(kept, len, &total);
	free(kept);
	/* per rank: its counts received and kept, its kept Recs */
	VEC(Rec) recs = {0};
	for (size_t at = 0; at < total;) {
		uint64_t got, nk;
		memcpy(&got, all + at, sizeof got);
		b->stats[d].generated += got;
		at += sizeof got;
		memcpy(&nk, all + at, sizeof nk);
		at += sizeof nk;
		for (uint64_t i = 0; i < nk; i++, at += sizeof(Rec)) {
			Rec r;
			memcpy(&r, all + at, sizeof r);
			VEC_PUSH(recs, r);
		}
	}
	free(all);
	if (recs.len) /* (no array at all when none was kept) */
		qsort(recs.data, recs.len, sizeof *recs.data, cmp_rec_key);
	for (size_t i = 0; i < recs.len; i++) {
		Entry e = recs.data[i].e;
		e.pin = 0;
		bank_append(b, e);
		b->stats[d].kept++;
	}
	VEC_FREE(recs);
}

void bank_share_flush_part(Bank *b, unsigned d, size_t done)
{
	if (b->sh && done && done % SUBBLOCK == 0)
		bank_share_flush(b, d);
}

void bank_pin(Bank *b, const size_t *idx, size_t n)
{
	if (!b->sh || n == 0)
		return;
	size_t nw = b->S->nwords;
	Word64 *buf = xcalloc(n * nw + 1, sizeof(Word64));
	for (size_t i = 0; i < n; i++) {
		const Entry *e = &b->e.data[idx[i]];
		if (e->owner == b->sh->rank)
			memcpy(buf + i * nw, sigset_get(b->set, e->sig),
			       nw * sizeof(Word64));
	}
	b->sh->or_words(buf, n * nw);
	for (size_t i = 0; i < n; i++) {
		Entry *e = &b->e.data[idx[i]];
		if (bank_canonical(b, e))
			continue;
		Word64 *c = xmalloc(nw * sizeof(Word64));
		memcpy(c, buf + i * nw, nw * sizeof(Word64));
		VEC_PUSH(b->pins, c);
		e->pin = (uint32_t)b->pins.len;
	}
	free(buf);
}
