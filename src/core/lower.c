/* lower.c -- guarded linear pieces (logic.md §4.2) and the core printer.
 *
 * Nodes are lowered bottom-up in increasing id order (children first),
 * never by recursion over the DAG, so long definition chains cannot
 * exhaust the stack.
 */
#include <config.h>
#include "core/lower.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "core/crasp.h"
#include "base/mem.h"
#include "core/names.h"
#include "core/print.h"
#include "base/vec.h"

/* A cartesian product larger than this is refused before it is built. */
#define PRODUCT_LIMIT (LOWER_MAX_PIECES * 64)

/* "Where guard holds, the value is form": form is a linear node over
 * lowered counts. */
typedef struct {
	Node guard, form;
} Piece;

typedef VEC(Piece) Pieces;

struct Lowering {
	Store *s;
	Node *lowered;   /* by input id: core node of a Boolean or a count */
	Pieces **pieces; /* by input id: pieces of an integer node */
	size_t cap;
	size_t work; /* pieces handled by the current lower_node call */
	char *err;
};

Lowering *lower_new(Store *s)
{
	Lowering *lw = xcalloc(1, sizeof *lw);
	lw->s = s;
	return lw;
}

void lower_free(Lowering *lw)
{
	if (!lw)
		return;
	for (size_t i = 0; i < lw->cap; i++)
		if (lw->pieces[i]) {
			VEC_FREE(*lw->pieces[i]);
			free(lw->pieces[i]);
		}
	free(lw->pieces);
	free(lw->lowered);
	free(lw->err);
	free(lw);
}

static void ensure_cap(Lowering *lw, size_t need)
{
	if (need <= lw->cap)
		return;
	size_t old = lw->cap, cap = old;
	mem_grow((void **)&lw->lowered, &cap, need, sizeof *lw->lowered);
	lw->pieces = xrealloc(lw->pieces, cap * sizeof *lw->pieces);
	memset(lw->lowered + old, 0, (cap - old) * sizeof *lw->lowered);
	memset(lw->pieces + old, 0, (cap - old) * sizeof *lw->pieces);
	lw->cap = cap;
}

/* ---- core Boolean helpers ------------------------------------------ */

/* a | b in the core: !(!a & !b) */
/* The disjunction of xs[0..n) (n >= 1) as !(!x1 & ... & !xn), built in
 * one step: folding core_or would copy the growing n-ary conjunction at
 * every step, quadratic in n (4096 pieces: gigabytes).  Overwrites xs. */
static Node core_or_many(Store *s, Node *xs, size_t n)
{
	if (n == 1)
		return xs[0];
	for (size_t i = 0; i < n; i++)
		xs[i] = store_make_not(s, xs[i]);
	return store_make_not(s, store_make_and(s, xs, n));
}

/* Signs present in a linear form: atoms with positive / negative
 * coefficients, and the constant's sign. */
static void signs(const Store *s, Node l, bool *pos, bool *neg, int *csign)
{
	Linear lin;
	store_linear(s, l, &lin);
	*pos = *neg = false;
	for (size_t i = 0; i < lin.n; i++) {
		if (fmpz_sgn(&lin.coefs[i]) > 0)
			*pos = true;
		else
			*neg = true;
	}
	*csign = fmpz_sgn(lin.constant);
	store_linear_free(&lin);
}

/* L < 0 over counts.  Never folded to a constant while it mentions a
 * count, so that no count (and no depth) is lost; 0 < N is written
 * !(N < 1) so that `t = 0` comes out as `t < 1`. */
static Node lt(Store *s, Node l)
{
	if (store_op(s, l) == OP_CONST)
		return store_make_bool(s, fmpz_sgn(store_constant(s, l)) < 0);
	bool pos, neg;
	int c;
	signs(s, l, &pos, &neg, &c);
	if (!pos && c == 0) {
		Node n = store_make_neg(s, l);
		return store_make_not(s, store_make_cmp(s, REL_LT, n,
					store_make_const_si(s, 1)));
	}
	return store_make_cmp(s, REL_LT, l, store_make_const_si(s, 0));
}

/* L < 0 cannot hold: every atom is a count (>= 0) added with a
 * nonnegative coefficient, and the constant is >= 0. */
