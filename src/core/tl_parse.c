/* tl_parse.c -- the shared expression parser and the TL[#] file parser.
 *
 * Each parse function quotes its production from logic/tl.ebnf.
 */
#include <config.h>
#include "core/parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/suggest.h"

/* Operands of n-ary chains are collected on this one stack rather than in
 * per-call arrays, so that a longjmp out of the parser leaks nothing.  Each
 * chain pops what it pushed; a failed parse empties it.  (The prelude may
 * be parsed in the middle of another parse, so it is never freed.) */
static struct {
	Node *data;
	size_t len, cap;
} operands;

static void push_operand(Node n)
{
	mem_grow((void **)&operands.data, &operands.cap, operands.len + 1,
		 sizeof(Node));
	operands.data[operands.len++] = n;
}

static void drop_operands(void)
{
	operands.len = 0;
}

typedef struct {
	TokKind kind;
	int prec;
	bool right;
} Infix;

static const Infix infix[] = {
#define INFIX(tk, prec, right) {tk, prec, right},
#include "ops.def"
#undef INFIX
};

/* Binding precedence of a token as an infix operator; 0 if it is not. */
static int infix_prec(TokKind k)
{
	for (size_t i = 0; i < sizeof infix / sizeof infix[0]; i++)
		if (infix[i].kind == k)
			return infix[i].prec;
	return 0;
}

enum {
	PREC_TERNARY = 0,
	PREC_IFF = 1,
	PREC_IMPLIES = 2,
	PREC_OR = 3,
	PREC_AND = 4,
	PREC_NOT = 5, /* operand of ! and Y: a comparison or tighter */
	PREC_CMP = 6,
	PREC_SUM = 7,
	PREC_PRODUCT = 8,
	PREC_ATOM = 9,
};

static bool is_relation(TokKind k)
{
	return k >= TK_LT && k <= TK_GT;
}

void parser_init(Parser *p, Flavor f, Scope *sc, Diag *d, const Source *src,
		 Unit *u)
{
	memset(p, 0, sizeof *p);
	p->flavor = f;
	p->scope = sc;
	p->store = scope_store(sc);
	p->unit = u;
	p->defining = SYM_NONE;
	d->unclosed = false;
	u->src = src;
	u->output = NODE_NONE;
	u->output_name = SYM_NONE;
	lex_init(&p->lx, src, d, store_syms(p->store), &p->fail);
	p->lx.newlines = f != FLAVOR_TL;
}

void parser_advance(Parser *p)
{
	p->tok = lex_next(&p->lx);
}

_Noreturn void parser_fail(Parser *p, size_t at, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	p->lx.diag->unclosed = p->nesting > 0;
	lex_fail(&p->lx, at, p->tok.kind == TK_EOF && at == p->tok.start, "%s",
		 msg);
}

void parser_expect(Parser *p, TokKind k, const char *context)
{
	if (p->tok.kind == k) {
		parser_advance(p);
		return;
	}
	parser_fail(p, p->tok.start, "expected '%s'%s%s, found %s",
		    lex_kind_name(k), context ? " " : "", context ? context : "",
		    lex_describe(&p->lx, &p->tok));
}

/* Expects the closing token of a bracket opened at `open`. */
static void expect_close(Parser *p, TokKind close, const char *opener,
			 size_t open)
{
	if (p->tok.kind == close) {
		parser_advance(p);
		return;
	}
	int line, col;
	diag_position(p->lx.src, open, &line, &col);
	parser_fail(p, p->tok.start, "expected '%s' to close '%s' at %d:%d, found %s",
		    lex_kind_name(close), opener, line, col,
		    lex_describe(&p->lx, &p->tok));
}

Expr parser_need(Parser *p, Expr e, Sort want)
{
	if (store_sort(p->store, e.node) == want)
		return e;
	/* Each language's own words: formulas and terms, or Booleans and
	 * counts. */
	bool crasp = p->flavor != FLAVOR_TL;
	if (want == SORT_BOOL)
		parser_fail(p, e.at, crasp
			    ? "a count is used as a Boolean (compare it, e.g. "
			      "'C > 0')"
			    : "expected a formula, found an integer term "
			      "(compare it, e.g. '... >= 1')");
	parser_fail(p, e.at, crasp
		    ? "a Boolean is used as a count (count it with #P)"
		    : "expected an integer term, found a formula "
		      "(count it with #[...])");
}

