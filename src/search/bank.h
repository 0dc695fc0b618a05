/* bank -- the inner bank of the search: formulas by depth, one per
 * signature up to negation, built bottom-up on a Sample
 * (search-feasibility.md §6).
 *
 * Depth 0 holds every Boolean function of the current letter.  Depth d
 * >= 1 holds the comparisons of one count,
 *     #[psi] >= c (c = 1..C), #[psi] <= C, #[psi] = c (c = 1..C),
 * for every depth-(d-1) entry psi in both polarities; with two counts
 * (counts >= 2), the comparisons
 *     a1 #[psi1] + a2 #[psi2]  >=, <= or =  c   (|a_i|, |c| <= C)
 * for psi1, psi2 among the smallest entries of each depth below
 * (bank_base_at; both polarities, one of them of depth d - 1); then the
 * guarded
 * combinations Q_x & alpha, Q_x | alpha with alpha such a comparison or
 * its negation.  The other relations are negations.  Candidates are
 * generated smallest first (grammar size, then constant), one count
 * before two, so the entry kept for each signature is the preferred one.
 * Every kept entry becomes a Node of the Store when used, so it prints
 * with tl_print and runs through the evaluator.
 *
 * On a whole-word sample (sample.h) every count is also taken towards
 * the future (#>), so the bank holds two-sided formulas, and the guarded
 * combinations include Q_x & alpha & beta for the BANK_PAIRS smallest
 * comparisons of the depth, existence tests #[e] >= 1 of a letter or a
 * guarded entry first (one position between two others: the two-sided
 * form of a subsequence test).
 *
 * The bank is a search space, not the class of the negative claims
 * (indist.h): every entry lies in the class F_d(C, T) with T >= 2, which
 * has inner formulas of any size.
 *
 * Threshold planes and combinations are computed by `jobs` threads; the
 * insertions (hash set, Store) happen on the calling thread in a fixed
 * order, so the result does not depend on the number of threads.
 *
 * Over several processes (share.h, tally-mpi) the signatures are shared
 * out by hash: the candidates of a block are sent to the owners of their
 * signatures, who keep them in the block's order, and every process
 * appends the kept entries in that order, so the entries, their numbers
 * and the statistics are those of one process, whatever the number.
 *
 * The bank lives in bank.c (entries, nodes, limits), is built in
 * bank_build.c and shared over processes in bank_share.c; bank_impl.h is
 * the inside they share.
 *
 * Ownership: a Bank borrows its Sample and Store (both must outlive it)
 * and owns its SigSet (its own signatures), entries and pinned copies.
 */
#ifndef TALLY_BANK_H
#define TALLY_BANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "search/sample.h"
#include "search/sig.h"
#include "core/store.h"

typedef enum { ENTRY_BASE, ENTRY_ATOM, ENTRY_LIN, ENTRY_COMBO, ENTRY_PAIR } EntryKind;

/* An entry is kept as a recipe; its Node is built on first use
 * (bank_node), so the Store grows only by the formulas that are used. */
typedef struct {
	Node node;      /* NODE_NONE until bank_node() */
	uint32_t depth;
	uint32_t gsize; /* grammar size: letters, connectives, counts,
			 * comparisons, coefficients other than 1 */
	uint32_t sig;   /* index of the canonical signature in the SigSet */
	bool neg;       /* the node's signature is the canonical one negated */
	EntryKind kind;
	uint32_t child; /* ATOM, LIN: the (first) counted entry; COMBO, PAIR:
			 * the (first) atom */
	uint32_t child2; /* LIN: the second counted entry; PAIR: the second atom */
	int32_t c;      /* ATOM, LIN: the constant; BASE: the letter mask */
	int8_t a1, a2;  /* LIN: the coefficients */
	uint8_t rel;    /* ATOM, LIN: REL_GE, REL_LE or REL_EQ */
	uint8_t x, y;   /* COMBO: the letter, the variant; PAIR: the letter,
			 * the atoms' negations (bits 0, 1) */
	bool pol, pol2; /* ATOM, LIN: count the negation */
	bool fut, fut2; /* ATOM, LIN: a future count #> (whole-word samples) */
	bool linear;    /* a comparison of two counts occurs in the formula */
	/* Shared over processes (share.h): the signature is held by rank
	 * `owner` alone (sig indexes its SigSet); pin is this process's copy
	 * of one it does not own (index + 1, 0: none); nz says which counts
	 * can be nonzero (bit 0: #[e], bit 1: #[!e]).  One process: owner
	 * and pin are 0, nz unused. */
	uint16_t owner;
	uint8_t nz;
	uint32_t pin;
} Entry;

typedef struct {
	uint64_t generated, kept;
	bool cut; /* a part of the layer reached its share of the budget */
} LayerStats;

