/* tl_print.c -- TL[#] printers with minimal parentheses.
 *
 * Every node has a printing precedence (higher binds tighter); a node is
 * parenthesised when its precedence is below what its context requires.
 * Comparisons are printed with positive terms on the left and negative
 * terms on the right, which is how `t < u` was normalised to `t - u < 0`.
 */
#include <config.h>
#include "core/print.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

typedef struct {
	const char *text[3]; /* SYNTAX_TL, SYNTAX_UTF8, SYNTAX_LATEX */
} Spelling;

static Spelling op_text[OP__COUNT];
static const char *rel_text[6][3] = {
#define RELATION(rel, a, u, l) {a, u, l},
#include "ops.def"
#undef RELATION
};
static const char *rel_sexpr[6] = {"<", "<=", "=", "!=", ">=", ">"};
/* The store has no equivalence node (a <-> b is (a & b) | (!a & !b)), so
 * its spellings are not in the PRINT table; they match ops.def's TK_IFF. */
static const char *const iff_text[3] = {" <-> ", " ↔ ", " \\leftrightarrow "};

static void init_tables(void)
{
	static bool done;
	if (done)
		return;
#define PRINT(op, a, u, l) op_text[op] = (Spelling){{a, u, l}};
#include "ops.def"
#undef PRINT
	done = true;
}

static const char *text(Op op, Syntax syn)
{
	return op_text[op].text[syn == SYNTAX_SEXPR ? 0 : syn];
}

enum {
	P_TERNARY = 0, /* context: anything goes */
	P_IFF = 1,
	P_OR = 3,
	P_AND = 4,
	P_CMP = 6,
	P_SUM = 7,
	P_PRODUCT = 8,
	P_PREFIX = 9,
	P_ATOM = 10,
};

typedef struct {
	Buf *out;
	const Store *s;
	Syntax syn;
	const Sym *names;
	Node root;
	bool (*stop)(void *ctx); /* NULL: never stops */
	void *ctx;
	bool stopped;
} Printer;

static void print_node(Printer *pr, Node n, int ctx);

static bool ident_like(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* A name inside LaTeX math: TeX's special characters escaped, and those
 * that have no math-mode escape (^ and ~) as text in an \mbox. */
static void latex_escaped(Buf *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("#$%&_{}", *s)) {
			buf_putc(out, '\\');
			buf_putc(out, *s);
		} else if (*s == '\\') {
			buf_puts(out, "\\backslash{}");
		} else if (*s == '^') {
			buf_puts(out, "\\mbox{\\textasciicircum}");
		} else if (*s == '~') {
			buf_puts(out, "\\mbox{\\textasciitilde}");
		} else {
			buf_putc(out, *s);
		}
	}
}

/* A definition's name as the syntax writes it: in LaTeX an italic
 * identifier (my_f would otherwise read as m y subscript f). */
static void print_name(Buf *out, const Store *s, Sym name, Syntax syn)
{
	const char *text = sym_name(store_syms((Store *)s), name);
	if (syn != SYNTAX_LATEX) {
		buf_puts(out, text);
		return;
	}
	buf_puts(out, "\\mathit{");
	latex_escaped(out, text);
	buf_putc(out, '}');
}

static void quoted(Buf *out, const char *s, char q)
{
	buf_putc(out, q);
	for (; *s; s++) {
		if (*s == q || *s == '\\')
			buf_putc(out, '\\');
		buf_putc(out, *s);
	}
	buf_putc(out, q);
}

void tl_print_letter(Buf *out, const Store *s, Sym letter, Syntax syn)
{
	const char *name = sym_name(store_syms((Store *)s), letter);
	bool single_punct = strlen(name) == 1 && ispunct((unsigned char)*name) &&
			    *name != '\'' && *name != '"';
	switch (syn) {
	case SYNTAX_LATEX:
		buf_puts(out, "Q_{");
		latex_escaped(out, name);
		buf_putc(out, '}');
		return;
	case SYNTAX_SEXPR:
		buf_puts(out, "(Q ");
		if (ident_like(name))
			buf_puts(out, name);
		else
			quoted(out, name, '"');
		buf_putc(out, ')');
		return;
	case SYNTAX_UTF8:
		if (ident_like(name) || single_punct) { /* the papers' Q_( */
			buf_puts(out, "Q_");
			buf_puts(out, name);
			return;
		}
		quoted(out, name, '\'');
		return;
	case SYNTAX_TL:
		if (ident_like(name)) {
			buf_puts(out, "Q_");
			buf_puts(out, name);
		} else {
			quoted(out, name, '\'');
		}
		return;
	}
}

