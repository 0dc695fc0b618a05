/* blockref -- the exact indistinguishability check of indist.h on words
 * given as runs (blockword.h): the same class F_d(C, T), the same
 * positions and levels, but each level kept as runs of classes, so that
 * the cost grows with the number of runs and classes, not with the
 * lengths (up to 10^18 letters).
 *
 * Inside a run of class K of level j, a position's counts are a base
 * vector plus M times K's unit vector, so every comparison of depth
 * j + 1 is linear in M: a run splits at the M where some comparison can
 * reach [-C, C] (each such M alone, the stretches between them whole).
 * Each piece then joins the first class of level j + 1 whose
 * representative no comparison separates from it: a cheap key (counts
 * capped at C + 1, and the class below) first, then an exact test of
 * the two count vectors.  Both tests bound their enumerations; past a
 * bound a test is undecided and the answer says so (never a guess).
 *
 * When the partition of level j + 1 equals that of level j, every later
 * level equals it too (a level depends only on the one below), so no
 * depth separates the pair: blockref_pair() reports it as
 * BLOCKREF_NEVER.
 *
 * Ownership: nothing is kept between calls; the words stay the caller's.
 */
#ifndef TALLY_BLOCKREF_H
#define TALLY_BLOCKREF_H

#include <stdbool.h>
#include <stddef.h>

#include "search/blockword.h"
#include "search/indist.h"

struct Limits;

enum { BLOCKREF_MAX_DEPTH = 64 };

typedef enum {
	BLOCKREF_SEPARATED, /* depth: the least depth that separates */
	BLOCKREF_NONE,      /* depth: maxd; no formula of depth <= maxd does */
	BLOCKREF_NEVER,     /* depth: the level of the fixpoint; none ever does */
	BLOCKREF_UNKNOWN,   /* depth: undecided there (a bound); none below does */
	BLOCKREF_STOPPED    /* depth: a limit stopped it there; none below does */
} BlockrefKind;

typedef struct {
	BlockrefKind kind;
	unsigned depth;
	size_t classes; /* in the last level computed */
} BlockrefAnswer;

/* Whether F_d(C, T) separates the last positions of u and v, over letters
 * 0..nletters-1, for d <= maxd (at most BLOCKREF_MAX_DEPTH). */
BlockrefAnswer blockref_pair(const BlockWord *u, const BlockWord *v,
			     size_t nletters, unsigned maxd, IndistBounds b,
			     struct Limits *lim);

/* A progress hook, called before each level is refined (the level, the
 * classes of the one below); process-wide, like blockref_tune (NULL:
 * none).  The faces print a progress line with it. */
typedef void (*BlockrefProgress)(void *ctx, unsigned level, size_t classes);
void blockref_progress(BlockrefProgress fn, void *ctx);

/* For tests: the width of the tables of small counts (0: the default);
 * a tiny width sends every count through the enumerations. */
void blockref_tune(unsigned small_width);
/* For tests: decide the last level (maxd) from the two last positions'
 * count vectors alone, as blockref_pair() does when refining every run
 * of that level hit a bound (the fixpoint at that level then goes
 * unseen: NONE, not NEVER). */
void blockref_tune_last(bool always);

#endif
