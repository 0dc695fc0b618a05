/* cmd_info.c -- `tally info`: depth, size, letters, fragment. */
#include <config.h>

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "json.h"

static const char help[] =
	"Usage: tally info [OPTION]... (-f FORMULA | -F FILE | -P PROGRAM)...\n"
	"Describe formulas or programs: nesting depth of counts (= layers of\n"
	"the equivalent fixed-precision transformer), size, letters, fragment.\n"
	"With no input option, reads one formula per line from stdin.\n\n"
	CLI_INPUT_HELP
	"Output:\n"
	"      --json             one JSON object per input\n"
	"  -h, --help             show this help and exit\n\n"
	"Lines printed: depth, size (nodes of the formula tree), dag-size\n"
	"(distinct subformulas), letters, fragment (past-only, two-sided\n"
	"with #>, positional with Y or MOD).\n\n"
	"Examples:\n"
	"  tally info -f \"#['('] = #[')'] & #[#['('] < #[')']] = 0\"\n"
	"  tally info --json -f L_3\n\n";

static const char *fragment_name(unsigned flags)
{
	bool future = flags & FLAG_FUTURE;
	bool positional = flags & (FLAG_PREV | FLAG_MOD);
	return future && positional ? "two-sided positional"
	       : future	   ? "two-sided"
	       : positional	   ? "positional"
				   : "past-only";
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The letters of n, sorted by name: a malloc'd array of borrowed names. */
static const char **sorted_letters(Store *s, Node n, size_t *count)
{
	Sym *syms = store_letters(s, n, count);
	const char **names = malloc((*count + 1) * sizeof *names);
	for (size_t i = 0; i < *count; i++)
		names[i] = sym_name(store_syms(s), syms[i]);
	qsort(names, *count, sizeof *names, compare_names);
	free(syms);
	return names;
}

static void print_info(Store *s, Node n, bool json)
{
	size_t nletters;
	const char **letters = sorted_letters(s, n, &nletters);
	unsigned flags = store_flags(s, n);
	if (json) {
		json_t *o = json_envelope();
		json_object_set_new(o, "depth", json_integer(store_depth(s, n)));
		json_object_set_new(o, "size",
				    json_integer((json_int_t)store_size(s, n)));
		json_object_set_new(o, "dag_size",
				    json_integer((json_int_t)store_dag_size(s, n)));
		json_t *arr = json_array();
		for (size_t i = 0; i < nletters; i++)
			json_array_append_new(arr, json_string(letters[i]));
		json_object_set_new(o, "letters", arr);
		json_object_set_new(o, "fragment",
				    json_string(fragment_name(flags)));
		json_emit(o);
	} else {
		printf("depth: %u\n", store_depth(s, n));
		printf("size: %llu\n", (unsigned long long)store_size(s, n));
		printf("dag-size: %zu\n", store_dag_size(s, n));
		fputs("letters:", stdout);
		for (size_t i = 0; i < nletters; i++)
			printf(" %s", letters[i]);
		printf("\nfragment: %s\n", fragment_name(flags));
	}
	free(letters);
}

int cmd_info(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_INPUT_OPTIONS,
		{"json", no_argument, NULL, OPT_JSON},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	Inputs in;
	inputs_init(&in);
	bool json = false;
	int opt, status = EXIT_YES;
	while ((opt = getopt_long(argc, argv, "f:F:P:h", longopts, NULL)) != -1) {
		if (inputs_option(&in, opt, optarg))
			continue;
		if (opt == OPT_JSON) {
			json = true;
		} else if (opt == 'h') {
			fputs(help, stdout);
			fputs(cli_exit_help, stdout);
			goto done;
		} else {
			status = EXIT_USAGE;
			goto done;
		}
	}
	if (optind < argc) {
		status = cli_usage_error("unexpected argument '%s'", argv[optind]);
		goto done;
	}
	if (!inputs_load(&in, true)) {
		status = EXIT_USAGE;
		goto done;
	}
	for (size_t i = 0; i < in.nunits; i++) {
		if (i > 0 && !json)
			putchar('\n');
		print_info(in.store, in.units[i].output, json);
	}
done:
	inputs_free(&in);
	return status;
}
