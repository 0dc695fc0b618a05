/* check_store.c -- hash-consing and the normalisation rules of the smart
 * constructors (src/store.c; logic/README.md lists the same rules), one
 * test per rule, each with equal pairs (the rule applies) and not-equal
 * pairs (it does not over-apply: the store is conservative).
 *
 * The rules:
 *  1. hash-consing: structurally equal nodes are one id; kids before parents
 *  2. negation: !true = false, !false = true, !!p = p
 *  3. and/or units: p & true = p, p | false = p; and() = true, or() = false
 *  4. and/or zeros: p & false = false, p | true = true
 *  5. and/or idempotence: p & p = p (duplicates dropped); and(p) = p
 *  6. and/or complement: p & !p = false, p | !p = true (also after flattening)
 *  7. and/or flattening: (p & q) & r = p & q & r (same operator only)
 *  8. and/or sorting: operands sorted by id, so p & q = q & p
 *  9. sugar: p -> q = !p | q; p <-> q = (p & q) | (!p & !q)
 * 10. comparison to one side: t REL u = (t - u) REL 0 (relation kept, no
 *     flipping, no division by a common factor)
 * 11. comparison folding: a constant t - u folds to true/false by its sign
 * 12. linear merging: sums flatten, equal atoms' coefficients add, zero
 *     terms vanish, constants add up (last), atoms sorted by id; 1*t = t
 * 13. linear scaling: c*(t + u) = c*t + c*u, c*(d*t) = cd*t, 0*t = 0,
 *     -(-t) = t, t - u = t + (-1)*u
 * 14. conditional: (true ? t : u) = t, (false ? t : u) = u, (p ? t : t) = t,
 *     (!p ? t : u) = (p ? u : t)
 * 15. min/max: min(t, t) = t, two constants fold, operands sorted
 * 16. counts of false: #[false] = 0, #>[false] = 0
 * 17. previous: Y false = false
 * 18. MOD: MOD(1, r) = true; MOD(m, r) = MOD(m, r mod m)
 * 19. constants: any size, equal values one id
 * Depth, size and fragment flags are cached per node (syntax.md §Depth).
 * store_rollback returns the store to a mark: what was made before is
 * still found, and what is made next gets the ids a fresh store gives.
 */
#include <config.h>

#include <stdio.h>

#include "core/store.h"
#include "suites.h"

static Store *s;
static Node a, b, c; /* letter tests Q_a, Q_b, Q_c */
static Node ca, cb;  /* #[Q_a], #[Q_b] */
static Node T, F;    /* true, false */

static void setup(void)
{
	s = store_new();
	a = store_make_letter(s, sym_intern(store_syms(s), "a", 1));
	b = store_make_letter(s, sym_intern(store_syms(s), "b", 1));
	c = store_make_letter(s, sym_intern(store_syms(s), "c", 1));
	ca = store_make_count(s, a);
	cb = store_make_count(s, b);
	T = store_make_true(s);
	F = store_make_false(s);
}

static void teardown(void)
{
	store_free(s);
}

static Node k(long v)
{
	return store_make_const_si(s, v);
}

static Node not(Node p)
{
	return store_make_not(s, p);
}

static Node and2(Node p, Node q)
{
	return store_make_and2(s, p, q);
}

static Node or2(Node p, Node q)
{
	return store_make_or2(s, p, q);
}

static Node add2(Node t, Node u)
{
	return store_make_add2(s, t, u);
}

static Node scale(long c0, Node t)
{
	fmpz_t v;
	fmpz_init_set_si(v, c0);
	Node r = store_make_scale(s, v, t);
	fmpz_clear(v);
	return r;
}

static Node cmp(Rel rel, Node t, Node u)
{
	return store_make_cmp(s, rel, t, u);
}

START_TEST(hash_consing)
{
	ck_assert_uint_eq(store_make_letter(s, sym_intern(store_syms(s), "a", 1)), a);
	ck_assert_uint_eq(store_make_count(s, a), ca);
	ck_assert_uint_eq(cmp(REL_LT, ca, cb), cmp(REL_LT, ca, cb));
	ck_assert_uint_ne(ca, cb);
	ck_assert_uint_ne(store_make_count(s, a), store_make_fcount(s, a));
	ck_assert_uint_ne(store_make_min(s, ca, cb), store_make_max(s, ca, cb));
	ck_assert_uint_ne(cmp(REL_LT, ca, cb), cmp(REL_LE, ca, cb));
	Node top = and2(cmp(REL_LT, ca, cb), store_make_prev(s, c));
	for (Node n = 1; n <= top; n++)
		for (uint32_t i = 0; i < store_nkids(s, n); i++)
			ck_assert_uint_lt(store_kid(s, n, i), n);
}
END_TEST

