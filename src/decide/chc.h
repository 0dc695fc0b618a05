/* chc -- equivalence of past-only formulas and programs, for every length,
 * by an inductive invariant of the product machine (sound, incomplete).
 *
 * Both roots are compiled into one streaming machine (machine.h).  Its
 * persistent slots (counts, letter-driven linear forms, Y latches) and
 * the position modulo the MOD period are the columns of one relation
 * Inv.  The machine's step program is translated instruction by
 * instruction into Z3 terms, giving constrained Horn clauses:
 *   Inv(initial state);
 *   Inv(x) -> Inv(step_c(x))                  for every letter c;
 *   Inv(x) & verdict1(step_c(x)) != verdict2(step_c(x)) -> Bad.
 * (Under --accept-at=eos the Bad clause steps over the end marker
 * instead; under the default the empty word is compared directly.)
 * Z3's Spacer engine (fixedpoint API) either proves Bad unreachable --
 * then the invariant it found is re-checked by plain solver calls
 * (initiation, consecution per letter, safety) before MR_EQUIVALENT is
 * returned, with the invariant as certificate, columns named by the
 * subformulas they hold -- or finds Bad reachable (MR_UNKNOWN with a hint
 * in .bound: explore finds the shortest word), or gives up.
 *
 * Formulas with #> are refused (MR_NOT_APPLICABLE): their state depends
 * on the unread suffix.
 *
 * Ownership: nothing is retained; the result owns its texts.
 */
#ifndef TALLY_CHC_H
#define TALLY_CHC_H

#include "decide/method.h"

void chc_decide(const Query *q, MethodResult *out);

#endif
