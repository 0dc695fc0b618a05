/* cmd_print.c -- `tally print` / `tally translate`: another syntax. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "core/cr.h"
#include "core/crasp.h"
#include "core/dot.h"
#include "core/json.h"
#include "base/limit.h"
#include "core/lower.h"
#include "core/print.h"

static const char intro[] =
	"Usage: tally print [OPTION]... (-f FORMULA | -F FILE | -P PROGRAM)...\n"
	"       tally translate [OPTION]... (the same command)\n"
	"Print formulas or programs in another syntax, one result per input.\n"
	"With no input option, reads one formula per line from stdin.\n\n";

static const char outro[] =
	"\n"
	"The tl, utf8, tl-core, crasp, crasp-paper and cr forms parse back to a\n"
	"formula or program with the same language and depth (tl and utf8 to\n"
	"the same formula).  tl-core eliminates conditionals, min, max,\n"
	"subtraction and constants by guarded linear pieces and keeps shared\n"
	"parts as 'let' definitions; #>, Y and MOD are kept as they are.\n"
	"C-RASP has no future counts (#>).  The cr form reads the same in tally\n"
	"and in the interpreter (Y is its #[pred], MOD(2, 1) its pos_even).\n\n"
	"Examples:\n"
	"  tally print --to=utf8 -f \"#['('] = #[')'] & #[#['('] < #[')']] = 0\"\n"
	"  echo '#[Q_b] < #[Q_a]' | tally print --to=sexpr\n"
	"  tally translate -P dyck1.cr --to=tl-core\n"
	"  tally print -f L_2 --to=crasp-paper\n"
	"  tally print -f dyck1 --to=cr > dyck1.cr\n"
	"  tally print -P dyck1.crasp --to=dot | dot -Tsvg > dyck1.svg\n\n";

/* Default --max-size: a tree of 10^8 nodes is about a gigabyte of text. */
#define EXPAND_MAX_SIZE 100000000u

typedef enum {
	TARGET_TL, /* with a Syntax */
	TARGET_JSON,
	TARGET_CORE,
	TARGET_CRASP,
	TARGET_CRASP_PAPER,
	TARGET_CR,
	TARGET_DOT,
} Target;

static bool parse_format(const char *s, Syntax *syn, Target *target)
{
	static const struct {
		const char *name;
		Target target;
		Syntax syn;
	} formats[] = {{"tl", TARGET_TL, SYNTAX_TL},
		       {"ascii", TARGET_TL, SYNTAX_TL},
		       {"utf8", TARGET_TL, SYNTAX_UTF8},
		       {"latex", TARGET_TL, SYNTAX_LATEX},
		       {"sexpr", TARGET_TL, SYNTAX_SEXPR},
		       {"json", TARGET_JSON, SYNTAX_TL},
		       {"tl-core", TARGET_CORE, SYNTAX_TL},
		       {"crasp", TARGET_CRASP, SYNTAX_TL},
		       {"crasp-paper", TARGET_CRASP_PAPER, SYNTAX_TL},
		       {"cr", TARGET_CR, SYNTAX_TL},
		       {"dot", TARGET_DOT, SYNTAX_TL}};
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (strcmp(s, formats[i].name) == 0) {
			*syn = formats[i].syn;
			*target = formats[i].target;
			return true;
		}
	return false;
}

const char *const cmd_print_formats[] = {
	"tl", "utf8", "latex", "sexpr", "json", "tl-core", "crasp",
	"crasp-paper", "cr", "dot", NULL};

static void put_text(FILE *out, const char *text)
{
	size_t n = strlen(text);
	fputs(text, out);
	if (n == 0 || text[n - 1] != '\n')
		putc('\n', out);
}

