/* exactness_counts.c -- how exact a count readout is (exactness.h).
 *
 * The proof is the construction's, under kneedeep only:
 *  - class [lo, hi]: the output is lo + sum_k [t >= k], each [t >= k] a
 *    Boolean component of the formula construction (a uniform head whose
 *    sign is exact at every length, Knee-Deep's theorem, or gates over
 *    such heads), added by weights 1 into a value in [lo, hi] that the
 *    precision holds (compile_min_p): exact at every length;
 *  - ratio: the head of t >= 0 sums the values of BOS and the prefix
 *    exactly and rounds once, so it outputs floor(t 2^s/(i+1))/2^s, the
 *    readout itself, at every length.
 * Other semantics round the sums or the values; no argument is made for
 * them.  The evidence besides the proof: every word up to a length of at
 * most COUNT_WORDS words (and COUNT_MAX_LEN letters) and COUNT_RANDOM
 * random words, every prefix,
 * against tally's exact evaluator (seqref.h, through simcheck.h); a
 * disagreement is a contradiction (exit 70).
 */
#include <config.h>
#include "transformer/exactness.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"
#include "transformer/simcheck.h"

enum {
	COUNT_WORDS = 1 << 12, /* words of the exhaustive part */
	COUNT_MAX_LEN = 128,   /* and its longest (each prefix is evaluated
				  from its start: quadratic in the length) */
	COUNT_RANDOM = 8,      /* random words ... */
	COUNT_RANDOM_LEN = 256 /* ... of this length */
};

static const char *argument(const Model *m)
{
	return m->readout == READOUT_CLASS
		       ? "kneedeep: the class output is lo plus the sum of the "
			 "Boolean components [t >= k], k = lo+1..hi, each exact "
			 "at every length (the sign of a floor-rounded average "
			 "is exact, Knee-Deep's theorem), and the sum lies in "
			 "[lo, hi], which the precision holds"
		       : "kneedeep: the ratio head sums BOS and the prefix "
			 "exactly and rounds once, so it outputs "
			 "floor(t 2^s/(i+1))/2^s, the readout itself, at every "
			 "length";
}

/* The longest length with at most COUNT_WORDS words, at most
 * COUNT_MAX_LEN (a one-letter alphabet). */
static size_t enum_length(size_t k)
{
	size_t len = 0, total = 1, level = 1;
	while (k && total + level * k <= COUNT_WORDS && len < COUNT_MAX_LEN) {
		level *= k;
		total += level;
		len++;
	}
	return len;
}

static char *evidence(const Model *m, const Mismatch *mm)
{
	Buf b = {0};
	for (size_t i = 0; i < mm->length; i++)
		buf_puts(&b, m->alphabet[mm->word[i] - 1]);
	char *w = buf_take(&b);
	buf_printf(&b, "%s (length %zu): the model outputs %g at its last "
		       "position, tally's evaluator's %s readout is %g",
		   mm->length ? w : "ε", mm->length, mm->model_value,
		   readout_name(m->readout), mm->want_value);
	free(w);
	return buf_take(&b);
}

void exactness_counts(const ExactInput *in, Exactness *e)
{
	const Model *m = in->m;
	memset(e, 0, sizeof *e);
	if (in->sem.kind != SEM_KNEEDEEP) {
		e->argument = xstrdup("none: a count readout is analysed under "
				      "kneedeep only");
		e->search_note = xstrdup("not run under this semantics");
		return;
	}
	e->proved = e->proved_all = true;
	e->proved_len = SIZE_MAX; /* every length: the basis is the proof */
	e->argument = xstrdup(argument(m));
	char *err = NULL;
	SimCheck *sc = simcheck_new(m, &in->sem, true, &err);
	if (!sc) { /* the compiler wrote the formula: it parses */
		e->contradiction = err;
		return;
	}
	Mismatch mm;
	size_t len = enum_length(m->nletters);
	simcheck_exhaustive(sc, len, &mm);
	e->searched = e->every_word = !mm.found;
	e->confirmed_len = len;
	e->visited = mm.words;
	e->search_note = xstrdup("the word budget");
	if (!mm.found && m->nletters) {
		free(mm.word);
		simcheck_sample(sc, COUNT_RANDOM, COUNT_RANDOM_LEN, 1, &mm);
		e->spot_words = COUNT_RANDOM;
		e->spot_len = e->spot_target = COUNT_RANDOM_LEN;
	}
	if (mm.found)
		e->contradiction = evidence(m, &mm);
	free(mm.word);
	simcheck_free(sc);
}