START_TEST(negation)
{
	ck_assert_uint_eq(not(T), F);
	ck_assert_uint_eq(not(F), T);
	ck_assert_uint_eq(not(not(a)), a);
	ck_assert_uint_eq(not(not(not(a))), not(a));
	ck_assert_uint_ne(not(a), a);
	/* conservative: no De Morgan, no flipping of comparisons */
	ck_assert_uint_ne(not(and2(a, b)), or2(not(a), not(b)));
	ck_assert_uint_ne(not(cmp(REL_LT, ca, cb)), cmp(REL_GE, ca, cb));
}
END_TEST

START_TEST(and_or_units)
{
	ck_assert_uint_eq(and2(a, T), a);
	ck_assert_uint_eq(and2(T, a), a);
	ck_assert_uint_eq(or2(a, F), a);
	ck_assert_uint_eq(and2(T, T), T);
	ck_assert_uint_eq(or2(F, F), F);
	ck_assert_uint_eq(store_make_and(s, NULL, 0), T);
	ck_assert_uint_eq(store_make_or(s, NULL, 0), F);
	ck_assert_uint_ne(or2(a, T), a); /* true is no unit of | */
	ck_assert_uint_ne(and2(a, b), a);
}
END_TEST

START_TEST(and_or_zeros)
{
	ck_assert_uint_eq(and2(a, F), F);
	ck_assert_uint_eq(and2(F, and2(b, c)), F);
	ck_assert_uint_eq(or2(a, T), T);
	Node many[4] = {a, b, T, c};
	ck_assert_uint_eq(store_make_or(s, many, 4), T);
	ck_assert_uint_ne(store_make_and(s, many, 4), T);
	ck_assert_uint_ne(or2(a, b), T);
}
END_TEST

START_TEST(and_or_idempotence)
{
	ck_assert_uint_eq(and2(a, a), a);
	ck_assert_uint_eq(or2(a, a), a);
	Node dup[4] = {b, a, b, a};
	ck_assert_uint_eq(store_make_and(s, dup, 4), and2(a, b));
	ck_assert_uint_eq(store_nkids(s, store_make_or(s, dup, 4)), 2);
	ck_assert_uint_eq(store_make_and(s, &a, 1), a);
	ck_assert_uint_eq(and2(and2(a, b), a), and2(a, b));
	ck_assert_uint_ne(and2(a, b), or2(a, b));
}
END_TEST

START_TEST(and_or_complement)
{
	ck_assert_uint_eq(and2(a, not(a)), F);
	ck_assert_uint_eq(or2(not(a), a), T);
	ck_assert_uint_eq(and2(and2(a, b), not(a)), F); /* after flattening */
	ck_assert_uint_eq(or2(c, or2(not(c), b)), T);
	ck_assert_uint_ne(and2(a, not(b)), F);
	/* only syntactic complements: #a < 1 and #a >= 1 are not recognised */
	ck_assert_uint_ne(and2(cmp(REL_LT, ca, k(1)), cmp(REL_GE, ca, k(1))), F);
}
END_TEST

START_TEST(and_or_flattening)
{
	Node abc1 = and2(and2(a, b), c);
	Node abc2 = and2(a, and2(b, c));
	ck_assert_uint_eq(abc1, abc2);
	ck_assert_uint_eq(store_nkids(s, abc1), 3);
	for (uint32_t i = 0; i < 3; i++)
		ck_assert_int_ne(store_op(s, store_kid(s, abc1, i)), OP_AND);
	ck_assert_uint_eq(or2(or2(a, b), or2(c, not(b))), T);
	ck_assert_uint_eq(store_nkids(s, or2(or2(a, b), or2(c, cmp(REL_LT, ca, cb)))), 4);
	/* an | inside an & stays a kid */
	Node mixed = and2(or2(a, b), c);
	ck_assert_uint_eq(store_nkids(s, mixed), 2);
	ck_assert_uint_ne(mixed, or2(and2(a, c), and2(b, c))); /* no distribution */
}
END_TEST