static bool never_negative(const Store *s, Node l)
{
	bool pos, neg;
	int c;
	signs(s, l, &pos, &neg, &c);
	return !neg && c >= 0;
}

static Node eq_zero(Store *s, Node l)
{
	Node m = store_make_neg(s, l);
	/* drop a conjunct that always holds: its twin has the same counts */
	if (never_negative(s, l))
		return store_make_not(s, lt(s, m));
	if (never_negative(s, m))
		return store_make_not(s, lt(s, l));
	return store_make_and2(s, store_make_not(s, lt(s, l)),
			       store_make_not(s, lt(s, m)));
}

/* L REL 0 with only `<` */
static Node rel_atom(Store *s, Node l, Rel rel)
{
	switch (rel) {
	case REL_LT:
		return lt(s, l);
	case REL_LE:
		return lt(s, store_make_sub(s, l, store_make_const_si(s, 1)));
	case REL_GT:
		return lt(s, store_make_neg(s, l));
	case REL_GE:
		return store_make_not(s, lt(s, l));
	case REL_EQ:
		return eq_zero(s, l);
	case REL_NE:
		return store_make_not(s, eq_zero(s, l));
	}
	return NODE_NONE;
}

/* ---- pieces ----------------------------------------------------------- */

static int cmp_piece(const void *a, const void *b)
{
	const Piece *x = a, *y = b;
	return (x->form > y->form) - (x->form < y->form);
}

static bool fail(Lowering *lw, const char *what)
{
	if (!lw->err) {
		char msg[200];
		snprintf(msg, sizeof msg,
			 "lowering to the core needs more than %d guarded "
			 "pieces for one term (%s); the core formula would be "
			 "too large",
			 LOWER_MAX_PIECES, what);
		lw->err = xstrdup(msg);
	}
	return false;
}

/* Each piece costs a few store nodes and some microseconds: a total
 * bound keeps a 1 KB input from lowering for minutes (LOWER_MAX_WORK). */
static bool charge(Lowering *lw, size_t pieces)
{
	lw->work += pieces;
	if (lw->work <= LOWER_MAX_WORK)
		return true;
	if (!lw->err) {
		char msg[200];
		snprintf(msg, sizeof msg,
			 "lowering to the core needs more than %d guarded "
			 "pieces in total; the core formula would be too large",
			 LOWER_MAX_WORK);
		lw->err = xstrdup(msg);
	}
	return false;
}

/* Drops pieces with a false guard and merges pieces with the same form
 * (their guards are disjoint, so the merged guard is their disjunction). */
static bool normalise(Lowering *lw, Pieces *p, const char *what)
{
	Store *s = lw->s;
	size_t m = 0;
	if (!charge(lw, p->len))
		return false;
	for (size_t i = 0; i < p->len; i++)
		if (store_op(s, p->data[i].guard) != OP_FALSE)
			p->data[m++] = p->data[i];
	p->len = m;
	if (m > 0) /* qsort's base must not be NULL, even for 0 items */
		qsort(p->data, p->len, sizeof *p->data, cmp_piece);
	m = 0;
	VEC(Node) run = {0}; /* the guards of one form */
	for (size_t i = 0, j; i < p->len; i = j) {
		run.len = 0;
		for (j = i; j < p->len && p->data[j].form == p->data[i].form; j++)
			VEC_PUSH(run, p->data[j].guard);
		p->data[m] = p->data[i];
		p->data[m++].guard = core_or_many(s, run.data, run.len);
	}
	VEC_FREE(run);
	p->len = m;
	return p->len <= LOWER_MAX_PIECES || fail(lw, what);
}

static void push(Pieces *p, Node guard, Node form)
{
	Piece x = {guard, form};
	VEC_PUSH(*p, x);
}

/* Pieces of a + b (or of a with b's form scaled). */
static bool sum_pieces(Lowering *lw, const Pieces *a, const Pieces *b,
		       Pieces *out)
{
	Store *s = lw->s;
	if (a->len && b->len > PRODUCT_LIMIT / a->len)
		return fail(lw, "a sum");
	for (size_t i = 0; i < a->len; i++)
		for (size_t j = 0; j < b->len; j++) {
			Node g = store_make_and2(s, a->data[i].guard,
						 b->data[j].guard);
			if (store_op(s, g) != OP_FALSE)
				push(out, g, store_make_add2(s, a->data[i].form,
							     b->data[j].form));
		}
	return normalise(lw, out, "a sum");
}

