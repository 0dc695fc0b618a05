#include <config.h>
#include "core/lex.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct {
	TokKind kind;
	const char *text;
} Spelling;

static const Spelling spellings[] = {
#define SPELLING(tk, text) {tk, text},
#include "ops.def"
#undef SPELLING
};
enum { NSPELLINGS = sizeof spellings / sizeof spellings[0] };

static bool is_word(const char *t)
{
	return isalpha((unsigned char)t[0]);
}

const char *lex_kind_name(TokKind k)
{
	switch (k) {
	case TK_EOF: return "end of input";
	case TK_NEWLINE: return "end of line";
	case TK_IDENT: return "a name";
	case TK_NUMBER: return "a number";
	case TK_LETTER: return "a letter";
	default: break;
	}
	for (size_t i = 0; i < NSPELLINGS; i++) /* first spelling is canonical */
		if (spellings[i].kind == k)
			return spellings[i].text;
	return "?";
}

void lex_init(Lexer *lx, const Source *src, Diag *d, SymTab *syms,
	      jmp_buf *fail)
{
	memset(lx, 0, sizeof *lx);
	lx->src = src;
	lx->diag = d;
	lx->syms = syms;
	lx->fail = fail;
}

void lex_free(Lexer *lx)
{
	buf_free(&lx->scratch);
}

_Noreturn void lex_fail(Lexer *lx, size_t at, bool at_eof, const char *fmt,
			...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	diag_error(lx->diag, lx->src, at, "%s", msg);
	lx->diag->at_eof = at_eof;
	longjmp(*lx->fail, 1);
}

const char *lex_describe(const Lexer *lx, const Token *t)
{
	static char out[96];
	if (t->kind == TK_EOF)
		return "end of input";
	if (t->kind == TK_NEWLINE)
		return "end of line";
	size_t n = t->end - t->start;
	if (n > 40)
		n = 40;
	char text[48];
	memcpy(text, lx->src->text + t->start, n);
	text[n] = '\0';
	snprintf(out, sizeof out, "'%s'%s", text,
		 t->end - t->start > 40 ? "..." : "");
	return out;
}

static int peekc(const Lexer *lx, size_t k)
{
	size_t i = lx->pos + k;
	return i < lx->src->len ? (unsigned char)lx->src->text[i] : -1;
}

static bool ident_char(int c)
{
	return c >= 0 && (isalnum(c) || c == '_');
}

/* Skips blanks and comments; returns true if any were skipped.  Stops at a
 * newline when newlines are tokens. */
static bool skip_space(Lexer *lx)
{
	size_t from = lx->pos;
	for (;;) {
		int c = peekc(lx, 0);
		if (c == '\n' && lx->newlines)
			break;
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n' ||
		    c == '\f' || c == '\v') {
			lx->pos++;
		} else if ((c == '-' && peekc(lx, 1) == '-') ||
			   (c == '/' && peekc(lx, 1) == '/')) {
			while (peekc(lx, 0) != -1 && peekc(lx, 0) != '\n')
				lx->pos++;
		} else {
			break;
		}
	}
	return lx->pos != from;
}

/* Quoted letter: 'x' or "x" with \' \" and \\ escapes; any bytes but a
 * newline inside. */
static Token lex_quoted(Lexer *lx, Token t)
{
	char q = (char)peekc(lx, 0);
	lx->pos++;
	lx->scratch.len = 0;
	for (;;) {
		int c = peekc(lx, 0);
		if (c == -1 || c == '\n')
			lex_fail(lx, t.start, c == -1,
				 "unterminated letter: expected %c to close "
				 "it, found %s",
				 q, c == -1 ? "end of input" : "end of line");
		lx->pos++;
		if (c == q)
			break;
		if (c == '\\') {
			int e = peekc(lx, 0);
			if (e != '\'' && e != '"' && e != '\\')
				lex_fail(lx, lx->pos - 1, false,
					 "unknown escape in letter: only \\', "
					 "\\\" and \\\\ are allowed");
			c = e;
			lx->pos++;
		}
		if (c == 0)
			lex_fail(lx, lx->pos - 1, false,
				 "NUL byte inside a letter");
		buf_putc(&lx->scratch, (char)c);
	}
	if (lx->scratch.len == 0)
		lex_fail(lx, t.start, false, "empty letter %c%c", q, q);
	t.kind = TK_LETTER;
	t.end = lx->pos;
	t.sym = sym_intern(lx->syms, lx->scratch.data, lx->scratch.len);
	return t;
}

