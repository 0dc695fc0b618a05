/* cmd_equiv.c -- `tally equiv`: do two inputs define the same language? */
#include <config.h>

#include <getopt.h>

#include "cli.h"
#include "commands.h"
#include "decide.h"

static const char help[] =
	"Usage: tally equiv [OPTION]... INPUT INPUT\n"
	"Decide whether two formulas or programs (each -f FORMULA, -F FILE or\n"
	"-P PROGRAM; mixing is fine) accept the same words.  The first line is\n"
	"one of:\n"
	"  equivalent                  proved for every length (exit 0)\n"
	"  not equivalent              then 'counterexample: WORD (accepted by\n"
	"                              first|second)', a shortest such word,\n"
	"                              run-length (a^N b) when long (exit 1)\n"
	"  equivalent up to length N   every word up to length N agrees (exit 3)\n"
	"  unknown                     (exit 3; 4 when --timeout, --max-states\n"
	"                              or --max-memory stopped the search)\n"
	"A 'method:' line says what the verdict rests on.  Methods: explore\n"
	"(breadth-first over the states of the two compiled machines, merging\n"
	"equal states: shortest counterexamples, bounded verdicts, and\n"
	"'equivalent' when the reachable states run out); presburger (depth\n"
	"<= 1), chc (Horn clauses, an inductive invariant), mona (threshold\n"
	"comparisons) and unary (one letter) are exact.  auto tries the exact\n"
	"methods first and then explore within the time budget.\n\n"
	CLI_INPUT_HELP
	DECIDE_HELP
	"\nExamples:\n"
	"  tally equiv -f \"#[Q_b] < #[Q_a]\" -f \"2*#[Q_a] > #[true]\"\n"
	"  tally equiv -f L_2 -f L_3\n"
	"  tally equiv --method=explore --max-length 40 \\\n"
	"    -f \"#['('] = #[')'] & #[#['('] < #[')']] = 0\" \\\n"
	"    -f \"#['('] = #[')'] & #[')' & #[')'] = #['('] + 1] = 0\"\n\n";

int cmd_equiv(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_INPUT_OPTIONS,
		DECIDE_LONG_OPTIONS,
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	Inputs in;
	inputs_init(&in);
	DecideOptions o;
	decide_options_init(&o);
	int opt, status = EXIT_YES;
	while ((opt = getopt_long(argc, argv, "f:F:P:h", longopts, NULL)) != -1) {
		if (inputs_option(&in, opt, optarg))
			continue;
		int r = decide_option(&o, opt, optarg);
		if (r > 0)
			continue;
		if (r == 0 && opt == 'h') {
			cli_print_help(help);
			goto done;
		}
		status = EXIT_USAGE;
		goto done;
	}
	if (in.nspecs != 2) {
		status = cli_usage_error(
			"equiv needs two inputs (-f, -F or -P, one for each "
			"side), %s %zu",
			in.nspecs < 2 ? "got only" : "got", in.nspecs);
		goto done;
	}
	status = cli_load_inputs(&in, argc, argv, false);
	if (status != EXIT_YES) {
		if (optind >= argc)
			cli_usage_error("the %s input does not load",
					in.nunits == 0 ? "first" : "second");
		goto done;
	}
	status = decide_run(&in, TASK_EQUIV, &o);
done:
	inputs_free(&in);
	return status;
}
