/* ast -- the consistency harness's own small syntax trees of TL[#]
 * formulas: seeded random generation, near-copies and equivalent
 * rewrites of a tree, printing as a TL formula, a .crasp program or a
 * .cr program (ast_print.c), and a naive evaluator written from the
 * semantics table of logic/README.md §3 (ast_eval.c).
 *
 * The trees are the harness's own so that what an input means is known
 * without tally's parser and normaliser: letters spelled but simplified
 * away (Q_b | !Q_b) are kept, and the evaluator checks that the parsed
 * nodes mean what the text says.
 *
 * Ownership: every Tree belongs to the Pool it was made in; pool_free()
 * releases them all at once.
 */
#ifndef TALLY_CONSISTENCY_AST_H
#define TALLY_CONSISTENCY_AST_H

#include <stdbool.h>
#include <stddef.h>

#include <flint/fmpz.h>

#include "randgen.h"

typedef enum {
	/* Boolean */
	E_LETTER, E_TRUE, E_FALSE, E_NOT, E_AND, E_OR, E_IMPLIES, E_IFF,
	E_CMP, E_PREV, E_MOD,
	E_TAUT,   /* (Q_x | !Q_x): true, but x is spelled */
	E_CONTRA, /* (Q_x & !Q_x): false, but x is spelled */
	/* integer */
	E_CONST, E_COUNT, E_FCOUNT, E_ADD, E_SUB, E_SCALE, E_ITE, E_MIN,
	E_MAX,
	E_ZERO,   /* (#[Q_x] - #[Q_x]): 0, but x is spelled */
} TreeKind;

/* The relations in the order of their spelling: < <= = != >= >. */
enum { AST_NRELS = 6 };

typedef struct Tree {
	TreeKind kind;
	int letter;    /* E_LETTER, E_TAUT, E_CONTRA, E_ZERO: 0 = a, 1 = b ... */
	int rel;       /* E_CMP */
	unsigned m, r; /* E_MOD: MOD(m, r) */
	fmpz_t num;    /* E_CONST: the value; E_SCALE: the coefficient */
	struct Tree *k[3];
} Tree;

typedef struct {
	Tree **items;
	size_t n, cap;
} Pool;

void pool_init(Pool *p);
void pool_free(Pool *p);

typedef struct {
	unsigned nletters; /* letters a.. to draw from (1..3) */
	unsigned depth;    /* count nesting, at most */
	unsigned size;     /* generator steps before only leaves are made */
	bool future;       /* #>[phi] */
	bool positional;   /* Y, MOD */
	unsigned mod_percent; /* of the letter-like leaves that are MOD */
	bool thresholds;   /* every comparison a count (times a constant)
			    * against a constant: MONA's fragment */
} AstOptions;

Tree *ast_formula(Pool *p, Rng *r, const AstOptions *o);
/* A copy of e with one small change (a constant moved by one, another
 * relation, letter or connective): often equivalent on short words
 * only, or equivalent. */
Tree *ast_mutate(Pool *p, Rng *r, const Tree *e, const AstOptions *o);
/* A formula equivalent to e by rewrites that tally's normaliser does not
 * undo (De Morgan, a comparison moved to one side or turned round, a
 * conditional turned round, min as -max(-t, -u), conjuncts that are
 * true, terms that are 0); the letters of extra_letters may be spelled
 * by the added parts. */
Tree *ast_rewrite(Pool *p, Rng *r, const Tree *e, unsigned extra_letters);
/* Combinations for pairs and implications. */
Tree *ast_binary(Pool *p, TreeKind kind, Tree *a, Tree *b);
Tree *ast_not(Pool *p, Tree *a);
Tree *ast_bool(Pool *p, bool v);

/* Bit x set when letter x is spelled somewhere in e. */
unsigned ast_letters(const Tree *e);
bool ast_has_future(const Tree *e);
/* Count nesting. */
unsigned ast_depth(const Tree *e);

/* ---- printing (ast_print.c); results are malloc'd ------------------------ */

/* A TL formula, fully parenthesised; with r, some parts are let
 * definitions chosen by r. */
char *ast_print_tl(const Tree *e, Rng *r);
/* A C-RASP program in the compact form of tally-crasp(7) (.crasp):
 * some counts and their bodies get definitions of their own, chosen by
 * r; the output is the last definition.  e has no #>. */
char *ast_print_crasp(const Tree *e, Rng *r);
/* The same in the Python interpreter's syntax (.cr), fully
 * parenthesised so that both groupings agree. */
char *ast_print_cr(const Tree *e, Rng *r);

/* ---- evaluation (ast_eval.c) --------------------------------------------- */

/* Whether e accepts the word w[0..n) (letters as numbers 0, 1, ...) at
 * its last position, or with eos at an appended end marker. */
bool ast_accepts(const Tree *e, const int *w, size_t n, bool eos);

#endif
