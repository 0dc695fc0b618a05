/* parse -- the TL[#] and C-RASP parsers and their shared expression parser.
 *
 * Both languages share one expression grammar (logic/tl.ebnf and
 * logic/crasp.ebnf): precedence climbing over the INFIX table of
 * logic/ops.def, with the sort (Boolean / integer) checked at every
 * operator.  A syntax error reports one caret diagnostic and returns
 * false; no recovery.  Parsed definitions are added to the Scope and to
 * the Unit; nodes land in the Scope's Store.
 */
#ifndef TALLY_PARSE_H
#define TALLY_PARSE_H

#include <setjmp.h>
#include <stdbool.h>

#include "core/lex.h"
#include "core/unit.h"

/* Deeper nesting than this is a diagnostic, not a stack overflow. */
#define PARSE_MAX_NESTING 1000

typedef enum {
	FLAVOR_TL,    /* formulas with let-definitions separated by ';' */
	FLAVOR_CRASP, /* compact and paper-form programs, one per line */
	FLAVOR_CR,    /* .cr files of the Python C-RASP interpreter */
} Flavor;

typedef struct {
	Lexer lx;
	Token tok;
	Flavor flavor;
	Scope *scope;
	Store *store;
	Unit *unit;
	int nesting;
	Sym defining; /* name being defined (cycle diagnostics) */
	bool partial; /* integer definitions alone are a complete input */
	jmp_buf fail;
} Parser;

typedef struct {
	Node node;
	size_t at; /* byte offset where the expression starts */
} Expr;

/* tl_parse.c: the shared machinery */
void parser_init(Parser *p, Flavor f, Scope *sc, Diag *d, const Source *src,
		 Unit *u);
void parser_advance(Parser *p);
_Noreturn void parser_fail(Parser *p, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void parser_expect(Parser *p, TokKind k, const char *context);
Expr parse_expr(Parser *p, int minprec);
Expr parser_need(Parser *p, Expr e, Sort want);
void parser_define(Parser *p, Sym name, size_t at, Node node);
/* Fails with "'Y' is a keyword ..." when the current token, where a
 * definition's name belongs, is a word keyword; returns otherwise. */
void parser_keyword_name(Parser *p);
/* Sets u->output to the last Boolean definition when no formula or
 * `output` line chose one, else (when u->terms) to the last definition;
 * false (with a diagnostic) when there is none. */
bool parser_finish(Parser *p);

bool tl_parse(Scope *sc, Diag *d, const Source *src, Unit *out);
/* crasp_parse.c */
bool crasp_parse(Scope *sc, Diag *d, const Source *src, Flavor f, Unit *out);
/* The REPL's inputs: as tl_parse and crasp_parse, but an input that
 * defines only integer terms is complete (out->output stays NODE_NONE). */
bool tl_parse_input(Scope *sc, Diag *d, const Source *src, Unit *out);
bool crasp_parse_input(Scope *sc, Diag *d, const Source *src, Flavor f,
		       Unit *out);

#endif
