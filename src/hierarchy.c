/* hierarchy.c -- L_k as a formula. */
#include <config.h>

#include "hierarchy.h"

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

Node hierarchy_lk(Store *st, Sym a, Sym b, unsigned k)
{
	return store_make_and2(st, subsequence(st, a, b, k),
			       store_make_not(st, subsequence(st, b, a, k)));
}

unsigned hierarchy_theory(bool predict, unsigned k)
{
	return predict ? k - 2 : k;
}