START_TEST(and_or_sorting)
{
	ck_assert_uint_eq(and2(b, a), and2(a, b));
	ck_assert_uint_eq(or2(c, or2(b, a)), or2(a, or2(c, b)));
	Node x = and2(c, and2(b, a));
	for (uint32_t i = 1; i < store_nkids(s, x); i++)
		ck_assert_uint_lt(store_kid(s, x, i - 1), store_kid(s, x, i));
	ck_assert_uint_ne(and2(a, b), and2(a, c));
}
END_TEST

START_TEST(implication_equivalence)
{
	ck_assert_uint_eq(store_make_implies(s, a, b), or2(not(a), b));
	ck_assert_uint_eq(store_make_implies(s, a, a), T);
	ck_assert_uint_eq(store_make_iff(s, a, b),
			  or2(and2(a, b), and2(not(a), not(b))));
	ck_assert_uint_eq(store_make_iff(s, a, b), store_make_iff(s, b, a));
	ck_assert_uint_eq(store_make_iff(s, a, b),
			  store_make_iff(s, not(a), not(b)));
	ck_assert_uint_ne(store_make_implies(s, a, b), store_make_implies(s, b, a));
	ck_assert_uint_ne(store_make_iff(s, a, b), store_make_iff(s, a, not(b)));
}
END_TEST

START_TEST(comparison_one_side)
{
	Node x = cmp(REL_LT, ca, cb);
	ck_assert_uint_eq(x, cmp(REL_LT, store_make_sub(s, ca, cb), k(0)));
	ck_assert_uint_eq(x, cmp(REL_LT, add2(ca, k(1)), add2(cb, k(1))));
	ck_assert_int_eq(store_op(s, x), OP_CMP);
	ck_assert_int_eq(store_rel(s, x), REL_LT);
	ck_assert_uint_eq(store_kid(s, x, 0), store_make_sub(s, ca, cb));
	/* conservative: no flipping, no division by a common factor */
	ck_assert_uint_ne(x, cmp(REL_GT, cb, ca));
	ck_assert_uint_ne(x, cmp(REL_LT, scale(2, ca), scale(2, cb)));
	ck_assert_uint_ne(cmp(REL_LT, ca, k(1)), cmp(REL_LE, ca, k(0)));
}
END_TEST

/* The six relations against the naive meaning of C's operators. */
static bool naive(Rel rel, long x, long y)
{
	switch (rel) {
	case REL_LT: return x < y;
	case REL_LE: return x <= y;
	case REL_EQ: return x == y;
	case REL_NE: return x != y;
	case REL_GE: return x >= y;
	case REL_GT: return x > y;
	}
	ck_abort();
}

START_TEST(comparison_folding)
{
	for (int r = REL_LT; r <= REL_GT; r++)
		for (long x = -2; x <= 2; x++)
			for (long y = -2; y <= 2; y++) {
				Node want = store_make_bool(s, naive((Rel)r, x, y));
				ck_assert_uint_eq(cmp((Rel)r, k(x), k(y)), want);
				/* the atoms cancel: #a + x REL #a + y */
				ck_assert_uint_eq(cmp((Rel)r, add2(ca, k(x)),
						      add2(ca, k(y))), want);
			}
	ck_assert_uint_eq(cmp(REL_EQ, ca, ca), T);
	ck_assert_uint_eq(cmp(REL_LT, scale(2, ca), add2(ca, ca)), F);
	ck_assert_int_eq(store_op(s, cmp(REL_GE, ca, k(0))), OP_CMP); /* no range reasoning */
}
END_TEST

