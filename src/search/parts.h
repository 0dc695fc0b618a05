/* parts -- the partition test of the search: the care positions of a
 * sample split by atoms (atoms.h) into classes, and whether the target's
 * labels are a function of the classes (search.c, separate.c).
 *
 * Splitting by an atom maps each class to at most two, numbered by first
 * point, so the classes and their numbers do not depend on the order of
 * the atoms; over processes (share.h) each rank splits by the atoms it
 * owns and the ranks' classes are met, giving one process's partition.
 *
 * Ownership: a Parts owns its arrays (parts_free).
 */
#ifndef TALLY_PARTS_H
#define TALLY_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/limit.h"
#include "search/atoms.h"
#include "search/search.h"

typedef struct {
	size_t n;       /* live points */
	size_t *bit;    /* their sample bits */
	bool *lab;
	uint32_t *cls;
	uint32_t ncls;
	uint32_t *remap; /* scratch: 2 * points */
	uint32_t *npos, *nneg;
} Parts;

/* One class of the care positions, labelled by label. */
void parts_init(Parts *p, const Sample *S, const Word64 *care,
		const Word64 *label);
void parts_free(Parts *p);
/* Splits every class by the signature a. */
void parts_split(Parts *p, const Word64 *a);
/* Keeps only the points of classes holding both labels (renumbered). */
void parts_drop_pure(Parts *p);
/* Splits p by every atom (no classes dropped; collective when shared). */
void parts_split_all(Parts *p, const Atoms *a);
/* Is the target a Boolean function of the atoms on the care set?  When
 * not, the conflicting classes are counted into r and, with cert, their
 * candidate pairs certified against the class at depth d (pairs.h).
 * Collective when the atoms are shared. */
bool parts_test(const Atoms *a, const Sample *S, const Word64 *care,
		const Word64 *label, const IndistBounds *cert, unsigned d,
		Limits *lim, Refutation *r);

#endif
