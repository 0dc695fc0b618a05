/* lex -- the tokenizer shared by the TL[#] and C-RASP parsers.
 *
 * Spellings come from logic/ops.def.  Locations are byte offsets into the
 * Source.  On a lexical error the lexer reports a caret diagnostic and
 * longjmps to *fail, which the parser owns (errors never cross a module
 * boundary as a longjmp).  Letter and identifier tokens carry an interned
 * Sym; the Lexer owns nothing but its scratch buffer.
 */
#ifndef TALLY_LEX_H
#define TALLY_LEX_H

#include <setjmp.h>
#include <stdbool.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/sym.h"

typedef enum {
	TK_EOF,
	TK_NEWLINE, /* only when Lexer.newlines is set (C-RASP) */
	TK_IDENT,
	TK_NUMBER,
	TK_LETTER, /* Q_a, 'x' or "x": sym is the letter */
/* punctuation and keywords: spellings in logic/ops.def */
	TK_LPAREN, TK_RPAREN, TK_LBRACK, TK_RBRACK, TK_COMMA, TK_SEMI,
	TK_QUESTION, TK_COLON, TK_DEFINE, TK_IFF, TK_IMPLIES, TK_OR, TK_AND,
	TK_NOT, TK_LT, TK_LE, TK_EQ, TK_NE, TK_GE, TK_GT, TK_PLUS, TK_MINUS,
	TK_STAR, TK_COUNT, TK_FCOUNT, TK_TRUE, TK_FALSE, TK_LET, TK_MIN,
	TK_MAX, TK_MOD, TK_PREV, TK_OUTPUT, TK_IF, TK_ELSE,
	TK__COUNT
} TokKind;

typedef struct {
	TokKind kind;
	size_t start, end; /* byte offsets */
	Sym sym;           /* TK_IDENT, TK_LETTER */
	bool space_before; /* whitespace separates it from the previous token */
} Token;

typedef struct {
	const Source *src;
	Diag *diag;
	SymTab *syms;
	jmp_buf *fail;
	size_t pos;
	bool newlines; /* report line ends as TK_NEWLINE */
	Buf scratch;
} Lexer;

void lex_init(Lexer *lx, const Source *src, Diag *d, SymTab *syms,
	      jmp_buf *fail);
void lex_free(Lexer *lx);
Token lex_next(Lexer *lx);
/* The canonical spelling of a token kind, for messages ("']'"). */
const char *lex_kind_name(TokKind k);
/* Reports at byte offset `at` and longjmps to the failure point. */
_Noreturn void lex_fail(Lexer *lx, size_t at, bool at_eof, const char *fmt,
			...) __attribute__((format(printf, 4, 5)));
/* "found 'x'" / "found end of input" text for a token (static buffer). */
const char *lex_describe(const Lexer *lx, const Token *t);

#endif
