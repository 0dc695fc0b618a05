/* term_eval.c -- a term's values on a sample through seqeval (term_eval.h). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "machine/seqeval.h"
#include "search/term_eval.h"

typedef struct {
	fmpz_t last; /* the value at the last position emitted */
} Last;

static void keep_last(void *ctx, const SeqEval *se, size_t pos)
{
	(void)pos;
	seqeval_value(se, 0, ((Last *)ctx)->last);
}

bool term_eval_sample(const Sample *S, const Store *st, Node t, int64_t *out)
{
	if (store_flags(st, t) & FLAG_FUTURE)
		return false;
	Last l;
	fmpz_init(l.last);
	SeqEval *se = seqeval_new(st, &t, 1, ACCEPT_LAST, keep_last, &l);
	uint8_t *w = xmalloc(S->nbits + 1);
	Sym *word = xmalloc((S->nbits + 1) * sizeof *word);
	bool ok = true;
	memset(out, 0, S->nbits * sizeof *out);
	for (size_t b = 0; b < S->nbits && ok; b++) {
		if (!sig_bit(S->valid, b))
			continue;
		size_t n = sample_word(S, b, w);
		for (size_t i = 0; i < n; i++)
			word[i] = S->letters[w[i]];
		/* ε: its only position is 0, the judged one */
		seqeval_word(se, word, n);
		ok = fmpz_fits_si(l.last);
		out[b] = ok ? fmpz_get_si(l.last) : 0;
	}
	free(word);
	free(w);
	seqeval_free(se);
	fmpz_clear(l.last);
	return ok;
}
