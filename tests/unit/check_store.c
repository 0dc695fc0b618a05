/* check_store.c -- hash-consing and the normalisation rules of
 * logic/README.md, one test per rule. */
#include <config.h>

#include "store.h"
#include "suites.h"

static Store *s;
static Node a, b, c; /* letter tests Q_a, Q_b, Q_c */
static Node ca, cb;  /* #[Q_a], #[Q_b] */

static void setup(void)
{
	s = store_new();
	a = store_make_letter(s, sym_intern(store_syms(s), "a", 1));
	b = store_make_letter(s, sym_intern(store_syms(s), "b", 1));
	c = store_make_letter(s, sym_intern(store_syms(s), "c", 1));
	ca = store_make_count(s, a);
	cb = store_make_count(s, b);
}

static void teardown(void)
{
	store_free(s);
}

START_TEST(hash_consing)
{
	ck_assert_uint_eq(store_make_letter(s, sym_intern(store_syms(s), "a", 1)), a);
	ck_assert_uint_eq(store_make_count(s, a), ca);
	ck_assert_uint_ne(ca, cb);
	ck_assert_uint_ne(store_make_count(s, a), store_make_fcount(s, a));
}
END_TEST

START_TEST(double_negation)
{
	ck_assert_uint_eq(store_make_not(s, store_make_not(s, a)), a);
	ck_assert_uint_eq(store_make_not(s, store_make_true(s)), store_make_false(s));
}
END_TEST

START_TEST(and_or_units_zeros_idempotence)
{
	Node t = store_make_true(s), f = store_make_false(s);
	ck_assert_uint_eq(store_make_and2(s, a, t), a);
	ck_assert_uint_eq(store_make_and2(s, a, f), f);
	ck_assert_uint_eq(store_make_or2(s, a, f), a);
	ck_assert_uint_eq(store_make_or2(s, a, t), t);
	ck_assert_uint_eq(store_make_and2(s, a, a), a);
	ck_assert_uint_eq(store_make_and2(s, a, store_make_not(s, a)), f);
	ck_assert_uint_eq(store_make_or2(s, a, store_make_not(s, a)), t);
}
END_TEST

START_TEST(and_flattens_and_sorts)
{
	Node ab = store_make_and2(s, a, b);
	Node abc1 = store_make_and2(s, ab, c);
	Node abc2 = store_make_and2(s, c, store_make_and2(s, b, a));
	ck_assert_uint_eq(abc1, abc2);
	ck_assert_uint_eq(store_nkids(s, abc1), 3);
	ck_assert_uint_eq(store_make_and2(s, b, a), ab);
}
END_TEST

START_TEST(linear_terms_merge)
{
	/* #a + #a - #a = #a;  2*#a - #a - #a = 0 */
	Node k[3] = {ca, ca, store_make_neg(s, ca)};
	ck_assert_uint_eq(store_make_add(s, k, 3), ca);
	fmpz_t two;
	fmpz_init_set_ui(two, 2);
	Node t = store_make_sub(s, store_make_scale(s, two, ca),
				store_make_add2(s, ca, ca));
	ck_assert_int_eq(store_op(s, t), OP_CONST);
	ck_assert(fmpz_is_zero(store_constant(s, t)));
	/* (#a + #b) = (#b + #a) */
	ck_assert_uint_eq(store_make_add2(s, ca, cb), store_make_add2(s, cb, ca));
	/* 2 * (#a + 1) = 2*#a + 2 */
	Node lhs = store_make_scale(s, two, store_make_add2(s, ca, store_make_const_si(s, 1)));
	Node rhs = store_make_add2(s, store_make_scale(s, two, ca), store_make_const_si(s, 2));
	ck_assert_uint_eq(lhs, rhs);
	fmpz_clear(two);
}
END_TEST

