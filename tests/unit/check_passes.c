/* check_passes.c -- formulas with future counts #>, evaluated by passes
 * over the packed word (eval.c, codebuf.c), against the naive reference
 * of ref_eval.c: random formulas with nested #> and # on all short words
 * (whole words, word-by-word pushes, and passes the caller drives as
 * from a file: eval_pass_begin), long words that cross the
 * machine's blocks and the bytes of the packed codes, and alphabets wide
 * enough for 8-, 16- and 32-bit codes.  Also the promises of the man page:
 * passes = 1 + #>-nesting, bytes per symbol.
 *
 * TALLY_TEST_MULTIPLIER=N runs N times as many random formulas. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "machine/codebuf.h"
#include "machine/eval.h"
#include "fixture.h"
#include "core/print.h"
#include "randgen.h"
#include "ref_eval.h"
#include "suites.h"

FIXTURE_PER_TEST

/* ---- the packed codes ---------------------------------------------------- */

/* Bits per code the header promises for ncodes codes. */
static const struct {
	size_t ncodes;
	unsigned bits;
} widths[] = {
	{1, 1}, {2, 1}, {3, 2}, {4, 2}, {5, 4}, {16, 4}, {17, 8}, {256, 8},
	{257, 16}, {65536, 16}, {65537, 32},
};

START_TEST(codebuf_roundtrip)
{
	size_t nc = widths[_i].ncodes;
	CodeBuf b;
	codebuf_init(&b, nc);
	ck_assert_uint_eq(b.bits, widths[_i].bits);
	enum { N = 5003 };
	uint32_t *want = malloc(N * sizeof *want), got[64];
	Rng rng;
	rng_seed(&rng, 0xc0debu + (uint64_t)_i);
	for (int round = 0; round < 2; round++) {
		codebuf_clear(&b);
		for (size_t i = 0; i < N; i++) {
			/* the extremes often: 0 and ncodes - 1 */
			uint32_t r = rng_below(&rng, 4);
			want[i] = r == 0 ? 0 : r == 1 ? (uint32_t)(nc - 1)
					      : rng_below(&rng, (uint32_t)nc);
		}
		/* one by one, then in chunks of any length and alignment */
		for (size_t i = 0, m; i < N; i += m) {
			m = round == 0 ? 1 : 1 + rng_below(&rng, 40);
			if (m > N - i)
				m = N - i;
			if (m == 1)
				codebuf_push(&b, want[i]);
			else
				codebuf_push_many(&b, want + i, m);
		}
		ck_assert_uint_eq(b.n, N);
		ck_assert_uint_eq(codebuf_bytes(&b),
				  (N * (size_t)b.bits + 7) / 8);
		for (size_t from = 0; from < N;) {
			size_t m = 1 + rng_below(&rng, 64);
			if (m > N - from)
				m = N - from;
			codebuf_get(&b, from, m, got);
			for (size_t i = 0; i < m; i++)
				ck_assert_msg(got[i] == want[from + i],
					      "ncodes %zu: code %zu is %u, "
					      "pushed %u", nc, from + i,
					      got[i], want[from + i]);
			from += m;
		}
	}
	free(want);
	codebuf_free(&b);
}
END_TEST

/* ---- random formulas against the reference ------------------------------ */

/* The largest number of #> on a path from each node down, by node id
 * (kids have smaller ids); written here, not taken from machine.c. */
static unsigned future_nesting(Node root)
{
	size_t total = store_node_count(s);
	unsigned *d = calloc(total + 1, sizeof *d), r;
	for (Node n = 1; n <= root; n++) {
		for (uint32_t k = 0; k < store_nkids(s, n); k++)
			if (d[store_kid(s, n, k)] > d[n])
				d[n] = d[store_kid(s, n, k)];
		d[n] += store_op(s, n) == OP_FCOUNT;
	}
	r = d[root];
	free(d);
	return r;
}

/* Boolean combinations of letters (!, &, |, true, false). */
static bool letter_function(Node n)
{
	switch (store_op(s, n)) {
	case OP_LETTER: case OP_TRUE: case OP_FALSE: return true;
	case OP_NOT: case OP_AND: case OP_OR:
		for (uint32_t k = 0; k < store_nkids(s, n); k++)
			if (!letter_function(store_kid(s, n, k)))
				return false;
		return true;
	default: return false;
	}
}

/* The passes eval.h promises: 1 + the largest #>-nesting, one less when
 * every innermost #> counts a letter function. */