static bool extremum_pieces(Lowering *lw, bool is_min, const Pieces *a,
			    const Pieces *b, Pieces *out)
{
	Store *s = lw->s;
	if (a->len && b->len > PRODUCT_LIMIT / 2 / a->len)
		return fail(lw, is_min ? "min" : "max");
	for (size_t i = 0; i < a->len; i++)
		for (size_t j = 0; j < b->len; j++) {
			Node fa = a->data[i].form, fb = b->data[j].form;
			Node g = store_make_and2(s, a->data[i].guard,
						 b->data[j].guard);
			Node le = rel_atom(s, store_make_sub(s, fa, fb), REL_LE);
			/* min: fa where fa <= fb, else fb; max the other way */
			push(out, store_make_and2(s, g, le), is_min ? fa : fb);
			push(out, store_make_and2(s, g, store_make_not(s, le)),
			     is_min ? fb : fa);
		}
	return normalise(lw, out, is_min ? "min" : "max");
}

static bool int_pieces(Lowering *lw, Node n, Pieces *out)
{
	Store *s = lw->s;
	Node t = store_make_true(s);
	switch (store_op(s, n)) {
	case OP_CONST:
		push(out, t, n);
		return true;
	case OP_COUNT:
	case OP_FCOUNT:
		push(out, t, lw->lowered[n]);
		return true;
	case OP_MUL: {
		const Pieces *k = lw->pieces[store_kid(s, n, 0)];
		for (size_t i = 0; i < k->len; i++)
			push(out, k->data[i].guard,
			     store_make_scale(s, store_constant(s, n),
					      k->data[i].form));
		return normalise(lw, out, "a multiple");
	}
	case OP_ADD: {
		push(out, t, store_make_const_si(s, 0));
		for (uint32_t i = 0; i < store_nkids(s, n); i++) {
			Pieces next = {0};
			bool ok = sum_pieces(lw, out, lw->pieces[store_kid(s, n, i)],
					     &next);
			VEC_FREE(*out);
			*out = next;
			if (!ok)
				return false;
		}
		return true;
	}
	case OP_ITE: {
		Node c = lw->lowered[store_kid(s, n, 0)];
		Node nc = store_make_not(s, c);
		const Pieces *a = lw->pieces[store_kid(s, n, 1)];
		const Pieces *b = lw->pieces[store_kid(s, n, 2)];
		for (size_t i = 0; i < a->len; i++)
			push(out, store_make_and2(s, c, a->data[i].guard),
			     a->data[i].form);
		for (size_t i = 0; i < b->len; i++)
			push(out, store_make_and2(s, nc, b->data[i].guard),
			     b->data[i].form);
		return normalise(lw, out, "a conditional");
	}
	case OP_MIN:
	case OP_MAX:
		return extremum_pieces(lw, store_op(s, n) == OP_MIN,
				       lw->pieces[store_kid(s, n, 0)],
				       lw->pieces[store_kid(s, n, 1)], out);
	default:
		assert(!"not an integer operation");
		return false;
	}
}

/* A comparison: the disjunction over the pieces of guard & atom. */
static Node lower_cmp(Lowering *lw, Node n)
{
	Store *s = lw->s;
	const Pieces *p = lw->pieces[store_kid(s, n, 0)];
	VEC(Node) alts = {0};
	for (size_t i = 0; i < p->len; i++) {
		Node a = store_make_and2(s, p->data[i].guard,
					 rel_atom(s, p->data[i].form,
						  store_rel(s, n)));
		if (store_op(s, a) != OP_FALSE)
			VEC_PUSH(alts, a);
	}
	Node r = alts.len ? core_or_many(s, alts.data, alts.len)
			  : store_make_false(s);
	VEC_FREE(alts);
	return r;
}

