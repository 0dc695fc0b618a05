/* crosscheck -- the second path a proof takes before it is printed.
 *
 * A method's proof (equivalent, valid, unsatisfiable) or bounded answer
 * ("equivalent up to length N") rests on its own encoding: a solver's
 * invariant, a Presburger formula, a MONA automaton, explore's merged
 * states.  An error in an encoding can pass the method's own re-check,
 * so decision.c also evaluates both sides with the evaluator (eval.h) on
 * every word up to a small length before it prints the claim: words of
 * the query's alphabet, one letter per letter code (letters that no side
 * tests behave alike), as many as CROSSCHECK_WORDS allows.  A word on
 * which they differ is an internal error, never a verdict.
 *
 * Ownership: borrows the Query; the witness Runs is the caller's.
 */
#ifndef TALLY_CROSSCHECK_H
#define TALLY_CROSSCHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "decide/method.h"

/* Words evaluated at most (every word up to the largest length whose
 * words all fit). */
#define CROSSCHECK_WORDS 20000
/* The longest words evaluated over a one-letter alphabet. */
#define CROSSCHECK_MAX_LENGTH 400

/* The length up to which every word is evaluated: all words up to it
 * number at most CROSSCHECK_WORDS (and it is at most max_length when
 * max_length > 0). */
size_t crosscheck_length(size_t nletters, size_t max_length);

/* Evaluates both roots on every word up to `length` letters.  True when
 * they agree on all of them; false with a word on which they differ in
 * *witness (shortest first). */
bool crosscheck_words(const Query *q, size_t length, Runs *witness);

#endif
