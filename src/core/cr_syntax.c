/* cr_syntax.c -- tokens and the two groupings of .cr statements.
 *
 * The token rules are those of the interpreter's ANTLR lexer
 * (antlr/crasp.g4): `//` comments, runs of newlines as one NL, keywords
 * true false if else min max, `#import`, names [A-Za-z_][A-Za-z_0-9]*,
 * strings "..." without escapes (a backslash is an ordinary character),
 * integers [0-9]+.  Every name is a name: `Y`, `not`, `MOD`, `Q_a` are
 * not tally keywords or letters here.
 *
 * The conventional grouping is tally's (tally-logic(7)), by recursive
 * descent; the interpreter's is in cr_peer.c.
 */
#include <config.h>
#include "core/cr_syntax.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/mem.h"

/* Speculative parses are undone and retried; this many steps bound the
 * work on hostile input (ordinary programs use a few per token). */
enum { CR_BUDGET = 2000000, CR_MAX_NESTING = 1000 };

static const char *const tok_names[] = {
	[CT_EOF] = "end of input", [CT_NL] = "end of line",
	[CT_IMPORT] = "#import", [CT_VAR] = "a name", [CT_STR] = "a string",
	[CT_INT] = "a number", [CT_TRUE] = "true", [CT_FALSE] = "false",
	[CT_IF] = "if", [CT_ELSE] = "else", [CT_MIN] = "min", [CT_MAX] = "max",
	[CT_AND] = "&&", [CT_OR] = "||", [CT_NOT] = "!", [CT_LT] = "<",
	[CT_LE] = "<=", [CT_EQ] = "==", [CT_NE] = "!=", [CT_GE] = ">=",
	[CT_GT] = ">", [CT_ASSIGN] = "=", [CT_PLUS] = "+", [CT_MINUS] = "-",
	[CT_TIMES] = "*", [CT_COUNT] = "#", [CT_LPAREN] = "(",
	[CT_RPAREN] = ")", [CT_LBRACK] = "[", [CT_RBRACK] = "]",
	[CT_COMMA] = ",", [CT_QUESTION] = "?", [CT_COLON] = ":",
};

const char *cr_tok_name(CrTokKind k)
{
	return tok_names[k];
}

void cr_tree_free(CrTree *t)
{
	VEC_FREE(t->toks);
	VEC_FREE(t->nodes);
}

/* ---- tokens -------------------------------------------------------------- */

static bool name_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool name_char(int c)
{
	return name_start(c) || (c >= '0' && c <= '9');
}

static CrTokKind keyword(const char *s, size_t n)
{
	static const struct {
		const char *word;
		CrTokKind kind;
	} words[] = {{"true", CT_TRUE}, {"false", CT_FALSE}, {"if", CT_IF},
		     {"else", CT_ELSE},	{"min", CT_MIN},     {"max", CT_MAX}};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strlen(words[i].word) == n && memcmp(words[i].word, s, n) == 0)
			return words[i].kind;
	return CT_VAR;
}

/* Symbols, longest first. */
static const struct {
	const char *text;
	CrTokKind kind;
} symbols[] = {
	{"#import", CT_IMPORT}, {"&&", CT_AND}, {"||", CT_OR},
	{"==", CT_EQ},		{"!=", CT_NE},	{"<=", CT_LE},
	{">=", CT_GE},		{"!", CT_NOT},	{"<", CT_LT},
	{">", CT_GT},		{"=", CT_ASSIGN}, {"+", CT_PLUS},
	{"-", CT_MINUS},	{"*", CT_TIMES}, {"#", CT_COUNT},
	{"(", CT_LPAREN},	{")", CT_RPAREN}, {"[", CT_LBRACK},
	{"]", CT_RBRACK},	{",", CT_COMMA}, {"?", CT_QUESTION},
	{":", CT_COLON},
};

static void push_tok(CrTree *t, CrTokKind k, size_t start, size_t end, Sym s)
{
	CrTok tok = {k, start, end, s};
	VEC_PUSH(t->toks, tok);
}

