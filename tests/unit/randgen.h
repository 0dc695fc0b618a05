/* randgen -- seeded random TL[#] formulas and terms for property tests.
 *
 * A small splitmix64 generator (Rng) drives a recursive generator that
 * builds formulas through the store's smart constructors, so every result
 * is already normalised.  The options choose the operators: the past-only
 * core always (letters, true/false, !, n-ary & and |, -> and <->, the six
 * comparisons over linear terms, #[phi], constants); `future` adds #>[phi];
 * `positional` adds Y and MOD; `extended` adds (phi ? t : u), min, max,
 * subtraction, constant multiples (negative too) and now and then a huge
 * constant (40 and more digits).  The count nesting depth of a result is
 * at most max_depth; max_size bounds the number of generator steps, so the
 * size stays roughly below it.  The same seed gives the same formulas.
 *
 * Ownership: nodes belong to the Store; letters are borrowed Syms of its
 * symbol table, and the caller keeps the array alive during the calls.
 */
#ifndef TALLY_RANDGEN_H
#define TALLY_RANDGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/store.h"

typedef struct {
	uint64_t s;
} Rng;

void rng_seed(Rng *r, uint64_t seed);
uint64_t rng_next(Rng *r);
/* Uniform-ish in [0, n); 0 when n is 0. */
uint32_t rng_below(Rng *r, uint32_t n);

typedef struct {
	const Sym *letters; /* the alphabet; may be empty */
	size_t nletters;
	unsigned max_depth; /* count nesting */
	unsigned max_size;
	bool future;     /* #>[phi] */
	bool positional; /* Y, MOD */
	bool extended;   /* ?:, min, max, -, k*t, huge constants */
} GenOptions;

Node randgen_formula(Store *s, Rng *r, const GenOptions *o);
/* TALLY_TEST_MULTIPLIER (1..1000, default 1): how many times the usual
 * number of random cases a suite runs (make check-heavy sets 10); for
 * timeouts, which never shrink. */
unsigned test_multiplier(void);
/* n random cases scaled by TALLY_TEST_MULTIPLIER, which may also be a
 * fraction 1/D (D in 1..1000) to run n/D of them, at least 1: the
 * valgrind stage of .ci/run runs the random suites with 1/30. */
unsigned test_count(unsigned n);
/* Whether TALLY_TEST_MULTIPLIER is a fraction: too few random cases for
 * the assertions that both outcomes occur (they are skipped then). */
bool test_scaled_down(void);
Node randgen_term(Store *s, Rng *r, const GenOptions *o);

#endif
