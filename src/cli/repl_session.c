/* repl_session.c -- the REPL's session: its store, its inputs and
 * definitions, and their values on the example word (see
 * repl_session.h). */
#include <config.h>
#include "cli/repl_session.h"

#include "core/alphabet.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "core/prelude.h"
#include "machine/eval.h"

/* ---- the session's store -------------------------------------------- */

void repl_session_open(Repl *r)
{
	r->store = store_new();
	r->scope = prelude_scope_new(r->store);
	r->lw = lower_new(r->store);
	r->last = NODE_NONE;
}

void repl_session_close(Repl *r)
{
	lower_free(r->lw);
	scope_free(r->scope);
	store_free(r->store);
	for (size_t i = 0; i < r->sources.len; i++)
		source_free(r->sources.data[i]);
	VEC_FREE(r->sources);
	VEC_FREE(r->defs);
}

SymTab *repl_session_syms(Repl *r)
{
	return store_syms(r->store);
}

void repl_session_fail(Repl *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("tally: error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	r->failed = true;
}

void repl_session_reset(Repl *r)
{
	repl_session_close(r);
	repl_session_open(r);
}

/* ---- showing values on the example word ----------------------------- */

/* The example word's letters: one per UTF-8 character. */
static Sym *word_letters(SymTab *st, const char *w, size_t *n)
{
	size_t len = strlen(w);
	Sym *out = xmalloc((len ? len : 1) * sizeof *out);
	*n = 0;
	for (size_t i = 0; i < len;) {
		size_t j = i + 1;
		while (j < len && ((unsigned char)w[j] & 0xc0) == 0x80)
			j++;
		out[(*n)++] = sym_intern(st, w + i, j - i);
		i = j;
	}
	return out;
}

/* A row's values: "[1, 2, 2]", or "[0]*6" when they are all equal. */
static void format_values(const Store *s, const EvalTable *t, Node node,
			  Buf *b)
{
	size_t first = eval_table_first(t), last = eval_table_last(t);
	bool is_bool = store_is_bool(s, node);
	fmpz_t v, prev;
	fmpz_init(v);
	fmpz_init(prev);
	bool same = true;
	Buf vals = {0};
	buf_puts(&vals, "");
	for (size_t p = first; p <= last; p++) {
		if (is_bool)
			fmpz_set_ui(v, eval_table_bool(t, node, p));
		else
			eval_table_int(t, node, p, v);
		same = same && (p == first || fmpz_equal(v, prev));
		fmpz_set(prev, v);
		char *digits = fmpz_get_str(NULL, 10, v);
		buf_printf(&vals, "%s%s", p == first ? "" : ", ", digits);
		flint_free(digits);
	}
	size_t n = last - first + 1;
	if (same && n > 1) {
		char *digits = fmpz_get_str(NULL, 10, v);
		buf_printf(b, "[%s]*%zu", digits, n);
		flint_free(digits);
	} else {
		buf_printf(b, "[%s]", vals.data);
	}
	buf_free(&vals);
	fmpz_clear(v);
	fmpz_clear(prev);
}

typedef struct {
	const char *label;
	Node node;
} Item;

/* One line per item: its values on the example word (when there is one
 * and examples are on), its sort and depth.  The items are evaluated in
 * a scratch store holding only what they use: the evaluator's cost grows
 * with its store, and the session's grows with every input. */
static void show_items(Repl *r, const Item *items, size_t n)
{
	if (n == 0)
		return;
	bool values = r->examples && r->word;
	Store *s = NULL;
	EvalTable *t = NULL;
	Node *nodes = xmalloc(n * sizeof *nodes);
	for (size_t i = 0; i < n; i++)
		nodes[i] = items[i].node;
	if (values) {
		s = store_new();
		store_import(s, r->store, nodes, n, nodes);
		size_t wn;
		Sym *w = word_letters(store_syms(s), r->word, &wn);
		t = eval_table_nodes(s, nodes, n, ACCEPT_LAST, w, wn, 0,
				     SIZE_MAX);
		free(w);
	}
	Buf b = {0};
	for (size_t i = 0; i < n; i++) {
		b.len = 0;
		buf_puts(&b, items[i].label);
		if (values) {
			buf_printf(&b, "(\"%s\") = ", r->word);
			format_values(s, t, nodes[i], &b);
			buf_puts(&b, "  ");
		} else {
			buf_puts(&b, ": ");
		}
		buf_printf(&b, "%s, depth %u",
			   store_is_bool(r->store, items[i].node) ? "bool"
								  : "int",
			   store_depth(r->store, items[i].node));
		puts(b.data);
	}
	buf_free(&b);
	eval_table_free(t);
	store_free(s);
	free(nodes);
}

/* What an input defined, and its formula when it had an anonymous one. */
static void show_unit(Repl *r, const Unit *u)
{
	Item *items = xmalloc((u->ndefs + 1) * sizeof *items);
	size_t n = 0;
	for (size_t i = 0; i < u->ndefs; i++)
		items[n++] = (Item){sym_name(repl_session_syms(r), u->defs[i].name),
				    u->defs[i].node};
	if (u->output != NODE_NONE && u->output_name == SYM_NONE)
		items[n++] = (Item){"_", u->output};
	show_items(r, items, n);
	free(items);
}

/* ---- inputs: formulas and definitions ------------------------------- */

static bool ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

const char *repl_session_skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	return s;
}

