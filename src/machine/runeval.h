/* runeval -- run-length words (a^100000000000000000001 b): reading,
 * printing, and evaluating them run by run.
 *
 * Inside a run of one letter every count is linear in the position as
 * long as every Boolean below a count keeps its value, so the evaluator
 * steps the compiled machine (machine.h) explicitly only around the
 * positions where something changes: after each explicit step it computes
 * exactly (fmpz) how many further positions keep every comparison's sign,
 * every min/max's choice and every Y's value, and jumps over them.  The
 * work is independent of the run lengths.  With MOD under a count or Y
 * the same happens one period (the lcm of the moduli) at a time: three
 * periods explicitly, then as many whole periods as keep the pattern.
 * Limits, reported as errors: formulas with #>, and MOD periods beyond
 * 1024 under a count, are evaluated letter by letter, so only on words
 * of at most RUNEVAL_MAX_EXPLICIT letters.
 *
 * Text form: whitespace-separated items, each a letter (a letter of the
 * alphabet by name, or a string of one-character letters) optionally
 * followed by ^N (N >= 1, any size), which repeats its last letter N
 * times: "a^3 b", "ab^2" (= abb), "open^2 close".
 *
 * Ownership: a RunEval borrows its Store; strings returned are malloc'd.
 */
#ifndef TALLY_RUNEVAL_H
#define TALLY_RUNEVAL_H

#include <stdbool.h>

#include "machine/eval.h"
#include "machine/runs.h"
#include "core/alphabet.h"

#define RUNEVAL_MAX_EXPLICIT ((unsigned long)1 << 22)

typedef struct RunEval RunEval;

RunEval *runeval_new(const Store *s, const Node *roots, size_t nroots,
		     AcceptAt accept);
void runeval_free(RunEval *re);
/* accepted[r] for each root; false with *err (malloc'd) when the word is
 * beyond the limits above. */
bool runeval_word(RunEval *re, const Runs *w, bool *accepted, char **err);

/* Parses text[0..n) into out (cleared first); false with *err. */
bool runs_parse(const char *text, size_t n, const Alphabet *a, Runs *out,
		char **err);
/* Letter by letter when at most plain_max letters (one-character letters
 * written together, others separated by spaces), else run-length form. */
char *runs_format(const Runs *w, const SymTab *syms, unsigned long plain_max);
/* The letters of a word of at most `max` letters into a malloc'd array;
 * NULL when longer. */
Sym *runs_expand(const Runs *w, unsigned long max, size_t *n);

#endif
