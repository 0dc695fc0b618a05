/* indist_formula.c -- the separating formula of a pair, rebuilt from the
 * atoms that split the classes: a class is the class below it and its
 * cuts, an atom the sum of its terms' class unions compared with c. */
#include <config.h>

#include <stdlib.h>

#include "base/mem.h"
#include "search/indist_tree.h"

typedef struct {
	Indist *x;
	Store *st;
	const Sym *letters;
	Node *memo[INDIST_MAX_DEPTH + 1];
} Builder;

static Node class_formula(Builder *bd, unsigned k, uint32_t K);

/* The union of the classes of level k - 1 whose mask has coefficient
 * i. */
static Node term_formula(Builder *bd, unsigned k, const Atom *at, unsigned i)
{
	Level *l = &bd->x->lv[k];
	VEC(Node) parts = {0};
	bool ok = true;
	for (uint32_t t = 0; t < at->n && ok; t++) {
		const Term *tm = &l->terms.data[at->first + t];
		if (!(tm->mask >> i & 1))
			continue;
		Node f = class_formula(bd, k - 1, tm->cls / bd->x->stride);
		ok = f != NODE_NONE;
		VEC_PUSH(parts, f);
	}
	Node out = ok ? store_make_or(bd->st, parts.data, parts.len) : NODE_NONE;
	VEC_FREE(parts);
	return out;
}

static Node atom_formula(Builder *bd, unsigned k, uint32_t a)
{
	const Atom *at = &bd->x->lv[k].atoms.data[a];
	Store *st = bd->st;
	Node sum = NODE_NONE;
	for (unsigned i = 0; i < bd->x->b.T; i++) {
		if (!at->a[i])
			continue;
		Node psi = term_formula(bd, k, at, i);
		if (psi == NODE_NONE)
			return NODE_NONE;
		fmpz_t c;
		fmpz_init_set_si(c, at->a[i]);
		Node n = at->ahead >> i & 1 ? store_make_fcount(st, psi)
					    : store_make_count(st, psi);
		Node t = store_make_scale(st, c, n);
		fmpz_clear(c);
		sum = sum == NODE_NONE ? t : store_make_add2(st, sum, t);
	}
	if (sum == NODE_NONE)
		sum = store_make_const_si(st, 0);
	return store_make_cmp(st, at->ge ? REL_GE : REL_LE, sum,
			      store_make_const_si(st, at->c));
}

static Node class_formula(Builder *bd, unsigned k, uint32_t K)
{
	Indist *x = bd->x;
	Level *l = &x->lv[k];
	if (bd->memo[k][K] != NODE_NONE)
		return bd->memo[k][K];
	Store *st = bd->st;
	Node f = NODE_NONE;
	if (k == 0) {
		if (K < x->A) {
			f = store_make_letter(st, bd->letters[K]);
		} else {
			Node *q = xmalloc((x->A + 1) * sizeof *q);
			for (size_t c = 0; c < x->A; c++)
				q[c] = store_make_letter(st, bd->letters[c]);
			f = store_make_not(st, store_make_or(st, q, x->A));
			free(q);
		}
	} else if (!l->broken.data[K]) {
		f = class_formula(bd, k - 1, l->up.data[K]);
		const Cuts *cs = &l->cuts.data[K];
		for (size_t i = 0; i < cs->len && f != NODE_NONE; i++) {
			Node a = atom_formula(bd, k, cs->data[i].atom);
			if (a == NODE_NONE) {
				f = NODE_NONE;
				break;
			}
			f = store_make_and2(st, f, cs->data[i].value ? a
							       : store_make_not(st, a));
		}
	}
	bd->memo[k][K] = f;
	return f;
}

Node indist_separator(Indist *x, Store *st, const Sym *letters, size_t i,
		      size_t j, unsigned d)
{
	if (!x->track || d >= x->nlevels)
		return NODE_NONE;
	uint32_t u = x->end[i], v = x->end[j];
	Level *l = &x->lv[d];
	uint32_t ku = l->cls[u], kv = l->cls[v];
	if (ku == kv)
		return NODE_NONE;
	Builder bd = {x, st, letters, {0}};
	for (unsigned k = 0; k <= d; k++)
		bd.memo[k] = xcalloc(x->lv[k].ncls + 1, sizeof(Node));
	Node out = NODE_NONE;
	if (d == 0) {
		out = class_formula(&bd, 0, ku);
	} else {
		/* the cut of u's class against v's class (siblings) */
		const Cuts *cs = &l->cuts.data[ku];
		for (size_t c = 0; c < cs->len && out == NODE_NONE; c++) {
			uint32_t a = cs->data[c].atom;
			bool other = false;
			const Cuts *vs = &l->cuts.data[kv];
			for (size_t e = 0; e < vs->len && !other; e++)
				other = vs->data[e].atom == a;
			if (!other)
				continue;
			out = atom_formula(&bd, d, a);
			if (out != NODE_NONE && !cs->data[c].value)
				out = store_make_not(st, out);
		}
	}
	for (unsigned k = 0; k <= d; k++)
		free(bd.memo[k]);
	return out;
}
