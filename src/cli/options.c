/* options.c -- a command's option table: getopt, values, --help and the
 * listing (options.h). */
#include <config.h>
#include "cli/options.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"
#include "base/number.h"
#include "base/status.h"
#include "cli/cli.h"
#include "cli/getopt_hint.h"
#include "machine/eval.h"

/* getopt values of rows without a letter: OPTION_VAL + their index. */
enum { OPTION_VAL = 256, HELP_COLUMN = 25 };

static const char *const kind_names[] = {
	[OPTION_TEXT] = "text",       [OPTION_FLAG] = "flag",
	[OPTION_COUNT] = "count",     [OPTION_RANGE] = "range",
	[OPTION_CHOICE] = "choice",   [OPTION_STRING] = "string",
	[OPTION_SECONDS] = "seconds", [OPTION_SIZE] = "size",
	[OPTION_CALL] = "string",     [OPTION_HELP] = "flag",
};

static bool takes_value(const Option *o)
{
	return o->kind != OPTION_FLAG && o->kind != OPTION_HELP;
}

/* The getopt tables of t, with the hidden --list-options last. */
static struct option *getopt_table(const OptionTable *t, Buf *shortopts)
{
	struct option *longopts = xcalloc(t->nrows + 2, sizeof *longopts);
	size_t n = 0;
	buf_printf(shortopts, "%s", "");
	for (size_t i = 0; i < t->nrows; i++) {
		const Option *o = &t->rows[i];
		if (!o->name)
			continue;
		int val = o->letter ? o->letter : OPTION_VAL + (int)i;
		longopts[n++] = (struct option){o->name, takes_value(o)
			? required_argument : no_argument, NULL, val};
		if (o->letter)
			buf_printf(shortopts, "%c%s", o->letter,
				   takes_value(o) ? ":" : "");
	}
	longopts[n] = (struct option){"list-options", no_argument, NULL,
				      OPTION_VAL - 1};
	return longopts;
}

static const Option *row_of(const OptionTable *t, int val)
{
	if (val >= OPTION_VAL && (size_t)(val - OPTION_VAL) < t->nrows)
		return &t->rows[val - OPTION_VAL];
	for (size_t i = 0; i < t->nrows; i++)
		if (t->rows[i].letter == val)
			return &t->rows[i];
	return NULL;
}

/* A count into *dest of width bytes (unsigned, or 64 bits). */
static void store_count(void *dest, size_t width, uint64_t v)
{
	if (width == sizeof(unsigned)) {
		unsigned u = (unsigned)v;
		memcpy(dest, &u, sizeof u);
	} else {
		memcpy(dest, &v, sizeof v);
	}
}

static int choice(const Option *o, const char *arg)
{
	for (size_t i = 0; o->choices[i]; i++)
		if (strcmp(arg, o->choices[i]) == 0) {
			if (o->dest)
				*(const char **)o->dest = arg;
			if (o->dest2)
				*(int *)o->dest2 = (int)i;
			return EXIT_YES;
		}
	return options_bad_choice(o, arg);
}

int options_bad_choice(const Option *o, const char *arg)
{
	size_t n = 0;
	while (o->choices[n])
		n++;
	/* "expected a, b or c, not 'x'" */
	Buf b = {0};
	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ",
			   o->choices[i]);
	int st = status_usage_error("--%s: expected %s, not '%s'%s", o->name,
				    b.data, arg, choice_hint(arg, o->choices, n));
	buf_free(&b);
	return st;
}

/* The value arg of row o into its destination: EXIT_YES, or the status
 * after a message. */
