/* suggest -- "did you mean" for a misspelt name: the closest of a list of
 * candidates by edit distance (insertions, deletions, substitutions and
 * swaps of neighbours), if it is close enough to be a typo.
 *
 * Ownership: returns one of the candidates (borrowed) or NULL.
 */
#ifndef TALLY_SUGGEST_H
#define TALLY_SUGGEST_H

#include <stddef.h>

/* The candidate closest to word (the first on ties), when its distance
 * is at most a third of word's length (at most 3; so no suggestion for
 * names of one or two characters); else
 * NULL.  A candidate equal to word is not a suggestion. */
const char *suggest_closest(const char *word, size_t len,
			    const char *const *candidates, size_t n);

/* A suggester that takes candidates one at a time. */
typedef struct {
	const void *syms;  /* the caller's, for a visitor (a SymTab) */
	const char *word;
	size_t len, best_dist;
	const char *best;
} Suggest;

void suggest_init(Suggest *s, const char *word, size_t len);
void suggest_offer(Suggest *s, const char *candidate);

#endif
