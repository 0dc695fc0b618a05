/* sim -- bit-exact simulation of a Model under a Semantics (fixed.h).
 *
 * The input is BOS followed by the word; position 0 is BOS, position i
 * the i-th letter.  Attention at position i reads positions 0..i (future
 * masked).  The simulator streams: push appends a letter and computes its
 * position through all layers, pop removes the last one (depth-first walks
 * over all words), so a prefix is never recomputed.
 *
 * Attention at position i, per head: logits z_ij = round(q_i.k_j -
 * slope*(i-j) + t5bias(i-j)) (exact, then rounded once), q and k rotated
 * first by i and j times the RoPE angles, weights e_ij = round(exp(z_ij))
 * (exactly rounded with MPFR), terms round(e_ij * v_j) (URPE: round(round(e_ij c(i-j)) v_j)),
 * then c_i = round(sum_j terms / sum_j e_ij).  The sums run over j = 0,
 * 1, ..., i in that order: exact under kneedeep, rounded after each
 * addition otherwise.  When the weights sum to 0 the head outputs the
 * average of the values (Knee-Deep as the Lean formalisation reads it;
 * with URPE a uniform row times C).  Zero terms are skipped, which changes
 * no sum.  Heads without query/key rows and with slope 0 (NoPE, T5, URPE)
 * have logits and URPE factors that are constant beyond some distance
 * `near`, and keep running sums of the keys beyond it (constant time per
 * position for NoPE, O(near) for T5 and URPE); heads without query/key
 * rows and a positive slope only visit the window where exp rounds to a
 * nonzero weight; the others (RoPE, content logits) visit every key.  The
 * sinusoidal features of a position are added to its embedding before
 * the input block.
 *
 * Ownership: a Sim borrows its Model (which must outlive it) and owns its
 * history.
 */
#ifndef TALLY_SIM_H
#define TALLY_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "transformer/fixed.h"
#include "transformer/model.h"

typedef struct Sim Sim;

Sim *sim_new(const Model *m, const Semantics *sem);
void sim_free(Sim *sim);
/* Back to the empty word (BOS only). */
void sim_reset(Sim *sim);
/* Appends a letter: token 1..nletters (alphabet[token-1]). */
void sim_push(Sim *sim, uint32_t token);
void sim_pop(Sim *sim);
size_t sim_length(const Sim *sim);
/* The output at the last position (BOS for the empty word); accepted iff
 * it is > 0. */
double sim_output(const Sim *sim);
bool sim_accepts(const Sim *sim);
/* The residual stream after `layer` (0: the embedding) at position pos
 * (0 = BOS), pos <= sim_length. */
const double *sim_residual(const Sim *sim, size_t pos, size_t layer);

/* Streaming: only the last position's residual stream is kept, and pop
 * is unavailable.  Memory stays constant in the word's length when
 * sim_uniform; otherwise each position keeps its values and keys (8
 * bytes per head and per key row).  Resets the simulator. */
void sim_set_streaming(Sim *sim, bool on);
/* Bytes held for the positions (grows with the word; saturates). */
size_t sim_history_bytes(const Sim *sim);
/* About the bytes sim_new and the first positions take for a model
 * (saturates), known before allocating them: a model may declare rows
 * that its file does not spell out. */
size_t sim_estimate(const Model *m);

/* The state that the future depends on, when every head has constant
 * logits (sim_uniform): the attention accumulators at the last position.
 * Saved as sim_state_size() Accs; loading one makes the simulator continue
 * from a word of the given length with that state (its residual history
 * is then unavailable, so no trace). */
bool sim_uniform(const Sim *sim);
size_t sim_state_size(const Sim *sim);
void sim_save_state(const Sim *sim, Acc *out);
void sim_load_state(Sim *sim, size_t length, const Acc *in);

/* ALiBi: the smallest distance d >= 1 at which a head of this slope gets
 * weight round(exp(-slope*d)) = 0 (content-free logits), or 0 when there
 * is none below 2^20. */
size_t sim_alibi_window(const Semantics *sem, double slope);

#endif
