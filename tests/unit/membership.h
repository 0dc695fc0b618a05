/* membership -- hand-written membership functions for the prelude
 * languages (logic/prelude.tally), in plain C with no reference to the
 * logic: loops over the characters of the word, written from the
 * languages' textbook definitions (logic.md §6.1, §10).  They are the
 * independent side of the prelude tests in check_eval.c.
 *
 * Ownership: a static table; words are borrowed.
 */
#ifndef TALLY_MEMBERSHIP_H
#define TALLY_MEMBERSHIP_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
	const char *name;     /* the prelude definition */
	const char *alphabet; /* one character per letter, in shortlex order */
	bool (*member)(const char *w, size_t n);
} MembershipLang;

extern const MembershipLang membership_langs[];
extern const size_t membership_nlangs;

/* L_k: exactly k maximal nonempty blocks, alternating, starting with a. */
bool membership_lk(unsigned k, const char *w, size_t n);
/* Is p a scattered subsequence of w? */
bool membership_subseq(const char *p, const char *w, size_t n);

#endif