static unsigned expected_passes(const Node *roots, size_t nroots)
{
	unsigned most = 0;
	bool letters = true;
	size_t total = store_node_count(s);
	unsigned char *m = calloc(total + 1, 1);
	for (size_t r = 0; r < nroots; r++) {
		m[roots[r]] = 1;
		if (future_nesting(roots[r]) > most)
			most = future_nesting(roots[r]);
	}
	for (Node n = (Node)total; n >= 1; n--) {
		if (!m[n])
			continue;
		if (store_op(s, n) == OP_FCOUNT && future_nesting(n) == 1 &&
		    !letter_function(store_kid(s, n, 0)))
			letters = false;
		for (uint32_t k = 0; k < store_nkids(s, n); k++)
			m[store_kid(s, n, k)] = 1;
	}
	free(m);
	return most + 1 - (most > 0 && letters);
}

static bool has_past_count(Node root)
{
	size_t total = store_node_count(s);
	unsigned char *m = calloc(total + 1, 1);
	bool found = false;
	m[root] = 1;
	for (Node n = root; n >= 1 && !found; n--) {
		if (!m[n])
			continue;
		found = store_op(s, n) == OP_COUNT;
		for (uint32_t k = 0; k < store_nkids(s, n); k++)
			m[store_kid(s, n, k)] = 1;
	}
	free(m);
	return found;
}

static char *word_text(const Sym *w, size_t n)
{
	Buf b = {0};
	buf_puts(&b, n ? "" : "ε");
	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%s%s", i ? " " : "", sym_name(store_syms(s), w[i]));
	return buf_take(&b);
}

static void mismatch(Node root, const Sym *w, size_t n, AcceptAt a,
		 const char *how, bool want)
{
	char *f = tl_print(s, root, SYNTAX_TL, NULL);
	char *wt = word_text(w, n);
	ck_abort_msg("%s disagrees with the reference (accept-at=%s)\n"
		     "  formula: %s\n  word: %s\n  reference: %s", how,
		     eval_accept_name(a), f, wt, want ? "accept" : "reject");
}

/* A formula with #>-nesting at least 2 that has past counts too. */
static Node nested_formula(Rng *rng, const GenOptions *o)
{
	for (;;) {
		Node f = randgen_formula(s, rng, o);
		if (future_nesting(f) >= 2 && has_past_count(f))
			return f;
	}
}

enum { ROOTS = 2 };

/* The word through passes the caller drives (eval_pass_begin, as from a
 * file): the letters as Syms, or, with bytes, as their one-byte names
 * through eval_push_bytes (in two pieces, the way a reader hands runs). */
static void passes_word(Evaluator *ev, const Sym *w, size_t n, bool bytes,
			bool *acc)
{
	/* the same table for every word (eval_push_bytes keeps its codes) */
	Sym byte_sym[256];
	unsigned char text[16];
	for (int c = 0; c < 256; c++)
		byte_sym[c] = SYM_NONE;
	for (const char *l = "abc"; *l; l++)
		byte_sym[(unsigned char)*l] = fixture_letter(&fx, (char[]){*l, 0});
	for (size_t i = 0; i < n; i++)
		text[i] = (unsigned char)sym_name(store_syms(s), w[i])[0];
	unsigned np = eval_pass_count(ev);
	for (unsigned k = 0; k < np; k++) {
		eval_pass_begin(ev, k);
		if (bytes) {
			size_t h = n / 2;
			ck_assert_uint_eq(eval_push_bytes(ev, text, h, byte_sym), h);
			ck_assert_uint_eq(eval_push_bytes(ev, text + h, n - h,
							  byte_sym), n - h);
		} else {
			eval_push_many(ev, w, n);
		}
		if (k + 1 < np)
			eval_pass_end(ev);
	}
	for (size_t r = 0; r < ROOTS; r++)
		acc[r] = eval_accepts(ev, r);
}

/* Every word over alpha[0..sigma) up to length maxlen, both conventions:
 * eval_word, and pushes one letter at a time on the longest words. */