/* A character the interpreter's lexer does not know: say what to write. */
static void bad_char(const Source *src, size_t i, Diag *d)
{
	char c = src->text[i];
	if (c == '&' || c == '|')
		diag_error(d, src, i,
			   "'%c' alone is not an operator in .cr files; write "
			   "'%c%c'", c, c, c);
	else if (c == '\'')
		diag_error(d, src, i,
			   "a token is written in double quotes in .cr files "
			   "(\"a\"), not single quotes");
	else if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
		diag_error(d, src, i, "unexpected character '%c' in a .cr file",
			   c);
	else
		diag_error(d, src, i,
			   "unexpected byte 0x%02x in a .cr file (names are "
			   "ASCII; other tokens go in double quotes)",
			   (unsigned char)c);
}

bool cr_lex(CrTree *t, const Source *src, SymTab *syms, Diag *d)
{
	if (t->nodes.len == 0) {
		CrNode none = {0};
		VEC_PUSH(t->nodes, none);
	}
	const char *s = src->text;
	size_t n = src->len, i = 0;
	while (i < n) {
		char c = s[i];
		if (c == ' ' || c == '\t') {
			i++;
		} else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
			while (i < n && s[i] != '\n' && s[i] != '\r')
				i++;
		} else if (c == '\n' || (c == '\r' && i + 1 < n && s[i + 1] == '\n')) {
			size_t start = i;
			while (i < n && (s[i] == '\n' ||
					 (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n')))
				i += s[i] == '\r' ? 2 : 1;
			push_tok(t, CT_NL, start, i, SYM_NONE);
		} else if (name_start((unsigned char)c)) {
			size_t start = i;
			while (i < n && name_char((unsigned char)s[i]))
				i++;
			CrTokKind k = keyword(s + start, i - start);
			push_tok(t, k, start, i,
				 k == CT_VAR ? sym_intern(syms, s + start, i - start)
					     : SYM_NONE);
		} else if (c >= '0' && c <= '9') {
			size_t start = i;
			while (i < n && s[i] >= '0' && s[i] <= '9')
				i++;
			push_tok(t, CT_INT, start, i, SYM_NONE);
		} else if (c == '"') {
			size_t start = i++;
			while (i < n && s[i] != '"')
				i++;
			if (i == n) {
				diag_error(d, src, start,
					   "unterminated string (a token is "
					   "written \"a\")");
				return false;
			}
			i++;
			push_tok(t, CT_STR, start, i,
				 sym_intern(syms, s + start + 1, i - start - 2));
		} else {
			size_t k = 0, m = sizeof symbols / sizeof symbols[0];
			while (k < m && strncmp(s + i, symbols[k].text,
						strlen(symbols[k].text)) != 0)
				k++;
			if (k == m) {
				bad_char(src, i, d);
				return false;
			}
			size_t len = strlen(symbols[k].text);
			push_tok(t, symbols[k].kind, i, i + len, SYM_NONE);
			i += len;
		}
	}
	push_tok(t, CT_EOF, n, n, SYM_NONE);
	return true;
}

/* ---- parsing ------------------------------------------------------------- */

typedef struct {
	CrTree *t;
	const Source *src;
	size_t i; /* current token */
	int depth;
	unsigned long steps;
	bool fatal;       /* nesting or budget exceeded: no retry helps */
	size_t err_at;    /* farthest failure so far */
	char err[200];
	bool has_err;
} P;

static CrTok *cur(P *p)
{
	return &p->t->toks.data[p->i];
}

static CrTokKind kind(P *p)
{
	return cur(p)->kind;
}

static CrTokKind peek_kind(P *p, size_t k)
{
	size_t j = p->i + k;
	return j < p->t->toks.len ? p->t->toks.data[j].kind : CT_EOF;
}

static void fail(P *p, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Keeps the farthest failure: after backtracking it is the best guess of
 * what the writer meant. */
static void fail(P *p, size_t at, const char *fmt, ...)
{
	if (p->has_err && at < p->err_at)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err, sizeof p->err, fmt, ap);
	va_end(ap);
	p->err_at = at;
	p->has_err = true;
}

static void fail_found(P *p, const char *expected)
{
	CrTok *t = cur(p);
	if (t->kind == CT_EOF || t->kind == CT_NL) {
		fail(p, t->start, "expected %s, found %s", expected,
		     cr_tok_name(t->kind));
		return;
	}
	size_t n = t->end - t->start;
	fail(p, t->start, "expected %s, found '%.*s'%s", expected,
	     (int)(n > 30 ? 30 : n), p->src->text + t->start,
	     n > 30 ? "..." : "");
}

static bool accept(P *p, CrTokKind k)
{
	if (kind(p) != k)
		return false;
	p->i++;
	return true;
}

static bool expect(P *p, CrTokKind k, const char *context)
{
	if (accept(p, k))
		return true;
	char what[64];
	snprintf(what, sizeof what, "'%s' %s", cr_tok_name(k), context);
	fail_found(p, what);
	return false;
}

static uint32_t node(P *p, CrKind k, size_t op, uint32_t a, uint32_t b,
		     uint32_t c)
{
	CrNode n = {.kind = k, .op = op, .kid = {a, b, c}, .sym = SYM_NONE};
	VEC_PUSH(p->t->nodes, n);
	return (uint32_t)(p->t->nodes.len - 1);
}

static uint32_t leaf(P *p, CrKind k)
{
	CrTok *t = cur(p);
	uint32_t n = node(p, k, t->start, 0, 0, 0);
	p->t->nodes.data[n].tok = p->i;
	p->t->nodes.data[n].sym = t->sym;
	p->i++;
	return n;
}

/* Entering a production: false when nesting or work is too much. */
static bool enter(P *p)
{
	if (p->fatal)
		return false;
	if (++p->steps > CR_BUDGET) {
		fail(p, cur(p)->start, "expression too complex for the .cr "
				       "reader (simplify or split it)");
		p->fatal = true;
		return false;
	}
	if (++p->depth > CR_MAX_NESTING) {
		fail(p, cur(p)->start, "nesting too deep (more than %d levels)",
		     CR_MAX_NESTING);
		p->fatal = true;
		p->depth--;
		return false;
	}
	return true;
}

static uint32_t leave(P *p, uint32_t n)
{
	p->depth--;
	return n;
}

static bool is_rel(CrTokKind k)
{
	return k >= CT_LT && k <= CT_GT;
}

/* min(a, b) / max(a, b) with the reading's own argument parser. */
static uint32_t extremum(P *p, uint32_t (*arg)(P *, int), int prec)
{
	CrKind k = kind(p) == CT_MIN ? CN_MIN : CN_MAX;
	size_t at = cur(p)->start;
	p->i++;
	if (!expect(p, CT_LPAREN, k == CN_MIN ? "after min" : "after max"))
		return 0;
	uint32_t a = arg(p, prec);
	if (!a || !expect(p, CT_COMMA, "between the arguments"))
		return 0;
	uint32_t b = arg(p, prec);
	if (!b || !expect(p, CT_RPAREN, "to close the arguments"))
		return 0;
	return node(p, k, at, a, b, 0);
}

/* ---- tally's grouping ---- */

static uint32_t conv_expr(P *p, int unused);
static uint32_t conv_unary(P *p);

static bool at_end(P *p)
{
	return kind(p) == CT_NL || kind(p) == CT_EOF;
}

static uint32_t conv_primary(P *p)
{
	switch (kind(p)) {
	case CT_STR: return leaf(p, CN_STR);
	case CT_VAR: return leaf(p, CN_NAME);
	case CT_INT: return leaf(p, CN_INT);
	case CT_TRUE: return leaf(p, CN_TRUE);
	case CT_FALSE: return leaf(p, CN_FALSE);
	case CT_MIN:
	case CT_MAX: return extremum(p, conv_expr, 0);
	case CT_LPAREN: {
		p->i++;
		uint32_t a = conv_expr(p, 0);
		return a && expect(p, CT_RPAREN, "to close '('") ? a : 0;
	}
	default:
		fail_found(p, "an expression");
		return 0;
	}
}

/* The operand of '#': prefix operators bind it, nothing binary does. */
static uint32_t conv_count_operand(P *p)
{
	size_t at = cur(p)->start;
	if (!accept(p, CT_NOT))
		return conv_unary(p);
	uint32_t a = conv_count_operand(p);
	return a ? node(p, CN_NOT, at, a, 0, 0) : 0;
}

static uint32_t conv_unary(P *p)
{
	if (!enter(p))
		return 0;
	size_t at = cur(p)->start;
	if (!accept(p, CT_COUNT))
		return leave(p, conv_primary(p));
	Sym guard = SYM_NONE;
	size_t gtok = 0;
	if (accept(p, CT_LBRACK)) {
		if (kind(p) != CT_VAR) {
			fail_found(p, "a predicate name after '#['");
			return leave(p, 0);
		}
		gtok = p->i;
		guard = cur(p)->sym;
		p->i++;
		if (!expect(p, CT_RBRACK, "after the predicate"))
			return leave(p, 0);
	}
	uint32_t a = conv_count_operand(p);
	if (!a)
		return leave(p, 0);
	uint32_t n = node(p, guard == SYM_NONE ? CN_COUNT : CN_GCOUNT, at, a,
			  0, 0);
	p->t->nodes.data[n].sym = guard;
	p->t->nodes.data[n].tok = gtok;
	return leave(p, n);
}

static uint32_t conv_product(P *p)
{
	if (kind(p) != CT_INT || peek_kind(p, 1) != CT_TIMES)
		return conv_unary(p);
	if (!enter(p))
		return 0;
	uint32_t k = leaf(p, CN_INT);
	size_t op = cur(p)->start;
	p->i++;
	uint32_t a = conv_product(p);
	return leave(p, a ? node(p, CN_MUL, op, k, a, 0) : 0);
}

static uint32_t conv_sum(P *p)
{
	uint32_t left = conv_product(p);
	while (left && (kind(p) == CT_PLUS || kind(p) == CT_MINUS)) {
		CrKind k = kind(p) == CT_PLUS ? CN_ADD : CN_SUB;
		size_t op = cur(p)->start;
		p->i++;
		uint32_t r = conv_product(p);
		left = r ? node(p, k, op, left, r, 0) : 0;
	}
	return left;
}

static uint32_t conv_cmp(P *p)
{
	uint32_t left = conv_sum(p);
	if (!left || !is_rel(kind(p)))
		return left;
	Rel rel = (Rel)(REL_LT + (kind(p) - CT_LT));
	size_t op = cur(p)->start;
	p->i++;
	uint32_t r = conv_sum(p);
	if (!r)
		return 0;
	uint32_t n = node(p, CN_CMP, op, left, r, 0);
	p->t->nodes.data[n].rel = rel;
	return n;
}

static uint32_t conv_not(P *p)
{
	if (!enter(p))
		return 0;
	size_t at = cur(p)->start;
	if (!accept(p, CT_NOT))
		return leave(p, conv_cmp(p));
	uint32_t a = conv_not(p);
	return leave(p, a ? node(p, CN_NOT, at, a, 0, 0) : 0);
}

static uint32_t conv_chain(P *p, CrTokKind tok, CrKind k,
			   uint32_t (*operand)(P *))
{
	uint32_t left = operand(p);
	while (left && kind(p) == tok) {
		size_t op = cur(p)->start;
		p->i++;
		uint32_t r = operand(p);
		left = r ? node(p, k, op, left, r, 0) : 0;
	}
	return left;
}

static uint32_t conv_and(P *p)
{
	return conv_chain(p, CT_AND, CN_AND, conv_not);
}

static uint32_t conv_or(P *p)
{
	return conv_chain(p, CT_OR, CN_OR, conv_and);
}

/* A if P else B: loosest, the else branch nests to the right (Python). */
static uint32_t conv_expr(P *p, int unused)
{
	(void)unused;
	if (!enter(p))
		return 0;
	uint32_t left = conv_or(p);
	if (!left || kind(p) != CT_IF)
		return leave(p, left);
	size_t op = cur(p)->start;
	p->i++;
	uint32_t c = conv_or(p);
	if (!c || !expect(p, CT_ELSE, "in 'A if P else B'"))
		return leave(p, 0);
	uint32_t e = conv_expr(p, 0);
	return leave(p, e ? node(p, CN_IF, op, left, c, e) : 0);
}

/* ---- statements ---- */

uint32_t cr_conv_rhs(CrTree *t, size_t *pos, const Source *src)
{
	P p = {.t = t, .src = src, .i = *pos};
	uint32_t n = conv_expr(&p, 0);
	if (n && !at_end(&p))
		n = 0;
	*pos = p.i;
	return n;
}

/* ---- printing and comparing trees ---- */

static const char *op_text(const CrNode *n)
{
	static const char *const rels[] = {"<", "<=", "==", "!=", ">=", ">"};
	switch (n->kind) {
	case CN_AND: return "&&";
	case CN_OR: return "||";
	case CN_CMP: return rels[n->rel];
	case CN_ADD: return "+";
	case CN_SUB: return "-";
	case CN_MUL: return "*";
	default: return "";
	}
}

void cr_tree_print(const CrTree *t, const Source *src, uint32_t i, Buf *out)
{
	const CrNode *n = &t->nodes.data[i];
	const CrTok *tok = &t->toks.data[n->tok];
	switch (n->kind) {
	case CN_STR:
	case CN_NAME:
	case CN_INT:
	case CN_TRUE:
	case CN_FALSE:
		buf_append(out, src->text + tok->start, tok->end - tok->start);
		return;
	case CN_NOT:
		buf_puts(out, "(!");
		cr_tree_print(t, src, n->kid[0], out);
		buf_putc(out, ')');
		return;
	case CN_COUNT:
	case CN_GCOUNT:
		buf_puts(out, "(#");
		if (n->kind == CN_GCOUNT)
			buf_printf(out, "[%.*s] ", (int)(tok->end - tok->start),
				   src->text + tok->start);
		cr_tree_print(t, src, n->kid[0], out);
		buf_putc(out, ')');
		return;
	case CN_MIN:
	case CN_MAX:
		buf_puts(out, n->kind == CN_MIN ? "min(" : "max(");
		cr_tree_print(t, src, n->kid[0], out);
		buf_puts(out, ", ");
		cr_tree_print(t, src, n->kid[1], out);
		buf_putc(out, ')');
		return;
	case CN_IF:
		buf_putc(out, '(');
		cr_tree_print(t, src, n->kid[0], out);
		buf_puts(out, " if ");
		cr_tree_print(t, src, n->kid[1], out);
		buf_puts(out, " else ");
		cr_tree_print(t, src, n->kid[2], out);
		buf_putc(out, ')');
		return;
	default:
		buf_putc(out, '(');
		cr_tree_print(t, src, n->kid[0], out);
		buf_printf(out, " %s ", op_text(n));
		cr_tree_print(t, src, n->kid[1], out);
		buf_putc(out, ')');
		return;
	}
}

static uint32_t nkids(CrKind k)
{
	switch (k) {
	case CN_NOT:
	case CN_COUNT:
	case CN_GCOUNT: return 1;
	case CN_IF: return 3;
	case CN_AND: case CN_OR: case CN_CMP: case CN_ADD: case CN_SUB:
	case CN_MUL: case CN_MIN: case CN_MAX: return 2;
	default: return 0;
	}
}

static bool find_diff(const CrTree *t, uint32_t a, uint32_t b, size_t *at)
{
	const CrNode *x = &t->nodes.data[a], *y = &t->nodes.data[b];
	if (x->kind != y->kind || x->op != y->op) {
		*at = x->op;
		return true;
	}
	for (uint32_t k = 0; k < nkids(x->kind); k++)
		if (find_diff(t, x->kid[k], y->kid[k], at))
			return true;
	return false;
}

size_t cr_tree_diff(const CrTree *t, uint32_t a, uint32_t b)
{
	size_t at = t->nodes.data[a].op;
	find_diff(t, a, b, &at);
	return at;
}