static Node lower_bool(Lowering *lw, Node n)
{
	Store *s = lw->s;
	uint32_t nk = store_nkids(s, n);
	switch (store_op(s, n)) {
	case OP_NOT:
		return store_make_not(s, lw->lowered[store_kid(s, n, 0)]);
	case OP_PREV:
		return store_make_prev(s, lw->lowered[store_kid(s, n, 0)]);
	case OP_AND: {
		Node *k = xmalloc(nk * sizeof *k);
		for (uint32_t i = 0; i < nk; i++)
			k[i] = lw->lowered[store_kid(s, n, i)];
		Node r = store_make_and(s, k, nk);
		free(k);
		return r;
	}
	case OP_OR: {
		Node *k = xmalloc(nk * sizeof *k);
		for (uint32_t i = 0; i < nk; i++)
			k[i] = store_make_not(s, lw->lowered[store_kid(s, n, i)]);
		Node r = store_make_not(s, store_make_and(s, k, nk));
		free(k);
		return r;
	}
	case OP_CMP:
		return lower_cmp(lw, n);
	default: /* letters, true, false, MOD */
		return n;
	}
}

/* Lowers n and everything below it that is not lowered yet, children
 * first; false when a piece list overflows. */
static bool sweep(Lowering *lw, Node n)
{
	Store *s = lw->s;
	unsigned char *todo = xcalloc((size_t)n + 1, 1);
	todo[n] = 1;
	for (Node m = n; m > 0; m--) {
		if (!todo[m] || lw->lowered[m] || lw->pieces[m]) {
			todo[m] = 0;
			continue;
		}
		for (uint32_t i = 0; i < store_nkids(s, m); i++)
			todo[store_kid(s, m, i)] = 1;
	}
	bool ok = true;
	for (Node m = 1; m <= n && ok; m++) {
		if (!todo[m])
			continue;
		Op op = store_op(s, m);
		if (op == OP_COUNT || op == OP_FCOUNT) {
			Node k = lw->lowered[store_kid(s, m, 0)];
			lw->lowered[m] = op == OP_COUNT ? store_make_count(s, k)
							: store_make_fcount(s, k);
		} else if (store_is_bool(s, m)) {
			lw->lowered[m] = lower_bool(lw, m);
			if (store_op(s, m) == OP_CMP) /* one atom per piece */
				ok = charge(lw, lw->pieces[store_kid(s, m, 0)]->len);
			continue;
		}
		Pieces *p = xcalloc(1, sizeof *p);
		ok = int_pieces(lw, m, p);
		if (ok) {
			lw->pieces[m] = p;
		} else {
			VEC_FREE(*p);
			free(p);
		}
	}
	free(todo);
	return ok;
}

Node lower_node(Lowering *lw, Node n, char **err)
{
	ensure_cap(lw, (size_t)n + 1);
	lw->work = 0;
	free(lw->err); /* a message of an earlier call */
	lw->err = NULL;
	if (!lw->lowered[n] && !lw->pieces[n] && !sweep(lw, n)) {
		*err = xstrdup(lw->err);
		return NODE_NONE;
	}
	if (lw->lowered[n])
		return lw->lowered[n];
	*err = xstrdup("only formulas and counts have a core form");
	return NODE_NONE;
}

/* A true formula of depth d: !(#[...] < 0) nested d times. */
static Node true_of_depth(Store *s, uint32_t d)
{
	Node f = store_make_true(s);
	for (uint32_t i = 0; i < d; i++)
		f = store_make_not(s, store_make_cmp(s, REL_LT,
						     store_make_count(s, f),
						     store_make_const_si(s, 0)));
	return f;
}

Node lower_formula(Lowering *lw, Node root, char **err)
{
	Store *s = lw->s;
	Node core = lower_node(lw, root, err);
	if (core == NODE_NONE)
		return NODE_NONE;
	uint32_t want = store_depth(s, root);
	assert(store_depth(s, core) <= want);
	if (store_depth(s, core) < want) {
		Node t = true_of_depth(s, want);
		core = store_op(s, core) == OP_FALSE ? store_make_not(s, t)
						     : store_make_and2(s, core, t);
	}
	assert(store_depth(s, core) == want);
	return core;
}

