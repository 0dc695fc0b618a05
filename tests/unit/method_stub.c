/* method_stub.c -- TEMPORARY: the Runs and MethodResult helpers of
 * method.h until src/method.c (issue 7 part A) is on main; delete then. */
#include <config.h>

#include <stdlib.h>

#include "mem.h"
#include "method.h"

void runs_init(Runs *r)
{
	r->n = r->cap = 0;
	r->letter = NULL;
	r->count = NULL;
}

void runs_clear(Runs *r)
{
	for (size_t i = 0; i < r->n; i++)
		fmpz_clear(r->count + i);
	free(r->letter);
	free(r->count);
	runs_init(r);
}

void runs_push(Runs *r, Sym letter, const fmpz_t count)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 4;
		r->letter = xrealloc(r->letter, r->cap * sizeof *r->letter);
		r->count = xrealloc(r->count, r->cap * sizeof *r->count);
	}
	r->letter[r->n] = letter;
	fmpz_init_set(r->count + r->n, count);
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
		fmpz_add(out, out, r->count + i);
}

void method_result_init(MethodResult *r)
{
	r->status = MR_UNKNOWN;
	runs_init(&r->witness);
	r->witness_shortest = false;
	r->bound = r->states = 0;
	r->certificate = r->reason = NULL;
}

void method_result_free(MethodResult *r)
{
	runs_clear(&r->witness);
	free(r->certificate);
	free(r->reason);
	r->certificate = r->reason = NULL;
}
