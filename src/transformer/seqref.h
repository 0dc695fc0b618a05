/* seqref -- what a sequence-readout model (model.h: per_position, class,
 * ratio) must output at a position, computed from the formula it carries
 * by tally's exact evaluator (seqeval.h), independently of the model:
 * the Boolean 0/1, the integer min(max(t, lo), hi), or floor(t 2^s/(i+1))
 * / 2^s.  The checks of simcheck.h and exactness.h compare it with the
 * simulator's output bit for bit.
 *
 * A prefix is evaluated from scratch (the depth-first walks over all words
 * pay its length per word; seqeval has no snapshots).
 *
 * Ownership: a SeqRef borrows its Store and Model (which must outlive it)
 * and owns its evaluator.
 */
#ifndef TALLY_SEQREF_H
#define TALLY_SEQREF_H

#include <stddef.h>

#include "core/store.h"
#include "transformer/model.h"

typedef struct SeqRef SeqRef;

/* NULL when the root has future counts (a future-masked model cannot
 * compute it). */
SeqRef *seqref_new(const Store *st, Node root, const Model *m);
void seqref_free(SeqRef *r);
/* The readout's value at the last position of the word (position 0, the
 * empty word's, when n = 0), exact in a double. */
double seqref_want(SeqRef *r, const Sym *word, size_t n);
/* A value of the readout as text: "0"/"1", the integer, or the exact
 * dyadic "m/2^s" (malloc'd). */
char *seqref_text(Readout readout, double v);

#endif
