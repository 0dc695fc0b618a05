/* families -- named families of languages from the literature (`tally
 * gen`), in the manner of Spot's genltl: each family has a one-line
 * definition, its reference, the formula that defines it (as TL[#] source
 * text) and an independent membership function written directly in C, so
 * that the formula can be tested against the definition.
 *
 * Letters are single bytes and words are byte strings over the family's
 * alphabet.  Some families (lk-predict) are tasks on a restricted set of
 * words, the domain: the formula only has to agree with the membership
 * function there.
 *
 * Count-valued and per-position tasks (histogram, margin, count-a) are
 * families too: their formula is a program whose output is read at
 * every position, and instead of a membership function they have a
 * value function giving the output at each position, again written
 * directly in C (member and positive are NULL for them).
 *
 * Ownership: the family table is static; formula texts are malloc'd
 * strings the caller frees; word buffers belong to the caller.
 */
#ifndef TALLY_FAMILIES_H
#define TALLY_FAMILIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A splitmix64 generator: the same seed gives the same words everywhere. */
typedef struct {
	uint64_t state;
} FamilyRng;

/* Uniform in [0, n), n > 0, unbiased (splitmix64_below). */
uint64_t family_rng_below(FamilyRng *r, uint64_t n);

typedef struct {
	const char *name;
	const char *alphabet;   /* its letters, in order */
	long kmin;              /* least parameter; 0 = takes no parameter */
	const char *definition; /* one line */
	const char *reference;  /* one line */
	/* The defining formula for parameter k (ignored when kmin = 0). */
	char *(*formula)(long k);
	bool (*member)(const char *w, size_t n, long k);
	/* NULL when every word over the alphabet is in the domain. */
	bool (*in_domain)(const char *w, size_t n, long k);
	/* Writes a random member of length n into w; false when there is
	 * none of that length. */
	bool (*positive)(char *w, size_t n, long k, FamilyRng *r);
	/* The domain as a formula (sampling draws words from it), NULL
	 * when in_domain is. */
	char *(*domain)(long k);
	/* A sequence task: the output at positions 1..n into out[0..n)
	 * (a Boolean as 0 or 1); NULL for a language. */
	void (*values)(const char *w, size_t n, long k, long *out);
} Family;

extern const Family family_table[];
extern const size_t family_count;

/* The family called name, or NULL. */
const Family *family_find(const char *name);

#endif
