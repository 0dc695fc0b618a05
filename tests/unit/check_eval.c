/* check_eval.c -- the evaluator (src/eval.c) against independent answers:
 * the naive reference of ref_eval.c on random formulas and all short
 * words, the hand-written membership functions of membership.c on the
 * prelude languages, and hand-derived verdicts for the edge cases
 * (empty word, the end marker, huge and near-2^63 coefficients).
 *
 * TALLY_TEST_MULTIPLIER=N (check-heavy) runs N times as many random
 * formulas. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "cli/commands.h"
#include "machine/eval.h"
#include "machine/machine.h"
#include "membership.h"
#include "core/parse.h"
#include "core/print.h"
#include "randgen.h"
#include "ref_eval.h"
#include "fixture.h"
#include "suites.h"

FIXTURE_PER_TEST

/* Parses text, which must be a valid formula. */
static Node parse(const char *text)
{
	char *err;
	Node r = fixture_parse(&fx, text, &err);
	ck_assert_msg(r != NODE_NONE, "%s: %s", text, err);
	free(err);
	return r;
}

static Sym letter(const char *name)
{
	return sym_intern(store_syms(s), name, strlen(name));
}

/* The word as text: letters joined, "ε" when empty. */
static char *word_text(const Sym *w, size_t n)
{
	Buf b = {0};
	buf_puts(&b, "");
	for (size_t i = 0; i < n; i++)
		buf_puts(&b, sym_name(store_syms(s), w[i]));
	if (n == 0)
		buf_puts(&b, "ε");
	return buf_take(&b);
}

static const char *conv_name(AcceptAt a)
{
	return a == ACCEPT_EOS ? "eos" : "last";
}

/* The verdict of a whole word through eval_word. */
static bool verdict(Evaluator *ev, const Sym *w, size_t n)
{
	bool acc[1];
	eval_word(ev, w, n, acc);
	return acc[0];
}

/* ---- differential: random formulas, all words of length <= 8 -------- */

enum { DIFF_LEN = 8, DIFF_SIGMA = 3, DIFF_ROOTS = 2 };

/* Every node of the DAGs below roots, by increasing id. */
static Node *reachable(const Node *roots, size_t nroots, size_t *count)
{
	size_t total = store_node_count(s);
	unsigned char *mark = calloc(total + 1, 1);
	for (size_t r = 0; r < nroots; r++)
		mark[roots[r]] = 1;
	*count = 0;
	for (size_t n = total; n >= 1; n--) /* kids have smaller ids */
		if (mark[n]) {
			++*count;
			for (uint32_t k = 0; k < store_nkids(s, (Node)n); k++)
				mark[store_kid(s, (Node)n, k)] = 1;
		}
	Node *out = malloc(*count * sizeof *out + 1);
	size_t m = 0;
	for (size_t n = 1; n <= total; n++)
		if (mark[n])
			out[m++] = (Node)n;
	free(mark);
	return out;
}

/* Report one disagreement and stop the test.  A node of the table may
 * belong to either root, so both formulas are shown. */
static void disagree(const Node *roots, size_t nroots, Node node,
		     const Sym *w, size_t n, AcceptAt a, const char *what,
		     size_t pos, const fmpz_t want, const fmpz_t got)
{
	Buf b = {0};
	for (size_t r = 0; r < nroots; r++) {
		char *f = tl_print(s, roots[r], SYNTAX_TL, NULL);
		buf_printf(&b, "\n  formula %zu:  %s", r, f);
		free(f);
	}
	char *sub = tl_print(s, node, SYNTAX_TL, NULL);
	char *wt = word_text(w, n);
	char *ws = fmpz_get_str(NULL, 10, want);
	char *gs = fmpz_get_str(NULL, 10, got);
	ck_abort_msg("%s disagrees with the reference (accept-at=%s)%s\n"
		     "  subformula: %s\n  word: %s  position: %zu\n"
		     "  reference: %s  evaluator: %s",
		     what, conv_name(a), b.data, sub, wt, pos, ws, gs);
}

typedef struct {
	Node roots[DIFF_ROOTS];
	Node *nodes; /* reachable from the roots */
	size_t nnodes;
	Evaluator *ev[2]; /* indexed by AcceptAt */
	/* reference verdicts per convention, root and word index */
	bool *ref[2][DIFF_ROOTS];
} Diff;

/* Words of length <= DIFF_LEN in shortlex order have indices
 * base(len) + value, value the word read as a base-3 number. */
static size_t word_base(size_t len)
{
	size_t b = 0, p = 1;
	for (size_t l = 0; l < len; l++, p *= DIFF_SIGMA)
		b += p;
	return b;
}

/* The next word of length n in shortlex order, as digits base sigma
 * (an odometer); false after the last one, with digits back to 0...0. */
static size_t word_index(const unsigned *digits, size_t len)
{
	size_t v = 0;
	for (size_t i = 0; i < len; i++)
		v = v * DIFF_SIGMA + digits[i];
	return word_base(len) + v;
}

