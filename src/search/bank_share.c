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

void bank_share_queue(Bank *b, uint64_t key, const Word64 *sig,
		      const Cand *c, Entry e)
{
	size_t nw = b->S->nwords, sz = sizeof(Rec) + nw * sizeof(Word64);
	int r = owner_of(b->sh, c->hash);
	mem_grow((void **)&b->out[r].data, &b->out[r].cap, b->out[r].len + sz, 1);
	Rec h = {key, c->hash, e};
	h.e.neg = c->neg;
	memcpy(b->out[r].data + b->out[r].len, &h, sizeof h);
	memcpy(b->out[r].data + b->out[r].len + sizeof h, sig, nw * sizeof(Word64));
	b->out[r].len += sz;
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

/* The owner's step: the block's candidates it received, in the block's
 * order, each kept unless its signature is known; returns the kept ones
 * (Recs without signatures) after the counts of those received and of
 * those kept. */
static unsigned char *own_block(Bank *b, const unsigned char *in, size_t len,
				size_t *outlen)
{
	size_t nw = b->S->nwords, sz = sizeof(Rec) + nw * sizeof(Word64);
	size_t n = len / sz;
	const unsigned char **at = xmalloc((n + 1) * sizeof *at);
	Rec *keys = xmalloc((n + 1) * sizeof *keys);
	for (size_t i = 0; i < n; i++) {
		memcpy(&keys[i], in + i * sz, sizeof(Rec));
		keys[i].e.sig = (uint32_t)i; /* where it came from */
	}
	qsort(keys, n, sizeof *keys, cmp_rec_key);
	for (size_t i = 0; i < n; i++)
		at[i] = in + (size_t)keys[i].e.sig * sz + sizeof(Rec);
	uint64_t got = n, head = 2 * sizeof got;
	unsigned char *kept = xmalloc(head + (n + 1) * sizeof(Rec));
	size_t m = 0;
	Word64 *own = xmalloc(nw * sizeof(Word64));
	for (size_t i = 0; i < n; i++) {
		const Word64 *sig = (const Word64 *)at[i];
		bool fresh;
		size_t k = sigset_insert_hashed(b->set, sig, keys[i].hash, &fresh);
		if (!fresh)
			continue;
		Rec r = keys[i];
		r.e.sig = (uint32_t)k;
		r.e.owner = (uint16_t)b->sh->rank;
		if (r.e.neg)
			sig_not(own, sig, b->S->valid, nw);
		else
			memcpy(own, sig, nw * sizeof(Word64));
		r.e.nz = nonzero(b, own);
		memcpy(kept + head + m++ * sizeof(Rec), &r, sizeof r);
	}
	memcpy(kept, &got, sizeof got);
	got = m;
	memcpy(kept + sizeof got, &got, sizeof got);
	free(own);
	free(keys);
	free(at);
	*outlen = head + m * sizeof(Rec);
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
	unsigned char *in = b->sh->exchange(send, lens, &len);
	for (int r = 0; r < N; r++)
		b->out[r].len = 0;
	free(send);
	free(lens);
	unsigned char *kept = own_block(b, in, len, &len);
	free(in);
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
