/* mpi_main.c -- tally-mpi: tally's commands whose engines are
 * distributed, run by every rank of an MPI job (mpi_job.h).
 *
 * The commands are tally's own (cmd_equiv, cmd_check, cmd_lang,
 * cmd_hierarchy, cmd_search, cmd_enum, cmd_gen of libtally.a): this
 * driver only installs the distributed engines in their hooks --
 * explore's merging search (mpi_explore.h), lang --count (mpi_count.h),
 * the seam of the search engine, enum and gen's counts (share.h,
 * mpi_share.h), hierarchy's pairs (mpi_pairs.h) -- and restricts
 * equiv and check to --method=explore, the one method that is
 * distributed.  Work outside the hooks (parsing,
 * the checks decision.c makes before printing, lang's word listing,
 * explore of formulas with #>, gen's sampler and labels) is done by
 * every rank alike; rank 0 prints.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/decide.h"
#include "decide/explore.h"
#include "machine/lang_count.h"
#include "base/mem.h"
#include "mpi/mpi_count.h"
#include "mpi/mpi_explore.h"
#include "mpi/mpi_job.h"
#include "mpi/mpi_pairs.h"
#include "mpi/mpi_share.h"

typedef struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
	bool search; /* the search engine's (share.h); else explore's */
} Command;

static const Command commands[] = {
	{"equiv", cmd_equiv, "two inputs, the same language? (--method=explore)",
	 false},
	{"check", cmd_check, "satisfiability, validity, implication "
			     "(--method=explore)", false},
	{"lang", cmd_lang, "accepted words (--count is distributed)", false},
	{"hierarchy", cmd_hierarchy, "the depth-hierarchy table (the bank is "
				     "shared out)", true},
	{"search", cmd_search, "least-depth formulas, --separate (the bank is "
			       "shared out)", true},
	{"enum", cmd_enum, "formulas by depth and size (the signatures are "
			   "shared out)", true},
	{"gen", cmd_gen, "labelled words (the exact counts are shared out)",
	 true},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

/* tally's other commands, which this program does not run (yet). */
static const char *const local_only[] = {
	"demo", "eval", "info", "print",
	"translate", "repl", "compile", "simulate",
};

static void usage(FILE *out)
{
	fputs("Usage: mpirun [-np N] tally-mpi COMMAND [OPTION]...\n"
	      "       tally-mpi --help | --version\n"
	      "tally's long searches over the ranks of an MPI job: every rank\n"
	      "reads the same inputs, the states are shared out by hash, and\n"
	      "rank 0 prints exactly what tally prints, with tally's exit status.\n\n"
	      "Commands:\n", out);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\n'tally-mpi COMMAND --help' is tally's help of the command.\n"
	      "Inputs must be readable by every rank (stdin reaches rank 0\n"
	      "only); --timeout, --max-memory and --max-states bound the whole\n"
	      "job.  Open MPI refuses to run as root without\n"
	      "--allow-run-as-root (or OMPI_ALLOW_RUN_AS_ROOT=1 and\n"
	      "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1).\n\n"
	      "Examples:\n"
	      "  mpirun -np 4 tally-mpi equiv --method=explore --max-length 200 \\\n"
	      "    -f dyck1 -f \"#['('] = #[')'] & #[')' & #[')'] = #['('] + 1] = 0\"\n"
	      "  mpirun -np 4 tally-mpi lang -f dyck1 -n 400 --count\n"
	      "  mpirun -np 4 tally-mpi hierarchy --k=1..6 --quiet\n\n",
	      out);
	fputs(cli_exit_help, out);
}

static int unknown(const char *name)
{
	for (size_t i = 0; i < sizeof local_only / sizeof *local_only; i++)
		if (strcmp(name, local_only[i]) == 0)
			return status_usage_error("tally-mpi does not run '%s' (not "
					       "distributed yet); use tally %s",
					       name, name);
	return status_usage_error("unknown command '%s' (see 'tally-mpi --help')",
			       name);
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(name, commands[i].name) != 0)
			continue;
		if (commands[i].search) {
			/* the verification's explore is rank 0's own */
			share_job = mpi_share();
			/* hierarchy's pairs: the last rank's, a row ahead */
			if (mpi_job_size() > 1)
				pairgen_hook = mpi_pairs_run;
		} else {
			explore_merge_hook = mpi_explore_merge;
			lang_count_hook = mpi_count;
			decide_only_method = "explore";
		}
		int status = cli_run_command(name, commands[i].run, argc, argv);
		mpi_pairs_end();
		return status;
	}
	return unknown(name);
}

int main(int argc, char **argv)
{
	mem_install();
	/* Help and version need no job (nor mpirun). */
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 ||
			  strcmp(argv[1], "-h") == 0)) {
		usage(stdout);
		return EXIT_YES;
	}
	if (argc == 2 && (strcmp(argv[1], "--version") == 0 ||
			  strcmp(argv[1], "-V") == 0)) {
		cli_print_version();
		return EXIT_YES;
	}
	mpi_job_init(&argc, &argv);
	return mpi_job_end(dispatch(argc, argv));
}
