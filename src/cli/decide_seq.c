/* decide_seq.c -- equiv and check of sequence outputs (decide_seq.h). */
#include <config.h>
#include "cli/decide_seq.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"
#include "base/status.h"
#include "machine/seqeval.h"

void seq_spot_init(SeqSpot *sp)
{
	sp->found = false;
	sp->pos = 0;
	fmpz_init(sp->value[0]);
	fmpz_init(sp->value[1]);
}

void seq_spot_clear(SeqSpot *sp)
{
	fmpz_clear(sp->value[0]);
	fmpz_clear(sp->value[1]);
}

static size_t outputs_of(DecideTask task)
{
	return task == TASK_EQUIV || task == TASK_IMPLIES ? 2 : 1;
}

bool seq_wanted(const Store *s, const Node *out, size_t nout, DecideTask task,
		bool per_position)
{
	if (per_position || task == TASK_NONNEG || task == TASK_BOUNDED)
		return true;
	for (size_t i = 0; i < nout; i++)
		if (!store_is_bool(s, out[i]))
			return true;
	return false;
}

static const char *const task_flag[] = {
	[TASK_EQUIV] = "equiv", [TASK_SAT] = "check --sat",
	[TASK_VALID] = "check --valid", [TASK_IMPLIES] = "check --implies",
	[TASK_NONNEG] = "check --nonneg", [TASK_BOUNDED] = "check --bounded",
};

bool seq_question(SeqQuestion *q, Store *s, DecideTask task,
		  const Node *out, size_t nout, size_t bound, AcceptAt accept,
		  const char *const *side)
{
	assert(nout == outputs_of(task));
	*q = (SeqQuestion){.task = task, .s = s, .nout = nout, .bound = bound,
			   .accept = accept};
	bool is_int[2] = {false, false};
	for (size_t i = 0; i < nout; i++) {
		q->out[i] = out[i];
		is_int[i] = !store_is_bool(s, out[i]);
	}
	q->is_int = is_int[0];
	if (task == TASK_EQUIV && is_int[0] != is_int[1]) {
		status_usage_error("%s is %s and %s is %s: equiv compares two "
				   "formulas or two count-valued inputs (compare "
				   "a count with a formula's 0/1 as '(F ? 1 : 0)')",
				   side[0], is_int[0] ? "count-valued (an integer "
				   "term)" : "a formula", side[1], is_int[1]
				   ? "count-valued (an integer term)" : "a formula");
		return false;
	}
	bool want_int = task == TASK_NONNEG || task == TASK_BOUNDED;
	if (task == TASK_EQUIV)
		return true;
	for (size_t i = 0; i < nout; i++) {
		if (is_int[i] == want_int)
			continue;
		if (want_int)
			status_usage_error("%s: %s is a formula; it needs a "
					   "count-valued input (an integer term)",
					   task_flag[task], side[i]);
		else
			status_usage_error("%s: %s is count-valued (an integer "
					   "term); it needs a formula (for counts: "
					   "--nonneg, --bounded=K, or a comparison "
					   "with --per-position)", task_flag[task],
					   side[i]);
		return false;
	}
	return true;
}

/* P: the property of one position that the question asks everywhere. */
static Node property(const SeqQuestion *q)
{
	Store *s = q->s;
	Node a = q->out[0], b = q->out[1];
	switch (q->task) {
	case TASK_EQUIV:
		return q->is_int ? store_make_cmp(s, REL_EQ, a, b)
				 : store_make_iff(s, a, b);
	case TASK_IMPLIES: return store_make_implies(s, a, b);
	case TASK_VALID: return a;
	case TASK_SAT: return store_make_not(s, a);
	case TASK_NONNEG:
		return store_make_cmp(s, REL_GE, a, store_make_const_si(s, 0));
	case TASK_BOUNDED: {
		fmpz_t k;
		fmpz_init_set_ui(k, q->bound);
		Node hi = store_make_const(s, k);
		fmpz_neg(k, k);
		Node lo = store_make_const(s, k);
		fmpz_clear(k);
		return store_make_and2(s, store_make_cmp(s, REL_LE, a, hi),
				       store_make_cmp(s, REL_GE, a, lo));
	}
	}
	return NODE_NONE;
}

/* "P held at every position up to the judged one". */
static Node everywhere(const SeqQuestion *q, Node p)
{
	Store *s = q->s;
	/* Past-only, judged at the last letter: position i of w is the
	 * judged position of w's prefix of length i (and ε's position 0 its
	 * own), so P at the judged position of every word is already P
	 * everywhere, one count shallower. */
	if (q->accept == ACCEPT_LAST && !(store_flags(s, p) & FLAG_FUTURE))
		return p;
	/* #[!P] counts positions 1..judged; P itself adds ε's position 0. */
	Node misses = store_make_count(s, store_make_not(s, p));
	return store_make_and2(s, store_make_cmp(s, REL_EQ, misses,
						 store_make_const_si(s, 0)), p);
}

