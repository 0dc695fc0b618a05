/* check_print.c -- printers: examples print back to themselves. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "print.h"
#include "suites.h"

static char *roundtrip(const char *text, Syntax syn)
{
	Store *s = store_new();
	Scope *sc = scope_new(s);
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

Suite *print_suite(void)
{
	Suite *suite = suite_create("print");
	TCase *tc = tcase_create("tl");
	tcase_add_loop_test(tc, syntax_examples_print_back, 0,
			    sizeof fixed_points / sizeof fixed_points[0]);
	tcase_add_test(tc, utf8_is_the_papers_notation);
	tcase_add_test(tc, sexpr_form);
	suite_add_tcase(suite, tc);
	return suite;
}