/* Table entries of every node (or only the roots) at every position. */
static void check_table(Diff *d, AcceptAt a, const Sym *w, size_t n,
			bool all_nodes)
{
	Sym x[DIFF_LEN + 1];
	memcpy(x, w, n * sizeof *w);
	x[n] = SYM_NONE;
	size_t len = a == ACCEPT_EOS ? n + 1 : n;
	EvalTable *t = eval_table(d->ev[a], w, n);
	size_t first = eval_table_first(t), last = eval_table_last(t);
	ck_assert_msg(last == len, "eval_table_last is %zu on a word of "
		      "length %zu (accept-at=%s)", last, n, conv_name(a));
	ck_assert_msg(first == (len == 0 ? 0 : 1), "eval_table_first is %zu "
		      "on a word of length %zu (accept-at=%s)", first, n,
		      conv_name(a));
	fmpz_t want, got;
	fmpz_init(want);
	fmpz_init(got);
	size_t nn = all_nodes ? d->nnodes : DIFF_ROOTS;
	for (size_t k = 0; k < nn; k++) {
		Node node = all_nodes ? d->nodes[k] : d->roots[k];
		for (size_t i = first; i <= last; i++) {
			ref_value(s, node, x, len, i, want);
			if (store_is_bool(s, node))
				fmpz_set_ui(got, eval_table_bool(t, node, i));
			else
				eval_table_int(t, node, i, got);
			if (!fmpz_equal(want, got))
				disagree(d->roots, DIFF_ROOTS, node, w,
					 n, a, "eval_table", i, want, got);
		}
	}
	fmpz_clear(want);
	fmpz_clear(got);
	eval_table_free(t);
}

static void check_verdicts(Diff *d, AcceptAt a, const Sym *w, size_t n,
			   size_t index)
{
	bool acc[DIFF_ROOTS];
	eval_word(d->ev[a], w, n, acc);
	for (size_t r = 0; r < DIFF_ROOTS; r++) {
		bool want = ref_accepts(s, d->roots[r], w, n, a == ACCEPT_EOS);
		d->ref[a][r][index] = want;
		if (acc[r] != want) {
			fmpz_t fw, fg;
			fmpz_init_set_ui(fw, want);
			fmpz_init_set_ui(fg, acc[r]);
			disagree(&d->roots[r], 1, d->roots[r], w, n, a,
				 "eval_word", a == ACCEPT_EOS ? n + 1 : n, fw,
				 fg);
		}
	}
}

/* Streams every longest word, asking for the verdicts of all prefixes;
 * they were all checked against the reference by check_verdicts. */
static void check_stream(Diff *d, AcceptAt a, const Sym *alpha)
{
	Evaluator *ev = d->ev[a];
	unsigned digits[DIFF_LEN] = {0};
	Sym w[DIFF_LEN];
	size_t total = 1;
	for (size_t l = 0; l < DIFF_LEN; l++)
		total *= DIFF_SIGMA;
	for (size_t v = 0; v < total; v++) {
		size_t x = v;
		for (size_t i = DIFF_LEN; i-- > 0; x /= DIFF_SIGMA) {
			digits[i] = (unsigned)(x % DIFF_SIGMA);
			w[i] = alpha[digits[i]];
		}
		eval_reset(ev);
		for (size_t k = 0; k <= DIFF_LEN; k++) {
			if (k > 0)
				eval_push(ev, w[k - 1]);
			size_t idx = word_index(digits, k);
			for (size_t r = 0; r < DIFF_ROOTS; r++) {
				bool got = eval_accepts(ev, r);
				if (got == d->ref[a][r][idx])
					continue;
				fmpz_t fw, fg;
				fmpz_init_set_ui(fw, d->ref[a][r][idx]);
				fmpz_init_set_ui(fg, got);
				disagree(&d->roots[r], 1, d->roots[r], w, k,
					 a, "streaming eval_accepts", k, fw,
					 fg);
			}
		}
	}
}

/* Full tables of every node on the words of length <= this; only the
 * roots' rows beyond (the naive reference is exponential in depth). */
enum { DIFF_FULL_LEN = 5 };

static void differential(uint64_t seed, unsigned formulas, bool future)
{
	Sym alpha[DIFF_SIGMA] = {letter("a"), letter("b"), letter("c")};
	GenOptions o = {.letters = alpha,
			.nletters = DIFF_SIGMA,
			.max_depth = 3,
			.max_size = 14,
			.future = future,
			.positional = true,
			.extended = true};
	Rng rng;
	rng_seed(&rng, seed);
	size_t nwords = word_base(DIFF_LEN + 1);
	for (unsigned f = 0; f < formulas; f++) {
		Diff d = {0};
		for (size_t r = 0; r < DIFF_ROOTS; r++) {
			d.roots[r] = randgen_formula(s, &rng, &o);
			for (int a = 0; a < 2; a++)
				d.ref[a][r] = malloc(nwords);
		}
		d.nodes = reachable(d.roots, DIFF_ROOTS, &d.nnodes);
		d.ev[ACCEPT_LAST] = eval_new(s, d.roots, DIFF_ROOTS,
					     ACCEPT_LAST);
		d.ev[ACCEPT_EOS] = eval_new(s, d.roots, DIFF_ROOTS, ACCEPT_EOS);
		bool past = !(store_flags(s, d.roots[0]) & FLAG_FUTURE) &&
			    !(store_flags(s, d.roots[1]) & FLAG_FUTURE);
		ck_assert_int_eq(eval_streams(d.ev[ACCEPT_LAST]), past);

		unsigned digits[DIFF_LEN];
		Sym w[DIFF_LEN];
		for (size_t n = 0; n <= DIFF_LEN; n++) {
			memset(digits, 0, sizeof digits);
			for (;;) {
				for (size_t i = 0; i < n; i++)
					w[i] = alpha[digits[i]];
				size_t idx = word_index(digits, n);
				for (int a = 0; a < 2; a++) {
					check_verdicts(&d, (AcceptAt)a, w, n,
						       idx);
					check_table(&d, (AcceptAt)a, w, n,
						    n <= DIFF_FULL_LEN);
				}
				if (!fixture_next_word(digits, n, DIFF_SIGMA))
					break;
			}
		}
		if (past)
			for (int a = 0; a < 2; a++)
				check_stream(&d, (AcceptAt)a, alpha);
		for (int a = 0; a < 2; a++) {
			eval_free(d.ev[a]);
			for (size_t r = 0; r < DIFF_ROOTS; r++)
				free(d.ref[a][r]);
		}
		free(d.nodes);
	}
}

