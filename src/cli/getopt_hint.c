/* getopt_hint.c -- option errors with suggestions (getopt_hint.h). */
#include <config.h>
#include "cli/getopt_hint.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "base/suggest.h"

/* The long options whose names start with name[0..len), and the first. */
static size_t prefix_matches(const struct option *longopts, const char *name,
			     size_t len, const char **first)
{
	size_t n = 0;
	for (const struct option *o = longopts; o->name; o++)
		if (strncmp(o->name, name, len) == 0 && n++ == 0)
			*first = o->name;
	return n;
}

/* Whether arg ("name" or "name=value") abbreviates a long option whose
 * value is val: the option getopt_long stopped at was this argument,
 * not a short one of a later cluster. */
static bool names_option(const struct option *longopts, const char *arg,
			 int val)
{
	size_t len = strcspn(arg, "=");
	for (const struct option *o = longopts; o->name; o++)
		if (o->val == val && strncmp(o->name, arg, len) == 0)
			return true;
	return false;
}

/* The message for the long option arg ("--name" or "--name=value"). */
static void long_option_error(const char *prog, const char *arg, int kind,
			      const struct option *longopts)
{
	const char *name = arg + 2;
	size_t len = strcspn(name, "=");
	const char *first = NULL;
	size_t matches = prefix_matches(longopts, name, len, &first);
	if (kind == ':') {
		status_usage_error("option '--%.*s' needs a value (--%.*s=VALUE)",
				(int)len, name, (int)len, name);
	} else if (matches == 1 && name[len] == '=') {
		status_usage_error("option '--%s' takes no value", first);
	} else if (matches > 1) {
		status_usage_error("ambiguous option '--%.*s' (--%s, ...): write "
				"it out", (int)len, name, first);
	} else {
		Suggest sg;
		suggest_init(&sg, name, len);
		for (const struct option *o = longopts; o->name; o++)
			suggest_offer(&sg, o->name);
		if (sg.best)
			status_usage_error("unknown option '--%.*s' of %s; did you "
					"mean '--%s'?", (int)len, name, prog, sg.best);
		else
			status_usage_error("unknown option '--%.*s' of %s (%s --help "
					"lists them)", (int)len, name, prog, prog);
	}
}

int cli_getopt(int argc, char **argv, const char *shortopts,
	       const struct option *longopts)
{
	/* a leading ':' tells a missing value (':') from the rest ('?') */
	char quiet[64];
	snprintf(quiet, sizeof quiet, ":%s", shortopts);
	opterr = 0;
	int opt = getopt_long(argc, argv, quiet, longopts, NULL);
	if (opt != '?' && opt != ':')
		return opt;
	const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	bool is_long = strncmp(arg, "--", 2) == 0 &&
		       (optopt == 0 || names_option(longopts, arg + 2, optopt));
	if (is_long)
		long_option_error(argv[0], arg, opt, longopts);
	else if (opt == ':')
		status_usage_error("option '-%c' needs a value", optopt);
	else
		status_usage_error("unknown option '-%c' of %s (%s --help lists "
				"them)", optopt, argv[0], argv[0]);
	return '?';
}

const char *choice_hint(const char *value, const char *const *choices,
			size_t n)
{
	static char text[96];
	const char *best = suggest_closest(value, strlen(value), choices, n);
	text[0] = '\0';
	if (best)
		snprintf(text, sizeof text, "; did you mean '%s'?", best);
	return text;
}