/* C-RASP (either form) or the dot graph of the unit's output. */
static bool print_program(FILE *out, Store *s, const Unit *u, Target target,
			  bool expand)
{
	Sym *names = expand ? NULL : unit_name_map(u, s);
	CraspProgram prog;
	crasp_program(s, u->output, names, &prog);
	Buf b = {0};
	char *err = NULL;
	bool ok = true;
	char *note = NULL;
	if (target == TARGET_DOT)
		dot_print(&b, s, &prog);
	else if (target == TARGET_CR)
		ok = cr_print(&b, s, &prog, &err, &note);
	else
		ok = crasp_print(&b, s, &prog,
				 target == TARGET_CRASP ? CRASP_COMPACT
							: CRASP_PAPER,
				 &err);
	if (ok)
		fputs(b.data ? b.data : "", out);
	else
		status_usage_error("%s", err);
	if (ok && note)
		fprintf(stderr, "tally: note: %s", note);
	free(note);
	free(err);
	buf_free(&b);
	crasp_program_free(&prog);
	free(names);
	return ok;
}

/* Inlining every definition writes the whole tree, recursively: refuse
 * it up front when it is too big or too deep, from the sizes the store
 * already knows (a 1 KB input can denote 2^63 nodes).  max_size 0: the
 * printer keeps shared parts (tl-core), only the depth matters. */
/* --max-memory, when it bounds the size more tightly than --max-size:
 * the text of a node takes at least a byte, so a tree of more nodes
 * cannot be printed within it (0: not the bound). */
static uint64_t memory_bound;

static int expand_check(const Store *s, Node n, uint64_t max_size)
{
	if (store_height(s, n) > PRINT_MAX_HEIGHT)
		return limit_fail("--expand: the inlined formula is %u levels deep, "
				  "more than the printers' limit of %d; print it "
				  "without --expand",
				  (unsigned)store_height(s, n), PRINT_MAX_HEIGHT);
	if (max_size && store_size(s, n) > max_size) {
		uint64_t size = store_size(s, n);
		return limit_fail("--expand: the inlined formula has %s%llu nodes, "
				  "more than %s=%llu; print it without --expand",
				  size == UINT64_MAX ? "more than " : "",
				  (unsigned long long)(size == UINT64_MAX ? size - 1
									  : size),
				  max_size == memory_bound
					  ? "--max-memory (one byte a node)"
					  : "--max-size",
				  (unsigned long long)max_size);
	}
	return EXIT_YES;
}

static int print_core(FILE *out, Store *s, Lowering *lw, const Unit *u,
		      bool expand)
{
	/* the core is at least as high as its input: refuse before the
	 * lowering's work when the input is already too deep */
	if (expand && store_height(s, u->output) > PRINT_MAX_HEIGHT)
		return expand_check(s, u->output, 0);
	char *err = NULL;
	Node core = lower_formula(lw, u->output, &err);
	if (core == NODE_NONE) { /* the piece limit: a limit reached */
		limit_fail("%s", err);
		free(err);
		return EXIT_LIMIT;
	}
	int status = expand ? expand_check(s, core, 0) : EXIT_YES;
	if (status != EXIT_YES)
		return status;
	Sym *names = expand ? NULL : lower_unit_names(lw, u, core);
	size_t size;
	char *text = lower_print(s, core, names, &size);
	put_text(out, text);
	free(text);
	free(names);
	return EXIT_YES;
}

static bool stop_printing(void *lim)
{
	return limit_poll(lim);
}

/* EXIT_YES, or the status after a message (EXIT_LIMIT for a limit).
 * lim: the user's limits, polled while a formula is written out (NULL:
 * none). */
static int print_unit(FILE *out, Store *s, Lowering *lw, const Unit *u,
		      size_t index, Syntax syn, Target target, bool expand,
		      uint64_t max_size, Limits *lim)
{
	if (target == TARGET_JSON) {
		json_t *o = json_envelope();
		if (index)
			json_set_input(o, index, u->src);
		json_object_set_new(o, "formula", json_formula(s, u->output));
		json_emit(o);
		return EXIT_YES;
	}
	if (target == TARGET_CORE)
		return print_core(out, s, lw, u, expand);
	if (target != TARGET_TL)
		return print_program(out, s, u, target, expand) ? EXIT_YES
								: EXIT_USAGE;
	int status = expand && u->ndefs > 0
			     ? expand_check(s, u->output, max_size)
			     : EXIT_YES;
	if (status != EXIT_YES)
		return status;
	char *text = expand || u->ndefs == 0
			     ? tl_print_stoppable(s, u->output, syn,
						  lim ? stop_printing : NULL, lim)
			     : tl_print_unit(s, u, syn);
	if (!text)
		return limit_report(lim, "nothing of this formula was printed "
					 "(it was being written out)");
	put_text(out, text);
	free(text);
	return EXIT_YES;
}

