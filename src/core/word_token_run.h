/* word_token_run -- the token reader's fast path: blanks skipped and
 * known tokens emitted 64 bytes at a time (SSE2 where the machine has
 * it), one-character letters one blank apart by the byte table, the
 * letters as one-byte codes when every letter has one.
 *
 * Ownership: as word.h.
 */
#ifndef TALLY_WORD_TOKEN_RUN_H
#define TALLY_WORD_TOKEN_RUN_H

#include "core/word.h"

/* From buf[i] in a line of tokens with no token pending: emits every
 * known token that ends inside buf[0..n) and returns where it stopped
 * (a newline, the buffer's end, a token cut by it or an unknown one,
 * left to word_token_byte). */
size_t word_token_run(WordReader *r, const char *buf, size_t i, size_t n);

#endif
