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

typedef enum { TASK_EQUIV, TASK_SAT, TASK_VALID, TASK_IMPLIES } DecideTask;

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
	const DecideRecord *record; /* equiv --pairs, else NULL */
} DecideOptions;

/* getopt_long codes of the shared options. */
enum {
	OPT_METHOD = OPT__COMMAND_BASE + 50,
	OPT_MAX_LENGTH,
	OPT_MAX_STATES,
	OPT_D_ALPHABET,
	OPT_D_ACCEPT_AT,
	OPT_D_TRACE,
	OPT_CERTIFICATE,
	OPT_QUIET,
};

#define DECIDE_LONG_OPTIONS                                                   \
	{"method", required_argument, NULL, OPT_METHOD},                      \
	LIMIT_OPTIONS,                                                        \
	{"max-length", required_argument, NULL, OPT_MAX_LENGTH},              \
	{"max-states", required_argument, NULL, OPT_MAX_STATES},              \
	{"alphabet", required_argument, NULL, OPT_D_ALPHABET},                \
	{"accept-at", required_argument, NULL, OPT_D_ACCEPT_AT},              \
	{"trace", no_argument, NULL, OPT_D_TRACE},                            \
	{"certificate", no_argument, NULL, OPT_CERTIFICATE},                  \
	{"quiet", no_argument, NULL, OPT_QUIET},                              \
	{"json", no_argument, NULL, OPT_JSON}

#define DECIDE_HELP                                                           \
	"Method and limits:\n"                                                \
	"      --method=METHOD    auto (default), explore, presburger, chc,\n" \
	"                         mona or unary\n"                            \
	"      --max-length=N     explore every word up to length N\n"        \
	"Limits (reached: unknown, with what was checked, and exit 4):\n"    \
	"      --timeout=SECONDS  wall-clock time (without it and without\n"  \
	"                         --max-length: a budget of 3 s whose end is\n" \
	"                         a bounded answer, exit 3)\n"               \
	"      --max-states=N     states explore may visit\n"                 \
	"      --max-memory=SIZE  resident memory (K, M, G; default 1G)\n"   \
	"Words:\n"                                                            \
	"      --alphabet=LETTERS letters besides those the inputs mention\n" \
	"                         (a,b,c or abc)\n"                           \
	"      --accept-at=WHERE  last (default) or eos\n"                    \
	"Output:\n"                                                           \
	"      --trace            the counterexample's trace table for both\n" \
	"                         sides\n"                                    \
	"      --certificate      the evidence of a proof (invariant, argument)\n" \
	"      --json             one JSON object: verdict, method, bound,\n" \
	"                         counterexample and its subformula values\n" \
	"      --quiet            no progress line on stderr\n"               \
	"  -h, --help             show this help and exit\n"

void decide_options_init(DecideOptions *o);
/* Handles one shared option: 1 handled, 0 not ours, -1 bad value
 * (message printed). */
int decide_option(DecideOptions *o, int opt, const char *arg);

/* units: the loaded inputs (in->units); for TASK_EQUIV two (first,
 * second), for TASK_IMPLIES two (F, G), else one.  Returns the exit
 * status. */
int decide_run(Inputs *in, DecideTask task, const DecideOptions *o);

/* When set (tally-mpi: "explore"), the one --method decide_run accepts;
 * any other is a usage error. */
extern const char *decide_only_method;

#endif
