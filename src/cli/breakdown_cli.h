/* breakdown_cli -- `tally simulate --find-breakdown` over a list of
 * semantics: each in turn (breakdown.h, simcheck_breakdown), its line or
 * JSON record printed as it ends, the records drawn by --plot
 * (plot_breakdown.h).
 *
 * Ownership: borrows the model, the first SimCheck and the limits.
 */
#ifndef TALLY_BREAKDOWN_CLI_H
#define TALLY_BREAKDOWN_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "base/limit.h"
#include "transformer/model.h"
#include "transformer/simcheck.h"

enum { BREAKDOWN_MAX_SEMANTICS = 8 };

typedef struct {
	const Model *m;
	const char *model_name; /* for the plot: a path, or "stdin" */
	const Semantics *sems;
	size_t nsem;
	size_t maxlen, maxstates;
	bool json;
	const char *plot;       /* --plot=FILE, or NULL */
	Limits *lim;
} BreakdownRun;

/* Runs the searches (sc: the SimCheck of sems[0]); stops at the first
 * that does not end in 0 or 1 (a limit, an error).  Exit status: 1 if
 * some semantics disagrees, else 0, or the status it stopped with. */
int breakdown_cli_run(const BreakdownRun *r, SimCheck *sc);

#endif
