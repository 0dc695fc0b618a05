/* cr_print.c -- programs as .cr text both tools read alike, and the layer
 * count under the local-attention reading of Y.
 *
 * Every operation is parenthesised, so the interpreter's precedence and
 * tally's give the same tree (cr_syntax.h); the interpreter has no unary
 * minus, so differences are written (P - N) with both sides sums of
 * magnitudes.  Y is the interpreter's guarded count #[pred], MOD(2, 1)
 * its pos_even (positions are 0-based there).
 */
#include <config.h>
#include "core/cr.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

typedef struct {
	Buf *out;
	Store *s;
	const CraspProgram *p;
	char *err;
	Buf note;
} Printer;

static void body(Printer *pr, Node n);

static void set_error(Printer *pr, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Keeps the first reason the program cannot be written. */
static void set_error(Printer *pr, const char *fmt, ...)
{
	if (pr->err)
		return;
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	pr->err = xstrdup(msg);
}

static void put_fmpz(Buf *out, const fmpz_t c)
{
	char *digits = fmpz_get_str(NULL, 10, c);
	buf_puts(out, digits);
	flint_free(digits);
}

/* Names the interpreter reads as names: [A-Za-z_][A-Za-z_0-9]*, not one
 * of its keywords. */
static bool cr_name_ok(const char *s)
{
	static const char *const keywords[] = {"true", "false", "if", "else",
					       "min", "max"};
	if (!(isalpha((unsigned char)*s) || *s == '_') || !isascii(*s))
		return false;
	for (const char *q = s; *q; q++)
		if (!isascii(*q) || !(isalnum((unsigned char)*q) || *q == '_'))
			return false;
	for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
		if (strcmp(s, keywords[i]) == 0)
			return false;
	return true;
}

static void put_name(Printer *pr, Node n)
{
	const char *name = sym_name(store_syms(pr->s), pr->p->name_of[n]);
	if (cr_name_ok(name))
		buf_puts(pr->out, name);
	else
		buf_printf(pr->out, "v%u", n); /* ids are unique */
}

/* A definition's name, or the node written out. */
static void ref(Printer *pr, Node n)
{
	/* a predicate is its own name: no definition of it */
	if (pr->p->name_of[n] != SYM_NONE && store_op(pr->s, n) != OP_MOD)
		put_name(pr, n);
	else
		body(pr, n);
}

/* The terms of one sign, as a left-nested sum of magnitudes; 0 if none. */
static void side(Printer *pr, const Linear *l, int sign)
{
	Buf *o = pr->out;
	size_t terms = fmpz_sgn(l->constant) == sign;
	for (size_t i = 0; i < l->n; i++)
		terms += fmpz_sgn(&l->coefs[i]) == sign;
	if (terms == 0) {
		buf_putc(o, '0');
		return;
	}
	for (size_t i = 1; i < terms; i++)
		buf_putc(o, '(');
	size_t done = 0;
	fmpz_t a;
	fmpz_init(a);
	for (size_t i = 0; i < l->n; i++) {
		if (fmpz_sgn(&l->coefs[i]) != sign)
			continue;
		buf_puts(o, done ? " + " : "");
		fmpz_abs(a, &l->coefs[i]);
		if (!fmpz_is_one(a)) {
			buf_putc(o, '(');
			put_fmpz(o, a);
			buf_puts(o, " * ");
		}
		ref(pr, l->atoms[i]);
		if (!fmpz_is_one(a))
			buf_putc(o, ')');
		if (done++)
			buf_putc(o, ')');
	}
	if (fmpz_sgn(l->constant) == sign) {
		buf_puts(o, done ? " + " : "");
		fmpz_abs(a, l->constant);
		put_fmpz(o, a);
		if (done)
			buf_putc(o, ')');
	}
	fmpz_clear(a);
}

/* A linear term: (P - N), or P alone when nothing is subtracted. */
static void linear(Printer *pr, Node t)
{
	Linear l;
	store_linear(pr->s, t, &l);
	bool neg = fmpz_sgn(l.constant) < 0;
	for (size_t i = 0; i < l.n; i++)
		neg |= fmpz_sgn(&l.coefs[i]) < 0;
	if (neg)
		buf_putc(pr->out, '(');
	side(pr, &l, 1);
	if (neg) {
		buf_puts(pr->out, " - ");
		side(pr, &l, -1);
		buf_putc(pr->out, ')');
	}
	store_linear_free(&l);
}

static void cmp(Printer *pr, Node n)
{
	static const char *const rel[] = {"<", "<=", "==", "!=", ">=", ">"};
	Linear l;
	store_linear(pr->s, store_kid(pr->s, n, 0), &l);
	buf_putc(pr->out, '(');
	side(pr, &l, 1);
	buf_printf(pr->out, " %s ", rel[store_rel(pr->s, n)]);
	side(pr, &l, -1);
	buf_putc(pr->out, ')');
	store_linear_free(&l);
}

/* Operands joined left-nested: ((a && b) && c). */
static void chain(Printer *pr, Node n, const char *op)
{
	uint32_t k = store_nkids(pr->s, n);
	for (uint32_t i = 1; i < k; i++)
		buf_putc(pr->out, '(');
	for (uint32_t i = 0; i < k; i++) {
		if (i)
			buf_printf(pr->out, " %s ", op);
		ref(pr, store_kid(pr->s, n, i));
		if (i)
			buf_putc(pr->out, ')');
	}
}

static void letter(Printer *pr, Node n)
{
	const char *l = sym_name(store_syms(pr->s), store_letter_sym(pr->s, n));
	if (strchr(l, '"') || strpbrk(l, " \t\n\r\v\f")) {
		set_error(pr, "the letter '%s' cannot be written in a .cr "
			      "file (a token has no '\"' and no whitespace)", l);
		return;
	}
	buf_printf(pr->out, "\"%s\"", l);
}

/* MOD(m, r) (1-based) is the 0-based i mod m == r - 1. */
static void mod(Printer *pr, Node n)
{
	uint32_t m = store_aux(pr->s, n), r = store_aux2(pr->s, n);
	uint32_t r0 = (r + m - 1) % m;
	if (m == 2) {
		buf_puts(pr->out, r0 == 0 ? "pos_even" : "(!pos_even)");
		return;
	}
	buf_printf(pr->out, "pos_mod_%u_%u", m, r0);
}

static void body(Printer *pr, Node n)
{
	Store *s = pr->s;
	Buf *o = pr->out;
	switch (store_op(s, n)) {
	case OP_TRUE: buf_puts(o, "true"); return;
	case OP_FALSE: buf_puts(o, "false"); return;
	case OP_LETTER: letter(pr, n); return;
	case OP_NOT:
		buf_puts(o, "(!");
		ref(pr, store_kid(s, n, 0));
		buf_putc(o, ')');
		return;
	case OP_AND: chain(pr, n, "&&"); return;
	case OP_OR: chain(pr, n, "||"); return;
	case OP_CMP: cmp(pr, n); return;
	case OP_PREV:
		buf_puts(o, "((#[pred] ");
		ref(pr, store_kid(s, n, 0));
		buf_puts(o, ") > 0)");
		return;
	case OP_MOD: mod(pr, n); return;
	case OP_COUNT:
		buf_puts(o, "(#");
		ref(pr, store_kid(s, n, 0));
		buf_putc(o, ')');
		return;
	case OP_FCOUNT:
		set_error(pr, "future counts #>[...] cannot be written in a "
			      ".cr file");
		return;
	case OP_ITE:
		buf_putc(o, '(');
		ref(pr, store_kid(s, n, 1));
		buf_puts(o, " if ");
		ref(pr, store_kid(s, n, 0));
		buf_puts(o, " else ");
		ref(pr, store_kid(s, n, 2));
		buf_putc(o, ')');
		return;
	case OP_MIN:
	case OP_MAX:
		buf_puts(o, store_op(s, n) == OP_MIN ? "min(" : "max(");
		ref(pr, store_kid(s, n, 0));
		buf_puts(o, ", ");
		ref(pr, store_kid(s, n, 1));
		buf_putc(o, ')');
		return;
	default: linear(pr, n); return;
	}
}

/* The #import lines the program needs. */
static void imports(Printer *pr)
{
	Store *s = pr->s;
	unsigned char *seen = store_reachable(s, &pr->p->root, 1);
	bool pred = false, even = false;
	for (Node n = 1; n <= pr->p->root; n++) {
		if (!seen[n])
			continue;
		if (store_op(s, n) == OP_PREV)
			pred = true;
		if (store_op(s, n) != OP_MOD)
			continue;
		uint32_t m = store_aux(s, n), r = store_aux2(s, n);
		if (m == 2) {
			even = true;
			continue;
		}
		uint32_t r0 = (r + m - 1) % m;
		buf_printf(pr->out, "#import pos_mod_%u_%u\n", m, r0);
		buf_printf(&pr->note,
			   "the Python interpreter needs pos_mod_%u_%u in its "
			   "predefined.py: def pos_mod_%u_%u(i): return i %% "
			   "%u == %u\n", m, r0, m, r0, m, r0);
	}
	if (pred)
		buf_puts(pr->out, "#import pred\n");
	if (even)
		buf_puts(pr->out, "#import pos_even\n");
	free(seen);
}

bool cr_print(Buf *out, Store *s, const CraspProgram *p, char **err,
	      char **note)
{
	Printer pr = {.out = out, .s = s, .p = p};
	imports(&pr);
	for (size_t i = 0; i < p->ndefs && !pr.err; i++) {
		Node n = p->defs[i].node;
		if (store_op(s, n) == OP_MOD && n != p->root)
			continue;
		put_name(&pr, n);
		buf_puts(out, " = ");
		body(&pr, n);
		buf_putc(out, '\n');
	}
	*err = pr.err;
	*note = pr.note.len ? buf_take(&pr.note) : NULL;
	buf_free(&pr.note);
	return pr.err == NULL;
}

unsigned cr_local_layers(const Store *s, Node root)
{
	unsigned *layers = xcalloc((size_t)root + 1, sizeof *layers);
	for (Node n = 1; n <= root; n++) {
		unsigned most = 0;
		for (uint32_t i = 0; i < store_nkids(s, n); i++) {
			unsigned k = layers[store_kid(s, n, i)];
			most = k > most ? k : most;
		}
		Op op = store_op(s, n);
		/* Y…Y (predK) is one guarded count: a chain adds one layer */
		bool chained = op == OP_PREV &&
			       store_op(s, store_kid(s, n, 0)) == OP_PREV;
		layers[n] = most + ((op == OP_COUNT || op == OP_FCOUNT ||
				     (op == OP_PREV && !chained)) ? 1 : 0);
	}
	unsigned r = layers[root];
	free(layers);
	return r;
}
