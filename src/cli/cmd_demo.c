/* cmd_demo.c -- `tally demo`: a short tour on an embedded example. */
#include <config.h>

#include <getopt.h>

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "core/crasp.h"
#include "machine/eval.h"
#include "core/print.h"
#include "machine/trace.h"

static const char dyck1[] = "#['('] = #[')'] & #[#['('] < #[')']] = 0";

/* `tally eval --trace` on one word: the verdict and the table. */
static void traced(Inputs *in, size_t unit, const char *word)
{
	Store *s = in->store;
	Node root = in->units[unit].output;
	Sym letters[16];
	size_t n = strlen(word);
	for (size_t i = 0; i < n; i++)
		letters[i] = sym_intern(store_syms(s), word + i, 1);
	Evaluator *ev = eval_new(s, &root, 1, ACCEPT_LAST);
	bool acc;
	eval_word(ev, letters, n, &acc);
	printf("\n$ tally eval --trace -f %s -w \"%s\"\n%s\t%s\n",
	       unit == 0 ? "dyck1" : "majority", word, word,
	       acc ? "accept" : "reject");
	Trace *tr = trace_new(s, &in->units[unit], 1);
	EvalTable *t = eval_table(ev, letters, n);
	trace_print(tr, t, letters, n, stdout);
	eval_table_free(t);
	trace_free(tr);
	eval_free(ev);
}

int cmd_demo(int argc, char **argv)
{
	static const char intro[] =
		"Usage: tally demo\n"
		"A short tour: parses the Dyck-1 formula of Yang &\n"
		"Chiang 2024, shows its depth, size and forms,\n"
		"traces it and MAJORITY on short words, and rebuilds\n"
		"the depth hierarchy of L_1..L_3 (tally hierarchy).\n\n";
	/* no listed option: anything but --help is "no arguments" */
	const Option rows[] = {{.name = "help", .letter = 'h',
				.kind = OPTION_HELP}};
	const OptionTable table = OPTION_TABLE(intro, rows, "");
	if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
			  strcmp(argv[1], "--help") == 0 ||
			  strcmp(argv[1], "--list-options") == 0))
		return options_parse(&table, argc, argv) == OPTIONS_DONE
			       ? EXIT_YES : EXIT_USAGE;
	if (argc > 1)
		return status_usage_error("demo takes no arguments");
	Inputs in;
	inputs_init(&in);
	Source *src = source_new("demo", dyck1, strlen(dyck1));
	if (!inputs_parse(&in, src, FLAVOR_TL)) {
		inputs_free(&in);
		return EXIT_INTERNAL;
	}
	Store *s = in.store;
	Node f = in.units[0].output;
	printf("Dyck-1, the balanced-parentheses language (Yang & Chiang 2024):\n"
	       "  %s\n\n", dyck1);
	printf("depth: %u   (nesting of counts = transformer layers)\n",
	       store_depth(s, f));
	printf("size:  %llu\n\n", (unsigned long long)store_size(s, f));
	static const struct {
		const char *label;
		Syntax syn;
	} forms[] = {{"ascii", SYNTAX_TL},
		     {"utf8 ", SYNTAX_UTF8},
		     {"latex", SYNTAX_LATEX},
		     {"sexpr", SYNTAX_SEXPR}};
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		char *text = tl_print(s, f, forms[i].syn, NULL);
		printf("%s  %s\n", forms[i].label, text);
		free(text);
	}
	/* The same DAG as a C-RASP program: one definition per operation,
	 * a count per attention head. */
	CraspProgram prog;
	crasp_program(s, f, NULL, &prog);
	Buf b = {0};
	char *err = NULL;
	if (crasp_print(&b, s, &prog, CRASP_COMPACT, &err)) {
		printf("\n$ tally translate -f dyck1 --to=crasp\n%s", b.data);
		size_t *counts, *pointwise;
		crasp_layers(s, &prog, &counts, &pointwise);
		for (uint32_t d = 1; d <= store_depth(s, f); d++)
			printf("   layer %u: %zu attention head%s, %zu "
			       "position-wise\n",
			       d, counts[d], counts[d] == 1 ? "" : "s",
			       pointwise[d]);
		free(counts);
		free(pointwise);
	}
	free(err);
	buf_free(&b);
	crasp_program_free(&prog);
	/* Traced runs: Dyck-1, and MAJORITY (more a's than b's). */
	static const char majority[] = "majority"; /* #[Q_b] < #[Q_a] */
	if (inputs_parse(&in, source_new("demo", majority, strlen(majority)),
			 FLAVOR_TL)) {
		traced(&in, 0, "(())");
		traced(&in, 0, "())(");
		traced(&in, 1, "abaab");
	}
	inputs_free(&in);
	/* The depth hierarchy rebuilt from data: L_k needs exactly k layers. */
	printf("\n$ tally hierarchy --k=1..3 --quiet --no-time\n");
	fflush(stdout);
	char *hargv[] = {"hierarchy", "--k=1..3", "--quiet", "--no-time", NULL};
	optind = 0; /* a fresh getopt scan */
	cmd_hierarchy(4, hargv);
	return EXIT_YES;
}
