/* brute -- the ground truth of the consistency harness: every word up to
 * a length, evaluated by the naive reference evaluator (ref_eval.c) on
 * the nodes tally parsed, and by the harness's own tree evaluator
 * (ast_eval.c) on what the input text says; and the verdicts of the two
 * roots of a decision problem on one given word (a witness).
 *
 * Ownership: a Problem borrows its Store and trees.
 */
#ifndef TALLY_CONSISTENCY_BRUTE_H
#define TALLY_CONSISTENCY_BRUTE_H

#include <stdbool.h>
#include <stddef.h>

#include "ast.h"
#include "cli/decide.h"
#include "decide/method.h"

enum { BRUTE_MAX_LETTERS = 4, BRUTE_MAX_LEN = 16 };

typedef struct {
	Store *s;
	DecideTask task;
	size_t nsides;
	Node side[2];          /* the parsed inputs (the CLI's outputs) */
	const Tree *tree[2];   /* what their texts say */
	Node root[2];          /* the equivalence problem decide.c reduces
				* the task to */
	size_t n;              /* the alphabet */
	Sym sym[BRUTE_MAX_LETTERS];
	int code[BRUTE_MAX_LETTERS]; /* letter numbers of the trees: a = 0 */
	AcceptAt accept;
	size_t maxlen;         /* brute force covers lengths 0..maxlen */
	size_t method_len;     /* the methods' --max-length (< maxlen) */
} Problem;

typedef struct {
	bool differs;          /* some word of length <= maxlen separates */
	size_t first_len;      /* the shortest length that does */
	Sym first[BRUTE_MAX_LEN];
	bool first_accepted;   /* by root 0 */
	/* A word on which a side's parsed node and its text disagree. */
	bool misread;
	size_t misread_side, misread_len;
	Sym misread_word[BRUTE_MAX_LEN];
	bool misread_by_node;
} Brute;

void brute_run(const Problem *p, Brute *b);
/* The verdicts of the roots on w: the reference evaluator on short words,
 * the evaluator up to 10^5 letters, the run-by-run evaluator beyond;
 * false (*why malloc'd) when the word cannot be evaluated. */
bool brute_word(const Problem *p, const Runs *w, bool acc[2], char **why);
/* The first word of length len separating the roots, in shortlex order
 * over order[0..n); false when none. */
bool brute_first_of_length(const Problem *p, const Sym *order, size_t n,
			   size_t len, Sym *out);

#endif