static void enter(Parser *p, size_t at)
{
	if (++p->nesting > PARSE_MAX_NESTING)
		parser_fail(p, at, "nesting too deep (more than %d levels)",
			    PARSE_MAX_NESTING);
}

static void leave(Parser *p)
{
	p->nesting--;
}

/* Reads the digits of the current NUMBER token into v. */
static void number_value(Parser *p, fmpz_t v)
{
	const Token *t = &p->tok;
	char *digits = xstrndup(p->lx.src->text + t->start, t->end - t->start);
	fmpz_set_str(v, digits, 10); /* the lexer guarantees [0-9]+ */
	free(digits);
}

/* MOD arguments must be machine-sized: positions are counted in 64 bits. */
static uint32_t small_number(Parser *p, bool allow_negative, long *sign)
{
	*sign = 1;
	if (allow_negative && p->tok.kind == TK_MINUS) {
		*sign = -1;
		parser_advance(p);
	}
	if (p->tok.kind != TK_NUMBER)
		parser_fail(p, p->tok.start, "expected a number, found %s",
			    lex_describe(&p->lx, &p->tok));
	fmpz_t v;
	fmpz_init(v);
	number_value(p, v);
	bool fits = fmpz_cmp_ui(v, UINT32_MAX) <= 0;
	uint32_t r = fits ? (uint32_t)fmpz_get_ui(v) : 0;
	fmpz_clear(v);
	if (!fits)
		parser_fail(p, p->tok.start,
			    "number too large here (at most %u)", UINT32_MAX);
	parser_advance(p);
	return r;
}

/* "MOD" "(" NUMBER "," ["-"] NUMBER ")" */
static Expr parse_mod(Parser *p, Expr e)
{
	parser_advance(p);
	size_t open = p->tok.start;
	parser_expect(p, TK_LPAREN, "after MOD");
	long sign;
	size_t mat = p->tok.start;
	uint32_t m = small_number(p, false, &sign);
	if (m == 0)
		parser_fail(p, mat, "MOD needs a modulus of at least 1");
	parser_expect(p, TK_COMMA, "between the arguments of MOD");
	uint32_t r = small_number(p, true, &sign);
	expect_close(p, TK_RPAREN, "(", open);
	uint32_t res = r % m;
	if (sign < 0 && res)
		res = m - res;
	e.node = store_make_mod(p->store, m, res);
	return e;
}

/* ("min" | "max") "(" term "," term ")" */
static Expr parse_extremum(Parser *p, Expr e)
{
	bool is_min = p->tok.kind == TK_MIN;
	parser_advance(p);
	size_t open = p->tok.start;
	parser_expect(p, TK_LPAREN, is_min ? "after min" : "after max");
	Node a = parser_need(p, parse_expr(p, PREC_TERNARY), SORT_INT).node;
	parser_expect(p, TK_COMMA, "between the arguments");
	Node b = parser_need(p, parse_expr(p, PREC_TERNARY), SORT_INT).node;
	expect_close(p, TK_RPAREN, "(", open);
	e.node = is_min ? store_make_min(p->store, a, b)
			: store_make_max(p->store, a, b);
	return e;
}

/* Paper-form C-RASP writes P(i), Q_a(j): skip an argument of i or j. */
static void skip_position_argument(Parser *p)
{
	if (p->flavor != FLAVOR_CRASP || p->tok.kind != TK_LPAREN ||
	    p->tok.space_before)
		return;
	size_t save = p->lx.pos;
	Token t = lex_next(&p->lx), close = lex_next(&p->lx);
	const char *name = t.kind == TK_IDENT ? sym_name(p->lx.syms, t.sym) : "";
	if ((strcmp(name, "i") == 0 || strcmp(name, "j") == 0) &&
	    close.kind == TK_RPAREN) {
		parser_advance(p);
		return;
	}
	p->lx.pos = save;
}

/* Paper-form count binder "[" "j" ("<=" | "≤") "i" "]" after '#'. */
static bool skip_count_binder(Parser *p)
{
	if (p->flavor != FLAVOR_CRASP || p->tok.kind != TK_LBRACK)
		return false;
	size_t save = p->lx.pos;
	Token j = lex_next(&p->lx), le = lex_next(&p->lx), i = lex_next(&p->lx),
	      close = lex_next(&p->lx);
	bool ok = j.kind == TK_IDENT && le.kind == TK_LE && i.kind == TK_IDENT &&
		  close.kind == TK_RBRACK &&
		  strcmp(sym_name(p->lx.syms, j.sym), "j") == 0 &&
		  strcmp(sym_name(p->lx.syms, i.sym), "i") == 0;
	if (ok)
		parser_advance(p);
	else
		p->lx.pos = save;
	return ok;
}

