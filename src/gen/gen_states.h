/* gen_states -- the words of a language, length by length, as a layered
 * graph of merged machine states, for `tally gen`: how many members and
 * non-members each length has, uniform random ones of either class, and
 * which letters may still lead to a member.
 *
 * Level d holds the distinct states of the compiled machine (machine.h)
 * after the words of length d, merged as explore.c merges them (equal
 * persistent state and equal verdicts: equal futures), with one more
 * merge: a count that only grows (or only shrinks) and is only compared
 * with constants is clamped just past the largest constant it meets
 * (beyond it every comparison has a fixed sign), so L_k has a few states
 * per level instead of a polynomial number.  A state's class is its
 * verdict bits (GEN_IN: the language, GEN_DOMAIN: the optional second
 * root, true when absent); a member is a word whose last state has both.
 *
 * Counting is exact (fmpz); sampling draws an exact uniform number below
 * a count and walks down the graph (gen_rng.h), so each member (or
 * non-member) of a length is equally likely.
 *
 * Only formulas without future counts (#>) have such a graph, and only
 * up to the state budget: gen_states_build says why not otherwise.
 *
 * Ownership: a GenStates borrows the Store and the Alphabet (both must
 * outlive it) and owns everything else.
 */
#ifndef TALLY_GEN_STATES_H
#define TALLY_GEN_STATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <flint/fmpz.h>

#include "gen/gen_rng.h"
#include "base/limit.h"
#include "core/store.h"
#include "core/alphabet.h"

enum { GEN_IN = 1, GEN_DOMAIN = 2 };

typedef struct GenStates GenStates;

/* The graph of roots[0] (and the domain roots[1] when nroots is 2) over
 * the alphabet's letters, levels 0..max_len.  NULL when the formula has
 * future counts, when more than max_states states (or a limit) would be
 * needed; *why then says which (malloc'd), and lim->hit is set when a
 * user limit stopped it. */
GenStates *gen_states_build(const Store *s, const Node *roots, size_t nroots,
			    const Alphabet *alpha, size_t max_len,
			    size_t max_states, Limits *lim, char **why);
void gen_states_free(GenStates *g);

size_t gen_states_size(const GenStates *g);    /* states in all levels */
size_t gen_states_clamped(const GenStates *g); /* counts clamped */
size_t gen_states_levels(const GenStates *g);  /* max_len + 1 */

/* Walking: the start state (level 0), a successor by letter index (the
 * alphabet's order), a state's class bits. */
uint32_t gen_states_start(const GenStates *g);
uint32_t gen_states_next(const GenStates *g, uint32_t state, size_t letter);
unsigned gen_states_class(const GenStates *g, uint32_t state);
/* The class of a whole word of letter indices. */
unsigned gen_states_word(const GenStates *g, const uint32_t *w, size_t n);

/* The number of members (member true) or non-members in the domain of
 * each length, from one forward pass. */
void gen_states_total(const GenStates *g, size_t n, bool member, fmpz_t out);

/* Sampling at one length: gen_states_aim(n) counts completions towards
 * length n (both classes); then gen_states_draw writes a uniform random
 * word of that class (false when there is none) and gen_states_unrank
 * the word of a given rank (0 <= rank < total), in a fixed order. */
void gen_states_aim(GenStates *g, size_t n);
bool gen_states_draw(const GenStates *g, bool member, GenRng *r,
		     uint32_t *w);
void gen_states_unrank(const GenStates *g, bool member, const fmpz_t rank,
		       uint32_t *w);
/* The parts of a draw: a uniform rank below the class's count (false
 * when the class is empty), and the words of k ranks (w: k times the
 * aim's length letters). */
bool gen_states_draw_rank(const GenStates *g, bool member, GenRng *r,
			  fmpz_t rank);
void gen_states_unrank_many(const GenStates *g, bool member,
			    const fmpz *ranks, size_t k, uint32_t *w);

/* Shared out over a job (share_job set when the graph was built; see
 * gen_share.h): every rank builds the graph alike and holds the counts
 * of its own states only; gen_states_aim and gen_states_unrank_many
 * (so gen_states_draw) are then collective, and gen_states_unrank must
 * not be called.  gen_states_poll is the limit check of the code that
 * drives them: limit_poll in one process (and without a graph, g NULL);
 * in a job, the limit the ranks last agreed on, so that every rank
 * takes the same branch. */
bool gen_states_poll(const GenStates *g, Limits *lim);

/* Prediction: after gen_states_horizon(h) (h < levels), whether a member
 * of length at most h can still be reached from a state at its level. */
void gen_states_horizon(GenStates *g, size_t h);
bool gen_states_can_finish(const GenStates *g, uint32_t state);
/* A shortest completion from a state that can finish: its letters into
 * w (room for h letters), its length returned. */
size_t gen_states_witness(const GenStates *g, uint32_t state, uint32_t *w);

#endif
