/* simcheck -- a simulated Model next to tally's exact evaluator (eval.h)
 * of the formula the model carries: verdicts, traces, and the
 * differential checks of `tally simulate --check-against-formula`.
 *
 * Ownership: a SimCheck borrows its Model (which must outlive it) and
 * owns its Simulator, Store, Evaluator and alphabet.
 */
#ifndef TALLY_SIMCHECK_H
#define TALLY_SIMCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "base/diag.h"
#include "transformer/fixed.h"
#include "transformer/mismatch.h"
#include "transformer/model.h"
#include "core/alphabet.h"

typedef struct SimCheck SimCheck;

/* --semantics=ARG for the commands: false after a usage message. */
bool simcheck_semantics_option(const char *arg, Semantics *out);
/* SEM[,SEM]... (for --find-breakdown): *n of them, at most max. */
bool simcheck_semantics_list(const char *arg, Semantics *out, size_t max,
			     size_t *n);

/* Parses the formulas the model carries (its "formula", the labels of
 * components and counts) and checks that they mention only its letters:
 * NULL with *err (malloc'd, naming the field) otherwise.  with_formula:
 * the model must carry a formula the evaluator can stream (the checks,
 * the trace's logic rows). */
SimCheck *simcheck_new(const Model *m, const Semantics *sem,
		       bool with_formula, char **err);
void simcheck_free(SimCheck *sc);
const Alphabet *simcheck_alphabet(SimCheck *sc);
Diag *simcheck_diag(SimCheck *sc);
/* The token (1..nletters) of a letter of simcheck_alphabet. */
uint32_t simcheck_token(const SimCheck *sc, Sym letter);
/* The user's limits (limit.h) the checks poll; NULL (the default):
 * none.  A check a limit stopped reports what it compared and returns
 * EXIT_LIMIT. */
struct Limits;
void simcheck_limits(SimCheck *sc, struct Limits *lim);
/* Run words in constant memory (no trace, no exhaustive check after). */
void simcheck_streaming(SimCheck *sc);
/* The transformer's verdict on a word of tokens. */
bool simcheck_run(SimCheck *sc, const uint32_t *w, size_t n);
/* The same letter by letter, for words read as they come: begin, push
 * each token (false once a limit of simcheck_limits is reached: the
 * word is unfinished), then the verdict. */
void simcheck_begin(SimCheck *sc);
bool simcheck_push(SimCheck *sc, uint32_t token);
bool simcheck_accepts(SimCheck *sc);
/* The output value w.h + b at the last position pushed (a sequence
 * readout's value there). */
double simcheck_output(SimCheck *sc);
/* The formula's verdict (with_formula only). */
bool simcheck_formula(SimCheck *sc, const uint32_t *w, size_t n);
/* Per layer and position, each component next to the formula's value. */
void simcheck_trace(SimCheck *sc, const uint32_t *w, size_t n, FILE *out);

/* Every word up to maxlen (depth-first, both machines streaming); keeps
 * the shortest disagreement, the first in alphabet order among those. */
void simcheck_exhaustive(SimCheck *sc, size_t maxlen, Mismatch *out);
/* k random words of length len (seeded), every prefix compared; the
 * first disagreeing prefix. */
void simcheck_sample(SimCheck *sc, size_t k, size_t len, uint64_t seed,
		     Mismatch *out);
/* The two checks as `tally simulate` prints them (json: one record,
 * "check", "semantics", "result" agreement/disagreement/limit,
 * "compared", and for a disagreement "length", "word",
 * "transformer_accepts"); exit status. */
int simcheck_all(SimCheck *sc, size_t maxlen, FILE *out, bool json);
int simcheck_random(SimCheck *sc, size_t k, size_t len, uint64_t seed,
		    FILE *out, bool json);
/* The shortest word on which the model under the SimCheck's semantics
 * disagrees with kneedeep (breakdown.h), confirmed against the formula;
 * exit status (EXIT_LIMIT when maxstates or a limit was reached).
 * Prints a line on out, or with json its record; record (may be NULL)
 * gets that record (a new reference): semantics, precision ("F_{p,s}" or
 * the IEEE format) and precision_bits (p, or the significand's bits),
 * max_length, result ("found", "none", "limit", "unsupported"), states,
 * agrees_up_to, and for "found" length, word, transformer_accepts,
 * formula_accepts and confirmed. */
int simcheck_breakdown(SimCheck *sc, size_t maxlen, size_t maxstates,
		       FILE *out, bool json, json_t **record);

#endif