static void all_words(const Node *roots, const Sym *alpha, unsigned sigma,
		      size_t maxlen)
{
	for (int a = 0; a < 2; a++) {
		Evaluator *ev = eval_new(s, roots, ROOTS, (AcceptAt)a);
		Evaluator *pv = eval_new(s, roots, ROOTS, (AcceptAt)a);
		ck_assert_uint_eq(eval_passes(ev),
				  expected_passes(roots, ROOTS));
		ck_assert_uint_eq(eval_pass_count(pv),
				  1 + future_nesting(roots[0]) >
					  1 + future_nesting(roots[1])
					  ? 1 + future_nesting(roots[0])
					  : 1 + future_nesting(roots[1]));
		ck_assert(!eval_streams(ev));
		unsigned digits[16];
		Sym w[16];
		for (size_t n = 0; n <= maxlen; n++) {
			memset(digits, 0, sizeof digits);
			do {
				for (size_t i = 0; i < n; i++)
					w[i] = alpha[digits[i]];
				bool acc[ROOTS];
				eval_word(ev, w, n, acc);
				for (size_t r = 0; r < ROOTS; r++) {
					bool want = ref_accepts(s, roots[r], w,
								n, a == ACCEPT_EOS);
					if (acc[r] != want)
						mismatch(roots[r], w, n, a,
						     "eval_word", want);
				}
				passes_word(pv, w, n, n % 2, acc);
				for (size_t r = 0; r < ROOTS; r++)
					if (acc[r] != ref_accepts(s, roots[r], w, n,
								  a == ACCEPT_EOS))
						mismatch(roots[r], w, n, a,
							 "eval_pass_begin", !acc[r]);
				if (n < maxlen)
					continue;
				eval_reset(ev);
				for (size_t k = 0; k <= n; k++) {
					if (k)
						eval_push(ev, w[k - 1]);
					for (size_t r = 0; r < ROOTS; r++) {
						bool want = ref_accepts(
							s, roots[r], w, k,
							a == ACCEPT_EOS);
						if (eval_accepts(ev, r) != want)
							mismatch(roots[r], w, k, a,
							     "eval_push", want);
					}
				}
			} while (fixture_next_word(digits, n, sigma));
		}
		eval_free(pv);
		eval_free(ev);
	}
}

enum { NESTED_FORMULAS = 8 };

/* _i even: 2 letters, words up to 8; odd: 3 letters, up to 6. */
START_TEST(nested_future_all_words)
{
	unsigned sigma = _i % 2 ? 3 : 2;
	size_t maxlen = _i % 2 ? 6 : 8;
	Sym alpha[3] = {fixture_letter(&fx, "a"), fixture_letter(&fx, "b"),
			fixture_letter(&fx, "c")};
	GenOptions o = {.letters = alpha, .nletters = sigma, .max_depth = 3,
			.max_size = 16, .future = true, .positional = true,
			.extended = true};
	Rng rng;
	rng_seed(&rng, 0x9a55e5u + (uint64_t)_i);
	unsigned nf = test_count(NESTED_FORMULAS);
	for (unsigned f = 0; f < nf; f++) {
		Node roots[ROOTS] = {nested_formula(&rng, &o),
				     randgen_formula(s, &rng, &o)};
		all_words(roots, alpha, sigma, maxlen);
	}
}
END_TEST

/* Hand-picked pairs: future counts of negated letters and of true, which
 * count the end marker under --accept-at=eos (also when the letter
 * counts replace pass 0), and nesting under Y and MOD. */
static const char *const picked[][ROOTS] = {
	{"#[#[true] = 1 & #>[!Q_a] = 3] = 1", "#[#[true] = 1 & #>[true] = 4] = 1"},
	{"#[#>[!Q_b | Q_a] > #>[Q_b]] >= 2", "#>[true] = 1 & Q_a"},
	{"#[Y (#>[Q_a & #>[!Q_a] >= 2] = 1)] = 1",
	 "#[MOD(2, 1) & #>[#>[Q_b] > #[Q_a]] >= 1] >= 2"},
};

START_TEST(picked_pairs)
{
	Sym alpha[2] = {fixture_letter(&fx, "a"), fixture_letter(&fx, "b")};
	Node roots[ROOTS];
	for (size_t r = 0; r < ROOTS; r++)
		roots[r] = fixture_must_parse(&fx, picked[_i][r]);
	all_words(roots, alpha, 2, 8);
}
END_TEST

/* Random words of lengths around the machine's block (1024 positions)
 * and beyond, on formulas of count depth <= 2 (the reference is
 * quadratic there). */
START_TEST(long_words)
{
	Sym alpha[3] = {fixture_letter(&fx, "a"), fixture_letter(&fx, "b"),
			fixture_letter(&fx, "c")};
	GenOptions o = {.letters = alpha, .nletters = 3, .max_depth = 2,
			.max_size = 12, .future = true, .positional = true,
			.extended = true};
	Rng rng;
	rng_seed(&rng, 0x10b6u);
	enum { MAXN = 2100 };
	Sym *w = malloc(MAXN * sizeof *w);
	for (int f = 0; f < 6; f++) {
		Node root;
		do
			root = randgen_formula(s, &rng, &o);
		while (future_nesting(root) < 1);
		for (int a = 0; a < 2; a++) {
			Evaluator *ev = eval_new(s, &root, 1, (AcceptAt)a);
			size_t n = 1000 + rng_below(&rng, MAXN - 1000);
			for (size_t i = 0; i < n; i++)
				w[i] = alpha[rng_below(&rng, 3)];
			bool acc;
			eval_word(ev, w, n, &acc);
			bool want = ref_accepts(s, root, w, n, a == ACCEPT_EOS);
			if (acc != want)
				mismatch(root, w, n, a, "eval_word (long)", want);
			/* the letters mentioned and "other": 2 bits per
			 * symbol, 1 bit when one letter is mentioned */
			size_t nl;
			free(store_letters(s, root, &nl));
			size_t bits = nl + 1 <= 2 ? 1 : 2;
			ck_assert_uint_eq(eval_word_bytes(ev), (n * bits + 7) / 8);
			eval_free(ev);
		}
	}
	free(w);
}
END_TEST