/* count = ("#" | "#>") ( "[" formula "]" | atom ) */
static Expr parse_count(Parser *p, Expr e)
{
	bool future = p->tok.kind == TK_FCOUNT;
	parser_advance(p);
	Expr body;
	if (!future && skip_count_binder(p)) {
		body = parse_expr(p, PREC_ATOM);
	} else if (p->tok.kind == TK_LBRACK) {
		size_t open = p->tok.start;
		parser_advance(p);
		enter(p, open);
		body = parse_expr(p, PREC_TERNARY);
		leave(p);
		expect_close(p, TK_RBRACK, "[", open);
	} else {
		body = parse_expr(p, PREC_ATOM);
	}
	Node phi = parser_need(p, body, SORT_BOOL).node;
	e.node = future ? store_make_fcount(p->store, phi)
			: store_make_count(p->store, phi);
	return e;
}

static void offer_def(const Def *d, void *arg)
{
	Suggest *sg = arg;
	suggest_offer(sg, sym_name((const SymTab *)sg->syms, d->name));
}

/* The diagnostic for a name no scope defines: L_k beyond the prelude,
 * a defined name close to it, or how letters are written. */
static _Noreturn void unknown_name(Parser *p, const char *s)
{
	size_t k = 0, len = strlen(s);
	if (len > 2 && strncmp(s, "L_", 2) == 0 &&
	    strspn(s + 2, "0123456789") == len - 2) {
		k = strtoul(s + 2, NULL, 10);
		parser_fail(p, p->tok.start,
			    "unknown name '%s' (the prelude defines L_1 to "
			    "L_5; 'tally gen --family=lk --k=%zu' prints L_%zu "
			    "as a formula, -f \"$(tally gen --family=lk "
			    "--k=%zu)\" reads it)", s, k, k, k);
	}
	Suggest sg;
	suggest_init(&sg, s, len);
	sg.syms = p->lx.syms;
	for (Scope *sc = p->scope; sc; sc = scope_fallback(sc))
		scope_each(sc, offer_def, &sg);
	if (sg.best)
		parser_fail(p, p->tok.start,
			    "unknown name '%s'; did you mean '%s'? (letters "
			    "are written Q_%s or '%s')", s, sg.best, s, s);
	parser_fail(p, p->tok.start,
		    "unknown name '%s' (letters are written Q_%s or '%s')",
		    s, s, s);
}

static Expr parse_name(Parser *p, Expr e)
{
	Sym name = p->tok.sym;
	if (name == p->defining)
		parser_fail(p, p->tok.start,
			    "'%s' is used in its own definition (a cycle)",
			    sym_name(p->lx.syms, name));
	const Def *d = scope_lookup(p->scope, name);
	if (!d) {
		const char *s = sym_name(p->lx.syms, name);
		/* Q, Q_ (a letter test without its letter) get no Q_Q_ hint */
		if (strcmp(s, "Q") == 0 || strncmp(s, "Q_", 2) == 0)
			parser_fail(p, p->tok.start,
				    "unknown name '%s' (a letter test is Q_a or "
				    "Q('a'), with the letter after Q_)", s);
		unknown_name(p, s);
	}
	e.node = d->node;
	parser_advance(p);
	skip_position_argument(p);
	return e;
}

/* Q('x'): the function-call spelling of a letter test. */
static bool parse_q_call(Parser *p, Expr *e)
{
	if (strcmp(sym_name(p->lx.syms, p->tok.sym), "Q") != 0)
		return false;
	size_t save = p->lx.pos;
	Token open = lex_next(&p->lx), letter = lex_next(&p->lx),
	      close = lex_next(&p->lx);
	if (open.kind == TK_LPAREN && letter.kind == TK_LETTER &&
	    close.kind != TK_RPAREN && !scope_lookup(p->scope, p->tok.sym)) {
		/* Q('a' ...: a letter test left open, not an unknown Q */
		int line, col;
		diag_position(p->lx.src, open.start, &line, &col);
		parser_fail(p, close.start,
			    "expected ')' to close 'Q(' at %d:%d, found %s",
			    line, col, lex_describe(&p->lx, &close));
	}
	if (open.kind != TK_LPAREN || letter.kind != TK_LETTER ||
	    close.kind != TK_RPAREN) {
		p->lx.pos = save;
		return false;
	}
	e->node = store_make_letter(p->store, letter.sym);
	unit_add_letter(p->unit, letter.sym);
	parser_advance(p);
	return true;
}