START_TEST(linear_merging)
{
	Node three[3] = {ca, ca, store_make_neg(s, ca)};
	ck_assert_uint_eq(store_make_add(s, three, 3), ca);
	ck_assert_uint_eq(add2(cb, add2(ca, store_make_neg(s, cb))), ca);
	Node t = store_make_sub(s, scale(2, ca), add2(ca, ca));
	ck_assert_int_eq(store_op(s, t), OP_CONST);
	ck_assert(fmpz_is_zero(store_constant(s, t)));
	ck_assert_uint_eq(add2(k(1), k(2)), k(3));
	ck_assert_uint_eq(add2(ca, cb), add2(cb, ca));
	ck_assert_uint_eq(add2(add2(ca, k(1)), add2(cb, k(2))),
			  add2(add2(cb, ca), k(3)));
	ck_assert_uint_eq(add2(ca, k(0)), ca);
	ck_assert_uint_eq(scale(1, ca), ca);
	/* shape: flat, atoms sorted, the constant last */
	Node sum = add2(add2(k(5), cb), add2(scale(3, ca), k(-1)));
	ck_assert_int_eq(store_op(s, sum), OP_ADD);
	ck_assert_uint_eq(store_nkids(s, sum), 3);
	ck_assert_int_eq(store_op(s, store_kid(s, sum, 2)), OP_CONST);
	ck_assert_int_eq(fmpz_get_si(store_constant(s, store_kid(s, sum, 2))), 4);
	ck_assert_int_eq(store_op(s, store_kid(s, sum, 0)), OP_MUL);
	ck_assert_uint_eq(store_kid(s, store_kid(s, sum, 0), 0), ca);
	ck_assert_uint_eq(store_kid(s, sum, 1), cb);
	ck_assert_uint_ne(add2(ca, cb), add2(ca, ca));
	ck_assert_uint_ne(add2(ca, ca), ca);
}
END_TEST

START_TEST(linear_scaling)
{
	ck_assert_uint_eq(scale(2, add2(ca, k(1))), add2(scale(2, ca), k(2)));
	ck_assert_uint_eq(scale(2, scale(3, ca)), scale(6, ca));
	ck_assert_uint_eq(scale(-1, scale(-1, ca)), ca);
	ck_assert_uint_eq(store_make_neg(s, store_make_neg(s, ca)), ca);
	ck_assert_uint_eq(scale(0, add2(ca, cb)), k(0));
	ck_assert_uint_eq(store_make_sub(s, ca, cb), add2(ca, scale(-1, cb)));
	ck_assert_uint_eq(store_make_sub(s, ca, ca), k(0));
	ck_assert_uint_eq(store_make_neg(s, k(7)), k(-7));
	Node m = scale(-3, ca);
	ck_assert_int_eq(store_op(s, m), OP_MUL);
	ck_assert_int_eq(fmpz_get_si(store_constant(s, m)), -3);
	ck_assert_uint_ne(scale(2, ca), scale(3, ca));
	ck_assert_uint_ne(scale(-1, ca), ca);
}
END_TEST

START_TEST(conditional)
{
	ck_assert_uint_eq(store_make_ite(s, T, ca, cb), ca);
	ck_assert_uint_eq(store_make_ite(s, F, ca, cb), cb);
	ck_assert_uint_eq(store_make_ite(s, a, ca, ca), ca);
	ck_assert_uint_eq(store_make_ite(s, not(a), ca, cb),
			  store_make_ite(s, a, cb, ca));
	Node x = store_make_ite(s, a, ca, cb);
	ck_assert_int_eq(store_op(s, x), OP_ITE);
	ck_assert_uint_ne(x, store_make_ite(s, a, cb, ca));
	ck_assert_uint_ne(x, store_make_ite(s, b, ca, cb));
}
END_TEST

START_TEST(min_max)
{
	ck_assert_uint_eq(store_make_min(s, ca, ca), ca);
	ck_assert_uint_eq(store_make_max(s, cb, cb), cb);
	ck_assert_uint_eq(store_make_min(s, ca, cb), store_make_min(s, cb, ca));
	ck_assert_uint_eq(store_make_max(s, ca, cb), store_make_max(s, cb, ca));
	ck_assert_uint_eq(store_make_min(s, k(5), k(3)), k(3));
	ck_assert_uint_eq(store_make_max(s, k(5), k(3)), k(5));
	ck_assert_uint_eq(store_make_min(s, k(-5), k(3)), k(-5));
	ck_assert_uint_eq(store_make_max(s, k(-5), k(-3)), k(-3));
	ck_assert_uint_ne(store_make_min(s, ca, cb), store_make_max(s, ca, cb));
	/* a constant against a term is not folded (counts are >= 0 but the
	 * store does no range reasoning) */
	ck_assert_int_eq(store_op(s, store_make_max(s, ca, k(0))), OP_MAX);
	ck_assert_int_eq(store_op(s, store_make_min(s, ca, k(3))), OP_MIN);
}
END_TEST

