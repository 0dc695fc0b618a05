/* pairgen -- pairs the engine builds itself to certify lower bounds:
 * for L_k (k blocks, hierarchy.h) and a depth d, a word u in L_k and a
 * word v outside it that no formula of F_d(C, T) separates.
 *
 * Candidates have the shape u = P Y^(n+1) X X, v = P Y^n X Y X (P the
 * first k - 2 alternating blocks, Y and X the letters of blocks k - 1 and
 * k), each block of P longer than all later blocks together, the Y
 * block's scale growing with C, T and the depth (pairgen_scale()).
 * Each is checked by blockref; a candidate it separates at a depth <= d
 * makes the next ones longer (the separation says the counts were within
 * reach), one it does not separate is re-checked by blockcheck, which
 * shares no code with it, and by the caller's membership test.
 *
 * Ownership: a PairCert owns its two words (pairgen_free()).
 */
#ifndef TALLY_PAIRGEN_H
#define TALLY_PAIRGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/eval.h"
#include "search/blockword.h"
#include "search/indist.h"

struct Limits;

typedef struct {
	BlockWord u, v;  /* u in the language, v not */
	unsigned depth;  /* no formula of depth <= depth separates them */
	unsigned tries;  /* candidates checked */
	double seconds;  /* both checks, all candidates */
} PairCert;

typedef enum {
	PAIRGEN_FOUND,     /* *out holds a certified pair */
	PAIRGEN_NONE,      /* no candidate certified within the tries */
	PAIRGEN_DISAGREE,  /* the two checks disagree on *out: a bug */
	PAIRGEN_STOPPED    /* a limit */
} PairgenStatus;

/* Whether the target judges w (letters 0 = a, 1 = b) and labels it `in`
 * (a recognition target judges every word; the prediction task only
 * the nonempty prefixes of members). */
typedef bool (*PairgenMember)(void *ctx, const BlockWord *w, bool in);

PairgenStatus pairgen_lk(unsigned k, unsigned d, IndistBounds b, uint64_t seed,
			 unsigned tries, PairgenMember member, void *ctx,
			 struct Limits *lim, PairCert *out);
/* The same for the prediction task of L_m (m >= 3) at depth d: a pair of
 * L_(m-2) the other way round, u = P Y^n X Y X with m blocks (a member),
 * v = P Y^(n+1) X X with m - 2 (a prefix of a member that is not one);
 * for m = 3 "aba" and "aa". */
PairgenStatus pairgen_predict(unsigned m, unsigned d, IndistBounds b,
			      uint64_t seed, unsigned tries,
			      PairgenMember member, void *ctx,
			      struct Limits *lim, PairCert *out);
void pairgen_free(PairCert *p);

/* The membership test of hierarchy's rows by the evaluator (ctx a
 * PairgenEval): root 0 the target's L_k judges the word (letters 0, 1
 * are ab[0], ab[1]); for the prediction task root 1, the prefixes of
 * members, says which words are judged at all. */
typedef struct {
	Evaluator *ev;
	const Sym *ab;
	bool predict;
} PairgenEval;
bool pairgen_eval_member(void *ctx, const BlockWord *w, bool in);

/* A generator of one family's pairs (pairgen_lk, pairgen_predict,
 * pairgen_dk). */
typedef PairgenStatus PairgenFn(unsigned k, unsigned d, IndistBounds b,
				uint64_t seed, unsigned tries,
				PairgenMember member, void *ctx,
				struct Limits *lim, PairCert *out);
/* NULL in tally (hierarchy calls gen itself); tally-mpi's calls gen with
 * the same arguments on one rank, or takes what that rank computed
 * ahead, and hands the result to every rank (mpi_pairs.h). */
extern PairgenStatus (*pairgen_hook)(PairgenFn *gen, unsigned k, unsigned d,
				     IndistBounds b, uint64_t seed,
				     unsigned tries, PairgenMember member,
				     void *ctx, struct Limits *lim,
				     PairCert *out);

/* The loop behind both (and others of the same kind): candidates from
 * make(k, m, rng, out), m the scale of the shortest blocks, multiplied
 * by 7/5 after each candidate separated at a depth <= d; the first that
 * both checks certify and member puts u in and v out. */
typedef void (*PairgenShape)(unsigned k, uint64_t m, uint64_t *rng,
			     PairCert *out);
PairgenStatus pairgen_grow(PairgenShape make, unsigned k, unsigned d,
			   IndistBounds b, uint64_t rng, unsigned tries,
			   PairgenMember member, void *ctx, struct Limits *lim,
			   PairCert *out);

/* The same for D_k = L_(2k-1) (k <= PAIRGEN_DK_MAX), meant for the
 * two-sided class (b.two_sided): u of 2k - 1 blocks, the two middle ones
 * about as long as the class reaches, each outer block longer than all
 * it encloses; v the same with the letters around the end of block k
 * swapped (pairgen_dk.c). */
enum { PAIRGEN_DK_MAX = 32 };
PairgenStatus pairgen_dk(unsigned k, unsigned d, IndistBounds b, uint64_t seed,
			 unsigned tries, PairgenMember member, void *ctx,
			 struct Limits *lim, PairCert *out);

/* The first candidate's scale of the Y block (n + 1 is drawn from
 * scale..2 scale): measured, not derived -- below it most candidates are
 * separated at depth d (C = 1, T = 2: about 350 letters are needed at
 * depth 6, 1000 at depth 7). */
uint64_t pairgen_scale(unsigned d, IndistBounds b);

/* From labelled words (blocks over letters 0..nletters-1, in[i] their
 * labels), for each depth d in 0..maxd: the first pair (a word labelled
 * in, one labelled out, the same last letter; among the PAIRGEN_WORDS
 * shortest words of each label; by the longer of the two, at most
 * `tries` pairs) that no formula of depth <= d within b separates, by
 * both checks: out[d] when st[d] is PAIRGEN_FOUND (or _DISAGREE). */
enum { PAIRGEN_WORDS = 400 };
void pairgen_labelled(const BlockWord *w, const bool *in, size_t n,
		      size_t nletters, unsigned maxd, IndistBounds b,
		      unsigned tries, struct Limits *lim, PairCert *out,
		      PairgenStatus *st);

/* The two checks of one pair over letters 0..nletters-1 at depth d: 1
 * certified (no formula of depth <= d separates u and v, both checks
 * agree), 0 not (*sep: the least separating depth, or d + 1 when
 * blockref could not decide), -1 the checks disagree, -2 a limit.
 * *never (may be NULL): both checks reached a fixpoint, so no depth
 * separates the pair. */
int pairgen_check(const PairCert *p, size_t nletters, unsigned d,
		  IndistBounds b, struct Limits *lim, unsigned *sep, bool *never);

#endif
