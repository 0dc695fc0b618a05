/* word -- reading words (cli.md "Input conventions").
 *
 * A WordReader turns bytes into words over an Alphabet (alphabet.h): a
 * line is a string of one-character symbols (UTF-8 characters), or, with
 * --tokens or when the line contains whitespace, a whitespace-separated
 * list of symbols; the empty line is the empty word.  It reads in chunks
 * of any size and hands letters to a WordSink as it goes, so a word never
 * has to fit in memory.  A letter outside the alphabet is an error naming
 * it and its 1-based position.
 *
 * The reader is four files: word.c (the reader made, where its letters
 * go, lookups and messages), word_tokens.c (a token read byte by byte),
 * word_token_run.c (the token fast path) and word_feed.c (bytes fed:
 * characters, line ends, the dispatch between the paths).
 *
 * Ownership: a WordReader borrows its Alphabet, sink and Diag.
 */
#ifndef TALLY_WORD_H
#define TALLY_WORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "core/alphabet.h"
#include "core/toktab.h"

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
