/* cr -- the .cr dialect: programs of the Python C-RASP interpreter
 * (coli-saar/c-rasp) read with the interpreter's meaning.
 *
 * Reading (cr_parse.c): every statement is grouped both as the
 * interpreter's parser does and with tally's precedence (cr_syntax.h).
 * Where the two differ in meaning, CR_PREC_WARN prints a warning showing
 * both readings fully parenthesised and uses tally's;
 * CR_PREC_CONVENTIONAL does the same silently; CR_PREC_PEER uses the
 * interpreter's.  The interpreter is untyped and tally follows it: a
 * count used as a Boolean means "≠ 0", a Boolean used in arithmetic is
 * 0/1.  Names may be reassigned (later statements see the new value).
 * `#import` knows pred, predK, pos_even, pos_odd and pos_mod_M_R, with
 * the interpreter's 0-based positions mapped onto tally's Y and MOD.
 * The result is the last statement; when it is a count, the last Boolean
 * statement is used, with a warning.  Names are never taken from the
 * prelude.
 *
 * Writing (cr_print.c): a program as fully parenthesised .cr text, which
 * both tools read alike.
 *
 * Ownership: nodes land in the Scope's Store; a Unit's Defs borrow src.
 */
#ifndef TALLY_CR_H
#define TALLY_CR_H

#include <stdbool.h>

#include "base/buf.h"
#include "core/crasp.h"
#include "base/diag.h"
#include "core/unit.h"

typedef enum {
	CR_PREC_WARN,         /* default: conventional, warn where they differ */
	CR_PREC_CONVENTIONAL, /* tally's precedence, quietly */
	CR_PREC_PEER,         /* the interpreter's grouping exactly */
} CrPrecedence;

/* "peer" or "conventional"; false for anything else. */
bool cr_precedence_parse(const char *s, CrPrecedence *out);

bool cr_parse(Scope *sc, Diag *d, const Source *src, CrPrecedence prec,
	      Unit *out);

/* The program as .cr text, fully parenthesised, its output last.  False,
 * with a message in *err (malloc'd), for what .cr cannot say (future
 * counts, letters with whitespace or '"').  Warnings (a MOD other than
 * the interpreter's pos_even needs a predicate added to its
 * predefined.py) are appended to *note (malloc'd or NULL). */
bool cr_print(Buf *out, Store *s, const CraspProgram *p, char **err,
	      char **note);

/* Layers when `#[pred] P` (Y) counts as an attention layer, as in Huang
 * et al.'s C-RASP[local]: depth with Y adding one. */
unsigned cr_local_layers(const Store *s, Node root);

#endif
