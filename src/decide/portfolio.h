/* portfolio -- decision methods run side by side on one Query, each in a
 * forked child process that sends its MethodResult back through a pipe;
 * the first definite answer (MR_EQUIVALENT or MR_DIFFERENT) ends the
 * others.  The rows are in order of preference: when a definite answer
 * comes while an earlier row is still running, that row is waited for a
 * little longer (PORTFOLIO_PREFER plus the time the answer took), so
 * that which method answers -- printed on the method: line -- does not
 * depend on how the machine scheduled the processes.  A larger deadline
 * is therefore never slower to a definite answer, beyond that wait.
 *
 * Why processes and not threads (HACKING.md, "The portfolio"): the
 * methods were written for a process of their own -- Z3 and MONA keep
 * global state, explore's deadline is the process-wide timer of
 * base/limit.h, a method may exit on a memory failure (mem.h) -- and a
 * method that will not stop (a solver deep in one call) can only be
 * stopped from outside.  A child is stopped by SIGKILL and leaves nothing
 * behind: PR_SET_PDEATHSIG ends it if tally itself dies, mona.c's MONA
 * process dies with it, and its temporary files live in a directory of
 * this run that portfolio_run() removes.  The parent never loads Z3 for
 * the portfolio (z3api.h loads it on first use, in the children), and it
 * has no other thread when it forks, so no lock can be held across the
 * fork.
 *
 * A child copies the parent's memory, so the Query, its Store and the
 * Limits it points to are the child's own; the child re-arms the Limits'
 * deadline (fork clears timers), reports the limit it reached with its
 * result, and leaves by _exit (no stdio buffer of the parent is flushed
 * twice, no exit handler runs).
 *
 * Test hook (HACKING.md): TALLY_INJECT_ARM_FAULT=NAME makes the arm of
 * method NAME report a failed own check (MR_INTERNAL);
 * TALLY_INJECT_ARM_FAULT=NAME:crash makes it die by SIGKILL.
 *
 * Ownership: an ArmOutcome owns its result and failure text
 * (arm_outcome_free).
 */
#ifndef TALLY_PORTFOLIO_H
#define TALLY_PORTFOLIO_H

#include <stddef.h>

#include "base/limit.h"
#include "decide/method.h"

/* How long an arm may overrun its end before it is killed: explore
 * stops by itself at the deadline (it polls), a solver at its own
 * timeout; this is for those that do not. */
#define PORTFOLIO_GRACE 0.5

/* How long, at least, an earlier row is waited for after a later row's
 * definite answer. */
#define PORTFOLIO_PREFER 0.5

typedef struct {
	const char *name;
	MethodFn fn;
	double timeout; /* the arm's q.timeout, seconds (0: none) */
	double end;     /* limit_now() time after which (plus the grace) the
			 * arm is killed; 0: it ends by itself */
} PortfolioArm;

typedef enum {
	ARM_ANSWERED,  /* .res is its answer */
	ARM_FAILED,    /* it died without one: .failure says how */
	ARM_STOPPED,   /* killed at its end plus the grace */
	ARM_CANCELLED, /* killed because another arm answered */
} ArmState;

typedef struct {
	ArmState state;
	MethodResult res;
	LimitKind hit;  /* ARM_ANSWERED: the limit its Limits reached */
	size_t memory;  /* ... and the memory reading, for LIMIT_MEMORY */
	char *failure;
} ArmOutcome;

/* Whether a status is a definite answer (it ends the portfolio). */
bool portfolio_definite(MethodStatus s);

/* Runs arms[0..n) on q side by side (q->limits, if any, is each child's
 * copy, re-armed there) until an arm answers definitely and no earlier
 * arm runs, or the wait for the earlier ones is over -- then every arm
 * still running is cancelled -- or every arm has ended.  out[i] is arm
 * i's outcome; several may be definite answers (the caller compares
 * them).  When fork()
 * fails, the arm runs here, in this process, before the next is
 * started. */
void portfolio_run(const Query *q, const PortfolioArm *arms, size_t n,
		   ArmOutcome *out);

void arm_outcome_free(ArmOutcome *o);

#endif
