/* seqeval -- output sequences: the value of each output node, Boolean or
 * integer, at every position of a word (logic/README.md "Sequence
 * outputs").
 *
 * The evaluator of eval.h answers one verdict per word; a sequence output
 * needs a value per position.  A SeqEval runs a full machine (every node
 * a slot, machine.h) and hands each position's values to its emit
 * callback as soon as they are known: past-only outputs stream (one step
 * per letter, nothing of the word kept), outputs with future counts #>
 * take the whole word and 1 + (#> nesting) passes over it, emitting in
 * the last.  Positions are those of eval.h: 1..n, n + 1 (the end marker)
 * under ACCEPT_EOS, and 0 for the empty word under ACCEPT_LAST, so the
 * last position emitted is always the judged one.  Values are exact.
 *
 * Ownership: a SeqEval borrows its Store (which must outlive it) and owns
 * its machine and state; seqeval_free() releases them.
 */
#ifndef TALLY_SEQEVAL_H
#define TALLY_SEQEVAL_H

#include <stdbool.h>
#include <stddef.h>

#include <flint/fmpz.h>

#include "base/buf.h"
#include "core/store.h"
#include "machine/eval.h"

typedef struct SeqEval SeqEval;
/* Called once per position, in order; seqeval_value() reads the values
 * there. */
typedef void (*SeqEmit)(void *ctx, const SeqEval *se, size_t pos);

SeqEval *seqeval_new(const Store *s, const Node *roots, size_t nroots,
		     AcceptAt accept, SeqEmit emit, void *ctx);
void seqeval_free(SeqEval *se);
/* True when no root has a future count: then seqeval_push streams. */
bool seqeval_streams(const SeqEval *se);
/* Streaming (only when seqeval_streams): reset, push letters (each emits
 * its position), end (emits the empty word's position 0 or the end
 * marker's). */
void seqeval_reset(SeqEval *se);
void seqeval_push(SeqEval *se, Sym letter);
void seqeval_end(SeqEval *se);
/* A whole word, any output: emits every position. */
void seqeval_word(SeqEval *se, const Sym *word, size_t n);
/* Inside emit: the value of roots[r] (a Boolean as 0 or 1). */
void seqeval_value(const SeqEval *se, size_t r, fmpz_t out);
/* A value as eval and gen write sequences: exact, in decimal. */
void seqeval_put(Buf *b, const fmpz_t v);

#endif
