/* old_spellings.c -- renamed options, still understood (old_spellings.h). */
#include <config.h>
#include "cli/old_spellings.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"

typedef struct {
	const char *command; /* the subcommand it applies to */
	const char *old;     /* without the leading "--" */
	const char *now;
	bool warned;
} Rename;

static Rename renames[] = {
	{"enum", "length", "max-length", false},
	{"search", "length", "max-length", false},
	{"hierarchy", "length", "max-length", false},
	{"simulate", "length", "random-length", false},
	{"enum", "count", "max-formulas", false},
	{"search", "count", "max-formulas", false},
};

/* The new spelling of arg ("--old" or "--old=VALUE") under r, or NULL. */
static char *respell(Rename *r, const char *arg)
{
	size_t n = strlen(r->old);
	if (strncmp(arg, "--", 2) != 0 || strncmp(arg + 2, r->old, n) != 0 ||
	    (arg[2 + n] != '\0' && arg[2 + n] != '='))
		return NULL;
	if (!r->warned)
		fprintf(stderr, "tally: warning: --%s is now --%s (the old "
				"spelling still works)\n", r->old, r->now);
	r->warned = true;
	Buf b = {0};
	buf_printf(&b, "--%s%s", r->now, arg + 2 + n);
	return buf_take(&b);
}

/* The rewritten arguments, held from a global so that they stay
 * reachable (argv points into them) until exit. */
static char **made;
static size_t nmade;

void old_spellings_rewrite(const char *command, int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		for (size_t k = 0; k < sizeof renames / sizeof renames[0]; k++) {
			if (strcmp(renames[k].command, command) != 0)
				continue;
			char *now = respell(&renames[k], argv[i]);
			if (now) {
				made = xrealloc(made, (nmade + 1) * sizeof *made);
				made[nmade++] = now;
				argv[i] = now;
				break;
			}
		}
}
