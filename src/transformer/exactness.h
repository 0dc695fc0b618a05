/* exactness -- how long a model built by tally compile decides like its
 * formula under a number semantics, and how that is known (the
 * "exact up to length" of `tally compile --report`).
 *
 * Three independent sources, each reported for what it is:
 *  - a proof from the construction, gadget by gadget (the argument is in
 *    exactness.c): the conditions under which every Boolean component of
 *    the model under the semantics equals its value under kneedeep, where
 *    the construction is exact at every length; they give a length, every
 *    length, or none;
 *  - a search: the breakdown search of breakdown.h when every head has
 *    constant logits, otherwise every word up to a length; it confirms a
 *    length or finds the shortest word decided wrongly (checked against
 *    tally's evaluator);
 *  - a spot check of a proved length: adversarial words of that length
 *    (a^k b^k, alternations, random words), the model under the semantics
 *    against tally's evaluator at every prefix.
 * A search or spot check that contradicts the proof is an internal error:
 * `contradiction` then holds the evidence and nothing may be claimed.
 *
 * Ownership: an Exactness owns its strings (exactness_free); the input
 * is borrowed during exactness_analyse only.
 */
#ifndef TALLY_EXACTNESS_H
#define TALLY_EXACTNESS_H

#include <stdbool.h>
#include <stddef.h>

#include "transformer/compile.h"
#include "transformer/fixed.h"
#include "transformer/model.h"
#include "core/store.h"

typedef struct {
	const Model *m;       /* as compile_formula built it */
	const CompileInfo *info;
	Store *st;            /* the formula, for the evaluator */
	Node root;
	const Sym *letters;   /* token t >= 1 is letters[t-1] */
	size_t nletters;
	Semantics sem;
	size_t max_states;    /* the breakdown search's budget; 0: the
			       * default, EXACTNESS_STATES */
} ExactInput;

/* The breakdown search's default budget of states (about a second). */
#define EXACTNESS_STATES ((size_t)1 << 17)

typedef struct {
	/* the proof */
	bool proved_all;    /* at every length */
	bool proved;        /* up to proved_len (or every length) */
	size_t proved_len;
	char *argument;     /* the argument, or why there is none */
	/* the search (only when the proof does not cover every length) */
	bool searched;      /* every word up to confirmed_len agrees */
	size_t confirmed_len;
	bool every_word;    /* by enumeration, not the breakdown search */
	size_t visited;     /* states (breakdown search) or words */
	bool found;         /* the shortest word decided wrongly */
	size_t found_len;
	char *found_word;
	bool found_accepts; /* the model's verdict on it */
	char *search_note;  /* what stopped the search, or why none ran */
	/* the spot check (only of a proof) */
	size_t spot_words, spot_len, spot_target;
	char *contradiction; /* evidence against a claim: exit 70 */
} Exactness;

void exactness_analyse(const ExactInput *in, Exactness *out);
/* The proof alone (exactness_proof.c): proved, proved_all, proved_len
 * and argument; exactness_analyse calls it first. */
void exactness_prove(const ExactInput *in, Exactness *out);
/* The same for a count readout (class, ratio; exactness_counts.c): the
 * construction's proof under kneedeep, every short word and random words
 * against the evaluator's values; no claim under other semantics.
 * exactness_analyse calls it for such a model. */
void exactness_counts(const ExactInput *in, Exactness *out);
void exactness_free(Exactness *e);

/* The length of "exact up to length:" and its basis, one line
 * (malloc'd): "255 (proved; ...)", "all lengths (proved)", "unknown
 * (...)". */
char *exactness_headline(const Exactness *e, const Semantics *sem);
/* The largest length established (proved or confirmed): false when none,
 * *all when every length is. */
bool exactness_length(const Exactness *e, size_t *len, bool *all);

#endif
