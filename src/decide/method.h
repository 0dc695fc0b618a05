/* method -- the interface every decision method implements (explore,
 * presburger, chc, mona, unary), and what it may claim.
 *
 * A Query asks whether two Boolean roots of one Store define the same
 * language over an alphabet (satisfiability, validity and implication are
 * reduced to this by cli/decide.c: sat(F) = not equiv(F, false), valid(F)
 * = equiv(F, true), F implies G = equiv(F & !G, false)).  A method answers
 * with a MethodResult; the decision engine (decision.h) re-checks every
 * witness with the evaluator and every proof on short words before
 * cli/decide.c turns a result into verdict lines.
 *
 * Ownership: a Query borrows its Store and alphabet.  A MethodResult owns
 * its runs, certificate and reason; method_result_free() releases them.
 */
#ifndef TALLY_METHOD_H
#define TALLY_METHOD_H

#include <stdbool.h>
#include <stddef.h>

#include <flint/fmpz.h>

#include "machine/eval.h"
#include "machine/machine.h"
#include "machine/runs.h"
#include "core/store.h"

typedef struct {
	const Store *store;
	Node root[2];      /* the two sides (Boolean nodes) */
	const Sym *alphabet; /* distinct, in alphabet order (word.h: the
			      * --alphabet letters as given, then the
			      * others by name); every letter either side
			      * mentions plus --alphabet.  Shortlex order
			      * of counterexamples follows this order. */
	size_t nletters;
	AcceptAt accept;
	double timeout;    /* seconds for this method (a caller's budget, the
			    * solver's timeout), 0 = none */
	size_t max_states; /* 0 = none */
	size_t max_length; /* explore's bound, 0 = method default */
	bool want_certificate;
	/* Extensions (decision.c fills them; methods may ignore them). */
	struct Limits *limits; /* the user's --timeout, --max-memory
				* (limit.h), polled by explore; NULL: none */
	bool progress;     /* a progress line on stderr is welcome */
} Query;

typedef enum {
	MR_EQUIVALENT,     /* proved equal on every word */
	MR_DIFFERENT,      /* a separating word in .witness */
	MR_BOUNDED,        /* equal on every word of length <= .bound */
	MR_UNKNOWN,        /* no verdict (solver gave up, incomplete) */
	MR_LIMIT,          /* a user limit (time, states, memory) stopped it */
	MR_NOT_APPLICABLE, /* the inputs are outside the method's fragment */
	MR_INTERNAL,       /* the method's own second check refuted its
			    * answer: .reason holds the evidence; the
			    * face prints it as an internal error (exit 70) */
} MethodStatus;

typedef struct {
	MethodStatus status;
	Runs witness;        /* MR_DIFFERENT: a word on which they differ */
	bool witness_shortest; /* the method guarantees minimal length */
	size_t bound;        /* MR_BOUNDED: all words of length <= bound */
	size_t states;       /* explore: distinct joint states visited */
	char *certificate;   /* MR_EQUIVALENT: human-readable evidence, or NULL */
	char *reason;        /* why not applicable / unknown, or NULL */
} MethodResult;

void method_result_init(MethodResult *r);
void method_result_free(MethodResult *r);

/* The problem in the product machine's letter codes (machine.h), the one
 * reading of the alphabet and the end marker for every method that runs
 * the machine: the codes the alphabet's letters take (one representative
 * letter per code, the first in alphabet order), which codes are read as
 * letters, and the end marker's code.  The end marker is no letter: every
 * letter test is false there, so it takes the code "other" (ncodes - 1),
 * which may or may not also be the code of alphabet letters no side
 * tests.  Under ACCEPT_EOS it is read once, after the word; letter counts
 * of psi with psi true at the marker (#[true], #[!Q_a]) include it. */
typedef struct {
	uint32_t *code;   /* [n] the distinct codes of alphabet letters */
	Sym *sym;         /* [n] a letter of each */
	size_t n;
	bool *is_letter;  /* [ncodes]: some alphabet letter has this code */
	size_t ncodes;
	uint32_t end_code;
	AcceptAt accept;
} QueryCodes;

void query_codes_init(QueryCodes *qc, const Query *q,
		      const MachineCodes *codes);
void query_codes_free(QueryCodes *qc);

/* Whether the sides differ on the empty word (by the evaluator): the
 * methods that reason about non-empty words check it first. */
bool method_empty_word_differs(const Query *q);

/* Every method has this signature (explore_decide, presburger_decide,
 * chc_decide, mona_decide, unary_decide). */
typedef void (*MethodFn)(const Query *q, MethodResult *out);

#endif
