/* bank_impl -- the inside of a Bank (bank.h), shared by its three files:
 * bank.c (the bank, its entries and nodes), bank_build.c (building it
 * layer by layer), bank_share.c (a bank shared over processes).
 *
 * A candidate goes through bank_emit: inserted at once in one process,
 * queued for the owner of its signature in a shared bank, where
 * bank_share_flush ends the block; every entry is appended through
 * bank_append, so both paths make the same entries.
 *
 * Ownership: as bank.h; nothing here outside the bank's files.
 */
#ifndef TALLY_BANK_IMPL_H
#define TALLY_BANK_IMPL_H

#include "base/share.h"
#include "base/vec.h"
#include "search/bank.h"

/* SUBBLOCK: the sources between two exchanges of a shared bank within
 * a block (bank_share_flush_part): more than a block of combinations,
 * so that such a block costs one exchange (each is a meeting of every
 * rank: on a loaded machine the meetings, not the bytes, are what the
 * ranks wait for), while a rank's queues stay within about the size of
 * the block's signatures, which it holds anyway. */
enum { MAXD = 15, BLOCK = 2048, SUBBLOCK = 2 * BLOCK };

struct Bank {
	const Sample *S;
	Store *st;
	BankOptions o;
	SigSet *set;
	VEC(Entry) e;
	size_t first[MAXD + 2];
	int built; /* depths 0..built complete; -1 before depth 0 */
	bool top_atoms; /* and the comparisons of depth built + 1 */
	LayerStats stats[MAXD + 1];
	size_t part_cap; /* entries the current part may reach (0: none) */
	bool focus_only; /* past it: only candidates that separate a focus
			  * pair are kept */
	size_t nfocus;
	size_t *focus;   /* pos[0..nfocus), neg[nfocus..2 nfocus) */
	double seconds; /* wall time spent in bank_build */
	double cpu;     /* CPU time of all threads spent there */
	char grammar[400];
	/* Shared over processes (share.h; NULL: one process): the
	 * candidates of the current block queued per owner, the copies of
	 * signatures pinned here. */
	const Share *sh;
	VEC(unsigned char) *out;
	VEC(Word64 *) pins;
	struct BankOwner *owner; /* this rank's part of the block under way */
};

/* One candidate's signature, made canonical, with its hash. */
typedef struct {
	uint64_t hash;
	bool neg;
} Cand;

/* Makes sig canonical and fills c. */
void bank_cand(const Sample *S, Word64 *sig, Cand *c);
/* The candidate of place `key` in the block: inserted now (one
 * process), else queued for its owner (bank_share_flush). */
void bank_emit(Bank *b, uint64_t key, const Word64 *sig, const Cand *c,
	       Entry e);
/* Appends a kept entry (its signature known): its linear flag, no node
 * yet. */
void bank_append(Bank *b, Entry e);
/* After each block: the progress, then BANK_CAP or a limit (collective
 * in a shared bank), else BANK_OK. */
BankStop bank_block_end(Bank *b);

/* Starts a part of a layer: its share of the memory budget (bank.h). */
void bank_part_start(Bank *b);
/* A part that ended at its share: the layer is marked cut and the build
 * goes on (BANK_OK); any other stop is returned as it is. */
BankStop bank_part_end(Bank *b, unsigned d, BankStop stop);

/* Shared bank: queues the candidate for the owner of its signature (one
 * of this rank's own is taken at once, without a copy). */
void bank_share_queue(Bank *b, uint64_t key, const Word64 *sig,
		      const Cand *c, Entry e);
/* Collective: the end of a block: the queued candidates go to their
 * owners, who keep the new signatures; every rank then appends the kept
 * entries in the block's order, as one process inserting them would.
 * One process: nothing to do. */
void bank_share_flush(Bank *b, unsigned d);
/* What bank_share_queue and bank_share_flush keep between blocks. */
void bank_share_free(Bank *b);
/* Collective, in a shared bank: the end of a part of a block (every
 * SUBBLOCK sources), so that the queues stay bounded; the order of the
 * entries is the same, and the limits are still checked per block. */
void bank_share_flush_part(Bank *b, unsigned d, size_t done);

#endif
