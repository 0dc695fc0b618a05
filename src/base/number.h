/* number -- the one reader of the numbers users write: counts (decimal,
 * digits only), ranges (N, N..M, ..M, N..), seconds and sizes; and the
 * one wording of an option's bad number ("--max-coeff: 4294967297 is
 * out of range 1..16").
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
/* Seconds: a decimal number greater than 0 and at most 1e8. */
bool number_parse_seconds(const char *s, double *out);
/* A size in bytes, at least 1: N, NK, NM, NG, NT (binary multiples),
 * with an optional B. */
bool number_parse_size(const char *s, size_t *out);

/* The value of option --name as a count lo..hi; false after
 * "tally: error: --NAME: ..." (a malformed count, or one out of range). */
bool number_option_count(const char *name, const char *s, uint64_t lo,
			 uint64_t hi, uint64_t *out);
/* The value of option --name as a range within lo..hi (an open end
 * stays SIZE_MAX unless bounded asks for an upper bound); false after
 * the message. */
bool number_option_range(const char *name, const char *s, size_t lo,
			 size_t hi, bool bounded, size_t *rlo, size_t *rhi);

#endif
