/* crasp_parse.c -- C-RASP programs: compact and paper form (FLAVOR_CRASP)
 * and the .cr files of the Python interpreter (FLAVOR_CR).
 *
 * Expressions are parsed by the shared expression parser (tl_parse.c);
 * this file reads the statement structure.  Productions from
 * logic/crasp.ebnf.  The .cr files have their own reader (cr_parse.c).
 *
 * A program is straight-line: a name must be defined before it is used.
 * A first pass lists every statement's defined name and the names its
 * right side mentions, so that a use of a later definition is reported
 * as such, or as a cycle with its path, instead of as an unknown name.
 */
#include <config.h>
#include "core/parse.h"

#include <stdlib.h>
#include <string.h>

#include "core/cr.h"
#include "base/mem.h"
#include "base/vec.h"

typedef struct {
	Sym sym;
	size_t at;
} Use;

typedef struct {
	Sym name;
	size_t at;         /* the name's offset */
	size_t uses, nuses; /* its right side's names: Scan.uses[uses..] */
} Head;

typedef struct {
	VEC(Head) heads; /* in source order */
	VEC(Use) uses;
	/* By Sym: the first statement defining it (SIZE_MAX: none); by
	 * statement: the next one defining the same name.  Lookups were
	 * linear scans, quadratic on 100,000-line programs. */
	size_t *first, nfirst, *next_same;
} Scan;

/* Token after the defined name that starts a right side: ":=" or "=",
 * possibly after the paper form's "(i)". */
static bool scan_head(Lexer *lx, Token first, Head *h)
{
	if (first.kind != TK_IDENT)
		return false;
	Token t = lex_next(lx);
	if (t.kind == TK_LPAREN) {
		Token i = lex_next(lx), close = lex_next(lx);
		if (i.kind != TK_IDENT || close.kind != TK_RPAREN)
			return false;
		t = lex_next(lx);
	}
	if (t.kind != TK_DEFINE && t.kind != TK_EQ)
		return false;
	h->name = first.sym;
	h->at = first.start;
	return true;
}

static void index_heads(Scan *sc)
{
	size_t n = sc->heads.len;
	sc->nfirst = 0;
	for (size_t i = 0; i < n; i++)
		if (sc->heads.data[i].name >= sc->nfirst)
			sc->nfirst = (size_t)sc->heads.data[i].name + 1;
	sc->first = xmalloc((sc->nfirst ? sc->nfirst : 1) * sizeof *sc->first);
	sc->next_same = xmalloc((n ? n : 1) * sizeof *sc->next_same);
	for (size_t i = 0; i < sc->nfirst; i++)
		sc->first[i] = SIZE_MAX;
	for (size_t i = n; i-- > 0;) {
		Sym name = sc->heads.data[i].name;
		sc->next_same[i] = sc->first[name];
		sc->first[name] = i;
	}
}

/* The first pass.  Lexical errors are left to the real parse (which
 * reports them in source order): the scan then stops where it is. */
static void scan_program(const Source *src, Flavor f, SymTab *syms, Scan *sc)
{
	Buf quiet = {0};
	Diag d = {.capture = &quiet};
	jmp_buf fail;
	Lexer lx;
	lex_init(&lx, src, &d, syms, &fail);
	lx.newlines = true;
	if (setjmp(fail))
		goto out;
	for (;;) {
		Token t = lex_next(&lx);
		if (t.kind == TK_EOF)
			break;
		if (t.kind == TK_NEWLINE || t.kind == TK_SEMI)
			continue;
		Head h = {.uses = sc->uses.len};
		bool head = scan_head(&lx, t, &h);
		for (t = lex_next(&lx); t.kind != TK_EOF &&
					t.kind != TK_NEWLINE && t.kind != TK_SEMI;
		     t = lex_next(&lx)) {
			const char *name = t.kind == TK_IDENT
						   ? sym_name(syms, t.sym)
						   : "";
			/* the paper form's position variables are not uses */
			bool position = f == FLAVOR_CRASP &&
					(strcmp(name, "i") == 0 ||
					 strcmp(name, "j") == 0);
			Use u = {t.sym, t.start};
			if (head && t.kind == TK_IDENT && !position)
				VEC_PUSH(sc->uses, u);
		}
		if (head) {
			h.nuses = sc->uses.len - h.uses;
			VEC_PUSH(sc->heads, h);
		}
		if (t.kind == TK_EOF)
			break;
	}
out:
	lex_free(&lx);
	buf_free(&quiet);
	index_heads(sc);
}

static void scan_free(Scan *sc)
{
	VEC_FREE(sc->heads);
	VEC_FREE(sc->uses);
	free(sc->first);
	free(sc->next_same);
}

