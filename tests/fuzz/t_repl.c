/* t_repl.c -- REPL sessions (fuzz_repl): the input, split at newlines,
 * is fed line by line to repl_line as a script, without readline.
 *
 * Commands that write files (:dot, :save), read them (:load), or run a
 * decision procedure or search that may take minutes (:equiv, :check,
 * :search) are left out, and :lang only enumerates up to length 2: the
 * target looks for crashes, leaks and undefined behaviour in the line
 * handling, definitions, continuation lines and the cheap commands.
 * What the session prints goes to /dev/null. */
#include <config.h>
#include "fuzz.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/repl.h"

/* Whether a line may be fed: not one of the commands above. */
static bool allowed(const char *line)
{
	static const char *const banned[] = {"dot", "save", "load", "equiv",
					     "check", "search"};
	const char *s = line + strspn(line, " \t\r");
	if (*s != ':')
		return true;
	s++;
	size_t n = strcspn(s, " \t");
	for (size_t i = 0; i < sizeof banned / sizeof banned[0]; i++)
		if (strlen(banned[i]) == n && strncmp(s, banned[i], n) == 0)
			return false;
	if (n == 4 && strncmp(s, "lang", 4) == 0) {
		const char *arg = s + 4 + strspn(s + 4, " \t");
		return arg[0] >= '0' && arg[0] <= '2' &&
		       strchr(" \t", arg[1]) != NULL; /* arg[1] may be NUL */
	}
	return true;
}

static void session(const uint8_t *data, size_t size)
{
	Repl *r = repl_new(false);
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	/* a NUL ends its line early, as fgets-style reading would */
	for (char *line = text; line < text + size && !repl_done(r);) {
		char *nl = memchr(line, '\n', (size_t)(text + size - line));
		if (nl)
			*nl = '\0';
		if (allowed(line))
			repl_line(r, line);
		line = nl ? nl + 1 : text + size;
	}
	int status = repl_finish(r);
	FUZZ_CHECK(status == 0 || status == 2);
	free(text);
	repl_free(r);
}

FUZZ_TARGET(repl)
{
	/* stdout to /dev/null for the session (restored: the regression
	 * driver reports on stdout). */
	fflush(stdout);
	int saved = dup(1), null = open("/dev/null", O_WRONLY);
	if (saved >= 0 && null >= 0)
		dup2(null, 1);
	session(data, size);
	fflush(stdout);
	if (saved >= 0 && null >= 0)
		dup2(saved, 1);
	if (saved >= 0)
		close(saved);
	if (null >= 0)
		close(null);
	return 0;
}
