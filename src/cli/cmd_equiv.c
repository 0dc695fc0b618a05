/* cmd_equiv.c -- `tally equiv`: do two inputs define the same language? */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/decide.h"
#include "core/json.h"

static const char intro[] =
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
	"Two count-valued inputs (integer terms), or two formulas under\n"
	"--per-position, are compared at every position of every word; the\n"
	"counterexample line then reads 'counterexample: WORD (position I:\n"
	"first X, second Y)', the first position where they differ.\n"
	"A 'method:' line says what the verdict rests on.  Methods: explore\n"
	"(breadth-first over the states of the two compiled machines, merging\n"
	"equal states: shortest counterexamples, bounded verdicts, and\n"
	"'equivalent' when the reachable states run out); presburger (depth\n"
	"<= 1), chc (Horn clauses, an inductive invariant), mona (threshold\n"
	"comparisons) and unary (one letter) are exact.  auto (the default)\n"
	"runs them all side by side, one process each, until the first\n"
	"definite answer or the deadline; --method=NAME runs one alone.  An\n"
	"'alphabet:' line follows: the letters the verdict is over.\n\n";

static const char pairs_help[] =
	"one pair per line (- = stdin), tab-separated:\n"
	"F, G, then optionally the alphabet, the\n"
	"expected verdict (equivalent or\n"
	"not-equivalent) and a shortest witness, as\n"
	"in corpora/equiv/pairs.tsv; one numbered line\n"
	"(or JSON object) per pair, then a summary;\n"
	"exit 0 when every verdict is as expected, 1\n"
	"when one contradicts it, 2 when a line does\n"
	"not load, else 3 (or 4) for unknowns";

static const char examples[] =
	"\nExamples:\n"
	"  tally equiv -f \"#[Q_b] < #[Q_a]\" -f \"2*#[Q_a] > #[true]\"\n"
	"  tally equiv -f L_2 -f L_3\n"
	"  tally equiv -f histogram -f \"#[Q_a] + #[Q_b] - (Q_a ? #[Q_b] : #[Q_a])\"\n"
	"  tally equiv --method=explore --max-length 40 \\\n"
	"    -f \"#['('] = #[')'] & #[#['('] < #[')']] = 0\" \\\n"
	"    -f \"#['('] = #[')'] & #[')' & #[')'] = #['('] + 1] = 0\"\n\n";

/* ---- --pairs=FILE: many pairs in one process ------------------------ */

