/* verify.c -- a found formula against its target, by evaluation. */
#include <config.h>

#include "verify.h"

#include <stdint.h>
#include <stdlib.h>

#include "buf.h"
#include "mem.h"

/* Disagreements of f with t on S (SIZE_MAX: not evaluable); the first
 * bad word's text in *bad_word. */
static size_t check_on(const Target *t, const Store *st, Node f,
		       const Sample *S, char **bad_word)
{
	Word64 *care = xmalloc(2 * S->nwords * sizeof(Word64));
	Word64 *label = care + S->nwords;
	size_t bad = SIZE_MAX, first;
	*bad_word = NULL;
	if (target_sig(t, S, st, care, label)) {
		bad = search_check(S, st, f, care, label, &first);
		if (bad && bad != SIZE_MAX)
			*bad_word = sample_word_text(S, first);
	}
	free(care);
	return bad;
}

void verify_formula(const Target *t, const Store *st, Node f,
		    const Sample *fresh, const Sample *exh, Verification *v)
{
	Buf b = {0};
	char *w1 = NULL, *w2 = NULL;
	v->kind = "sample only";
	v->fresh_bad = check_on(t, st, f, fresh, &w1);
	v->exh_bad = 0;
	v->exh_len = exh ? exh->n : 0;
	v->exh_words = exh ? exh->npoints : 0;
	if (exh && t->kind != TARGET_LABELS)
		v->exh_bad = check_on(t, st, f, exh, &w2);
	v->ok = v->fresh_bad == 0 && v->exh_bad == 0;
	if (t->kind == TARGET_LABELS)
		buf_printf(&b, "%s every label", v->fresh_bad ? "DISAGREES with"
							     : "consistent with");
	else if (v->fresh_bad == SIZE_MAX)
		buf_puts(&b, "not checked (the formula has #>)");
	else
		buf_printf(&b, "%s the fresh sample", v->fresh_bad ? "DISAGREES on"
								 : "agrees on");
	if (w1)
		buf_printf(&b, " (e.g. \"%s\")", w1);
	if (exh && t->kind != TARGET_LABELS && v->exh_bad != SIZE_MAX)
		buf_printf(&b, "; %s all %zu words of length <= %u%s%s%s",
			   v->exh_bad ? "DISAGREES on" : "agrees on", v->exh_words,
			   v->exh_len, w2 ? " (e.g. \"" : "", w2 ? w2 : "",
			   w2 ? "\")" : "");
	buf_printf(&b, "; evidence: %s", v->kind);
	v->text = buf_take(&b);
	free(w1);
	free(w2);
}

void verify_free(Verification *v)
{
	free(v->text);
	v->text = NULL;
}
