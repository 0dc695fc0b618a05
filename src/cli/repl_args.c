/* repl_args.c -- what a : command's argument names: a formula (or the
 * last one typed), a definition of the session, a file (see
 * repl_args.h).  Every command that takes one reads it here, so that all
 * of them read it alike. */
#include <config.h>
#include "cli/repl_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/repl_session.h"

/* The formula of a command's argument (parsed in the session's scope,
 * defining nothing), or the last formula; NODE_NONE after a message. */
Node repl_subject_of(Repl *r, const char *arg, bool terms)
{
	arg = repl_session_skip_blank(arg);
	if (!*arg) {
		if (r->last == NODE_NONE)
			repl_session_fail(r, "no formula yet: type one, or "
					  "give one after the command");
		return r->last;
	}
	Source *src = source_new("<argument>", arg, strlen(arg));
	Diag d = {.out = stderr};
	Unit u = {.terms = terms};
	bool ok = tl_parse_input(r->scope, &d, src, &u);
	repl_session_forget_unit(r, &u);
	Node n = u.output;
	unit_free(&u);
	source_free(src);
	if (!ok) {
		r->failed = true;
		return NODE_NONE;
	}
	if (n == NODE_NONE)
		repl_session_fail(r, "expected a formula, found only "
				  "integer definitions");
	return n;
}

/* A formula: the argument, else the last one typed. */
Node repl_subject(Repl *r, const char *arg)
{
	return repl_subject_of(r, arg, false);
}

/* The unit the CLI's functions describe: the session's definitions that
 * the formula uses (so that they print under their names), then it. */
void repl_subject_unit(Repl *r, Node n, Unit *u)
{
	memset(u, 0, sizeof *u);
	u->output = n;
	u->output_name = SYM_NONE;
	unsigned char *mark = store_reachable(r->store, &n, 1);
	for (size_t i = 0; i < r->defs.len; i++) {
		const Def *d = &r->defs.data[i];
		if (d->node <= n && mark[d->node])
			unit_add_def(u, d);
		if (d->node == n)
			u->output_name = d->name;
	}
	free(mark);
}

/* A defined name of the session (not the prelude's): its node. */
Node repl_defined(Repl *r, const char *name)
{
	Sym s = sym_lookup(repl_session_syms(r), name, strlen(name));
	const Def *d = s == SYM_NONE ? NULL : scope_lookup_local(r->scope, s);
	return d ? d->node : NODE_NONE;
}

/* The first word of arg (a file name) is cut off; the rest follows. */
char *repl_file_arg(Repl *r, char **arg, const char *cmd)
{
	char *s = (char *)repl_session_skip_blank(*arg);
	char *end = s + strcspn(s, " \t");
	if (end == s) {
		repl_session_fail(r, ":%s needs a file name", cmd);
		return NULL;
	}
	*arg = *end ? end + 1 : end;
	*end = '\0';
	return s;
}
