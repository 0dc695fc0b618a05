/* cmd_print.c -- `tally print` / `tally translate`: another syntax. */
#include <config.h>

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "json.h"
#include "print.h"

static const char help[] =
	"Usage: tally print [OPTION]... (-f FORMULA | -F FILE | -P PROGRAM)...\n"
	"       tally translate [OPTION]... (the same command)\n"
	"Print formulas or programs in another syntax, one result per input.\n"
	"With no input option, reads one formula per line from stdin.\n\n"
	CLI_INPUT_HELP
	"Output:\n"
	"      --to=FORMAT        tl (ASCII, default), utf8 (the papers'\n"
	"                         notation), latex, sexpr, json (the DAG)\n"
	"      --expand           inline definitions instead of printing\n"
	"                         'let NAME = ...;' lines\n"
	"  -h, --help             show this help and exit\n\n"
	"The tl and utf8 forms parse back to the same formula.\n\n"
	"Examples:\n"
	"  tally print --to=utf8 -f \"#['('] = #[')'] & #[#['('] < #[')']] = 0\"\n"
	"  echo '#[Q_b] < #[Q_a]' | tally print --to=sexpr\n\n";

enum { OPT_EXPAND = OPT__COMMAND_BASE };

static bool parse_format(const char *s, Syntax *syn, bool *json)
{
	static const struct {
		const char *name;
		Syntax syn;
	} formats[] = {{"tl", SYNTAX_TL},
		       {"ascii", SYNTAX_TL},
		       {"utf8", SYNTAX_UTF8},
		       {"latex", SYNTAX_LATEX},
		       {"sexpr", SYNTAX_SEXPR}};
	*json = strcmp(s, "json") == 0;
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (strcmp(s, formats[i].name) == 0) {
			*syn = formats[i].syn;
			return true;
		}
	return *json;
}

static void print_unit(Store *s, const Unit *u, Syntax syn, bool json,
		       bool expand)
{
	if (json) {
		json_t *o = json_envelope();
		json_object_set_new(o, "formula", json_formula(s, u->output));
		json_emit(o);
		return;
	}
	char *text = expand || u->ndefs == 0
			     ? tl_print(s, u->output, syn, NULL)
			     : tl_print_unit(s, u, syn);
	size_t n = strlen(text);
	fputs(text, stdout);
	if (n == 0 || text[n - 1] != '\n')
		putchar('\n');
	free(text);
}

int cmd_print(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_INPUT_OPTIONS,
		{"to", required_argument, NULL, OPT_TO},
		{"expand", no_argument, NULL, OPT_EXPAND},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	Inputs in;
	inputs_init(&in);
	Syntax syn = SYNTAX_TL;
	bool json = false, expand = false;
	int opt, status = EXIT_YES;
	while ((opt = getopt_long(argc, argv, "f:F:P:h", longopts, NULL)) != -1) {
		if (inputs_option(&in, opt, optarg))
			continue;
		if (opt == OPT_TO) {
			if (!parse_format(optarg, &syn, &json)) {
				status = cli_usage_error(
					"unknown --to '%s' (expected tl, utf8, "
					"latex, sexpr or json)",
					optarg);
				goto done;
			}
		} else if (opt == OPT_EXPAND) {
			expand = true;
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
	for (size_t i = 0; i < in.nunits; i++)
		print_unit(in.store, &in.units[i], syn, json, expand);
done:
	inputs_free(&in);
	return status;
}
