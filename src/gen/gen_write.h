/* gen_write -- the records of `tally gen`'s datasets in TSV, JSONL or the
 * .cr word format (tally-gen(1) documents every field).
 *
 * A word is given as letter indices of the alphabet; it is written as
 * the letters concatenated when every letter is one byte, else as tokens
 * separated by spaces (TSV, .cr) or a JSON list of strings.  Position
 * labels are n + 1 bits (the prefixes of length 0..n); prediction labels
 * n + 1 rows of nletters + 1 bits (the letters in alphabet order, then
 * the end of the word).  A sequence (--labels=sequence) is the n values
 * of the output at positions 1..n, Booleans as 0/1, integers in decimal:
 * a JSON list "values", a comma-separated TSV column, a .cr "values="; a
 * count-valued program's label is its value at the judged position.
 *
 * Ownership: a GenOut borrows the alphabet and owns its strings.
 */
#ifndef TALLY_GEN_WRITE_H
#define TALLY_GEN_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <flint/fmpz.h>

#include "base/buf.h"
#include "gen/gen_data.h"

typedef struct GenOut GenOut;

GenOut *gen_out_new(const GenSpec *sp, FILE *f);
void gen_out_free(GenOut *o);

typedef struct {
	const uint32_t *w;
	size_t n;
	bool label;
	const uint8_t *pos;  /* n + 1 position labels, or NULL */
	const uint8_t *pred; /* (n + 1) x (nletters + 1), or NULL */
	const char *split;   /* written when the spec names splits */
	const fmpz *vals;    /* n output values at positions 1..n, or NULL */
	const fmpz *value;   /* a count-valued label (replaces label), or NULL */
} GenRecord;

void gen_out_record(GenOut *o, const GenRecord *r);
/* The same record appended to b (o is only read: threads may format at
 * once, each into its own buffer). */
void gen_out_format(const GenOut *o, Buf *b, const GenRecord *r);

/* The word as text (letters concatenated or spaced), malloc'd. */
char *gen_out_word(const GenOut *o, const uint32_t *w, size_t n);

#endif
