/* holdout.c -- held-out labelled words (see holdout.h). */
#include <config.h>
#include "search/holdout.h"

#include <stdlib.h>

#include "base/mem.h"
#include "base/splitmix.h"
#include "machine/eval.h"

/* A word's place in [0, 100): its letters hashed with the seed, so that
 * a word is held out or not whatever the order of the files. */
static unsigned place(const SampleWord *w, uint64_t seed)
{
	uint64_t state = seed;
	for (size_t i = 0; i < w->len; i++) {
		state ^= w->w[i];
		(void)splitmix64_next(&state);
	}
	state ^= w->len;
	return (unsigned)splitmix64_below(&state, 100);
}

void holdout_split(Holdout *h, const SampleWord *w, const bool *label,
		   size_t n, unsigned percent, uint64_t seed)
{
	h->held = xcalloc(n ? n : 1, sizeof *h->held);
	h->nheld = 0;
	h->train_letters = 0;
	bool hold = percent > 0 && n >= HOLDOUT_MIN_WORDS;
	size_t kept[2] = {0, 0};
	for (size_t i = 0; i < n; i++) {
		h->held[i] = hold && place(&w[i], seed) < percent;
		kept[label[i]] += !h->held[i];
	}
	/* A label the search would not see at all: its first word stays. */
	for (size_t i = 0; i < n; i++)
		if (h->held[i] && kept[label[i]] == 0) {
			h->held[i] = false;
			kept[label[i]] = 1;
		}
	for (size_t i = 0; i < n; i++) {
		h->nheld += h->held[i];
		if (!h->held[i])
			h->train_letters += w[i].len + 1;
	}
}

void holdout_free(Holdout *h)
{
	free(h->held);
	h->held = NULL;
}

size_t holdout_right(const Holdout *h, const Store *st, Node f,
		     const Sym *letters, const SampleWord *w,
		     const bool *label, size_t n)
{
	Evaluator *ev = eval_new(st, &f, 1, ACCEPT_LAST);
	size_t right = 0;
	for (size_t i = 0; i < n; i++) {
		if (!h->held[i])
			continue;
		eval_reset(ev);
		for (size_t j = 0; j < w[i].len; j++)
			eval_push(ev, letters[w[i].w[j]]);
		right += eval_accepts(ev, 0) == label[i];
	}
	eval_free(ev);
	return right;
}

bool holdout_generalises(const Holdout *h, size_t right,
			 unsigned long long size)
{
	return right == h->nheld &&
	       size * HOLDOUT_SIZE_SHARE <= (unsigned long long)h->train_letters;
}
