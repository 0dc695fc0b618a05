/* atoms.c -- the letters and the bank's comparisons of a depth, as the
 * atoms of the partition test and the extraction (atoms.h). */
#include <config.h>

#include "search/atoms.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

void atoms_collect(const Bank *b, const Sample *S, unsigned d, bool with_diff,
		   Atoms *a)
{
	size_t hi = bank_first(b, d + 1);
	a->sig = xmalloc((S->nletters + hi) * sizeof *a->sig);
	a->entry = xmalloc((S->nletters + hi) * sizeof *a->entry);
	a->n = 0;
	const Share *sh = bank_share(b);
	a->sh = sh;
	a->mine = sh ? xmalloc(S->nletters + hi + 1) : NULL;
	for (size_t x = 0; x < S->nletters; x++) {
		if (sh)
			a->mine[a->n] = sh->rank == 0;
		a->sig[a->n] = S->letter + x * S->nwords;
		a->entry[a->n++] = SIZE_MAX - x;
	}
	for (size_t i = 0; i < hi; i++) {
		const Entry *e = bank_entry(b, i);
		if ((e->kind != ENTRY_ATOM && e->kind != ENTRY_LIN) ||
		    (!with_diff && e->linear))
			continue;
		if (sh)
			a->mine[a->n] = bank_mine(b, e);
		a->sig[a->n] = bank_canonical(b, e);
		a->entry[a->n++] = i;
	}
}

bool atoms_mine(const Atoms *a, size_t i)
{
	return !a->mine || a->mine[i];
}

void atoms_pin(Bank *b, Atoms *a, const size_t *idx, size_t n)
{
	if (!bank_share(b))
		return;
	size_t *ent = xmalloc((n + 1) * sizeof *ent), m = 0;
	for (size_t i = 0; i < n; i++)
		if (a->entry[idx[i]] < bank_count(b))
			ent[m++] = a->entry[idx[i]];
	bank_pin(b, ent, m);
	for (size_t i = 0; i < n; i++)
		if (a->entry[idx[i]] < bank_count(b))
			a->sig[idx[i]] = bank_canonical(b, bank_entry(b,
							a->entry[idx[i]]));
	free(ent);
}

void atoms_free(Atoms *a)
{
	free(a->sig);
	free(a->entry);
	free(a->mine);
}

Node atoms_node(Bank *b, const Sample *S, Store *st, size_t entry)
{
	if (entry > SIZE_MAX - S->nletters)
		return store_make_letter(st, S->letters[SIZE_MAX - entry]);
	return bank_node(b, entry);
}

void atoms_sig(const Bank *b, const Sample *S, const Atoms *a, size_t i,
	       Word64 *out)
{
	if (a->entry[i] > SIZE_MAX - S->nletters)
		memcpy(out, a->sig[i], S->nwords * sizeof(Word64));
	else
		bank_sig(b, bank_entry(b, a->entry[i]), out);
}
