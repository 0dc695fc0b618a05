/* main.c -- subcommand dispatch only. */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "base/mem.h"
#include "base/suggest.h"

typedef struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} Command;

static const Command commands[] = {
	{"demo", cmd_demo, "a short tour on the paper's Dyck-1 formula"},
	{"eval", cmd_eval, "run formulas or programs on words"},
	{"lang", cmd_lang, "list the accepted words up to a length"},
	{"info", cmd_info, "depth, size, letters and fragment of a formula"},
	{"equiv", cmd_equiv, "decide whether two inputs define the same language"},
	{"check", cmd_check, "satisfiability, validity, implication"},
	{"print", cmd_print, "print a formula or program in another syntax"},
	{"translate", cmd_print, "the same as print"},
	{"repl", cmd_repl, "interactive: definitions, values, : commands"},
	{"gen", cmd_gen, "named families; labelled datasets of any formula"},
	{"compile", cmd_compile, "compile a formula to a rounded transformer (JSON)"},
	{"simulate", cmd_simulate, "run a compiled transformer bit-exactly"},
	{"enum", cmd_enum, "formulas by depth and size, one per behaviour"},
	{"search", cmd_search, "the least depth of a formula for a target"},
	{"hierarchy", cmd_hierarchy, "the depth-hierarchy table of L_k"},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static void usage(FILE *out)
{
	fputs("Usage: tally COMMAND [OPTION]...\n"
	      "       tally --help | --version\n"
	      "A model checker and equivalence tool for the counting temporal\n"
	      "logic TL[#] and the transformer language C-RASP.\n\n"
	      "Commands:\n",
	      out);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\n'tally COMMAND --help' describes a command's options.\n\n"
	      "Examples:\n"
	      "  tally demo\n"
	      "  tally info -f \"#['('] = #[')'] & #[#['('] < #[')']] = 0\"\n"
	      "  printf '(()())\\n)(\\n' | tally eval -f dyck1\n\n",
	      out);
	fputs(cli_exit_help, out);
}

int main(int argc, char **argv)
{
	mem_install();
	if (argc < 2 && isatty(STDIN_FILENO))
		return cmd_repl(argc, argv);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 ||
	    strcmp(name, "help") == 0) {
		usage(stdout);
		return EXIT_YES;
	}
	if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
		cli_print_version();
		return EXIT_YES;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(name, commands[i].name) == 0)
			return cli_run_command(name, commands[i].run, argc, argv);
	Suggest sg;
	suggest_init(&sg, name, strlen(name));
	for (size_t i = 0; i < NCOMMANDS; i++)
		suggest_offer(&sg, commands[i].name);
	if (sg.best)
		return status_usage_error("unknown command '%s'; did you mean "
				       "'%s'? (see 'tally --help')", name,
				       sg.best);
	return status_usage_error("unknown command '%s' (see 'tally --help')",
			       name);
}
