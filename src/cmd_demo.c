/* cmd_demo.c -- `tally demo`: a short tour on an embedded example. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "print.h"

static const char dyck1[] = "#['('] = #[')'] & #[#['('] < #[')']] = 0";

int cmd_demo(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
			fputs("Usage: tally demo\n"
			      "A short tour: parses the Dyck-1 formula of Yang &\n"
			      "Chiang 2024 and shows its depth, size and forms.\n\n",
			      stdout);
			fputs(cli_exit_help, stdout);
			return EXIT_YES;
		}
		return cli_usage_error("demo takes no arguments");
	}
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
	inputs_free(&in);
	return EXIT_YES;
}
