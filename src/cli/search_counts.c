/* search_counts.c -- `tally search` for a count-valued target t (an
 * integer term; logic/README.md §2.7, issue 32).
 *
 * The reduction: a term u of depth d makes every threshold [u >= k] a
 * formula of depth <= d (a comparison adds no depth), so if t had a term
 * of depth d, each [t >= k] would have depth <= d.  Hence the least
 * depth of t is at least every threshold's certified lower bound: e + 1
 * when a pair (u in, v out) that no formula of depth <= e within the
 * class separates is certified by two exact checks (search/claim.h); the
 * search's own comparisons never bound it, nor does a depth merely found
 * for the threshold.  It is at most t's own depth, t being a term of
 * that depth.  When the two meet, the least depth is settled; otherwise
 * the gap is printed as it is.  The thresholds are k = -1, 0, 1, 2 (where t takes values on
 * both sides of them, they carry its depth; the reduction is sound for
 * any k).  Only a formula target: tasks that are not counts of the same
 * word (copying, reversing, sorting) cannot be written as a target.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "base/mem.h"
#include "base/status.h"
#include "cli/search_cmd.h"
#include "core/print.h"

static const long thresholds[] = {-1, 0, 1, 2};
enum { NTHRESHOLDS = sizeof thresholds / sizeof *thresholds };

bool search_counts_target(const Search *s)
{
	const Inputs *in = &s->in;
	if (s->family || s->pos || s->neg || in->nunits == 0)
		return false;
	Node t = in->units[in->nunits - 1].output;
	return t != NODE_NONE && !store_is_bool(in->store, t);
}

int search_counts_run(Search *s)
{
	Store *st = s->in.store;
	Node t = s->in.units[s->in.nunits - 1].output;
	if (s->o.json || s->o.csv)
		return status_usage_error("a count-valued target is searched "
					  "through its thresholds, printed as "
					  "text only (no --json or --csv)");
	if (store_flags(st, t) & FLAG_FUTURE)
		return status_usage_error("a count-valued target with future "
					  "counts (#>) is not searched");
	char *text = tl_print_brief(st, t, SYNTAX_TL);
	unsigned own = store_depth(st, t), maxd = s->maxd;
	printf("count-valued target: %s (depth %u as written)\n", text, own);
	long lower = 0;
	int status = EXIT_YES;
	for (int i = 0; i < NTHRESHOLDS && status != EXIT_USAGE &&
			status != EXIT_INTERNAL; i++) {
		Node k = store_make_const_si(st, thresholds[i]);
		Node f = store_make_cmp(st, REL_GE, t, k);
		printf("\nthreshold t >= %ld:\n", thresholds[i]);
		fflush(stdout);
		s->maxd = maxd;
		s->lower = 0;
		free(s->target_text);
		s->target_text = NULL;
		int st1 = search_formula_target(s, f);
		if (st1 == EXIT_YES)
			st1 = search_run_target(s);
		if (st1 == EXIT_USAGE || st1 == EXIT_LIMIT || st1 == EXIT_INTERNAL)
			status = st1;
		if ((long)s->lower > lower)
			lower = (long)s->lower;
	}
	printf("\n");
	if (status == EXIT_YES && own == 0) {
		printf("least depth of the count: 0 (the term itself has depth "
		       "0)\n");
	} else if (status == EXIT_YES && lower == (long)own) {
		printf("least depth of the count: %u (the term itself has depth "
		       "%u; a term of depth d makes [t >= k] a formula of depth "
		       "<= d, and a threshold above has a pair certified at "
		       "depth %ld)\n",
		       own, own, lower - 1);
	} else if (status == EXIT_YES) {
		printf("depth of the count: between %ld and %u, not settled (the "
		       "thresholds' certified pairs bound it from below, the "
		       "term as written from above; a shallower term was not "
		       "searched)\n", lower, own);
		status = EXIT_NO;
	}
	free(text);
	return status;
}