void seq_roots(const SeqQuestion *q, Node root[2])
{
	Node all = everywhere(q, property(q));
	if (q->task == TASK_SAT) {
		root[0] = store_make_not(q->s, all);
		root[1] = store_make_false(q->s);
	} else {
		root[0] = all;
		root[1] = store_make_true(q->s);
	}
}

/* Does P fail where the outputs have the values v? (The same question
 * as property(), asked of the numbers, not of the store.) */
static bool fails(const SeqQuestion *q, const fmpz *v0, const fmpz *v1)
{
	switch (q->task) {
	case TASK_EQUIV: return !fmpz_equal(v0, v1);
	case TASK_IMPLIES: return !fmpz_is_zero(v0) && fmpz_is_zero(v1);
	case TASK_VALID: return fmpz_is_zero(v0);
	case TASK_SAT: return !fmpz_is_zero(v0);
	case TASK_NONNEG: return fmpz_sgn(v0) < 0;
	case TASK_BOUNDED: {
		fmpz_t a;
		fmpz_init(a);
		fmpz_abs(a, v0);
		bool out = fmpz_cmp_ui(a, q->bound) > 0;
		fmpz_clear(a);
		return out;
	}
	}
	return false;
}

typedef struct {
	const SeqQuestion *q;
	SeqSpot *sp;
} Watch;

static void watch(void *ctx, const SeqEval *se, size_t pos)
{
	Watch *w = ctx;
	if (w->sp->found)
		return;
	for (size_t r = 0; r < w->q->nout; r++)
		seqeval_value(se, r, w->sp->value[r]);
	if (fails(w->q, w->sp->value[0], w->sp->value[1])) {
		w->sp->found = true;
		w->sp->pos = pos;
	}
}

void seq_first_failure(const SeqQuestion *q, const Sym *word, size_t n,
		       SeqSpot *sp)
{
	Watch w = {q, sp};
	sp->found = false;
	SeqEval *se = seqeval_new(q->s, q->out, q->nout, q->accept, watch, &w);
	seqeval_word(se, word, n);
	seqeval_free(se);
}

/* One-letter alphabets: the longest words re-checked. */
#define SEQ_RECHECK_UNARY 200

size_t seq_recheck_length(size_t nletters, size_t max_length)
{
	size_t len = 0, words = 1, level = 1;
	while (len < SEQ_RECHECK_UNARY) {
		if (nletters > 1 && level > SEQ_RECHECK_WORDS / nletters)
			break;
		level *= nletters ? nletters : 1;
		if (words + level > SEQ_RECHECK_WORDS)
			break;
		words += level;
		len++;
	}
	return max_length && max_length < len ? max_length : len;
}

bool seq_recheck(const SeqQuestion *q, const Sym *letters, size_t nletters,
		 size_t length, Runs *bad, SeqSpot *sp)
{
	Watch w = {q, sp};
	sp->found = false;
	SeqEval *se = seqeval_new(q->s, q->out, q->nout, q->accept, watch, &w);
	size_t *digit = xcalloc(length + 1, sizeof *digit);
	Sym *word = xcalloc(length + 1, sizeof *word);
	for (size_t n = 0; n <= length && !sp->found; n++) {
		/* every word of length n, in shortlex order (an odometer) */
		memset(digit, 0, n * sizeof *digit);
		for (;;) {
			for (size_t i = 0; i < n; i++)
				word[i] = letters[digit[i]];
			seqeval_word(se, word, n);
			if (sp->found) {
				runs_clear(bad);
				for (size_t i = 0; i < n; i++)
					runs_push_ui(bad, word[i], 1);
				break;
			}
			size_t i = n;
			while (i > 0 && ++digit[i - 1] == nletters)
				digit[--i] = 0;
			if (i == 0)
				break;
		}
	}
	free(digit);
	free(word);
	seqeval_free(se);
	return !sp->found;
}

static void put_value(Buf *b, const SeqQuestion *q, const fmpz *v)
{
	if (!q->is_int) {
		buf_puts(b, fmpz_is_zero(v) ? "false" : "true");
		return;
	}
	char *digits = fmpz_get_str(NULL, 10, v);
	buf_puts(b, digits);
	flint_free(digits);
}

char *seq_spot_text(const SeqQuestion *q, const SeqSpot *sp,
		    const char *const *label)
{
	Buf b = {0};
	buf_printf(&b, "position %zu:", sp->pos);
	for (size_t r = 0; r < q->nout; r++) {
		buf_printf(&b, "%s %s ", r ? "," : "", label[r]);
		put_value(&b, q, sp->value[r]);
	}
	return buf_take(&b);
}
