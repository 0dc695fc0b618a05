/* unary -- the complete decision method for a one-letter alphabet.
 *
 * On the words a^n a past-only formula's value at position i does not
 * depend on n, so each side is one sequence of verdicts indexed by the
 * position.  Every node's sequence is computed exactly and symbolically
 * as finitely many pieces: on an interval of positions [lo, hi) and for
 * each residue r of i modulo P (the lcm of the MOD moduli, 1 without
 * MOD), a Boolean is a constant and an integer is a * floor(i / P) + b.
 * Counts, sums, scaling, ?:, Y and MOD keep that shape; a comparison,
 * min or max splits a piece where a linear function changes sign, which
 * happens at most twice per residue.  So there are finitely many pieces,
 * the last one infinite (the sequences are eventually periodic), and the
 * first position where the sides differ -- a shortest counterexample,
 * which may be astronomically long -- or its absence is found exactly.
 * logic/README.md ("Deciding one-letter alphabets") gives the argument.
 *
 * Applies when the query's alphabet has exactly one letter, no side uses
 * #>, under --accept-at=last, and P <= UNARY_MAX_PERIOD.
 *
 * Ownership: nothing is retained; the result owns its runs and texts.
 */
#ifndef TALLY_UNARY_H
#define TALLY_UNARY_H

#include "decide/method.h"

#define UNARY_MAX_PERIOD 720

void unary_decide(const Query *q, MethodResult *out);

#endif
