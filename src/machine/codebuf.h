/* codebuf -- a word stored compactly as letter codes.
 *
 * Formulas with future counts #> read the whole word once per pass
 * (eval.c), so the word must be kept; it is kept as the machine's letter
 * codes (machine.h: 0..ncodes-1, "other" included), each in the fewest
 * bits among 1, 2, 4 and 8 that hold ncodes - 1: a formula over {a, b}
 * (codes a, b, other) takes 2 bits per symbol, one over up to 255 letters
 * 1 byte.  Formulas that mention more letters take 2 bytes per symbol (up
 * to 65,535 letters) or 4.
 *
 * Ownership: a CodeBuf owns its bytes.
 */
#ifndef TALLY_CODEBUF_H
#define TALLY_CODEBUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	uint8_t *data;
	size_t n;      /* codes stored */
	size_t cap;    /* bytes allocated */
	unsigned bits; /* per code: 1, 2, 4, 8, 16 or 32 */
} CodeBuf;

/* An empty buffer for codes below ncodes (ncodes >= 1). */
void codebuf_init(CodeBuf *b, size_t ncodes);
void codebuf_free(CodeBuf *b);
/* Forgets the codes (keeps the memory for the next word). */
void codebuf_clear(CodeBuf *b);
void codebuf_push(CodeBuf *b, uint32_t code);
void codebuf_push_many(CodeBuf *b, const uint32_t *codes, size_t m);
/* out[0..m) = codes from, from+1, ..., from+m-1 (all < b->n). */
void codebuf_get(const CodeBuf *b, size_t from, size_t m, uint32_t *out);
/* Bytes the buffer holds now. */
size_t codebuf_bytes(const CodeBuf *b);

#endif