/* Formula pairs per run; each pair is checked on 9841 words under both
 * conventions. */
enum { DIFF_PAIRS = 30 };

START_TEST(differential_past)
{
	differential(0x7a11e001u + (uint64_t)_i, test_count(DIFF_PAIRS),
		     false);
}
END_TEST

START_TEST(differential_future)
{
	differential(0x7a11e101u + (uint64_t)_i, test_count(DIFF_PAIRS),
		     true);
}
END_TEST

/* ---- the prelude against hand-written membership -------------------- */

enum { PRELUDE_LEN = 12 };

typedef struct {
	const MembershipLang *lang;
	Evaluator *ev;
	Sym alpha[4];
	char text[PRELUDE_LEN + 1]; /* the word as characters */
	Sym w[PRELUDE_LEN];
} Walk;

static void lang_fail(const Walk *k, size_t n, const char *how, bool got)
{
	ck_abort_msg("%s on '%.*s' (%s): evaluator says %s, membership "
		     "function says %s", k->lang->name, (int)n, k->text, how,
		     got ? "accept" : "reject", got ? "reject" : "accept");
}

/* Depth-first over all words: snapshots at every node, as tally lang. */
static void walk(Walk *k, size_t n)
{
	bool got = eval_accepts(k->ev, 0);
	if (got != k->lang->member(k->text, n))
		lang_fail(k, n, "snapshot walk", got);
	if (n == PRELUDE_LEN)
		return;
	EvalSnapshot *snap = eval_save(k->ev);
	for (size_t c = 0; k->lang->alphabet[c]; c++) {
		eval_restore(k->ev, snap);
		k->text[n] = k->lang->alphabet[c];
		k->w[n] = k->alpha[c];
		eval_push(k->ev, k->alpha[c]);
		walk(k, n + 1);
	}
	eval_snapshot_free(snap);
}

START_TEST(prelude_languages)
{
	const MembershipLang *lang = &membership_langs[_i];
	Walk k = {.lang = lang};
	size_t sigma = strlen(lang->alphabet);
	for (size_t c = 0; c < sigma; c++)
		k.alpha[c] = sym_intern(store_syms(s), &lang->alphabet[c], 1);
	Node root = parse(lang->name);
	k.ev = eval_new(s, &root, 1, ACCEPT_LAST);
	unsigned digits[PRELUDE_LEN];
	for (size_t n = 0; n <= PRELUDE_LEN; n++) {
		memset(digits, 0, sizeof digits);
		for (;;) {
			for (size_t i = 0; i < n; i++) {
				k.text[i] = lang->alphabet[digits[i]];
				k.w[i] = k.alpha[digits[i]];
			}
			bool got = verdict(k.ev, k.w, n);
			if (got != lang->member(k.text, n))
				lang_fail(&k, n, "eval_word", got);
			/* streaming: every prefix of every longest word */
			if (n == PRELUDE_LEN && eval_streams(k.ev)) {
				eval_reset(k.ev);
				for (size_t i = 0; i <= n; i++) {
					if (i > 0)
						eval_push(k.ev, k.w[i - 1]);
					got = eval_accepts(k.ev, 0);
					if (got != lang->member(k.text, i))
						lang_fail(&k, i, "streaming",
							  got);
				}
			}
			if (!fixture_next_word(digits, n, sigma))
				break;
		}
	}
	if (eval_streams(k.ev)) {
		eval_reset(k.ev);
		walk(&k, 0);
	}
	eval_free(k.ev);
}
END_TEST

/* ---- edge cases with hand-derived answers --------------------------- */

/* The verdict of formula text on a word of one-character letters. */
static bool accepts(const char *formula, const char *word, AcceptAt a)
{
	Node root = parse(formula);
	size_t n = strlen(word);
	Sym w[64];
	ck_assert_uint_le(n, 64);
	for (size_t i = 0; i < n; i++)
		w[i] = sym_intern(store_syms(s), &word[i], 1);
	Evaluator *ev = eval_new(s, &root, 1, a);
	bool r = verdict(ev, w, n);
	eval_free(ev);
	/* the reference must agree with the hand-derived answers too */
	ck_assert_msg(ref_accepts(s, root, w, n, a == ACCEPT_EOS) == r,
		      "'%s' on '%s' (%s): the reference disagrees", formula,
		      word, conv_name(a));
	return r;
}

