/* gen_label -- the labels of `tally gen`'s words, from the evaluator
 * (eval.h), checked against the class the sampler meant and the
 * family's membership function (gen_data.h); a sequence output's value
 * at every position (seqeval.h), checked against the verdicts and the
 * family's value function.
 *
 * A GenLabeler has its own evaluator and scratch, so that several label
 * the words of a chunk on threads at once (gen --jobs): labels are a
 * function of the word alone, so the dataset's bytes do not depend on
 * the number of threads.  A disagreement is not printed here: the
 * labeler keeps its message (and the prefix of the word it is about)
 * for the caller, which reports it in the dataset's order.
 *
 * Ownership: a GenLabeler borrows the spec and the state graph; it
 * owns its evaluator and scratch.
 */
#ifndef TALLY_GEN_LABEL_H
#define TALLY_GEN_LABEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "gen/gen_data.h"
#include "gen/gen_states.h"
#include "machine/eval.h"
#include "machine/seqeval.h"

typedef struct {
	const GenSpec *sp;
	const GenStates *gs;
	Evaluator *ev; /* roots: the language, then the domain */
	bool streams;
	size_t nl;
	uint8_t *pos, *pred; /* the labels of the last word */
	Sym *syms;
	char *text;
	SeqEval *se; /* the output per position, or NULL */
	fmpz *vals;  /* its values at positions 0..n (0: the empty word) */
	long *fam;   /* a family's values at positions 1..n */
	size_t maxlen;
	Buf why;  /* the disagreement, when gen_label returned false */
	size_t why_n; /* the prefix of the word it is about */
} GenLabeler;

void gen_labeler_init(GenLabeler *L, const GenSpec *sp, const GenStates *gs,
		      size_t maxlen);
void gen_labeler_free(GenLabeler *L);

/* The label of w[0..n) (and L->pos, L->pred, L->vals as the spec asks;
 * with an output, vals[n] is the judged value), checked
 * against intended (0 or 1, -1 none); false on a disagreement (L->why). */
bool gen_label(GenLabeler *L, const uint32_t *w, size_t n, int intended,
	       bool *label);

#endif
