/* repl.c -- the REPL's lines: a session made and ended, inputs continued
 * over lines, : commands handed to repl_commands.c, completion and the
 * loop on stdin (see repl.h; the session is repl_session.c). */
#include <config.h>
#include "cli/repl.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/mem.h"
#include "base/status.h"
#include "cli/lineedit.h"
#include "cli/repl_commands.h"
#include "cli/repl_session.h"

#define PROMPT "tally> "
#define PROMPT_MORE "  ...> "

Repl *repl_new(bool interactive)
{
	Repl *r = xcalloc(1, sizeof *r);
	r->interactive = interactive;
	r->examples = true;
	limit_init(&r->lim);
	repl_session_open(r);
	return r;
}

void repl_set_limits(Repl *r, const Limits *lim)
{
	r->lim = *lim;
}

void repl_free(Repl *r)
{
	if (!r)
		return;
	repl_session_close(r);
	free(r->word);
	free(r->alphabet);
	buf_free(&r->pending);
	free(r);
}

static void end_pending(Repl *r)
{
	r->pending.len = 0;
	r->continuing = false;
}

/* The pending input, complete or not (force: report it unfinished). */
static void try_pending(Repl *r, bool force)
{
	Source *src = source_new("<stdin>", r->pending.data, r->pending.len);
	src->line_base = r->pending_line - 1;
	bool more = false;
	repl_session_take_input(r, src, FLAVOR_TL, true, force ? NULL : &more);
	if (more)
		r->continuing = true;
	else
		end_pending(r);
}

/* ---- lines ---------------------------------------------------------- */

/* Blank lines and lines holding only a comment carry no input. */
static bool is_blank(const char *s)
{
	s = repl_session_skip_blank(s);
	return !*s || strncmp(s, "--", 2) == 0 || strncmp(s, "//", 2) == 0;
}

void repl_line(Repl *r, const char *line)
{
	r->line++;
	if (r->continuing) {
		if (is_blank(line)) { /* an empty line ends it, unfinished */
			try_pending(r, true);
		} else {
			buf_putc(&r->pending, '\n');
			buf_puts(&r->pending, line);
			try_pending(r, false);
		}
	} else if (is_blank(line)) {
		return;
	} else if (*repl_session_skip_blank(line) == ':') {
		repl_commands_run(r, line);
	} else {
		r->pending.len = 0;
		buf_puts(&r->pending, line);
		r->pending_line = r->line;
		try_pending(r, false);
	}
	fflush(stdout);
}

void repl_abandon(Repl *r)
{
	end_pending(r);
}

const char *repl_prompt(const Repl *r)
{
	return r->continuing ? PROMPT_MORE : PROMPT;
}

bool repl_done(const Repl *r)
{
	return r->quit;
}

int repl_finish(Repl *r)
{
	if (r->continuing)
		try_pending(r, true);
	fflush(stdout);
	return r->failed ? EXIT_USAGE : EXIT_YES;
}

/* ---- completion ----------------------------------------------------- */

typedef VEC(char *) Words;

static void add_def_name(const Def *d, void *arg)
{
	Repl *r = ((void **)arg)[0];
	Words *w = ((void **)arg)[1];
	VEC_PUSH(*w, xstrdup(sym_name(repl_session_syms(r), d->name)));
}

/* Letters as Q_x: identifier-like ones and single punctuation marks. */
static void add_letters(Repl *r, Words *w)
{
	unsigned char *seen = NULL;
	size_t cap = 0;
	for (size_t i = 0; i < r->defs.len; i++) {
		size_t n;
		Sym *ls = store_letters(r->store, r->defs.data[i].node, &n);
		for (size_t j = 0; j < n; j++) {
			if (ls[j] >= cap) {
				size_t old = cap;
				mem_grow((void **)&seen, &cap, ls[j] + 1, 1);
				memset(seen + old, 0, cap - old);
			}
			const char *name = sym_name(repl_session_syms(r), ls[j]);
			bool ident = true;
			for (const char *p = name; *p; p++)
				ident = ident && (isalnum((unsigned char)*p) ||
						  *p == '_');
			bool punct = strlen(name) == 1 &&
				     ispunct((unsigned char)*name);
			if (seen[ls[j]] || !(ident || punct))
				continue;
			seen[ls[j]] = 1;
			char *q = xmalloc(strlen(name) + 3);
			sprintf(q, "Q_%s", name);
			VEC_PUSH(*w, q);
		}
		free(ls);
	}
	free(seen);
}

char **repl_complete(void *repl, const char *line, int start)
{
	Repl *r = repl;
	Words w = {0};
	const char *first = repl_session_skip_blank(line);
	bool at_first = first - line >= start;
	bool command = *first == ':';
	if (command && !at_first) {
		ReplArg kind = repl_commands_arg(first + 1,
						 strcspn(first + 1, " \t"));
		if (kind == REPL_ARG_FILE)
			return NULL; /* file names */
		if (kind == REPL_ARG_COMMAND)
			for (size_t i = 0; i < repl_commands_count(); i++)
				VEC_PUSH(w, xstrdup(repl_commands_name(i)));
	}
	if (at_first)
		for (size_t i = 0; i < repl_commands_count(); i++) {
			const char *name = repl_commands_name(i);
			char *s = xmalloc(strlen(name) + 2);
			sprintf(s, ":%s", name);
			VEC_PUSH(w, s);
		}
	void *arg[2] = {r, &w};
	scope_each(r->scope, add_def_name, arg);
	if (scope_fallback(r->scope))
		scope_each(scope_fallback(r->scope), add_def_name, arg);
	add_letters(r, &w);
	VEC_PUSH(w, NULL);
	return w.data;
}

/* ---- the session on stdin ------------------------------------------- */

static char *history_path(void)
{
	const char *env = getenv("TALLY_HISTORY");
	if (env)
		return *env ? xstrdup(env) : NULL;
	const char *home = getenv("HOME");
	if (!home || !*home)
		return NULL;
	char *p = xmalloc(strlen(home) + sizeof "/.tally_history");
	sprintf(p, "%s/.tally_history", home);
	return p;
}

int repl_run(bool echo, const Limits *lim)
{
	bool tty = isatty(STDIN_FILENO);
	Repl *r = repl_new(tty);
	/* Commands run in this process too (the short ones, and the long
	 * ones when no child can be started): a limit ends the command,
	 * never the session. */
	limit_keep_process();
	if (lim)
		repl_set_limits(r, lim);
	char *hist = history_path();
	lineedit_init(tty, hist, repl_complete, r);
	free(hist);
	if (tty)
		printf("tally %s: type a formula or a definition; :help lists "
		       "the commands, Ctrl-D leaves.\n",
		       PACKAGE_VERSION);
	while (!repl_done(r)) {
		bool interrupted;
		char *line = lineedit_read(repl_prompt(r), &interrupted);
		if (!line && interrupted) {
			repl_abandon(r);
			continue;
		}
		if (!line)
			break;
		lineedit_add_history(line);
		if (echo && !tty) {
			printf("%s%s\n", repl_prompt(r), line);
			fflush(stdout); /* before any diagnostic on stderr */
		}
		repl_line(r, line);
		free(line);
	}
	int status = repl_finish(r);
	lineedit_end();
	repl_free(r);
	return tty ? EXIT_YES : status;
}
