/* word_tokens -- a token read byte by byte (the path for what the fast
 * path of word_token_run.h leaves: a token cut by a buffer's end, an
 * unknown one, a line that turned to tokens), and a letter written
 * quoted.
 *
 * Ownership: as word.h.
 */
#ifndef TALLY_WORD_TOKENS_H
#define TALLY_WORD_TOKENS_H

#include "core/word.h"

/* A letter written quoted, as word_put_letter writes those that are not
 * plain ('ε', 'a b', 'x^y'): its Sym, or SYM_NONE. */
Sym word_quoted_letter(const WordReader *r, const char *s, size_t n);
/* The token pending ends: its letter emitted, or reported (false). */
bool word_end_token(WordReader *r);
/* One byte of a line of tokens; false after an error (reported). */
bool word_token_byte(WordReader *r, unsigned char c);

#endif
