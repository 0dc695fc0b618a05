/* decide -- the decision engine behind `tally equiv` and `tally check`.
 *
 * decide_run() builds a Query from loaded inputs (method.h), reduces
 * satisfiability, validity and implication to equivalence, runs the
 * chosen method (or, with --method=auto, the complete methods first and
 * then explore within the time budget), re-checks every witness by
 * evaluating it run by run (runeval.h) and prints the verdict lines of
 * cli.md.  The options shared by both commands are parsed here too.
 *
 * Ownership: decide_run borrows the Inputs (it adds nodes to its Store).
 */
#ifndef TALLY_DECIDE_H
#define TALLY_DECIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "eval.h"

typedef enum { TASK_EQUIV, TASK_SAT, TASK_VALID, TASK_IMPLIES } DecideTask;

typedef struct {
	const char *method;   /* auto, explore, presburger, chc, mona, unary */
	double timeout;       /* seconds; 0 = the default budget */
	size_t max_length, max_states, max_memory; /* 0 = none given */
	const char *alphabet; /* --alphabet, or NULL */
	AcceptAt accept;
	bool json, trace, certificate, quiet;
} DecideOptions;

/* getopt_long codes of the shared options. */
enum {
	OPT_METHOD = OPT__COMMAND_BASE + 50,
	OPT_TIMEOUT,
	OPT_MAX_LENGTH,
	OPT_MAX_STATES,
	OPT_MAX_MEMORY,
	OPT_D_ALPHABET,
	OPT_D_ACCEPT_AT,
	OPT_D_TRACE,
	OPT_CERTIFICATE,
	OPT_QUIET,
};

#define DECIDE_LONG_OPTIONS                                                   \
	{"method", required_argument, NULL, OPT_METHOD},                      \
	{"timeout", required_argument, NULL, OPT_TIMEOUT},                    \
	{"max-length", required_argument, NULL, OPT_MAX_LENGTH},              \
	{"max-states", required_argument, NULL, OPT_MAX_STATES},              \
	{"max-memory", required_argument, NULL, OPT_MAX_MEMORY},              \
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
	"      --timeout=SECONDS  time budget (default 3 s unless --max-length\n" \
	"                         is given); reaching it gives unknown\n"    \
	"      --max-length=N     explore every word up to length N\n"        \
	"      --max-states=N     stop explore after N states (unknown)\n"    \
	"      --max-memory=SIZE  stop explore beyond SIZE bytes (K, M, G\n"  \
	"                         suffixes; unknown)\n"                       \
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

#endif
