/* ast_print.c -- a tree as TL text, a .crasp program or a .cr program
 * (see ast.h).  Everything is parenthesised, so that no precedence rule
 * (and none of the .cr interpreter's unusual groupings) matters; some
 * counts, bodies and comparisons get definitions of their own (TL:
 * let), so that names, sharing and the program readers are exercised. */
#include <config.h>
#include "ast.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

typedef enum { SYN_TL, SYN_CRASP, SYN_CR } Syn;

typedef struct {
	Syn syn;
	Rng *r;          /* NULL: nothing gets a name */
	Buf defs;        /* definitions so far (lines, or let ...; for TL) */
	unsigned names;  /* definitions made */
	unsigned imports; /* .cr: bit 0 pred; MOD imports are in mods */
	Buf mods;        /* .cr: #import pos_mod_M_R lines */
} Printer;

static const char *const tl_rel[AST_NRELS] = {"<", "<=", "=", "!=", ">=",
					       ">"};
static const char *const cr_rel[AST_NRELS] = {"<", "<=", "==", "!=", ">=",
					       ">"};

static void expr(Printer *p, Buf *b, const Tree *e);

static void letter(Printer *p, Buf *b, int x)
{
	if (p->syn == SYN_CR)
		buf_printf(b, "\"%c\"", 'a' + x);
	else
		buf_printf(b, "Q_%c", 'a' + x);
}

static void number(Printer *p, Buf *b, const fmpz_t v)
{
	char *s = fmpz_get_str(NULL, 10, v);
	if (fmpz_sgn(v) < 0)
		buf_printf(b, p->syn == SYN_CR ? "(0 - %s)" : "(%s)",
			   p->syn == SYN_CR ? s + 1 : s);
	else
		buf_puts(b, s);
	flint_free(s);
}

/* "(" a " op " b ")" */
static void infix(Printer *p, Buf *b, const Tree *x, const char *op,
		  const Tree *y)
{
	buf_puts(b, "((");
	expr(p, b, x);
	buf_printf(b, ") %s (", op);
	expr(p, b, y);
	buf_puts(b, "))");
}

static void not(Printer *p, Buf *b, const Tree *x)
{
	buf_puts(b, "(!(");
	expr(p, b, x);
	buf_puts(b, "))");
}

/* Defines name := text (in the syntax's way) and writes the name. */
static void define(Printer *p, Buf *b, char kind, const char *text)
{
	char name[32];
	snprintf(name, sizeof name, "%c%u", p->syn == SYN_CR ? kind - 'A' + 'a'
							   : kind,
		 ++p->names);
	switch (p->syn) {
	case SYN_TL: buf_printf(&p->defs, "let %s = %s; ", name, text); break;
	case SYN_CRASP: buf_printf(&p->defs, "%s := %s\n", name, text); break;
	case SYN_CR: buf_printf(&p->defs, "%s = %s\n", name, text); break;
	}
	buf_puts(b, name);
}

/* Writes e, or a new name defined as e when r says so. */
static void named(Printer *p, Buf *b, const Tree *e, char kind,
		  uint32_t percent)
{
	if (!p->r || rng_below(p->r, 100) >= percent) {
		expr(p, b, e);
		return;
	}
	Buf t = {0};
	buf_puts(&t, "");
	expr(p, &t, e);
	define(p, b, kind, t.data);
	buf_free(&t);
}

static void count(Printer *p, Buf *b, const Tree *e)
{
	bool fut = e->kind == E_FCOUNT;
	Buf body = {0};
	buf_puts(&body, "");
	named(p, &body, e->k[0], 'B', e->k[0]->kind == E_LETTER ? 0 : 40);
	Buf t = {0};
	if (p->syn == SYN_CR)
		buf_printf(&t, "(#(%s))", body.data);
	else
		buf_printf(&t, "%s[%s]", fut ? "#>" : "#", body.data);
	if (p->r && rng_below(p->r, 100) < 40)
		define(p, b, 'C', t.data);
	else
		buf_puts(b, t.data);
	buf_free(&t);
	buf_free(&body);
}

/* The .cr spelling of MOD(m, r): pos_mod_M_R means 0-based position i - 1
 * = R (mod M), that is MOD(M, R + 1). */
static void cr_mod(Printer *p, Buf *b, const Tree *e)
{
	unsigned R = (e->r % e->m + e->m - 1) % e->m;
	char line[64];
	snprintf(line, sizeof line, "#import pos_mod_%u_%u\n", e->m, R);
	if (!strstr(p->mods.data ? p->mods.data : "", line))
		buf_puts(&p->mods, line);
	buf_printf(b, "pos_mod_%u_%u", e->m, R);
}

static void vanishing(Printer *p, Buf *b, const Tree *e)
{
	Buf l = {0};
	letter(p, &l, e->letter);
	if (e->kind == E_ZERO && p->syn == SYN_CR)
		buf_printf(b, "((#(%s)) - (#(%s)))", l.data, l.data);
	else if (e->kind == E_ZERO)
		buf_printf(b, "(#[%s] - #[%s])", l.data, l.data);
	else
		buf_printf(b, "((%s) %s (!(%s)))", l.data,
			   e->kind == E_TAUT ? (p->syn == SYN_CR ? "||" : "|")
					     : (p->syn == SYN_CR ? "&&" : "&"),
			   l.data);
	buf_free(&l);
}

