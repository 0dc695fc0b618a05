/* number -- the one reader of the numbers users write: counts (decimal,
 * digits only) and ranges (N, N..M, ..M, N..).
 *
 * Ownership: nothing is allocated.
 */
#ifndef TALLY_NUMBER_H
#define TALLY_NUMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A decimal count 0..max (digits only: no sign, no blank, no suffix);
 * false otherwise.  limit_parse_count() is the positive kind. */
bool number_parse_count(const char *s, uint64_t max, uint64_t *out);
/* RANGE: N, N..M, ..M (lo = 0) or N.. (hi = SIZE_MAX); false if malformed
 * or lo > hi. */
bool number_parse_range(const char *s, size_t *lo, size_t *hi);

#endif
