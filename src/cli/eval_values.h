/* eval_values -- what `tally eval` prints for sequence outputs: the
 * values a SeqEval emits, collected per word and output (logic/README.md
 * "Sequence outputs").
 *
 * Per output: its values at positions 1.. (--per-position; a Boolean as
 * 1 or 0, an integer in decimal), and its value at the judged position,
 * which is the verdict of a Boolean output and the answer of a
 * count-valued one.
 *
 * Ownership: an EvalValues owns its buffers, JSON arrays and integers;
 * eval_values_free() releases them.  The Store passed to init is only
 * read then.
 */
#ifndef TALLY_EVAL_VALUES_H
#define TALLY_EVAL_VALUES_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "base/buf.h"
#include "machine/seqeval.h"

typedef struct {
	size_t n;          /* outputs */
	bool *is_int;      /* per output: count-valued */
	bool any_int;      /* some output is count-valued */
	bool per_position; /* collect every position, not only the last */
	bool json;         /* collect JSON arrays rather than text */
	Buf *text;         /* per output: "v1 v2 ..." */
	json_t **seq;      /* per output (json): [v1, v2, ...] */
	fmpz *last;        /* per output: the value at the judged position */
} EvalValues;

/* Whether any of the outputs is an integer term. */
bool eval_values_any_int(const Store *s, const Node *roots, size_t n);
void eval_values_init(EvalValues *v, const Store *s, const Node *roots,
		      size_t n, bool per_position, bool json);
void eval_values_free(EvalValues *v);
/* Forgets the values of the word before (a new word begins). */
void eval_values_clear(EvalValues *v);
/* A SeqEmit: ctx is the EvalValues. */
void eval_values_emit(void *ctx, const SeqEval *se, size_t pos);
/* A Boolean output's verdict; count-valued outputs never reject. */
bool eval_values_accepted(const EvalValues *v, size_t r);
/* The text column of output r: its sequence, or its judged value
 * (accept/reject for a Boolean, the number for a count). */
void eval_values_print(const EvalValues *v, size_t r, FILE *out);
/* Adds "value"/"value_per_input" or, per position,
 * "values"/"values_per_input" to a record. */
void eval_values_json(const EvalValues *v, json_t *o);

#endif
