/* gen_values -- the distribution of a sequence output's values in a
 * `tally gen` dataset, for its report: a count-valued program has no
 * classes to balance, so the report says instead how often each value
 * occurs (at the judged position, the word's label, and at every
 * position), with the least, the greatest and the mean.
 *
 * Counts are exact per value up to GEN_VALUES_DISTINCT distinct values
 * that fit a long; further ones are counted together as "other" (the
 * least, the greatest and the mean stay exact).
 *
 * Ownership: a GenValues owns its table and integers; gen_values_free()
 * releases them.
 */
#ifndef TALLY_GEN_VALUES_H
#define TALLY_GEN_VALUES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <flint/fmpz.h>
#include <jansson.h>

#include "base/vec.h"

enum { GEN_VALUES_DISTINCT = 10000 };

typedef struct {
	long value;
	uint64_t count;
} GenValueCount;

typedef struct {
	VEC(GenValueCount) seen; /* by increasing value */
	uint64_t total, other;
	fmpz_t min, max, sum;
} GenValues;

void gen_values_init(GenValues *v);
void gen_values_free(GenValues *v);
void gen_values_add(GenValues *v, const fmpz_t x);
/* The count of the most frequent value (0 when none), and it. */
uint64_t gen_values_mode(const GenValues *v, long *value);
/* One summary line "gen:   WHAT: N, MIN..MAX, mean M; most frequent V
 * (P%)" on f. */
void gen_values_print(const GenValues *v, const char *what, FILE *f);
/* {"count", "min", "max", "mean", "values": [{"value", "count"}...],
 * "other"}: a new reference. */
json_t *gen_values_json(const GenValues *v);

#endif
