/* cli -- what every subcommand shares: exit statuses, the input options
 * (-f, -F, -P, --syntax, --output), loading them into one Store, and the
 * help/version texts.
 *
 * Ownership: an Inputs owns its Store, Scope, Sources and Units;
 * inputs_free() releases them all.
 */
#ifndef TALLY_CLI_H
#define TALLY_CLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/number.h"
#include "base/status.h"
#include "core/cr.h"
#include "base/diag.h"
#include "core/parse.h"
#include "core/store.h"
#include "core/unit.h"

/* Long-option codes shared by the commands (beyond single letters). */
enum {
	OPT_SYNTAX = 1000,
	OPT_OUTPUT,
	OPT_JSON,
	OPT_TO,
	OPT_HELP,
	OPT_CR_PRECEDENCE,
	OPT_BATCH,
	OPT__COMMAND_BASE = 1100, /* commands number their own from here */
};

typedef struct {
	enum { INPUT_FORMULA, INPUT_FILE, INPUT_PROGRAM, INPUT_BATCH } kind;
	const char *text; /* the formula, or a path ("-" = stdin) */
} InputSpec;

typedef struct Inputs {
	Store *store;
	Scope *scope;
	Diag diag;
	InputSpec *specs;
	size_t nspecs, specs_cap;
	Source **sources;
	size_t nsources, sources_cap;
	Unit *units;
	size_t nunits, units_cap;
	const char *syntax; /* --syntax=tl|crasp|cr, or NULL for automatic */
	const char *output; /* --output=NAME */
	const char *cr_precedence; /* --cr-precedence=peer|conventional */
	CrPrecedence cr_prec;      /* its value once loaded */
	bool terms; /* an integer term may be an input's output (Unit.terms) */
	/* Called for each unit as soon as it is parsed (results flushed per
	 * input line), or NULL to work on in->units after loading. */
	void (*on_unit)(struct Inputs *in, const Unit *u);
	void *ctx; /* the command's, for on_unit */
} Inputs;

void inputs_init(Inputs *in);
void inputs_free(Inputs *in);
/* Handles -f, -F, -P, --syntax, --output; false if opt is not one of them. */
bool inputs_option(Inputs *in, int opt, const char *arg);
/* Parses everything given; with no -f/-F/-P and a non-terminal stdin,
 * reads one formula per line from stdin when stdin_lines is set.
 * Returns false after printing diagnostics. */
bool inputs_load(Inputs *in, bool stdin_lines);
/* The exit status after inputs_load failed: EXIT_LIMIT when an input
 * was over a built-in limit, else EXIT_USAGE. */
int inputs_failure(const Inputs *in);
/* Parses one more source as TL (flavor TL) or C-RASP; the Source is
 * adopted by `in`. */
bool inputs_parse(Inputs *in, Source *src, Flavor f);

/* getopt_long option entries for the input group. */
#define CLI_INPUT_OPTIONS                                                     \
	{"formula", required_argument, NULL, 'f'},                            \
	{"file", required_argument, NULL, 'F'},                               \
	{"program", required_argument, NULL, 'P'},                            \
	{"syntax", required_argument, NULL, OPT_SYNTAX},                      \
	{"output", required_argument, NULL, OPT_OUTPUT},                      \
	{"cr-precedence", required_argument, NULL, OPT_CR_PRECEDENCE}

#define CLI_INPUT_HELP                                                        \
	"Input:\n"                                                            \
	"  -f, --formula=FORMULA  a TL[#] formula (repeatable; ';' separates\n" \
	"                         let-definitions)\n"                         \
	"  -F, --file=FILE        a file of definitions and formulas (- = stdin)\n" \
	"  -P, --program=FILE     a C-RASP program (.cr files: the Python\n"   \
	"                         interpreter's syntax)\n"                    \
	"      --syntax=SYNTAX    tl, crasp or cr: how to read -F/-P files\n" \
	"                         (default: -F tl, -P by extension: .cr or\n" \
	"                         else crasp)\n"                             \
	"      --output=NAME      check the definition NAME instead of the last\n" \
	"                         formula\n"                                \
	"      --cr-precedence=HOW  peer (group .cr programs as the Python\n" \
	"                         interpreter does) or conventional (as tally\n" \
	"                         does, without a warning); default: tally's,\n" \
	"                         with a warning where they differ\n"

/* --batch=FILE: many inputs, one per line, or per block when the file has
 * lines ";;" between blocks (a block may hold let-definitions over
 * several lines).  Only for the commands that take it (info, print,
 * eval, check): they put CLI_BATCH_OPTION in their getopt table and
 * CLI_BATCH_HELP in their help.  A record that does not load is
 * reported in its place and the others go on; main() then makes the
 * exit status 2 (cli_batch_failed). */
#define CLI_BATCH_OPTION {"batch", required_argument, NULL, OPT_BATCH}
#define CLI_BATCH_HELP                                                        \
	"      --batch=FILE       many inputs (- = stdin): one TL formula per\n" \
	"                         line, or blocks between lines ';;'; a record\n" \
	"                         that does not load is reported, the rest go\n" \
	"                         on (exit 2 at the end)\n"
extern bool cli_batch_failed;
/* A record of a batch or of equiv --pairs that has no answer (it does
 * not load, or the method refused it), printed in the record's place:
 * "INDEX<TAB>error: SOURCE: REASON", or with json an object with
 * "input", "source" and "error". */
void cli_record_error(size_t index, const char *source, const char *reason,
		      bool json);

/* Standard end of every --help: the exit-status table. */
extern const char cli_exit_help[];
/* Prints a command's help text followed by the exit-status table. */
void cli_print_help(const char *help);
/* After the options: refuses stray operands (argv[optind..]) and loads the
 * inputs.  EXIT_YES, or EXIT_USAGE after a message. */
int cli_load_inputs(Inputs *in, int argc, char **argv, bool stdin_lines);
void cli_print_version(void);
/* Runs subcommand `name` (argv[1]) with the argv after the program's
 * name, argv[0] reading "tally NAME" (getopt's messages) and JSON naming
 * the command; a --batch record that did not load makes the status
 * EXIT_USAGE.  For main.c and tally-mpi's mpi_main.c. */
int cli_run_command(const char *name, int (*run)(int argc, char **argv),
		    int argc, char **argv);

#endif