/* The index of the first statement at or after `from` defining name. */
static size_t head_of(const Scan *sc, size_t from, Sym name)
{
	size_t i = name < sc->nfirst ? sc->first[name] : SIZE_MAX;
	while (i != SIZE_MAX && i < from)
		i = sc->next_same[i];
	return i;
}

/* A path of later statements from statement `from` back to the name
 * `target`, breadth first; writes "B -> C -> A" into out. */
static bool cycle_path(const Scan *sc, SymTab *syms, size_t from, Sym target,
		       Buf *out)
{
	size_t n = sc->heads.len;
	size_t *parent = xmalloc(n * sizeof *parent);
	for (size_t i = 0; i < n; i++)
		parent[i] = SIZE_MAX;
	VEC(size_t) queue = {0};
	VEC_PUSH(queue, from);
	parent[from] = from;
	size_t found = SIZE_MAX;
	for (size_t q = 0; q < queue.len && found == SIZE_MAX; q++) {
		const Head *h = &sc->heads.data[queue.data[q]];
		for (size_t u = h->uses; u < h->uses + h->nuses; u++) {
			Sym sym = sc->uses.data[u].sym;
			if (sym == target) {
				found = queue.data[q];
				break;
			}
			size_t next = head_of(sc, 0, sym);
			if (next != SIZE_MAX && parent[next] == SIZE_MAX) {
				parent[next] = queue.data[q];
				VEC_PUSH(queue, next);
			}
		}
	}
	if (found != SIZE_MAX) {
		VEC(size_t) path = {0};
		for (size_t i = found;; i = parent[i]) {
			VEC_PUSH(path, i);
			if (i == from)
				break;
		}
		for (size_t i = path.len; i-- > 0;)
			buf_printf(out, "%s -> ",
				   sym_name(syms, sc->heads.data[path.data[i]].name));
		buf_puts(out, sym_name(syms, target));
		VEC_FREE(path);
	}
	VEC_FREE(queue);
	free(parent);
	return found != SIZE_MAX;
}

/* A long cycle "A -> B -> ... -> A" shortened to its first and last
 * steps, cut at arrows, to fit msg. */
static void elide_path(char *msg, size_t size, const char *path)
{
	size_t n = strlen(path), keep = (size - 16) / 2;
	if (n < size) {
		snprintf(msg, size, "%s", path);
		return;
	}
	size_t head = keep;
	while (head > 0 && strncmp(path + head, " -> ", 4) != 0)
		head--;
	size_t tail = n - keep;
	while (tail < n && strncmp(path + tail, " -> ", 4) != 0)
		tail++;
	snprintf(msg, size, "%.*s -> ...%s", (int)head, path, path + tail);
}

/* Before the statement at `at` is parsed: a name it uses that is not
 * defined yet but is defined later is a forward reference or a cycle. */
static void check_order(Parser *p, const Scan *sc, size_t *next, size_t at)
{
	while (*next < sc->heads.len && sc->heads.data[*next].at < at)
		(*next)++;
	if (*next == sc->heads.len || sc->heads.data[*next].at != at)
		return;
	size_t self = *next;
	const Head *h = &sc->heads.data[self];
	for (size_t u = h->uses; u < h->uses + h->nuses; u++) {
		Use use = sc->uses.data[u];
		if (use.sym == h->name ||
		    scope_lookup_local(p->scope, use.sym))
			continue; /* self-reference: the parser reports it */
		size_t later = head_of(sc, self + 1, use.sym);
		if (later == SIZE_MAX)
			continue; /* unknown or prelude: the parser decides */
		int line, col;
		diag_position(p->lx.src, sc->heads.data[later].at, &line, &col);
		Buf path = {0};
		buf_printf(&path, "%s -> ", sym_name(p->lx.syms, h->name));
		if (cycle_path(sc, p->lx.syms, later, h->name, &path)) {
			char msg[600];
			elide_path(msg, sizeof msg, path.data);
			buf_free(&path);
			parser_fail(p, use.at,
				    "cycle in the definitions: %s ('%s' is "
				    "defined at %d:%d)",
				    msg, sym_name(p->lx.syms, use.sym), line,
				    col);
		}
		buf_free(&path);
		parser_fail(p, use.at,
			    "'%s' is used before its definition at %d:%d "
			    "(a program defines every name before using it)",
			    sym_name(p->lx.syms, use.sym), line, col);
	}
}