Sym *lower_unit_names(Lowering *lw, const Unit *u, Node core)
{
	Store *s = lw->s;
	size_t nin = (size_t)u->output + 1;
	unsigned char *reach = xcalloc(nin, 1);
	reach[u->output] = 1;
	for (Node m = u->output; m > 0; m--)
		if (reach[m])
			for (uint32_t i = 0; i < store_nkids(s, m); i++)
				reach[store_kid(s, m, i)] = 1;
	Node *low = xcalloc(u->ndefs + 1, sizeof *low);
	for (size_t i = 0; i < u->ndefs; i++) {
		Node n = u->defs[i].node;
		Op op = store_op(s, n);
		if (n >= nin || !reach[n] || n == u->output ||
		    !(store_is_bool(s, n) || op == OP_COUNT || op == OP_FCOUNT))
			continue;
		char *err = NULL;
		low[i] = lower_node(lw, n, &err);
		free(err);
	}
	size_t nn = store_node_count(s) + 1;
	Sym *names = xmalloc(nn * sizeof *names);
	for (size_t i = 0; i < nn; i++)
		names[i] = SYM_NONE;
	if (u->output_name != SYM_NONE)
		names[core] = u->output_name;
	for (size_t i = 0; i < u->ndefs; i++)
		if (low[i] && names[low[i]] == SYM_NONE)
			names[low[i]] = u->defs[i].name;
	free(low);
	free(reach);
	return names;
}

/* ---- the core printer ------------------------------------------------ */

/* Constants and multiples up to this are written as plain sums. */
#define UNARY_MAX 8

/* The doubling lets of one atom: name[k - 1] holds 2^k * atom.  They are
 * always defined from k = 1 up, so a chain has no gaps. */
typedef struct {
	VEC(Sym) name;
} Chain;

typedef struct {
	Store *s;
	Buf *out;       /* the let lines and the formula */
	Sym *let;       /* by node id: let name, or SYM_NONE */
	Node current;   /* the node whose let body is being printed */
	size_t size;
	VEC(Chain) chains;
	uint32_t *chain_of; /* by node id (0: the constant): chain index + 1 */
	NameSet names;
	unsigned nbool, nint;
} Core;

enum { CTX_TOP, CTX_AND, CTX_PREFIX };


static const char *name_of(const Core *c, Sym sym)
{
	return sym_name(store_syms(c->s), sym);
}

static void emit(Core *c, Buf *b, Node n, int ctx);

/* One item of a sum: an atom (count or name) or, for NODE_NONE, 1. */
static void emit_unit(Core *c, Buf *b, Node atom)
{
	if (atom == NODE_NONE) {
		buf_putc(b, '1');
		c->size++;
	} else {
		emit(c, b, atom, CTX_PREFIX);
	}
}

/* The name of the let holding 2^k * atom (k >= 1), defined on demand.
 * Iterative: a constant of n bits needs n doublings, and n is the user's
 * (30,000 digits made a recursion overflow the stack). */
static Sym power(Core *c, Node atom, unsigned k)
{
	if (c->chain_of[atom] == 0) {
		Chain empty = {{0}};
		VEC_PUSH(c->chains, empty);
		c->chain_of[atom] = (uint32_t)c->chains.len;
	}
	size_t ci = c->chain_of[atom] - 1; /* an index: emit_unit may grow */
	while (c->chains.data[ci].name.len < k) {
		size_t j = c->chains.data[ci].name.len + 1;
		Buf half = {0};
		size_t size = c->size; /* the let line is counted as a whole */
		if (j == 1)
			emit_unit(c, &half, atom);
		else
			buf_puts(&half, name_of(c, c->chains.data[ci].name.data[j - 2]));
		c->size = size;
		Buf base = {0};
		if (atom == NODE_NONE)
			buf_puts(&base, "k");
		else
			buf_printf(&base, "%s_x", name_of(c, c->let[atom]));
		if (j <= 10)
			buf_printf(&base, "%lu", 1ul << j);
		else
			buf_printf(&base, "p%zu", j);
		Sym name = names_fresh(&c->names, base.data);
		buf_printf(c->out, "let %s = %s + %s;\n", name_of(c, name),
			   half.data, half.data);
		c->size += 3; /* half + half */
		VEC_PUSH(c->chains.data[ci].name, name);
		buf_free(&half);
		buf_free(&base);
	}
	return c->chains.data[ci].name.data[k - 1];
}

