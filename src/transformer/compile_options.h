/* compile_options -- what a compilation is asked for (the positional
 * encoding, the readout, the precision) and what it reports back
 * (CompileInfo), with the bounds of what may be asked: the types that
 * compile.h's callers and the compiler's parts (compile_state.h) share,
 * apart from the functions so that the parts need not see those. */
#ifndef TALLY_TRANSFORMER_COMPILE_OPTIONS_H
#define TALLY_TRANSFORMER_COMPILE_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "transformer/model.h"

typedef enum {
	PE_NOPE, PE_ALIBI, PE_SINUSOIDAL, PE_ROPE, PE_T5, PE_URPE
} PeKind;

/* The readouts (model.h) of a count-valued root t:
 *  - class [lo, hi]: the output is lo + sum_{k=lo+1..hi} [t >= k] =
 *    min(max(t, lo), hi), each [t >= k] a Boolean component as for any
 *    formula, read out by weights 1 and the bias lo: exact at every
 *    length whenever the comparisons are (kneedeep: always);
 *  - ratio: t must be linear, sum_k a_k #[psi_k] + c (no min, max or
 *    conditional: those pick between counts by a Boolean, which no single
 *    average does); the output is the head of the comparison t >= 0
 *    itself, whose uniform average over BOS and the prefix is
 *    floor_s(t(i)/(i+1)): exact in F_{p,s} at every length under
 *    kneedeep, and t(i) = ceil((i+1) * output) while i+1 <= 2^s.
 * At most COMPILE_MAX_CLASSES comparisons for a class readout. */
#define COMPILE_MAX_CLASSES 1024

typedef struct {
	int p, s;
	FfnKind ffn;
	PeKind pe; /* Y needs alibi, t5 or urpe; MOD sinusoidal or rope */
	Readout readout;     /* accept (default), per_position: a formula;
				class, ratio: an integer term */
	int64_t lo, hi;      /* class: the bounds */
} CompileOptions;

/* What the construction needs: every weight and value lies in
 * [-range, range]; for precision s it is correct for all lengths under
 * kneedeep iff p >= min_p(s) (see compile_min_p). */
typedef struct {
	double range;
	unsigned depth;
	size_t heads;
	double slope;   /* the ALiBi slope of the Y heads (0: none) */
	size_t window;  /* its window: weights round to 0 from this distance */
	double t5_bias; /* -C, the T5 bias of the buckets a Y head ignores */
	size_t features; /* sinusoidal features (one per MOD atom) */
	double rope_amplitude; /* the largest A of the RoPE MOD heads */
	size_t max_fanin; /* the largest number of inputs of an and/or gate */
} CompileInfo;

/* The largest m of MOD(m, r) through RoPE: each head is checked on two
 * periods by the simulator, about (2m)^2/2 key visits (a second at the
 * bound). */
#define COMPILE_ROPE_MAX_MOD 2048

#endif
