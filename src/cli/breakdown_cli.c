/* breakdown_cli.c -- --find-breakdown for a list of semantics. */
#include <config.h>

#include "cli/breakdown_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "cli/cli.h"
#include "cli/plot_breakdown.h"

/* The plot's title and the lines under it: the model and the bounds. */
static void plot_header(const BreakdownRun *r, Plot *p)
{
	Buf b = {0};
	plot_title(p, "tally simulate --find-breakdown: the first length at "
		   "which each semantics disagrees with kneedeep");
	buf_printf(&b, "model: %s (F_{%d,%d}, %zu layer%s)%s%s", r->model_name,
		   r->m->p, r->m->s, r->m->nlayers, r->m->nlayers == 1 ? "" : "s",
		   r->m->formula ? ", formula: " : "",
		   r->m->formula ? r->m->formula : "");
	plot_line(p, b.data);
	b.len = 0;
	buf_printf(&b, "search: every word up to length %zu, at most %zu states "
		   "per semantics; under kneedeep the model decides like the "
		   "formula at every length, and each witness is checked by "
		   "tally's evaluator", r->maxlen, r->maxstates);
	plot_line(p, b.data);
	buf_free(&b);
}

/* Draws what was established (status 0, 1 or 4); else removes the file. */
static int finish(const BreakdownRun *r, Plot *p, size_t done, int status)
{
	if (status != EXIT_YES && status != EXIT_NO && status != EXIT_LIMIT) {
		plot_discard(p);
		return status;
	}
	Buf note = {0};
	if (done < r->nsem) {
		buf_printf(&note, "a limit stopped the search under %s; not run:",
			   semantics_name(&r->sems[done]));
		for (size_t i = done + 1; i < r->nsem; i++)
			buf_printf(&note, " %s", semantics_name(&r->sems[i]));
		if (done + 1 == r->nsem)
			buf_puts(&note, " none");
	}
	char *err = NULL;
	if (!plot_breakdown_write(p, note.data, &err)) {
		status = status_usage_error("--plot: %s", err);
		free(err);
	}
	buf_free(&note);
	return status;
}

int breakdown_cli_run(const BreakdownRun *r, SimCheck *sc)
{
	Plot *plot = NULL;
	char *err = NULL;
	if (r->plot && !(plot = plot_open(r->plot, &err))) {
		status_usage_error("--plot: %s", err);
		free(err);
		return EXIT_USAGE;
	}
	if (plot)
		plot_header(r, plot);
	int status = EXIT_YES;
	size_t i;
	for (i = 0; i < r->nsem; i++) {
		SimCheck *c = i ? simcheck_new(r->m, &r->sems[i], true, &err) : sc;
		if (!c) { /* the same model passed for sems[0] */
			status = status_usage_error("%s", err);
			free(err);
			break;
		}
		simcheck_limits(c, r->lim);
		json_t *rec = NULL;
		int st = simcheck_breakdown(c, r->maxlen, r->maxstates, stdout,
					    r->json, plot ? &rec : NULL);
		if (rec)
			plot_record(plot, rec);
		json_decref(rec);
		if (i)
			simcheck_free(c);
		if (st != EXIT_YES && st != EXIT_NO) {
			status = st;
			break;
		}
		if (st == EXIT_NO)
			status = EXIT_NO;
	}
	fflush(stdout);
	return plot ? finish(r, plot, i, status) : status;
}
