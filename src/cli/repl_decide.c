/* repl_decide.c -- the : commands that decide or search (:lang, :equiv,
 * :check, :search; see repl_handlers.h): the same work as tally lang,
 * equiv, check and search on the session's formulas.  These are the
 * commands that may run long, which the table runs apart (in a child
 * that Ctrl-C can stop); they read two formulas, a task and options. */
#include <config.h>
#include "cli/repl_handlers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/mem.h"
#include "base/status.h"
#include "cli/commands.h"
#include "cli/decide.h"
#include "cli/repl_args.h"
#include "cli/repl_session.h"
#include "core/print.h"

void repl_cmd_lang(Repl *r, char *arg)
{
	arg = (char *)repl_session_skip_blank(arg);
	char *end = arg + strcspn(arg, " \t");
	char *rest = *end ? end + 1 : end;
	*end = '\0';
	char *alphabet = repl_session_alphabet(r);
	LangOptions lo = {.alphabet = alphabet, .limits = &r->lim,
			  .alphabet_stdout = true};
	if (!cmd_lang_length(arg, &lo.max_length)) {
		repl_session_fail(r, ":lang needs a length from 0 to "
				  "100000000, not '%s'", arg);
		free(alphabet);
		return;
	}
	Node n = repl_subject(r, rest);
	if (n != NODE_NONE)
		cmd_lang_list(r->store, n, &lo);
	free(alphabet);
}

/* The formula or integer term of text[0..n), quietly: NODE_NONE when it
 * does not parse as one (it defines nothing either way). */
static Node quiet_formula(Repl *r, const char *text, size_t n)
{
	Source *src = source_new("<argument>", text, n);
	Buf cap = {0};
	Diag d = {.capture = &cap};
	Unit u = {.terms = true}; /* :equiv compares counts too */
	bool ok = tl_parse_input(r->scope, &d, src, &u);
	repl_session_forget_unit(r, &u);
	Node f = ok && u.output != NODE_NONE && u.ndefs == 0 ? u.output
							     : NODE_NONE;
	unit_free(&u);
	source_free(src);
	buf_free(&cap);
	return f;
}

/* "F G": the one blank where both sides are formulas splits them. */
static bool two_formulas(Repl *r, const char *arg, Node *f, Node *g)
{
	arg = repl_session_skip_blank(arg);
	size_t n = strlen(arg), found = 0;
	for (size_t i = 1; i + 1 < n && found < 2; i++) {
		if (arg[i] != ' ' && arg[i] != '\t')
			continue;
		Node a = quiet_formula(r, arg, i);
		Node b = a ? quiet_formula(r, arg + i + 1, n - i - 1) : NODE_NONE;
		if (a && b && found++ == 0) {
			*f = a;
			*g = b;
		}
	}
	if (found == 1)
		return true;
	repl_session_fail(r, found ? "two formulas expected, and '%s' splits "
				     "into them in more than one way: define "
				     "names first (let F = ...)"
				   : "two formulas expected, F G (names, or "
				     "formulas separated by a blank), not '%s'",
			  arg);
	return false;
}

/* :equiv and :check: tally equiv / check on the session's formulas
 * (the same decide_run, over the session's store). */
typedef struct {
	bool per_position; /* --per-position */
	size_t bound;      /* bounded=K */
} SeqAsk;

/* A leading --per-position (tally equiv's and check's option) is cut
 * off arg. */
static bool per_position_flag(char **arg)
{
	static const char flag[] = "--per-position";
	char *s = (char *)repl_session_skip_blank(*arg);
	size_t n = sizeof flag - 1;
	if (strncmp(s, flag, n) != 0 || (s[n] && s[n] != ' ' && s[n] != '\t'))
		return false;
	*arg = s + n;
	return true;
}

static void decide_on(Repl *r, DecideTask task, Node a, Node b,
		      const SeqAsk *ask)
{
	Unit u[2] = {{0}, {0}};
	repl_subject_unit(r, a, &u[0]);
	if (b != NODE_NONE)
		repl_subject_unit(r, b, &u[1]);
	Inputs in;
	memset(&in, 0, sizeof in);
	in.store = r->store;
	in.scope = r->scope;
	in.diag.out = stderr;
	in.units = u;
	in.nunits = b != NODE_NONE ? 2 : 1;
	DecideOptions o;
	decide_options_init(&o);
	char *alphabet = repl_session_alphabet(r);
	o.alphabet = alphabet;
	o.quiet = true;
	o.lim = r->lim;
	o.per_position = ask->per_position;
	o.bound = ask->bound;
	fflush(stdout);
	if (decide_run(&in, task, &o) == EXIT_USAGE)
		r->failed = true;
	free(alphabet);
	unit_free(&u[0]);
	unit_free(&u[1]);
}

