/* gen_rng -- the random numbers of `tally gen`'s datasets: splitmix64
 * (splitmix.h) with unbiased draws below a bound, also below an exact
 * integer, so that a seed gives the same bytes on every machine (no
 * rand(), no floating point).
 *
 * Ownership: the caller owns the state.
 */
#ifndef TALLY_GEN_RNG_H
#define TALLY_GEN_RNG_H

#include <stdint.h>

#include <flint/fmpz.h>

#include "base/splitmix.h"

typedef struct {
	uint64_t state;
} GenRng;

static inline uint64_t gen_rng_next(GenRng *r)
{
	return splitmix64_next(&r->state);
}

/* Uniform in [0, n), n > 0: splitmix64_below's numbers (no residue
 * favoured), with fewer divisions: a draw of at least n is at least
 * 2^64 mod n (which is below n), so the bound of the rejection is only
 * needed for the rare draws below n; and a power of two (1: the other
 * letter of two) takes a mask. */
static inline uint64_t gen_rng_below(GenRng *r, uint64_t n)
{
	if ((n & (n - 1)) == 0) /* 2^64 mod n is 0: nothing rejected */
		return splitmix64_next(&r->state) & (n - 1);
	for (;;) {
		uint64_t x = splitmix64_next(&r->state);
		if (x >= n || x >= (0 - n) % n)
			return x % n;
	}
}

/* Uniform in [0, n) for an exact n > 0 (rejection on its bit length). */
void gen_rng_below_fmpz(GenRng *r, fmpz_t out, const fmpz_t n);

#endif