/* times * atom as a core sum, after `any` earlier items. */
static void emit_multiple(Core *c, Buf *b, Node atom, const fmpz_t times,
			  bool *any)
{
	if (fmpz_cmp_ui(times, UNARY_MAX) <= 0) {
		for (ulong i = fmpz_get_ui(times); i > 0; i--) {
			if (*any) {
				buf_puts(b, " + ");
				c->size++;
			}
			emit_unit(c, b, atom);
			*any = true;
		}
		return;
	}
	for (ulong k = fmpz_bits(times); k-- > 0;) {
		if (!fmpz_tstbit(times, k))
			continue;
		if (*any) {
			buf_puts(b, " + ");
			c->size++;
		}
		if (k == 0) {
			emit_unit(c, b, atom);
		} else {
			/* power() may append let lines: only to c->out */
			Sym name = power(c, atom, (unsigned)k);
			buf_puts(b, name_of(c, name));
			c->size++;
		}
		*any = true;
	}
}

/* One side of P < N: the items of the given sign, plus `extra` ones. */
static void emit_side(Core *c, Buf *b, const Linear *l, int sign, long extra)
{
	bool any = false;
	fmpz_t a;
	fmpz_init(a);
	for (size_t i = 0; i < l->n; i++) {
		if (fmpz_sgn(&l->coefs[i]) != sign)
			continue;
		fmpz_abs(a, &l->coefs[i]);
		emit_multiple(c, b, l->atoms[i], a, &any);
	}
	fmpz_zero(a);
	if (fmpz_sgn(l->constant) == sign)
		fmpz_abs(a, l->constant);
	fmpz_add_ui(a, a, (ulong)extra);
	emit_multiple(c, b, NODE_NONE, a, &any);
	fmpz_clear(a);
}

/* L < 0 as P < N; an empty side gets 1 on both sides (no 0 in the core). */
static void emit_lt(Core *c, Buf *b, Node l)
{
	Linear lin;
	store_linear(c->s, l, &lin);
	bool pos = fmpz_sgn(lin.constant) > 0, neg = fmpz_sgn(lin.constant) < 0;
	for (size_t i = 0; i < lin.n; i++) {
		if (fmpz_sgn(&lin.coefs[i]) > 0)
			pos = true;
		else
			neg = true;
	}
	long extra = pos && neg ? 0 : 1;
	emit_side(c, b, &lin, 1, extra);
	buf_puts(b, " < ");
	c->size++;
	emit_side(c, b, &lin, -1, extra);
	store_linear_free(&lin);
}

static void emit(Core *c, Buf *b, Node n, int ctx)
{
	Store *s = c->s;
	if (c->let[n] != SYM_NONE && n != c->current) {
		buf_puts(b, name_of(c, c->let[n]));
		c->size++;
		return;
	}
	Op op = store_op(s, n);
	bool paren = (op == OP_CMP || op == OP_FALSE) ? ctx == CTX_PREFIX
		     : op == OP_AND			 ? ctx != CTX_TOP
							 : false;
	if (paren)
		buf_putc(b, '(');
	switch (op) {
	case OP_LETTER:
		tl_print_letter(b, s, store_letter_sym(s, n), SYNTAX_TL);
		c->size++;
		break;
	case OP_TRUE:
		buf_puts(b, "!(1 < 1)");
		c->size += 4;
		break;
	case OP_FALSE:
		buf_puts(b, "1 < 1");
		c->size += 3;
		break;
	case OP_MOD:
		buf_printf(b, "MOD(%u, %u)", store_aux(s, n), store_aux2(s, n));
		c->size++;
		break;
	case OP_NOT:
	case OP_PREV:
		buf_puts(b, op == OP_NOT ? "!" : "Y ");
		c->size++;
		emit(c, b, store_kid(s, n, 0), CTX_PREFIX);
		break;
	case OP_AND:
		for (uint32_t i = 0; i < store_nkids(s, n); i++) {
			if (i) {
				buf_puts(b, " & ");
				c->size++;
			}
			emit(c, b, store_kid(s, n, i), CTX_AND);
		}
		break;
	case OP_CMP:
		assert(store_rel(s, n) == REL_LT);
		emit_lt(c, b, store_kid(s, n, 0));
		break;
	case OP_COUNT:
	case OP_FCOUNT:
		buf_puts(b, op == OP_COUNT ? "#[" : "#>[");
		c->size++;
		emit(c, b, store_kid(s, n, 0), CTX_TOP);
		buf_putc(b, ']');
		break;
	default:
		assert(!"not a core node");
		break;
	}
	if (paren)
		buf_putc(b, ')');
}

