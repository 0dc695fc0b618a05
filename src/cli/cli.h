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
#include "base/limit.h"
#include "base/vec.h"
#include "cli/options.h"

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
/* One more input: kind 'f' (a formula), 'F' (a file), 'P' (a program)
 * or 'b' (a --batch file); false for another kind. */
bool inputs_option(Inputs *in, int kind, const char *arg);
/* The reader of the rows -f, -F, -P and --batch (row->ctx: the Inputs;
 * the row's letter, or 'b', says which). */
int inputs_option_row(const Option *row, const char *arg);
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

/* The option rows of the input group (options.h), into *in. */
#define CLI_INPUT_ROWS(in)                                                    \
	OPTION_TEXT_ROW("Input:\n"),                                          \
	OPTION_CALL_ROW('f', "formula", "FORMULA", inputs_option_row, (in),   \
			"a TL[#] formula (repeatable; ';' separates\n"        \
			"let-definitions)"),                                   \
	OPTION_CALL_ROW('F', "file", "FILE", inputs_option_row, (in),         \
			"a file of definitions and formulas (- = stdin)"),     \
	OPTION_CALL_ROW('P', "program", "FILE", inputs_option_row, (in),      \
			"a C-RASP program (.cr files: the Python\n"           \
			"interpreter's syntax)"),                              \
	{.name = "syntax", .kind = OPTION_STRING, .meta = "SYNTAX",           \
	 .dest = &(in)->syntax, .choices = cli_syntaxes,                      \
	 .help = "tl, crasp or cr: how to read -F/-P files\n"                 \
		 "(default: -F tl, -P by extension: .cr or\n"                 \
		 "else crasp)"},                                              \
	OPTION_STRING_ROW(0, "output", "NAME", &(in)->output,                 \
			  "check the definition NAME instead of the last\n"   \
			  "formula"),                                          \
	{.name = "cr-precedence", .kind = OPTION_STRING, .meta = "HOW",       \
	 .dest = &(in)->cr_precedence, .choices = cli_cr_precedences,         \
	 .help = "peer (group .cr programs as the Python\n"                   \
		 "interpreter does) or conventional (as tally\n"              \
		 "does, without a warning); default: tally's,\n"              \
		 "with a warning where they differ"}
/* The values of --syntax and --cr-precedence (checked when loading). */
extern const char *const cli_syntaxes[], *const cli_cr_precedences[];

/* --batch=FILE: many inputs, one per line, or per block when the file has
 * lines ";;" between blocks (a block may hold let-definitions over
 * several lines).  Only for the commands that take it (info, print,
 * eval, check): they put CLI_BATCH_ROW in their option table.  A record
 * that does not load is reported in its place and the others go on;
 * main() then makes the exit status 2 (cli_batch_failed). */
#define CLI_BATCH_ROW(in)                                                     \
	{.name = "batch", .kind = OPTION_CALL, .meta = "FILE",                \
	 .call = inputs_option_row, .ctx = (in),                              \
	 .help = "many inputs (- = stdin): one TL formula per\n"              \
		 "line, or blocks between lines ';;'; a record\n"             \
		 "that does not load is reported, the rest go\n"              \
		 "on (exit 2 at the end)"}
extern bool cli_batch_failed;
/* A record of a batch or of equiv --pairs that has no answer (it does
 * not load, or the method refused it), printed in the record's place:
 * "INDEX<TAB>error: SOURCE: REASON", or with json an object with
 * "input", "source" and "error". */
void cli_record_error(size_t index, const char *source, const char *reason,
		      bool json);

/* --timeout and --max-memory (base/limit.h) under their heading. */
#define CLI_LIMIT_ROWS(l)                                                     \
	OPTION_TEXT_ROW("Limits (reached: what was found so far stays "       \
			"printed, exit 4):\n"),                                \
	OPTION_SECONDS_ROW("timeout", &(l)->timeout,                          \
			   "stop after this much wall-clock time"),            \
	OPTION_SIZE_ROW("max-memory", &(l)->max_memory,                       \
			"stop when the resident memory exceeds SIZE\n"         \
			"bytes (suffixes K, M, G)")

/* -w, --word=WORD (repeatable) into a CliWords. */
typedef VEC(const char *) CliWords;
#define CLI_WORD_ROW(w, h)                                                    \
	OPTION_CALL_ROW('w', "word", "WORD", cli_word_row, (w), h)
int cli_word_row(const Option *row, const char *arg);

/* --precision=P,S into the ints *p and *s (transformer/fixed.h). */
#define CLI_PRECISION_ROW(p, s, h)                                            \
	{.name = "precision", .kind = OPTION_CALL, .meta = "P,S",             \
	 .call = cli_precision_row, .dest = (p), .dest2 = (s), .help = (h)}
int cli_precision_row(const Option *row, const char *arg);
/* The values of --semantics (transformer/simcheck.h reads them). */
extern const char *const cli_semantics[];

/* Standard end of every --help: the exit-status table. */
extern const char cli_exit_help[];
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