static bool negations(const Store *s, Node a, Node b)
{
	return (store_op(s, a) == OP_NOT && store_kid(s, a, 0) == b) ||
	       (store_op(s, b) == OP_NOT && store_kid(s, b, 0) == a);
}

static int nots(const Store *s, Node and)
{
	return (store_op(s, store_kid(s, and, 0)) == OP_NOT) +
	       (store_op(s, store_kid(s, and, 1)) == OP_NOT);
}

/* Is n the shape (x & y) | (!x & !y) that store_make_iff builds?  Then it
 * is printed as x <-> y: spelled out, each operand would be printed twice
 * and a chain of k equivalences would take 2^k space. */
static bool is_iff(const Store *s, Node n)
{
	if (store_op(s, n) != OP_OR || store_nkids(s, n) != 2)
		return false;
	Node p = store_kid(s, n, 0), q = store_kid(s, n, 1);
	if (store_op(s, p) != OP_AND || store_nkids(s, p) != 2 ||
	    store_op(s, q) != OP_AND || store_nkids(s, q) != 2)
		return false;
	Node a = store_kid(s, p, 0), b = store_kid(s, p, 1);
	Node na = store_kid(s, q, 0), nb = store_kid(s, q, 1);
	return (negations(s, a, na) && negations(s, b, nb)) ||
	       (negations(s, a, nb) && negations(s, b, na));
}

/* The operands x, y of an equivalence n.  Either conjunction reads back
 * as the same node; the one with fewer negations reads best.  Operands are
 * sorted, but an equivalence goes left, where it needs no parentheses:
 * chains then print (and reparse) flat. */
static void iff_parts(const Store *s, Node n, Node *x, Node *y)
{
	Node p = store_kid(s, n, 0), q = store_kid(s, n, 1);
	Node c = nots(s, q) < nots(s, p) ? q : p;
	*x = store_kid(s, c, 0);
	*y = store_kid(s, c, 1);
	bool swap = is_iff(s, *x) == is_iff(s, *y) ? *x > *y : is_iff(s, *y);
	if (swap) {
		Node t = *x;
		*x = *y;
		*y = t;
	}
}

static void print_fmpz(Buf *out, const fmpz *c)
{
	char *digits = fmpz_get_str(NULL, 10, c);
	buf_puts(out, digits);
	flint_free(digits);
}

/* |c|: signs are printed by the callers, as operators. */
static void print_abs(Buf *out, const fmpz *c)
{
	fmpz_t a;
	fmpz_init(a);
	fmpz_abs(a, c);
	print_fmpz(out, a);
	fmpz_clear(a);
}

static int prec_of(const Printer *pr, Node n)
{
	const Store *s = pr->s;
	if (pr->names && n != pr->root && pr->names[n] != SYM_NONE)
		return P_ATOM;
	switch (store_op(s, n)) {
	case OP_OR: return is_iff(s, n) ? P_IFF : P_OR;
	case OP_AND: return P_AND;
	case OP_NOT:
	case OP_PREV: return P_PREFIX;
	case OP_CMP: return P_CMP;
	case OP_ADD: return P_SUM;
	case OP_MUL: return P_PRODUCT;
	case OP_CONST:
		return fmpz_sgn(store_constant(s, n)) < 0 ? P_PRODUCT : P_ATOM;
	default: return P_ATOM;
	}
}

static const char *times(Syntax syn)
{
	return syn == SYNTAX_UTF8 ? "·" : syn == SYNTAX_LATEX ? " \\cdot " : "*";
}

/* |c| * atom, with the coefficient omitted when it is 1. */
static void print_scaled(Printer *pr, const fmpz *c, Node atom)
{
	if (!fmpz_is_pm1(c)) {
		print_abs(pr->out, c);
		buf_puts(pr->out, times(pr->syn));
	}
	print_node(pr, atom, P_PREFIX);
}

/* Terms of one sign (sign = +1 or -1) and the constant if it has that
 * sign, as a sum of magnitudes.  Returns false when nothing was printed. */
static bool print_side(Printer *pr, const Linear *l, int sign)
{
	bool any = false;
	for (size_t i = 0; i < l->n; i++) {
		if (fmpz_sgn(&l->coefs[i]) != sign)
			continue;
		if (any)
			buf_puts(pr->out, " + ");
		print_scaled(pr, &l->coefs[i], l->atoms[i]);
		any = true;
	}
	if (fmpz_sgn(l->constant) == sign) {
		if (any)
			buf_puts(pr->out, " + ");
		print_abs(pr->out, l->constant);
		any = true;
	}
	return any;
}