#define ACCEPT(f, w, a) ck_assert_msg(accepts(f, w, a), \
	"'%s' should accept '%s' (accept-at=%s)", f, w, conv_name(a))
#define REJECT(f, w, a) ck_assert_msg(!accepts(f, w, a), \
	"'%s' should reject '%s' (accept-at=%s)", f, w, conv_name(a))

START_TEST(empty_word_is_position_0)
{
	/* position 0: no letter, every count 0, Y false, MOD(m, r) iff r=0 */
	const char *f = "!Q_a & !Q_b & #[true] = 0 & #[Q_a] = 0 & "
			"#>[true] = 0 & !(Y true) & MOD(3, 0) & !MOD(3, 1)";
	ACCEPT(f, "", ACCEPT_LAST);
	ACCEPT("dyck1", "", ACCEPT_LAST);
	REJECT("anbn", "", ACCEPT_LAST);
	ACCEPT("anbncn", "", ACCEPT_LAST);
	REJECT("#[true] >= 0 & Q_a", "", ACCEPT_LAST);
	ACCEPT("!Q_a", "", ACCEPT_LAST);

	Node root = parse(f);
	Evaluator *ev = eval_new(s, &root, 1, ACCEPT_LAST);
	EvalTable *t = eval_table(ev, NULL, 0);
	ck_assert_uint_eq(eval_table_first(t), 0);
	ck_assert_uint_eq(eval_table_last(t), 0);
	ck_assert(eval_table_bool(t, root, 0));
	eval_table_free(t);
	eval_free(ev);
	/* streaming (past-only formulas): the verdict before any push */
	root = parse("!Q_a & #[true] = 0 & !(Y true) & MOD(3, 0)");
	ev = eval_new(s, &root, 1, ACCEPT_LAST);
	eval_reset(ev);
	ck_assert(eval_accepts(ev, 0));
	eval_free(ev);

	/* under eos the empty word is judged at the marker, position 1 */
	ACCEPT("#[true] = 1 & #>[true] = 1 & !Q_a & !(Y true) & MOD(2, 1)",
	       "", ACCEPT_EOS);
	REJECT("#[true] = 0", "", ACCEPT_EOS);
}
END_TEST

START_TEST(one_letter_words)
{
	ACCEPT("Q_a & #[true] = 1 & #>[true] = 1 & !(Y true) & MOD(2, 1)",
	       "a", ACCEPT_LAST);
	REJECT("Q_b", "a", ACCEPT_LAST);
	ACCEPT("L_1", "a", ACCEPT_LAST);
	REJECT("L_1", "b", ACCEPT_LAST);
	REJECT("majority", "b", ACCEPT_LAST);
	ACCEPT("majority", "a", ACCEPT_LAST);
	REJECT("dyck1", "(", ACCEPT_LAST);
	REJECT("dyck1", ")", ACCEPT_LAST);
	/* at the marker after "a": Y Q_a holds, two positions */
	ACCEPT("Y Q_a & !Q_a & #[true] = 2 & #[Q_a] = 1 & MOD(2, 0)", "a",
	       ACCEPT_EOS);
}
END_TEST

START_TEST(eos_switch)
{
	/* Q_b defines Σ*b under last; under eos no letter test holds at the
	 * marker, so it accepts nothing (logic.md §1). */
	ACCEPT("Q_b", "ab", ACCEPT_LAST);
	REJECT("Q_b", "ab", ACCEPT_EOS);
	REJECT("Q_b", "", ACCEPT_EOS);
	ACCEPT("Y Q_b", "ab", ACCEPT_EOS);
	REJECT("Y Q_b", "ab", ACCEPT_LAST);
	/* counts at the marker see the whole word */
	ACCEPT("majority", "aab", ACCEPT_EOS);
	ACCEPT("dyck1", "(())", ACCEPT_EOS);
	REJECT("dyck1", "())", ACCEPT_EOS);
	/* the marker is a position of the extended word: #> at the last
	 * letter counts it */
	ACCEPT("#[Q_b & #>[true] = 2] = 1", "ab", ACCEPT_EOS);
	ACCEPT("#[Q_b & #>[true] = 1] = 1", "ab", ACCEPT_LAST);
	ACCEPT("#[true] = 3 & MOD(3, 0)", "ab", ACCEPT_EOS);
}
END_TEST

/* The huge-constant and overflow formulas against plain C predicates of
 * the letter counts and the last letter ('\0' for the empty word), on all
 * words of length <= 10 over {a, b}. */
typedef bool (*CountPred)(long na, long nb, char last);

static bool more_a(long na, long nb, char last) { return na > nb; }
static bool a_ge_b(long na, long nb, char last) { return na >= nb; }
static bool a_ge_b_nonzero(long na, long nb, char last)
{
	return na > nb || (na == nb && nb > 0);
}
static bool equal_ab(long na, long nb, char last) { return na == nb; }
static bool at_least_two_a(long na, long nb, char last) { return na >= 2; }
static bool fewer_a(long na, long nb, char last) { return na < nb; }
static bool never(long na, long nb, char last) { return false; }
static bool ends_a_or_equal(long na, long nb, char last)
{
	return last == 'a' || na == nb;
}
static bool not_ends_a(long na, long nb, char last) { return last != 'a'; }

