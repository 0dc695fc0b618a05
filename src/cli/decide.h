/* decide -- the face of `tally equiv` and `tally check`.
 *
 * decide_run() builds a Query from loaded inputs (method.h), reducing
 * satisfiability, validity and implication to equivalence, hands it to
 * the decision engine (decide/decision.h: the method or the auto
 * sequence within the budget, the re-check of every answer) and prints
 * the verdict lines of cli.md, the JSON object or a --pairs record, with
 * the exit status.  The options shared by both commands are parsed here
 * too.
 *
 * Ownership: decide_run borrows the Inputs (it adds nodes to its Store).
 */
#ifndef TALLY_DECIDE_H
#define TALLY_DECIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "machine/eval.h"
#include "base/limit.h"
#include "cli/getopt_hint.h"
#include "cli/options.h"

/* NONNEG and BOUNDED are about count-valued inputs, at every position
 * (decide_seq.h). */
typedef enum {
	TASK_EQUIV, TASK_SAT, TASK_VALID, TASK_IMPLIES, TASK_NONNEG, TASK_BOUNDED
} DecideTask;

/* One record of `equiv --pairs`: printed as one numbered line (or JSON
 * object with "index" and "source"), checked against its expected
 * verdict. */
typedef struct {
	bool as_expected;
} DecideRecordResult;

typedef struct {
	size_t index;         /* 1-based */
	const char *source;   /* FILE:LINE */
	const char *expected; /* "equivalent", "not-equivalent" or NULL */
	const char *witness;  /* the expected witness (its length is
			       * compared), or NULL */
	DecideRecordResult *result;
} DecideRecord;

typedef struct {
	const char *method;   /* auto, explore, presburger, chc, mona, unary */
	Limits lim;           /* --timeout, --max-memory (limit.h); none
			       * given: the default budget */
	size_t max_length, max_states; /* 0 = none given */
	const char *alphabet; /* --alphabet, or NULL */
	AcceptAt accept;
	bool json, trace, certificate, quiet;
	bool per_position;    /* compare the outputs at every position */
	size_t bound;         /* TASK_BOUNDED: K */
	const DecideRecord *record; /* equiv --pairs, else NULL */
} DecideOptions;

/* The option rows the commands share (options.h), into *o. */
#define DECIDE_ROWS(o)                                                        \
	OPTION_TEXT_ROW("Method and limits:\n"),                              \
	OPTION_CHOICE_ROW("method", "METHOD", decide_methods, &(o)->method,   \
			  "auto (default: all of them side by side,\n"      \
			  "one process each, the first answer wins),\n"      \
			  "or one of explore, presburger, chc, mona,\n"      \
			  "unary (that method alone)"),                        \
	OPTION_COUNT_ROW(0, "max-length", "N", 1, SIZE_MAX, &(o)->max_length, \
			 "explore every word up to length N"),                \
	OPTION_TEXT_ROW("Limits (reached: unknown, with what was checked, "   \
			"and exit 4):\n"),                                     \
	OPTION_SECONDS_ROW("timeout", &(o)->lim.timeout,                      \
			   "wall-clock time, one deadline for every\n"        \
			   "method (without it and without --max-length:\n"   \
			   "a budget of 3 s whose end is a bounded\n"         \
			   "answer, exit 3)"),                                 \
	OPTION_COUNT_ROW(0, "max-states", "N", 1, SIZE_MAX, &(o)->max_states, \
			 "states explore may visit"),                         \
	OPTION_SIZE_ROW("max-memory", &(o)->lim.max_memory,                   \
			"resident memory (K, M, G; default 1G)"),              \
	OPTION_TEXT_ROW("Words:\n"),                                          \
	OPTION_STRING_ROW(0, "alphabet", "LETTERS", &(o)->alphabet,           \
			  "letters besides those the inputs mention\n"        \
			  "(a,b,c or abc)"),                                   \
	ACCEPT_AT_ROW(&(o)->accept, "last (default) or eos"),                 \
	OPTION_FLAG_ROW(0, "per-position", &(o)->per_position,                \
			"read the outputs at every position, not only\n"    \
			"the judged one (count-valued inputs always)"),      \
	OPTION_TEXT_ROW("Output:\n"),                                         \
	OPTION_FLAG_ROW(0, "trace", &(o)->trace,                              \
			"the counterexample's trace table for both\n"         \
			"sides"),                                              \
	OPTION_FLAG_ROW(0, "certificate", &(o)->certificate,                  \
			"the evidence of a proof (invariant, argument)"),     \
	OPTION_FLAG_ROW(0, "json", &(o)->json,                                \
			"one JSON object: verdict, method, bound,\n"          \
			"counterexample and its subformula values"),          \
	OPTION_FLAG_ROW(0, "quiet", &(o)->quiet,                              \
			"no progress line on stderr"),                        \
	OPTION_HELP_ROW
/* The values of --method. */
extern const char *const decide_methods[];

void decide_options_init(DecideOptions *o);

/* units: the loaded inputs (in->units); for TASK_EQUIV two (first,
 * second), for TASK_IMPLIES two (F, G), else one.  Returns the exit
 * status. */
int decide_run(Inputs *in, DecideTask task, const DecideOptions *o);

/* decide_run on one record of a batch or of equiv --pairs: a record the
 * method refuses (a usage error after loading) is reported in its place
 * with its reason (cli_record_error).  Returns decide_run's status. */
int decide_run_record(Inputs *in, DecideTask task, const DecideOptions *o,
		      size_t index, const char *source);

/* When set (tally-mpi: "explore"), the one --method decide_run accepts;
 * any other is a usage error. */
extern const char *decide_only_method;

#endif
