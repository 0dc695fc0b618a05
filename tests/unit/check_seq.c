/* check_seq.c -- sequence outputs (logic/README.md "Sequence outputs"):
 * the count-valued and per-position programs of the prelude against
 * value functions written here from their definitions, in plain C over
 * the characters of the word, at every position of every word up to
 * length SEQ_LEN; streaming and whole-word evaluation both; future
 * counts; integer outputs in the parsers. */
#include <config.h>

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "core/prelude.h"
#include "machine/seqeval.h"
#include "suites.h"

enum { SEQ_LEN = 10 };

/* ---- independent value functions: the value at position i (0-based) */

static long count_of(const char *w, size_t i, char c)
{
	long k = 0;
	for (size_t j = 0; j <= i; j++)
		k += w[j] == c;
	return k;
}

static long histogram(const char *w, size_t i)
{
	return count_of(w, i, w[i]);
}

static long count_a(const char *w, size_t i)
{
	return count_of(w, i, 'a');
}

static long margin(const char *w, size_t i)
{
	return count_of(w, i, 'a') - count_of(w, i, 'b');
}

static long current_leads(const char *w, size_t i)
{
	char other = w[i] == 'a' ? 'b' : 'a';
	return count_of(w, i, w[i]) > count_of(w, i, other);
}

/* how many a's from position i to the end (a future count) */
static long future_a(const char *w, size_t i)
{
	long k = 0;
	for (size_t j = i; w[j]; j++)
		k += w[j] == 'a';
	return k;
}

static const struct {
	const char *program;
	long (*value)(const char *w, size_t i);
} tasks[] = {
	{"histogram", histogram},
	{"count_a", count_a},
	{"margin", margin},
	{"current_leads", current_leads},
	{"#>[Q_a]", future_a},
	/* a second spelling of histogram: all letters less the other's */
	{"#[Q_a] + #[Q_b] - (Q_a ? #[Q_b] : #[Q_a])", histogram},
};

/* ---- the evaluator's side ------------------------------------------ */

typedef struct {
	long got[SEQ_LEN + 2];
	size_t npos, last;
} Seen;

static void collect(void *ctx, const SeqEval *se, size_t pos)
{
	Seen *s = ctx;
	fmpz_t v;
	fmpz_init(v);
	seqeval_value(se, 0, v);
	ck_assert(fmpz_fits_si(v));
	s->got[pos] = fmpz_get_si(v);
	s->npos++;
	s->last = pos;
	fmpz_clear(v);
}

static Node parse_output(Store *st, Scope *sc, const char *text)
{
	Diag d = {.out = stderr};
	Source *src = source_new("-f", text, strlen(text));
	Unit u = {.terms = true};
	ck_assert_msg(tl_parse(sc, &d, src, &u), "%s does not parse", text);
	Node out = u.output;
	unit_free(&u);
	source_free(src);
	return out;
}

static void compare(const char *program, long (*value)(const char *, size_t),
		    const char *w, size_t n, const Seen *seen, const char *how)
{
	ck_assert_msg(seen->npos == (n ? n : 1) && seen->last == n,
		      "%s on '%.*s' (%s): %zu positions emitted", program,
		      (int)n, w, how, seen->npos);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(seen->got[i + 1] == value(w, i),
			      "%s on '%.*s' (%s), position %zu: evaluator "
			      "%ld, value function %ld",
			      program, (int)n, w, how, i + 1,
			      seen->got[i + 1], value(w, i));
	if (n == 0) /* the empty word is judged at position 0: counts 0 */
		ck_assert_int_eq(seen->got[0], 0);
}

START_TEST(sequence_tasks)
{
	Store *st = store_new();
	Scope *sc = prelude_scope_new(st);
	Node root = parse_output(st, sc, tasks[_i].program);
	Seen seen;
	SeqEval *se = seqeval_new(st, &root, 1, ACCEPT_LAST, collect, &seen);
	Sym ab[2] = {sym_intern(store_syms(st), "a", 1),
		     sym_intern(store_syms(st), "b", 1)};
	char w[SEQ_LEN + 1];
	Sym word[SEQ_LEN];
	for (size_t n = 0; n <= SEQ_LEN; n++) {
		for (unsigned long bits = 0; bits < 1ul << n; bits++) {
			for (size_t i = 0; i < n; i++) {
				w[i] = "ab"[bits >> i & 1];
				word[i] = ab[bits >> i & 1];
			}
			w[n] = '\0';
			seen = (Seen){0};
			seqeval_word(se, word, n);
			compare(tasks[_i].program, tasks[_i].value, w, n, &seen,
				"whole word");
			if (!seqeval_streams(se))
				continue;
			seen = (Seen){0};
			seqeval_reset(se);
			for (size_t i = 0; i < n; i++)
				seqeval_push(se, word[i]);
			seqeval_end(se);
			compare(tasks[_i].program, tasks[_i].value, w, n, &seen,
				"streaming");
		}
	}
	seqeval_free(se);
	scope_free(sc);
	store_free(st);
}
END_TEST

/* An integer output is a parse error unless the caller asks for it. */
START_TEST(terms_only_when_asked)
{
	Store *st = store_new();
	Scope *sc = prelude_scope_new(st);
	Diag d = {0}; /* out NULL: the expected error is not printed */
	const char *text = "#[Q_a]";
	Source *src = source_new("-f", text, strlen(text));
	Unit u = {0};
	ck_assert(!tl_parse(sc, &d, src, &u));
	unit_free(&u);
	scope_clear(sc);
	Unit v = {.terms = true};
	ck_assert(tl_parse(sc, &d, src, &v));
	ck_assert(!store_is_bool(st, v.output));
	unit_free(&v);
	source_free(src);
	scope_free(sc);
	store_free(st);
}
END_TEST

Suite *seq_suite(void)
{
	Suite *su = suite_create("seq");
	TCase *tc = tcase_create("tasks");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, sequence_tasks, 0,
			    (int)(sizeof tasks / sizeof tasks[0]));
	tcase_add_test(tc, terms_only_when_asked);
	suite_add_tcase(su, tc);
	return su;
}
