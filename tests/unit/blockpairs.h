/* blockpairs -- what the tests of the exact checks on block words share
 * (check_blockref.c, check_twosided.c): words from bits or at random,
 * every pair of short words, and the two block checks side by side. */
#ifndef TALLY_TEST_BLOCKPAIRS_H
#define TALLY_TEST_BLOCKPAIRS_H

#include <stddef.h>
#include <stdint.h>

#include "search/blockref.h"
#include "randgen.h"

/* The word of n letters 0/1 given by the bits of `bits`. */
void blockpairs_word_of(unsigned bits, unsigned n, uint8_t *out);

/* A random word of up to `blocks` runs of up to maxrun letters; its
 * length. */
size_t blockpairs_random(Rng *r, unsigned blocks, unsigned maxrun,
			 uint8_t *out);

/* fn on every pair of words over {0, 1} of lengths 1..maxlen (mu, mv:
 * their bits, for messages). */
typedef void (*BlockpairsFn)(const uint8_t *u, unsigned nu, unsigned mu,
			     const uint8_t *v, unsigned nv, unsigned mv,
			     void *ctx);
void blockpairs_each(unsigned maxlen, BlockpairsFn fn, void *ctx);

/* blockref and blockcheck on U and V to depth maxd give the same answer
 * (the test fails otherwise, naming case i). */
void blockpairs_agree(const BlockWord *U, const BlockWord *V, size_t nletters,
		      unsigned maxd, IndistBounds b, unsigned i);

#endif
