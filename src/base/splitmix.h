/* splitmix -- the splitmix64 step (Steele, Lea & Flood 2014), the one
 * pseudo-random generator of tally and its tests: fast, a 64-bit state,
 * and the same sequence for the same seed on every machine; and the one
 * unbiased draw below a bound (splitmix64_below), which every new draw
 * in a range should use (`next % n` favours the small residues).
 *
 * Ownership: the caller owns the state.
 */
#ifndef TALLY_SPLITMIX_H
#define TALLY_SPLITMIX_H

#include <stdint.h>

static inline uint64_t splitmix64_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0: draws below 2^64 mod n are rejected, so the
 * ones kept cover every residue equally often. */
static inline uint64_t splitmix64_below(uint64_t *state, uint64_t n)
{
	uint64_t reject = (0 - n) % n; /* 2^64 mod n */
	for (;;) {
		uint64_t x = splitmix64_next(state);
		if (x >= reject)
			return x % n;
	}
}

#endif