static bool starts_atom(TokKind k)
{
	return k == TK_COUNT || k == TK_FCOUNT || k == TK_LPAREN ||
	       k == TK_IDENT || k == TK_MIN || k == TK_MAX;
}

/*
 * atom = NUMBER | letter | "true" | "false" | NAME | count
 *      | "min" "(" term "," term ")" | "max" "(" term "," term ")"
 *      | "MOD" "(" NUMBER "," ["-"] NUMBER ")" | "(" expr ")"
 */
static Expr parse_atom(Parser *p)
{
	Expr e = {NODE_NONE, p->tok.start};
	switch (p->tok.kind) {
	case TK_NUMBER: {
		fmpz_t v;
		fmpz_init(v);
		number_value(p, v);
		e.node = store_make_const(p->store, v);
		fmpz_clear(v);
		parser_advance(p);
		/* "3t" and "3#[...]": juxtaposition is multiplication */
		if (!p->tok.space_before && starts_atom(p->tok.kind)) {
			Node c = e.node;
			Node t = parser_need(p, parse_atom(p), SORT_INT).node;
			e.node = store_make_scale(p->store, store_constant(p->store, c),
						  t);
		}
		return e;
	}
	case TK_LETTER:
		e.node = store_make_letter(p->store, p->tok.sym);
		unit_add_letter(p->unit, p->tok.sym);
		parser_advance(p);
		skip_position_argument(p);
		return e;
	case TK_TRUE:
	case TK_FALSE:
		e.node = store_make_bool(p->store, p->tok.kind == TK_TRUE);
		parser_advance(p);
		return e;
	case TK_IDENT:
		if (parse_q_call(p, &e))
			return e;
		return parse_name(p, e);
	case TK_COUNT:
	case TK_FCOUNT: {
		enter(p, e.at);
		Expr c = parse_count(p, e);
		leave(p);
		return c;
	}
	case TK_MIN:
	case TK_MAX: {
		enter(p, e.at);
		Expr m = parse_extremum(p, e);
		leave(p);
		return m;
	}
	case TK_MOD:
		return parse_mod(p, e);
	case TK_LPAREN: {
		size_t open = p->tok.start;
		parser_advance(p);
		enter(p, open);
		Expr inner = parse_expr(p, PREC_TERNARY);
		leave(p);
		expect_close(p, TK_RPAREN, "(", open);
		inner.at = open;
		return inner;
	}
	default:
		parser_fail(p, p->tok.start,
			    "expected a formula or a term, found %s",
			    lex_describe(&p->lx, &p->tok));
	}
}

/* prefix = ("!" | "Y") prefix-operand | "-" prefix | atom */
static Expr parse_prefix(Parser *p)
{
	Expr e = {NODE_NONE, p->tok.start};
	TokKind k = p->tok.kind;
	if (k != TK_NOT && k != TK_PREV && k != TK_MINUS)
		return parse_atom(p);
	parser_advance(p);
	enter(p, e.at);
	if (k == TK_MINUS) {
		Node t = parser_need(p, parse_expr(p, PREC_ATOM), SORT_INT).node;
		e.node = store_make_neg(p->store, t);
	} else {
		Node a = parser_need(p, parse_expr(p, PREC_CMP), SORT_BOOL).node;
		e.node = k == TK_NOT ? store_make_not(p->store, a)
				     : store_make_prev(p->store, a);
	}
	leave(p);
	return e;
}

static Rel relation_of(TokKind k)
{
	return (Rel)(REL_LT + (k - TK_LT));
}

