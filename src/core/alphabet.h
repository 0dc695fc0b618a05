/* alphabet -- the letters words are made of, and how a letter is written
 * (cli.md "Input conventions").
 *
 * An Alphabet is the letters the formulas mention plus those of
 * --alphabet (given order first, then the others sorted by name).  The
 * reader of words (word.h) takes one; so do the printers of words and
 * the commands that list the alphabet.
 *
 * Ownership: an Alphabet owns its arrays and borrows the Store's symbol
 * table.
 */
#ifndef TALLY_ALPHABET_H
#define TALLY_ALPHABET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/buf.h"
#include "core/store.h"
#include "core/unit.h"

enum { WORD_CODES = 255, WORD_NOCODE = 0xff }; /* token codes (code_sym) */

typedef struct {
	Sym *letters; /* in alphabet order */
	size_t n;
	bool given;            /* --alphabet was used */
	unsigned char *member; /* by Sym */
	size_t nmember;
	Sym byte_sym[256]; /* one-byte letters; SYM_NONE otherwise */
	/* Token codes: the token reader hands a line's letters on as one
	 * byte each, code c standing for the c-th letter (c < WORD_CODES);
	 * code_sym[c] is that letter, SYM_NONE for codes beyond the
	 * alphabet.  A table of the same form as byte_sym, so a line of
	 * tokens goes through WordBytes like a line of characters. */
	Sym code_sym[256];
	size_t maxlen;     /* longest letter, in bytes */
	SymTab *syms;
	Sym other; /* --open-alphabet: what unknown letters read as, else
		    * SYM_NONE (cr_words.h) */
} Alphabet;


/* spec: the --alphabet value or NULL: "a,b,c" (commas or whitespace
 * separate multi-character letters) or "abc" (one letter per character). */
void alphabet_init(Alphabet *a, Store *s, const Node *roots, size_t nroots,
		   const char *spec);
/* The same, with more letters (those the inputs mention, which
 * simplification may have dropped from the roots: Unit.letters). */
void alphabet_init_with(Alphabet *a, Store *s, const Node *roots,
			size_t nroots, const Sym *extra, size_t nextra,
			const char *spec);
/* The alphabet of a problem, one definition for every command (eval,
 * equiv, check, lang, the traces): the letters of the roots, every letter
 * the units spell (Unit.letters: TL, .crasp and .cr alike, whatever
 * simplification dropped), and spec. */
void alphabet_init_units(Alphabet *a, Store *s, const Node *roots,
			 size_t nroots, const Unit *units, size_t nunits,
			 const char *spec);
void alphabet_free(Alphabet *a);
/* Whether a letter's name is one character (one UTF-8 sequence): words
 * over such letters are written without spaces, as the reader reads
 * them ("αα" is two letters α). */
bool word_single_char(const char *name);
/* Whether words over the alphabet are written with a space between
 * letters: some letter is longer than one character. */
bool alphabet_spaced(const Alphabet *a);
/* Whether a letter is written as it is in words and lists (else it is
 * quoted: 'a b', 'ε' -- ε alone always means the empty word). */
bool word_plain_letter(const char *name);
/* Appends a letter as words and lists write it. */
void word_put_letter(Buf *b, const char *name);
/* "a b c", malloc'd (letters as word_put_letter writes them). */
char *alphabet_describe(const Alphabet *a);
char *letters_describe(const SymTab *syms, const Sym *letters, size_t n);
/* The line "alphabet: a b c" ("(none)" for no letter) that every text
 * answer depending on the alphabet prints (equiv, check, lang, search,
 * the REPL). */
void letters_print_line(FILE *out, const SymTab *syms, const Sym *letters,
			size_t n);

/* The bytes the readers of letters (--alphabet here, words in word_feed.c)
 * take for whitespace. */
static inline bool word_is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	       c == '\f';
}

/* Bytes of the UTF-8 character that starts with c (1 when invalid). */
static inline size_t word_utf8_len(unsigned char c)
{
	return c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf8 ? 4 : 1;
}

#endif
