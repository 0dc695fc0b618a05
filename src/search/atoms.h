/* atoms -- the atoms a depth of the search works with: the letters and
 * the bank's count comparisons of depth <= d, as signatures with their
 * entries (search.c, parts.c, extract.c, separate.c).
 *
 * Letters come first, as entries SIZE_MAX - x (letter x); the
 * comparisons follow in the bank's order, by their canonical signatures
 * (polarity does not matter for a partition).  In a bank shared over
 * processes (share.h) every rank lists every atom but computes with those
 * it owns (mine: the letters on rank 0), and holds the signatures of
 * those and of the ones pinned (atoms_pin); sig is NULL for the others.
 *
 * Ownership: an Atoms owns its arrays (atoms_free); the signatures are
 * borrowed from the Sample and the Bank, which must outlive it.
 */
#ifndef TALLY_ATOMS_H
#define TALLY_ATOMS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/share.h"
#include "search/bank.h"
#include "search/sample.h"

typedef struct {
	const Word64 **sig;
	size_t *entry;
	size_t n;
	bool *mine;      /* NULL: one process, all */
	const Share *sh; /* the bank's (NULL: one process) */
} Atoms;

/* The letters and the comparisons of depth <= d (with_diff: also those
 * that use differences of counts). */
void atoms_collect(const Bank *b, const Sample *S, unsigned d, bool with_diff,
		   Atoms *a);
void atoms_free(Atoms *a);
/* This process computes with atom i. */
bool atoms_mine(const Atoms *a, size_t i);
/* Collective (shared bank): the signatures of atoms idx[0..n) on every
 * rank.  One process: nothing to do. */
void atoms_pin(Bank *b, Atoms *a, const size_t *idx, size_t n);
/* The formula of an atom's entry (a letter, or the bank entry's Node). */
Node atoms_node(Bank *b, const Sample *S, Store *st, size_t entry);
/* The actual signature of atom i (the letter's, or the entry's own:
 * negated back when the canonical one is the negation). */
void atoms_sig(const Bank *b, const Sample *S, const Atoms *a, size_t i,
	       Word64 *out);

#endif
