/* gen_label.c -- the labels of gen's words (see gen_label.h). */
#include <config.h>

#include "gen/gen_label.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <flint/fmpz_vec.h>

#include "base/mem.h"

static void on_value(void *ctx, const SeqEval *se, size_t pos)
{
	GenLabeler *L = ctx;
	seqeval_value(se, 0, &L->vals[pos]);
}

void gen_labeler_init(GenLabeler *L, const GenSpec *sp, const GenStates *gs,
		      size_t maxlen)
{
	memset(L, 0, sizeof *L);
	L->sp = sp;
	L->gs = gs;
	L->nl = sp->alpha->n;
	Node roots[2] = {sp->root, sp->domain};
	L->ev = eval_new(sp->store, roots, sp->domain != NODE_NONE ? 2 : 1,
			 ACCEPT_LAST);
	L->streams = eval_streams(L->ev);
	L->pos = xmalloc(maxlen + 1);
	if (sp->labels == GEN_LABELS_PREDICTION)
		L->pred = xmalloc((maxlen + 1) * (L->nl + 1));
	L->syms = xmalloc((maxlen + 1) * sizeof *L->syms);
	L->text = xmalloc(maxlen + 1);
	L->maxlen = maxlen;
	if (sp->output != NODE_NONE) {
		L->se = seqeval_new(sp->store, &sp->output, 1, ACCEPT_LAST,
				    on_value, L);
		L->vals = _fmpz_vec_init((slong)maxlen + 1);
		L->fam = xmalloc((maxlen + 1) * sizeof *L->fam);
	}
}

void gen_labeler_free(GenLabeler *L)
{
	eval_free(L->ev);
	seqeval_free(L->se);
	if (L->vals)
		_fmpz_vec_clear(L->vals, (slong)L->maxlen + 1);
	free(L->fam);
	free(L->pos);
	free(L->pred);
	free(L->syms);
	free(L->text);
	buf_free(&L->why);
}

static bool disagree(GenLabeler *L, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool disagree(GenLabeler *L, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	L->why.len = 0;
	buf_vprintf(&L->why, fmt, ap);
	va_end(ap);
	L->why_n = n;
	return false;
}

/* The evaluator's verdict on every prefix (pos[0..n]) or on the word;
 * *dom: the word is in the domain. */
static bool verdicts(GenLabeler *L, const uint32_t *w, size_t n, uint8_t *pos,
		     bool *dom)
{
	bool acc[2] = {false, true};
	bool two = L->sp->domain != NODE_NONE;
	for (size_t i = 0; i < n; i++)
		L->syms[i] = L->sp->alpha->letters[w[i]];
	if (!L->streams) {
		for (size_t i = 0; pos && i < n; i++) {
			eval_word(L->ev, L->syms, i, acc);
			pos[i] = acc[0];
		}
		eval_word(L->ev, L->syms, n, acc);
	} else {
		eval_reset(L->ev);
		for (size_t i = 0; pos && i < n; i++) {
			pos[i] = eval_accepts(L->ev, 0);
			eval_push(L->ev, L->syms[i]);
		}
		if (!pos) /* in blocks: the fast path of long words */
			eval_push_many(L->ev, L->syms, n);
		acc[0] = eval_accepts(L->ev, 0);
		if (two)
			acc[1] = eval_accepts(L->ev, 1);
	}
	if (pos)
		pos[n] = acc[0];
	*dom = acc[1];
	return acc[0];
}

/* Prediction rows from the state graph; the end of the word must agree
 * with the evaluator's verdicts on the prefixes (pos). */
static bool predictions(GenLabeler *L, const uint32_t *w, size_t n,
			const uint8_t *pos)
{
	size_t nl = L->nl, h = L->sp->horizon;
	uint32_t s = gen_states_start(L->gs);
	for (size_t i = 0; i <= n; i++) {
		uint8_t *row = L->pred + i * (nl + 1);
		for (size_t a = 0; a < nl; a++)
			row[a] = i < h && gen_states_can_finish(
				L->gs, gen_states_next(L->gs, s, a));
		unsigned c = gen_states_class(L->gs, s);
		row[nl] = c == (GEN_IN | GEN_DOMAIN);
		if (row[nl] != (pos[i] && (c & GEN_DOMAIN)))
			return disagree(L, i, "the state graph and the "
					"evaluator disagree");
		if (i < n)
			s = gen_states_next(L->gs, s, w[i]);
	}
	return true;
}

/* The output at every position of the word in L->syms into
 * L->vals[1..n] (L->vals[0] when n = 0): vals[n] is the judged value. */
static void sequence(GenLabeler *L, size_t n)
{
	if (!seqeval_streams(L->se)) {
		seqeval_word(L->se, L->syms, n);
		return;
	}
	seqeval_reset(L->se);
	for (size_t i = 0; i < n; i++)
		seqeval_push(L->se, L->syms[i]);
	seqeval_end(L->se);
}

/* The second paths of the values: a Boolean output's last value is the
 * evaluator's verdict (label), and a past-only one's value at i its
 * verdict on the prefix of length i (L->pos); a family's value function
 * gives every value. */
static bool check_values(GenLabeler *L, size_t n, bool label)
{
	const GenSpec *sp = L->sp;
	if (!sp->integer) {
		size_t bad = fmpz_is_zero(&L->vals[n]) == label ? n : SIZE_MAX;
		for (size_t i = 1; bad == SIZE_MAX && seqeval_streams(L->se) &&
				   i <= n; i++)
			if (fmpz_is_zero(&L->vals[i]) == L->pos[i])
				bad = i;
		if (bad != SIZE_MAX)
			return disagree(L, n, "the output sequence and the "
					"evaluator's verdict disagree at "
					"position %zu", bad);
	}
	if (!sp->family || !sp->family->values)
		return true;
	sp->family->values(L->text, n, sp->k, L->fam);
	for (size_t i = 1; i <= n; i++)
		if (fmpz_cmp_si(&L->vals[i], L->fam[i - 1]) != 0)
			return disagree(L, n, "family %s: the program and the "
					"value function disagree at position "
					"%zu", sp->family->name, i);
	return true;
}

bool gen_label(GenLabeler *L, const uint32_t *w, size_t n, int intended,
	       bool *label)
{
	const GenSpec *sp = L->sp;
	bool want_pos = sp->labels != GEN_LABELS_WORD && !sp->integer, dom;
	*label = verdicts(L, w, n, want_pos ? L->pos : NULL, &dom);
	if (intended >= 0 && (*label != intended || !dom))
		return disagree(L, n, "the sampler meant a %s, the evaluator "
				"says %s", intended ? "member" : "non-member",
				!dom ? "outside the domain"
				: *label ? "member" : "non-member");
	if (sp->family)
		for (size_t i = 0; i < n; i++)
			L->text[i] = sym_name(sp->alpha->syms,
					      sp->alpha->letters[w[i]])[0];
	if (L->se) {
		sequence(L, n);
		if (!check_values(L, n, *label))
			return false;
	}
	if (sp->family && sp->family->member &&
	    sp->family->member(L->text, n, sp->k) != *label)
		return disagree(L, n, "family %s: the formula and the "
				"membership function disagree",
				sp->family->name);
	if (sp->labels == GEN_LABELS_PREDICTION)
		return predictions(L, w, n, L->pos);
	return true;
}