static void check_counts(const char *formula, CountPred want)
{
	Node root = parse(formula);
	Sym ab[2] = {letter("a"), letter("b")};
	Evaluator *ev = eval_new(s, &root, 1, ACCEPT_LAST);
	Sym w[10];
	for (size_t n = 0; n <= 10; n++)
		for (unsigned long v = 0; v < 1ul << n; v++) {
			long na = 0;
			for (size_t i = 0; i < n; i++) {
				w[i] = ab[(v >> i) & 1];
				na += !((v >> i) & 1);
			}
			char last = n == 0 ? '\0' : (v >> (n - 1)) & 1 ? 'b'
									: 'a';
			bool got = verdict(ev, w, n);
			if (got != want(na, (long)n - na, last)) {
				char *wt = word_text(w, n);
				ck_abort_msg("'%s' on '%s': evaluator says %d",
					     formula, wt, got);
			}
			ck_assert_int_eq(ref_accepts(s, root, w, n, false),
					 got);
		}
	eval_free(ev);
}

START_TEST(huge_constants)
{
	const char *e40 = "10000000000000000000000000000000000000000";
	const char *e40m1 = "9999999999999999999999999999999999999999";
	char f[512];
	snprintf(f, sizeof f, "%s * #[Q_a] > %s * #[Q_b] + 1", e40, e40);
	check_counts(f, more_a);
	/* 10^40 (#a - #b) + #b > 0: floats would lose the #b */
	snprintf(f, sizeof f, "%s * #[Q_a] - %s * #[Q_b] > 0", e40, e40m1);
	check_counts(f, a_ge_b_nonzero);
	snprintf(f, sizeof f, "%s * #[Q_a] + %s > %s * #[Q_b] + %s", e40,
		 e40m1, e40, e40m1);
	check_counts(f, more_a);
	snprintf(f, sizeof f, "min(%s * #[Q_a], %s * #[Q_b]) = %s * #[Q_a] "
		 "& max(%s * #[Q_a], %s * #[Q_b]) > %s * #[Q_a]", e40, e40,
		 e40, e40, e40, e40);
	check_counts(f, fewer_a);
	snprintf(f, sizeof f, "(Q_a ? %s * #[Q_a] : %s * #[Q_b]) = %s * "
		 "#[Q_a]", e40, e40, e40);
	check_counts(f, ends_a_or_equal);
}
END_TEST

START_TEST(int64_overflow)
{
	/* 2^63 - 1, 2^62, 2^63 and -2^63: sums and products cross the int64
	 * range at small counts */
	check_counts("9223372036854775807 * #[Q_a] > "
		     "9223372036854775807 * #[Q_b]", more_a);
	check_counts("4611686018427387904 * #[Q_a] >= 9223372036854775808",
		     at_least_two_a);
	check_counts("4611686018427387904 * #[Q_a] - 4611686018427387904 * "
		     "#[Q_b] = 0", equal_ab);
	check_counts("-9223372036854775808 * #[Q_a] < -9223372036854775808 * "
		     "#[Q_b]", more_a);
	/* 2c(#a - #b) + 1 > 0 */
	check_counts("9223372036854775807 * #[Q_a] + 9223372036854775807 * "
		     "#[Q_a] + 9223372036854775807 > 2 * 9223372036854775807 "
		     "* #[Q_b] + 9223372036854775806", a_ge_b);
	/* a wrapping sum of two 2^63 - 1 would be negative */
	check_counts("max(9223372036854775807 * #[Q_a], 9223372036854775807)"
		     " + 9223372036854775807 < 0", never);
	check_counts("(Q_a ? 9223372036854775807 * #[true] : "
		     "-9223372036854775807 * #[true]) - 9223372036854775807 *"
		     " #[true] <= -18446744073709551614 * #[true]", not_ends_a);
}
END_TEST

/* The register kernel at the int64 boundary: 2^11 #a - 2^11 #b (in a
 * count, so computed at every position) stays int64 by the static
 * bounds of words of up to 2^48 letters, so the kernel reads it; 2^12
 * #a - 2^12 #b may leave it, so the form is computed in FLINT and the
 * kernel steps aside.  A form only the verdict needs is computed in
 * FLINT by the query, beside the kernel's counts, whatever its size.
 * Either way the verdicts on one-byte letters (eval_push_bytes) are
 * those of the reference, also where the counts cross zero. */
