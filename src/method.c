/* method.c -- the shared pieces of the decision methods: run-length words
 * and results. */
#include <config.h>
#include "method.h"

#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "mem.h"

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

void method_result_init(MethodResult *r)
{
	memset(r, 0, sizeof *r);
	r->status = MR_UNKNOWN;
	runs_init(&r->witness);
}

void method_result_free(MethodResult *r)
{
	runs_clear(&r->witness);
	free(r->certificate);
	free(r->reason);
	method_result_init(r);
}

void query_codes_init(QueryCodes *qc, const Query *q,
		      const MachineCodes *codes)
{
	size_t cap = q->nletters ? q->nletters : 1;
	qc->code = xmalloc(cap * sizeof *qc->code);
	qc->sym = xmalloc(cap * sizeof *qc->sym);
	qc->n = 0;
	qc->ncodes = codes->ncodes;
	qc->is_letter = xcalloc(codes->ncodes, sizeof *qc->is_letter);
	qc->end_code = (uint32_t)codes->ncodes - 1;
	qc->accept = q->accept;
	for (size_t i = 0; i < q->nletters; i++) {
		uint32_t code = machine_code(codes, q->alphabet[i]);
		if (qc->is_letter[code])
			continue;
		qc->is_letter[code] = true;
		qc->code[qc->n] = code;
		qc->sym[qc->n++] = q->alphabet[i];
	}
}

void query_codes_free(QueryCodes *qc)
{
	free(qc->code);
	free(qc->sym);
	free(qc->is_letter);
	memset(qc, 0, sizeof *qc);
}

bool method_empty_word_differs(const Query *q)
{
	Evaluator *ev = eval_new(q->store, q->root, 2, q->accept);
	bool acc[2];
	Sym none = SYM_NONE;
	eval_word(ev, &none, 0, acc);
	eval_free(ev);
	return acc[0] != acc[1];
}