/* BANK_FULL never leaves the bank: a part of a layer reached its share
 * of the memory budget (bank_part_end turns it into BANK_OK). */
typedef enum { BANK_OK, BANK_CAP, BANK_TIME, BANK_MEMORY, BANK_FULL } BankStop;

typedef struct {
	unsigned C;        /* largest |constant| and |coefficient| */
	unsigned counts;   /* counts per comparison: 1, or 2 (and more:
			    * the bank builds two) */
	unsigned base;     /* two-count comparisons: inner formulas per
			    * depth below */
	unsigned base1;    /* of depth 1 at depth 2 (0: base) */
	unsigned jobs;     /* threads */
	size_t max_sigs;   /* signature cap (0: none) */
	size_t max_bytes;  /* the bank's memory budget (0: none): past it,
			    * layers are cut short instead of the run
			    * stopping (see bank_cut) */
	struct Limits *limits; /* the user's (limit.h), checked after each
				* block of candidates; NULL: none */
	/* Called after each block of candidates (NULL: none). */
	void (*progress)(void *ctx, unsigned depth, size_t signatures);
	void *progress_ctx;
} BankOptions;

/* How many inner formulas of depth k the two-count comparisons of depth
 * d take: all of depth 0 (0: no limit), base1 of depth 1 at depth 2
 * (when set), else base (more make the deep layers large and strong
 * enough to imitate deeper languages on the witness pairs). */
size_t bank_base_at(const BankOptions *o, unsigned k, unsigned d);

enum { BANK_PAIRS = 48 };

typedef struct Bank Bank;

Bank *bank_new(const Sample *S, Store *st, const BankOptions *opt);
void bank_free(Bank *b);
/* Builds the depths below d and the comparisons of depth d (all the
 * partition test of depth d needs); returns BANK_OK or why it stopped
 * (what was completed stays usable: bank_depth()). */
BankStop bank_build(Bank *b, unsigned d);
/* The same with the guarded combinations of depth d too. */
BankStop bank_build_full(Bank *b, unsigned d);
/* The comparisons of depths 0..bank_depth() are complete (and all the
 * entries of the depths below it). */
unsigned bank_depth(const Bank *b);
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
 * that follows the bank (the search polls them too). */
struct Limits *bank_limits(const Bank *b);
/* BANK_TIME or BANK_MEMORY when one of lim is reached, else BANK_OK. */
BankStop bank_limit_stop(struct Limits *lim);
/* The same, pooled over the processes of a shared job (share.h):
 * collective there, so that every rank stops alike. */
BankStop bank_stop_now(const Bank *b);

/* ---- a bank shared over processes (share.h) ----
 * The entries (recipes) are on every rank, each signature only on its
 * owner (by hash); bank_canonical() is NULL for one this process neither
 * owns nor pinned, and bank_sig() must not be asked for it. */
const struct Share *bank_share(const Bank *b);
/* This process computes with the entry's signature (it owns it; one
 * process: always). */
bool bank_mine(const Bank *b, const Entry *e);
/* Collective: copies of the signatures of entries idx[0..n) (the same
 * list on every rank) on every rank, kept with the bank.  One process:
 * nothing to do. */
void bank_pin(Bank *b, const size_t *idx, size_t n);

/* The memory budget (BankOptions.max_bytes) is spent smallest first:
 * each part of a layer (one-count comparisons, two-count comparisons,
 * guarded combinations, two-sided pairs) may take at most half of what
 * is left of it when the part starts (at least BANK_CUT_MIN entries), so
 * that deeper layers always get a share; a part that reaches its share
 * ends there, keeping its smallest candidates (they are generated
 * smallest first).  The estimate is deterministic (entries times the
 * bytes of an entry and its signature), so the entries kept do not
 * depend on the moment the memory is read.  A cut depth's negative
 * results hold for the comparisons kept only. */
enum { BANK_CUT_MIN = 1024 };
/* The search's focus (one process only): pairs of sample bits the
 * target labels differently and no comparison kept so far tells apart.
 * A part past its share then goes on with the candidates that separate
 * one of them only, until the whole budget is spent: the budget goes to
 * what separates the target's words first.  n = 0: no focus. */
enum { BANK_FOCUS_MAX = 4096 };
void bank_set_focus(Bank *b, const size_t *pos, const size_t *neg, size_t n);
/* The budget is tight: a quarter of it spent (the search then computes
 * a focus). */
bool bank_tight(const Bank *b);
/* Was a layer of depth <= d cut at the memory budget? */
bool bank_cut(const Bank *b, unsigned d);
/* The estimated bytes of the bank's entries and signatures. */
size_t bank_estimate(const Bank *b);

/* Describes the bank's grammar and its bounds. */
const char *bank_grammar(const Bank *b);

#endif
