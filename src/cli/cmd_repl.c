/* cmd_repl.c -- `tally repl` (and `tally` alone on a terminal). */
#include <config.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "base/limit.h"
#include "cli/repl.h"

static const char intro[] =
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
	"terminal on stdin starts the REPL.\n\n";

static const char outro[] =
	"\n"
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
	bool echo = false;
	Limits lim;
	limit_init(&lim);
	const Option rows[] = {
		OPTION_TEXT_ROW("Options:\n"),
		OPTION_FLAG_ROW(0, "echo", &echo,
				"in a script, print each line after its prompt,\n"
				"as a terminal shows the session (transcripts)"),
		OPTION_HELP_ROW,
		OPTION_TEXT_ROW("Limits of each :lang, :equiv and :check (reached: "
				"what was found\nso far stays printed, a message, "
				"and the session goes on):\n"),
		OPTION_SECONDS_ROW("timeout", &lim.timeout, "wall-clock time"),
		OPTION_SIZE_ROW("max-memory", &lim.max_memory,
				"resident memory (suffixes K, M, G)"),
	};
	const OptionTable table = OPTION_TABLE(intro, rows, outro);
	int status = options_parse(&table, argc, argv);
	if (status != EXIT_YES)
		return status == OPTIONS_DONE ? EXIT_YES : status;
	if (optind < argc)
		return status_usage_error("unexpected argument '%s'", argv[optind]);
	return repl_run(echo, &lim);
}
