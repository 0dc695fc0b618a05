#include <config.h>
#include "cli/cli.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "core/json.h"
#include "base/mem.h"
#include "cli/old_spellings.h"
#include "core/prelude.h"
#include "transformer/fixed.h"

const char cli_exit_help[] =
	"Exit status:\n"
	"  0  success, or a true answer (every word accepted, equivalent)\n"
	"  1  a negative answer (some word rejected, not equivalent)\n"
	"  2  usage or input error\n"
	"  3  unknown, or only a bounded answer\n"
	"  4  a user limit (time, memory, states) was reached\n";

int cli_load_inputs(Inputs *in, int argc, char **argv, bool stdin_lines)
{
	if (optind < argc)
		return status_usage_error("unexpected argument '%s'", argv[optind]);
	return inputs_load(in, stdin_lines) ? EXIT_YES : inputs_failure(in);
}

int inputs_failure(const Inputs *in)
{
	return in->diag.limit ? EXIT_LIMIT : EXIT_USAGE;
}

void cli_print_version(void)
{
	printf("tally %s\n", PACKAGE_VERSION);
}

int cli_run_command(const char *name, int (*run)(int argc, char **argv),
		    int argc, char **argv)
{
	static char prog[32];
	snprintf(prog, sizeof prog, "tally %s", name);
	argv[1] = prog;
	json_set_command(name);
	old_spellings_rewrite(name, argc - 1, argv + 1);
	int status = run(argc - 1, argv + 1);
	/* --batch: a record that did not load makes the end an input
	 * error, after the others were done. */
	if (cli_batch_failed && status != EXIT_LIMIT && status != EXIT_INTERNAL)
		status = EXIT_USAGE;
	return status;
}

void inputs_init(Inputs *in)
{
	memset(in, 0, sizeof *in);
	in->store = store_new();
	in->scope = prelude_scope_new(in->store);
	in->diag.out = stderr;
}

void inputs_free(Inputs *in)
{
	for (size_t i = 0; i < in->nunits; i++)
		unit_free(&in->units[i]);
	free(in->units);
	for (size_t i = 0; i < in->nsources; i++)
		source_free(in->sources[i]);
	free(in->sources);
	free(in->specs);
	scope_free(in->scope);
	store_free(in->store);
	memset(in, 0, sizeof *in);
}

static void add_spec(Inputs *in, int kind, const char *text)
{
	mem_grow((void **)&in->specs, &in->specs_cap, in->nspecs + 1,
		 sizeof *in->specs);
	in->specs[in->nspecs].kind = kind;
	in->specs[in->nspecs].text = text;
	in->nspecs++;
}

bool inputs_option(Inputs *in, int kind, const char *arg)
{
	switch (kind) {
	case 'f': add_spec(in, INPUT_FORMULA, arg); return true;
	case 'F': add_spec(in, INPUT_FILE, arg); return true;
	case 'P': add_spec(in, INPUT_PROGRAM, arg); return true;
	case 'b': add_spec(in, INPUT_BATCH, arg); return true;
	default: return false;
	}
}



int inputs_option_row(const Option *row, const char *arg)
{
	inputs_option(row->ctx, row->letter ? row->letter : 'b', arg);
	return EXIT_YES;
}

const char *const cli_syntaxes[] = {"tl", "crasp", "cr", NULL};
const char *const cli_cr_precedences[] = {"peer", "conventional", NULL};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Applies --output=NAME to the unit just parsed. */
static bool choose_output(Inputs *in, Unit *u)
{
	if (!in->output)
		return true;
	Sym name = sym_lookup(store_syms(in->store), in->output,
			      strlen(in->output));
	const Def *d = name == SYM_NONE ? NULL : scope_lookup(in->scope, name);
	if (!d) {
		diag_plain(&in->diag, "--output: no definition named '%s'",
			   in->output);
		return false;
	}
	if (!in->terms && !store_is_bool(in->store, d->node)) {
		diag_plain(&in->diag,
			   "--output: '%s' is an integer term, not a formula",
			   in->output);
		return false;
	}
	u->output = d->node;
	u->output_name = name;
	return true;
}

