/* repl_show.c -- the : commands that show a formula or the alphabet
 * (:info, :tl, :core, :crasp, :dot, :alphabet; see repl_handlers.h):
 * tally info's and tally print's work (cmd_info_unit, cmd_print_unit) on
 * the session's formulas, nothing decided. */
#include <config.h>
#include "cli/repl_handlers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "cli/commands.h"
#include "cli/repl_args.h"
#include "cli/repl_session.h"
#include "core/alphabet.h"

/* "alphabet: a b c": the session's, which every : command uses. */
static void print_alphabet(Repl *r)
{
	char *spec = repl_session_alphabet(r);
	Alphabet a;
	alphabet_init(&a, r->store, NULL, 0, spec);
	letters_print_line(stdout, a.syms, a.letters, a.n);
	alphabet_free(&a);
	free(spec);
}

void repl_cmd_info(Repl *r, char *arg)
{
	Node n = repl_subject(r, arg);
	if (n == NODE_NONE)
		return;
	Unit u;
	repl_subject_unit(r, n, &u);
	cmd_info_unit(r->store, r->lw, &u, false, 0);
	unit_free(&u);
	print_alphabet(r);
}

/* :tl, :core, :crasp: tally print --to=TO. */
static void print_as(Repl *r, char *arg, const char *to, FILE *out)
{
	Node n = repl_subject(r, arg);
	if (n == NODE_NONE)
		return;
	Unit u;
	repl_subject_unit(r, n, &u);
	fflush(stdout);
	if (!cmd_print_unit(out, r->store, r->lw, &u, to, false))
		r->failed = true;
	unit_free(&u);
}

void repl_cmd_tl(Repl *r, char *arg)
{
	print_as(r, arg, "tl", stdout);
}

void repl_cmd_core(Repl *r, char *arg)
{
	print_as(r, arg, "tl-core", stdout);
}

void repl_cmd_crasp(Repl *r, char *arg)
{
	print_as(r, arg, "crasp", stdout);
}

void repl_cmd_dot(Repl *r, char *arg)
{
	char *path = repl_file_arg(r, &arg, "dot");
	if (!path)
		return;
	FILE *f = fopen(path, "w");
	if (!f) {
		repl_session_fail(r, "cannot write '%s': %s", path, strerror(errno));
		return;
	}
	print_as(r, arg, "dot", f);
	if (fclose(f) != 0)
		repl_session_fail(r, "cannot write '%s': %s", path, strerror(errno));
}

void repl_cmd_alphabet(Repl *r, char *arg)
{
	arg = (char *)repl_session_skip_blank(arg);
	if (*arg) {
		free(r->alphabet);
		r->alphabet = strcmp(arg, "\"\"") == 0 || strcmp(arg, "''") == 0
				      ? NULL
				      : xstrdup(arg);
	}
	print_alphabet(r);
}
