/* blockpairs -- what the tests of the exact checks on block words share
 * (check_blockref.c, check_twosided.c): words from bits or at random,
 * every pair of short words, blockref against the explicit refinement
 * (depths, the fixpoint, random pairs), the two block checks side by
 * side, and the random long block pairs they are compared on. */
#ifndef TALLY_TEST_BLOCKPAIRS_H
#define TALLY_TEST_BLOCKPAIRS_H

#include <stdbool.h>
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

/* blockref on the explicit words u and v (letters 0, 1) to depth maxd. */
BlockrefAnswer blockpairs_blockref(const uint8_t *u, size_t nu,
				   const uint8_t *v, size_t nv, unsigned maxd,
				   IndistBounds b);

/* The explicit refinement (indist.c, no code shared with blockref) and
 * blockref give the same least depth <= maxd (or none) for u and v
 * (mu, mv: their bits, for the message; blockref undecided fails too);
 * the depth. */
unsigned blockpairs_explicit_agrees(const uint8_t *u, unsigned nu, unsigned mu,
				    const uint8_t *v, unsigned nv, unsigned mv,
				    unsigned maxd, IndistBounds b);

/* blockref's "no depth separates" exactly when the explicit refinement
 * run to INDIST_MAX_DEPTH never separates u and v; whether it said so. */
bool blockpairs_never_agrees(const uint8_t *u, unsigned nu, unsigned mu,
			     const uint8_t *v, unsigned nv, unsigned mv,
			     IndistBounds b);

/* How a random pair's v is made from u (both explicit, up to 512
 * letters; runs up to maxrun long); its length. */
typedef size_t (*BlockpairsPerturb)(Rng *r, const uint8_t *u, size_t nu,
				    unsigned maxrun, uint8_t *v);

/* n random pairs (seed; u of up to 6 runs of up to maxrun letters, v by
 * perturb) on which the explicit refinement and blockref agree to depth
 * 5, with blockref's small-count tables shrunk to `tune` (blockref_tune;
 * 0: as built). */
void blockpairs_explicit_random(uint64_t seed, unsigned n, IndistBounds b,
				unsigned maxrun, unsigned tune,
				BlockpairsPerturb perturb);

/* blockref and blockcheck on U and V to depth maxd give the same answer
 * (the test fails otherwise, naming case i). */
void blockpairs_agree(const BlockWord *U, const BlockWord *V, size_t nletters,
		      unsigned maxd, IndistBounds b, unsigned i);

/* How a random pair's v is made from u (v starts empty), and the least
 * number of runs and run length u needs for it. */
typedef struct {
	void (*make)(Rng *r, const BlockWord *u, BlockWord *v);
	unsigned least_runs, least_run;
} BlockpairsShape;

/* A run lengthened, or two letters inserted before the last (the
 * witnesses' shape). */
extern const BlockpairsShape blockpairs_witness;
/* The last letter of a run swapped with the next run's first (the D_k
 * shape), or a run lengthened. */
extern const BlockpairsShape blockpairs_dk;

/* The random pairs of one test: seed, how many, the bound on run lengths
 * in even and in odd cases, the depth the checks go to. */
typedef struct {
	uint64_t seed;
	unsigned count;
	unsigned maxrun[2];
	unsigned maxd;
} BlockpairsDraw;

/* blockpairs_agree on `d.count` random pairs of the shape over {0, 1}
 * (u of up to 6 runs), case i under bounds[i % 3]. */
void blockpairs_recheck(const BlockpairsShape *shape,
			const IndistBounds bounds[3], BlockpairsDraw d);

#endif