/* A signed sum in order: t1 - t2 + 3*t3 - 4 */
static void print_sum(Printer *pr, const Linear *l)
{
	for (size_t i = 0; i < l->n; i++) {
		bool neg = fmpz_sgn(&l->coefs[i]) < 0;
		if (i == 0)
			buf_puts(pr->out, neg ? "-" : "");
		else
			buf_puts(pr->out, neg ? " - " : " + ");
		print_scaled(pr, &l->coefs[i], l->atoms[i]);
	}
	if (!fmpz_is_zero(l->constant)) {
		bool neg = fmpz_sgn(l->constant) < 0;
		buf_puts(pr->out, l->n == 0 ? (neg ? "-" : "")
					     : neg ? " - " : " + ");
		print_abs(pr->out, l->constant);
	}
}

/* One side of a comparison as an s-expression: 0, a single item, or
 * (+ item ...) where an item is an atom, (* c atom) or a constant. */
static void print_sexpr_side(Printer *pr, const Linear *l, int sign)
{
	size_t items = fmpz_sgn(l->constant) == sign;
	for (size_t i = 0; i < l->n; i++)
		items += fmpz_sgn(&l->coefs[i]) == sign;
	if (items == 0) {
		buf_putc(pr->out, '0');
		return;
	}
	if (items > 1)
		buf_puts(pr->out, "(+ ");
	bool first = true;
	for (size_t i = 0; i < l->n; i++) {
		if (fmpz_sgn(&l->coefs[i]) != sign)
			continue;
		buf_puts(pr->out, first ? "" : " ");
		first = false;
		if (fmpz_is_pm1(&l->coefs[i])) {
			print_node(pr, l->atoms[i], P_TERNARY);
		} else {
			buf_puts(pr->out, "(* ");
			print_abs(pr->out, &l->coefs[i]);
			buf_putc(pr->out, ' ');
			print_node(pr, l->atoms[i], P_TERNARY);
			buf_putc(pr->out, ')');
		}
	}
	if (fmpz_sgn(l->constant) == sign) {
		buf_puts(pr->out, first ? "" : " ");
		print_abs(pr->out, l->constant);
	}
	if (items > 1)
		buf_putc(pr->out, ')');
}

static void print_cmp(Printer *pr, Node n)
{
	Linear l;
	store_linear(pr->s, store_kid(pr->s, n, 0), &l);
	Rel rel = store_rel(pr->s, n);
	if (pr->syn == SYNTAX_SEXPR) {
		buf_printf(pr->out, "(%s ", rel_sexpr[rel]);
		print_sexpr_side(pr, &l, 1);
		buf_putc(pr->out, ' ');
		print_sexpr_side(pr, &l, -1);
		buf_putc(pr->out, ')');
	} else {
		if (!print_side(pr, &l, 1))
			buf_putc(pr->out, '0');
		buf_printf(pr->out, " %s ", rel_text[rel][pr->syn]);
		if (!print_side(pr, &l, -1))
			buf_putc(pr->out, '0');
	}
	store_linear_free(&l);
}

static void print_kids(Printer *pr, Node n, const char *sep, int ctx)
{
	for (uint32_t i = 0; i < store_nkids(pr->s, n); i++) {
		if (i)
			buf_puts(pr->out, sep);
		print_node(pr, store_kid(pr->s, n, i), ctx);
	}
}

static void print_infix(Printer *pr, Node n)
{
	const Store *s = pr->s;
	Buf *out = pr->out;
	Op op = store_op(s, n);
	Node x, y;
	switch (op) {
	case OP_TRUE:
	case OP_FALSE:
		buf_puts(out, text(op, pr->syn));
		return;
	case OP_LETTER:
		tl_print_letter(out, s, store_letter_sym(s, n), pr->syn);
		return;
	case OP_NOT:
	case OP_PREV:
		buf_puts(out, text(op, pr->syn));
		print_node(pr, store_kid(s, n, 0), P_PREFIX);
		return;
	case OP_AND:
		print_kids(pr, n, text(op, pr->syn), P_AND + 1);
		return;
	case OP_OR:
		if (is_iff(s, n)) { /* <-> groups to the left */
			iff_parts(s, n, &x, &y);
			print_node(pr, x, P_IFF);
			buf_puts(out, iff_text[pr->syn]);
			print_node(pr, y, P_IFF + 1);
			return;
		}
		print_kids(pr, n, text(op, pr->syn), P_OR + 1);
		return;
	case OP_CMP:
		print_cmp(pr, n);
		return;
	case OP_MOD:
		buf_printf(out, "%s%u, %u)", text(op, pr->syn),
			   store_aux(s, n), store_aux2(s, n));
		return;
	case OP_CONST:
		print_fmpz(out, store_constant(s, n));
		return;
	case OP_COUNT:
	case OP_FCOUNT:
		buf_puts(out, text(op, pr->syn));
		print_node(pr, store_kid(s, n, 0), P_TERNARY);
		buf_putc(out, ']');
		return;
	case OP_MIN:
	case OP_MAX:
		buf_puts(out, text(op, pr->syn));
		print_kids(pr, n, ", ", P_TERNARY);
		buf_putc(out, ')');
		return;
	case OP_ITE:
		buf_putc(out, '(');
		print_node(pr, store_kid(s, n, 0), P_OR);
		buf_puts(out, " ? ");
		print_node(pr, store_kid(s, n, 1), P_OR);
		buf_puts(out, " : ");
		print_node(pr, store_kid(s, n, 2), P_OR);
		buf_putc(out, ')');
		return;
	case OP_ADD:
	case OP_MUL: {
		Linear l;
		store_linear(s, n, &l);
		print_sum(pr, &l);
		store_linear_free(&l);
		return;
	}
	default:
		buf_puts(out, "?");
	}
}