void repl_cmd_equiv(Repl *r, char *arg)
{
	SeqAsk ask = {.per_position = per_position_flag(&arg)};
	Node f, g;
	if (two_formulas(r, arg, &f, &g))
		decide_on(r, TASK_EQUIV, f, g, &ask);
}

/* TASK of :check: sat, valid, implies, nonneg, bounded=K (each also
 * with tally check's leading "--"); -1 after a message. */
static int check_task(Repl *r, const char *arg, size_t len, SeqAsk *ask)
{
	static const struct {
		const char *name;
		DecideTask task;
	} tasks[] = {{"sat", TASK_SAT}, {"valid", TASK_VALID},
		     {"implies", TASK_IMPLIES}, {"nonneg", TASK_NONNEG}};
	if (len > 2 && strncmp(arg, "--", 2) == 0) { /* tally check's --sat */
		arg += 2;
		len -= 2;
	}
	for (size_t i = 0; i < sizeof tasks / sizeof *tasks; i++)
		if (len == strlen(tasks[i].name) &&
		    strncmp(arg, tasks[i].name, len) == 0)
			return (int)tasks[i].task;
	if (len > 8 && strncmp(arg, "bounded=", 8) == 0) {
		char *end;
		errno = 0;
		unsigned long long k = strtoull(arg + 8, &end, 10);
		if (end == arg + len && arg[8] != '-' && errno == 0) {
			ask->bound = (size_t)k;
			return (int)TASK_BOUNDED;
		}
	}
	repl_session_fail(r, ":check takes sat, valid, implies, nonneg or "
			  "bounded=K, not '%.*s'", (int)len, arg);
	return -1;
}

void repl_cmd_check(Repl *r, char *arg)
{
	SeqAsk ask = {.per_position = per_position_flag(&arg)};
	arg = (char *)repl_session_skip_blank(arg);
	size_t len = strcspn(arg, " \t");
	char *rest = arg + len;
	int task = check_task(r, arg, len, &ask);
	if (task < 0)
		return;
	if (task != TASK_IMPLIES) {
		Node f = repl_subject_of(r, rest, true);
		if (f != NODE_NONE)
			decide_on(r, (DecideTask)task, f, NODE_NONE, &ask);
		return;
	}
	if (r->last == NODE_NONE || !*repl_session_skip_blank(rest)) {
			repl_session_fail(r, ":check implies G asks whether "
					  "the last formula implies G: type "
					  "a formula first, and give G");
		return;
	}
	Node g = repl_subject_of(r, rest, true);
	if (g != NODE_NONE)
		decide_on(r, TASK_IMPLIES, r->last, g, &ask);
}

/* :search [OPTION]...: tally search itself, its target the last formula
 * (with the definitions it uses) unless the options give one (or ask
 * for --help). */
void repl_cmd_search(Repl *r, char *arg)
{
	VEC(char *) av = {0};
	VEC_PUSH(av, "tally search");
	bool target = false, alphabet_given = false;
	Node named = NODE_NONE; /* :search NAME: a definition as the target */
	for (char *p = strtok(arg, " \t"); p; p = strtok(NULL, " \t")) {
		if (*p != '-' && named == NODE_NONE &&
		    (named = repl_defined(r, p)) != NODE_NONE)
			continue;
		VEC_PUSH(av, p);
		alphabet_given |= strncmp(p, "--alphabet", 10) == 0;
		target |= strncmp(p, "--", 2) != 0 || strncmp(p, "--family", 8) == 0 ||
			  strncmp(p, "--positive", 10) == 0 ||
			  strncmp(p, "--separate", 10) == 0 ||
			  strncmp(p, "--target", 8) == 0 ||
			  strcmp(p, "--help") == 0 || strcmp(p, "-h") == 0;
	}
	char *text = NULL;
	if (!target) {
		Node f = named != NODE_NONE ? named : r->last;
		if (f == NODE_NONE) {
			repl_session_fail(r, "no formula yet: type one, or "
					  "give search's options for a "
					  "target");
			VEC_FREE(av);
			return;
		}
		Unit u;
		repl_subject_unit(r, f, &u);
		text = tl_print_unit(r->store, &u, SYNTAX_TL);
		unit_free(&u);
		VEC_PUSH(av, "-f");
		VEC_PUSH(av, text);
	}
	/* the session's alphabet, as every : command's */
	char *letters = repl_session_alphabet(r), *opt = NULL;
	if (letters && !alphabet_given) {
		opt = xmalloc(strlen(letters) + sizeof "--alphabet=");
		sprintf(opt, "--alphabet=%s", letters);
		VEC_PUSH(av, opt);
	}
	free(letters);
	VEC_PUSH(av, NULL);
	fflush(stdout);
	optind = 0; /* getopt starts afresh */
	if (cmd_search((int)av.len - 1, av.data) == EXIT_USAGE)
		r->failed = true;
	fflush(stdout);
	free(text);
	free(opt);
	VEC_FREE(av);
}
