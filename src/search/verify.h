/* verify -- checking a found formula against its target beyond the
 * search sample: on a fresh, larger sample and on every word up to a
 * length, both through the evaluator (eval.h), never through the
 * signatures that found it; and through the decision engine of tally
 * equiv: its complete methods (presburger at depth <= 1, mona on the
 * threshold fragment) prove equivalence, else explore checks every word
 * up to a longer length (or proves it when the state space closes).  The kind of evidence is stated: "proof", "bound" (every
 * word up to a length) or "sample only".
 *
 * Ownership: a Verification owns its text (verify_free).
 */
#ifndef TALLY_VERIFY_H
#define TALLY_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "search/sample.h"
#include "search/search.h"

enum { VERIFY_CEX = 4, VERIFY_CEX_MAXLEN = 4096 };

typedef struct {
	bool ok;           /* no disagreement anywhere */
	size_t fresh_bad;  /* disagreements on the fresh sample */
	size_t exh_bad;    /* on all words up to exh_len */
	unsigned exh_len;
	size_t exh_words;
	int decided;       /* -1 not asked, else a MethodStatus (method.h) */
	size_t bound;      /* the decision engine's length bound */
	const char *kind;  /* "proof", "bound" or "sample only" */
	char *text;        /* one line for the output */
	/* Words where the formula and the target differ, shortest first
	 * (letter indices of the sample's alphabet): from the fresh sample,
	 * all words up to the length, then the decision engine. */
	SampleWord cex[VERIFY_CEX];
	size_t ncex;
} Verification;

/* fresh: the fresh sample (for labelled words: the search sample, whose
 * labelled positions are the only ones judged); exh: all words up to a
 * length, or NULL. */
/* lim: the user's limits (limit.h), which also bound the decision
 * engine's run (NULL: none); when one is reached the evidence is what
 * was checked before it, and lim->hit says so. */
struct Limits;
void verify_formula(const Target *t, Store *st, Node f, const Sample *fresh,
		    const Sample *exh, unsigned decide_len, struct Limits *lim,
		    Verification *v);
void verify_free(Verification *v);

#endif
