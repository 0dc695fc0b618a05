/* gen_unrank -- gen_states.h's sampling at one length in machine words:
 * the counts of the aim (gen_states_aim) copied into one flat table of
 * fixed-width numbers per class, a rank drawn as so many 64-bit words
 * and the walk down the graph comparing and subtracting those words.
 *
 * Why: the counts of a length of 100 need two words each; as fmpz they
 * are pointers to separate GMP numbers, and the walk of a word made 200
 * comparisons through them (a cache miss each on a graph of 10^5
 * states).  The draws are exactly those of gen_rng_below_fmpz (the same
 * random numbers consumed, the same rank) and the words those of
 * gen_states_unrank, so a seed gives the same dataset as before; the
 * unit tests hold both against each other.
 *
 * A rank is gen_states_limbs(member) words, least significant first.
 * Shared out over a job (gen_share.h) there is no table: the ranks are
 * turned into fmpz and unranked collectively.
 *
 * Ownership: as gen_states.h; the tables belong to the GenStates.
 */
#ifndef TALLY_GEN_UNRANK_H
#define TALLY_GEN_UNRANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/gen_rng.h"
#include "gen/gen_states.h"

/* Words a rank of the class at the aim's length takes (at least 1). */
size_t gen_states_limbs(const GenStates *g, bool member);
/* A uniform rank below the class's count at the aim (false when the
 * class is empty): the numbers gen_rng_below_fmpz would draw. */
bool gen_states_draw_limbs(const GenStates *g, bool member, GenRng *r,
			   uint64_t *rank);
/* The words of k ranks (each gen_states_limbs words) into w (k times the
 * aim's length letters) and, when path is not NULL, the states each
 * walks through (k times the aim's length + 1: path[i] after i
 * letters).  Collective over a job, as gen_states_unrank_many. */
void gen_states_unrank_limbs(const GenStates *g, bool member,
			     const uint64_t *ranks, size_t k, uint32_t *w,
			     uint32_t *path);
/* A word given as another, base, with letter[0] at at[0] and letter[1]
 * at at[1] (at[0] <= at[1]; equal: one letter changed); path: the states
 * base walked through (as gen_states_unrank_limbs writes them), or
 * NULL. */
typedef struct {
	const uint32_t *base, *path;
	size_t at[2];
	uint32_t letter[2];
} GenMutant;

/* The classes of k <= GEN_REWALK_MAX such words of length n (base
 * NULL: none, cls[j] left): a walk starts at the first change when the
 * path is known and stops where it meets the old one again, and the k
 * walks go side by side (their loads overlap). */
enum { GEN_REWALK_MAX = 16 };
void gen_states_rewalk(const GenStates *g, size_t n, size_t k,
		       const GenMutant *m, unsigned *cls);

#endif