START_TEST(comparison_one_side)
{
	/* #a < #b  is  #a - #b < 0  is  #a - #b + 1 <= 1 ... the same node
	 * for the same difference */
	Node x = store_make_cmp(s, REL_LT, ca, cb);
	Node y = store_make_cmp(s, REL_LT, store_make_sub(s, ca, cb),
				store_make_const_si(s, 0));
	ck_assert_uint_eq(x, y);
	ck_assert_uint_ne(x, store_make_cmp(s, REL_GT, cb, ca)); /* no flipping */
	/* constant comparisons fold */
	ck_assert_uint_eq(store_make_cmp(s, REL_LT, store_make_const_si(s, 1),
					 store_make_const_si(s, 2)),
			  store_make_true(s));
	ck_assert_uint_eq(store_make_cmp(s, REL_EQ, ca, ca), store_make_true(s));
}
END_TEST

START_TEST(huge_constants_exact)
{
	fmpz_t big;
	fmpz_init(big);
	fmpz_set_str(big, "1000000000000000000000000000000000000000", 10);
	Node k1 = store_make_const(s, big);
	Node k2 = store_make_const(s, big);
	ck_assert_uint_eq(k1, k2);
	fmpz_add_ui(big, big, 1);
	ck_assert_uint_ne(store_make_const(s, big), k1);
	fmpz_clear(big);
}
END_TEST

START_TEST(conditional_and_extrema)
{
	Node t = store_make_true(s);
	ck_assert_uint_eq(store_make_ite(s, t, ca, cb), ca);
	ck_assert_uint_eq(store_make_ite(s, a, ca, ca), ca);
	ck_assert_uint_eq(store_make_ite(s, store_make_not(s, a), ca, cb),
			  store_make_ite(s, a, cb, ca));
	ck_assert_uint_eq(store_make_min(s, ca, cb), store_make_min(s, cb, ca));
	ck_assert_uint_eq(store_make_max(s, ca, ca), ca);
	Node three = store_make_const_si(s, 3), five = store_make_const_si(s, 5);
	ck_assert_uint_eq(store_make_min(s, five, three), three);
	ck_assert_uint_eq(store_make_max(s, five, three), five);
	ck_assert_uint_eq(store_make_count(s, store_make_false(s)),
			  store_make_const_si(s, 0));
}
END_TEST

START_TEST(depth_and_size)
{
	Node lt = store_make_cmp(s, REL_LT, ca, cb);
	Node nested = store_make_count(s, lt);
	ck_assert_uint_eq(store_depth(s, a), 0);
	ck_assert_uint_eq(store_depth(s, ca), 1);
	ck_assert_uint_eq(store_depth(s, nested), 2);
	ck_assert_uint_eq(store_depth(s, store_make_prev(s, lt)), 1);
	ck_assert_uint_eq(store_depth(s, store_make_ite(s, lt, nested, ca)), 2);
	ck_assert_uint_eq(store_size(s, a), 1);
	ck_assert_uint_eq(store_size(s, ca), 2);
	ck_assert(store_flags(s, store_make_fcount(s, a)) & FLAG_FUTURE);
	ck_assert(store_flags(s, store_make_prev(s, a)) & FLAG_PREV);
	ck_assert_uint_eq(store_make_mod(s, 1, 0), store_make_true(s));
	ck_assert_uint_eq(store_make_mod(s, 3, 4), store_make_mod(s, 3, 1));
}
END_TEST

START_TEST(children_before_parents)
{
	Node top = store_make_and2(s, store_make_cmp(s, REL_LT, ca, cb), c);
	for (Node n = 1; n <= top; n++)
		for (uint32_t i = 0; i < store_nkids(s, n); i++)
			ck_assert_uint_lt(store_kid(s, n, i), n);
}
END_TEST

Suite *store_suite(void)
{
	Suite *suite = suite_create("store");
	TCase *tc = tcase_create("normalise");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, hash_consing);
	tcase_add_test(tc, double_negation);
	tcase_add_test(tc, and_or_units_zeros_idempotence);
	tcase_add_test(tc, and_flattens_and_sorts);
	tcase_add_test(tc, linear_terms_merge);
	tcase_add_test(tc, comparison_one_side);
	tcase_add_test(tc, huge_constants_exact);
	tcase_add_test(tc, conditional_and_extrema);
	tcase_add_test(tc, depth_and_size);
	tcase_add_test(tc, children_before_parents);
	suite_add_tcase(suite, tc);
	return suite;
}