bool inputs_parse(Inputs *in, Source *src, Flavor f)
{
	mem_grow((void **)&in->sources, &in->sources_cap, in->nsources + 1,
		 sizeof *in->sources);
	in->sources[in->nsources++] = src;
	scope_clear(in->scope); /* each input its own scope (tally-eval(1)) */
	Unit u = {.terms = in->terms};
	bool ok = f == FLAVOR_TL  ? tl_parse(in->scope, &in->diag, src, &u)
		  : f == FLAVOR_CR ? cr_parse(in->scope, &in->diag, src,
					      in->cr_prec, &u)
				   : crasp_parse(in->scope, &in->diag, src, f, &u);
	if (ok)
		ok = choose_output(in, &u);
	if (!ok) {
		unit_free(&u);
		return false;
	}
	mem_grow((void **)&in->units, &in->units_cap, in->nunits + 1,
		 sizeof *in->units);
	in->units[in->nunits++] = u;
	if (in->on_unit) {
		in->on_unit(in, &in->units[in->nunits - 1]);
		fflush(stdout);
	}
	return true;
}

static bool flavor_of(Inputs *in, const InputSpec *spec, Flavor *f)
{
	const char *syn = in->syntax;
	if (!syn) {
		if (spec->kind == INPUT_PROGRAM)
			syn = ends_with(spec->text, ".cr") ? "cr" : "crasp";
		else
			syn = "tl";
	}
	if (strcmp(syn, "tl") == 0)
		*f = FLAVOR_TL;
	else if (strcmp(syn, "crasp") == 0)
		*f = FLAVOR_CRASP;
	else if (strcmp(syn, "cr") == 0)
		*f = FLAVOR_CR;
	else {
		diag_plain(&in->diag,
			   "unknown --syntax '%s' (expected tl, crasp or cr)",
			   syn);
		return false;
	}
	return true;
}

/* One formula per non-blank line of stdin; comment lines (-- or //)
 * are skipped. */
/* Blank lines and lines holding only a comment carry no formula. */
static bool is_blank_line(const char *t, size_t n)
{
	size_t j = 0;
	while (j < n && (t[j] == ' ' || t[j] == '\t' || t[j] == '\r'))
		j++;
	bool comment = j + 1 < n && ((t[j] == '-' && t[j + 1] == '-') ||
				     (t[j] == '/' && t[j + 1] == '/'));
	return j == n || comment;
}

/* Reads one line (without its newline) into *b; -1 at the end of input,
 * 1 when the line is longer than SOURCE_MAX_BYTES (the rest unread). */
static int read_line(FILE *f, Buf *b)
{
	b->len = 0;
	int c;
	while ((c = getc(f)) != EOF && c != '\n') {
		if (b->len == SOURCE_MAX_BYTES)
			return 1;
		buf_putc(b, (char)c);
	}
	return c == EOF && b->len == 0 ? -1 : 0;
}

/* One formula per line, each handled (on_unit) as soon as it is read, so
 * that pipelines see results line by line.  A stdin without a formula is
 * the same error as a terminal on stdin: nothing was asked. */
static bool load_stdin_lines(Inputs *in)
{
	Buf text = {0};
	int got;
	bool ok = true;
	size_t before = in->nunits;
	for (int line = 0; ok && (got = read_line(stdin, &text)) >= 0;
	     line++) {
		if (got > 0) {
			diag_plain(&in->diag, "<stdin>:%d: a line is longer than "
					      "the input limit of %zu MiB",
				   line + 1, SOURCE_MAX_BYTES >> 20);
			in->diag.limit = true;
			ok = false;
			break;
		}
		if (text.len == 0 || is_blank_line(text.data, text.len))
			continue;
		Source *src = source_new("<stdin>", text.data, text.len);
		src->line_base = line;
		ok = inputs_parse(in, src, FLAVOR_TL);
	}
	buf_free(&text);
	if (ok && ferror(stdin)) {
		diag_plain(&in->diag, "cannot read standard input: %s",
			   strerror(errno));
		ok = false;
	}
	if (ok && in->nunits == before) {
		diag_plain(&in->diag, "no input: standard input holds no "
				      "formula (give one per line, or -f "
				      "FORMULA, -F FILE or -P PROGRAM)");
		ok = false;
	}
	return ok;
}

bool cli_batch_failed;

