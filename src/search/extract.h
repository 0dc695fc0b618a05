/* extract -- the formula of a depth the partition test accepted
 * (search.h): greedy atoms, a small enumeration over them, two-literal
 * and greedy conjunctions and their duals, a matching bank entry, the
 * smallest of them; failing all, a DNF over the greedy atoms (flagged as
 * large).  With noisy labels, also the smallest two-literal conjunction
 * that gets at most a given number of words wrong.
 *
 * Over processes (share.h) every step is collective and picks what one
 * process would (gains and literals reduced over ranks, nodes built in
 * one order), so every rank's Store grows alike.
 *
 * Ownership: formulas belong to the Store; nothing is kept.
 */
#ifndef TALLY_EXTRACT_H
#define TALLY_EXTRACT_H

#include <stddef.h>

#include "search/atoms.h"
#include "search/search.h"

/* r->formula, r->large and r->chosen for the depth r->depth, where the
 * atoms a determine label on care; formulas without difference atoms are
 * preferred when those atoms give a small one. */
void extract_formula(Bank *b, const Sample *S, Store *st, Atoms *a,
		     const Word64 *care, const Word64 *label, SearchResult *r);
/* Replaces r->formula by a smaller conjunction of two literals (or the
 * negation of one) that gets at most tol words of label wrong on care,
 * if there is one. */
void extract_tolerant(Bank *b, const Sample *S, Store *st, Atoms *a,
		      const Word64 *care, const Word64 *label, size_t tol,
		      SearchResult *r);

#endif
