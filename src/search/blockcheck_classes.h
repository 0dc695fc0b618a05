/* blockcheck_classes -- the classes of the level blockcheck builds, and
 * the matching of a new piece to one of them: chained by a hash of what
 * any two positions of one class must share (the class below, and each
 * count capped at C + 1: a count of at most C that differs is seen by
 * the comparison #[that class] >= c alone).  The chains only narrow the
 * candidates; blockcheck_apart decides.
 *
 * Ownership: Classes owns its arrays and the representatives' vectors
 * (blockcheck_classes_free).
 */
#ifndef TALLY_BLOCKCHECK_CLASSES_H
#define TALLY_BLOCKCHECK_CLASSES_H

#include "search/blockcheck_apart.h"

/* A class of the level being built: the class below and the counts at
 * its first position. */
typedef struct {
	uint32_t below;
	Vec rep;
} Known;

typedef struct {
	Known *k;
	uint64_t *hash; /* per class: of the capped counts */
	uint64_t *full; /* per class: of the counts */
	uint32_t *next; /* per class: the next in its chain, or UINT32_MAX */
	uint32_t *head; /* per chain */
	uint64_t *run;  /* per class: the last run (numbered) a piece joined it */
	uint64_t runs;  /* runs begun at this level (the caller counts them) */
	size_t n, cap, nheads;
} Classes;

/* The class of a piece whose first position has counts v (taken: kept
 * or freed): an earlier class of the same class below that no
 * comparison separates, or a new one.  A class that an earlier piece of
 * the same run joined is not tried: the pieces of a run are apart from
 * each other (apartness from a piece's first position grows along the
 * run, which is what the piece search rests on).  An undecided test
 * sets k->undecided. */
uint32_t blockcheck_classify(Check *k, Classes *cs, uint32_t below, Vec *v);
void blockcheck_classes_free(Classes *cs);

#endif
