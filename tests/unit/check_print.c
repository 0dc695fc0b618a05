/* check_print.c -- printers: examples print back to themselves. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "prelude.h"
#include "print.h"
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
	Scope *sc2 = prelude_scope_new(s);
	Source *back = source_new("q", text, strlen(text));
	Unit v = {0};
	ck_assert_msg(tl_parse(sc2, &d, back, &v), "does not parse: %s", text);
	ck_assert_uint_eq(v.output, u.output);
	unit_free(&v);
	unit_free(&u);
	free(text);
	source_free(back);
	source_free(src);
	scope_free(sc2);
	scope_free(sc);
	store_free(s);
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
	suite_add_tcase(suite, tc);
	return suite;
}
