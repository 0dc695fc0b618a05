/* presburger -- the complete decision method for depth <= 1.
 *
 * At the judged position a formula of count depth <= 1 without Y, MOD or
 * #> is a Boolean combination of "the letter there is sigma" and linear
 * inequalities over the Parikh vector (#[psi] with psi of depth 0 is the
 * sum of the counts of the letters where psi holds).  Each side becomes a
 * quantifier-free linear integer formula over variables v_tau >= 0, one
 * per letter; for each last letter sigma (v_sigma >= 1) Z3 minimises the
 * length v_1 + ... + v_k subject to "the sides differ", and the empty word
 * is decided directly.  The answer is exact for every length: equivalent,
 * or a shortest separating word (any arrangement of the minimal Parikh
 * vector ending in sigma; lengths of any size).  Under --accept-at=eos the
 * judged position is the end marker (no letter) and one query suffices.
 *
 * Ownership: nothing is retained; the result's runs and texts belong to
 * the MethodResult.
 */
#ifndef TALLY_PRESBURGER_H
#define TALLY_PRESBURGER_H

#include "decide/method.h"

void presburger_decide(const Query *q, MethodResult *out);

#endif