START_TEST(count_of_false)
{
	ck_assert_uint_eq(store_make_count(s, F), k(0));
	ck_assert_uint_eq(store_make_fcount(s, F), k(0));
	ck_assert_uint_eq(store_make_count(s, and2(a, not(a))), k(0));
	/* #[true] is the position, not a constant */
	ck_assert_int_eq(store_op(s, store_make_count(s, T)), OP_COUNT);
	ck_assert_uint_ne(store_make_count(s, T), store_make_fcount(s, T));
}
END_TEST

START_TEST(previous)
{
	ck_assert_uint_eq(store_make_prev(s, F), F);
	/* Y true is false at position 1: not folded */
	ck_assert_int_eq(store_op(s, store_make_prev(s, T)), OP_PREV);
	ck_assert_uint_ne(store_make_prev(s, not(a)), not(store_make_prev(s, a)));
	ck_assert_uint_ne(store_make_prev(s, store_make_prev(s, a)),
			  store_make_prev(s, a));
}
END_TEST

START_TEST(modulo)
{
	ck_assert_uint_eq(store_make_mod(s, 1, 0), T);
	ck_assert_uint_eq(store_make_mod(s, 1, 7), T);
	ck_assert_uint_eq(store_make_mod(s, 3, 4), store_make_mod(s, 3, 1));
	ck_assert_uint_eq(store_make_mod(s, 3, 3), store_make_mod(s, 3, 0));
	Node m = store_make_mod(s, 5, 12);
	ck_assert_uint_eq(store_aux(s, m), 5);
	ck_assert_uint_eq(store_aux2(s, m), 2);
	ck_assert_uint_ne(store_make_mod(s, 3, 0), store_make_mod(s, 3, 1));
	ck_assert_uint_ne(store_make_mod(s, 2, 1), store_make_mod(s, 4, 1));
	ck_assert_uint_ne(store_make_mod(s, 2, 0), T);
}
END_TEST

START_TEST(huge_constants)
{
	fmpz_t big, big1;
	fmpz_init(big);
	fmpz_init(big1);
	fmpz_set_str(big, "1000000000000000000000000000000000000000", 10);
	fmpz_add_ui(big1, big, 1);
	Node k1 = store_make_const(s, big), k2 = store_make_const(s, big);
	Node k3 = store_make_const(s, big1);
	ck_assert_uint_eq(k1, k2);
	ck_assert_uint_ne(k3, k1);
	ck_assert_uint_eq(cmp(REL_LT, k1, k3), T);
	ck_assert_uint_eq(cmp(REL_EQ, add2(k1, k(1)), k3), T);
	ck_assert_uint_eq(store_make_sub(s, k3, k1), k(1));
	ck_assert_uint_eq(store_make_min(s, k3, k1), k1);
	/* values equal modulo 2^64 or the hash primes stay apart */
	fmpz_t wrap;
	fmpz_init(wrap);
	fmpz_set_ui(wrap, 1);
	fmpz_mul_2exp(wrap, wrap, 64);
	fmpz_add_ui(wrap, wrap, 5);
	ck_assert_uint_ne(store_make_const(s, wrap), k(5));
	fmpz_set_ui(wrap, 4294967291UL);
	fmpz_mul_ui(wrap, wrap, 2147483647UL);
	fmpz_add_ui(wrap, wrap, 5);
	ck_assert_uint_ne(store_make_const(s, wrap), k(5));
	fmpz_clear(wrap);
	fmpz_clear(big);
	fmpz_clear(big1);
}
END_TEST

