/* runs -- a word in run-length form (a^100000000000000000001 b): the one
 * representation of a word that every decision method returns and that
 * runeval.h reads and evaluates.
 *
 * Ownership: a Runs owns its arrays and counts; runs_clear() frees them.
 */
#ifndef TALLY_RUNS_H
#define TALLY_RUNS_H

#include <stddef.h>

#include <flint/fmpz.h>

#include "base/sym.h"

/* A word in run-length form: letter[i] repeated count[i] times (count >= 1).
 * Short words are runs too, so one representation serves every method. */
typedef struct {
	size_t n, cap;
	Sym *letter;
	fmpz *count;
} Runs;

void runs_init(Runs *r);
void runs_clear(Runs *r);
void runs_push(Runs *r, Sym letter, const fmpz_t count);
void runs_push_ui(Runs *r, Sym letter, unsigned long count);
/* Total length into out. */
void runs_length(const Runs *r, fmpz_t out);

#endif
