/* ref_eval.c -- the naive reference: one recursive case per operator,
 * written from the semantics table of logic.md §2.3 and §3.2. */
#include <config.h>

#include <stdlib.h>

#include "ref_eval.h"
#include "base/mem.h"

static bool holds(Rel rel, int sign)
{
	switch (rel) {
	case REL_LT: return sign < 0;
	case REL_LE: return sign <= 0;
	case REL_EQ: return sign == 0;
	case REL_NE: return sign != 0;
	case REL_GE: return sign >= 0;
	case REL_GT: return sign > 0;
	}
	abort();
}

/* Number of j in [lo, hi] where f holds. */
static void count_range(const Store *s, Node f, const Sym *w, size_t len,
			size_t lo, size_t hi, fmpz_t out)
{
	fmpz_zero(out);
	for (size_t j = lo; j <= hi; j++)
		if (ref_bool(s, f, w, len, j))
			fmpz_add_ui(out, out, 1);
}

bool ref_bool(const Store *s, Node f, const Sym *w, size_t len, size_t i)
{
	switch (store_op(s, f)) {
	case OP_TRUE:
		return true;
	case OP_FALSE:
		return false;
	case OP_LETTER:
		/* position 0 has no letter; SYM_NONE is the end marker */
		return i >= 1 && w[i - 1] != SYM_NONE &&
		       w[i - 1] == store_letter_sym(s, f);
	case OP_NOT:
		return !ref_bool(s, store_kid(s, f, 0), w, len, i);
	case OP_AND:
		for (uint32_t k = 0; k < store_nkids(s, f); k++)
			if (!ref_bool(s, store_kid(s, f, k), w, len, i))
				return false;
		return true;
	case OP_OR:
		for (uint32_t k = 0; k < store_nkids(s, f); k++)
			if (ref_bool(s, store_kid(s, f, k), w, len, i))
				return true;
		return false;
	case OP_CMP: {
		fmpz_t v;
		fmpz_init(v);
		ref_int(s, store_kid(s, f, 0), w, len, i, v);
		bool r = holds(store_rel(s, f), fmpz_sgn(v));
		fmpz_clear(v);
		return r;
	}
	case OP_PREV:
		return i >= 2 && ref_bool(s, store_kid(s, f, 0), w, len, i - 1);
	case OP_MOD:
		return i % store_aux(s, f) == store_aux2(s, f);
	default:
		abort(); /* an integer node where a Boolean was expected */
	}
}

void ref_int(const Store *s, Node t, const Sym *w, size_t len, size_t i,
	     fmpz_t out)
{
	fmpz_t v;
	switch (store_op(s, t)) {
	case OP_CONST:
		fmpz_set(out, store_constant(s, t));
		return;
	case OP_COUNT:
		count_range(s, store_kid(s, t, 0), w, len, 1, i, out);
		return;
	case OP_FCOUNT:
		count_range(s, store_kid(s, t, 0), w, len, i < 1 ? 1 : i, len,
			    out);
		return;
	case OP_ITE:
		ref_int(s, store_kid(s, t, ref_bool(s, store_kid(s, t, 0), w,
						     len, i) ? 1 : 2),
			w, len, i, out);
		return;
	case OP_MIN:
	case OP_MAX:
		fmpz_init(v);
		ref_int(s, store_kid(s, t, 0), w, len, i, out);
		ref_int(s, store_kid(s, t, 1), w, len, i, v);
		if ((fmpz_cmp(v, out) < 0) == (store_op(s, t) == OP_MIN))
			fmpz_set(out, v);
		fmpz_clear(v);
		return;
	case OP_ADD:
		fmpz_init(v);
		fmpz_zero(out);
		for (uint32_t k = 0; k < store_nkids(s, t); k++) {
			ref_int(s, store_kid(s, t, k), w, len, i, v);
			fmpz_add(out, out, v);
		}
		fmpz_clear(v);
		return;
	case OP_MUL:
		fmpz_init(v);
		ref_int(s, store_kid(s, t, 0), w, len, i, v);
		fmpz_mul(out, v, store_constant(s, t));
		fmpz_clear(v);
		return;
	default:
		abort(); /* a Boolean node where an integer was expected */
	}
}

void ref_value(const Store *s, Node n, const Sym *w, size_t len, size_t i,
	       fmpz_t out)
{
	if (store_is_bool(s, n))
		fmpz_set_ui(out, ref_bool(s, n, w, len, i));
	else
		ref_int(s, n, w, len, i, out);
}

bool ref_accepts(const Store *s, Node f, const Sym *w, size_t n, bool eos)
{
	if (!eos)
		return ref_bool(s, f, w, n, n);
	Sym *x = xmalloc((n + 1) * sizeof *x);
	for (size_t j = 0; j < n; j++)
		x[j] = w[j];
	x[n] = SYM_NONE;
	bool r = ref_bool(s, f, x, n + 1, n + 1);
	free(x);
	return r;
}
