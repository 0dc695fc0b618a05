/* gen_draw -- the words of one length for `tally gen`: distinct members
 * and non-members drawn uniformly (from the counts of gen_states.h, or,
 * without a state graph, by rejection sampling with a budget), and hard
 * non-members made by mutating members (two letters exchanged, so the
 * letter counts and the last letter stay; else one letter changed before
 * the last; else any one letter).
 *
 * Ownership: a GenDraw borrows the spec, the state graph and the
 * evaluator; it owns its batches.
 */
#ifndef TALLY_GEN_DRAW_H
#define TALLY_GEN_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine/eval.h"
#include "gen/gen_data.h"
#include "gen/gen_report.h"
#include "gen/gen_rng.h"
#include "gen/gen_states.h"

/* Words of one length, in the order drawn. */
typedef struct {
	size_t n;
	uint32_t *w; /* count x n letters */
	uint8_t *kind;
	/* members drawn from counts: the states each walked through
	 * (count x (n + 1), gen_unrank.h), to class their mutants from
	 * where they differ; NULL otherwise */
	uint32_t *path;
	size_t count, cap, kcap, pcap;
} GenBatch;

/* Mutation tries and successes by kind, at the current length. */
typedef struct {
	uint64_t tries[GEN_KINDS], wins[GEN_KINDS];
} GenMutants;

typedef struct {
	const GenSpec *sp;
	GenStates *gs;   /* or NULL: rejection sampling */
	Evaluator *ev;   /* roots: the language, then the domain */
	GenRng *rng;
	size_t nl;
	size_t n;          /* the current length */
	GenBatch batch[2]; /* the current chunk: non-members, members */
	uint64_t *seen;    /* fingerprints of the words of this length */
	size_t seen_mask, seen_count;
	uint32_t *rank[2]; /* dense classes: every rank, shuffled */
	size_t nrank[2], next_rank[2];
	GenMutants mutants;
	uint64_t duplicates;
	uint64_t tries;  /* rejection sampling: words tried per draw */
	uint32_t *tmp, *seed_word;
	uint32_t *ahead;   /* mutants tried together (gen_mutant.c) */
	/* mutants' tries made ahead on the threads (gen_mutant.c): a window
	 * of tried_n from the generator's state tried_s0 */
	struct Ahead *tried;
	size_t tried_n, tried_cap;
	uint64_t tried_s0, step_inverse, mutants_left;
	GenKind tried_kind;
	uint64_t *ranks;   /* with a graph: a batch of draws (gen_draw.c), */
	size_t limbs[2], rcap; /* each limbs[class] words (gen_unrank.h) */
	uint64_t *before;  /* the generator's state before each */
	uint32_t *words;   /* their words */
	uint32_t *paths;   /* and their states (members) */
	size_t wcap, pcap;
	Sym *syms;
	/* per split: the uniformly random non-members drawn so far and
	 * all non-members asked for, so that a mutant not found (replaced
	 * by a random word) is made up for by a mutant of a later chunk */
	uint64_t *random_done, *negatives_done;
	Limits *limits;
	unsigned jobs;   /* threads for pure work (GenSpec.jobs; 0, 1: none) */
	bool stopped;    /* a limit was reached */
	bool hopeless[2]; /* rejection sampling found none at this length */
} GenDraw;

void gen_draw_init(GenDraw *d, const GenSpec *sp, GenStates *gs,
		   Evaluator *ev, GenRng *rng, size_t maxlen);
void gen_draw_free(GenDraw *d);

/* The class of a word: 1 member, 0 non-member in the domain, -1 outside
 * the domain. */
int gen_draw_class(GenDraw *d, const uint32_t *w, size_t n);

/* Starts length n, of which total[c] words of class c will be wanted in
 * all (no word is drawn twice at this length, across chunks too). */
void gen_draw_length(GenDraw *d, size_t n, const uint64_t total[2]);
/* Fills the batches with need[c] new words of class c for split s
 * (fewer when they cannot be found: the batches say how many). */
void gen_draw_chunk(GenDraw *d, const uint64_t need[2], size_t s);
/* For gen_mutant.c: a uniform word of class c at length n (from the
 * counts, or found by rejection; false when none), and w (with its
 * states, path, or NULL) added to batch b unless it was seen at this
 * length. */
bool gen_draw_uniform(GenDraw *d, int c, uint32_t *w, size_t n);
bool gen_draw_add(GenDraw *d, GenBatch *b, const uint32_t *w,
		  const uint32_t *path, GenKind kind);

/* The i-th word of a batch. */
static inline const uint32_t *gen_batch_word(const GenBatch *b, size_t i)
{
	return b->w + i * b->n;
}

#endif