/* The name an input starts by defining ([let] NAME [(i)] (= | :=)), or
 * SYM_NONE; *paper is set for the paper form NAME(i) := ... */
static Sym defined_name(Repl *r, const char *s, bool *paper)
{
	*paper = false;
	s = repl_session_skip_blank(s);
	if (strncmp(s, "let", 3) == 0 && (s[3] == ' ' || s[3] == '\t'))
		s = repl_session_skip_blank(s + 3);
	if (!ident_start(*s))
		return SYM_NONE;
	const char *name = s;
	while (ident_start(*s) || isdigit((unsigned char)*s))
		s++;
	size_t len = (size_t)(s - name);
	s = repl_session_skip_blank(s);
	if (*s == '(') {
		s = repl_session_skip_blank(s + 1);
		if (*s != 'i')
			return SYM_NONE;
		s = repl_session_skip_blank(s + 1);
		if (*s != ')')
			return SYM_NONE;
		s = repl_session_skip_blank(s + 1);
		*paper = true;
	}
	bool define = strncmp(s, ":=", 2) == 0 || (s[0] == '=' && s[1] != '=');
	if (!define)
		return SYM_NONE;
	*paper = *paper && s[0] == ':';
	return sym_lookup(repl_session_syms(r), name, len);
}

void repl_session_forget_unit(Repl *r, const Unit *u)
{
	for (size_t i = 0; i < u->ndefs; i++)
		scope_forget(r->scope, u->defs[i].name);
}

/* An input, kept or refused (repl_impl.h). */
bool repl_session_take_input(Repl *r, Source *src, Flavor f, bool replace,
			     bool *more)
{
	Buf cap = {0};
	Diag d = {.capture = &cap};
	bool paper = false;
	Sym name = replace ? defined_name(r, src->text, &paper) : SYM_NONE;
	if (paper)
		f = FLAVOR_CRASP;
	const Def *old_def = name == SYM_NONE
				     ? NULL
				     : scope_lookup_local(r->scope, name);
	Def old = old_def ? *old_def : (Def){0};
	if (old_def)
		scope_forget(r->scope, name);
	Unit u = {0};
	bool ok = f == FLAVOR_TL ? tl_parse_input(r->scope, &d, src, &u)
				 : crasp_parse_input(r->scope, &d, src, f, &u);
	if (!ok) {
		repl_session_forget_unit(r, &u);
		if (old_def)
			scope_define(r->scope, &old);
		unit_free(&u);
		source_free(src);
		if (more && d.at_eof && d.unclosed) {
			*more = true;
		} else {
			fputs(cap.data ? cap.data : "", stderr);
			r->failed = true;
		}
		buf_free(&cap);
		return false;
	}
	buf_free(&cap);
	VEC_PUSH(r->sources, src);
	if (old_def) {
		size_t j = 0;
		for (size_t i = 0; i < r->defs.len; i++)
			if (r->defs.data[i].name != name)
				r->defs.data[j++] = r->defs.data[i];
		r->defs.len = j;
	}
	for (size_t i = 0; i < u.ndefs; i++)
		VEC_PUSH(r->defs, u.defs[i]);
	if (u.output != NODE_NONE)
		r->last = u.output;
	show_unit(r, &u);
	unit_free(&u);
	return true;
}

char *repl_session_alphabet(const Repl *r)
{
	VEC(Node) roots = {0};
	for (size_t i = 0; i < r->defs.len; i++)
		VEC_PUSH(roots, r->defs.data[i].node);
	if (r->last != NODE_NONE)
		VEC_PUSH(roots, r->last);
	Alphabet a;
	alphabet_init(&a, r->store, roots.data, roots.len, r->alphabet);
	VEC_FREE(roots);
	Buf b = {0};
	for (size_t i = 0; i < a.n; i++) {
		if (i)
			buf_putc(&b, ',');
		buf_puts(&b, sym_name(a.syms, a.letters[i]));
	}
	alphabet_free(&a);
	return b.len ? buf_take(&b) : NULL;
}