/* Formulas mentioning k letters: codes of 8 bits (k = 20) and 16 bits
 * (k = 300) (32-bit codes only in codebuf_roundtrip: the evaluator's
 * letter tables grow with nodes x letters); the formula is "at position 1 the
 * letters other than l0 outnumber l0 in the whole word", and an l0 / l1
 * nested future formula beside it. */
static const size_t wide[] = {20, 300};

/* #[#[true] = 1 & phi] = 1: phi holds at position 1. */
static Node at_first(Node phi)
{
	Node one = store_make_const_si(s, 1);
	Node first = store_make_cmp(s, REL_EQ,
				    store_make_count(s, store_make_true(s)), one);
	return store_make_cmp(s, REL_EQ, store_make_count(s,
			      store_make_and2(s, first, phi)), one);
}

START_TEST(wide_alphabets)
{
	size_t k = wide[_i];
	Sym *letters = malloc(k * sizeof *letters);
	Node *tests = malloc(k * sizeof *tests);
	char name[32];
	for (size_t i = 0; i < k; i++) {
		snprintf(name, sizeof name, "l%zu", i);
		letters[i] = fixture_letter(&fx, name);
		tests[i] = store_make_letter(s, letters[i]);
	}
	Node others = store_make_or(s, tests + 1, k - 1);
	Node more = store_make_cmp(s, REL_GT, store_make_fcount(s, others),
				   store_make_fcount(s, tests[0]));
	/* #>[l1 & #>[l0] >= 1] >= 2: two l1 before the last l0 */
	Node late = store_make_cmp(s, REL_GE, store_make_fcount(s, tests[0]),
				   store_make_const_si(s, 1));
	Node two = store_make_cmp(s, REL_GE, store_make_fcount(s,
				  store_make_and2(s, tests[1], late)),
				  store_make_const_si(s, 2));
	Node roots[ROOTS] = {at_first(more), at_first(two)};
	Evaluator *ev = eval_new(s, roots, ROOTS, ACCEPT_LAST);
	/* #>[l0] and #>[others] count letters: one pass fewer */
	ck_assert_uint_eq(eval_passes(ev), 2);
	Rng rng;
	rng_seed(&rng, 0x1de + (uint64_t)_i);
	Sym w[24];
	for (int t = 0; t < 300; t++) {
		size_t n = rng_below(&rng, 24);
		for (size_t i = 0; i < n; i++) {
			/* mostly l0 and l1, so that both roots vary */
			uint32_t r = rng_below(&rng, 4);
			w[i] = letters[r < 2 ? r : rng_below(&rng, (uint32_t)k)];
		}
		bool acc[ROOTS];
		eval_word(ev, w, n, acc);
		for (size_t r = 0; r < ROOTS; r++) {
			bool want = ref_accepts(s, roots[r], w, n, false);
			if (acc[r] != want)
				mismatch(roots[r], w, n, ACCEPT_LAST, "eval_word",
				     want);
		}
		size_t per = k < 256 ? 1 : 2;
		ck_assert_uint_eq(eval_word_bytes(ev), n * per);
	}
	eval_free(ev);
	free(tests);
	free(letters);
}
END_TEST

Suite *passes_suite(void)
{
	Suite *su = suite_create("passes");
	TCase *tc = tcase_create("codebuf");
	tcase_add_loop_test(tc, codebuf_roundtrip, 0,
			    (int)(sizeof widths / sizeof widths[0]));
	suite_add_tcase(su, tc);

	tc = tcase_create("reference");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600 * test_multiplier());
	tcase_add_loop_test(tc, nested_future_all_words, 0, 4);
	tcase_add_loop_test(tc, picked_pairs, 0,
			    (int)(sizeof picked / sizeof picked[0]));
	tcase_add_test(tc, long_words);
	tcase_add_loop_test(tc, wide_alphabets, 0,
			    (int)(sizeof wide / sizeof wide[0]));
	suite_add_tcase(su, tc);
	return su;
}
