/* splitmix -- the splitmix64 step (Steele, Lea & Flood 2014), the one
 * pseudo-random generator of tally and its tests: fast, a 64-bit state,
 * and the same sequence for the same seed on every machine.
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

#endif
