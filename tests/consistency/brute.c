/* brute.c -- see brute.h. */
#include <config.h>
#include "brute.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"
#include "ref_eval.h"
#include "machine/runeval.h"

/* Words up to this length go through the naive reference evaluator
 * (whose cost grows as length^(depth + 1)). */
#define REF_MAX 24
#define EVAL_MAX 100000

/* The roots' verdicts from the sides' verdicts, as decide.c reduces the
 * task: sat(F) = F vs false, valid(F) = F vs true, F implies G = F & !G
 * vs false. */
static void reduce(DecideTask t, const bool side[2], bool root[2])
{
	switch (t) {
	case TASK_EQUIV: root[0] = side[0]; root[1] = side[1]; break;
	case TASK_SAT: root[0] = side[0]; root[1] = false; break;
	case TASK_VALID: root[0] = side[0]; root[1] = true; break;
	case TASK_IMPLIES:
		root[0] = side[0] && !side[1];
		root[1] = false;
		break;
	case TASK_NONNEG: /* questions about counts: not drawn here */
	case TASK_BOUNDED:
		abort();
	}
}

static bool next_word(unsigned *digits, size_t n, unsigned sigma)
{
	size_t i = n;
	while (i > 0 && ++digits[i - 1] == sigma)
		digits[--i] = 0;
	return i > 0;
}

/* One word: the sides by the reference and by the trees. */
static void judge(const Problem *p, const Sym *w, const int *codes, size_t n,
		  Brute *b)
{
	bool eos = p->accept == ACCEPT_EOS;
	bool side[2] = {false, false}, root[2] = {false, false};
	for (size_t i = 0; i < p->nsides; i++) {
		side[i] = ref_accepts(p->s, p->side[i], w, n, eos);
		if (!b->misread &&
		    ast_accepts(p->tree[i], codes, n, eos) != side[i]) {
			b->misread = true;
			b->misread_side = i;
			b->misread_len = n;
			b->misread_by_node = side[i];
			memcpy(b->misread_word, w, n * sizeof *w);
		}
	}
	reduce(p->task, side, root);
	if (root[0] != root[1] && !b->differs) {
		b->differs = true;
		b->first_len = n;
		b->first_accepted = root[0];
		memcpy(b->first, w, n * sizeof *w);
	}
}

void brute_run(const Problem *p, Brute *b)
{
	memset(b, 0, sizeof *b);
	unsigned digits[BRUTE_MAX_LEN];
	Sym w[BRUTE_MAX_LEN];
	int codes[BRUTE_MAX_LEN];
	for (size_t n = 0; n <= p->maxlen; n++) {
		memset(digits, 0, sizeof digits);
		do {
			for (size_t i = 0; i < n; i++) {
				w[i] = p->sym[digits[i]];
				codes[i] = p->code[digits[i]];
			}
			judge(p, w, codes, n, b);
		} while (n > 0 && next_word(digits, n, (unsigned)p->n));
	}
}

bool brute_first_of_length(const Problem *p, const Sym *order, size_t n,
			   size_t len, Sym *out)
{
	unsigned digits[BRUTE_MAX_LEN] = {0};
	bool eos = p->accept == ACCEPT_EOS;
	do {
		for (size_t i = 0; i < len; i++)
			out[i] = order[digits[i]];
		if (ref_accepts(p->s, p->root[0], out, len, eos) !=
		    ref_accepts(p->s, p->root[1], out, len, eos))
			return true;
	} while (len > 0 && next_word(digits, len, (unsigned)n));
	return false;
}

bool brute_word(const Problem *p, const Runs *w, bool acc[2], char **why)
{
	size_t n;
	Sym *word = runs_expand(w, EVAL_MAX, &n);
	bool ok = true;
	if (word && n <= REF_MAX) {
		for (int i = 0; i < 2; i++)
			acc[i] = ref_accepts(p->s, p->root[i], word, n,
					     p->accept == ACCEPT_EOS);
	} else if (word) {
		Evaluator *ev = eval_new(p->s, p->root, 2, p->accept);
		eval_word(ev, word, n, acc);
		eval_free(ev);
	} else {
		RunEval *re = runeval_new(p->s, p->root, 2, p->accept);
		ok = runeval_word(re, w, acc, why);
		runeval_free(re);
	}
	free(word);
	return ok;
}
