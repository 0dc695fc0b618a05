/* mismatch -- the first word on which a simulated model disagrees with
 * another decider: the formula it carries (simcheck.h) or the same model
 * under kneedeep (breakdown.h).  Both searches fill one, and the faces
 * print it alike.
 *
 * Ownership: a Mismatch owns its word (free() it).
 */
#ifndef TALLY_MISMATCH_H
#define TALLY_MISMATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
	bool found;
	size_t length;
	uint32_t *word; /* malloc'd */
	bool model_accepts;
	double model_value, want_value; /* a count readout's outputs */
	size_t words; /* words (or prefixes) compared */
	bool stopped; /* a limit stopped the search */
} Mismatch;

#endif
