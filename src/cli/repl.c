/* repl.c -- the REPL's session: its store, inputs and definitions, the
 * values on the example word, lines, completion and the loop on stdin
 * (see repl.h; the : commands are repl_commands.c). */
#include <config.h>
#include "cli/repl.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/mem.h"
#include "base/status.h"
#include "cli/lineedit.h"
#include "cli/repl_commands.h"
#include "cli/repl_impl.h"
#include "core/prelude.h"
#include "machine/eval.h"

#define PROMPT "tally> "
#define PROMPT_MORE "  ...> "

/* ---- the session's store -------------------------------------------- */

static void open_store(Repl *r)
{
	r->store = store_new();
	r->scope = prelude_scope_new(r->store);
	r->lw = lower_new(r->store);
	r->last = NODE_NONE;
}

static void close_store(Repl *r)
{
	lower_free(r->lw);
	scope_free(r->scope);
	store_free(r->store);
	for (size_t i = 0; i < r->sources.len; i++)
		source_free(r->sources.data[i]);
	VEC_FREE(r->sources);
	VEC_FREE(r->defs);
}

Repl *repl_new(bool interactive)
{
	Repl *r = xcalloc(1, sizeof *r);
	r->interactive = interactive;
	r->examples = true;
	limit_init(&r->lim);
	open_store(r);
	return r;
}

void repl_set_limits(Repl *r, const Limits *lim)
{
	r->lim = *lim;
}

void repl_free(Repl *r)
{
	if (!r)
		return;
	close_store(r);
	free(r->word);
	free(r->alphabet);
	buf_free(&r->pending);
	free(r);
}

SymTab *repl_syms(Repl *r)
{
	return store_syms(r->store);
}