/* A chain of one associative operator: a & b & c, a + b - c. */
static Expr parse_chain(Parser *p, Expr first, TokKind op, int prec)
{
	size_t base = operands.len;
	bool sum = op == TK_PLUS || op == TK_MINUS;
	Sort want = sum ? SORT_INT : SORT_BOOL;
	push_operand(parser_need(p, first, want).node);
	while (p->tok.kind == op || (sum && (p->tok.kind == TK_PLUS ||
					     p->tok.kind == TK_MINUS))) {
		bool minus = p->tok.kind == TK_MINUS;
		parser_advance(p);
		Node n = parser_need(p, parse_expr(p, prec + 1), want).node;
		push_operand(minus ? store_make_neg(p->store, n) : n);
	}
	Node *ops = operands.data + base;
	size_t n = operands.len - base;
	Expr e = {NODE_NONE, first.at};
	if (sum)
		e.node = store_make_add(p->store, ops, n);
	else if (op == TK_AND)
		e.node = store_make_and(p->store, ops, n);
	else
		e.node = store_make_or(p->store, ops, n);
	operands.len = base;
	return e;
}

/* a -> b -> c is a -> (b -> c): collect, then fold from the right. */
static Expr parse_implications(Parser *p, Expr first)
{
	size_t base = operands.len;
	push_operand(parser_need(p, first, SORT_BOOL).node);
	while (p->tok.kind == TK_IMPLIES) {
		parser_advance(p);
		push_operand(parser_need(p, parse_expr(p, PREC_IMPLIES + 1),
					 SORT_BOOL).node);
	}
	Node r = operands.data[operands.len - 1];
	for (size_t i = operands.len - 1; i-- > base;)
		r = store_make_implies(p->store, operands.data[i], r);
	operands.len = base;
	return (Expr){r, first.at};
}

/* term * term: one side must be a constant (the logic is linear).  The
 * factors of a chain are collected (on the operand stack: a failed parse
 * leaks nothing) and the constants multiplied once: scaling step by step
 * interned every intermediate coefficient (t * 2 * 2 ... with 100,000
 * factors kept 600 MB of constants). */
static Expr parse_product(Parser *p, Expr left)
{
	size_t base = operands.len;
	Node atom = NODE_NONE; /* the one factor that is not a constant */
	Node first = parser_need(p, left, SORT_INT).node;
	if (store_op(p->store, first) == OP_CONST)
		push_operand(first);
	else
		atom = first;
	while (p->tok.kind == TK_STAR) {
		size_t at = p->tok.start;
		parser_advance(p);
		Node b = parser_need(p, parse_expr(p, PREC_ATOM), SORT_INT).node;
		if (store_op(p->store, b) == OP_CONST)
			push_operand(b);
		else if (atom == NODE_NONE)
			atom = b;
		else
			parser_fail(p, at,
				    "'*' needs a constant on one side (terms "
				    "are linear)");
	}
	fmpz_t coef;
	fmpz_init_set_ui(coef, 1);
	for (size_t i = base; i < operands.len; i++)
		fmpz_mul(coef, coef, store_constant(p->store, operands.data[i]));
	operands.len = base;
	left.node = atom == NODE_NONE ? store_make_const(p->store, coef)
				      : store_make_scale(p->store, coef, atom);
	fmpz_clear(coef);
	return left;
}

/* cond "?" expr ":" expr, and the .cr spelling: expr "if" cond "else" expr
 * (the else branch recurses, so it counts as nesting) */
static Expr parse_conditional(Parser *p, Expr left)
{
	enter(p, p->tok.start);
	if (p->tok.kind == TK_QUESTION) {
		parser_advance(p);
		Node c = parser_need(p, left, SORT_BOOL).node;
		Node t = parser_need(p, parse_expr(p, PREC_IFF), SORT_INT).node;
		parser_expect(p, TK_COLON, "in a conditional term");
		Node u = parser_need(p, parse_expr(p, PREC_TERNARY), SORT_INT).node;
		left.node = store_make_ite(p->store, c, t, u);
	} else if (p->tok.kind == TK_IF) {
		parser_advance(p);
		Node t = parser_need(p, left, SORT_INT).node;
		Node c = parser_need(p, parse_expr(p, PREC_IFF), SORT_BOOL).node;
		parser_expect(p, TK_ELSE, "in a conditional term");
		Node u = parser_need(p, parse_expr(p, PREC_TERNARY), SORT_INT).node;
		left.node = store_make_ite(p->store, c, t, u);
	}
	leave(p);
	return left;
}

/*
 * expr = prefix { INFIX expr }      (precedence climbing, logic/ops.def)
 * with chains of &, |, + - collected n-ary, -> right-associative,
 * comparisons non-associative, and the conditional loosest of all.
 */
