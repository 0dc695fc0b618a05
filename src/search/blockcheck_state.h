/* blockcheck_state -- what one blockcheck_pair call carries through its
 * tests: the bounds, the weight sets a comparison can give the classes,
 * and the scratch of the vector test (blockcheck_apart.c, _front.c),
 * grown between its calls and never shrunk.
 *
 * Ownership: a Check owns its weight sets and scratch
 * (blockcheck_state_free).
 */
#ifndef TALLY_BLOCKCHECK_STATE_H
#define TALLY_BLOCKCHECK_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "search/indist.h"

struct Limits;

__extension__ typedef __int128 Wide;

/* Per weight set, the weights of the past counts ([0]) and of the future
 * counts ([1]; {0} when past-only). */
typedef struct {
	IndistBounds b;
	int32_t (*coef)[2][1 << INDIST_MAX_T];
	unsigned (*ncoef)[2];
	size_t nsets;
	unsigned stride; /* a Vec's cls is class * stride + direction */
	bool undecided;
	struct Limits *lim;
	/* scratch kept between calls (grown, never shrunk): apart's
	 * coordinates, and shift_sums' tables and interval lists */
	uint64_t *n, *m, *e;
	unsigned *dn, *de;
	struct Eq_ *eq;
	size_t cap;
	uint64_t eq_key; /* the piece whose equal counts e, de hold sorted */
	size_t eq_n;
	uint64_t piece; /* piece_end's calls, numbered from 1 */
	Wide *rlo, *rhi, *iv[4];
	size_t rcap, ivcap;
} Check;

/* A Check for the bounds b (T brought into 1..INDIST_MAX_T), its weight
 * sets made. */
void blockcheck_state_init(Check *k, IndistBounds b, struct Limits *lim);
void blockcheck_state_free(Check *k);

#endif
