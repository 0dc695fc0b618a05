/* cmd_check.c -- `tally check`: satisfiability, validity, implication. */
#include <config.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/decide.h"

static const char intro[] =
	"Usage: tally check [OPTION]... (--sat | --valid | --implies=G |\n"
	"                               --nonneg | --bounded=K) INPUT\n"
	"Decide a property of one formula or program (-f, -F or -P):\n"
	"  --sat        satisfiable (exit 0, with 'witness: WORD', a shortest\n"
	"               accepted word) or unsatisfiable (exit 1)\n"
	"  --valid      valid: every word accepted (exit 0), or not valid\n"
	"               (exit 1, with 'counterexample: WORD')\n"
	"  --implies=G  valid if every word the input accepts satisfies the\n"
	"               formula G, else not valid with a counterexample\n"
	"With --per-position the three are asked at every position of every\n"
	"word, not only at the judged one; the word line then names the\n"
	"first position where the property fails and the values there.  For\n"
	"a count-valued input (an integer term), at every position:\n"
	"  --nonneg     valid if the value is never negative\n"
	"  --bounded=K  valid if -K <= value <= K\n"
	"Bounded answers read 'unsatisfiable up to length N' / 'valid up to\n"
	"length N' (exit 3), else 'unknown' (exit 3, or 4 when a limit you\n"
	"gave stopped the search).  The methods are those of tally equiv\n"
	"(sat(F) is F against false, valid(F) is F against true), side by\n"
	"side under auto.  'method:' and 'alphabet:' lines follow.\n\n";

static const char examples[] =
	"\nExamples:\n"
	"  tally check --sat -f \"#[Q_a] > #[Q_b] & #[Q_b] > #[Q_a]\"\n"
	"  tally check --valid -f \"#[Q_a] + #[Q_b] = #[true]\"\n"
	"  tally check --implies=\"#[Q_a] >= 1\" -f \"#[Q_a] > #[Q_b]\"\n"
	"  tally check --nonneg -f histogram\n"
	"  tally check --bounded=3 -f margin\n\n";

/* --batch: each record decided on its own, one numbered line each; the
 * exit status is the worst of the records' (status_worse), each the one
 * `tally check` would exit with on that record alone. */
static int check_batch(Inputs *in, DecideTask task, const DecideOptions *o,
		       bool implies)
{
	size_t n = in->nunits - (implies ? 1 : 0);
	int status = EXIT_YES;
	for (size_t i = 0; i < n; i++) {
		Unit two[2] = {in->units[i], implies ? in->units[n] : in->units[i]};
		Inputs view = *in;
		view.units = two;
		view.nunits = implies ? 2 : 1;
		char source[4096];
		const Source *src = in->units[i].src;
		snprintf(source, sizeof source, "%s:%d", src->name,
			 src->line_base + 1);
		DecideRecordResult res = {0};
		DecideRecord rec = {.index = i + 1, .source = source,
				    .result = &res};
		DecideOptions one = *o;
		one.record = &rec;
		int st = decide_run_record(&view, task, &one, rec.index, source);
		status = status_worse(status, st);
	}
	return status;
}

int cmd_check(int argc, char **argv)
{
	Inputs in;
	inputs_init(&in);
	DecideOptions o;
	decide_options_init(&o);
	bool sat = false, valid = false, nonneg = false;
	const char *implies = NULL;
	unsigned ntasks = 0; /* "--sat --sat" is two tasks, as ever */
	const Option rows[] = {
		CLI_INPUT_ROWS(&in),
		CLI_BATCH_ROW(&in),
		OPTION_TEXT_ROW("Property:\n"),
		{.name = "sat", .kind = OPTION_FLAG, .dest = &sat,
		 .times = &ntasks, .help = "is some word accepted?"},
		{.name = "valid", .kind = OPTION_FLAG, .dest = &valid,
		 .times = &ntasks, .help = "is every word accepted?"},
		{.name = "implies", .kind = OPTION_STRING, .meta = "G",
		 .dest = &implies, .times = &ntasks,
		 .help = "does the input imply the TL formula G?"},
		{.name = "nonneg", .kind = OPTION_FLAG, .dest = &nonneg,
		 .times = &ntasks,
		 .help = "is a count-valued input never negative?"},
		{.name = "bounded", .kind = OPTION_COUNT, .meta = "K",
		 .lo = 0, .hi = SIZE_MAX, .dest = &o.bound,
		 .width = sizeof o.bound, .times = &ntasks,
		 .help = "is it between -K and K at every position?"},
		DECIDE_ROWS(&o),
	};
	const OptionTable table = OPTION_TABLE(intro, rows, examples);
	int status = options_parse(&table, argc, argv);
	DecideTask task = sat	  ? TASK_SAT
			  : valid  ? TASK_VALID
			  : nonneg ? TASK_NONNEG
			  : implies ? TASK_IMPLIES
				   : TASK_BOUNDED;
	if (status != EXIT_YES) {
		status = status == OPTIONS_DONE ? EXIT_YES : status;
		goto done;
	}
	if (ntasks != 1) {
		status = status_usage_error("check needs exactly one of --sat, "
					 "--valid, --implies=G, --nonneg, "
					 "--bounded=K");
		goto done;
	}
	if (in.nspecs != 1) {
		status = status_usage_error("check needs one input (-f, -F or -P), "
					 "got %zu", in.nspecs);
		goto done;
	}
	if (implies)
		inputs_option(&in, 'f', implies);
	in.terms = true; /* count-valued inputs: sequence questions */
	status = cli_load_inputs(&in, argc, argv, false);
	if (status != EXIT_YES) {
		if (optind >= argc && implies && in.nunits == 1)
			status_usage_error("the --implies formula does not load");
		goto done;
	}
	bool batch = in.specs[0].kind == INPUT_BATCH;
	status = batch ? check_batch(&in, task, &o, implies != NULL)
		       : decide_run(&in, task, &o);
done:
	inputs_free(&in);
	return status;
}
