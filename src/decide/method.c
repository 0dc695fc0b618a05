/* method.c -- the shared pieces of the decision methods: their results. */
#include <config.h>
#include "decide/method.h"

#include <stdlib.h>
#include <string.h>

#include "machine/eval.h"
#include "base/mem.h"

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
