/* commands -- the subcommands, one file each (cmd_<name>.c).
 *
 * Each takes the argv that follows the command name (argv[0] is the
 * command) and returns an exit status from cli.h.  The work of a command
 * after its options are read is a function of its own (below), which the
 * REPL's `:` commands call too: one implementation, two faces.
 */
#ifndef TALLY_COMMANDS_H
#define TALLY_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

#include "base/diag.h"
#include "machine/eval.h"
#include "core/lower.h"
#include "core/unit.h"

/* tally info: the lines (or the JSON object) describing u's output. */
/* index: the input's number in JSON output (0: none). */
void cmd_info_unit(Store *s, Lowering *lw, const Unit *u, bool json,
		   size_t index);
/* The names of print --to (NULL-terminated; "ascii" is tl's other
 * name). */
extern const char *const cmd_print_formats[];
/* tally print --to=TO [--expand] of one unit, to out (json: to stdout);
 * false after a message. */
bool cmd_print_unit(FILE *out, Store *s, Lowering *lw, const Unit *u,
		    const char *to, bool expand);

typedef struct {
	const char *alphabet; /* --alphabet, or NULL */
	AcceptAt accept;
	bool tokens, trace, json;
	bool html;          /* --html: one page of traces (trace_html.h) */
	bool open_alphabet; /* --open-alphabet (cr_words.h) */
	bool cr_words;      /* --word-format=cr: the interpreter's files */
	bool no_echo;    /* --no-echo: verdicts only */
	bool runs;       /* --runs: words in run-length form */
	bool per_position; /* --per-position: every position's value */
	size_t wlo, whi; /* --trace-window */
	unsigned jobs;   /* --jobs: 0 default, 1 sequential */
} EvalOptions;
/* tally eval: the units' outputs on the words, or on the lines of stdin
 * when nwords is 0; one verdict line per word (and the trace).
 * EXIT_YES, EXIT_NO (a word rejected) or EXIT_USAGE (bad word). */
int cmd_eval_words(Store *s, const Unit *units, size_t nunits,
		   const EvalOptions *opt, const char *const *words,
		   size_t nwords, Diag *d);

typedef struct {
	const char *alphabet;
	AcceptAt accept;
	size_t max_length;
	bool count, json;
	struct Limits *limits; /* --timeout, --max-memory; NULL: none */
	const Sym *letters;    /* letters the input mentions (Unit.letters) */
	size_t nletters;
	bool alphabet_stdout;  /* the alphabet line on stdout (the REPL's
				* transcript), not stderr (tally lang) */
} LangOptions;
/* tally lang: the accepted words of root up to opt->max_length. */
int cmd_lang_list(Store *s, Node root, const LangOptions *opt);
/* The longest words lang lists (--max-length, :lang). */
enum { LANG_MAX_LENGTH = 100000000 };
/* --max-length's number (0 .. LANG_MAX_LENGTH). */
bool cmd_lang_length(const char *text, size_t *out);

int cmd_demo(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_print(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_lang(int argc, char **argv);
int cmd_repl(int argc, char **argv);
int cmd_gen(int argc, char **argv);
/* gen whose word records go to sink (gen/gen_data.h; the Python
 * package's arrays) where it takes them; cmd_gen is cmd_gen_into(NULL). */
struct GenSink;
int cmd_gen_into(int argc, char **argv, const struct GenSink *sink);
int cmd_compile(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_equiv(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_hierarchy(int argc, char **argv);
int cmd_search(int argc, char **argv);
int cmd_enum(int argc, char **argv);

#endif