Expr parse_expr(Parser *p, int minprec)
{
	Expr left = parse_prefix(p);
	int iffs = 0; /* a <-> b <-> c nests to the left: count each level */
	for (;;) {
		TokKind k = p->tok.kind;
		int prec = infix_prec(k);
		if (prec == 0 || prec < minprec)
			break;
		if (k == TK_AND || k == TK_OR || k == TK_PLUS || k == TK_MINUS) {
			left = parse_chain(p, left, k, prec);
		} else if (k == TK_IMPLIES) {
			left = parse_implications(p, left);
		} else if (k == TK_IFF) {
			enter(p, p->tok.start);
			iffs++;
			parser_advance(p);
			Node a = parser_need(p, left, SORT_BOOL).node;
			Node b = parser_need(p, parse_expr(p, prec + 1),
					     SORT_BOOL).node;
			left.node = store_make_iff(p->store, a, b);
		} else if (k == TK_STAR) {
			left = parse_product(p, left);
		} else { /* comparison */
			parser_advance(p);
			Node a = parser_need(p, left, SORT_INT).node;
			Node b = parser_need(p, parse_expr(p, prec + 1),
					     SORT_INT).node;
			left.node = store_make_cmp(p->store, relation_of(k), a, b);
			if (is_relation(p->tok.kind))
				parser_fail(p, p->tok.start,
					    "comparisons do not chain; join "
					    "them with '&' (a < b & b < c)");
		}
	}
	p->nesting -= iffs;
	if (minprec <= PREC_TERNARY &&
	    (p->tok.kind == TK_QUESTION || p->tok.kind == TK_IF))
		left = parse_conditional(p, left);
	return left;
}

void parser_define(Parser *p, Sym name, size_t at, Node node)
{
	const Def *old = scope_lookup_local(p->scope, name);
	if (old) {
		int line = 0, col = 0;
		if (old->src)
			diag_position(old->src, old->at, &line, &col);
		/* A definition from another source (a REPL's earlier line, a
		 * file) is located by that source's name. */
		bool other = old->src && old->src != p->lx.src;
		parser_fail(p, at, "redefinition of '%s' (first defined at "
				   "%s%s%d:%d)",
			    sym_name(p->lx.syms, name),
			    other ? old->src->name : "", other ? ":" : "", line,
			    col);
	}
	Def d = {name, node, p->lx.src, at};
	scope_define(p->scope, &d);
	unit_add_def(p->unit, &d);
}

bool parser_finish(Parser *p)
{
	Unit *u = p->unit;
	if (u->output != NODE_NONE)
		return true;
	for (size_t i = u->ndefs; i-- > 0;)
		if (store_is_bool(p->store, u->defs[i].node)) {
			u->output = u->defs[i].node;
			u->output_name = u->defs[i].name;
			return true;
		}
	if (p->partial && u->ndefs > 0)
		return true;
	if (u->terms && u->ndefs > 0) { /* a count-valued program */
		u->output = u->defs[u->ndefs - 1].node;
		u->output_name = u->defs[u->ndefs - 1].name;
		return true;
	}
	diag_error(p->lx.diag, p->lx.src, p->tok.start,
		   "expected a formula, found %s",
		   u->ndefs ? "only integer definitions" : "empty input");
	p->lx.diag->at_eof = true;
	return false;
}

/* A word keyword (let, Y, MOD, min, true, ...) where a definition's name
 * belongs: say that it is a keyword, and offer a name that is free. */