static void print_sexpr(Printer *pr, Node n)
{
	static const char *const head[OP__COUNT] = {
		[OP_NOT] = "not", [OP_AND] = "and", [OP_OR] = "or",
		[OP_PREV] = "Y", [OP_COUNT] = "count", [OP_FCOUNT] = "fcount",
		[OP_ITE] = "ite", [OP_MIN] = "min", [OP_MAX] = "max",
		[OP_ADD] = "+",
	};
	const Store *s = pr->s;
	Op op = store_op(s, n);
	Node x, y;
	if (is_iff(s, n)) {
		iff_parts(s, n, &x, &y);
		buf_puts(pr->out, "(iff ");
		print_node(pr, x, P_TERNARY);
		buf_putc(pr->out, ' ');
		print_node(pr, y, P_TERNARY);
		buf_putc(pr->out, ')');
	} else if (op == OP_MUL) {
		buf_puts(pr->out, "(* ");
		print_fmpz(pr->out, store_constant(s, n));
		buf_putc(pr->out, ' ');
		print_node(pr, store_kid(s, n, 0), P_TERNARY);
		buf_putc(pr->out, ')');
	} else if (op == OP_MOD) {
		buf_printf(pr->out, "(MOD %u %u)", store_aux(s, n),
			   store_aux2(s, n));
	} else if (head[op]) {
		buf_printf(pr->out, "(%s ", head[op]);
		print_kids(pr, n, " ", P_TERNARY);
		buf_putc(pr->out, ')');
	} else {
		print_infix(pr, n); /* atoms and comparisons */
	}
}

static void print_node(Printer *pr, Node n, int ctx)
{
	if (pr->stop && (pr->stopped || (pr->stopped = pr->stop(pr->ctx))))
		return;
	if (pr->names && n != pr->root && pr->names[n] != SYM_NONE) {
		print_name(pr->out, pr->s, pr->names[n], pr->syn);
		return;
	}
	if (pr->syn == SYNTAX_SEXPR) {
		print_sexpr(pr, n);
		return;
	}
	bool paren = prec_of(pr, n) < ctx;
	if (paren)
		buf_putc(pr->out, '(');
	print_infix(pr, n);
	if (paren)
		buf_putc(pr->out, ')');
}

void tl_print_to(Buf *out, const Store *s, Node n, Syntax syn,
		 const Sym *names)
{
	init_tables();
	Printer pr = {.out = out, .s = s, .syn = syn, .names = names,
		      .root = n};
	print_node(&pr, n, P_TERNARY);
}

char *tl_print(const Store *s, Node n, Syntax syn, const Sym *names)
{
	Buf b = {0};
	tl_print_to(&b, s, n, syn, names);
	return buf_take(&b);
}

char *tl_print_stoppable(const Store *s, Node n, Syntax syn,
			 bool (*stop)(void *ctx), void *ctx)
{
	init_tables();
	Buf b = {0};
	Printer pr = {.out = &b, .s = s, .syn = syn, .root = n,
		      .stop = stop, .ctx = ctx};
	print_node(&pr, n, P_TERNARY);
	if (pr.stopped) {
		buf_free(&b);
		return NULL;
	}
	return buf_take(&b);
}

/* "let NAME = BODY" and end: node n defined as name, its body written
 * with the names given so far (n's own excepted). */
