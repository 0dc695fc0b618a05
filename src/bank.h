/* bank -- the guarded inner bank: formulas by depth, one per signature up
 * to negation, built bottom-up on a Sample (search-feasibility.md §6).
 *
 * Depth 0 holds every Boolean function of the current letter.  Depth d
 * >= 1 holds the count atoms #[psi] >= c (c = 1..C) for every depth-(d-1)
 * entry psi in both polarities, at depth 1 also the differences
 * #[Q_x] - #[Q_y] >= c (|c| <= C) when asked, then the guarded
 * combinations Q_x & alpha, Q_x | alpha with alpha an atom of depth d or
 * its negation.  Candidates are generated smallest first (grammar size,
 * then constant), plain atoms before differences, so the entry kept for
 * each signature is the preferred one.  Every kept entry becomes a Node of
 * the Store when used, so it prints with tl_print and runs through the
 * evaluator.
 *
 * Threshold planes and combinations are computed by `jobs` threads; the
 * insertions (hash set, Store) happen on the calling thread in a fixed
 * order, so the result does not depend on the number of threads.
 *
 * Ownership: a Bank borrows its Sample and Store (both must outlive it)
 * and owns its SigSet and entries.
 */
#ifndef TALLY_BANK_H
#define TALLY_BANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"
#include "sig.h"
#include "store.h"

typedef enum { ENTRY_BASE, ENTRY_ATOM, ENTRY_DIFF, ENTRY_COMBO } EntryKind;

/* An entry is kept as a recipe; its Node is built on first use
 * (bank_node), so the Store grows only by the formulas that are used. */
typedef struct {
	Node node;      /* NODE_NONE until bank_node() */
	uint32_t depth;
	uint32_t gsize; /* grammar size: letters, connectives, counts, comparisons */
	uint32_t sig;   /* index of the canonical signature in the SigSet */
	bool neg;       /* the node's signature is the canonical one negated */
	EntryKind kind;
	uint32_t child; /* ATOM: the counted entry; COMBO: the atom */
	int32_t c;      /* ATOM, DIFF: the constant; BASE: the letter mask */
	uint8_t x, y;   /* DIFF: the letters; COMBO: the letter, the variant */
	bool pol;       /* ATOM: count the negation */
	bool uses_diff; /* a difference atom occurs in the formula */
} Entry;

typedef struct {
	uint64_t generated, kept;
} LayerStats;

typedef enum { BANK_OK, BANK_CAP, BANK_TIME, BANK_MEMORY } BankStop;

typedef struct {
	unsigned C;        /* largest constant */
	bool diff;         /* #[Q_x] - #[Q_y] >= c at depth 1 */
	unsigned jobs;     /* threads */
	size_t max_sigs;   /* signature cap (0: none) */
	struct Limits *limits; /* the user's (limit.h), checked after each
				* block of candidates; NULL: none */
	/* Called after each block of candidates (NULL: none). */
	void (*progress)(void *ctx, unsigned depth, size_t signatures);
	void *progress_ctx;
} BankOptions;

typedef struct Bank Bank;

Bank *bank_new(const Sample *S, Store *st, const BankOptions *opt);
void bank_free(Bank *b);
/* Builds depths up to d; returns BANK_OK or why it stopped (the depths
 * completed so far stay usable: bank_depth()). */
BankStop bank_build(Bank *b, unsigned d);
unsigned bank_depth(const Bank *b); /* depths 0..bank_depth() complete */
size_t bank_count(const Bank *b);
const Entry *bank_entry(const Bank *b, size_t i);
/* The entry's formula (built on first use; calling thread only). */
Node bank_node(Bank *b, size_t i);
/* Entries of depth d are [bank_first(d), bank_first(d + 1)). */
size_t bank_first(const Bank *b, unsigned d);
/* The entry's own signature (canonical, negated back when e->neg). */
void bank_sig(const Bank *b, const Entry *e, Word64 *out);
const Word64 *bank_canonical(const Bank *b, const Entry *e);
const LayerStats *bank_stats(const Bank *b, unsigned d);
size_t bank_bytes(const Bank *b);
double bank_seconds(const Bank *b);     /* wall time spent building */
double bank_cpu_seconds(const Bank *b); /* CPU time, all threads */
/* The user's limits the bank was given (NULL: none), for the work
 * that follows the bank (search.c polls them too). */
struct Limits *bank_limits(const Bank *b);
/* BANK_TIME or BANK_MEMORY when one of lim is reached, else BANK_OK. */
BankStop bank_limit_stop(struct Limits *lim);
/* Describes the inner grammar and its bounds (for every negative claim). */
const char *bank_grammar(const Bank *b);

#endif
