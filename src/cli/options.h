/* options -- a command's options as one table: each row names an option
 * (long name, short letter), the kind of its value and its bounds, where
 * the value goes and its line of --help.  From the table come the getopt
 * table, the option lines of --help, the value checks (every number
 * through base/number.h, one wording of every error) and the listing
 * `tally COMMAND --list-options` that the bash completion and
 * tests/cli/man.sh read.
 *
 * A table is an array of rows built where the command parses (rows point
 * into the command's own variables); the groups several commands share
 * are row macros (CLI_INPUT_ROWS, CLI_LIMIT_ROWS in cli.h, DECIDE_ROWS,
 * SEARCH_CLI_ROWS).
 *
 * Help layout: a row prints "  -X, --name=META" (or "      --name=META")
 * and its help text from column 25 (two spaces after a longer label);
 * each further line of the help text is indented to column 25.
 *
 * Ownership: rows and tables borrow everything they name.
 */
#ifndef TALLY_OPTIONS_H
#define TALLY_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
	OPTION_TEXT,    /* help text between the options (a heading) */
	OPTION_FLAG,    /* a switch: *(bool *)dest = true, or call(row, NULL) */
	OPTION_COUNT,   /* a count lo..hi into an unsigned integer of width */
	OPTION_RANGE,   /* N..M within lo..hi into two integers of width */
	OPTION_CHOICE,  /* one of choices: *(const char **)dest, and its
			 * index into *(int *)dest2 (either may be NULL) */
	OPTION_STRING,  /* any text: *(const char **)dest */
	OPTION_SECONDS, /* seconds > 0 into a double */
	OPTION_SIZE,    /* bytes (K, M, G suffixes) into a size_t */
	OPTION_CALL,    /* the command's own reader: call(row, arg) */
	OPTION_HELP,    /* -h, --help */
} OptionKind;

typedef struct Option Option;
struct Option {
	const char *name; /* long name, without "--" */
	int letter;       /* short letter, or 0 */
	OptionKind kind;
	const char *meta; /* the value's name in --help ("N"), NULL: none */
	const char *help; /* its help text ('\n' between lines); NULL: hidden */
	void *dest, *dest2;            /* where the value goes */
	size_t width;                  /* COUNT, RANGE: sizeof *dest */
	uint64_t lo, hi;               /* OPTION_COUNT, OPTION_RANGE */
	bool bounded;                  /* OPTION_RANGE: needs an upper bound */
	const char *const *choices;    /* NULL-terminated: the values listed */
	bool *given;                   /* set when the option is given */
	unsigned *times;               /* counts the times it is given */
	int (*call)(const Option *row, const char *arg); /* CALL, FLAG */
	void *ctx;                     /* for call */
};

#define OPTION_TEXT_ROW(text) {.kind = OPTION_TEXT, .help = (text)}
#define OPTION_FLAG_ROW(l, nm, d, h)                                          \
	{.name = (nm), .letter = (l), .kind = OPTION_FLAG, .dest = (d),      \
	 .help = (h)}
#define OPTION_COUNT_ROW(l, nm, m, min, max, d, h)                            \
	{.name = (nm), .letter = (l), .kind = OPTION_COUNT, .meta = (m),     \
	 .lo = (min), .hi = (max), .dest = (d), .width = sizeof *(d),         \
	 .help = (h)}
#define OPTION_RANGE_ROW(nm, m, min, max, bnd, dlo, dhi, h)                   \
	{.name = (nm), .kind = OPTION_RANGE, .meta = (m), .lo = (min),       \
	 .hi = (max), .bounded = (bnd), .dest = (dlo), .dest2 = (dhi),        \
	 .width = sizeof *(dlo), .help = (h)}
#define OPTION_CHOICE_ROW(nm, m, list, d, h)                                  \
	{.name = (nm), .kind = OPTION_CHOICE, .meta = (m), .choices = (list), \
	 .dest = (d), .help = (h)}
#define OPTION_CHOICE_INDEX_ROW(nm, m, list, d, h)                            \
	{.name = (nm), .kind = OPTION_CHOICE, .meta = (m), .choices = (list), \
	 .dest2 = (d), .help = (h)}
#define OPTION_STRING_ROW(l, nm, m, d, h)                                     \
	{.name = (nm), .letter = (l), .kind = OPTION_STRING, .meta = (m),    \
	 .dest = (d), .help = (h)}
#define OPTION_SECONDS_ROW(nm, d, h)                                          \
	{.name = (nm), .kind = OPTION_SECONDS, .meta = "SECONDS", .dest = (d), \
	 .help = (h)}
#define OPTION_SIZE_ROW(nm, d, h)                                             \
	{.name = (nm), .kind = OPTION_SIZE, .meta = "SIZE", .dest = (d),      \
	 .help = (h)}
#define OPTION_CALL_ROW(l, nm, m, fn, c, h)                                   \
	{.name = (nm), .letter = (l), .kind = OPTION_CALL, .meta = (m),      \
	 .call = (fn), .ctx = (c), .help = (h)}
#define OPTION_HELP_ROW                                                       \
	{.name = "help", .letter = 'h', .kind = OPTION_HELP,                 \
	 .help = "show this help and exit"}

/* A command's whole --help: intro (usage and description), the rows'
 * lines, outro (examples); the exit-status table follows. */
typedef struct {
	const char *intro;
	const Option *rows;
	size_t nrows;
	const char *outro;
} OptionTable;

#define OPTION_TABLE(in, r, out) {(in), (r), sizeof (r) / sizeof *(r), (out)}

/* options_parse() after --help or --list-options: the command ends with
 * EXIT_YES. */
enum { OPTIONS_DONE = -1 };

/* Reads argv's options (cli_getopt) into the rows' destinations; optind
 * is then at the first operand.  EXIT_YES, OPTIONS_DONE, or the failing
 * row's status after its message (EXIT_USAGE). */
int options_parse(const OptionTable *t, int argc, char **argv);
/* "tally: error: --NAME: expected a, b or c, not 'ARG'" (row->choices,
 * with a typo's hint) for a CALL row whose reader refused arg; returns
 * EXIT_USAGE. */
int options_bad_choice(const Option *row, const char *arg);
/* Prints the table's --help text (with the exit-status table). */
void options_help(const OptionTable *t);

/* The row --accept-at=WHERE (last or eos) into the AcceptAt *d. */
#define ACCEPT_AT_ROW(d, h)                                                   \
	{.name = "accept-at", .kind = OPTION_CALL, .meta = "WHERE",           \
	 .call = accept_at_row, .ctx = (d), .choices = accept_at_choices,     \
	 .help = (h)}
int accept_at_row(const Option *row, const char *arg);
extern const char *const accept_at_choices[];

#endif
