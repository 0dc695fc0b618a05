/* crasp_parse.c -- C-RASP programs: compact and paper form (FLAVOR_CRASP)
 * and the .cr files of the Python interpreter (FLAVOR_CR).
 *
 * Expressions are parsed by the shared expression parser (tl_parse.c);
 * this file reads the statement structure.  Productions from
 * logic/crasp.ebnf.
 */
#include <config.h>
#include "parse.h"

#include <string.h>

/* "#import" NAME: only the documented mappings of the .cr interpreter's
 * predicates are known: pos_even (0-based even = 1-based odd positions)
 * is MOD(2, 1); pred is the predecessor guard, see parse.h. */
static void parse_import(Parser *p)
{
	parser_advance(p); /* '#' */
	if (p->tok.kind != TK_IDENT ||
	    strcmp(sym_name(p->lx.syms, p->tok.sym), "import") != 0)
		parser_fail(p, p->tok.start,
			    "expected 'import' after '#' at the start of a "
			    "statement, found %s",
			    lex_describe(&p->lx, &p->tok));
	parser_advance(p);
	if (p->tok.kind != TK_IDENT)
		parser_fail(p, p->tok.start,
			    "expected a predicate name after #import, found %s",
			    lex_describe(&p->lx, &p->tok));
	const char *name = sym_name(p->lx.syms, p->tok.sym);
	if (strcmp(name, "pos_even") == 0) {
		if (!scope_lookup_local(p->scope, p->tok.sym))
			parser_define(p, p->tok.sym, p->tok.start,
				      store_make_mod(p->store, 2, 1));
	} else if (strcmp(name, "pred") != 0) {
		parser_fail(p, p->tok.start,
			    "#import of the Python predicate '%s' is not "
			    "supported (only pos_even and pred are)",
			    name);
	}
	parser_advance(p);
}

/* statement = NAME ["(" "i" ")"] (":=" | "=") expr | "output" NAME
 *           | "#import" NAME */
static void parse_statement(Parser *p)
{
	if (p->flavor == FLAVOR_CR && p->tok.kind == TK_COUNT) {
		parse_import(p);
		return;
	}
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
		if (!store_is_bool(p->store, d->node))
			parser_fail(p, p->tok.start,
				    "the output must be a Boolean definition, "
				    "'%s' is a count",
				    sym_name(p->lx.syms, p->tok.sym));
		p->unit->output = d->node;
		p->unit->output_name = p->tok.sym;
		parser_advance(p);
		return;
	}
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
bool crasp_parse(Scope *sc, Diag *d, const Source *src, Flavor f, Unit *out)
{
	Parser p;
	parser_init(&p, f, sc, d, src, out);
	d->at_eof = false;
	if (setjmp(p.fail)) {
		lex_free(&p.lx);
		return false;
	}
	parser_advance(&p);
	while (p.tok.kind != TK_EOF) {
		if (p.tok.kind == TK_NEWLINE || p.tok.kind == TK_SEMI) {
			parser_advance(&p);
			continue;
		}
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
	bool ok = parser_finish(&p);
	lex_free(&p.lx);
	return ok;
}
