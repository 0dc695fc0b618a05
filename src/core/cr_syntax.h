/* cr_syntax -- the token and tree level of .cr files (the Python C-RASP
 * interpreter of coli-saar/c-rasp).
 *
 * A .cr statement is read twice into one CrTree: once as the
 * interpreter's ANTLR parser groups it ("peer", cr_peer.h: `!` takes
 * everything up to the end of the Boolean expression, `+` binds tighter
 * than `-`, `k * C + D` is k * (C + D), `#` counts the whole Boolean
 * expression after it, `x if c else y if d else z` nests to the left),
 * and once with tally's
 * own precedence ("conventional": loosest first the conditional, `||`,
 * `&&`, `!`, comparisons, `+ -`, `k *`, then the prefix `#`, as in
 * tally-logic(7)).  The trees are untyped, as in the interpreter: what a
 * name or a subtree means is decided when it is lowered (cr_parse.c).
 *
 * Ownership: a CrTree owns its node and token arrays; node 0 is "none".
 * Syms are interned in the SymTab given to cr_lex.
 */
#ifndef TALLY_CR_SYNTAX_H
#define TALLY_CR_SYNTAX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "core/store.h"
#include "base/vec.h"

typedef enum {
	CT_EOF, CT_NL, CT_IMPORT, CT_VAR, CT_STR, CT_INT, CT_TRUE, CT_FALSE,
	CT_IF, CT_ELSE, CT_MIN, CT_MAX, CT_AND, CT_OR, CT_NOT,
	CT_LT, CT_LE, CT_EQ, CT_NE, CT_GE, CT_GT, /* in Rel order */
	CT_ASSIGN, CT_PLUS, CT_MINUS, CT_TIMES, CT_COUNT, CT_LPAREN,
	CT_RPAREN, CT_LBRACK, CT_RBRACK, CT_COMMA, CT_QUESTION, CT_COLON,
} CrTokKind;

typedef struct {
	CrTokKind kind;
	size_t start, end; /* byte offsets; a string's include the quotes */
	Sym sym;           /* CT_VAR: the name; CT_STR: the text inside */
} CrTok;

typedef enum {
	CN_NONE, CN_STR, CN_NAME, CN_INT, CN_TRUE, CN_FALSE,
	CN_NOT, CN_AND, CN_OR, CN_CMP,
	CN_COUNT, CN_GCOUNT, CN_ADD, CN_SUB, CN_MUL, CN_MIN, CN_MAX, CN_IF,
} CrKind;

typedef struct {
	CrKind kind;
	Rel rel;          /* CN_CMP */
	uint32_t kid[3];  /* IF: then, condition, else; MUL: INT, operand */
	size_t op;        /* the operator token's offset (a leaf's token) */
	size_t tok;       /* a leaf's token index */
	Sym sym;          /* STR, NAME; GCOUNT: the guard */
} CrNode;

typedef struct {
	VEC(CrTok) toks;   /* the whole file, ending in CT_EOF */
	VEC(CrNode) nodes; /* nodes.data[0] is unused */
} CrTree;

/* Tokenises src into a tree without nodes but node 0 ("none"); false
 * after a caret diagnostic. */
bool cr_lex(CrTree *t, const Source *src, SymTab *syms, Diag *d);
void cr_tree_free(CrTree *t);

/* Parses the right side of an assignment starting at token *pos (which
 * is advanced past it) to the statement's end with tally's precedence;
 * returns its root, or 0, silently: the interpreter's grouping
 * (cr_peer.h) decides what is a .cr program. */
uint32_t cr_conv_rhs(CrTree *t, size_t *pos, const Source *src);

/* The subtree fully parenthesised, in .cr syntax. */
void cr_tree_print(const CrTree *t, const Source *src, uint32_t n, Buf *out);

/* Offset of the operator at the first place where the two trees group
 * differently (pre-order), or the root's operator. */
size_t cr_tree_diff(const CrTree *t, uint32_t a, uint32_t b);

const char *cr_tok_name(CrTokKind k);

#endif
