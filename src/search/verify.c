/* verify.c -- a found formula against its target, by evaluation. */
#include <config.h>

#include "search/verify.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/limit.h"
#include "search/hierarchy.h"
#include "base/mem.h"
#include "decide/decision.h"
#include "decide/method.h"

static void add_cex(Verification *v, const uint8_t *w, size_t len)
{
	if (v->ncex >= VERIFY_CEX || len > VERIFY_CEX_MAXLEN)
		return;
	for (size_t i = 0; i < v->ncex; i++)
		if (v->cex[i].len == len && memcmp(v->cex[i].w, w, len) == 0)
			return;
	v->cex[v->ncex].w = xmalloc(len + 1);
	memcpy(v->cex[v->ncex].w, w, len);
	v->cex[v->ncex++].len = len;
}

/* Disagreements of f with t on S (SIZE_MAX: not evaluable); the first
 * bad word's text in *bad_word, the shortest bad words into v->cex (bits
 * go by length in the tree). */
static size_t check_on(const Target *t, const Store *st, Node f,
		       const Sample *S, char **bad_word, Verification *v)
{
	size_t nw = S->nwords;
	Word64 *care = xmalloc(3 * nw * sizeof(Word64));
	Word64 *label = care + nw, *sig = label + nw;
	size_t bad = SIZE_MAX;
	*bad_word = NULL;
	if (target_sig(t, S, st, care, label) && sample_eval(S, st, f, sig)) {
		bad = 0;
		uint8_t *w = xmalloc(S->nbits + 1);
		for (size_t i = 0; i < nw; i++) {
			Word64 d = (sig[i] ^ label[i]) & care[i];
			bad += (size_t)__builtin_popcountll(d);
			for (; d && v->ncex < VERIFY_CEX; d &= d - 1) {
				size_t bit = i * 64 + (size_t)__builtin_ctzll(d);
				if (!*bad_word)
					*bad_word = sample_word_text(S, bit);
				add_cex(v, w, sample_word(S, bit, w));
			}
		}
		free(w);
	}
	free(care);
	return bad;
}

/* The decision engine's witness as letter indices of S (false when a
 * letter is not S's or the word is too long to add). */
static void witness_cex(const MethodResult *r, const Sample *S, Verification *v)
{
	fmpz_t len;
	fmpz_init(len);
	runs_length(&r->witness, len);
	if (fmpz_cmp_ui(len, VERIFY_CEX_MAXLEN) <= 0) {
		size_t n = fmpz_get_ui(len), k = 0;
		uint8_t *w = xmalloc(n + 1);
		bool ok = true;
		for (size_t i = 0; i < r->witness.n && ok; i++) {
			size_t x = 0;
			while (x < S->nletters && S->letters[x] != r->witness.letter[i])
				x++;
			ok = x < S->nletters;
			for (ulong j = fmpz_get_ui(r->witness.count + i); ok && j > 0; j--)
				w[k++] = (uint8_t)x;
		}
		if (ok)
			add_cex(v, w, k);
		free(w);
	}
	fmpz_clear(len);
}

static int cmp_sym(const void *x, const void *y)
{
	Sym p = *(const Sym *)x, q = *(const Sym *)y;
	return p < q ? -1 : p > q;
}

/* The decision engine's budget for one verification: its portfolio of
 * every method side by side (decision.h), within the user's deadline. */
#define VERIFY_BUDGET 2.0

/* The one call site of the decision engine: f against the target (for
 * the prediction task, both restricted to the prefixes of members). */
static void decide_check(const Target *t, Store *st, Node f, const Sample *S,
			 unsigned maxlen, Limits *lim, Verification *v, Buf *b)
{
	v->decided = -1;
	Node target = t->node;
	if (t->kind == TARGET_PREDICT) {
		if (S->nletters < 2)
			return;
		Node g = hierarchy_prefix_guard(st, S->letters[0], S->letters[1], t->m);
		target = store_make_and2(st, g, hierarchy_lk(st, S->letters[0],
							       S->letters[1], t->m));
		f = store_make_and2(st, g, f);
	} else if (t->kind != TARGET_FORMULA) {
		return;
	}
	Sym *alpha = xmalloc(S->nletters * sizeof *alpha);
	memcpy(alpha, S->letters, S->nletters * sizeof *alpha);
	qsort(alpha, S->nletters, sizeof *alpha, cmp_sym);
	Query q = {.store = st, .root = {f, target}, .alphabet = alpha,
		   .nletters = S->nletters, .accept = ACCEPT_LAST,
		   .max_length = maxlen, .limits = lim};
	Decision d;
	decision_run_all(&d, &q, VERIFY_BUDGET);
	const MethodResult *r = &d.res;
	const char *name = d.method;
	v->decided = (int)r->status;
	v->bound = r->bound;
	if (d.check != DECISION_SOUND) {
		/* The answer did not pass the second path: no claim rests on
		 * it (the evidence stays what evaluation showed). */
		v->decided = -1;
		buf_printf(b, "; tally equiv (%s): no verdict (its answer failed "
			   "the second check)", name);
	} else if (r->status == MR_EQUIVALENT) {
		v->kind = "proof";
		buf_printf(b, "; tally equiv (%s) proves it equivalent", name);
	} else if (r->status == MR_BOUNDED || r->status == MR_LIMIT) {
		v->kind = "bound";
		buf_printf(b, "; tally equiv (%s): equal on every word up to "
			   "length %zu", name, r->bound);
	} else if (r->status == MR_DIFFERENT) {
		v->ok = false;
		buf_printf(b, "; tally equiv (%s): NOT equivalent", name);
		witness_cex(r, S, v);
	}
	/* A user's limit an arm reached is the caller's to report. */
	if (lim && lim->hit == LIMIT_NONE && d.lim.hit != LIMIT_NONE) {
		lim->hit = d.lim.hit;
		lim->memory = d.lim.memory;
	}
	decision_free(&d);
	free(alpha);
}

void verify_formula(const Target *t, Store *st, Node f, const Sample *fresh,
		    const Sample *exh, unsigned decide_len, Limits *lim,
		    Verification *v)
{
	Buf b = {0};
	char *w1 = NULL, *w2 = NULL;
	v->kind = "sample only";
	v->ncex = 0;
	v->fresh_bad = check_on(t, st, f, fresh, &w1, v);
	v->exh_bad = 0;
	v->exh_len = exh ? exh->n : 0;
	v->exh_words = exh ? exh->npoints : 0;
	if (exh && t->kind != TARGET_LABELS)
		v->exh_bad = check_on(t, st, f, exh, &w2, v);
	v->ok = v->fresh_bad == 0 && v->exh_bad == 0;
	if (t->kind == TARGET_LABELS && v->fresh_bad)
		buf_printf(&b, "DISAGREES with %zu of the %zu labels", v->fresh_bad,
			   t->nwords);
	else if (t->kind == TARGET_LABELS)
		buf_puts(&b, "consistent with every label");
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
	if (decide_len && v->ok)
		decide_check(t, st, f, fresh, decide_len, lim, v, &b);
	buf_printf(&b, "; evidence: %s%s", v->kind, t->kind == TARGET_LABELS
					? " (relative to the labelled words)" : "");
	v->text = buf_take(&b);
	free(w1);
	free(w2);
}

void verify_free(Verification *v)
{
	free(v->text);
	v->text = NULL;
	for (size_t i = 0; i < v->ncex; i++)
		free(v->cex[i].w);
	v->ncex = 0;
}