START_TEST(depth_size_flags)
{
	Node lt = cmp(REL_LT, ca, cb);
	Node nested = store_make_count(s, lt);
	ck_assert_uint_eq(store_depth(s, a), 0);
	ck_assert_uint_eq(store_depth(s, k(3)), 0);
	ck_assert_uint_eq(store_depth(s, ca), 1);
	ck_assert_uint_eq(store_depth(s, nested), 2);
	ck_assert_uint_eq(store_depth(s, store_make_fcount(s, lt)), 2);
	ck_assert_uint_eq(store_depth(s, store_make_prev(s, lt)), 1);
	ck_assert_uint_eq(store_depth(s, store_make_mod(s, 2, 1)), 0);
	ck_assert_uint_eq(store_depth(s, store_make_ite(s, lt, nested, ca)), 2);
	ck_assert_uint_eq(store_depth(s, store_make_min(s, nested, ca)), 2);
	ck_assert_uint_eq(store_size(s, a), 1);
	ck_assert_uint_eq(store_size(s, ca), 2);
	ck_assert_uint_eq(store_size(s, and2(a, and2(b, c))), 5);
	ck_assert_uint_eq(store_flags(s, lt), 0);
	ck_assert(store_flags(s, store_make_fcount(s, a)) & FLAG_FUTURE);
	ck_assert(store_flags(s, store_make_prev(s, a)) & FLAG_PREV);
	ck_assert(store_flags(s, and2(a, store_make_mod(s, 2, 1))) & FLAG_MOD);
}
END_TEST

/* Enough nodes, big constants and symbols that both hash tables grow;
 * returns the last node. */
static Node busy_work(Store *st)
{
	Node last = NODE_NONE;
	fmpz_t big;
	fmpz_init(big);
	for (int i = 0; i < 1500; i++) {
		char name[16];
		int n = snprintf(name, sizeof name, "x%d", i);
		Node x = store_make_letter(st, sym_intern(store_syms(st), name,
							    (size_t)n));
		fmpz_set_ui(big, 10);
		fmpz_pow_ui(big, big, 30);
		fmpz_add_ui(big, big, (unsigned long)i);
		Node cmp = store_make_cmp(st, REL_GE, store_make_count(st, x),
					  store_make_const(st, big));
		Node kids[2] = {cmp, last == NODE_NONE ? cmp : last};
		last = store_make_and(st, kids, 2);
	}
	fmpz_clear(big);
	return last;
}

START_TEST(rollback)
{
	size_t nodes = store_node_count(s);
	StoreMark m = store_mark(s);
	Node first = busy_work(s);
	ck_assert_uint_gt(store_node_count(s), 4000);
	store_rollback(s, &m);
	ck_assert_uint_eq(store_node_count(s), nodes);
	ck_assert_uint_eq(sym_lookup(store_syms(s), "x7", 2), SYM_NONE);
	/* the nodes from before the mark are still hash-consed */
	ck_assert_uint_eq(store_make_letter(s, sym_intern(store_syms(s), "a",
							  1)),
			  a);
	ck_assert_uint_eq(store_make_count(s, b), cb);
	ck_assert_uint_eq(store_node_count(s), nodes);
	/* the same work gives the same ids again, and as in a fresh store */
	ck_assert_uint_eq(busy_work(s), first);
	Store *saved = s;
	setup();
	ck_assert_uint_eq(busy_work(s), first);
	teardown();
	s = saved;
	store_rollback(s, &m);
	ck_assert_uint_eq(store_node_count(s), nodes);
}
END_TEST

Suite *store_suite(void)
{
	Suite *suite = suite_create("store");
	TCase *tc = tcase_create("normalise");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, hash_consing);
	tcase_add_test(tc, negation);
	tcase_add_test(tc, and_or_units);
	tcase_add_test(tc, and_or_zeros);
	tcase_add_test(tc, and_or_idempotence);
	tcase_add_test(tc, and_or_complement);
	tcase_add_test(tc, and_or_flattening);
	tcase_add_test(tc, and_or_sorting);
	tcase_add_test(tc, implication_equivalence);
	tcase_add_test(tc, comparison_one_side);
	tcase_add_test(tc, comparison_folding);
	tcase_add_test(tc, linear_merging);
	tcase_add_test(tc, linear_scaling);
	tcase_add_test(tc, conditional);
	tcase_add_test(tc, min_max);
	tcase_add_test(tc, count_of_false);
	tcase_add_test(tc, previous);
	tcase_add_test(tc, modulo);
	tcase_add_test(tc, huge_constants);
	tcase_add_test(tc, depth_size_flags);
	tcase_add_test(tc, rollback);
	suite_add_tcase(suite, tc);
	return suite;
}
