/* check_seq.c -- sequence outputs (logic/README.md "Sequence outputs"):
 * the count-valued and per-position programs of the prelude against
 * value functions written here from their definitions, in plain C over
 * the characters of the word, at every position of every word up to
 * length SEQ_LEN; streaming and whole-word evaluation both; future
 * counts; integer outputs in the parsers.  The questions of equiv and
 * check about sequences (cli/decide_seq.h) against the naive reference
 * evaluator: the reduced formula, the first failing position and the
 * re-check, on random outputs at every position of every short word. */
#include <config.h>

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cli/decide_seq.h"
#include "core/parse.h"
#include "core/prelude.h"
#include "machine/seqeval.h"
#include "randgen.h"
#include "ref_eval.h"
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

/* ---- questions about sequences against the reference --------------- */

enum { Q_LEN = 5, Q_CASES = 60 };

/* A partner for x of its sort: independent, or x changed only where a
 * rare condition holds, so that the pair agrees on many words. */
static Node q_partner(Store *st, Rng *rng, const GenOptions *o, Node x)
{
	Node h = randgen_formula(st, rng, o), k = randgen_formula(st, rng, o);
	Node rare = store_make_and2(st, h, k);
	bool is_int = !store_is_bool(st, x);
	switch (rng_below(rng, 3)) {
	case 0:
		return is_int ? randgen_term(st, rng, o) : randgen_formula(st, rng, o);
	case 1:
		return is_int ? store_make_add2(st, x, store_make_ite(
				st, rare, store_make_const_si(st, 1),
				store_make_const_si(st, 0)))
			      : store_make_or2(st, x, rare);
	default:
		return x;
	}
}

/* Does the property fail where the outputs are v0, v1?  Written from
 * logic/README.md §9.5, not from decide_seq.c. */
static bool q_fails(DecideTask task, size_t k, const fmpz_t v0,
		    const fmpz_t v1)
{
	switch (task) {
	case TASK_EQUIV: return fmpz_cmp(v0, v1) != 0;
	case TASK_IMPLIES: return fmpz_is_one(v0) && fmpz_is_zero(v1);
	case TASK_VALID: return fmpz_is_zero(v0);
	case TASK_SAT: return fmpz_is_one(v0);
	case TASK_NONNEG: return fmpz_sgn(v0) < 0;
	case TASK_BOUNDED:
		return fmpz_cmp_si(v0, (long)k) > 0 || fmpz_cmp_si(v0, -(long)k) < 0;
	}
	return false;
}

/* One word: the reference's first failing position (-1: none), checked
 * against seq_first_failure; *differ: whether the reduced formula
 * separates the roots at the judged position. */
static long q_word(const SeqQuestion *q, const Node root[2], const Sym *w,
		   size_t n, bool *differ)
{
	Store *st = q->s;
	bool eos = q->accept == ACCEPT_EOS;
	Sym marked[Q_LEN + 1];
	for (size_t i = 0; i < n; i++)
		marked[i] = w[i];
	marked[n] = SYM_NONE;
	size_t len = n + eos, lo = !eos && n == 0 ? 0 : 1;
	long first = -1;
	fmpz_t v[2];
	fmpz_init(v[0]);
	fmpz_init(v[1]);
	for (size_t i = lo; i <= len && first < 0; i++) {
		for (size_t r = 0; r < q->nout; r++)
			ref_value(st, q->out[r], marked, len, i, v[r]);
		if (q_fails(q->task, q->bound, v[0], v[1]))
			first = (long)i;
	}
	*differ = ref_accepts(st, root[0], w, n, eos) !=
		  ref_accepts(st, root[1], w, n, eos);
	SeqSpot sp;
	seq_spot_init(&sp);
	seq_first_failure(q, w, n, &sp);
	ck_assert(sp.found == (first >= 0));
	if (sp.found) {
		ck_assert_uint_eq(sp.pos, (size_t)first);
		for (size_t r = 0; r < q->nout; r++)
			ck_assert(fmpz_equal(sp.value[r], v[r]));
	}
	seq_spot_clear(&sp);
	fmpz_clear(v[0]);
	fmpz_clear(v[1]);
	return first;
}

START_TEST(questions)
{
	static const DecideTask tasks_asked[] = {
		TASK_EQUIV, TASK_EQUIV, TASK_IMPLIES, TASK_VALID,
		TASK_SAT, TASK_NONNEG, TASK_BOUNDED};
	Store *st = store_new();
	Sym ab[2] = {sym_intern(store_syms(st), "a", 1),
		     sym_intern(store_syms(st), "b", 1)};
	GenOptions o = {.letters = ab, .nletters = 2, .max_depth = 2,
			.max_size = 10, .future = _i % 2, .positional = true,
			.extended = true};
	Rng rng;
	rng_seed(&rng, 0x5e9e0u + (uint64_t)_i);
	unsigned cases = test_count(Q_CASES), failing = 0;
	for (unsigned c = 0; c < cases; c++) {
		size_t t = rng_below(&rng, 7);
		DecideTask task = tasks_asked[t];
		/* counts for the second EQUIV, NONNEG and BOUNDED */
		bool is_int = t == 1 || task == TASK_NONNEG || task == TASK_BOUNDED;
		Node out[2];
		out[0] = is_int ? randgen_term(st, &rng, &o)
				: randgen_formula(st, &rng, &o);
		out[1] = q_partner(st, &rng, &o, out[0]);
		size_t nout = task == TASK_EQUIV || task == TASK_IMPLIES ? 2 : 1;
		AcceptAt accept = rng_below(&rng, 3) ? ACCEPT_LAST : ACCEPT_EOS;
		const char *side[2] = {"first", "second"};
		SeqQuestion q;
		ck_assert(seq_question(&q, st, task, out, nout, rng_below(&rng, 4),
				       accept, side));
		Node root[2];
		seq_roots(&q, root);
		/* The engine answers with the first word in shortlex order on
		 * which the reduced formula separates the roots: it must be
		 * the first on which the property fails somewhere (for
		 * past-only outputs under last, the reduced formula is P at
		 * the judged position only, so the two differ on later
		 * words, never on the first). */
		long first_reduced = -1, first_fail = -1, number = 0;
		Sym w[Q_LEN];
		for (size_t n = 0; n <= Q_LEN; n++)
			for (unsigned long bits = 0; bits < 1ul << n; bits++) {
				for (size_t i = 0; i < n; i++)
					w[i] = ab[bits >> (n - 1 - i) & 1];
				bool differ;
				long pos = q_word(&q, root, w, n, &differ);
				if (differ && first_reduced < 0)
					first_reduced = number;
				if (pos >= 0 && first_fail < 0)
					first_fail = number;
				number++;
			}
		ck_assert_int_eq(first_reduced, first_fail);
		bool any = first_fail >= 0;
		/* the re-check finds a failure exactly when some word has one */
		Runs bad;
		runs_init(&bad);
		SeqSpot sp;
		seq_spot_init(&sp);
		ck_assert(seq_recheck(&q, ab, 2, Q_LEN, &bad, &sp) == !any);
		seq_spot_clear(&sp);
		runs_clear(&bad);
		failing += any;
	}
	ck_assert(failing > 0 || test_scaled_down());
	ck_assert(failing < cases || test_scaled_down());
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
	TCase *tq = tcase_create("questions");
	tcase_set_timeout(tq, 120);
	tcase_add_loop_test(tq, questions, 0, 4);
	suite_add_tcase(su, tq);
	return su;
}