static Token lex_word(Lexer *lx, Token t)
{
	while (ident_char(peekc(lx, 0)))
		lx->pos++;
	t.end = lx->pos;
	const char *w = lx->src->text + t.start;
	size_t n = t.end - t.start;
	if (n > 2 && w[0] == 'Q' && w[1] == '_') {
		t.kind = TK_LETTER;
		t.sym = sym_intern(lx->syms, w + 2, n - 2);
		return t;
	}
	/* The papers' Q_( : one punctuation character right after Q_ */
	int c = peekc(lx, 0);
	if (n == 2 && w[0] == 'Q' && w[1] == '_' && c > ' ' && c < 0x7f &&
	    !isalnum(c) && c != '\'' && c != '"') {
		lx->pos++;
		t.end = lx->pos;
		t.kind = TK_LETTER;
		char letter = (char)c;
		t.sym = sym_intern(lx->syms, &letter, 1);
		return t;
	}
	for (size_t i = 0; i < NSPELLINGS; i++)
		if (is_word(spellings[i].text) &&
		    strlen(spellings[i].text) == n &&
		    memcmp(spellings[i].text, w, n) == 0) {
			t.kind = spellings[i].kind;
			return t;
		}
	t.kind = TK_IDENT;
	t.sym = sym_intern(lx->syms, w, n);
	return t;
}

static void bad_char(Lexer *lx, size_t at)
{
	const unsigned char *p = (const unsigned char *)lx->src->text + at;
	size_t avail = lx->src->len - at;
	if (*p == 0)
		lex_fail(lx, at, false, "unexpected NUL byte");
	size_t n = *p < 0x80 ? 1 : (*p >> 5) == 6 ? 2 : (*p >> 4) == 14 ? 3
		: (*p >> 3) == 30 ? 4 : 0;
	bool valid = n > 0 && n <= avail;
	for (size_t i = 1; valid && i < n; i++)
		valid = (p[i] & 0xC0) == 0x80;
	if (!valid)
		lex_fail(lx, at, false, "invalid UTF-8 byte 0x%02X", *p);
	if (n == 1 && !isprint(*p))
		lex_fail(lx, at, false, "unexpected control character 0x%02X",
			 *p);
	lex_fail(lx, at, false, "unexpected character '%.*s'", (int)n,
		 (const char *)p);
}

Token lex_next(Lexer *lx)
{
	Token t = {.sym = SYM_NONE};
	size_t from = lx->pos;
	t.space_before = skip_space(lx);
	t.start = lx->pos;
	int c = peekc(lx, 0);
	if (c == -1) {
		/* "found end of input" points just after the last token, not
		 * at a blank line or past a trailing comment. */
		t.kind = TK_EOF;
		t.start = t.end = from;
		return t;
	}
	if (c == '\n') {
		lx->pos++;
		t.kind = TK_NEWLINE;
		t.end = lx->pos;
		return t;
	}
	if (isdigit(c)) {
		while (isdigit(peekc(lx, 0)))
			lx->pos++;
		t.kind = TK_NUMBER;
		t.end = lx->pos;
		return t;
	}
	if (c == '\'' || c == '"')
		return lex_quoted(lx, t);
	if (isalpha(c) || c == '_')
		return lex_word(lx, t);
	/* longest symbolic spelling */
	const char *p = lx->src->text + lx->pos;
	size_t avail = lx->src->len - lx->pos, best = 0;
	for (size_t i = 0; i < NSPELLINGS; i++) {
		const char *s = spellings[i].text;
		size_t n = strlen(s);
		if (s[0] != p[0] || is_word(s) || n > avail || n <= best ||
		    memcmp(s, p, n) != 0)
			continue;
		/* "#<" and "#>" are counts only when a '[' follows */
		if ((spellings[i].kind == TK_COUNT ||
		     spellings[i].kind == TK_FCOUNT) &&
		    (strcmp(s, "#<") == 0 || strcmp(s, "#>") == 0) &&
		    (n >= avail || p[n] != '['))
			continue;
		best = n;
		t.kind = spellings[i].kind;
	}
	if (best == 0)
		bad_char(lx, lx->pos);
	lx->pos += best;
	t.end = lx->pos;
	return t;
}