static void check_kernel(const char *formula, bool kernel)
{
	Node root = parse(formula);
	Machine m;
	machine_init(&m, s, &root, 1, false);
	ck_assert_msg(m.kernel.on == kernel, "%s: kernel %d", formula,
		      m.kernel.on);
	machine_free(&m);
	Sym byte_sym[256];
	for (int b = 0; b < 256; b++)
		byte_sym[b] = SYM_NONE;
	byte_sym['a'] = letter("a");
	byte_sym['b'] = letter("b");
	Evaluator *ev = eval_new(s, &root, 1, ACCEPT_LAST);
	unsigned char text[200];
	Sym w[200];
	uint64_t x = 0x5eed;
	for (size_t n = 16; n <= 200; n += 23) {
		for (size_t i = 0; i < n; i++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			text[i] = x >> 62 & 1 ? 'a' : 'b';
			w[i] = byte_sym[text[i]];
		}
		text[n - 1] = '!'; /* the kernel stops at a non-letter */
		eval_reset(ev);
		ck_assert_uint_eq(eval_push_bytes(ev, text, n, byte_sym), n - 1);
		ck_assert_int_eq(eval_accepts(ev, 0),
				 ref_accepts(s, root, w, n - 1, false));
	}
	eval_free(ev);
}

START_TEST(kernel_int64_boundary)
{
	check_kernel("#[2048 * #[Q_a] > 2048 * #[Q_b]] > 3", true);
	check_kernel("#[4096 * #[Q_a] > 4096 * #[Q_b]] > 3", false);
	check_kernel("#[#[Q_a] >= #[Q_b]] > 3 & #[#[Q_a] < #[Q_b]] < 9", true);
	check_kernel("#[#[Q_a] = #[Q_b]] >= 2 & #[#[Q_a] != #[Q_b]] >= 2",
		     true);
	check_kernel("4611686018427387904 * #[Q_a] > 4611686018427387904 * "
		     "#[Q_b] + 1", true);
}
END_TEST

/* The register kernel's blocks (machine_kernel.c: 2048 bytes, a block
 * with a non-letter cut before it and read again, the letter-driven
 * slots from vector counts of at most four letter bytes, stepped for
 * more) against machine_step letter by letter: random words of lengths
 * about the block size, one non-letter somewhere or nowhere, read in
 * random pieces, the whole persistent state and the verdict compared
 * after every piece.  The formulas are each a kernel shape: <, = (the
 * y | -y test), a negated counted test, two slots, five letters (a
 * byte map of more than four letters is stepped, not counted). */
START_TEST(kernel_blocks)
{
	static const char *const formulas[] = {
		"#[#[Q_a] < #[Q_b]] = 0 & #[Q_a] = #[Q_b]",
		"#[#[Q_a] = #[Q_b]] > 5",
		"#[!(#[Q_a] <= #[Q_b] + 2)] >= 7 & #[Q_b] < #[Q_a]",
		"#[#[Q_a] > 2 * #[Q_b]] < 600 & #[#[Q_b] >= #[Q_a]] > 2",
		"#[#[Q_a] + #[Q_c] < #[Q_b] + #[Q_d] + #[Q_e]] < 1500",
	};
	static const size_t lens[] = {1, 15, 16, 17, 2047, 2048, 2049, 4095,
				      4097, 6000};
	unsigned char *text = malloc(6000);
	uint64_t x = 0xb10c;
	for (size_t f = 0; f < sizeof formulas / sizeof *formulas; f++) {
		Node root = parse(formulas[f]);
		Machine m;
		machine_init(&m, s, &root, 1, false);
		ck_assert_msg(m.kernel.on, "%s: no kernel", formulas[f]);
		uint8_t code[256];
		memset(code, 0xff, sizeof code);
		/* the letters read: a and b, and one or three more (none
		 * of which some formulas mention) */
		size_t sigma = f == 0 ? 2 : f == 4 ? 5 : 3;
		for (size_t c = 0; c < sigma; c++)
			code['a' + c] = (uint8_t)machine_code(
				&m.codes, sym_intern(store_syms(s),
						     &"abcde"[c], 1));
		MachineByteMap map;
		machine_byte_map(&m, &map, code);
		MachineState ks, ls;
		machine_state_init(&m, &ks);
		machine_state_init(&m, &ls);
		for (size_t li = 0; li < sizeof lens / sizeof *lens; li++)
			for (int rep = 0; rep < 3; rep++) {
				size_t n = lens[li];
				for (size_t i = 0; i < n; i++) {
					x = x * 6364136223846793005u + 1442695040888963407u;
					/* a bias, so that counts drift far */
					text[i] = (unsigned char)('a' + (x >> 40) % (sigma + rep));
					if (text[i] >= 'a' + sigma)
						text[i] = 'a';
				}
				size_t bad = rep == 1 ? (size_t)(x >> 20) % n : n;
				if (bad < n)
					text[bad] = '!';
				machine_reset(&m, &ks);
				machine_reset(&m, &ls);
				for (size_t done = 0; done < n;) {
					x = x * 6364136223846793005u + 1442695040888963407u;
					size_t piece = 1 + (size_t)(x >> 33) % 3000;
					piece = piece < n - done ? piece : n - done;
					size_t got = machine_run_mapped(&m, &ks, &map,
									text + done, piece);
					size_t want = 0;
					while (want < piece && code[text[done + want]] != 0xff)
						machine_step(&m, &ls, code[text[done + want++]]);
					ck_assert_uint_eq(got, want);
					ck_assert_uint_eq(ks.pos, ls.pos);
					ck_assert_msg(machine_state_equal(&m, &ks, &ls),
						      "%s: length %zu after %zu", formulas[f],
						      n, done + want);
					machine_query(&m, &ks);
					machine_query(&m, &ls);
					ck_assert_int_eq(machine_root(&m, &ks, 0),
							 machine_root(&m, &ls, 0));
					/* past the non-letter, on from the state */
					done += want + (want < piece);
				}
			}
		machine_state_free(&m, &ks);
		machine_state_free(&m, &ls);
		machine_free(&m);
	}
	free(text);
}
END_TEST

