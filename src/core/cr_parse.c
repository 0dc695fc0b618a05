/* cr_parse.c -- .cr programs: statements, #import, meaning, warnings.
 *
 * Each right side is grouped twice (cr_syntax.c) and both groupings are
 * turned into store nodes; hash-consing makes "the same meaning" a
 * comparison of node ids, so harmless regroupings (2*3*x, a+(b+c)) are
 * not reported.
 */
#include <config.h>
#include "core/cr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cr_peer.h"
#include "core/cr_syntax.h"
#include "base/mem.h"

/* Longest predK chain accepted (Y nested K times). */
enum { CR_MAX_PRED = 10000 };

bool cr_precedence_parse(const char *s, CrPrecedence *out)
{
	if (strcmp(s, "peer") == 0)
		*out = CR_PREC_PEER;
	else if (strcmp(s, "conventional") == 0)
		*out = CR_PREC_CONVENTIONAL;
	else
		return false;
	return true;
}

typedef struct {
	Sym name;
	size_t at;     /* the name's offset */
	size_t tok;    /* first token of the right side */
	uint32_t peer, conv;
} Stmt;

typedef struct {
	Sym name;
	unsigned back; /* a guard j == i - back; 0 for a unary predicate */
} Guard;

typedef struct {
	Store *s;
	Scope *sc;
	Unit *unit; /* collects the letters the program mentions */
	CrTree t;
	const Source *src;
	Diag *d;
	bool quiet;  /* lowering the second reading: errors were reported */
	bool failed;
	VEC(Stmt) stmts;
	VEC(Guard) guards;
	size_t current; /* index of the statement being lowered */
} Cr;

static const char known_predicates[] =
	"tally knows pred and predK (j == i-K, K >= 1), pos_even, pos_odd and "
	"pos_mod_M_R (i mod M == R), positions 0-based as in the interpreter; "
	"write others in tally's syntax with Y (#[predK] P is "
	"(Y...Y P ? 1 : 0) with K times Y) and MOD (MOD(m, r): 1-based "
	"position i with i mod m == r)";

/* ---- predicates ------------------------------------------------------ */

/* Digits only, no leading zero, at most max; false otherwise. */
static bool small_decimal(const char *s, unsigned long max, unsigned long *v)
{
	if (!*s || (*s == '0' && s[1]))
		return false;
	*v = 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		*v = *v * 10 + (unsigned long)(*s - '0');
		if (*v > max)
			return false;
	}
	return true;
}

/* A predicate of the interpreter: back > 0 for the guard j == i - back,
 * else *mod is its MOD node (1-based i ≡ r (mod m) for 0-based i). */
static bool predicate(Store *s, const char *name, unsigned *back, Node *mod)
{
	unsigned long k, m, r;
	*back = 0;
	*mod = NODE_NONE;
	if (strcmp(name, "pred") == 0) {
		*back = 1;
	} else if (strncmp(name, "pred", 4) == 0 &&
		   small_decimal(name + 4, CR_MAX_PRED, &k) && k >= 1) {
		*back = (unsigned)k;
	} else if (strcmp(name, "pos_even") == 0) {
		*mod = store_make_mod(s, 2, 1);
	} else if (strcmp(name, "pos_odd") == 0) {
		*mod = store_make_mod(s, 2, 0);
	} else if (strncmp(name, "pos_mod_", 8) == 0) {
		const char *us = strchr(name + 8, '_');
		if (!us)
			return false;
		char digits[16];
		size_t n = (size_t)(us - (name + 8));
		if (n == 0 || n >= sizeof digits)
			return false;
		memcpy(digits, name + 8, n);
		digits[n] = '\0';
		if (!small_decimal(digits, UINT32_MAX - 1, &m) || m < 1 ||
		    !small_decimal(us + 1, UINT32_MAX - 1, &r) || r >= m)
			return false;
		*mod = store_make_mod(s, (uint32_t)m, (uint32_t)((r + 1) % m));
	} else {
		return false;
	}
	return true;
}

