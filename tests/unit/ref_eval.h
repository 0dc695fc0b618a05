/* ref_eval -- a deliberately naive reference evaluator for the tests.
 *
 * It restates the semantics of logic.md §1-§3 as directly as possible so
 * that src/eval.c can be checked against it: plain recursion over the
 * formula at one position, every count recomputed from scratch by a loop
 * over positions, every integer an fmpz.  It is exponential in the count
 * depth and shares no code with src/eval.c: it reads the DAG only through
 * the Store's inspection API.
 *
 * A "word" here is a Sym array of length len whose entries may be
 * SYM_NONE, a position where every letter test is false; the end-of-
 * sequence convention is expressed by appending such a marker.  Positions
 * run 1..len; position 0 (the empty word's) is allowed too.
 *
 * Ownership: nothing is retained between calls; the Store and the word are
 * borrowed.
 */
#ifndef TALLY_REF_EVAL_H
#define TALLY_REF_EVAL_H

#include <stdbool.h>
#include <stddef.h>

#include <flint/fmpz.h>

#include "core/store.h"

bool ref_bool(const Store *s, Node f, const Sym *w, size_t len, size_t i);
void ref_int(const Store *s, Node t, const Sym *w, size_t len, size_t i,
	     fmpz_t out);

/* The value of any node (Booleans as 0/1) into out. */
void ref_value(const Store *s, Node n, const Sym *w, size_t len, size_t i,
	       fmpz_t out);

/* The verdict on w[0..n-1]: at position n (0 for the empty word), or with
 * eos at the appended marker n+1. */
bool ref_accepts(const Store *s, Node f, const Sym *w, size_t n, bool eos);

#endif
