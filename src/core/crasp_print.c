/* crasp_print.c -- TL[#] to C-RASP: the program layout and its printers
 * (compact and paper form).  See crasp.h for the layout rules.
 */
#include <config.h>
#include "core/crasp.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "core/names.h"
#include "core/print.h"
#include "base/vec.h"

/* Linear glue is printed inside the operation that uses it. */
static bool is_glue(Op op)
{
	return op == OP_ADD || op == OP_MUL || op == OP_CONST;
}

/* Atoms that read only the current position need no definition of
 * their own under a count (#Q_a) and are never worth one when constant. */
static bool is_input(Op op)
{
	return op == OP_LETTER || op == OP_MOD || op == OP_TRUE ||
	       op == OP_FALSE;
}

/* Readable stems for the punctuation letters of the usual examples. */
static const char *punct_stem(char c)
{
	static const struct {
		char c;
		const char *stem;
	} table[] = {
		{'(', "lpar"}, {')', "rpar"}, {'[', "lbrack"}, {']', "rbrack"},
		{'{', "lbrace"}, {'}', "rbrace"}, {'<', "lt"}, {'>', "gt"},
		{'+', "plus"}, {'-', "minus"}, {'*', "star"}, {'/', "slash"},
		{'.', "dot"}, {',', "comma"}, {'!', "bang"}, {'?', "qmark"},
		{'=', "eq"}, {'#', "hash"}, {'&', "amp"}, {'|', "bar"},
		{':', "colon"}, {';', "semi"}, {'$', "dollar"}, {'%', "pct"},
		{'@', "at"}, {'^', "caret"}, {'~', "tilde"}, {'\'', "quote"},
		{'"', "dquote"}, {'\\', "bslash"}, {'`', "grave"},
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (table[i].c == c)
			return table[i].stem;
	return NULL;
}

void crasp_letter_stem(Buf *b, const char *name)
{
	bool ident = *name != '\0';
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			ident = false;
	if (ident) {
		buf_puts(b, name);
		return;
	}
	const char *word = name[0] && !name[1] ? punct_stem(name[0]) : NULL;
	if (word) {
		buf_puts(b, word);
		return;
	}
	buf_putc(b, 'x');
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		buf_printf(b, "%02X", *p);
}

typedef struct {
	Store *s;
	CraspProgram *p;
	NameSet names;
	unsigned nbool, nint;
} Namer;


/* The stem of what a count counts: a letter, a definition, MOD, true. */
static void count_stem(Namer *nm, Buf *b, Node kid)
{
	const Store *s = nm->s;
	Sym name = nm->p->name_of[kid];
	if (name != SYM_NONE && store_op(s, kid) != OP_LETTER) {
		buf_puts(b, sym_name(store_syms(nm->s), name));
		return;
	}
	switch (store_op(s, kid)) {
	case OP_LETTER:
		crasp_letter_stem(b, sym_name(store_syms(nm->s),
					store_letter_sym(s, kid)));
		return;
	case OP_MOD:
		buf_printf(b, "mod%u_%u", store_aux(s, kid), store_aux2(s, kid));
		return;
	default:
		buf_puts(b, "true");
		return;
	}
}

static Sym generated_name(Namer *nm, Node n, bool is_root)
{
	const Store *s = nm->s;
	Buf b = {0};
	Op op = store_op(s, n);
	if (is_root) {
		buf_puts(&b, "out");
	} else if (op == OP_COUNT || op == OP_FCOUNT) {
		buf_puts(&b, op == OP_COUNT ? "C_" : "F_");
		count_stem(nm, &b, store_kid(s, n, 0));
	} else if (op == OP_LETTER) {
		buf_puts(&b, "P_");
		crasp_letter_stem(&b, sym_name(store_syms(nm->s),
					 store_letter_sym(s, n)));
	} else if (store_is_bool(s, n)) {
		buf_printf(&b, "P%u", ++nm->nbool);
	} else {
		buf_printf(&b, "N%u", ++nm->nint);
	}
	Sym sym = names_fresh(&nm->names, b.data);
	buf_free(&b);
	return sym;
}

void crasp_program(Store *s, Node root, const Sym *user_names,
		   CraspProgram *out)
{
	memset(out, 0, sizeof *out);
	size_t nn = store_node_count(s) + 1;
	/* reach: 1 reachable, 2 reachable and read by a non-count operation
	 * (so an input atom there needs a definition of its own) */
	unsigned char *reach = xcalloc(nn, 1);
	reach[root] = 2;
	for (Node n = root; n > 0; n--) {
		if (!reach[n])
			continue;
		bool count = store_op(s, n) == OP_COUNT ||
			     store_op(s, n) == OP_FCOUNT;
		for (uint32_t i = 0; i < store_nkids(s, n); i++) {
			Node k = store_kid(s, n, i);
			unsigned char r = count ? 1 : 2;
			if (reach[k] < r)
				reach[k] = r;
		}
	}
	out->root = root;
	out->nnodes = nn;
	out->name_of = xmalloc(nn * sizeof *out->name_of);
	for (size_t i = 0; i < nn; i++)
		out->name_of[i] = SYM_NONE;
	Namer nm = {.s = s, .p = out};
	names_init(&nm.names, store_syms(s));
	if (user_names)
		for (Node n = 1; n <= root; n++)
			if (reach[n] && user_names[n] != SYM_NONE)
				names_take(&nm.names, user_names[n]);
	VEC(CraspDef) defs = {0};
	for (Node n = 1; n <= root; n++) {
		if (!reach[n])
			continue;
		Op op = store_op(s, n);
		Sym user = user_names ? user_names[n] : SYM_NONE;
		bool def = user != SYM_NONE || n == root ||
			   (!is_glue(op) &&
			    (!is_input(op) ||
			     (reach[n] == 2 && op != OP_TRUE && op != OP_FALSE)));
		if (!def)
			continue;
		Sym name = user != SYM_NONE ? user : generated_name(&nm, n, n == root);
		out->name_of[n] = name;
		CraspDef d = {n, name, op == OP_COUNT || op == OP_FCOUNT};
		VEC_PUSH(defs, d);
	}
	out->defs = defs.data;
	out->ndefs = defs.len;
	names_free(&nm.names);
	free(reach);
}

void crasp_program_free(CraspProgram *p)
{
	free(p->defs);
	free(p->name_of);
	memset(p, 0, sizeof *p);
}

/* ---- printing -------------------------------------------------------- */

typedef struct {
	Buf *out;
	Store *s;
	const CraspProgram *p;
	CraspForm form;
} Printer;

static void print_linear(Printer *pr, Node t, const char *var);
static void print_ref(Printer *pr, Node n, const char *var);

static void print_fmpz(Buf *out, const fmpz_t c)
{
	char *digits = fmpz_get_str(NULL, 10, c);
	buf_puts(out, digits);
	flint_free(digits);
}

/* An atom or linear term written out in place. */
static void print_inline(Printer *pr, Node n, const char *var)
{
	Store *s = pr->s;
	switch (store_op(s, n)) {
	case OP_LETTER:
		tl_print_letter(pr->out, s, store_letter_sym(s, n), SYNTAX_TL);
		if (pr->form == CRASP_PAPER)
			buf_printf(pr->out, "(%s)", var);
		return;
	case OP_TRUE:
	case OP_FALSE:
		buf_puts(pr->out, store_op(s, n) == OP_TRUE ? "true" : "false");
		return;
	case OP_MOD:
		buf_printf(pr->out, "MOD(%u, %u)", store_aux(s, n),
			   store_aux2(s, n));
		return;
	default:
		print_linear(pr, n, var);
		return;
	}
}

/* A reference to node n at position variable var (i, or j under a
 * count): a definition's name, or the atom or linear term itself. */
static void print_ref(Printer *pr, Node n, const char *var)
{
	Sym name = pr->p->name_of[n];
	if (name == SYM_NONE) {
		print_inline(pr, n, var);
		return;
	}
	buf_puts(pr->out, sym_name(store_syms(pr->s), name));
	if (pr->form == CRASP_PAPER)
		buf_printf(pr->out, "(%s)", var);
}

/* |c| * atom with the coefficient left out when it is 1. */
static void print_scaled(Printer *pr, const fmpz_t c, Node atom,
			 const char *var)
{
	if (!fmpz_is_pm1(c)) {
		fmpz_t a;
		fmpz_init(a);
		fmpz_abs(a, c);
		print_fmpz(pr->out, a);
		fmpz_clear(a);
		buf_putc(pr->out, '*');
	}
	print_ref(pr, atom, var);
}

/* A signed sum in order: C1 - C2 + 3*C3 - 4 */
static void print_linear(Printer *pr, Node t, const char *var)
{
	Linear l;
	store_linear(pr->s, t, &l);
	for (size_t i = 0; i < l.n; i++) {
		bool neg = fmpz_sgn(&l.coefs[i]) < 0;
		buf_puts(pr->out, i == 0 ? (neg ? "-" : "")
					 : neg ? " - " : " + ");
		print_scaled(pr, &l.coefs[i], l.atoms[i], var);
	}
	if (l.n == 0 || !fmpz_is_zero(l.constant)) {
		bool neg = fmpz_sgn(l.constant) < 0;
		buf_puts(pr->out, l.n == 0 ? (neg ? "-" : "")
					   : neg ? " - " : " + ");
		fmpz_t a;
		fmpz_init(a);
		fmpz_abs(a, l.constant);
		print_fmpz(pr->out, a);
		fmpz_clear(a);
	}
	store_linear_free(&l);
}

/* The terms of one sign as a sum of magnitudes; "0" when there are none. */
static void print_side(Printer *pr, const Linear *l, int sign)
{
	bool any = false;
	for (size_t i = 0; i < l->n; i++) {
		if (fmpz_sgn(&l->coefs[i]) != sign)
			continue;
		buf_puts(pr->out, any ? " + " : "");
		print_scaled(pr, &l->coefs[i], l->atoms[i], "i");
		any = true;
	}
	if (fmpz_sgn(l->constant) == sign) {
		buf_puts(pr->out, any ? " + " : "");
		fmpz_t a;
		fmpz_init(a);
		fmpz_abs(a, l->constant);
		print_fmpz(pr->out, a);
		fmpz_clear(a);
		any = true;
	}
	if (!any)
		buf_putc(pr->out, '0');
}

static void print_cmp(Printer *pr, Node n)
{
	static const char *const rel[] = {"<", "<=", "=", "!=", ">=", ">"};
	static const Rel converse[] = {REL_GT, REL_GE, REL_EQ, REL_NE, REL_LE,
				       REL_LT};
	Store *s = pr->s;
	Node t = store_kid(s, n, 0);
	const char *r = rel[store_rel(s, n)];
	if (pr->p->name_of[t] != SYM_NONE) { /* a user-named difference */
		print_ref(pr, t, "i");
		buf_printf(pr->out, " %s 0", r);
		return;
	}
	Linear l;
	store_linear(s, t, &l);
	bool pos = false, neg = false;
	for (size_t i = 0; i < l.n; i++) {
		pos |= fmpz_sgn(&l.coefs[i]) > 0;
		neg |= fmpz_sgn(&l.coefs[i]) < 0;
	}
	/* counts on the left: C >= 1 rather than 1 <= C */
	int first = neg && !pos ? -1 : 1;
	if (first < 0)
		r = rel[converse[store_rel(s, n)]];
	print_side(pr, &l, first);
	buf_printf(pr->out, " %s ", r);
	print_side(pr, &l, -first);
	store_linear_free(&l);
}

static void print_kids(Printer *pr, Node n, const char *sep)
{
	for (uint32_t i = 0; i < store_nkids(pr->s, n); i++) {
		if (i)
			buf_puts(pr->out, sep);
		print_ref(pr, store_kid(pr->s, n, i), "i");
	}
}

/* The right side of definition n: its operation, operands by reference. */
static void print_body(Printer *pr, Node n)
{
	Store *s = pr->s;
	Buf *out = pr->out;
	switch (store_op(s, n)) {
	case OP_NOT:
		buf_putc(out, '!');
		print_ref(pr, store_kid(s, n, 0), "i");
		return;
	case OP_PREV:
		buf_puts(out, "Y ");
		print_ref(pr, store_kid(s, n, 0), "i");
		return;
	case OP_AND:
		print_kids(pr, n, " & ");
		return;
	case OP_OR:
		print_kids(pr, n, " | ");
		return;
	case OP_CMP:
		print_cmp(pr, n);
		return;
	case OP_FCOUNT: /* only in dot graphs: no C-RASP counterpart */
		buf_puts(out, "#>");
		print_ref(pr, store_kid(s, n, 0), "i");
		return;
	case OP_COUNT: {
		/* a count reads a letter directly, as in #[j <= i] Q_a(j) */
		Node k = store_kid(s, n, 0);
		bool paper = pr->form == CRASP_PAPER;
		buf_puts(out, paper ? "#[j <= i] " : "#");
		if (store_op(s, k) == OP_LETTER)
			print_inline(pr, k, paper ? "j" : "i");
		else
			print_ref(pr, k, paper ? "j" : "i");
		return;
	}
	case OP_ITE:
		print_ref(pr, store_kid(s, n, 0), "i");
		buf_puts(out, " ? ");
		print_ref(pr, store_kid(s, n, 1), "i");
		buf_puts(out, " : ");
		print_ref(pr, store_kid(s, n, 2), "i");
		return;
	case OP_MIN:
	case OP_MAX:
		buf_puts(out, store_op(s, n) == OP_MIN ? "min(" : "max(");
		print_kids(pr, n, ", ");
		buf_putc(out, ')');
		return;
	case OP_LETTER:
	case OP_TRUE:
	case OP_FALSE:
	case OP_MOD:
	case OP_ADD:
	case OP_MUL:
	case OP_CONST:
		print_inline(pr, n, "i");
		return;
	default:
		buf_puts(out, "?");
		return;
	}
}

void crasp_print_body(Buf *out, Store *s, const CraspProgram *p, Node n,
		      CraspForm form)
{
	Printer pr = {out, s, p, form};
	print_body(&pr, n);
}

bool crasp_print(Buf *out, Store *s, const CraspProgram *p, CraspForm form,
		 char **err)
{
	if (store_flags(s, p->root) & FLAG_FUTURE) {
		*err = xstrdup("the formula counts the future (#>[...]): "
			       "two-sided counting has no C-RASP counterpart");
		return false;
	}
	Printer pr = {out, s, p, form};
	size_t width = 0;
	for (size_t i = 0; i < p->ndefs; i++) {
		size_t w = strlen(sym_name(store_syms(s), p->defs[i].name));
		if (w > width)
			width = w;
	}
	if (form == CRASP_PAPER)
		width += 3;
	for (size_t i = 0; i < p->ndefs; i++) {
		const char *name = sym_name(store_syms(s), p->defs[i].name);
		size_t w = strlen(name);
		buf_puts(out, name);
		if (form == CRASP_PAPER) {
			buf_puts(out, "(i)");
			w += 3;
		}
		for (; w < width; w++)
			buf_putc(out, ' ');
		buf_puts(out, " := ");
		print_body(&pr, p->defs[i].node);
		buf_putc(out, '\n');
	}
	/* A count as the result: the reader takes the last Boolean
	 * definition unless `output` names the count (logic/README.md
	 * §2.7), so say it whenever there is a Boolean one. */
	bool any_bool = false;
	for (size_t i = 0; i < p->ndefs; i++)
		any_bool |= store_is_bool(s, p->defs[i].node);
	if (!store_is_bool(s, p->root) && any_bool)
		buf_printf(out, "output %s\n",
			   sym_name(store_syms(s), p->name_of[p->root]));
	return true;
}

/* ---- structure ------------------------------------------------------- */

void crasp_layers(const Store *s, const CraspProgram *p, size_t **counts,
		  size_t **pointwise)
{
	size_t layers = (size_t)store_depth(s, p->root) + 1;
	*counts = xcalloc(layers, sizeof **counts);
	*pointwise = xcalloc(layers, sizeof **pointwise);
	for (size_t i = 0; i < p->ndefs; i++) {
		size_t d = store_depth(s, p->defs[i].node);
		if (p->defs[i].is_count)
			(*counts)[d]++;
		else
			(*pointwise)[d]++;
	}
}

typedef struct {
	VEC(Node) seen;
} Seen;

static bool seen_add(Seen *sn, Node n)
{
	for (size_t i = 0; i < sn->seen.len; i++)
		if (sn->seen.data[i] == n)
			return false;
	VEC_PUSH(sn->seen, n);
	return true;
}

static void reads(const Store *s, const CraspProgram *p, Node n, Seen *sn,
		  void (*visit)(Node, void *), void *arg)
{
	for (uint32_t i = 0; i < store_nkids(s, n); i++) {
		Node k = store_kid(s, n, i);
		if (p->name_of[k] != SYM_NONE || store_op(s, k) == OP_LETTER) {
			if (seen_add(sn, k))
				visit(k, arg);
		} else {
			reads(s, p, k, sn, visit, arg);
		}
	}
}

void crasp_reads(const Store *s, const CraspProgram *p, Node d,
		 void (*visit)(Node, void *), void *arg)
{
	Seen sn = {0};
	reads(s, p, d, &sn, visit, arg);
	VEC_FREE(sn.seen);
}