/* The affine kernel (machine_affine.c), which reads the passes of #>
 * over one-byte letters, against the evaluator that keeps the word and
 * runs its passes in the block interpreter (eval_push_many, never the
 * kernel), and against the reference on short words: random words over
 * {a, b} (and c, which no formula mentions), pushed in random pieces
 * with a non-letter somewhere or nowhere (what is read up to it is the
 * word).  Formulas: #> of letters compared with counts, with one
 * another, under NOT, AND and OR, = (the y | -y test), four comparisons
 * in one count, and --accept-at=eos. */
START_TEST(affine_passes)
{
	static const char *const formulas[] = {
		"#[#[true] = 1 & #>[Q_b] < #>[Q_a]] = 1",
		"#[#>[Q_a] = #[Q_b]] >= 1",
		"#[!(#>[Q_a] > #[Q_b] + 1) | Q_b] >= #[Q_a]",
		"#[#>[Q_a] >= 2 * #>[Q_b] & #[Q_a] < #[Q_b] + 3] > 1",
		"#[#>[Q_a | Q_c] > #>[Q_b] & #[Q_a] != #[Q_b] & #[true] > 2"
		" & #>[true] > 1] >= 2",
	};
	static const size_t lens[] = {0, 1, 2, 5, 9, 60, 2047, 2049, 5000};
	Sym byte_sym[256];
	for (int b = 0; b < 256; b++)
		byte_sym[b] = SYM_NONE;
	for (const char *c = "abc"; *c; c++)
		byte_sym[(unsigned char)*c] = sym_intern(store_syms(s), c, 1);
	unsigned char *text = malloc(5000);
	Sym *w = malloc(5000 * sizeof *w);
	uint64_t x = 0xaff1;
	size_t nacc = 0, nrej = 0;
	for (size_t f = 0; f < sizeof formulas / sizeof *formulas; f++)
		for (int eos = 0; eos < 2; eos++) {
			Node root = parse(formulas[f]);
			Machine m;
			machine_init(&m, s, &root, 1, false);
			uint32_t code[256];
			for (int b = 0; b < 256; b++)
				code[b] = byte_sym[b] == SYM_NONE ? UINT32_MAX
					: machine_code(&m.codes, byte_sym[b]);
			machine_begin_pass(&m, m.fdepth);
			MachineAffine *aff = machine_affine_new(&m, code);
			ck_assert_msg(aff, "%s: no affine kernel", formulas[f]);
			machine_affine_free(aff);
			machine_free(&m);
			AcceptAt at = eos ? ACCEPT_EOS : ACCEPT_LAST;
			Evaluator *pv = eval_new(s, &root, 1, at);
			Evaluator *kv = eval_new(s, &root, 1, at);
			for (size_t li = 0; li < sizeof lens / sizeof *lens; li++)
				for (int rep = 0; rep < 4; rep++) {
					size_t n = lens[li];
					for (size_t i = 0; i < n; i++) {
						x = x * 6364136223846793005u + 1442695040888963407u;
						text[i] = "aabbabc"[(x >> 40) % (rep == 3 ? 7 : 4)];
					}
					size_t bad = rep == 1 && n ? (size_t)(x >> 20) % n : n;
					if (bad < n)
						text[bad] = '!';
					for (size_t i = 0; i < bad; i++)
						w[i] = byte_sym[text[i]];
					eval_reset(kv);
					eval_push_many(kv, w, bad);
					bool want = eval_accepts(kv, 0);
					if (bad <= 9)
						ck_assert_int_eq(want, ref_accepts(s, root, w, bad, eos));
					unsigned np = eval_pass_count(pv);
					for (unsigned k = 0; k < np; k++) {
						eval_pass_begin(pv, k);
						for (size_t done = 0; done < bad;) {
							x = x * 6364136223846793005u + 1442695040888963407u;
							size_t piece = 1 + (size_t)(x >> 33) % 3000;
							piece = piece < n - done ? piece : n - done;
							size_t got = eval_push_bytes(pv, text + done, piece, byte_sym);
							ck_assert_uint_eq(got, bad - done < piece ? bad - done : piece);
							done += got;
						}
						if (k + 1 < np)
							eval_pass_end(pv);
					}
					ck_assert_msg(eval_accepts(pv, 0) == want,
						      "%s (eos %d): length %zu", formulas[f],
						      eos, bad);
					nacc += want;
					nrej += !want;
				}
			eval_free(pv);
			eval_free(kv);
		}
	ck_assert(nacc > 20 && nrej > 20);
	free(text);
	free(w);
}
END_TEST

/* ---- tally lang against the reference ------------------------------ */

/* The expected `tally lang` output from the reference: the accepted words
 * in shortlex order, or with counts the number per length. */
