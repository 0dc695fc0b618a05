/* seqtask -- sequence tasks whose output at a position is a letter
 * (copying, reversing, sorting): outside the logic's Boolean and integer
 * outputs, named so that `tally search --family=NAME` can say why no
 * program computes them, with a pair of words as the argument
 * (logic/README.md §2.7).
 *
 * Two arguments, each a pair found by brute force over short words and
 * checked with a second implementation of the task that shares no code
 * with the first:
 *  - a future pair: two words sharing a prefix of length >= i whose
 *    outputs at i differ.  A past-only program's output at i reads only
 *    w_1..w_i, so no past-only program (C-RASP, TL[#] without #>) of any
 *    depth computes the task;
 *  - a counts pair: two words with the same number of each letter and
 *    the same last letter whose outputs at the last position differ.  A
 *    formula of depth <= 1 without Y or MOD reads at i only its letter
 *    and counts of letter tests up to i, so none computes the task.
 *
 * Ownership: the table is static; a SeqPair holds its words inline.
 */
#ifndef TALLY_SEQTASK_H
#define TALLY_SEQTASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { SEQTASK_MAXLEN = 8 };

typedef struct SeqTask {
	const char *name;
	const char *letters;    /* one character each */
	const char *definition; /* one line */
	/* The output letter (an index into letters) at position i (1-based)
	 * of w[0..n), or -1 where the task defines none; out2 is the second
	 * implementation. */
	int (*out)(const uint8_t *w, size_t n, size_t i);
	int (*out2)(const uint8_t *w, size_t n, size_t i);
} SeqTask;

typedef struct {
	uint8_t u[SEQTASK_MAXLEN], v[SEQTASK_MAXLEN];
	size_t nu, nv;
	size_t pos;       /* the position judged */
	int out_u, out_v; /* the outputs there */
} SeqPair;

typedef enum { SEQPAIR_NONE, SEQPAIR_FOUND, SEQPAIR_MISMATCH } SeqPairStatus;

const SeqTask *seqtask_find(const char *name);
const char *seqtask_names(void);

/* The shortest pair of each kind up to maxlen letters; MISMATCH when the
 * two implementations disagree on it (an internal error). */
SeqPairStatus seqtask_future_pair(const SeqTask *t, size_t maxlen, SeqPair *p);
SeqPairStatus seqtask_counts_pair(const SeqTask *t, size_t maxlen, SeqPair *p);

#endif