void cli_record_error(size_t index, const char *source, const char *reason,
		      bool json)
{
	if (json) {
		json_t *j = json_envelope();
		json_object_set_new(j, "input", json_integer((json_int_t)index));
		json_object_set_new(j, "source", json_string(source));
		json_object_set_new(j, "error", json_string(reason));
		json_emit(j);
	} else {
		printf("%zu\terror: %s: %s\n", index, source, reason);
	}
	fflush(stdout);
}

/* Is text[0..n) the separator line ";;" (blanks around it allowed)? */
static bool is_separator(const char *text, size_t n)
{
	while (n && (text[n - 1] == ' ' || text[n - 1] == '\t' ||
		     text[n - 1] == '\r'))
		n--;
	while (n && (*text == ' ' || *text == '\t')) {
		text++;
		n--;
	}
	return n == 2 && text[0] == ';' && text[1] == ';';
}

/* One record of a batch file: lines [from, to) at text. */
static void batch_record(Inputs *in, const Source *file, const char *text,
			 size_t len, int first_line)
{
	if (is_blank_line(text, len))
		return;
	Source *src = source_new(file->name, text, len);
	src->line_base = first_line;
	if (!inputs_parse(in, src, FLAVOR_TL))
		cli_batch_failed = true;
}

/* --batch=FILE: records are lines, or blocks between ";;" lines when the
 * file has any. */
static bool load_batch(Inputs *in, const char *path)
{
	Source *file = source_read_file(path, &in->diag);
	if (!file)
		return false;
	const char *t = file->text, *end = file->text + file->len;
	bool blocks = false;
	for (const char *p = t; p < end && !blocks;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		blocks = is_separator(p, (size_t)(e - p));
		p = nl ? nl + 1 : end;
	}
	int line = 0, start_line = 0;
	const char *start = t;
	for (const char *p = t; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		const char *next = nl ? nl + 1 : end;
		if (!blocks) {
			batch_record(in, file, p, (size_t)(e - p), line);
		} else if (is_separator(p, (size_t)(e - p))) {
			batch_record(in, file, start, (size_t)(p - start),
				     start_line);
			start = next;
			start_line = line + 1;
		}
		p = next;
		line++;
	}
	if (blocks)
		batch_record(in, file, start, (size_t)(end - start), start_line);
	source_free(file);
	return true;
}

bool inputs_load(Inputs *in, bool stdin_lines)
{
	if (in->cr_precedence &&
	    !cr_precedence_parse(in->cr_precedence, &in->cr_prec)) {
		diag_plain(&in->diag,
			   "--cr-precedence: expected peer or conventional, "
			   "not '%s'", in->cr_precedence);
		return false;
	}
	if (in->nspecs == 0) {
		if (stdin_lines && !isatty(STDIN_FILENO))
			return load_stdin_lines(in);
		diag_plain(&in->diag, "no input: give -f FORMULA, -F FILE or "
				      "-P PROGRAM");
		return false;
	}
	for (size_t i = 0; i < in->nspecs; i++) {
		const InputSpec *spec = &in->specs[i];
		Flavor f = FLAVOR_TL;
		Source *src;
		if (spec->kind == INPUT_BATCH) {
			if (!load_batch(in, spec->text))
				return false;
			continue;
		}
		if (spec->kind == INPUT_FORMULA) {
			src = source_new("-f", spec->text, strlen(spec->text));
		} else {
			if (!flavor_of(in, spec, &f))
				return false;
			src = source_read_file(spec->text, &in->diag);
			if (!src)
				return false;
		}
		if (!inputs_parse(in, src, f))
			return false;
	}
	return true;
}

int cli_word_row(const Option *row, const char *arg)
{
	CliWords *words = row->ctx;
	VEC_PUSH(*words, arg);
	return EXIT_YES;
}

const char *const cli_semantics[] = {"kneedeep", "rounded-sums", "ieee=fp32",
				     "ieee=bf16", "ieee=fp16", NULL};

int cli_precision_row(const Option *row, const char *arg)
{
	if (precision_parse(arg, row->dest, row->dest2))
		return EXIT_YES;
	return status_usage_error("--precision: expected P,S with 2 <= P <= %d "
				  "and 0 <= S <= P-2, not '%s'", FIXED_MAX_P,
				  arg);
}