/* Generated let names: C_a for #[Q_a], C_NAME for #[NAME], else C1, P1. */
static Sym let_name(Core *c, Node n)
{
	Store *s = c->s;
	Buf b = {0};
	Op op = store_op(s, n);
	if (op == OP_COUNT || op == OP_FCOUNT) {
		Node k = store_kid(s, n, 0);
		const char *prefix = op == OP_COUNT ? "C" : "F";
		if (store_op(s, k) == OP_LETTER) {
			buf_printf(&b, "%s_", prefix);
			crasp_letter_stem(&b, sym_name(store_syms(s),
						       store_letter_sym(s, k)));
		} else if (c->let[k] != SYM_NONE) {
			buf_printf(&b, "%s_%s", prefix, name_of(c, c->let[k]));
		} else {
			buf_printf(&b, "%s%u", prefix, ++c->nint);
		}
	} else {
		buf_printf(&b, "P%u", ++c->nbool);
	}
	Sym sym = names_fresh(&c->names, b.data);
	buf_free(&b);
	return sym;
}

char *lower_print(Store *s, Node core, const Sym *names, size_t *size)
{
	size_t nn = (size_t)core + 1;
	unsigned char *refs = xcalloc(nn, 1); /* 0, 1, 2 = "twice or more" */
	refs[core] = 1;
	for (Node n = core; n > 0; n--) {
		if (!refs[n])
			continue;
		if (store_op(s, n) == OP_CMP) {
			Linear l;
			store_linear(s, store_kid(s, n, 0), &l);
			for (size_t i = 0; i < l.n; i++) {
				Node a = l.atoms[i];
				bool many = refs[a] || !fmpz_is_pm1(&l.coefs[i]);
				refs[a] = many ? 2 : 1;
			}
			store_linear_free(&l);
			continue;
		}
		for (uint32_t i = 0; i < store_nkids(s, n); i++) {
			Node k = store_kid(s, n, i);
			refs[k] = refs[k] ? 2 : 1;
		}
	}
	Core c = {.s = s, .current = NODE_NONE};
	names_init(&c.names, store_syms(s));
	Buf out = {0};
	c.out = &out;
	c.let = xmalloc(nn * sizeof *c.let);
	c.chain_of = xcalloc(nn, sizeof *c.chain_of);
	for (size_t i = 0; i < nn; i++)
		c.let[i] = SYM_NONE;
	if (names)
		for (Node n = 1; n <= core; n++)
			if (refs[n] && names[n] != SYM_NONE)
				names_take(&c.names, names[n]);
	for (Node n = 1; n <= core; n++) {
		Op op = store_op(s, n);
		bool named = names && names[n] != SYM_NONE;
		if (!refs[n] || op == OP_LETTER || op == OP_TRUE ||
		    op == OP_FALSE || op == OP_MOD || op == OP_ADD ||
		    op == OP_MUL || op == OP_CONST)
			continue;
		if (named)
			c.let[n] = names[n];
		else if (refs[n] > 1 && n != core)
			c.let[n] = let_name(&c, n);
		if (c.let[n] == SYM_NONE)
			continue;
		Buf body = {0};
		c.current = n;
		emit(&c, &body, n, CTX_TOP);
		buf_printf(&out, "let %s = %s;\n", name_of(&c, c.let[n]),
			   body.data);
		buf_free(&body);
	}
	c.current = NODE_NONE;
	Buf body = {0}; /* after any doubling lets it needs */
	emit(&c, &body, core, CTX_TOP);
	buf_printf(&out, "%s\n", body.data);
	buf_free(&body);
	*size = c.size;
	free(c.let);
	free(refs);
	for (size_t i = 0; i < c.chains.len; i++)
		VEC_FREE(c.chains.data[i].name);
	VEC_FREE(c.chains);
	free(c.chain_of);
	names_free(&c.names);
	return buf_take(&out);
}
