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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* A formula of depth m - 2 for the prediction task of L_m (m >= 3):
 * Q_x & S(b a b ..., m - 2), x the letter of block m.  On a nonempty
 * prefix of a member (first letter a, at most m blocks) the alternating
 * subsequence b a b ... of length m - 2 means at least m - 1 blocks, and
 * the last letter being block m's then means exactly m. */
Node hierarchy_predict_formula(Store *st, Sym a, Sym b, unsigned m);

/* A two-sided formula of depth k for D_k = L_(2k-1) (k >= 1):
 * T(a b a ..., 2k - 1) & !T(b a b ..., 2k - 1), where T(s, 2k - 1) says
 * the word has s as a subsequence: some position holds its middle
 * letter s_k with s_1 .. s_k ending there (k - 1 past counts deep) and
 * s_k .. s_(2k-1) starting there (k - 1 future counts deep).  A word
 * with a(ba)^(k-1) as a subsequence and not b(ab)^(k-1) starts with a,
 * ends with a and has exactly 2k - 1 blocks. */
Node hierarchy_dk_formula(Store *st, Sym a, Sym b, unsigned k);

/* Membership in L_k by counting runs, written apart from the formulas
 * above (a second path for them): w over letters 0 (a) and 1 (b). */
bool hierarchy_member(const uint8_t *w, size_t n, unsigned k);

#endif
