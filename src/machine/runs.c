/* runs.c -- run-length words (see runs.h). */
#include <config.h>
#include "machine/runs.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

void runs_init(Runs *r)
{
	memset(r, 0, sizeof *r);
}

void runs_clear(Runs *r)
{
	for (size_t i = 0; i < r->n; i++)
		fmpz_clear(&r->count[i]);
	free(r->letter);
	free(r->count);
	runs_init(r);
}

void runs_push(Runs *r, Sym letter, const fmpz_t count)
{
	if (fmpz_sgn(count) <= 0)
		return;
	/* Adjacent runs of one letter merge: the form stays canonical. */
	if (r->n && r->letter[r->n - 1] == letter) {
		fmpz_add(&r->count[r->n - 1], &r->count[r->n - 1], count);
		return;
	}
	size_t cap = r->cap;
	mem_grow((void **)&r->letter, &cap, r->n + 1, sizeof *r->letter);
	mem_grow((void **)&r->count, &r->cap, r->n + 1, sizeof *r->count);
	r->letter[r->n] = letter;
	fmpz_init_set(&r->count[r->n], count);
	r->n++;
}

void runs_push_ui(Runs *r, Sym letter, unsigned long count)
{
	fmpz_t c;
	fmpz_init_set_ui(c, count);
	runs_push(r, letter, c);
	fmpz_clear(c);
}

void runs_length(const Runs *r, fmpz_t out)
{
	fmpz_zero(out);
	for (size_t i = 0; i < r->n; i++)
		fmpz_add(out, out, &r->count[i]);
}
