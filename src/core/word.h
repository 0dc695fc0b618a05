/* word -- alphabets and reading words (cli.md "Input conventions").
 *
 * An Alphabet is the letters the formulas mention plus those of
 * --alphabet (given order first, then the others sorted by name).  A
 * WordReader turns bytes into words: a line is a string of one-character
 * symbols (UTF-8 characters), or, with --tokens or when the line contains
 * whitespace, a whitespace-separated list of symbols; the empty line is
 * the empty word.  It reads in chunks of any size and hands letters to a
 * WordSink as it goes, so a word never has to fit in memory.  A letter
 * outside the alphabet is an error naming it and its 1-based position.
 *
 * Ownership: an Alphabet owns its arrays and borrows the Store's symbol
 * table; a WordReader borrows its Alphabet, sink and Diag.
 */
#ifndef TALLY_WORD_H
#define TALLY_WORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/buf.h"
#include "base/diag.h"
#include "core/store.h"
#include "core/toktab.h"
#include "core/unit.h"

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

/* Where the letters of the words go. */
typedef struct {
	void *ctx;
	void (*letters)(void *ctx, const Sym *s, size_t n);
	/* Forget the letters of the current word (the line turned out to
	 * be a list of tokens). */
	void (*restart)(void *ctx);
	/* Raw bytes of the current word's line (for echoing it). */
	void (*text)(void *ctx, const char *bytes, size_t n);
	/* The word is complete; false stops reading. */
	bool (*end)(void *ctx);
} WordSink;

/* One-byte letters as the input has them (word_reader_bytes): b[i] is
 * letter byte_sym[b[i]] for i < k, k the first i < n where byte_sym
 * gives SYM_NONE, or n; takes those k letters and returns k.  byte_sym
 * is the alphabet's byte_sym for a run of characters, its code_sym for
 * tokens (then every b[i] is a letter's code and k = n). */
typedef size_t WordBytes(void *ctx, const unsigned char *b, size_t n,
			 const Sym *byte_sym);

enum { WORD_OUT = 4096, WORD_SHOW = 40 };
enum { WORD_CODES = 255, WORD_NOCODE = 0xff }; /* token codes (code_sym) */

typedef struct {
	const Alphabet *alpha;
	WordSink sink;
	Diag *diag;
	bool tokens_only, tokens; /* tokens: the current line is tokens */
	bool cr, bad, any, failed;
	size_t word;     /* 1-based number of the current word */
	size_t pos;      /* symbols of the current word so far */
	size_t linelen;  /* bytes of the current line so far */
	char *prefix;    /* its first tokcap bytes (character mode) */
	char *tok;       /* the token being read: its first nkept bytes */
	size_t ntok, nkept, tokcap;
	unsigned char u8[4];
	size_t nu8, needu8;
	char badtext[WORD_SHOW + 1]; /* deferred character-mode error */
	size_t badpos;
	Sym out[WORD_OUT];
	size_t nout;
	/* the token reader's letters as codes (Alphabet.code_sym); at most
	 * one of out[] and code[] holds letters, so their order is kept */
	uint8_t code[WORD_OUT];
	size_t ncode;
	bool codes;            /* every letter has a code */
	uint8_t *sym_code;     /* by Sym: its code, WORD_NOCODE for none */
	size_t nsym_code;
	uint8_t byte_code[256]; /* one-byte letters' codes */
	TokTab toktab; /* the letters, for the token reader's fast path */
	WordBytes *bytes; /* NULL: runs of one-byte letters come as letters */
} WordReader;

void word_reader_init(WordReader *r, const Alphabet *a, bool tokens_only,
		      const WordSink *sink, Diag *d);
void word_reader_free(WordReader *r);
/* From now on, runs of one-byte letters and the letters of tokens go
 * to bytes (with the sink's ctx), not to the sink's letters: no array
 * of letters in between. */
void word_reader_bytes(WordReader *r, WordBytes *bytes);
/* Feeds bytes; false after an error (reported) or when the sink stopped. */
bool word_feed(WordReader *r, const char *buf, size_t n);
/* End of input: completes a last line that has no newline. */
bool word_close(WordReader *r);
/* A line the caller judged without the reader (eval --jobs), at a line
 * start: counted, so that later messages number words as before. */
void word_line_done(WordReader *r);
/* One whole word (a -w argument). */
bool word_one(WordReader *r, const char *text, size_t n);

#endif
