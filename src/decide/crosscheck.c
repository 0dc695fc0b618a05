/* crosscheck.c -- both sides evaluated on every short word (see
 * crosscheck.h). */
#include <config.h>
#include "decide/crosscheck.h"

#include <stdlib.h>

#include "machine/eval.h"
#include "base/mem.h"

size_t crosscheck_length(size_t nletters, size_t max_length)
{
	size_t len = 0;
	if (nletters <= 1) {
		len = CROSSCHECK_MAX_LENGTH;
	} else {
		/* total: the words up to len + 1 letters */
		size_t total = 1, layer = 1;
		for (;;) {
			layer *= nletters;
			if (total + layer > CROSSCHECK_WORDS)
				break;
			total += layer;
			len++;
		}
	}
	return max_length && max_length < len ? max_length : len;
}

typedef struct {
	Evaluator *ev;
	const Sym *letters; /* one per code */
	size_t nletters, length;
	Sym *word;          /* the current word */
	EvalSnapshot **snap; /* [depth]: the state after word[0..depth) */
	bool streams;
} Walk;

/* Do the sides differ on word[0..n)?  Past-only formulas have the word
 * pushed already; others are pushed again whole. */
static bool differ(Walk *w, size_t n)
{
	if (!w->streams) {
		eval_reset(w->ev);
		eval_push_many(w->ev, w->word, n);
	}
	return eval_accepts(w->ev, 0) != eval_accepts(w->ev, 1);
}

/* The words of exactly `len` letters, depth first from word[0..depth);
 * true when one differs (left in word[0..len)). */
static bool walk(Walk *w, size_t depth, size_t len)
{
	if (depth == len)
		return differ(w, len);
	if (w->streams)
		eval_save_to(w->ev, w->snap[depth]);
	for (size_t i = 0; i < w->nletters; i++) {
		if (w->streams) {
			eval_restore(w->ev, w->snap[depth]);
			eval_push(w->ev, w->letters[i]);
		}
		w->word[depth] = w->letters[i];
		if (walk(w, depth + 1, len))
			return true;
	}
	return false;
}

/* One letter per code: letters that no side tests behave alike. */
static Sym *distinct_letters(const Query *q, size_t *n)
{
	MachineCodes codes;
	machine_codes_init(&codes, q->store, q->root, 2);
	QueryCodes qc;
	query_codes_init(&qc, q, &codes);
	Sym *l = xmalloc((qc.n ? qc.n : 1) * sizeof *l);
	for (size_t i = 0; i < qc.n; i++)
		l[i] = qc.sym[i];
	*n = qc.n;
	query_codes_free(&qc);
	machine_codes_free(&codes);
	return l;
}

bool crosscheck_words(const Query *q, size_t length, Runs *witness)
{
	Walk w = {0};
	w.ev = eval_new(q->store, q->root, 2, q->accept);
	w.streams = eval_streams(w.ev);
	w.letters = distinct_letters(q, &w.nletters);
	w.length = w.nletters ? length : 0;
	w.word = xmalloc((w.length + 1) * sizeof *w.word);
	w.snap = xcalloc(w.length + 1, sizeof *w.snap);
	if (w.streams)
		for (size_t i = 0; i <= w.length; i++)
			w.snap[i] = eval_snapshot_new(w.ev);
	bool found = false;
	size_t len;
	/* Length by length: the first difference is a shortest one.  The
	 * recursion is as deep as the length, at most
	 * CROSSCHECK_MAX_LENGTH. */
	for (len = 0; len <= w.length && !found; len++) {
		eval_reset(w.ev);
		found = walk(&w, 0, len);
	}
	if (found)
		for (size_t i = 0; i < len - 1; i++)
			runs_push_ui(witness, w.word[i], 1);
	for (size_t i = 0; i <= w.length; i++)
		if (w.snap[i])
			eval_snapshot_free(w.snap[i]);
	free(w.snap);
	free(w.word);
	free((Sym *)w.letters);
	eval_free(w.ev);
	return !found;
}
