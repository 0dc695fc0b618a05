/* check_parse.c -- the TL[#] parser, including exact error texts. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "suites.h"

static Store *s;
static Scope *sc;
static Source *sources[64]; /* Defs point into them: freed in teardown */
static size_t nsources;

static void setup(void)
{
	s = store_new();
	sc = scope_new(s);
}

static void teardown(void)
{
	while (nsources > 0)
		source_free(sources[--nsources]);
	scope_free(sc);
	store_free(s);
}

/* Parses text; returns the output node or NODE_NONE, and the captured
 * diagnostic in *err (malloc'd) when err is given. */
static Node parse(const char *text, char **err)
{
	Source *src = source_new("-f", text, strlen(text));
	Buf cap = {0};
	Diag d = {.capture = &cap};
	Unit u = {0};
	Node r = tl_parse(sc, &d, src, &u) ? u.output : NODE_NONE;
	unit_free(&u);
	ck_assert_uint_lt(nsources, 64);
	sources[nsources++] = src;
	if (err)
		*err = buf_take(&cap);
	else
		buf_free(&cap);
	return r;
}

START_TEST(paper_examples_parse)
{
	const char *ok[] = {
		"#[Q_b] < #[Q_a]",
		"#['('] = #[')'] & #[#['('] < #[')']] = 0",
		"#[Q_a & 1 <= #[Q_b]] < 1 & #[Q_a] = #[Q_b] & #[Q_a] >= 1",
		"1 <= #[Q_b & 1 <= #[Q_a]] & !(1 <= #[Q_a & 1 <= #[Q_b]])",
		"#⃖[Q_(] = #⃖[Q_)] ∧ #⃖[#⃖[Q_(] < #⃖[Q_)]] = 0",
		"¬(#[Q_a] ≤ 3) ∨ ⊤",
		"Y Q_a -> MOD(2, 1) <-> #>[Q_b] >= 2",
		"(Q_a ? #[Q_a] : 3*#[Q_b]) > min(#[Q_a], max(1, -2))",
		"3#[Q_a] = #[Q_b] - -2",
		"let x = #[Q_a]; let p = x >= 2; p & Q_b",
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		char *err;
		Node n = parse(ok[i], &err);
		ck_assert_msg(n != NODE_NONE, "%s: %s", ok[i], err);
		free(err);
	}
}
END_TEST

START_TEST(unicode_equals_ascii)
{
	ck_assert_uint_eq(parse("#⃖[Q_(] = #⃖[Q_)] ∧ #⃖[#⃖[Q_(] < #⃖[Q_)]] = 0", NULL),
			  parse("#['('] = #[')'] & #[#['('] < #[')']] = 0", NULL));
	ck_assert_uint_eq(parse("Q('a') && not Q_b", NULL), parse("Q_a & !Q_b", NULL));
}
END_TEST

START_TEST(precedence)
{
	ck_assert_uint_eq(parse("!#[Q_a] < 1", NULL), parse("!(#[Q_a] < 1)", NULL));
	ck_assert_uint_eq(parse("Q_a | Q_b & Q_c", NULL), parse("Q_a | (Q_b & Q_c)", NULL));
	ck_assert_uint_eq(parse("Q_a -> Q_b -> Q_c", NULL), parse("Q_a -> (Q_b -> Q_c)", NULL));
	ck_assert_uint_eq(parse("#[Q_a] + 2*#[Q_b] < 3", NULL),
			  parse("(#[Q_a] + (2*#[Q_b])) < 3", NULL));
}
END_TEST

static const struct {
	const char *input, *message;
} errors[] = {
	{"#[Q_a", "tally: -f:1:6: error: expected ']' to close '[' at 1:2, found end of input\n#[Q_a\n     ^\n"},
	{"#[Q_a] +", "tally: -f:1:9: error: expected a formula or a term, found end of input\n#[Q_a] +\n        ^\n"},
	{"#[Q_a]", "tally: -f:1:1: error: expected a formula, found an integer term (compare it, e.g. '... >= 1')\n#[Q_a]\n^\n"},
	{"Q_a + 1 < 2", "tally: -f:1:1: error: expected an integer term, found a formula (count it with #[...])\nQ_a + 1 < 2\n^\n"},
	{"foo & Q_a", "tally: -f:1:1: error: unknown name 'foo' (letters are written Q_foo or 'foo')\nfoo & Q_a\n^\n"},
	{"#[Q_a] < #[Q_b] < 3", "tally: -f:1:17: error: comparisons do not chain; join them with '&' (a < b & b < c)\n#[Q_a] < #[Q_b] < 3\n                ^\n"},
	{"#[Q_a] * #[Q_b] > 1", "tally: -f:1:8: error: '*' needs a constant on one side (terms are linear)\n#[Q_a] * #[Q_b] > 1\n       ^\n"},
	{"", "tally: -f:1:1: error: expected a formula, found empty input\n\n^\n"},
	{"Q_a $", "tally: -f:1:5: error: unexpected character '$'\nQ_a $\n    ^\n"},
	{"MOD(0, 1)", "tally: -f:1:5: error: MOD needs a modulus of at least 1\nMOD(0, 1)\n    ^\n"},
	{"let x = Q_a; let x = Q_b; x", "tally: -f:1:18: error: redefinition of 'x' (first defined at 1:5)\nlet x = Q_a; let x = Q_b; x\n                 ^\n"},
};

START_TEST(error_messages)
{
	char *err;
	Node n = parse(errors[_i].input, &err);
	ck_assert_uint_eq(n, NODE_NONE);
	ck_assert_str_eq(err, errors[_i].message);
	free(err);
}
END_TEST

START_TEST(nesting_limit)
{
	size_t depth = 100000;
	char *text = malloc(2 * depth + 8);
	memset(text, '(', depth);
	strcpy(text + depth, "Q_a");
	memset(text + depth + 3, ')', depth);
	text[2 * depth + 3] = '\0';
	char *err;
	ck_assert_uint_eq(parse(text, &err), NODE_NONE);
	ck_assert_ptr_nonnull(strstr(err, "nesting too deep"));
	free(err);
	free(text);
}
END_TEST

Suite *parse_suite(void)
{
	Suite *suite = suite_create("parse");
	TCase *tc = tcase_create("tl");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, paper_examples_parse);
	tcase_add_test(tc, unicode_equals_ascii);
	tcase_add_test(tc, precedence);
	tcase_add_loop_test(tc, error_messages, 0, sizeof errors / sizeof errors[0]);
	tcase_add_test(tc, nesting_limit);
	suite_add_tcase(suite, tc);
	return suite;
}
