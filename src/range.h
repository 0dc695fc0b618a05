/* range -- the RANGE arguments of cli.md: N, N..M, ..M, N.. (and N:M).
 *
 * Bounds are non-negative; an open end is reported as -1 so that each
 * command decides what an open range means for it.
 */
#ifndef TALLY_RANGE_H
#define TALLY_RANGE_H

#include <stdbool.h>

typedef struct {
	long lo; /* -1 when open ("..M") */
	long hi; /* -1 when open ("N..") */
} Range;

/* False when s is not a range or its lower bound exceeds its upper. */
bool range_parse(const char *s, Range *r);

#endif
