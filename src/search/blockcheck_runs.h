/* blockcheck_runs -- a word as blockcheck sees it at one level: runs of
 * the classes of the level below, walked from the first, with the counts
 * before the current run; and the count vector of a position of that
 * run.  Both the level step (blockcheck_level.c) and the last-level test
 * walk a word this one way.
 *
 * Ownership: Segs owns its array (free(s)); a Walk owns its tables
 * (blockcheck_walk_free).
 */
#ifndef TALLY_BLOCKCHECK_RUNS_H
#define TALLY_BLOCKCHECK_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "search/blockcheck_apart.h"

typedef struct {
	uint32_t cls;
	uint64_t len;
} Seg;

typedef struct {
	Seg *s;
	size_t n, cap;
} Segs;

/* Appends a run (joined with the last one when of the same class). */
void blockcheck_segs_push(Segs *v, uint32_t cls, uint64_t len);

/* Where a walk stands before a run: the counts so far (dense, the
 * classes seen sorted), and, two-sided, the word's totals. */
typedef struct {
	uint64_t *dense, *tot;
	uint32_t *seen;
	size_t nseen, nbelow;
} Walk;

/* Before the first run of `in` (classes below nbelow); two_sided: with
 * the word's totals. */
void blockcheck_walk_start(Walk *w, const Segs *in, size_t nbelow,
			   bool two_sided);
/* Past a run of len positions of class c0. */
void blockcheck_walk_past(Walk *w, uint32_t c0, uint64_t len);
void blockcheck_walk_free(Walk *w);

/* The counts before the walk's run, with `extra` more of class c0 (past,
 * and two-sided future, of the position `extra` of a run of c0). */
void blockcheck_vec_at(const Walk *w, uint32_t c0, uint64_t extra, Vec *out);

#endif