/* statement = NAME ["(" "i" ")"] (":=" | "=") expr | "output" NAME */
static void parse_statement(Parser *p)
{
	if (p->tok.kind == TK_OUTPUT) {
		parser_advance(p);
		const Def *d = p->tok.kind == TK_IDENT
				       ? scope_lookup(p->scope, p->tok.sym)
				       : NULL;
		if (!d)
			parser_fail(p, p->tok.start,
				    "expected a defined name after 'output', "
				    "found %s",
				    lex_describe(&p->lx, &p->tok));
		if (!p->unit->terms && !store_is_bool(p->store, d->node))
			parser_fail(p, p->tok.start,
				    "the output must be a Boolean definition, "
				    "'%s' is a count",
				    sym_name(p->lx.syms, p->tok.sym));
		p->unit->output = d->node;
		p->unit->output_name = p->tok.sym;
		parser_advance(p);
		return;
	}
	/* the .cr dialect has keywords of its own (crasp_parse of FLAVOR_CR
	 * decides what its names may be) */
	if (p->flavor == FLAVOR_CRASP)
		parser_keyword_name(p);
	if (p->tok.kind != TK_IDENT)
		parser_fail(p, p->tok.start,
			    "expected a definition 'NAME := ...', found %s",
			    lex_describe(&p->lx, &p->tok));
	Sym name = p->tok.sym;
	size_t at = p->tok.start;
	parser_advance(p);
	if (p->tok.kind == TK_LPAREN) { /* paper form: NAME(i) := ... */
		parser_advance(p);
		if (p->tok.kind != TK_IDENT ||
		    strcmp(sym_name(p->lx.syms, p->tok.sym), "i") != 0)
			parser_fail(p, p->tok.start,
				    "expected 'i' in a paper-form definition "
				    "NAME(i) := ..., found %s",
				    lex_describe(&p->lx, &p->tok));
		parser_advance(p);
		parser_expect(p, TK_RPAREN, "after NAME(i");
	}
	if (p->tok.kind != TK_DEFINE && p->tok.kind != TK_EQ)
		parser_fail(p, p->tok.start, "expected ':=' after '%s', found %s",
			    sym_name(p->lx.syms, name),
			    lex_describe(&p->lx, &p->tok));
	parser_advance(p);
	p->defining = name;
	Node n = parse_expr(p, 0).node;
	p->defining = SYM_NONE;
	parser_define(p, name, at, n);
}

/* program = { [statement] (NEWLINE | ";") } EOF */
static bool parse_program(Scope *sc, Diag *d, const Source *src, Flavor f,
			  Unit *out, bool partial)
{
	if (f == FLAVOR_CR)
		return cr_parse(sc, d, src, CR_PREC_WARN, out);
	Parser p;
	parser_init(&p, f, sc, d, src, out);
	p.partial = partial;
	d->at_eof = false;
	Scan scan = {0};
	size_t next = 0;
	scan_program(src, f, p.lx.syms, &scan);
	if (setjmp(p.fail)) {
		scan_free(&scan);
		lex_free(&p.lx);
		return false;
	}
	parser_advance(&p);
	while (p.tok.kind != TK_EOF) {
		if (p.tok.kind == TK_NEWLINE || p.tok.kind == TK_SEMI) {
			parser_advance(&p);
			continue;
		}
		check_order(&p, &scan, &next, p.tok.start);
		parse_statement(&p);
		if (p.tok.kind != TK_EOF && p.tok.kind != TK_NEWLINE &&
		    p.tok.kind != TK_SEMI)
			parser_fail(&p, p.tok.start,
				    "expected the end of the definition, found "
				    "%s",
				    lex_describe(&p.lx, &p.tok));
	}
	/* The output is the last Boolean definition unless `output` said
	 * otherwise (an `output` line sets it before we get here). */
	bool ok = true;
	bool any_bool = out->output != NODE_NONE;
	for (size_t i = 0; i < out->ndefs && !any_bool; i++)
		any_bool = store_is_bool(p.store, out->defs[i].node);
	if (!any_bool && out->ndefs > 0 && !partial && !out->terms) {
		const Def *last = &out->defs[out->ndefs - 1];
		diag_error(d, src, last->at,
			   "the program has no Boolean definition to accept "
			   "with ('%s' is a count)",
			   sym_name(p.lx.syms, last->name));
		ok = false;
	} else {
		ok = parser_finish(&p);
	}
	scan_free(&scan);
	lex_free(&p.lx);
	return ok;
}

bool crasp_parse(Scope *sc, Diag *d, const Source *src, Flavor f, Unit *out)
{
	return parse_program(sc, d, src, f, out, false);
}

bool crasp_parse_input(Scope *sc, Diag *d, const Source *src, Flavor f,
		       Unit *out)
{
	return parse_program(sc, d, src, f, out, true);
}
