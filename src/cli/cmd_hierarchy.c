/* cmd_hierarchy.c -- `tally hierarchy`: the depth-hierarchy table of L_k,
 * for recognition or next-token prediction, or of D_k past-only beside
 * two-sided.  This file reads the options; hierarchy_lk.c and
 * hierarchy_dk.c run the tables. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/share.h"
#include "cli/commands.h"
#include "cli/getopt_hint.h"
#include "cli/hierarchy_table.h"
#include "search/hierarchy.h"

static const char intro[] =
	"Usage: tally hierarchy [OPTION]... [--family=lk] [--k=RANGE]\n"
	"          [--task=recognize|predict]\n"
	"The depth-hierarchy table: for each k, the least depth at which a\n"
	"formula agrees with L_k (exactly k alternating blocks of a and b,\n"
	"starting with a) on the sample and is verified, the smallest formula\n"
	"found there, and for every shallower depth pairs of words that no\n"
	"formula of that depth within the class (constants <= C, T counts per\n"
	"comparison, any size) tells apart, as an exact check shows.  Theory:\n"
	"depth k for recognising L_k, depth m-2 for the prediction task of L_m.\n\n"
	;

static const char outro[] =
	"\n"
	"Method: a bank of formulas by depth, one per signature on the sample;\n"
	"an exact partition test per depth; greedy choice and a small\n"
	"enumeration for the formula; its verification, and while it fails\n"
	"the words where it differs join the sample (rounds of\n"
	"counterexamples).  A shallower depth is refuted by a pair the class\n"
	"cannot separate when one is found, else only by the bank's own\n"
	"comparisons on the sample (the row says which).  Lower bounds: a\n"
	"pair u in L_k, v not, built as runs (u = P Y^(n+1) X X, v = P Y^n X Y\n"
	"X), that no formula of depth k-1 within C, T separates, as two exact\n"
	"checks that share no code both show; a row says \"least depth\" only\n"
	"when such a pair certifies the depth below the one found.\n\n"
	"Examples:\n"
	"  tally hierarchy --k=1..3\n"
	"  tally hierarchy --task=predict --k=3..5 --csv\n"
	"  tally hierarchy --k=1..3 --pairs=0 --max-length=6\n"
	"  tally hierarchy --family=dk --k=1..4\n"
	"  tally hierarchy --k=1..5 --plot=h.svg\n\n"
	"Exit status 0: every row found at the theory's depth and verified;\n"
	"1: some row differs or has no verified formula.\n";

static int parse(Table *t, int argc, char **argv)
{
	static const char *const families[] = {"lk", "dk", NULL};
	static const char *const tasks[] = {"recognize", "predict", NULL};
	const char *family = "lk", *task = "recognize";
	bool k_given = false;
	const Option rows[] = {
		OPTION_TEXT_ROW("Table:\n"),
		OPTION_CHOICE_ROW("family", "FAMILY", families, &family,
				  "lk (default), or dk: D_k = L_(2k-1), the\n"
				  "least depth with past counts only beside the\n"
				  "least depth with future counts #> too\n"
				  "(default k = 1..4)"),
		{.name = "k", .kind = OPTION_RANGE, .meta = "RANGE", .lo = 0,
		 .hi = 12, .bounded = true, .dest = &t->klo, .dest2 = &t->khi,
		 .width = sizeof t->klo, .given = &k_given,
		 .help = "the rows: N, N..M (default 1..4; predict 3..6)"},
		OPTION_CHOICE_ROW("task", "TASK", tasks, &task,
				  "recognize (default) or predict: accept exactly\n"
				  "the nonempty prefixes of members of L_k that\n"
				  "are members, judged on those prefixes"),
		SEARCH_CLI_ROWS(&t->o),
		OPTION_COUNT_ROW(0, "search-depth", "N", 0, SEARCH_MAXD,
				 &t->search_depth,
				 "search only rows whose theory depth is at\n"
				 "most N (default 5); a deeper row takes the\n"
				 "theory's formula as its upper bound (L_k's own,\n"
				 "or Q_x & S(b a b ...) for prediction), verified,\n"
				 "and keeps its certified lower bound; a D_k row\n"
				 "by its past-only depth 2k-1, both parts built"),
		OPTION_COUNT_ROW(0, "lower-bounds", "N", 0, 1000, &t->lower_tries,
				 "candidates per row for a pair the engine builds\n"
				 "itself that certifies the depth below the\n"
				 "theory's: k-1, or m-3 for prediction (default\n"
				 "12; 0: none)"),
		OPTION_FLAG_ROW(0, "no-time", &t->no_time,
				"no times and no memory figures (reproducible\n"
				"output)"),
		OPTION_STRING_ROW(0, "plot", "FILE", &t->plot_path,
				  "also draw the table as an SVG chart in FILE:\n"
				  "per row and depth found (proof, bound or\n"
				  "sample only), refuted (by pairs, or by the\n"
				  "search on the sample) or not tried"),
		OPTION_HELP_ROW,
	};
	const OptionTable table = OPTION_TABLE(intro, rows, outro);
	int status = options_parse(&table, argc, argv);
	if (status != EXIT_YES)
		return status;
	if (optind < argc)
		return status_usage_error("unexpected argument '%s'", argv[optind]);
	t->dk = strcmp(family, "dk") == 0;
	t->predict = strcmp(task, "predict") == 0;
	if (t->dk && t->predict)
		return status_usage_error("--family=dk is a recognition table");
	size_t kmin = t->predict ? 3 : 1;
	if (!k_given) {
		t->klo = kmin;
		t->khi = t->predict ? 6 : 4; /* L_1..L_4, D_1..D_4 */
	}
	if (t->klo < kmin)
		t->klo = kmin;
	if (t->khi < t->klo)
		return status_usage_error("--k must lie in %zu..12", kmin);
	return EXIT_YES;
}

/* --plot: the temporary file, created before any work. */
static int open_plot(Table *t)
{
	char *err = NULL;
	if (!*t->plot_path)
		return status_usage_error("--plot needs a file name");
	t->plot = plot_open(t->plot_path, &err);
	if (t->plot)
		return EXIT_YES;
	status_usage_error("--plot: %s", err);
	free(err);
	return EXIT_USAGE;
}

int cmd_hierarchy(int argc, char **argv)
{
	Table t = {.lower_tries = 12, .search_depth = 5};
	search_opts_init(&t.o);
	t.o.base1 = t.o.base; /* a larger depth-2 layer imitates L_5 */
	int status = parse(&t, argc, argv);
	if (status != EXIT_YES)
		return status < 0 ? EXIT_YES : status;
	/* under tally-mpi every rank runs the command: rank 0 draws */
	if (share_job && share_job->rank != 0)
		t.plot_path = NULL;
	if (t.plot_path && (status = open_plot(&t)) != EXIT_YES)
		return status;
	limit_start(&t.o.lim);
	t.st = store_new();
	t.ab[0] = sym_intern(store_syms(t.st), "a", 1);
	t.ab[1] = sym_intern(store_syms(t.st), "b", 1);
	status = t.dk ? table_run_dk(&t) : table_run_lk(&t);
	table_free_lists(&t);
	return status;
}
