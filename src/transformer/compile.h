/* compile -- past-only TL[#] formulas and C-RASP programs to rounded
 * transformers with exactly depth(phi) layers (Knee-Deep, Yang, Cadilhac
 * & Chiang 2025, thm:TLCl_to_rtfr; extensions.md §5).
 *
 * The formula is first lowered to the core grammar (lower.h): letters, !,
 * &, |, and comparisons L < 0 of linear forms L = sum_k a_k #[psi_k] + c.
 * Every Boolean subformula gets a residual component holding 0/1; depth-0
 * ones come from the embedding (a function of the token), one of depth l
 * is computed by the feed-forward block of layer l.  Every comparison of
 * depth l gets one attention head in layer l: uniform attention (no
 * query/key rows) over BOS and the prefix whose value at a letter is
 * -sum_k a_k [psi_k(j)] and at BOS is -(c+1) (corrected for the psi_k
 * that hold at BOS), so that the head outputs floor(-(L+1)/(i+1)) at
 * precision s.  Under floor rounding its sign is exact at every length:
 * it is >= 0 iff L < 0.  The comparison is then the gate ge0(head).
 *
 * With ALiBi (alibi), Y psi is one more head in the layer after psi's:
 * content-free logits -a(i-j) with the slope a of compile_alibi_slope, so
 * that weights round to 0 from distance 2 on and the head averages psi at
 * positions i-1 and i only (BOS counts as false); the gates read
 * psi(i-1) off that average.  Each Y then costs a layer: the number of
 * layers is the depth with Y counted like a count (Knee-Deep's ALiBi
 * theorem is the other direction: an ALiBi transformer reads like a
 * TL[#, Y] formula of its depth).
 *
 * With T5 (t5), Y psi is one head in the layer after psi's with the T5
 * bucket biases (causal, 32 buckets, max_distance 128) 0 for bucket 1
 * (distance 1) and -C for every other bucket, C the least integer with
 * round(exp(-C)) = 0: the head reads psi(i-1) exactly (BOS counts as
 * false; at BOS every weight is 0 and the fallback average is 0).
 *
 * With URPE (urpe), Y psi is one uniform head (NoPE logits) in the layer
 * after psi's, times the Toeplitz matrix with c(1) = 1 and 0 elsewhere
 * (Luo et al. 2022), value 2 psi(j) - 1 (-1 at BOS): its sum is
 * 2 psi(i-1) - 1, so the head outputs floor((2 psi(i-1) - 1)/(i+1)),
 * whose sign is exact at every length; Y psi is the gate ge0, and not
 * BOS (where the head gives 0).
 *
 * With RoPE (rope), MOD(m, r) is a head of layer 1 whose only weight
 * that does not round to 0 is BOS's, and only when i = r (mod m); the
 * head then outputs 1, and otherwise, every weight being 0, the plain
 * average floor(2^s/(i+1))/2^s < 1 (see build_mod_rope).  MOD costs a
 * layer when it occurs inside a count.  compile_formula checks the heads
 * on two periods (m <= COMPILE_ROPE_MAX_MOD).
 *
 * With sinusoidal features (sinusoidal), MOD(m, r) is the feature
 * cos(2 pi (i - r)/m) (angle 2/m, phase -2r/m, times pi), rounded exactly,
 * and the gate ge0(x - 1): under floor rounding the feature is 1 exactly
 * when i = r (mod m) and below 1 otherwise, at every precision.  MOD and
 * the depth-0 Booleans over it are computed by the model's input block
 * (position-wise, before layer 1), so MOD costs no layer.
 *
 * That is one head per comparison (one per linear form of counts), not
 * one per count: averages of single counts rounded separately lose the
 * sign of their difference once i + 1 > 2^s, so a comparison needs its
 * whole difference inside one exact attention sum.
 *
 * Ownership: the Model returned belongs to the caller (model_free); the
 * Store grows (lowering adds nodes).
 */
#ifndef TALLY_COMPILE_H
#define TALLY_COMPILE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/store.h"
#include "transformer/compile_options.h"
#include "transformer/model.h"

/* "nope", "alibi", ...: false for another name. */
bool pe_kind_parse(const char *text, PeKind *out);
const char *pe_kind_name(PeKind pe);

/* The ALiBi slope of a Y head at precision (p, s): the smallest a in
 * F_{p,s} whose window is exactly 2 (round(exp(-a)) > 0 = round(exp(-2a)))
 * and for which floor(2^s e1 / (1 + e1)) >= 1, e1 = round(exp(-a)), so
 * that the average over {i-1, i} tells whether position i-1 holds; 0 when
 * none exists. */
double compile_alibi_slope(int p, int s);

/* -C for the T5 Y heads: the least integer C with round(exp(-C)) = 0 in
 * F_{p,s} (kneedeep), or 0 when none is in F_{p,s}. */
double compile_t5_bias(int p, int s);

/* Builds the model of the root over the alphabet (token t >= 1 is
 * letters[t-1]) with o->readout: a Boolean root for accept and
 * per_position, an integer term for class and ratio; source is the
 * formula text stored in the model.  False with a message in *err
 * (malloc'd) for future counts, Y or MOD, a formula whose lowering
 * explodes, or a root the readout cannot read out (the message says
 * why). */
bool compile_formula(Store *s, Node root, const Sym *letters,
		     size_t nletters, const char *source,
		     const CompileOptions *o, Model *out, CompileInfo *info,
		     char **err);

/* The smallest p for which the construction is exact at precision s, or
 * 0 when none up to FIXED_MAX_P is. */
int compile_min_p(const CompileInfo *info, FfnKind ffn, int s);

#endif