static const Guard *guard_of(const Cr *c, Sym name)
{
	for (size_t i = 0; i < c->guards.len; i++)
		if (c->guards.data[i].name == name)
			return &c->guards.data[i];
	return NULL;
}

static void error(Cr *c, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void error(Cr *c, size_t at, const char *fmt, ...)
{
	c->failed = true;
	if (c->quiet)
		return;
	char msg[1000];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	diag_error(c->d, c->src, at, "%s", msg);
}

/* #import NAME: unary predicates become definitions, binary ones guards.
 * The interpreter applies every import before the first statement. */
static void import(Cr *c, const CrTok *name)
{
	const char *s = sym_name(store_syms(c->s), name->sym);
	unsigned back;
	Node mod;
	if (!predicate(c->s, s, &back, &mod)) {
		error(c, name->start, "unknown predicate '%s': %s", s,
		      known_predicates);
		return;
	}
	if (back) {
		if (!guard_of(c, name->sym)) {
			Guard g = {name->sym, back};
			VEC_PUSH(c->guards, g);
		}
		return;
	}
	Def d = {name->sym, mod, c->src, name->start};
	scope_define(c->sc, &d);
}

/* ---- meaning ---------------------------------------------------------- */

static Node as_bool(Store *s, Node n)
{
	return store_is_bool(s, n) ? n
				   : store_make_cmp(s, REL_NE, n,
						    store_make_const_si(s, 0));
}

static Node as_int(Store *s, Node n)
{
	return store_is_bool(s, n) ? store_make_ite(s, n,
						    store_make_const_si(s, 1),
						    store_make_const_si(s, 0))
				   : n;
}

static bool has_space(const char *s)
{
	return strpbrk(s, " \t\n\r\v\f") != NULL;
}

/* Why a name has no value here, as precisely as we can tell. */
static void unknown_name(Cr *c, Sym name, size_t at)
{
	const char *s = sym_name(store_syms(c->s), name);
	unsigned back;
	Node mod;
	for (size_t i = c->current + 1; i < c->stmts.len; i++)
		if (c->stmts.data[i].name == name) {
			int line, col;
			diag_position(c->src, c->stmts.data[i].at, &line, &col);
			error(c, at, "'%s' is used before its definition at "
				     "%d:%d (the interpreter runs statements in "
				     "order)", s, line, col);
			return;
		}
	if (guard_of(c, name)) {
		error(c, at, "'%s' is a binary predicate: use it as a guard, "
			     "#[%s] P", s, s);
	} else if (predicate(c->s, s, &back, &mod)) {
		error(c, at, "unknown name '%s' (a predicate of the "
			     "interpreter: add '#import %s')", s, s);
	} else if (c->stmts.data[c->current].name == name) {
		error(c, at, "'%s' is used in its own first definition", s);
	} else if (scope_lookup(c->sc, name)) {
		error(c, at, "unknown name '%s' (tally's prelude names are not "
			     "available in .cr files; define it first)", s);
	} else {
		error(c, at, "unknown name '%s' (a .cr program defines a name "
			     "before using it; a token is written \"%s\")", s, s);
	}
}

static Node lower(Cr *c, uint32_t i);

static Node lower_guarded(Cr *c, const CrNode *n)
{
	const Guard *g = guard_of(c, n->sym);
	const char *s = sym_name(store_syms(c->s), n->sym);
	if (!g) {
		unsigned back;
		Node mod;
		size_t at = c->t.toks.data[n->tok].start;
		if (!predicate(c->s, s, &back, &mod))
			error(c, at, "unknown predicate '%s': %s", s,
			      known_predicates);
		else if (!back)
			error(c, at, "'%s' is a unary predicate, not a guard; "
				     "use it as a Boolean: #(%s && P)", s, s);
		else
			error(c, at, "the guard '%s' is not imported: add "
				     "'#import %s' (anywhere in the program; "
				     "imports apply to all of it)", s, s);
		return NODE_NONE;
	}
	Node phi = lower(c, n->kid[0]);
	if (!phi)
		return NODE_NONE;
	/* j == i - K with j <= i: at most the one position K back */
	phi = as_bool(c->s, phi);
	for (unsigned k = 0; k < g->back; k++)
		phi = store_make_prev(c->s, phi);
	return as_int(c->s, phi);
}

static Node lower_string(Cr *c, const CrNode *n)
{
	const char *s = sym_name(store_syms(c->s), n->sym);
	if (!*s || has_space(s)) {
		error(c, n->op, "the token string \"%s\" never matches a token "
				"(tokens are separated by whitespace); write "
				"false", s);
		return NODE_NONE;
	}
	unit_add_letter(c->unit, n->sym);
	return store_make_letter(c->s, n->sym);
}

static Node lower_int(Cr *c, const CrNode *n)
{
	const CrTok *t = &c->t.toks.data[n->tok];
	char *digits = xstrndup(c->src->text + t->start, t->end - t->start);
	fmpz_t v;
	fmpz_init(v);
	fmpz_set_str(v, digits, 10);
	Node r = store_make_const(c->s, v);
	fmpz_clear(v);
	free(digits);
	return r;
}

/* Both Boolean: a Boolean result, as the interpreter's values are. */
static bool both_bool(Store *s, Node a, Node b)
{
	return store_is_bool(s, a) && store_is_bool(s, b);
}

static Node lower(Cr *c, uint32_t i)
{
	const CrNode *n = &c->t.nodes.data[i];
	Store *s = c->s;
	Node a = NODE_NONE, b = NODE_NONE, e = NODE_NONE;
	switch (n->kind) {
	case CN_STR: return lower_string(c, n);
	case CN_INT: return lower_int(c, n);
	case CN_TRUE: return store_make_true(s);
	case CN_FALSE: return store_make_false(s);
	case CN_NAME: {
		const Def *d = scope_lookup_local(c->sc, n->sym);
		if (!d)
			unknown_name(c, n->sym, n->op);
		return d ? d->node : NODE_NONE;
	}
	case CN_GCOUNT: return lower_guarded(c, n);
	default: break;
	}
	CrNode copy = *n;
	if (!(a = lower(c, copy.kid[0])))
		return NODE_NONE;
	if (copy.kid[1] && !(b = lower(c, copy.kid[1])))
		return NODE_NONE;
	if (copy.kid[2] && !(e = lower(c, copy.kid[2])))
		return NODE_NONE;
	switch (copy.kind) {
	case CN_NOT: return store_make_not(s, as_bool(s, a));
	case CN_AND: return store_make_and2(s, as_bool(s, a), as_bool(s, b));
	case CN_OR: return store_make_or2(s, as_bool(s, a), as_bool(s, b));
	case CN_CMP:
		return store_make_cmp(s, copy.rel, as_int(s, a), as_int(s, b));
	case CN_COUNT: return store_make_count(s, as_bool(s, a));
	case CN_ADD: return store_make_add2(s, as_int(s, a), as_int(s, b));
	case CN_SUB: return store_make_sub(s, as_int(s, a), as_int(s, b));
	case CN_MUL:
		return store_make_scale(s, store_constant(s, a), as_int(s, b));
	case CN_MIN:
	case CN_MAX:
		if (both_bool(s, a, b))
			return copy.kind == CN_MIN ? store_make_and2(s, a, b)
						   : store_make_or2(s, a, b);
		return copy.kind == CN_MIN
			       ? store_make_min(s, as_int(s, a), as_int(s, b))
			       : store_make_max(s, as_int(s, a), as_int(s, b));
	case CN_IF: {
		Node cond = as_bool(s, b);
		if (both_bool(s, a, e))
			return store_make_or2(
				s, store_make_and2(s, cond, a),
				store_make_and2(s, store_make_not(s, cond), e));
		return store_make_ite(s, cond, as_int(s, a), as_int(s, e));
	}
	default: return NODE_NONE;
	}
}

/* ---- statements ------------------------------------------------------- */

static bool statement_end(const CrTok *t)
{
	return t->kind == CT_NL || t->kind == CT_EOF;
}

/* Splits the file into imports and assignments, grouping each right side
 * both ways. */
static bool read_statements(Cr *c)
{
	const CrTok *toks;
	size_t i = 0;
	for (;;) {
		toks = c->t.toks.data;
		if (toks[i].kind == CT_NL) {
			i++;
			continue;
		}
		if (toks[i].kind == CT_EOF)
			return true;
		if (toks[i].kind == CT_IMPORT) {
			if (toks[i + 1].kind != CT_VAR) {
				error(c, toks[i + 1].start,
				      "expected a predicate name after #import");
				return false;
			}
			import(c, &toks[i + 1]);
			i += 2;
		} else if (toks[i].kind == CT_VAR &&
			   toks[i + 1].kind == CT_ASSIGN) {
			Stmt st = {toks[i].sym, toks[i].start, i + 2, 0, 0};
			size_t end = st.tok;
			st.peer = cr_peer_rhs(&c->t, &end, c->src, c->d);
			if (!st.peer)
				return false;
			size_t cend = st.tok;
			st.conv = cr_conv_rhs(&c->t, &cend, c->src);
			VEC_PUSH(c->stmts, st);
			i = end;
		} else if (toks[i].kind == CT_VAR &&
			   toks[i + 1].kind == CT_COLON &&
			   toks[i + 2].kind == CT_ASSIGN) {
			error(c, toks[i + 1].start,
			      "a .cr file defines with '=', not ':=' (the "
			      "compact form is read from .crasp files or with "
			      "--syntax=crasp)");
			return false;
		} else {
			error(c, toks[i].start,
			      "expected a statement 'NAME = ...' or "
			      "'#import NAME'");
			return false;
		}
		if (c->failed)
			return false;
		if (!statement_end(&c->t.toks.data[i])) {
			error(c, c->t.toks.data[i].start,
			      "expected the end of the statement");
			return false;
		}
	}
}

/* The two readings in full parentheses, for the warning. */
static char *readings(Cr *c, const Stmt *st)
{
	Buf b = {0};
	const char *name = sym_name(store_syms(c->s), st->name);
	buf_printf(&b, "  interpreter:  %s = ", name);
	cr_tree_print(&c->t, c->src, st->peer, &b);
	buf_printf(&b, "\n  conventional: %s = ", name);
	cr_tree_print(&c->t, c->src, st->conv, &b);
	buf_puts(&b, "\n  tally uses the conventional reading "
		     "(--cr-precedence=peer: the interpreter's; "
		     "--cr-precedence=conventional: no warning)\n");
	return buf_take(&b);
}

/* The node statement st stands for, under the chosen precedence. */
static Node meaning(Cr *c, const Stmt *st, CrPrecedence prec)
{
	Node peer = lower(c, st->peer);
	if (!peer || prec == CR_PREC_PEER || !st->conv)
		return peer;
	c->quiet = true; /* same names: errors were reported already */
	Node conv = lower(c, st->conv);
	c->quiet = false;
	c->failed = false;
	if (!conv)
		return peer;
	if (conv != peer && prec == CR_PREC_WARN) {
		char *notes = readings(c, st);
		size_t at = cr_tree_diff(&c->t, st->peer, st->conv);
		diag_warning(c->d, c->src, at, notes,
			     "the Python C-RASP interpreter groups this "
			     "statement differently");
		free(notes);
	}
	return conv;
}

/* The interpreter's result is the last statement; tally accepts by the
 * last Boolean one, or (u->terms) reads the last statement's count when
 * no statement is Boolean. */
static bool choose_output(Cr *c, Unit *u)
{
	if (u->ndefs == 0 || c->stmts.len == 0) {
		diag_error(c->d, c->src, c->src->len,
			   "expected a statement 'NAME = ...', found %s",
			   "only imports or empty input");
		return false;
	}
	const Def *last = &u->defs[u->ndefs - 1];
	for (size_t i = u->ndefs; i-- > 0;) {
		const Def *d = &u->defs[i];
		if (!store_is_bool(c->s, d->node))
			continue;
		u->output = d->node;
		u->output_name = d->name;
		if (d != last) {
			int line, col;
			diag_position(c->src, d->at, &line, &col);
			diag_warning(c->d, c->src, last->at, NULL,
				     "the last statement '%s' is a count (the "
				     "interpreter prints its value); tally "
				     "accepts by the last Boolean statement, "
				     "'%s' at %d:%d",
				     sym_name(store_syms(c->s), last->name),
				     sym_name(store_syms(c->s), d->name), line,
				     col);
		}
		return true;
	}
	if (u->terms) { /* count-valued: the interpreter's own result */
		u->output = last->node;
		u->output_name = last->name;
		return true;
	}
	diag_error(c->d, c->src, last->at,
		   "the program has no Boolean statement to accept with "
		   "('%s' is a count; compare it, e.g. '%s > 0')",
		   sym_name(store_syms(c->s), last->name),
		   sym_name(store_syms(c->s), last->name));
	return false;
}

/* The interpreter lets a statement replace an earlier variable or an
 * imported predicate of the same name (and keeps a binary import as a
 * guard beside a variable of its name); tally does the same, but says so,
 * since it is rarely meant. */
static void warn_redefinition(Cr *c, const Stmt *st)
{
	const char *s = sym_name(store_syms(c->s), st->name);
	const Def *old = scope_lookup_local(c->sc, st->name);
	int line, col;
	if (old && old->src == c->src) {
		diag_position(c->src, old->at, &line, &col);
		bool imported = true;
		for (size_t i = 0; i < c->current; i++)
			if (c->stmts.data[i].at == old->at)
				imported = false;
		diag_warning(c->d, c->src, st->at, NULL,
			     imported ? "'%s' replaces the predicate imported "
					"at %d:%d from here on"
				      : "'%s' is defined again (first at %d:%d); "
					"later statements see this definition",
			     s, line, col);
	} else if (guard_of(c, st->name)) {
		diag_warning(c->d, c->src, st->at, NULL,
			     "'%s' is also an imported binary predicate: "
			     "#[%s] still means the predicate", s, s);
	}
}

bool cr_parse(Scope *sc, Diag *d, const Source *src, CrPrecedence prec,
	      Unit *out)
{
	Cr c = {.s = scope_store(sc), .sc = sc, .unit = out, .src = src,
		.d = d};
	out->src = src;
	out->output = NODE_NONE;
	out->output_name = SYM_NONE;
	d->at_eof = false;
	bool ok = cr_lex(&c.t, src, store_syms(c.s), d) && read_statements(&c);
	/* imports are definitions too (trace rows, printed names) */
	for (size_t i = 0; ok && i < c.t.toks.len; i++) {
		const CrTok *t = &c.t.toks.data[i];
		const Def *def = t->kind == CT_VAR && i > 0 &&
						 c.t.toks.data[i - 1].kind == CT_IMPORT
					 ? scope_lookup_local(sc, t->sym)
					 : NULL;
		if (def && def->src == src && def->at == t->start)
			unit_add_def(out, def);
	}
	for (size_t i = 0; ok && i < c.stmts.len; i++) {
		const Stmt *st = &c.stmts.data[i];
		c.current = i;
		Node n = meaning(&c, st, prec);
		if (!n) {
			ok = false;
			break;
		}
		warn_redefinition(&c, st);
		Def def = {st->name, n, src, st->at};
		scope_define(sc, &def);
		unit_add_def(out, &def);
	}
	if (ok)
		ok = choose_output(&c, out);
	VEC_FREE(c.stmts);
	VEC_FREE(c.guards);
	cr_tree_free(&c.t);
	return ok;
}
