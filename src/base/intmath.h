/* intmath -- small integer arithmetic shared by the layers above.
 *
 * Ownership: nothing is allocated.
 */
#ifndef TALLY_INTMATH_H
#define TALLY_INTMATH_H

#include <stdint.h>

/* The greatest common divisor of |a| and |b| (0 for 0 and 0); a and b
 * above INT64_MIN. */
static inline int64_t int64_gcd(int64_t a, int64_t b)
{
	a = a < 0 ? -a : a;
	b = b < 0 ? -b : b;
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

#endif