static void print_let(Buf *b, const Store *s, Syntax syn, const Sym *names,
		      Sym name, Node n, const char *end)
{
	buf_puts(b, syn == SYNTAX_LATEX ? "\\mathbf{let}\\ " : "let ");
	print_name(b, s, name, syn);
	buf_puts(b, " = ");
	Printer pr = {.out = b, .s = s, .syn = syn, .names = names,
		      .root = n};
	print_node(&pr, n, P_TERNARY);
	buf_puts(b, end);
}

char *tl_print_unit(const Store *s, const Unit *u, Syntax syn)
{
	/* A definition may only mention names defined before it: hash-consing
	 * can make a later definition's node a subterm of an earlier one
	 * (D0 := #Q_c; D1 := Q_c), so names are introduced one by one. */
	size_t nn = store_node_count(s) + 1;
	Sym *names = xmalloc(nn * sizeof *names);
	for (size_t i = 0; i < nn; i++)
		names[i] = SYM_NONE;
	Buf b = {0};
	init_tables();
	for (size_t i = 0; i < u->ndefs; i++) {
		Node n = u->defs[i].node;
		if (names[n] != SYM_NONE) /* an alias of an earlier definition */
			continue;
		print_let(&b, s, syn, names, u->defs[i].name, n, ";\n");
		names[n] = u->defs[i].name;
	}
	if (names[u->output] != SYM_NONE)
		print_name(&b, s, names[u->output], syn);
	else
		tl_print_to(&b, s, u->output, syn, names);
	buf_putc(&b, '\n');
	free(names);
	return buf_take(&b);
}

/* ---- brief: shared subformulas as let-definitions ---------------------- */

/* Nodes a brief print may name: Booleans and the atoms of linear forms
 * (sums and products are flattened by the comparison printer, so a name
 * on them would not be seen). */
static bool nameable(const Store *s, Node n)
{
	switch (store_op(s, n)) {
	case OP_NOT: case OP_AND: case OP_OR: case OP_CMP: case OP_PREV:
	case OP_COUNT: case OP_FCOUNT: case OP_ITE: case OP_MIN: case OP_MAX:
		return true;
	default:
		return false;
	}
}

/* Levels a body may hold before a node is named: well inside the stack. */
enum { BRIEF_MAX_LEVELS = 200, BRIEF_SHARED_SIZE = 8 };

/* Which nodes under root get a name: those used twice (and not tiny) and
 * those whose unnamed height would pass BRIEF_MAX_LEVELS.  Ids are
 * topological (kids before parents), so one pass down marks what root
 * reaches and one pass up measures heights. */
static Sym *brief_names(const Store *s, Node root, size_t *count)
{
	size_t nn = (size_t)root + 1;
	uint32_t *uses = xcalloc(nn, sizeof *uses);
	uint32_t *levels = xcalloc(nn, sizeof *levels);
	Sym *names = xmalloc(nn * sizeof *names);
	uses[root] = 1;
	for (Node n = root; n > 0; n--) {
		names[n] = SYM_NONE;
		if (!uses[n])
			continue;
		for (uint32_t i = 0; i < store_nkids(s, n); i++)
			uses[store_kid(s, n, i)]++;
	}
	names[0] = SYM_NONE;
	SymTab *syms = store_syms((Store *)s);
	*count = 0;
	for (Node n = 1; n < root; n++) {
		if (!uses[n])
			continue;
		uint32_t high = 0;
		for (uint32_t i = 0; i < store_nkids(s, n); i++)
			if (levels[store_kid(s, n, i)] + 1 > high)
				high = levels[store_kid(s, n, i)] + 1;
		levels[n] = high;
		bool shared = uses[n] > 1 &&
			      store_size(s, n) > BRIEF_SHARED_SIZE;
		if (nameable(s, n) && (shared || high > BRIEF_MAX_LEVELS)) {
			char name[32];
			int len = snprintf(name, sizeof name, "t%zu", ++*count);
			names[n] = sym_intern(syms, name, (size_t)len);
			levels[n] = 0;
		}
	}
	free(uses);
	free(levels);
	return names;
}

char *tl_print_brief(const Store *s, Node n, Syntax syn)
{
	if (store_size(s, n) <= PRINT_BRIEF_SIZE)
		return tl_print(s, n, syn, NULL);
	size_t count;
	Sym *names = brief_names(s, n, &count);
	Buf b = {0};
	init_tables();
	for (Node m = 1; m < n; m++) {
		if (names[m] == SYM_NONE)
			continue;
		print_let(&b, s, syn, names, names[m], m, "; ");
	}
	tl_print_to(&b, s, n, syn, names);
	free(names);
	return buf_take(&b);
}