void parser_keyword_name(Parser *p)
{
	const char *w = p->lx.src->text + p->tok.start;
	size_t n = p->tok.end - p->tok.start;
	if (p->tok.kind == TK_IDENT || p->tok.kind == TK_LETTER || n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		if (!((w[i] >= 'a' && w[i] <= 'z') || (w[i] >= 'A' && w[i] <= 'Z')))
			return;
	parser_fail(p, p->tok.start,
		    "'%.*s' is a keyword and cannot name a definition; "
		    "choose another name, e.g. '%.*s_'",
		    (int)n, w, (int)n, w);
}

/* A keyword followed by '=' or ':=' at the start of a statement can only
 * be an attempt to define it. */
static bool keyword_defined(Parser *p)
{
	if (p->tok.kind == TK_IDENT || p->tok.kind == TK_LETTER)
		return false;
	size_t save = p->lx.pos;
	Token next = lex_next(&p->lx);
	p->lx.pos = save;
	return next.kind == TK_EQ || next.kind == TK_DEFINE;
}

/* Peeks whether the current NAME token starts a definition NAME = ...:
 * NAME := always does; NAME = does unless NAME is an integer definition
 * already, where it reads as a comparison (n = 3).  A Boolean NAME cannot
 * be compared, so NAME = ... is a (re)definition and gets that message. */
static bool starts_definition(Parser *p)
{
	if (p->tok.kind != TK_IDENT)
		return false;
	size_t save = p->lx.pos;
	Token next = lex_next(&p->lx);
	p->lx.pos = save;
	if (next.kind == TK_DEFINE)
		return true;
	const Def *old = scope_lookup_local(p->scope, p->tok.sym);
	return next.kind == TK_EQ && (!old || store_is_bool(p->store, old->node));
}

/* statement = "let" NAME ("=" | ":=") expr | NAME ("=" | ":=") expr
 *           | "output" NAME | formula */
static void parse_statement(Parser *p)
{
	bool let = p->tok.kind == TK_LET;
	if (let)
		parser_advance(p);
	if (p->tok.kind == TK_OUTPUT) {
		parser_advance(p);
		if (p->tok.kind != TK_IDENT)
			parser_fail(p, p->tok.start,
				    "expected a name after 'output', found %s",
				    lex_describe(&p->lx, &p->tok));
		const Def *d = scope_lookup(p->scope, p->tok.sym);
		if (!d || !(p->unit->terms || store_is_bool(p->store, d->node)))
			parser_fail(p, p->tok.start,
				    d ? "the output must be a formula"
				      : "unknown name '%s'",
				    sym_name(p->lx.syms, p->tok.sym));
		p->unit->output = d->node;
		p->unit->output_name = p->tok.sym;
		parser_advance(p);
		return;
	}
	if (let || keyword_defined(p))
		parser_keyword_name(p);
	if (let || starts_definition(p)) {
		if (p->tok.kind != TK_IDENT)
			parser_fail(p, p->tok.start,
				    "expected a name to define, found %s",
				    lex_describe(&p->lx, &p->tok));
		Sym name = p->tok.sym;
		size_t at = p->tok.start;
		parser_advance(p);
		if (p->tok.kind != TK_EQ && p->tok.kind != TK_DEFINE)
			parser_fail(p, p->tok.start,
				    "expected '=' after the name, found %s",
				    lex_describe(&p->lx, &p->tok));
		parser_advance(p);
		p->defining = name;
		Node n = parse_expr(p, PREC_TERNARY).node;
		p->defining = SYM_NONE;
		parser_define(p, name, at, n);
		if (store_is_bool(p->store, n)) {
			p->unit->output = n;
			p->unit->output_name = name;
		}
		return;
	}
	Expr e = parse_expr(p, PREC_TERNARY);
	if (!p->unit->terms)
		e = parser_need(p, e, SORT_BOOL);
	p->unit->output = e.node;
	p->unit->output_name = SYM_NONE;
}

/* file = { statement ";" } [ statement ] EOF */
static bool parse_file(Scope *sc, Diag *d, const Source *src, Unit *out,
		       bool partial)
{
	Parser p;
	parser_init(&p, FLAVOR_TL, sc, d, src, out);
	p.partial = partial;
	d->at_eof = false;
	if (setjmp(p.fail)) {
		drop_operands();
		lex_free(&p.lx);
		return false;
	}
	parser_advance(&p);
	while (p.tok.kind != TK_EOF) {
		if (p.tok.kind == TK_SEMI) {
			parser_advance(&p);
			continue;
		}
		parse_statement(&p);
		if (p.tok.kind != TK_EOF && p.tok.kind != TK_SEMI)
			parser_fail(&p, p.tok.start,
				    "expected ';' or end of input after the "
				    "formula, found %s",
				    lex_describe(&p.lx, &p.tok));
	}
	bool ok = parser_finish(&p);
	lex_free(&p.lx);
	return ok;
}

bool tl_parse(Scope *sc, Diag *d, const Source *src, Unit *out)
{
	return parse_file(sc, d, src, out, false);
}

bool tl_parse_input(Scope *sc, Diag *d, const Source *src, Unit *out)
{
	return parse_file(sc, d, src, out, true);
}
