/* seqref.c -- the reference values of sequence readouts (seqref.h). */
#include <config.h>
#include "transformer/seqref.h"

#include <math.h>
#include <stdio.h>

#include <flint/fmpz.h>

#include "base/mem.h"
#include "machine/seqeval.h"
#include "transformer/fixed.h"

struct SeqRef {
	const Model *m;
	SeqEval *se;
	fmpz_t val; /* the root's value at the last position emitted */
};

static void on_value(void *ctx, const SeqEval *se, size_t pos)
{
	(void)pos;
	seqeval_value(se, 0, ((SeqRef *)ctx)->val);
}

SeqRef *seqref_new(const Store *st, Node root, const Model *m)
{
	SeqRef *r = xcalloc(1, sizeof *r);
	r->m = m;
	fmpz_init(r->val);
	r->se = seqeval_new(st, &root, 1, ACCEPT_LAST, on_value, r);
	if (!seqeval_streams(r->se)) {
		seqref_free(r);
		return NULL;
	}
	return r;
}

void seqref_free(SeqRef *r)
{
	if (!r)
		return;
	seqeval_free(r->se);
	fmpz_clear(r->val);
	free(r);
}

/* floor(t 2^s / (n+1)) / 2^s, exact (the quotient is an integer below
 * 2^53 in magnitude whenever the model's range holds it). */
static double ratio(const fmpz_t t, int s, size_t n)
{
	fmpz_t q;
	fmpz_init(q);
	fmpz_mul_2exp(q, t, (ulong)s);
	fmpz_fdiv_q_ui(q, q, (ulong)n + 1);
	double v = ldexp(fmpz_get_d(q), -s);
	fmpz_clear(q);
	return v;
}

double seqref_want(SeqRef *r, const Sym *word, size_t n)
{
	seqeval_reset(r->se);
	for (size_t i = 0; i < n; i++)
		seqeval_push(r->se, word[i]);
	if (n == 0)
		seqeval_end(r->se); /* emits position 0 */
	const Model *m = r->m;
	switch (m->readout) {
	case READOUT_CLASS:
		if (fmpz_cmp_si(r->val, (slong)m->class_lo) < 0)
			return (double)m->class_lo;
		if (fmpz_cmp_si(r->val, (slong)m->class_hi) > 0)
			return (double)m->class_hi;
		return fmpz_get_d(r->val);
	case READOUT_RATIO:
		return ratio(r->val, m->s, n);
	default:
		return fmpz_is_zero(r->val) ? 0 : 1;
	}
}

char *seqref_text(Readout readout, double v)
{
	if (readout == READOUT_RATIO)
		return dyadic_text(v);
	char tmp[32];
	if (readout == READOUT_CLASS)
		snprintf(tmp, sizeof tmp, "%.0f", v);
	else
		snprintf(tmp, sizeof tmp, "%d", v > 0);
	return xstrdup(tmp);
}