static void boolean(Printer *p, Buf *b, const Tree *e)
{
	bool cr = p->syn == SYN_CR;
	switch (e->kind) {
	case E_TRUE: buf_puts(b, "true"); return;
	case E_FALSE: buf_puts(b, "false"); return;
	case E_NOT: not(p, b, e->k[0]); return;
	case E_AND: infix(p, b, e->k[0], cr ? "&&" : "&", e->k[1]); return;
	case E_OR: infix(p, b, e->k[0], cr ? "||" : "|", e->k[1]); return;
	case E_IMPLIES:
		if (!cr) {
			infix(p, b, e->k[0], "->", e->k[1]);
			return;
		}
		buf_puts(b, "((");
		not(p, b, e->k[0]);
		buf_puts(b, ") || (");
		expr(p, b, e->k[1]);
		buf_puts(b, "))");
		return;
	case E_IFF:
		if (!cr) {
			infix(p, b, e->k[0], "<->", e->k[1]);
			return;
		}
		buf_puts(b, "((");
		infix(p, b, e->k[0], "&&", e->k[1]);
		buf_puts(b, ") || ((");
		not(p, b, e->k[0]);
		buf_puts(b, ") && (");
		not(p, b, e->k[1]);
		buf_puts(b, ")))");
		return;
	case E_PREV:
		if (cr) {
			p->imports |= 1;
			buf_puts(b, "((#[pred] (");
			expr(p, b, e->k[0]);
			buf_puts(b, ")) == 1)");
		} else {
			buf_puts(b, "(Y (");
			expr(p, b, e->k[0]);
			buf_puts(b, "))");
		}
		return;
	case E_MOD:
		if (cr)
			cr_mod(p, b, e);
		else
			buf_printf(b, "MOD(%u, %u)", e->m, e->r);
		return;
	default:
		abort();
	}
}

static void scale(Printer *p, Buf *b, const Tree *e)
{
	fmpz_t k;
	fmpz_init_set(k, e->num);
	bool minus = fmpz_sgn(k) < 0;
	if (p->syn == SYN_CR && minus)
		fmpz_neg(k, k);
	char *s = fmpz_get_str(NULL, 10, k);
	buf_printf(b, "%s(%s%s(", p->syn == SYN_CR && minus ? "(0 - " : "",
		   s, p->syn == SYN_CR ? " * " : "*");
	expr(p, b, e->k[0]);
	buf_puts(b, p->syn == SYN_CR && minus ? ")))" : "))");
	flint_free(s);
	fmpz_clear(k);
}

static void integer(Printer *p, Buf *b, const Tree *e)
{
	bool cr = p->syn == SYN_CR;
	switch (e->kind) {
	case E_CONST: number(p, b, e->num); return;
	case E_COUNT: case E_FCOUNT: count(p, b, e); return;
	case E_ADD: infix(p, b, e->k[0], "+", e->k[1]); return;
	case E_SUB: infix(p, b, e->k[0], "-", e->k[1]); return;
	case E_SCALE: scale(p, b, e); return;
	case E_ITE:
		buf_puts(b, "((");
		expr(p, b, cr ? e->k[1] : e->k[0]);
		buf_puts(b, cr ? ") if (" : ") ? (");
		expr(p, b, cr ? e->k[0] : e->k[1]);
		buf_puts(b, cr ? ") else (" : ") : (");
		expr(p, b, e->k[2]);
		buf_puts(b, "))");
		return;
	case E_MIN: case E_MAX:
		buf_printf(b, "%s((", e->kind == E_MIN ? "min" : "max");
		expr(p, b, e->k[0]);
		buf_puts(b, "), (");
		expr(p, b, e->k[1]);
		buf_puts(b, "))");
		return;
	default:
		abort();
	}
}

static void expr(Printer *p, Buf *b, const Tree *e)
{
	switch (e->kind) {
	case E_LETTER: letter(p, b, e->letter); return;
	case E_TAUT: case E_CONTRA: case E_ZERO: vanishing(p, b, e); return;
	case E_CMP:
		buf_puts(b, "((");
		expr(p, b, e->k[0]);
		buf_printf(b, ") %s (", (p->syn == SYN_CR ? cr_rel : tl_rel)[e->rel]);
		expr(p, b, e->k[1]);
		buf_puts(b, "))");
		return;
	default:
		if (e->kind >= E_CONST)
			integer(p, b, e);
		else
			boolean(p, b, e);
	}
}

static char *print(const Tree *e, Rng *r, Syn syn)
{
	Printer p = {.syn = syn, .r = r};
	buf_puts(&p.defs, "");
	buf_puts(&p.mods, "");
	Buf out = {0};
	buf_puts(&out, "");
	/* The output itself is a comparison or a formula: maybe named. */
	named(&p, &out, e, 'P', syn == SYN_TL ? 20 : 0);
	Buf all = {0};
	buf_puts(&all, "");
	if (p.imports & 1)
		buf_puts(&all, "#import pred\n");
	buf_puts(&all, p.mods.data);
	buf_puts(&all, p.defs.data);
	switch (syn) {
	case SYN_TL: buf_puts(&all, out.data); break;
	case SYN_CRASP: buf_printf(&all, "out := %s\n", out.data); break;
	case SYN_CR: buf_printf(&all, "out = %s\n", out.data); break;
	}
	buf_free(&out);
	buf_free(&p.defs);
	buf_free(&p.mods);
	return buf_take(&all);
}

char *ast_print_tl(const Tree *e, Rng *r)
{
	return print(e, r, SYN_TL);
}

char *ast_print_crasp(const Tree *e, Rng *r)
{
	return print(e, r, SYN_CRASP);
}

char *ast_print_cr(const Tree *e, Rng *r)
{
	return print(e, r, SYN_CR);
}
