/* blockword -- words given as runs of one letter (a^n b^m ...), for the
 * exact checks of deep pairs (blockref.h, blockcheck.h), whose lengths
 * reach 10^18 letters and are never expanded.
 *
 * A BlockWord is a list of runs (letter index, length >= 1); adjacent
 * runs may share a letter (the checks merge them).  The whole length is
 * at most BLOCKWORD_MAX_LEN, so that every count and every weighted sum
 * of counts fits the checks' integers.
 *
 * Ownership: a BlockWord owns its two arrays; blockword_free() releases
 * them.  Text from blockword_text() is malloc'd for the caller.
 */
#ifndef TALLY_BLOCKWORD_H
#define TALLY_BLOCKWORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BLOCKWORD_MAX_LEN ((uint64_t)1 << 62)

typedef struct {
	size_t n;        /* runs */
	uint8_t *letter; /* per run */
	uint64_t *len;   /* per run, >= 1 */
} BlockWord;

/* Appends a run (merged into the last one when the letter repeats);
 * false when the whole length would pass BLOCKWORD_MAX_LEN. */
bool blockword_push(BlockWord *w, uint8_t letter, uint64_t len);
/* The runs of an explicit word. */
void blockword_from(BlockWord *w, const uint8_t *s, size_t n);
uint64_t blockword_length(const BlockWord *w);
void blockword_copy(BlockWord *dst, const BlockWord *src);
void blockword_free(BlockWord *w);
/* "a^200 b^126 a^113 bb": runs of up to 3 letters written out; letters
 * are names[letter] (one character each, or any string). */
char *blockword_text(const BlockWord *w, const char *const *names);
/* The explicit word, when at most max letters long (NULL otherwise). */
uint8_t *blockword_expand(const BlockWord *w, uint64_t max);

#endif
