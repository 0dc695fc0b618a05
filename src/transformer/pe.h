/* pe -- the exact arithmetic of positional encodings (extensions.md §3.1,
 * §8.3): trigonometric features of sinusoidal and rotary (RoPE) encodings
 * rounded exactly into the simulator's number format, and the T5
 * relative-position bucket function with its logarithm decided in
 * integers.
 *
 * An angle is either a rational multiple of pi (num/den * pi: with
 * 2 pi r/m the features are periodic in the position, which is what makes
 * MOD compilable) or one of the standard frequencies base^(-2k/d) radians
 * of Vaswani et al. and Su et al. (periodic in no integer).
 *
 * Ownership: plain values; a T5 owns its table of bucket starts.
 */
#ifndef TALLY_PE_H
#define TALLY_PE_H

#include <stdbool.h>
#include <stdint.h>

#include "transformer/fixed.h"

typedef struct {
	bool standard;    /* base^(-2k/d) radians; else num/den * pi */
	int64_t num, den; /* den > 0 */
	uint32_t base, k, d;
} Angle;

/* "a/b" or "a" (times pi), reduced; false on anything else. */
bool rational_parse(const char *text, int64_t *num, int64_t *den);
/* The text rational_parse reads (malloc'd). */
char *rational_text(int64_t num, int64_t den);

/* cos(pos * theta + (pnum/pden) * pi), rounded exactly to the format of
 * sem (floor and saturation in F_{p,s}, nearest even in IEEE): the real
 * value is bracketed with MPFR at growing precision until both ends round
 * alike.  The values cos can take exactly at a rational multiple of pi
 * (0, +-1/2, +-1; Niven) are handled without bracketing; every other
 * value is irrational, so the loop ends. */
double pe_cos(const Semantics *sem, const Angle *theta, int64_t pnum,
	      int64_t pden, uint64_t pos);
/* The two coordinates of the rotation by pos * theta: cos and sin. */
void pe_rotation(const Semantics *sem, const Angle *theta, uint64_t pos,
		 double *c, double *s);

/* The RoPE periodicity check (extensions.md P2.5): the number of
 * positions i <= limit at which the rounded rotation by (i + period)
 * theta (cos or sin) differs from the one by i theta, and in *first the
 * first of them (limit + 1 when there is none).
 * A rational angle num/den * pi repeats exactly when period is a multiple
 * of 2 den / gcd(num, 2); the standard frequencies never do, and the
 * rounding decides how soon it shows. */
uint64_t pe_breaks(const Semantics *sem, const Angle *theta,
		   uint64_t period, uint64_t limit, uint64_t *first);
/* "2/7 pi" or "10000^(-2*3/64) rad" (malloc'd). */
char *angle_text(const Angle *a);

/* The T5 bucket of a query-key distance n = i - j >= 0 (HuggingFace's
 * _relative_position_bucket with relative_position = j - i <= 0).
 * Bidirectional halves the buckets (the other half is for keys after the
 * query, which the future mask never shows).  With e = exact buckets
 * (half of them), A = buckets - e: n < e is its own bucket, otherwise
 * e + floor(A ln(n/e) / ln(max_distance/e)), capped at buckets - 1.  The
 * floor is decided exactly: bucket >= e + k iff n^A e^k >= max^k e^A, so
 * the first n of each bucket is the ceiling of an integer A-th root. */
typedef struct {
	uint32_t buckets; /* as given (both halves when bidirectional) */
	uint32_t max_distance;
	bool bidirectional;
	uint32_t exact;   /* e */
	uint32_t top;     /* the buckets a causal key can fall in */
	uint64_t *start;  /* start[k]: the first n of bucket e + k, k < A */
} T5;

/* False with a static message when the parameters make no function
 * (fewer than 2 buckets, max_distance <= e, too many buckets). */
bool t5_init(T5 *t, uint32_t buckets, uint32_t max_distance,
	     bool bidirectional, const char **err);
uint32_t t5_bucket(const T5 *t, uint64_t n);
/* The first distance of the last (unbounded) bucket. */
uint64_t t5_last_start(const T5 *t);
void t5_free(T5 *t);

#endif
