/* hierarchy.c -- L_k as a formula. */
#include <config.h>

#include "search/hierarchy.h"

/* S(s_1 .. s_m) for the alternating pattern starting with `first`:
 * 1 <= #[Q_{s_m} & S(s_1 .. s_{m-1})]. */
static Node subsequence(Store *st, Sym first, Sym other, unsigned m)
{
	Node one = store_make_const_si(st, 1), s = NODE_NONE;
	for (unsigned i = 1; i <= m; i++) {
		Node q = store_make_letter(st, i % 2 ? first : other);
		Node body = s == NODE_NONE ? q : store_make_and2(st, q, s);
		s = store_make_cmp(st, REL_LE, one, store_make_count(st, body));
	}
	return s;
}

/* s_1 .. s_m from the position on, for the alternating pattern starting
 * with `first` (inclusive #>, so the position holds s_1):
 * Q_{s_1} & 1 <= #>[S>(s_2 .. s_m)]. */
static Node future_subsequence(Store *st, Sym first, Sym other, unsigned m)
{
	Node one = store_make_const_si(st, 1), s = NODE_NONE;
	for (unsigned i = m; i >= 1; i--) {
		Node q = store_make_letter(st, i % 2 ? first : other);
		s = s == NODE_NONE ? q : store_make_and2(st, q, store_make_cmp(
			st, REL_LE, one, store_make_fcount(st, s)));
	}
	return s;
}

/* The body of S(s_1 .. s_m) at its last position: Q_{s_m} & S(s_1 ..
 * s_(m-1)), or Q_{s_1} for m = 1. */
static Node past_ending(Store *st, Sym first, Sym other, unsigned m)
{
	Node q = store_make_letter(st, m % 2 ? first : other);
	return m == 1 ? q : store_make_and2(st, q, subsequence(st, first, other,
							       m - 1));
}

/* T(s_1 .. s_(2k-1)): some position ends s_1 .. s_k and starts s_k ..
 * s_(2k-1) (the alternation makes s_(k+1) .. lie strictly after). */
static Node two_sided_subsequence(Store *st, Sym first, Sym other, unsigned k)
{
	Sym mid = k % 2 ? first : other, next = k % 2 ? other : first;
	Node here = store_make_and2(st, past_ending(st, first, other, k),
				    future_subsequence(st, mid, next, k));
	return store_make_cmp(st, REL_LE, store_make_const_si(st, 1),
			      store_make_count(st, here));
}

Node hierarchy_dk_formula(Store *st, Sym a, Sym b, unsigned k)
{
	return store_make_and2(st, two_sided_subsequence(st, a, b, k),
			       store_make_not(st, two_sided_subsequence(st, b, a, k)));
}

Node hierarchy_lk(Store *st, Sym a, Sym b, unsigned k)
{
	return store_make_and2(st, subsequence(st, a, b, k),
			       store_make_not(st, subsequence(st, b, a, k)));
}

Node hierarchy_prefix_guard(Store *st, Sym a, Sym b, unsigned m)
{
	/* first letter a: an a at a position with no b before it */
	Node qa = store_make_letter(st, a), qb = store_make_letter(st, b);
	Node no_b = store_make_cmp(st, REL_LT, store_make_count(st, qb),
				   store_make_const_si(st, 1));
	Node first_a = store_make_cmp(st, REL_LE, store_make_const_si(st, 1),
				      store_make_count(st, store_make_and2(st, qa, no_b)));
	return store_make_and2(st, first_a,
			       store_make_not(st, subsequence(st, a, b, m + 1)));
}

unsigned hierarchy_theory(bool predict, unsigned k)
{
	return predict ? k - 2 : k;
}

Node hierarchy_predict_formula(Store *st, Sym a, Sym b, unsigned m)
{
	Node last = store_make_letter(st, m % 2 ? a : b);
	return store_make_and2(st, last, subsequence(st, b, a, m - 2));
}

bool hierarchy_member(const uint8_t *w, size_t n, unsigned k)
{
	if (n == 0 || w[0] != 0)
		return false;
	size_t runs = 1;
	for (size_t i = 1; i < n; i++)
		runs += w[i] != w[i - 1];
	return runs == k;
}
