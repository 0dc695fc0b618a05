/* sample -- prefix-closed samples of words, laid out for word-parallel
 * counting.
 *
 * A Sample is every word of length <= n over an alphabet of A letters (a
 * complete tree) plus extra long words stored as chains of their prefixes
 * longer than n.  Each node of this prefix tree (each prefix, the empty
 * word included) is one bit of a signature (sig.h).  Tree level L holds the
 * A^L words of length L, word w_1..w_L at index sum w_i A^(i-1) (first
 * letter least significant), so the children's level block is the parent
 * block written A times and a count threshold propagates level by level
 * with a few word operations (sample_thresholds).  Levels of at least 64
 * nodes start on a word boundary; smaller levels are packed in front.
 *
 * Letters are indices 0..A-1 (SampleWord) into the alphabet's Syms.
 *
 * Ownership: a Sample owns its arrays, its description and copies of its
 * extra words.
 */
#ifndef TALLY_SAMPLE_H
#define TALLY_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "search/sig.h"
#include "core/store.h"

typedef struct {
	uint8_t *w; /* letter indices */
	size_t len;
} SampleWord;

typedef struct {
	SampleWord word;
	size_t first; /* bit of the prefix of length n + 1 */
	size_t base;  /* bit of the prefix of length n (the chain's parent) */
} Chain;

typedef struct {
	size_t nletters;
	Sym *letters;
	char **names;     /* the letters' names */
	bool spaced;      /* some name is longer than one character */
	bool whole;       /* every word is a chain of its own (n = 0): a
			   * position's future is its word's, so future
			   * counts #> have signatures; words are judged at
			   * the ends of the chains */
	unsigned whole_n; /* and every word of length 1..whole_n is one */
	unsigned n;       /* every word of length <= n */
	size_t nbits;     /* bits per signature, padding included */
	size_t nwords;    /* Word64 per signature */
	size_t npoints;   /* real nodes */
	Word64 *valid;    /* the real nodes */
	Word64 *letter;   /* nletters signatures: Q_x */
	size_t *lvl_off;  /* n + 1 */
	size_t *lvl_size; /* n + 1 */
	Chain *chains;
	size_t nchains;
	uint32_t *parent; /* per bit; UINT32_MAX for the root and padding */
	uint32_t *length; /* per bit: the length of the node's word */
	char *desc;
} Sample;

/* extra: words longer than n become chains (shorter ones are already in
 * the tree); extra_desc says where they come from (NULL: nothing). */
Sample *sample_build(const SymTab *syms, const Sym *letters, size_t nletters,
		     unsigned n, const SampleWord *extra, size_t nextra,
		     const char *extra_desc);
void sample_free(Sample *S);
/* A whole-word sample: every word of length 1..n and the extra words,
 * each its own chain. */
Sample *sample_build_whole(const SymTab *syms, const Sym *letters,
			   size_t nletters, unsigned n, const SampleWord *extra,
			   size_t nextra, const char *extra_desc);
/* The bit of the last position of chain c. */
size_t sample_chain_end(const Sample *S, size_t c);

/* The bit of the word w (its prefix of length len); the word must be in
 * the sample (len <= n, or a prefix of a chain). */
size_t sample_node(const Sample *S, const uint8_t *w, size_t len);
/* The letters of the node's word, written to w (room for its length);
 * returns the length. */
size_t sample_word(const Sample *S, size_t bit, uint8_t *w);
/* The node's word as text (letters concatenated, or space-separated when
 * a letter is longer than one character; "" for the empty word). */
char *sample_word_text(const Sample *S, size_t bit);

/* The same, for words longer than SAMPLE_BRIEF_LEN one-character
 * letters, in runs: "a^12 b^19 a^19 b^15 aa" (x^n for n >= 3 equal
 * letters, shorter runs written out). */
enum { SAMPLE_BRIEF_LEN = 32 };
char *sample_word_brief(const Sample *S, size_t bit);

/* planes: C signatures, plane c-1 = "#[psi] >= c" for c = 1..C. */
void sample_thresholds(const Sample *S, const Word64 *psi, unsigned C,
		       Word64 *planes);
/* cnt[bit] = #[psi] at the node (0 at the root and padding). */
void sample_counts(const Sample *S, const Word64 *psi, int32_t *cnt);
/* Future counts #>[psi] (this position and the later ones of its word),
 * on a whole-word sample: C planes, and the counts. */
void sample_fthresholds(const Sample *S, const Word64 *psi, unsigned C,
			Word64 *planes);
void sample_fcounts(const Sample *S, const Word64 *psi, int32_t *cnt);
/* Y phi: phi at the parent, false at lengths 0 and 1. */
void sample_prev(const Sample *S, const Word64 *phi, Word64 *out);
/* MOD(m, r): the node's length is r mod m. */
void sample_mod(const Sample *S, unsigned m, unsigned r, Word64 *out);

/* The signature of a Boolean node of the store through the evaluator
 * (eval.h), word by word: the independent path used for targets and for
 * verification.  On a whole-word sample, or for a formula with #>, each
 * word is judged whole and only its last position is set (the others
 * depend on the rest of the word). */
bool sample_eval(const Sample *S, const Store *st, Node f, Word64 *out);

/* The same at every position of a whole-word sample (each word's
 * positions read the whole word: eval_table); else sample_eval.  False
 * when the evaluator keeps too short a table. */
bool sample_eval_positions(const Sample *S, const Store *st, Node f, Word64 *out);

/* count witness pairs u.s s s' s' and u.s s' s s' (logic.md 6.4): u has d
 * alternating blocks starting with letter 0, d cycling over dmin..dmax,
 * block lengths drawn from lo..hi times 2^(d-1) (at most 16) with the
 * seed.  Needs two letters.
 * Returns a malloc'd array of 2 * count words (the pairs side by side). */
SampleWord *sample_witness_pairs(unsigned count, unsigned dmin, unsigned dmax,
				 unsigned lo, unsigned hi, uint64_t seed);
/* One such pair from u's block lengths (d of them): out[0] = u.s s s' s'
 * (d + 1 blocks), out[1] = u.s s' s s' (d + 3 blocks). */
void sample_witness_pair(const unsigned *blocks, unsigned d, SampleWord *out);
/* Two-sided witness pairs: out[0] has the d blocks (d odd, >= 3, each
 * at least 2 long), out[1] the same with the two letters at the end of
 * the middle block swapped (d + 2 blocks): long blocks on both sides of
 * the difference. */
void sample_middle_pair(const unsigned *blocks, unsigned d, SampleWord *out);
/* d block lengths drawn from lo..hi. */
void sample_random_blocks(unsigned d, unsigned lo, unsigned hi, uint64_t *rng,
			  unsigned *blocks);
void sample_words_free(SampleWord *w, size_t n);

#endif