/* The tab-separated fields of line (empty fields kept), in place. */
static size_t split_tabs(char *line, char **field, size_t max)
{
	size_t n = 0;
	for (char *p = line; n < max;) {
		field[n++] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}

typedef struct {
	size_t records, expected, ok, against, errors;
	int status;
} PairsTally;

/* One record: F, G, alphabet, expected verdict, witness (the rest of
 * the line is a comment). */
static void pair_record(char *line, const char *path, size_t lineno,
			const DecideOptions *base, PairsTally *t)
{
	char *f[6];
	size_t nf = split_tabs(line, f, 6);
	char source[4096];
	snprintf(source, sizeof source, "%s:%zu", path, lineno);
	DecideRecordResult res = {0};
	DecideRecord rec = {.index = ++t->records, .source = source,
			    .result = &res};
	int status;
	if (nf < 2) {
		cli_record_error(rec.index, source,
				 "expected two tab-separated inputs", base->json);
		t->errors++;
		t->status = status_worse(t->status, EXIT_USAGE);
		return;
	}
	DecideOptions o = *base;
	o.record = &rec;
	if (nf > 2 && f[2][0] && strcmp(f[2], "-") != 0)
		o.alphabet = f[2];
	if (nf > 3 && f[3][0]) {
		if (strcmp(f[3], "equivalent") != 0 &&
		    strcmp(f[3], "not-equivalent") != 0) {
			char why[200];
			snprintf(why, sizeof why, "expected verdict "
				 "'equivalent' or 'not-equivalent', not '%.80s'",
				 f[3]);
			cli_record_error(rec.index, source, why, base->json);
			t->errors++;
			t->status = status_worse(t->status, EXIT_USAGE);
			return;
		}
		rec.expected = f[3];
		if (nf > 4 && strcmp(f[3], "not-equivalent") == 0 &&
		    strcmp(f[4], "-") != 0)
			rec.witness = f[4];
	}
	Inputs in;
	inputs_init(&in);
	in.terms = true;
	inputs_option(&in, 'f', f[0]);
	inputs_option(&in, 'f', f[1]);
	fflush(stdout);
	if (!inputs_load(&in, false)) {
		cli_record_error(rec.index, source, in.nunits == 0
				 ? "the first input does not load"
				 : "the second input does not load", base->json);
		t->errors++;
		status = EXIT_USAGE;
	} else {
		status = decide_run_record(&in, TASK_EQUIV, &o, rec.index, source);
		t->errors += status == EXIT_USAGE;
		if (rec.expected) {
			t->expected++;
			t->ok += res.as_expected;
			if (!res.as_expected && (status == EXIT_YES ||
						 status == EXIT_NO)) {
				status = EXIT_NO; /* a contradiction */
				t->against++;
			} else if (res.as_expected) {
				status = EXIT_YES;
			}
		}
	}
	fflush(stdout);
	t->status = status_worse(t->status, status);
	inputs_free(&in);
}

static int run_pairs(const char *path, const DecideOptions *o)
{
	FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	if (!fp)
		return status_usage_error("cannot open '%s': %s", path,
				       strerror(errno));
	PairsTally t = {.status = EXIT_YES};
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	while ((len = getline(&line, &cap, fp)) >= 0) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len == 0)
			continue;
		pair_record(line, path, lineno, o, &t);
	}
	free(line);
	if (fp != stdin)
		fclose(fp);
	if (o->json) {
		json_t *j = json_envelope();
		json_object_set_new(j, "command", json_string("equiv --pairs"));
		json_object_set_new(j, "source", json_string(path));
		json_object_set_new(j, "records", json_integer((json_int_t)t.records));
		json_object_set_new(j, "with_expected",
				    json_integer((json_int_t)t.expected));
		json_object_set_new(j, "as_expected", json_integer((json_int_t)t.ok));
		json_object_set_new(j, "against_expected",
				    json_integer((json_int_t)t.against));
		json_object_set_new(j, "errors", json_integer((json_int_t)t.errors));
		json_emit(j);
	} else {
		printf("pairs: %zu records, %zu with an expected verdict: %zu as "
		       "expected, %zu against it, %zu without a verdict; %zu "
		       "errors\n", t.records, t.expected, t.ok, t.against,
		       t.expected - t.ok - t.against, t.errors);
	}
	return t.status;
}

int cmd_equiv(int argc, char **argv)
{
	Inputs in;
	inputs_init(&in);
	DecideOptions o;
	decide_options_init(&o);
	const char *pairs = NULL;
	const Option rows[] = {
		CLI_INPUT_ROWS(&in),
		OPTION_TEXT_ROW("Many pairs:\n"),
		OPTION_STRING_ROW(0, "pairs", "FILE", &pairs, pairs_help),
		DECIDE_ROWS(&o),
	};
	const OptionTable table = OPTION_TABLE(intro, rows, examples);
	int status = options_parse(&table, argc, argv);
	if (status != EXIT_YES) {
		status = status == OPTIONS_DONE ? EXIT_YES : status;
		goto done;
	}
	if (pairs) {
		if (in.nspecs || optind < argc) {
			status = status_usage_error("--pairs takes its inputs from "
						 "the file, not from -f/-F/-P "
						 "or operands");
			goto done;
		}
		status = run_pairs(pairs, &o);
		goto done;
	}
	if (in.nspecs != 2) {
		status = status_usage_error(
			"equiv needs two inputs (-f, -F or -P, one for each "
			"side), %s %zu",
			in.nspecs < 2 ? "got only" : "got", in.nspecs);
		goto done;
	}
	in.terms = true; /* count-valued inputs: sequence questions */
	status = cli_load_inputs(&in, argc, argv, false);
	if (status != EXIT_YES) {
		if (optind >= argc)
			status_usage_error("the %s input does not load",
					in.nunits == 0 ? "first" : "second");
		goto done;
	}
	status = decide_run(&in, TASK_EQUIV, &o);
done:
	inputs_free(&in);
	return status;
}
