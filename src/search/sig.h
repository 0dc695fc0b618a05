/* sig -- signatures: a formula's truth value at every node of a sample's
 * prefix tree, as a fixed-width bitset of uint64_t words.
 *
 * Two formulas with equal signatures are interchangeable inside any larger
 * formula evaluated on the same prefix-closed sample (counts only read
 * ancestors), which is what makes observational equivalence a congruence.
 * A SigSet stores distinct signatures in one arena; lookups go through a
 * 64-bit hash and every hit is confirmed by an exact comparison, so a hash
 * collision never merges two different signatures.  The canonical form of
 * a signature under negation is the one whose bit 0 (the empty word, always
 * in the sample) is 0.
 *
 * Ownership: a SigSet owns its arena and table; pointers returned by
 * sigset_get() are valid until the next insertion.
 */
#ifndef TALLY_SIG_H
#define TALLY_SIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t Word64;

/* Word-parallel operations over n words. */
void sig_and(Word64 *out, const Word64 *a, const Word64 *b, size_t n);
void sig_or(Word64 *out, const Word64 *a, const Word64 *b, size_t n);
/* out = valid & ~a (negation inside the sample). */
void sig_not(Word64 *out, const Word64 *a, const Word64 *valid, size_t n);
size_t sig_popcount(const Word64 *a, size_t n);
size_t sig_popcount_and(const Word64 *a, const Word64 *b, size_t n);
uint64_t sig_hash(const Word64 *a, size_t n);
static inline bool sig_bit(const Word64 *a, size_t i)
{
	return (a[i >> 6] >> (i & 63)) & 1;
}
static inline void sig_set(Word64 *a, size_t i)
{
	a[i >> 6] |= (Word64)1 << (i & 63);
}
/* Negates a in place when bit 0 is set; returns whether it did. */
bool sig_canonical(Word64 *a, const Word64 *valid, size_t n);

typedef struct SigSet SigSet;

SigSet *sigset_new(size_t nwords);
void sigset_free(SigSet *ss);
size_t sigset_count(const SigSet *ss);
size_t sigset_bytes(const SigSet *ss);
/* The index of sig if present, else SIZE_MAX. */
size_t sigset_find(const SigSet *ss, const Word64 *sig);
/* Inserts sig unless present; returns its index and sets *fresh. */
size_t sigset_insert(SigSet *ss, const Word64 *sig, bool *fresh);
/* The same with the signature's hash already computed (sig_hash). */
size_t sigset_insert_hashed(SigSet *ss, const Word64 *sig, uint64_t h,
			    bool *fresh);
const Word64 *sigset_get(const SigSet *ss, size_t i);

#endif
