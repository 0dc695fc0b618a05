/* cmd_repl.c -- `tally repl` (and `tally` alone on a terminal). */
#include <config.h>

#include <getopt.h>

#include "cli/cli.h"
#include "cli/getopt_hint.h"
#include "cli/commands.h"
#include "base/limit.h"
#include "cli/repl.h"

enum { OPT_ECHO = OPT__COMMAND_BASE };

static const char help[] =
	"Usage: tally repl\n"
	"An interactive workbench for formulas and C-RASP programs.  Type a\n"
	"formula, a definition (let NAME = FORMULA, or the C-RASP NAME := ...)\n"
	"or a : command (:help lists them).  After each definition its\n"
	"values at every position of the example word (:word WORD) are shown.\n"
	"An input ending inside an open bracket continues on the next line.\n"
	"The : commands do the work of the commands of the same name (:info,\n"
	":eval, :lang, :tl, :crasp, ...).\n\n"
	"On a terminal: line editing, tab completion of commands, names and\n"
	"letters, and history in $TALLY_HISTORY (default ~/.tally_history);\n"
	"Ctrl-C abandons the input being typed, Ctrl-D or :quit leaves.\n"
	"When stdin is not a terminal it is read as a script: no prompts and\n"
	"no echo, errors reported and the session going on; the exit status\n"
	"is then 2 when some input failed.  'tally' with no arguments and a\n"
	"terminal on stdin starts the REPL.\n\n"
	"Options:\n"
	"      --echo             in a script, print each line after its prompt,\n"
	"                         as a terminal shows the session (transcripts)\n"
	"  -h, --help             show this help and exit\n"
	"Limits of each :lang, :equiv and :check (reached: what was found\n"
	"so far stays printed, a message, and the session goes on):\n"
	"      --timeout=SECONDS  wall-clock time\n"
	"      --max-memory=SIZE  resident memory (suffixes K, M, G)\n\n"
	"Examples:\n"
	"  tally repl\n"
	"  printf ':word aab\\nlet A = #[Q_a] > #[Q_b]\\n:info\\n' | tally repl\n\n"
#ifndef HAVE_READLINE
	"This tally was built without GNU readline: no line editing,\n"
	"completion or history on a terminal.\n\n"
#endif
	;

int cmd_repl(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"echo", no_argument, NULL, OPT_ECHO},
		LIMIT_OPTIONS,
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	bool echo = false, ok;
	int opt;
	Limits lim;
	limit_init(&lim);
	while ((opt = cli_getopt(argc, argv, "h", longopts)) != -1) {
		if (limit_option(&lim, opt, optarg, &ok)) {
			if (!ok)
				return EXIT_USAGE;
		} else if (opt == OPT_ECHO) {
			echo = true;
		} else if (opt == 'h') {
			cli_print_help(help);
			return EXIT_YES;
		} else {
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return status_usage_error("unexpected argument '%s'", argv[optind]);
	return repl_run(echo, &lim);
}
