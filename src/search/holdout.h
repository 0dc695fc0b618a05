/* holdout -- labelled words kept out of a search, to tell a formula that
 * generalises from one that memorises the sample.
 *
 * A search on labelled words always succeeds at some depth: a Boolean
 * combination of enough comparisons is a lookup table of the sample.
 * So part of the words (a share chosen by a hash of each word and a
 * seed, the same whatever their order) is held out; the formula found
 * on the rest is judged on them, and its size is set against the size of
 * the sample it was found on.  A formula generalises when it gets every
 * held-out word right and is small beside the sample (HOLDOUT_SIZE_SHARE
 * of its letters at most).
 *
 * Ownership: a Holdout owns its arrays; the words are borrowed.
 */
#ifndef TALLY_HOLDOUT_H
#define TALLY_HOLDOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/store.h"
#include "search/sample.h"

/* The default share held out (percent), the fewest labelled words for a
 * holdout at all, and the largest size of a generalising formula as a
 * share of the sample's letters (1/HOLDOUT_SIZE_SHARE). */
enum { HOLDOUT_PERCENT = 20, HOLDOUT_MIN_WORDS = 20, HOLDOUT_SIZE_SHARE = 4 };

typedef struct {
	bool *held;        /* by word: held out */
	size_t nheld;      /* words held out */
	size_t train_letters; /* letters (and ends) of the words searched */
} Holdout;

/* Marks about percent % of the n words held out (none when n is below
 * HOLDOUT_MIN_WORDS or percent is 0), keeping a word of each label on
 * both sides when there is one to keep. */
void holdout_split(Holdout *h, const SampleWord *w, const bool *label,
		   size_t n, unsigned percent, uint64_t seed);
void holdout_free(Holdout *h);

/* How many held-out words f labels right (the evaluator; letters: the
 * Syms of the words' letter indices). */
size_t holdout_right(const Holdout *h, const Store *st, Node f,
		     const Sym *letters, const SampleWord *w,
		     const bool *label, size_t n);

/* Whether a formula of this size that gets `right` of the held-out words
 * right generalises. */
bool holdout_generalises(const Holdout *h, size_t right,
			 unsigned long long size);

#endif
