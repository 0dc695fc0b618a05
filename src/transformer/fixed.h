/* fixed -- the number semantics of the transformer simulator.
 *
 * Three semantics (extensions.md §8):
 *  - kneedeep: values in F_{p,s} = { m / 2^s : -2^(p-1) <= m < 2^(p-1) },
 *    every operation rounded toward -inf with saturation, except the two
 *    sums over positions inside attention, which are exact;
 *  - rounded-sums: the same, but the attention sums are rounded too,
 *    after every addition, in the order BOS, 1, 2, ..., i;
 *  - ieee: IEEE binary32 (fp32), bfloat16 (bf16) or binary16 (fp16),
 *    round to nearest even with subnormals (MPFR), attention sums
 *    accumulated in the format in the same order.
 * Outside attention, an affine map (a dot product plus a bias) is computed
 * exactly and rounded once.
 *
 * Every value of every semantics is held in a double: F_{p,s} with p <= 32
 * and the three IEEE formats embed exactly.
 *
 * Ownership: plain values; no allocation escapes.
 */
#ifndef TALLY_FIXED_H
#define TALLY_FIXED_H

#include <stdbool.h>
#include <stdint.h>

#include <mpfr.h>

typedef enum { SEM_KNEEDEEP, SEM_ROUNDED_SUMS, SEM_IEEE } SemKind;
typedef enum { IEEE_FP32, IEEE_BF16, IEEE_FP16 } IeeeFormat;

#define FIXED_MAX_P 32

typedef struct {
	SemKind kind;
	int p, s;        /* fixed-point modes */
	IeeeFormat fmt;  /* ieee */
} Semantics;

/* "kneedeep", "rounded-sums", "ieee=fp32|bf16|fp16". */
bool semantics_parse(const char *text, Semantics *out);
/* The name as semantics_parse reads it (static string). */
const char *semantics_name(const Semantics *sem);
/* "P,S" with 2 <= P <= 32 and 0 <= S <= P - 2. */
bool precision_parse(const char *text, int *p, int *s);

/* The largest and smallest values of F_{p,s} (mantissa form). */
int64_t fixed_max_m(int p);
int64_t fixed_min_m(int p);

/* Rounds an exact value to the semantics' format: fixed point takes
 * num / 2^k (k >= 0) and floors to F_{p,s} with saturation; the wide
 * integer is exact.  Returns the value as a double. */
double sem_round_dyadic(const Semantics *sem, __int128 num, int k);
/* floor(num/den) in F_{p,s} (fixed) or num/den to nearest (ieee); den > 0
 * for fixed point.  num and den are values of the format's grid given as
 * doubles. */
double sem_div(const Semantics *sem, double num, double den);
/* A real value (given with enough precision to be exact, or a bound of
 * it) rounded to the format: floor with saturation in F_{p,s}, nearest
 * even with subnormals and infinities in IEEE; monotone in x. */
double sem_round_mpfr(const Semantics *sem, mpfr_srcptr x);
/* round(exp(x)) exactly (MPFR with a Ziv loop for floor). */
double sem_exp(const Semantics *sem, double x);
/* round(x * y), round(x + y) */
double sem_mul(const Semantics *sem, double x, double y);
double sem_add(const Semantics *sem, double x, double y);
/* round(sum_k w[k] * x[k] + b): exact, then rounded once. */
double sem_affine(const Semantics *sem, const double *w, const double *x,
		  int n, double b);
/* ieee only: a + b, a * b or a / b (op '+', '*', '/') rounded by MPFR
 * directly, the reference of the fast path the operations take. */
double sem_reference_op(const Semantics *sem, char op, double a, double b);
/* A double that is a weight of the model (in F_{p,s}) in the format. */
double sem_convert(const Semantics *sem, double x);

/* Exact accumulator of the kneedeep attention sums: mantissas at scale
 * 2^-s in 128 bits (exact below 2^96 terms). */
typedef struct {
	__int128 m;
	double v; /* rounded-sums and ieee: the running rounded value */
} Acc;
void acc_zero(Acc *a);
void acc_add(const Semantics *sem, Acc *a, double term);
/* The quotient of two accumulators, rounded; den_zero_avg is used when
 * the denominator is 0 (the plain average of the values, Lean's reading
 * of Knee-Deep's fallback). */
double acc_div(const Semantics *sem, const Acc *num, const Acc *den);
bool acc_is_zero(const Semantics *sem, const Acc *a);

/* A dyadic rational as exact text: "m" or "m/2^k" written as "m/D". */
char *dyadic_text(double x);
/* Parses "m", "m/D" (D a power of two) or a JSON integer text. */
bool dyadic_parse(const char *text, double *out);

#endif
