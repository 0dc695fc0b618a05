/* decision -- the decision engine: one Query (method.h) answered by a
 * named method or by the auto sequence, within a budget, and checked
 * before anyone may print it.
 *
 * decision_start() arms the limits (the caller's, or the default budget
 * of auto) before any work on the inputs: building the alphabet of a long
 * program is work too.  The caller then builds its Query with .limits =
 * &d->lim and calls decision_run(), which
 *   - runs the method asked for, in this process; or under "auto" the
 *     portfolio (portfolio.h): every method of the table side by side,
 *     each in a child process, with one deadline (the complete methods
 *     answer MR_NOT_APPLICABLE outside their fragment at once).  The
 *     first definite answer wins and ends the others; answers that came
 *     in the same instant must agree (else DECISION_DISAGREE).  Without
 *     a definite answer, explore's (bounded, or a limit) stands; a
 *     method's error is the result only when nothing else answered, and
 *     is kept in .arm_fault otherwise;
 *   - shortens another method's witness to the shortlex-first shortest
 *     one (explore up to its length), so the word printed does not
 *     depend on which method was first;
 *   - under TALLY_INJECT_PROOF=1 (tests only) replaces the answer by a
 *     proof, so that tests see a false one never pass;
 *   - re-checks a witness by evaluating it run by run (runeval.h) and a
 *     proof or bounded answer on every short word (crosscheck.h).
 * It prints nothing: .check says whether .res may be shown, and if not,
 * what the evidence is.  Turning a result into verdict lines and exit
 * statuses is the caller's (cli/decide.c).
 *
 * Ownership: a Decision owns its result, note, fault text and fault word;
 * it borrows the Query's Store and alphabet.  It must not move between
 * decision_start() and decision_free() (the Query points at its Limits);
 * decision_free() also stops the limits' timer.
 */
#ifndef TALLY_DECISION_H
#define TALLY_DECISION_H

#include <stdbool.h>
#include <stddef.h>

#include "base/limit.h"
#include "decide/method.h"

/* What the second path found (method.h: only checked answers are
 * verdicts). */
typedef enum {
	DECISION_SOUND,          /* .res may be shown */
	DECISION_NO_RECHECK,     /* the witness could not be evaluated:
				  * .fault says why */
	DECISION_AGREEING_WORD,  /* both sides agree on the method's witness */
	DECISION_METHOD_FAILED,  /* MR_INTERNAL: the method's own check
				  * failed (.res.reason, or NULL) */
	DECISION_FALSE_PROOF,    /* evaluation separates the sides on
				  * .fault_word, which the method proved
				  * equal */
	DECISION_FALSE_BOUND,    /* the same for a bounded answer */
	DECISION_DISAGREE,       /* two methods of the portfolio gave
				  * opposite definite answers (.other) */
} DecisionCheck;

typedef struct {
	const char *asked;   /* "auto" or a method's name */
	Query q;             /* the question, as the method being run sees it */
	Limits lim;          /* the caller's, or the default budget */
	double complete_end; /* with a length bound but no timeout under auto:
			      * when the complete methods' default budget
			      * ends (0: no such budget) */
	bool user_limit;     /* a limit the caller gave bounds the search */
	MethodResult res;
	const char *method;  /* the method the result rests on */
	char *note;          /* extra words for the method, or NULL */
	bool accepted_by_first; /* MR_DIFFERENT: the first root accepts
				 * the witness */
	DecisionCheck check;
	const char *other;   /* DECISION_DISAGREE: the other method */
	char *arm_fault;     /* auto: the errors of methods whose answer was
			      * not used ("method chc: ..."; lines), or NULL */
	bool own_timer;      /* decision_start() armed the process's timer */
	char *fault;         /* DECISION_NO_RECHECK: the evaluator's reason */
	Runs fault_word;     /* DECISION_FALSE_*: the separating word */
} Decision;

/* Whether name is a method of the table (not "auto"). */
bool decision_method_exists(const char *name);


/* Arms the limits: user's (copied; timeout 0 and max_memory 0 mean none
 * given), the bound on lengths and states the Query will carry (0: none
 * given), and the method asked for ("auto" or a name the table has). */
void decision_start(Decision *d, const char *asked, const Limits *user,
		    size_t max_length, size_t max_states);

/* Decides q (whose .limits is &d->lim) and checks the answer; see the
 * top of this file. */
void decision_run(Decision *d, const Query *q);

/* For a caller that armed its own limits and evaluates every short word
 * itself (search's verify.c): decides q with the portfolio of every
 * method, within `budget` seconds (and q->limits); a witness is
 * re-checked, opposite answers and a method's failed own check are
 * faults (.check), a proof is not evaluated again on short words (the
 * caller's own evaluation is that second path), no witness is
 * shortened.  d is set up here; decision_free() releases it
 * and leaves the caller's timer alone. */
void decision_run_all(Decision *d, const Query *q, double budget);

/* Whether the result is an answer for the lengths checked: MR_BOUNDED,
 * or explore stopped by the default budget (its bound says what it
 * covered; no user limit was reached). */
bool decision_bounded(const Decision *d);

void decision_free(Decision *d);

#endif
