/* simcheck_state.h -- what a SimCheck holds, shared by simcheck.c (the
 * pair: the model's labels parsed, the simulator and the evaluator fed
 * together), simcheck_checks.c (every word, random words, the reports,
 * the search for a breakdown) and simcheck_trace.c (one word, position
 * by position).  Private to them: the interface is simcheck.h. */
#ifndef TALLY_TRANSFORMER_SIMCHECK_STATE_H
#define TALLY_TRANSFORMER_SIMCHECK_STATE_H

#include "transformer/simcheck.h"

#include "base/limit.h"
#include "base/vec.h"
#include "core/parse.h"
#include "machine/eval.h"
#include "transformer/seqref.h"
#include "transformer/sim.h"

struct SimCheck {
	const Model *m;
	Semantics sem;
	Sim *sim;
	Store *store;       /* the model's formulas */
	Scope *scope;       /* over the prelude */
	Diag diag;
	Source **sources;   /* of the labels (Defs of `let`s point into them) */
	size_t nsources, sources_cap;
	Node root;
	Evaluator *ev;      /* the verdicts (accept, per_position) */
	SeqRef *ref;        /* the values (class, ratio readouts) */
	VEC(Sym) syms;      /* a prefix's letters, for ref */
	Alphabet alpha;
	Sym *sym_of;        /* by token (0 unused) */
	uint32_t *token_of; /* by Sym up to ntoken_of (0: not a letter) */
	size_t ntoken_of;
	Node *comp_node;    /* by component: its parsed formula, or 0 */
	Node **count_node;  /* by component: parsed count arguments */
	Limits *limits;     /* the user's, or NULL */
	size_t held;        /* the simulator's history at the last look */
};

/* Every parsed label, the formula first (malloc'd; *n of them). */
Node *simcheck_labels(const SimCheck *sc, size_t *n);

#endif