static char *ref_lang(Node root, const char *alphabet, size_t max_len,
		      bool counts, bool eos)
{
	Buf b = {0};
	buf_puts(&b, "");
	size_t sigma = strlen(alphabet);
	Sym alpha[8], w[16];
	char text[17];
	for (size_t c = 0; c < sigma; c++)
		alpha[c] = sym_intern(store_syms(s), &alphabet[c], 1);
	unsigned digits[16];
	for (size_t n = 0; n <= max_len; n++) {
		unsigned long count = 0;
		memset(digits, 0, sizeof digits);
		for (;;) {
			for (size_t i = 0; i < n; i++) {
				w[i] = alpha[digits[i]];
				text[i] = alphabet[digits[i]];
			}
			if (ref_accepts(s, root, w, n, eos)) {
				count++;
				if (!counts)
					buf_printf(&b, "%.*s\n", (int)n, text);
			}
			if (!fixture_next_word(digits, n, sigma))
				break;
		}
		if (counts)
			buf_printf(&b, "%zu %lu\n", n, count);
	}
	return buf_take(&b);
}

/* The counts of `tally lang --count` as "LEN COUNT" lines, whatever the
 * separators (the last two integers on each line that has them). */
static char *normalise_counts(const char *out)
{
	Buf b = {0};
	buf_puts(&b, "");
	for (const char *p = out; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		unsigned long nums[8];
		size_t k = 0;
		for (size_t i = 0; i < len;) {
			if (p[i] >= '0' && p[i] <= '9') {
				char *end;
				unsigned long v = strtoul(p + i, &end, 10);
				if (k < 8)
					nums[k++] = v;
				i = (size_t)(end - p);
			} else {
				i++;
			}
		}
		if (k >= 2)
			buf_printf(&b, "%lu %lu\n", nums[k - 2], nums[k - 1]);
		p += len + (eol != NULL);
	}
	return buf_take(&b);
}

static const char *const lang_formulas[] = {
	"1 <= #[Q_b & 1 <= #[Q_a]] & !(1 <= #[Q_a & 1 <= #[Q_b]])",
	"dyck1",
	"#[Q_a] = #[Q_b] + #[Q_c] & Y Q_c",
	"#[Q_a & #>[Q_b] > 1] >= 1 | MOD(3, 0)",
	"(Q_b ? #[Q_a] : 2 * #[Q_c]) > min(#[Q_b], 1) & !Q_c",
	"false",
	"true",
};
static const char *const lang_alphabets[] = {
	"ab", "()", "abc", "abc", "abc", "ab", "abc",
};

START_TEST(lang_matches_reference)
{
	const char *f = lang_formulas[_i];
	Node root = parse(f);
	const char *alphabet = lang_alphabets[_i];
	size_t max_len = strlen(alphabet) == 2 ? 9 : 6;
	char alpha_opt[32], len_opt[16];
	snprintf(alpha_opt, sizeof alpha_opt, "--alphabet=%s", alphabet);
	snprintf(len_opt, sizeof len_opt, "%zu", max_len);
	for (int run = 0; run < 4; run++) {
		bool counts = run & 1, eos = run & 2;
		char *argv[] = {"lang", "-f", (char *)f, "--max-length",
				len_opt, alpha_opt,
				eos ? "--accept-at=eos" : "--accept-at=last",
				counts ? "--count" : NULL, NULL};
		int status;
		char *got = fixture_run_command(cmd_lang, argv, &status);
		ck_assert_msg(status == 0 || status == 1, "tally lang -f '%s' "
			      "exited %d", f, status);
		char *want = ref_lang(root, alphabet, max_len, counts, eos);
		if (counts) {
			char *norm = normalise_counts(got);
			free(got);
			got = norm;
		}
		ck_assert_msg(strcmp(got, want) == 0, "tally lang -f '%s' "
			      "--max-length %zu %s %s%s:\n--- got\n%s--- "
			      "reference\n%s", f, max_len, alpha_opt, argv[6],
			      counts ? " --count" : "", got, want);
		free(got);
		free(want);
	}
}
END_TEST

Suite *eval_suite(void)
{
	Suite *su = suite_create("eval");
	TCase *tc = tcase_create("differential");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600 * test_multiplier());
	tcase_add_loop_test(tc, differential_past, 0, 2);
	tcase_add_loop_test(tc, differential_future, 0, 2);
	suite_add_tcase(su, tc);

	tc = tcase_create("prelude");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, prelude_languages, 0, (int)membership_nlangs);
	suite_add_tcase(su, tc);

	tc = tcase_create("edges");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, empty_word_is_position_0);
	tcase_add_test(tc, one_letter_words);
	tcase_add_test(tc, eos_switch);
	tcase_add_test(tc, huge_constants);
	tcase_add_test(tc, int64_overflow);
	tcase_add_test(tc, kernel_int64_boundary);
	tcase_add_test(tc, kernel_blocks);
	tcase_add_test(tc, affine_passes);
	suite_add_tcase(su, tc);

	tc = tcase_create("lang");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	int nlang = (int)(sizeof lang_formulas / sizeof lang_formulas[0]);
	tcase_add_loop_test(tc, lang_matches_reference, 0, nlang);
	suite_add_tcase(su, tc);
	return su;
}
