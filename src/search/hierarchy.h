/* hierarchy -- the separating family L_k and its two tasks (logic.md §6).
 *
 * L_k (k >= 1) is the set of words over {a, b} made of exactly k
 * nonempty alternating blocks starting with a.  Recognition needs depth
 * exactly k; the next-token prediction task of L_m (accept exactly the
 * nonempty prefixes of members that are themselves members, judged on
 * those prefixes only) needs depth exactly m - 2 (m >= 3).
 *
 * Ownership: nodes belong to the Store.
 */
#ifndef TALLY_HIERARCHY_H
#define TALLY_HIERARCHY_H

#include "core/store.h"

/* S(abab..., k) & !S(baba..., k), built directly (logic.md §6.3): the
 * prelude's L_1..L_5 for k <= 5. */
Node hierarchy_lk(Store *st, Sym a, Sym b, unsigned k);

/* The nonempty prefixes of members of L_m over {a, b}: the first letter
 * is a and there are at most m blocks (no alternating subsequence
 * abab... of length m + 1).  The prediction task of L_m, as a formula
 * comparison: guard & f = guard & L_m. */
Node hierarchy_prefix_guard(Store *st, Sym a, Sym b, unsigned m);

/* The theory's least depth: k for recognition, m - 2 for prediction. */
unsigned hierarchy_theory(bool predict, unsigned k);

#endif