void repl_fail(Repl *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("tally: error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	r->failed = true;
}

void repl_reset_store(Repl *r)
{
	close_store(r);
	open_store(r);
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
		items[n++] = (Item){sym_name(repl_syms(r), u->defs[i].name),
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

const char *repl_skip_blank(const char *s)
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
	s = repl_skip_blank(s);
	if (strncmp(s, "let", 3) == 0 && (s[3] == ' ' || s[3] == '\t'))
		s = repl_skip_blank(s + 3);
	if (!ident_start(*s))
		return SYM_NONE;
	const char *name = s;
	while (ident_start(*s) || isdigit((unsigned char)*s))
		s++;
	size_t len = (size_t)(s - name);
	s = repl_skip_blank(s);
	if (*s == '(') {
		s = repl_skip_blank(s + 1);
		if (*s != 'i')
			return SYM_NONE;
		s = repl_skip_blank(s + 1);
		if (*s != ')')
			return SYM_NONE;
		s = repl_skip_blank(s + 1);
		*paper = true;
	}
	bool define = strncmp(s, ":=", 2) == 0 || (s[0] == '=' && s[1] != '=');
	if (!define)
		return SYM_NONE;
	*paper = *paper && s[0] == ':';
	return sym_lookup(repl_syms(r), name, len);
}

void repl_forget_unit(Repl *r, const Unit *u)
{
	for (size_t i = 0; i < u->ndefs; i++)
		scope_forget(r->scope, u->defs[i].name);
}

/* An input, kept or refused (repl_impl.h). */
bool repl_take_input(Repl *r, Source *src, Flavor f, bool replace,
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
		repl_forget_unit(r, &u);
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

static void end_pending(Repl *r)
{
	r->pending.len = 0;
	r->continuing = false;
}

/* The pending input, complete or not (force: report it unfinished). */
static void try_pending(Repl *r, bool force)
{
	Source *src = source_new("<stdin>", r->pending.data, r->pending.len);
	src->line_base = r->pending_line - 1;
	bool more = false;
	repl_take_input(r, src, FLAVOR_TL, true, force ? NULL : &more);
	if (more)
		r->continuing = true;
	else
		end_pending(r);
}

/* ---- lines ---------------------------------------------------------- */

/* Blank lines and lines holding only a comment carry no input. */
static bool is_blank(const char *s)
{
	s = repl_skip_blank(s);
	return !*s || strncmp(s, "--", 2) == 0 || strncmp(s, "//", 2) == 0;
}

void repl_line(Repl *r, const char *line)
{
	r->line++;
	if (r->continuing) {
		if (is_blank(line)) { /* an empty line ends it, unfinished */
			try_pending(r, true);
		} else {
			buf_putc(&r->pending, '\n');
			buf_puts(&r->pending, line);
			try_pending(r, false);
		}
	} else if (is_blank(line)) {
		return;
	} else if (*repl_skip_blank(line) == ':') {
		repl_commands_run(r, line);
	} else {
		r->pending.len = 0;
		buf_puts(&r->pending, line);
		r->pending_line = r->line;
		try_pending(r, false);
	}
	fflush(stdout);
}

void repl_abandon(Repl *r)
{
	end_pending(r);
}

const char *repl_prompt(const Repl *r)
{
	return r->continuing ? PROMPT_MORE : PROMPT;
}

bool repl_done(const Repl *r)
{
	return r->quit;
}

int repl_finish(Repl *r)
{
	if (r->continuing)
		try_pending(r, true);
	fflush(stdout);
	return r->failed ? EXIT_USAGE : EXIT_YES;
}

/* ---- completion ----------------------------------------------------- */

typedef VEC(char *) Words;

static void add_def_name(const Def *d, void *arg)
{
	Repl *r = ((void **)arg)[0];
	Words *w = ((void **)arg)[1];
	VEC_PUSH(*w, xstrdup(sym_name(repl_syms(r), d->name)));
}

/* Letters as Q_x: identifier-like ones and single punctuation marks. */
static void add_letters(Repl *r, Words *w)
{
	unsigned char *seen = NULL;
	size_t cap = 0;
	for (size_t i = 0; i < r->defs.len; i++) {
		size_t n;
		Sym *ls = store_letters(r->store, r->defs.data[i].node, &n);
		for (size_t j = 0; j < n; j++) {
			if (ls[j] >= cap) {
				size_t old = cap;
				mem_grow((void **)&seen, &cap, ls[j] + 1, 1);
				memset(seen + old, 0, cap - old);
			}
			const char *name = sym_name(repl_syms(r), ls[j]);
			bool ident = true;
			for (const char *p = name; *p; p++)
				ident = ident && (isalnum((unsigned char)*p) ||
						  *p == '_');
			bool punct = strlen(name) == 1 &&
				     ispunct((unsigned char)*name);
			if (seen[ls[j]] || !(ident || punct))
				continue;
			seen[ls[j]] = 1;
			char *q = xmalloc(strlen(name) + 3);
			sprintf(q, "Q_%s", name);
			VEC_PUSH(*w, q);
		}
		free(ls);
	}
	free(seen);
}

char **repl_complete(void *repl, const char *line, int start)
{
	Repl *r = repl;
	Words w = {0};
	const char *first = repl_skip_blank(line);
	bool at_first = first - line >= start;
	bool command = *first == ':';
	if (command && !at_first) {
		ReplArg kind = repl_commands_arg(first + 1,
						 strcspn(first + 1, " \t"));
		if (kind == REPL_ARG_FILE)
			return NULL; /* file names */
		if (kind == REPL_ARG_COMMAND)
			for (size_t i = 0; i < repl_commands_count(); i++)
				VEC_PUSH(w, xstrdup(repl_commands_name(i)));
	}
	if (at_first)
		for (size_t i = 0; i < repl_commands_count(); i++) {
			const char *name = repl_commands_name(i);
			char *s = xmalloc(strlen(name) + 2);
			sprintf(s, ":%s", name);
			VEC_PUSH(w, s);
		}
	void *arg[2] = {r, &w};
	scope_each(r->scope, add_def_name, arg);
	if (scope_fallback(r->scope))
		scope_each(scope_fallback(r->scope), add_def_name, arg);
	add_letters(r, &w);
	VEC_PUSH(w, NULL);
	return w.data;
}

/* ---- the session on stdin ------------------------------------------- */

static char *history_path(void)
{
	const char *env = getenv("TALLY_HISTORY");
	if (env)
		return *env ? xstrdup(env) : NULL;
	const char *home = getenv("HOME");
	if (!home || !*home)
		return NULL;
	char *p = xmalloc(strlen(home) + sizeof "/.tally_history");
	sprintf(p, "%s/.tally_history", home);
	return p;
}

int repl_run(bool echo, const Limits *lim)
{
	bool tty = isatty(STDIN_FILENO);
	Repl *r = repl_new(tty);
	/* Commands run in this process too (the short ones, and the long
	 * ones when no child can be started): a limit ends the command,
	 * never the session. */
	limit_keep_process();
	if (lim)
		repl_set_limits(r, lim);
	char *hist = history_path();
	lineedit_init(tty, hist, repl_complete, r);
	free(hist);
	if (tty)
		printf("tally %s: type a formula or a definition; :help lists "
		       "the commands, Ctrl-D leaves.\n",
		       PACKAGE_VERSION);
	while (!repl_done(r)) {
		bool interrupted;
		char *line = lineedit_read(repl_prompt(r), &interrupted);
		if (!line && interrupted) {
			repl_abandon(r);
			continue;
		}
		if (!line)
			break;
		lineedit_add_history(line);
		if (echo && !tty) {
			printf("%s%s\n", repl_prompt(r), line);
			fflush(stdout); /* before any diagnostic on stderr */
		}
		repl_line(r, line);
		free(line);
	}
	int status = repl_finish(r);
	lineedit_end();
	repl_free(r);
	return tty ? EXIT_YES : status;
}