bool cmd_print_unit(FILE *out, Store *s, Lowering *lw, const Unit *u,
		    const char *to, bool expand)
{
	Syntax syn;
	Target target;
	if (!parse_format(to, &syn, &target))
		return status_usage_error("unknown format '%s'", to) == EXIT_YES;
	return print_unit(out, s, lw, u, 0, syn, target, expand,
			  EXPAND_MAX_SIZE, NULL) == EXIT_YES;
}

typedef struct {
	Lowering *lw;
	Syntax syn;
	Target target;
	bool expand;
	uint64_t max_size;
	Limits *lim;
	int status;
} PrintJob;

static void on_unit(Inputs *in, const Unit *u)
{
	PrintJob *job = in->ctx;
	int status = print_unit(stdout, in->store, job->lw, u, in->nunits,
				job->syn,
				job->target, job->expand, job->max_size,
				job->lim);
	/* the first failure decides the exit status */
	if (status != EXIT_YES && job->status == EXIT_YES)
		job->status = status;
}

/* --to=FORMAT and --json: the last one given wins. */
typedef struct {
	Syntax syn;
	Target target;
} Format;

static int to_row(const Option *row, const char *arg)
{
	Format *f = row->ctx;
	return parse_format(arg, &f->syn, &f->target)
		       ? EXIT_YES : options_bad_choice(row, arg);
}

static int json_row(const Option *row, const char *arg)
{
	(void)arg;
	return to_row(row, "json");
}

int cmd_print(int argc, char **argv)
{
	Inputs in;
	inputs_init(&in);
	Format f = {SYNTAX_TL, TARGET_TL};
	bool expand = false;
	uint64_t max_size = EXPAND_MAX_SIZE;
	Limits limits;
	limit_init(&limits);
	const Option rows[] = {
		CLI_INPUT_ROWS(&in),
		CLI_BATCH_ROW(&in),
		OPTION_TEXT_ROW("Output:\n"),
		{.name = "json", .kind = OPTION_FLAG, .call = json_row, .ctx = &f,
		 .help = "the same as --to=json"},
		{.name = "to", .kind = OPTION_CALL, .meta = "FORMAT",
		 .call = to_row, .ctx = &f, .choices = cmd_print_formats,
		 .help = "tl (ASCII, default), utf8 (the papers'\n"
			 "notation), latex, sexpr, json (the DAG),\n"
			 "tl-core (only Q, !, &, <, #, +, 1),\n"
			 "crasp (C-RASP, compact form), crasp-paper\n"
			 "(C(i) := #[j <= i] P(j)), cr (a .cr file of\n"
			 "the Python C-RASP interpreter, fully\n"
			 "parenthesised), dot (Graphviz dataflow\n"
			 "graph, one cluster per layer)"},
		OPTION_FLAG_ROW(0, "expand", &expand,
				"inline definitions instead of printing\n"
				"'let NAME = ...;' lines"),
		OPTION_COUNT_ROW(0, "max-size", "N", 1, SIZE_MAX, &max_size,
				 "with --expand, refuse (before printing) a\n"
				 "formula of more than N nodes (default\n"
				 "100000000) or more than 5000 levels deep"),
		CLI_LIMIT_ROWS(&limits),
		OPTION_HELP_ROW,
	};
	const OptionTable table = OPTION_TABLE(intro, rows, outro);
	int status = options_parse(&table, argc, argv);
	if (status != EXIT_YES) {
		status = status == OPTIONS_DONE ? EXIT_YES : status;
		goto done;
	}
	if (limits.max_memory && limits.max_memory < max_size)
		max_size = memory_bound = limits.max_memory;
	PrintJob job = {lower_new(in.store), f.syn, f.target, expand, max_size,
			&limits, EXIT_YES};
	limit_start(&limits);
	in.on_unit = on_unit;
	in.ctx = &job;
	status = cli_load_inputs(&in, argc, argv, true);
	if (status == EXIT_YES)
		status = job.status;
	lower_free(job.lw);
done:
	inputs_free(&in);
	return status;
}
