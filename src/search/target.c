/* target.c -- a target on a sample (care set and labels), the check of a
 * formula against it, and what a target formula needs of the class
 * (search.h). */
#include <config.h>

#include "search/search.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/* Blocks of a word over letters 0/1 starting with 0 (the prefixes of L_m
 * members); SIZE_MAX when it starts with 1 or uses another letter. */
static size_t blocks(const uint8_t *w, size_t len)
{
	if (len == 0 || w[0] != 0)
		return SIZE_MAX;
	size_t k = 1;
	for (size_t i = 0; i < len; i++) {
		if (w[i] > 1)
			return SIZE_MAX;
		if (i > 0 && w[i] != w[i - 1])
			k++;
	}
	return k;
}

/* On a whole-word sample: words are judged at the ends of their chains. */
static bool target_whole(const Target *t, const Sample *S, const Store *st,
			 Word64 *care, Word64 *label)
{
	if (t->kind == TARGET_FORMULA)
		sample_eval(S, st, t->node, label);
	for (size_t c = 0; c < S->nchains; c++) {
		const SampleWord *w = &S->chains[c].word;
		size_t end = sample_chain_end(S, c);
		if (t->kind == TARGET_FORMULA) {
			sig_set(care, end);
			sig_set(care, 0); /* the empty word, at the root */
		} else if (t->kind == TARGET_PREDICT) {
			size_t k = blocks(w->w, w->len);
			if (k == SIZE_MAX || k > t->m)
				continue;
			sig_set(care, end);
			if (k == t->m)
				sig_set(label, end);
		} else {
			for (size_t i = 0; i < t->nwords; i++)
				if (t->words[i].len == w->len &&
				    memcmp(t->words[i].w, w->w, w->len) == 0) {
					sig_set(care, end);
					if (t->labels[i])
						sig_set(label, end);
				}
		}
	}
	for (size_t i = 0; i < S->nwords; i++)
		label[i] &= care[i];
	return true;
}

bool target_sig(const Target *t, const Sample *S, const Store *st,
		Word64 *care, Word64 *label)
{
	size_t nw = S->nwords;
	memset(care, 0, nw * sizeof(Word64));
	memset(label, 0, nw * sizeof(Word64));
	if (S->whole)
		return target_whole(t, S, st, care, label);
	if (t->kind == TARGET_FORMULA) {
		memcpy(care, S->valid, nw * sizeof(Word64));
		return sample_eval(S, st, t->node, label);
	}
	if (t->kind == TARGET_LABELS) {
		for (size_t i = 0; i < t->nwords; i++) {
			size_t b = sample_node(S, t->words[i].w, t->words[i].len);
			sig_set(care, b);
			if (t->labels[i])
				sig_set(label, b);
		}
		return true;
	}
	uint8_t *w = xmalloc(S->nbits + 1);
	for (size_t b = 0; b < S->nbits; b++) {
		if (!sig_bit(S->valid, b))
			continue;
		size_t k = blocks(w, sample_word(S, b, w));
		if (k == SIZE_MAX || k > t->m)
			continue;
		sig_set(care, b);
		if (k == t->m)
			sig_set(label, b);
	}
	free(w);
	return true;
}

size_t search_check(const Sample *S, const Store *st, Node f,
		    const Word64 *care, const Word64 *label, size_t *first)
{
	size_t nw = S->nwords, bad = 0;
	Word64 *sig = xmalloc(nw * sizeof(Word64));
	*first = SIZE_MAX;
	if (!sample_eval(S, st, f, sig)) {
		free(sig);
		return SIZE_MAX;
	}
	for (size_t i = 0; i < nw; i++) {
		Word64 d = (sig[i] ^ label[i]) & care[i];
		if (d && *first == SIZE_MAX)
			*first = i * 64 + (size_t)__builtin_ctzll(d);
		bad += (size_t)__builtin_popcountll(d);
	}
	free(sig);
	return bad;
}

void search_target_shape(const Store *st, Node f, TargetShape *out)
{
	*out = (TargetShape){store_depth(st, f), 0, 0, NULL};
	unsigned flags = store_flags(st, f);
	if (flags & FLAG_FUTURE)
		out->outside = SEARCH_OUTSIDE_FUTURE;
	else if (flags & FLAG_PREV)
		out->outside = "it uses Y";
	else if (flags & FLAG_MOD)
		out->outside = "it uses MOD";
	unsigned char *mark = store_reachable(st, &f, 1);
	for (Node n = 1; n <= f; n++) {
		if (!mark[n])
			continue;
		Op op = store_op(st, n);
		if (op == OP_ITE || op == OP_MIN || op == OP_MAX) {
			if (!out->outside)
				out->outside = "it uses ?:, min or max";
			continue;
		}
		if (op != OP_CMP)
			continue;
		Linear l;
		store_linear(st, store_kid(st, n, 0), &l);
		if (l.n > out->T)
			out->T = (unsigned)l.n;
		fmpz_t m;
		fmpz_init(m);
		for (size_t i = 0; i <= l.n; i++) {
			fmpz_abs(m, i < l.n ? l.coefs + i : l.constant);
			unsigned v = fmpz_cmp_ui(m, 1000) > 0 ? 1000
							      : (unsigned)fmpz_get_ui(m);
			if (v > out->C)
				out->C = v;
		}
		fmpz_clear(m);
		store_linear_free(&l);
	}
	free(mark);
}
