/* compile_heads.c -- the attention head of a comparison L < 0 (see
 * compile.h): uniform attention whose value weights are the linear
 * form's coefficients on the counted Booleans, with BOS carrying the
 * constant, so that the head outputs floor(-(L+1)/(i+1)) and its sign is
 * exact at every length.  Also what a head can hold: weights of at most
 * COMPILE_MAX_WEIGHT_BITS bits, atoms that are past counts. */
#include <config.h>
#include "transformer/compile_state.h"

#include <math.h>
#include <stdlib.h>

#include "base/mem.h"

/* A comparison as L' < 0 with L' = sign * L + shift (L the kid). */
bool compiler_strict_form(Rel rel, int *sign, long *shift)
{
	switch (rel) {
	case REL_LT: *sign = 1; *shift = 0; return true;  /* L < 0 */
	case REL_LE: *sign = 1; *shift = -1; return true; /* L - 1 < 0 */
	case REL_GT: *sign = -1; *shift = 0; return true; /* -L < 0 */
	case REL_GE: *sign = -1; *shift = -1; return true;
	default: return false;
	}
}

/* Weights are exact in the model, but the construction keeps them in
 * doubles and the precision is at most 32 bits: 40 bits is the bound. */
enum { COMPILE_MAX_WEIGHT_BITS = 40 };

static bool fits(const fmpz_t x)
{
	return fmpz_bits(x) <= COMPILE_MAX_WEIGHT_BITS;
}

static char *too_wide(const fmpz_t x, const char *what)
{
	return compiler_message("a %s of %lu bits: the compiler takes at most "
				"%d (no precision p <= 32 could hold its "
				"weight)",
				what, (unsigned long)fmpz_bits(x),
				COMPILE_MAX_WEIGHT_BITS);
}

/* The head of the comparison sign * L + shift < 0 (L the linear form l,
 * whose count atoms hold the Booleans psi[i]) into component comp: value
 * weights and the component's counts.  Its sum over BOS and the prefix
 * is -(sign * L + shift + 1). */
bool compiler_head_linear(Compiler *c, const Linear *l, const Node *psi,
			int sign, long shift, uint32_t comp_at, Head *h)
{
	if (!fits(l->constant)) {
		c->err = too_wide(l->constant, "constant");
		return false;
	}
	Component *comp = &c->comps.data[comp_at];
	comp->counts = xcalloc(l->n ? l->n : 1, sizeof *comp->counts);
	h->wv.rows = 1;
	h->wv.e = xcalloc(l->n + 1, sizeof *h->wv.e);
	double cst = sign * (double)fmpz_get_si(l->constant) + (double)shift;
	double bos = -(cst + 1);
	for (size_t i = 0; i < l->n; i++) {
		if (!fits(&l->coefs[i])) {
			c->err = too_wide(&l->coefs[i], "coefficient");
			return false;
		}
		double a = sign * (double)fmpz_get_si(&l->coefs[i]);
		h->wv.e[h->wv.n++] = (Entry){0, c->bool_comp[psi[i]], -a};
		if (c->at0[psi[i]])
			bos += a; /* cancel psi's own value at BOS */
		comp->counts[comp->ncounts++] =
			(CountTerm){a, compiler_label(c, psi[i])};
	}
	comp->constant = cst;
	h->wv.e[h->wv.n++] = (Entry){0, 0, bos};
	double sum = 0;
	for (size_t i = 0; i < h->wv.n; i++)
		sum += fabs(h->wv.e[i].w);
	compiler_note_range(c, sum);
	h->out = comp_at;
	return true;
}

/* The Booleans counted by a linear form's atoms, or false when an atom
 * is not a past count. */
bool compiler_counted(const Store *st, const Linear *l, Node *psi)
{
	for (size_t i = 0; i < l->n; i++) {
		if (store_op(st, l->atoms[i]) != OP_COUNT)
			return false;
		psi[i] = store_kid(st, l->atoms[i], 0);
	}
	return true;
}

/* The head of comparison n. */
bool compiler_build_head(Compiler *c, Node n, Head *h)
{
	Store *st = c->st;
	Linear l;
	store_linear(st, store_kid(st, n, 0), &l);
	int sign;
	long shift;
	Node *psi = xcalloc(l.n + 1, sizeof *psi);
	bool ok = false;
	if (!compiler_strict_form(store_rel(st, n), &sign, &shift))
		c->err = compiler_message("internal: a comparison the "
					  "lowering should have removed");
	else if (!compiler_counted(st, &l, psi))
		c->err = compiler_message("internal: a linear form over "
					  "something else than counts");
	else
		ok = compiler_head_linear(c, &l, psi, sign, shift,
					  c->head_comp[n], h);
	free(psi);
	store_linear_free(&l);
	return ok;
}
