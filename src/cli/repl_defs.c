/* repl_defs.c -- the : commands on the session's definitions as a whole
 * (:defs, :save, :load, :reset; see repl_handlers.h): the definitions
 * written out as a TL file that parses back to them, read in from one,
 * or forgotten. */
#include <config.h>
#include "cli/repl_handlers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "cli/repl_args.h"
#include "cli/repl_session.h"
#include "core/print.h"

/* The definitions as a TL file: "let NAME = body;" lines, each body
 * printed with the names defined before it (so the file parses back
 * to the same definitions). */
static char *defs_text(Repl *r)
{
	Sym *names = xmalloc((store_node_count(r->store) + 1) * sizeof *names);
	for (size_t i = 0; i <= store_node_count(r->store); i++)
		names[i] = SYM_NONE;
	Buf b = {0};
	buf_puts(&b, "");
	for (size_t i = 0; i < r->defs.len; i++) {
		const Def *d = &r->defs.data[i];
		/* an alias (equal formulas are one node) names the first */
		Sym alias = names[d->node];
		char *body = alias != SYM_NONE
				     ? xstrdup(sym_name(repl_session_syms(r),
							alias))
				     : tl_print(r->store, d->node, SYNTAX_TL,
						names);
		buf_printf(&b, "let %s = %s;\n",
			   sym_name(repl_session_syms(r), d->name), body);
		free(body);
		if (alias == SYM_NONE)
			names[d->node] = d->name;
	}
	free(names);
	return buf_take(&b);
}

void repl_cmd_defs(Repl *r, char *arg)
{
	(void)arg;
	char *text = defs_text(r);
	fputs(*text ? text : "(no definitions)\n", stdout);
	free(text);
}

void repl_cmd_save(Repl *r, char *arg)
{
	char *path = repl_file_arg(r, &arg, "save");
	if (!path)
		return;
	FILE *f = fopen(path, "w");
	char *text = defs_text(r);
	bool ok = f && fputs(text, f) != EOF;
	int why = errno;
	if (f && fclose(f) != 0 && ok) {
		ok = false;
		why = errno;
	}
	if (!ok)
		repl_session_fail(r, "cannot write '%s': %s", path, strerror(why));
	else
		printf("saved %zu definition%s to %s\n", r->defs.len,
		       r->defs.len == 1 ? "" : "s", path);
	free(text);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

void repl_cmd_load(Repl *r, char *arg)
{
	char *path = repl_file_arg(r, &arg, "load");
	if (!path)
		return;
	Diag d = {.out = stderr};
	Source *src = source_read_file(path, &d);
	if (!src) {
		r->failed = true;
		return;
	}
	Flavor f = ends_with(path, ".cr")      ? FLAVOR_CR
		   : ends_with(path, ".crasp") ? FLAVOR_CRASP
					       : FLAVOR_TL;
	/* a file's names are new: it cannot replace definitions */
	repl_session_take_input(r, src, f, false, NULL);
}

void repl_cmd_reset(Repl *r, char *arg)
{
	(void)arg;
	repl_session_reset(r);
	puts("session reset: no definitions");
}
