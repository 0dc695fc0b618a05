/* check_parse.c -- the TL[#] parser, including exact error texts. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "core/prelude.h"
#include "fixture.h"
#include "suites.h"

FIXTURE_PER_TEST

/* Parses text; returns the output node or NODE_NONE, and the captured
 * diagnostic in *err (malloc'd) when err is given. */
static Node parse(const char *text, char **err)
{
	return fixture_parse(&fx, text, err);
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
	{"x = Q_a; x = Q_b", "tally: -f:1:10: error: redefinition of 'x' (first defined at 1:1)\nx = Q_a; x = Q_b\n         ^\n"},
	/* letters */
	{"Q_a & 'x", "tally: -f:1:7: error: unterminated letter: expected ' to close it, found end of input\nQ_a & 'x\n      ^\n"},
	{"'x\nQ_b", "tally: -f:1:1: error: unterminated letter: expected ' to close it, found end of line\n'x\n^\n"},
	{"Q_a & 'x\\q'", "tally: -f:1:9: error: unknown escape in letter: only \\', \\\" and \\\\ are allowed\nQ_a & 'x\\q'\n        ^\n"},
	{"Q_a | ''", "tally: -f:1:7: error: empty letter ''\nQ_a | ''\n      ^\n"},
	/* bytes: control characters, invalid UTF-8, a character of no token */
	{"Q_a & \001 Q_b", "tally: -f:1:7: error: unexpected control character 0x01\nQ_a & ? Q_b\n      ^\n"},
	{"Q_a & \177", "tally: -f:1:7: error: unexpected control character 0x7F\nQ_a & \177\n      ^\n"},
	{"Q_a & \303(", "tally: -f:1:7: error: invalid UTF-8 byte 0xC3\nQ_a & ?(\n      ^\n"},
	{"Q_a & \342\210", "tally: -f:1:7: error: invalid UTF-8 byte 0xE2\nQ_a & ??\n      ^\n"},
	{"Q_a & \342\210\200 Q_b", "tally: -f:1:7: error: unexpected character '\342\210\200'\nQ_a & \342\210\200 Q_b\n      ^\n"},
	/* brackets: the position of the opener */
	{"(Q_a & Q_b | #[Q_c] > 1", "tally: -f:1:24: error: expected ')' to close '(' at 1:1, found end of input\n(Q_a & Q_b | #[Q_c] > 1\n                       ^\n"},
	{"Q_a & (Q_b ]", "tally: -f:1:12: error: expected ')' to close '(' at 1:7, found ']'\nQ_a & (Q_b ]\n           ^\n"},
	{"#[Q_a\n& Q_b", "tally: -f:2:6: error: expected ']' to close '[' at 1:2, found end of input\n& Q_b\n     ^\n"},
	{"MOD(2, 1", "tally: -f:1:9: error: expected ')' to close '(' at 1:4, found end of input\nMOD(2, 1\n        ^\n"},
	{"min(#[Q_a]) > 1", "tally: -f:1:11: error: expected ',' between the arguments, found ')'\nmin(#[Q_a]) > 1\n          ^\n"},
	/* sorts, on both sides of each operator */
	{"#[Q_a] < Q_b", "tally: -f:1:10: error: expected an integer term, found a formula (count it with #[...])\n#[Q_a] < Q_b\n         ^\n"},
	{"Q_a < #[Q_b]", "tally: -f:1:1: error: expected an integer term, found a formula (count it with #[...])\nQ_a < #[Q_b]\n^\n"},
	{"#[Q_a] + Q_b > 1", "tally: -f:1:10: error: expected an integer term, found a formula (count it with #[...])\n#[Q_a] + Q_b > 1\n         ^\n"},
	{"Q_a & #[Q_b]", "tally: -f:1:7: error: expected a formula, found an integer term (compare it, e.g. '... >= 1')\nQ_a & #[Q_b]\n      ^\n"},
	{"#[Q_b] | Q_a", "tally: -f:1:1: error: expected a formula, found an integer term (compare it, e.g. '... >= 1')\n#[Q_b] | Q_a\n^\n"},
	{"#[#[Q_a]] > 1", "tally: -f:1:3: error: expected a formula, found an integer term (compare it, e.g. '... >= 1')\n#[#[Q_a]] > 1\n  ^\n"},
	{"!#[Q_a]", "tally: -f:1:2: error: expected a formula, found an integer term (compare it, e.g. '... >= 1')\n!#[Q_a]\n ^\n"},
	{"-Q_a < 1", "tally: -f:1:2: error: expected an integer term, found a formula (count it with #[...])\n-Q_a < 1\n ^\n"},
	{"(Q_a ? Q_b : 1) > 0", "tally: -f:1:8: error: expected an integer term, found a formula (count it with #[...])\n(Q_a ? Q_b : 1) > 0\n       ^\n"},
	{"(#[Q_a] ? 1 : 2) > 0", "tally: -f:1:2: error: expected a formula, found an integer term (compare it, e.g. '... >= 1')\n(#[Q_a] ? 1 : 2) > 0\n ^\n"},
	/* MOD arguments */
	{"MOD(4294967296, 1)", "tally: -f:1:5: error: number too large here (at most 4294967295)\nMOD(4294967296, 1)\n    ^\n"},
	{"MOD(2, 99999999999)", "tally: -f:1:8: error: number too large here (at most 4294967295)\nMOD(2, 99999999999)\n       ^\n"},
	{"MOD(2)", "tally: -f:1:6: error: expected ',' between the arguments of MOD, found ')'\nMOD(2)\n     ^\n"},
	{"MOD(#[Q_a], 1)", "tally: -f:1:5: error: expected a number, found '#'\nMOD(#[Q_a], 1)\n    ^\n"},
	/* definitions and output */
	{"let = Q_a", "tally: -f:1:5: error: expected a name to define, found '='\nlet = Q_a\n    ^\n"},
	{"let x Q_a", "tally: -f:1:7: error: expected '=' after the name, found 'Q_a'\nlet x Q_a\n      ^\n"},
	{"x = x & Q_a", "tally: -f:1:5: error: 'x' is used in its own definition (a cycle)\nx = x & Q_a\n    ^\n"},
	{"let x = Q_a; output y", "tally: -f:1:21: error: unknown name 'y'\nlet x = Q_a; output y\n                    ^\n"},
	{"let c = #[Q_a]; output c", "tally: -f:1:24: error: the output must be a formula\nlet c = #[Q_a]; output c\n                       ^\n"},
	{"let c = #[Q_a]", "tally: -f:1:15: error: expected a formula, found only integer definitions\nlet c = #[Q_a]\n              ^\n"},
	{"output 3", "tally: -f:1:8: error: expected a name after 'output', found '3'\noutput 3\n       ^\n"},
	{"Q_a Q_b", "tally: -f:1:5: error: expected ';' or end of input after the formula, found 'Q_b'\nQ_a Q_b\n    ^\n"},
	{"-- only a comment\n", "tally: -f:1:1: error: expected a formula, found empty input\n-- only a comment\n^\n"},
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

/* A NUL byte cannot sit in a C string literal of the table above. */
START_TEST(nul_bytes)
{
	static const char text[] = "Q_a &\0 Q_b";
	Source *src = source_new("-f", text, sizeof text - 1);
	Buf cap = {0};
	Diag d = {.capture = &cap};
	Unit u = {0};
	ck_assert(!tl_parse(fx.scope, &d, src, &u));
	unit_free(&u);
	char *err = buf_take(&cap);
	ck_assert_str_eq(err, "tally: -f:1:6: error: unexpected NUL byte\n"
			      "Q_a &? Q_b\n     ^\n");
	free(err);
	source_free(src);
	static const char quoted[] = "'a\0b'";
	src = source_new("-f", quoted, sizeof quoted - 1);
	cap = (Buf){0};
	ck_assert(!tl_parse(fx.scope, &d, src, &u));
	unit_free(&u);
	err = buf_take(&cap);
	ck_assert_str_eq(err, "tally: -f:1:3: error: NUL byte inside a letter\n"
			      "'a?b'\n  ^\n");
	free(err);
	source_free(src);
}
END_TEST

/* Every spelling of logic/ops.def reads as its token's first (canonical)
 * spelling: each is put in a template for its token kind, and the result
 * must be the node of the same template with the canonical spelling. */
static const struct {
	TokKind kind;
	const char *text;
} spellings[] = {
#define SPELLING(tk, text) {tk, text},
#include "ops.def"
#undef SPELLING
};

static const char *template_of(TokKind k)
{
	switch (k) {
	case TK_LPAREN: return "%s#[Q_a]) > 1";
	case TK_RPAREN: return "(#[Q_a]%s > 1";
	case TK_LBRACK: return "#%sQ_a] > 1";
	case TK_RBRACK: return "#[Q_a%s > 1";
	case TK_COMMA: return "min(#[Q_a]%s 2) > 1";
	case TK_SEMI: return "let x = Q_a%s x & Q_b";
	case TK_QUESTION: return "(Q_a %s 1 : 2) > 1";
	case TK_COLON: return "(Q_a ? 1 %s 2) > 1";
	case TK_DEFINE: return "let x %s Q_a; x & Q_b";
	case TK_IFF:
	case TK_IMPLIES:
	case TK_OR:
	case TK_AND: return "Q_a %s Q_b";
	case TK_NOT:
	case TK_PREV: return "%s Q_a";
	case TK_LT:
	case TK_LE:
	case TK_EQ:
	case TK_NE:
	case TK_GE:
	case TK_GT: return "#[Q_a] %s 2";
	case TK_PLUS:
	case TK_MINUS: return "#[Q_a] %s 2 > #[Q_b]";
	case TK_STAR: return "3 %s #[Q_a] > 1";
	case TK_COUNT:
	case TK_FCOUNT: return "%s[Q_a] > 1";
	case TK_TRUE:
	case TK_FALSE: return "Q_a & %s";
	case TK_LET: return "%s x = Q_a; x & Q_b";
	case TK_MIN:
	case TK_MAX: return "%s(#[Q_a], 2) > 1";
	case TK_MOD: return "%s(3, 1)";
	case TK_OUTPUT: return "let x = Q_a; let y = Q_b; %s x";
	case TK_IF: return "(1 %s Q_a else 2) > 1";
	case TK_ELSE: return "(1 if Q_a %s 2) > 1";
	default: return NULL;
	}
}

START_TEST(every_spelling)
{
	TokKind k = spellings[_i].kind;
	const char *tmpl = template_of(k);
	ck_assert_msg(tmpl != NULL, "no template for '%s'", spellings[_i].text);
	char alias[128], canon[128];
	snprintf(alias, sizeof alias, tmpl, spellings[_i].text);
	snprintf(canon, sizeof canon, tmpl, lex_kind_name(k));
	char *err;
	Node want = parse(canon, &err);
	ck_assert_msg(want != NODE_NONE, "%s: %s", canon, err);
	free(err);
	scope_free(fx.scope); /* a fresh scope for the definitions, same store */
	fx.scope = prelude_scope_new(s);
	Node got = parse(alias, &err);
	ck_assert_msg(got != NODE_NONE, "%s: %s", alias, err);
	ck_assert_msg(got == want, "'%s' does not read as '%s'", alias, canon);
	free(err);
}
END_TEST

/* The fixed spellings of syntax.md and the papers' notation, each next to
 * the same formula in core spelling. */
static const struct {
	const char *text, *same;
} fixed[] = {
	{"Q_a", "'a'"},
	{"'('", "Q_("},
	{"Q('(')", "'('"},
	{"'\\''", "\"'\""},
	{"'\\\\'", "\"\\\\\""},
	{"true", "!false"},
	{"⊤", "true"},
	{"⊥", "false"},
	{"!Q_a", "~Q_a"},
	{"¬ Q_a", "not Q_a"},
	{"Q_a & Q_b", "Q_b && Q_a"},
	{"Q_a ∧ Q_b", "Q_a and Q_b"},
	{"Q_a | Q_b", "Q_b || Q_a"},
	{"Q_a ∨ Q_b", "Q_a or Q_b"},
	{"Q_a -> Q_b", "!Q_a | Q_b"},
	{"Q_a → Q_b", "!Q_a | Q_b"},
	{"Q_a <-> Q_b", "(Q_a & Q_b) | (!Q_a & !Q_b)"},
	{"Q_a ↔ Q_b", "(Q_a & Q_b) | (!Q_a & !Q_b)"},
	{"#[Q_a] < #[Q_b]", "#[Q_a] - #[Q_b] < 0"},
	{"#[Q_a] <= #[Q_b]", "#[Q_a] ≤ #[Q_b]"},
	{"#[Q_a] = #[Q_b]", "#[Q_a] == #[Q_b]"},
	{"#[Q_a] != #[Q_b]", "#[Q_a] ≠ #[Q_b]"},
	{"#[Q_a] >= #[Q_b]", "#[Q_a] ≥ #[Q_b]"},
	{"#[Q_a] > #[Q_b]", "#[Q_a] - #[Q_b] > 0"},
	{"#[Q_a] > 0", "#<[Q_a] > 0"},
	{"#[Q_a] > 0", "#⃖[Q_a] > 0"},
	{"#>[Q_a] > 0", "#⃗[Q_a] > 0"},
	{"#[Q_a] > 42", "#[Q_a] - 42 > 0"},
	{"#[Q_a] > -3", "#[Q_a] + 3 > 0"},
	{"#[Q_a] > 123456789012345678901234567890123456789012345",
	 "#[Q_a] - 123456789012345678901234567890123456789012345 > 0"},
	{"#[Q_a] + #[Q_b] > 1", "#[Q_b] + #[Q_a] > 1"},
	{"#[Q_a] - #[Q_b] > 1", "#[Q_a] > #[Q_b] + 1"},
	{"3*#[Q_a] > 1", "3#[Q_a] > 1"},
	{"3*#[Q_a] > 1", "#[Q_a] * 3 > 1"},
	{"3*#[Q_a] > 1", "#[Q_a] + #[Q_a] + #[Q_a] > 1"},
	{"-#[Q_a] < -1", "1 < #[Q_a]"},
	{"(#[Q_a]) > 1", "#[Q_a] > 1"},
	{"(Q_a ? #[Q_b] : 2) > 1", "(!Q_a ? 2 : #[Q_b]) > 1"},
	{"min(#[Q_a], 2) > 1", "min(2, #[Q_a]) > 1"},
	{"max(#[Q_a], 2) > 1", "max(2, #[Q_a]) > 1"},
	{"Y Q_a", "Y (Q_a)"},
	{"MOD(3, 1)", "MOD(3, 4)"},
	{"MOD(3, 2)", "MOD(3, -1)"},
	{"Q_a -- a comment", "Q_a // another"},
	{"#[Q_a] > 1 -- #[Q_b]", "#[Q_a] > 1"},
	{"let x = #[Q_a]; x > 1", "#[Q_a] > 1"},
	{"x = #[Q_a]; x > 1", "#[Q_a] > 1"},
	{"let p = Q_a; let q = Q_b; output p", "Q_a"},
	{"let p = Q_a & Q_b;", "Q_a & Q_b"},
	/* the papers' Unicode notation */
	{"#⃖[Q_(] = #⃖[Q_)] ∧ "
	 "#⃖[#⃖[Q_(] < #⃖[Q_)]] = 0",
	 "#['('] = #[')'] & #[#['('] < #[')']] = 0"},
	{"¬(#⃖[Q_a] ≤ 3) ∨ ⊥",
	 "!(#[Q_a] <= 3)"},
	{"#[Q_a] · 2 − 1 > 0", "2*#[Q_a] - 1 > 0"},
};

START_TEST(fixed_spellings)
{
	char *err;
	Node x = parse(fixed[_i].text, &err);
	ck_assert_msg(x != NODE_NONE, "%s: %s", fixed[_i].text, err);
	free(err);
	Node y = parse(fixed[_i].same, &err);
	ck_assert_msg(y != NODE_NONE, "%s: %s", fixed[_i].same, err);
	free(err);
	ck_assert_msg(x == y, "'%s' and '%s' differ", fixed[_i].text,
		      fixed[_i].same);
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
	tcase_add_test(tc, nul_bytes);
	tcase_add_loop_test(tc, every_spelling, 0,
			    sizeof spellings / sizeof spellings[0]);
	tcase_add_loop_test(tc, fixed_spellings, 0, sizeof fixed / sizeof fixed[0]);
	suite_add_tcase(suite, tc);
	return suite;
}