static int apply(const Option *o, const char *arg)
{
	uint64_t v;
	size_t lo, hi;
	bool ok = true;
	if (o->given)
		*o->given = true;
	if (o->times)
		++*o->times;
	switch (o->kind) {
	case OPTION_FLAG:
		if (o->call)
			return o->call(o, NULL);
		*(bool *)o->dest = true;
		break;
	case OPTION_COUNT:
		ok = number_option_count(o->name, arg, o->lo, o->hi, &v);
		if (ok)
			store_count(o->dest, o->width, v);
		break;
	case OPTION_RANGE:
		ok = number_option_range(o->name, arg, (size_t)o->lo,
					 (size_t)o->hi, o->bounded, &lo, &hi);
		if (ok) {
			store_count(o->dest, o->width, lo);
			store_count(o->dest2, o->width, hi);
		}
		break;
	case OPTION_CHOICE: return choice(o, arg);
	case OPTION_STRING: *(const char **)o->dest = arg; break;
	case OPTION_SECONDS:
		if (!number_parse_seconds(arg, o->dest))
			return status_usage_error("--%s: expected a number of "
						  "seconds greater than 0, not "
						  "'%s'", o->name, arg);
		break;
	case OPTION_SIZE:
		if (!number_parse_size(arg, o->dest))
			return status_usage_error("--%s: expected a size such as "
						  "500M or 2G, not '%s'",
						  o->name, arg);
		break;
	case OPTION_CALL: return o->call(o, arg);
	default: break;
	}
	return ok ? EXIT_YES : EXIT_USAGE;
}

/* One line per listed option: "--name[=] -X|- KIND META|- [VALUE...]". */
static void list_options(const OptionTable *t)
{
	for (size_t i = 0; i < t->nrows; i++) {
		const Option *o = &t->rows[i];
		if (!o->name || !o->help)
			continue;
		printf("--%s%s %s%c %s %s", o->name, takes_value(o) ? "=" : "",
		       o->letter ? "-" : "", o->letter ? o->letter : '-',
		       kind_names[o->kind], o->meta ? o->meta : "-");
		if (o->kind == OPTION_COUNT || o->kind == OPTION_RANGE)
			printf(" %llu..%llu", (unsigned long long)o->lo,
			       (unsigned long long)o->hi);
		for (const char *const *c = o->choices; c && *c; c++)
			printf(" %s", *c);
		putchar('\n');
	}
}

int options_parse(const OptionTable *t, int argc, char **argv)
{
	Buf shortopts = {0};
	struct option *longopts = getopt_table(t, &shortopts);
	int opt, status = EXIT_YES;
	while (status == EXIT_YES &&
	       (opt = cli_getopt(argc, argv, shortopts.data, longopts)) != -1) {
		const Option *o = row_of(t, opt);
		if (opt == OPTION_VAL - 1) {
			list_options(t);
			status = OPTIONS_DONE;
		} else if (!o) {
			status = EXIT_USAGE; /* cli_getopt said why */
		} else if (o->kind == OPTION_HELP) {
			options_help(t);
			status = OPTIONS_DONE;
		} else {
			status = apply(o, optarg);
		}
	}
	free(longopts);
	buf_free(&shortopts);
	return status;
}

/* A row's lines: its label, then its help text from HELP_COLUMN. */
static void help_row(const Option *o)
{
	char label[64];
	snprintf(label, sizeof label, "  %c%c%c --%s%s%s",
		 o->letter ? '-' : ' ', o->letter ? o->letter : ' ',
		 o->letter ? ',' : ' ', o->name, o->meta ? "=" : "",
		 o->meta ? o->meta : "");
	int pad = (int)strlen(label) < HELP_COLUMN
			  ? HELP_COLUMN - (int)strlen(label) : 2;
	printf("%s%*s", label, pad, "");
	for (const char *p = o->help; *p; p++) {
		putchar(*p);
		if (*p == '\n' && p[1])
			printf("%*s", HELP_COLUMN, "");
	}
	putchar('\n');
}

void options_help(const OptionTable *t)
{
	fputs(t->intro, stdout);
	for (size_t i = 0; i < t->nrows; i++) {
		const Option *o = &t->rows[i];
		if (o->kind == OPTION_TEXT)
			fputs(o->help, stdout);
		else if (o->help)
			help_row(o);
	}
	fputs(t->outro, stdout);
	fputs(cli_exit_help, stdout);
}

const char *const accept_at_choices[] = {"last", "eos", NULL};

int accept_at_row(const Option *row, const char *arg)
{
	return eval_accept_parse(arg, row->ctx) ? EXIT_YES
						: options_bad_choice(row, arg);
}
