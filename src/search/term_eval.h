/* term_eval -- an integer term's value at every node of a sample, through
 * the sequence evaluator (seqeval.h): the independent path against which
 * the values terms.h computes from counts are checked, and the values of
 * a count-valued search target.
 *
 * Ownership: the caller owns out (S->nbits entries; 0 at padding).
 */
#ifndef TALLY_TERM_EVAL_H
#define TALLY_TERM_EVAL_H

#include <stdbool.h>
#include <stdint.h>

#include "search/sample.h"

/* False when a value does not fit in 64 bits, or the term reads future
 * counts (#>: a prefix's value is not its own). */
bool term_eval_sample(const Sample *S, const Store *st, Node t, int64_t *out);

#endif
