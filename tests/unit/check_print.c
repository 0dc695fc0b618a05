/* check_print.c -- printers: examples print back to themselves. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "core/prelude.h"
#include "core/print.h"
#include "base/buf.h"
#include "fixture.h"
#include "suites.h"

static char *roundtrip(const char *text, Syntax syn)
{
	Store *s = store_new();
	Scope *sc = prelude_scope_new(s);
	Source *src = source_new("-f", text, strlen(text));
	Diag d = {0};
	Unit u = {0};
	ck_assert_msg(tl_parse(sc, &d, src, &u), "does not parse: %s", text);
	char *out = tl_print(s, u.output, syn, NULL);
	unit_free(&u);
	source_free(src);
	scope_free(sc);
	store_free(s);
	return out;
}

static const char *const fixed_points[] = {
	"#[Q_b] < #[Q_a]",
	"#['('] = #[')'] & #[#['('] < #[')']] = 0",
	"#[Q_a & 1 <= #[Q_b]] < 1 & #[Q_a] = #[Q_b] & #[Q_a] >= 1",
	"1 <= #[Q_b & 1 <= #[Q_a]] & !(1 <= #[Q_a & 1 <= #[Q_b]])",
};

START_TEST(syntax_examples_print_back)
{
	char *out = roundtrip(fixed_points[_i], SYNTAX_TL);
	ck_assert_str_eq(out, fixed_points[_i]);
	free(out);
}
END_TEST

START_TEST(utf8_is_the_papers_notation)
{
	char *out = roundtrip("#['('] = #[')'] & #[#['('] < #[')']] = 0", SYNTAX_UTF8);
	ck_assert_str_eq(out, "#⃖[Q_(] = #⃖[Q_)] ∧ #⃖[#⃖[Q_(] < #⃖[Q_)]] = 0");
	free(out);
}
END_TEST

START_TEST(sexpr_form)
{
	char *out = roundtrip("#[Q_b] < #[Q_a] | Q_c", SYNTAX_SEXPR);
	ck_assert_str_eq(out, "(or (< (count (Q b)) (count (Q a))) (Q c))");
	free(out);
}
END_TEST

/* TEXT parses back, over the prelude of store s, to the node want. */
static void parses_back(Store *s, const char *text, Node want)
{
	Scope *sc = prelude_scope_new(s);
	Source *back = source_new("q", text, strlen(text));
	Diag d = {0};
	Unit v = {0};
	ck_assert_msg(tl_parse(sc, &d, back, &v), "does not parse: %.200s",
		      text);
	ck_assert_uint_eq(v.output, want);
	unit_free(&v);
	source_free(back);
	scope_free(sc);
}

/* Definitions print in order and parse back, even when hash-consing makes
 * a later definition a subterm of an earlier one. */
START_TEST(unit_definitions_print_in_order)
{
	const char *prog = "D0 := #Q_c\nD1 := Q_c\nD2 := D1 & D0 > 0\n";
	Store *s = store_new();
	Scope *sc = prelude_scope_new(s);
	Source *src = source_new("p", prog, strlen(prog));
	Diag d = {0};
	Unit u = {0};
	ck_assert(crasp_parse(sc, &d, src, FLAVOR_CRASP, &u));
	char *text = tl_print_unit(s, &u, SYNTAX_TL);
	ck_assert_str_eq(text, "let D0 = #[Q_c];\nlet D1 = Q_c;\n"
			       "let D2 = D1 & D0 > 0;\nD2\n");
	parses_back(s, text, u.output);
	unit_free(&u);
	free(text);
	source_free(src);
	scope_free(sc);
	store_free(s);
}
END_TEST


/* brief_case(TL, LIMIT): the brief print of the formula is one line of
 * at most LIMIT bytes that parses back to the same node. */
static void brief_case(const char *tl, size_t limit)
{
	Fixture fx;
	fixture_init(&fx);
	Node n = fixture_must_parse(&fx, tl);
	char *text = tl_print_brief(fx.store, n, SYNTAX_TL);
	ck_assert_msg(strlen(text) <= limit, "%zu bytes", strlen(text));
	ck_assert_ptr_null(strchr(text, '\n'));
	ck_assert_uint_eq(fixture_must_parse(&fx, text), n);
	free(text);
	fixture_free(&fx);
}

START_TEST(brief_prints_huge_formulas_linearly)
{
	Buf b = {0};
	buf_puts(&b, "let A0 = Q_a;\n");
	for (int i = 1; i < 70; i++)
		buf_printf(&b, "let A%d = #[A%d] > #[Q_b] & (A%d | Q_b);\n", i,
			   i - 1, i - 1);
	buf_puts(&b, "A69");
	char *prog = buf_take(&b);
	brief_case(prog, 70 * 60);
	free(prog);
	buf_puts(&b, "let X0 = Q_a;\n");
	for (int i = 1; i < 60000; i++)
		buf_printf(&b, i % 2 ? "let X%d = #[X%d];\n"
				     : "let X%d = X%d > 0;\n",
			   i, i - 1);
	buf_puts(&b, "X59998");
	prog = buf_take(&b);
	brief_case(prog, 60000 * 12);
	free(prog);
	/* small formulas are written out, as tl_print writes them */
	char *t = roundtrip("#[Q_b] < #[Q_a]", SYNTAX_TL);
	brief_case("#[Q_b] < #[Q_a]", strlen(t));
	free(t);
}
END_TEST

Suite *print_suite(void)
{
	Suite *suite = suite_create("print");
	TCase *tc = tcase_create("tl");
	tcase_add_loop_test(tc, syntax_examples_print_back, 0,
			    sizeof fixed_points / sizeof fixed_points[0]);
	tcase_add_test(tc, utf8_is_the_papers_notation);
	tcase_add_test(tc, sexpr_form);
	tcase_add_test(tc, unit_definitions_print_in_order);
	tcase_add_test(tc, brief_prints_huge_formulas_linearly);
	suite_add_tcase(suite, tc);
	return suite;
}
