/* repl_commands.c -- the REPL's : commands (see repl_commands.h). */
#include <config.h>
#include "cli/repl_commands.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/mem.h"
#include "base/suggest.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/decide.h"
#include "cli/repl_session.h"
#include "core/print.h"
#include "core/word.h"
#include "machine/eval.h"

/* ---- the subject of :info, :tl, ... --------------------------------- */

/* The formula of a command's argument (parsed in the session's scope,
 * defining nothing), or the last formula; NODE_NONE after a message. */
static Node subject_of(Repl *r, const char *arg, bool terms)
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
static Node subject(Repl *r, const char *arg)
{
	return subject_of(r, arg, false);
}

/* The unit the CLI's functions describe: the session's definitions that
 * the formula uses (so that they print under their names), then it. */
static void subject_unit(Repl *r, Node n, Unit *u)
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

/* ---- the : commands ------------------------------------------------- */

typedef struct {
	const char *name;
	const char *args;
	const char *summary;
	const char *cli; /* the command whose work it shares, or NULL */
	void (*run)(Repl *r, char *arg);
	bool apart; /* may run long: runs in a child that Ctrl-C can stop */
} Command;

static const Command commands[];
static const size_t ncommands;

static const Command *find_command(const char *name, size_t len)
{
	for (size_t i = 0; i < ncommands; i++)
		if (strlen(commands[i].name) == len &&
		    strncmp(commands[i].name, name, len) == 0)
			return &commands[i];
	return NULL;
}

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

static void run_help(Repl *r, char *arg)
{
	arg = (char *)repl_session_skip_blank(arg);
	if (*arg == ':')
		arg++;
	if (!*arg) {
		puts("Type a formula, a definition 'let NAME = formula' or "
		     "'NAME := ...' (C-RASP),\n"
		     "or a command (:help NAME tells more about one):");
		for (size_t i = 0; i < ncommands; i++) {
			char head[64];
			snprintf(head, sizeof head, ":%s %s", commands[i].name,
				 commands[i].args);
			printf("  %-20s %s\n", head, commands[i].summary);
		}
		puts("An input ending inside an open bracket continues on the "
		     "next line.");
		return;
	}
	const Command *c = find_command(arg, strlen(arg));
	if (c) {
		printf(":%s %s\n  %s\n", c->name, c->args, c->summary);
		if (c->cli)
			printf("  The same work as 'tally %s'.\n", c->cli);
		return;
	}
	/* interned: the prelude's names exist once it is loaded */
	Sym name = sym_intern(repl_session_syms(r), arg, strlen(arg));
	const Def *d = scope_lookup(r->scope, name);
	if (!d) {
		repl_session_fail(r, "no command or definition named '%s' "
				  "(:help lists the commands)",
		     arg);
		return;
	}
	char *body = tl_print_brief(r->store, d->node, SYNTAX_TL);
	printf("%s = %s  (%s, depth %u%s)\n", arg, body,
	       store_is_bool(r->store, d->node) ? "bool" : "int",
	       store_depth(r->store, d->node),
	       scope_lookup_local(r->scope, name) ? "" : ", prelude");
	free(body);
}

static void run_examples(Repl *r, char *arg)
{
	arg = (char *)repl_session_skip_blank(arg);
	if (strncmp(arg, "on", 2) == 0 && !*repl_session_skip_blank(arg + 2))
		r->examples = true;
	else if (strncmp(arg, "off", 3) == 0 &&
		 !*repl_session_skip_blank(arg + 3))
		r->examples = false;
	else if (*arg) {
		repl_session_fail(r, ":examples takes on or off, not '%s'", arg);
		return;
	}
	printf("examples %s\n", r->examples ? "on" : "off");
}

/* A word's letter that no input mentions is reported by the word reader
 * (word.c) in tally eval's words; the REPL's way to add letters is
 * :alphabet.  Prints the captured diagnostics so, with PREFIX ("" or
 * ":word: ") in place of "word N: " when given. */
static void show_word_errors(const Buf *b, const char *prefix)
{
	const char *p = b->data ? b->data : "";
	const char *opt = "--alphabet", *w;
	for (; *p; p++) {
		if (strncmp(p, opt, strlen(opt)) == 0) {
			fputs(":alphabet", stderr);
			p += strlen(opt) - 1;
		} else if (prefix && strncmp(p, "word ", 5) == 0 &&
			   (w = p + 5 + strspn(p + 5, "0123456789")) > p + 5 &&
			   strncmp(w, ": ", 2) == 0) {
			fputs(prefix, stderr);
			p = w + 1;
		} else {
			fputc(*p, stderr);
		}
	}
}

/* The session as one program: every definition, in order, then the
 * formula n (named when a definition is n).  :trace shows a row for each
 * definition, as tally eval --trace does for the same inputs in a file:
 * whether n uses a definition cannot be read off the nodes once the
 * store has merged it into a larger & or +.  The definitions' letters
 * join the alphabet, as the letters a file mentions do. */
static void session_unit(Repl *r, Node n, Unit *u)
{
	memset(u, 0, sizeof *u);
	u->output = n;
	u->output_name = SYM_NONE;
	for (size_t i = 0; i < r->defs.len; i++) {
		const Def *d = &r->defs.data[i];
		unit_add_def(u, d);
		if (d->node == n)
			u->output_name = d->name;
		size_t nl;
		Sym *ls = store_letters(r->store, d->node, &nl);
		for (size_t j = 0; j < nl; j++)
			unit_add_letter(u, ls[j]);
		free(ls);
	}
}

/* :eval and :trace: tally eval on formula f. */
static void eval_on_node(Repl *r, Node f, const char *const *words, size_t n,
			 bool trace)
{
	Unit u;
	session_unit(r, f, &u);
	/* the session's alphabet: session_unit holds every definition's
	 * letters (passed as letters, not as --alphabet, so that an unknown
	 * letter's message still points to :alphabet) */
	EvalOptions eo = {.alphabet = r->alphabet, .trace = trace,
			  .whi = SIZE_MAX};
	Buf errors = {0};
	Diag d = {.capture = &errors};
	fflush(stdout);
	if (cmd_eval_words(r->store, &u, 1, &eo, words, n, &d) == EXIT_USAGE)
		r->failed = true;
	fflush(stdout);
	show_word_errors(&errors, NULL);
	buf_free(&errors);
	unit_free(&u);
}

/* ... on the last formula. */
static void eval_on(Repl *r, const char *const *words, size_t n, bool trace)
{
	if (r->last == NODE_NONE) {
		repl_session_fail(r, "no formula yet: type one first");
		return;
	}
	eval_on_node(r, r->last, words, n, trace);
}

static void no_letters(void *ctx, const Sym *s, size_t n)
{
	(void)ctx, (void)s, (void)n;
}

static void no_restart(void *ctx)
{
	(void)ctx;
}

static void no_text(void *ctx, const char *bytes, size_t n)
{
	(void)ctx, (void)bytes, (void)n;
}

static bool no_end(void *ctx)
{
	(void)ctx;
	return true;
}

/* Whether :eval would read w: the same alphabet (the session's letters
 * and :alphabet's) and the same reader; false after its message.  A
 * session without a formula yet has nothing to check against. */
static bool word_fits(Repl *r, const char *w)
{
	if (r->last == NODE_NONE)
		return true;
	Unit u;
	session_unit(r, r->last, &u);
	Alphabet a;
	alphabet_init_units(&a, r->store, &r->last, 1, &u, 1, r->alphabet);
	WordSink sink = {NULL, no_letters, no_restart, no_text, no_end};
	Buf errors = {0};
	Diag d = {.capture = &errors};
	WordReader wr;
	word_reader_init(&wr, &a, false, &sink, &d);
	bool ok = word_one(&wr, w, strlen(w));
	word_reader_free(&wr);
	show_word_errors(&errors, ":word: ");
	buf_free(&errors);
	alphabet_free(&a);
	unit_free(&u);
	return ok;
}

static void run_word(Repl *r, char *arg)
{
	arg = (char *)repl_session_skip_blank(arg);
	size_t n = strlen(arg);
	while (n > 0 && (arg[n - 1] == ' ' || arg[n - 1] == '\t'))
		arg[--n] = '\0';
	if (n == 0) {
		if (r->word)
			printf("example word: \"%s\"\n", r->word);
		else
			puts("no example word (:word WORD sets one)");
		return;
	}
	if (strcmp(arg, "\"\"") == 0 || strcmp(arg, "''") == 0)
		arg[0] = '\0';
	/* the example word is a word :eval takes: it adds no letter */
	if (!word_fits(r, arg)) {
		r->failed = true;
		return;
	}
	free(r->word);
	r->word = xstrdup(arg);
	printf("example word: \"%s\"\n", r->word);
}

/* Words separated by blanks; "" or '' is the empty word. */
static size_t split_words(char *arg, char ***out)
{
	VEC(char *) w = {0};
	for (char *p = strtok(arg, " \t"); p; p = strtok(NULL, " \t")) {
		if (strcmp(p, "\"\"") == 0 || strcmp(p, "''") == 0)
			p[0] = '\0';
		VEC_PUSH(w, p);
	}
	*out = w.data;
	return w.len;
}

static void run_eval(Repl *r, char *arg)
{
	char **words;
	size_t n = split_words(arg, &words);
	if (n == 0 && !r->word) {
		repl_session_fail(r, ":eval needs words (or an example "
				  "word, :word WORD)");
	} else if (n == 0) {
		const char *w = r->word;
		eval_on(r, &w, 1, false);
	} else {
		eval_on(r, (const char *const *)words, n, false);
	}
	free(words);
}

/* A defined name of the session (not the prelude's): its node. */
static Node defined(Repl *r, const char *name)
{
	Sym s = sym_lookup(repl_session_syms(r), name, strlen(name));
	const Def *d = s == SYM_NONE ? NULL : scope_lookup_local(r->scope, s);
	return d ? d->node : NODE_NONE;
}

static void run_trace(Repl *r, char *arg)
{
	char **words;
	size_t n = split_words(arg, &words);
	/* :trace NAME [WORD]: a definition's trace, as :trace of the last
	 * formula (a word that is also a name reads as the name) */
	Node named = n ? defined(r, words[0]) : NODE_NONE;
	size_t first = named != NODE_NONE;
	const char *w = n > first ? words[first] : r->word;
	if (n > first + 1)
		repl_session_fail(r, ":trace takes [NAME] and one word");
	else if (!w)
		repl_session_fail(r, ":trace needs a word (or an example "
				  "word, :word WORD)");
	else if (named != NODE_NONE)
		eval_on_node(r, named, &w, 1, true);
	else
		eval_on(r, &w, 1, true);
	free(words);
}

static void run_lang(Repl *r, char *arg)
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
	Node n = subject(r, rest);
	if (n != NODE_NONE)
		cmd_lang_list(r->store, n, &lo);
	free(alphabet);
}

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

static void run_info(Repl *r, char *arg)
{
	Node n = subject(r, arg);
	if (n == NODE_NONE)
		return;
	Unit u;
	subject_unit(r, n, &u);
	cmd_info_unit(r->store, r->lw, &u, false, 0);
	unit_free(&u);
	print_alphabet(r);
}

/* :tl, :core, :crasp: tally print --to=TO. */
static void print_as(Repl *r, char *arg, const char *to, FILE *out)
{
	Node n = subject(r, arg);
	if (n == NODE_NONE)
		return;
	Unit u;
	subject_unit(r, n, &u);
	fflush(stdout);
	if (!cmd_print_unit(out, r->store, r->lw, &u, to, false))
		r->failed = true;
	unit_free(&u);
}

static void run_tl(Repl *r, char *arg)
{
	print_as(r, arg, "tl", stdout);
}

static void run_core(Repl *r, char *arg)
{
	print_as(r, arg, "tl-core", stdout);
}

static void run_crasp(Repl *r, char *arg)
{
	print_as(r, arg, "crasp", stdout);
}

/* The first word of arg (a file name) is cut off; the rest follows. */
static char *file_arg(Repl *r, char **arg, const char *cmd)
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

static void run_dot(Repl *r, char *arg)
{
	char *path = file_arg(r, &arg, "dot");
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
	subject_unit(r, a, &u[0]);
	if (b != NODE_NONE)
		subject_unit(r, b, &u[1]);
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

static void run_equiv(Repl *r, char *arg)
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

static void run_check(Repl *r, char *arg)
{
	SeqAsk ask = {.per_position = per_position_flag(&arg)};
	arg = (char *)repl_session_skip_blank(arg);
	size_t len = strcspn(arg, " \t");
	char *rest = arg + len;
	int task = check_task(r, arg, len, &ask);
	if (task < 0)
		return;
	if (task != TASK_IMPLIES) {
		Node f = subject_of(r, rest, true);
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
	Node g = subject_of(r, rest, true);
	if (g != NODE_NONE)
		decide_on(r, TASK_IMPLIES, r->last, g, &ask);
}

/* :search [OPTION]...: tally search itself, its target the last formula
 * (with the definitions it uses) unless the options give one (or ask
 * for --help). */
static void run_search(Repl *r, char *arg)
{
	VEC(char *) av = {0};
	VEC_PUSH(av, "tally search");
	bool target = false, alphabet_given = false;
	Node named = NODE_NONE; /* :search NAME: a definition as the target */
	for (char *p = strtok(arg, " \t"); p; p = strtok(NULL, " \t")) {
		if (*p != '-' && named == NODE_NONE &&
		    (named = defined(r, p)) != NODE_NONE)
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
		subject_unit(r, f, &u);
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

static void run_alphabet(Repl *r, char *arg)
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

static void run_defs(Repl *r, char *arg)
{
	(void)arg;
	char *text = defs_text(r);
	fputs(*text ? text : "(no definitions)\n", stdout);
	free(text);
}

static void run_save(Repl *r, char *arg)
{
	char *path = file_arg(r, &arg, "save");
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

static void run_load(Repl *r, char *arg)
{
	char *path = file_arg(r, &arg, "load");
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

static void run_reset(Repl *r, char *arg)
{
	(void)arg;
	repl_session_reset(r);
	puts("session reset: no definitions");
}

static void run_quit(Repl *r, char *arg)
{
	(void)arg;
	r->quit = true;
}

static const Command commands[] = {
	{"help", "[NAME]", "the commands; one command, or a definition",
	 NULL, run_help, false},
	{"word", "[WORD]", "set or show the example word ('' is the empty "
			   "word)",
	 NULL, run_word, false},
	{"examples", "on|off", "show values on the example word, or not",
	 NULL, run_examples, false},
	{"eval", "[WORD]...", "accept or reject words (default: the example "
			      "word)",
	 "eval", run_eval, false},
	{"trace", "[WORD]", "every definition's value at every position",
	 "eval --trace", run_trace, false},
	{"lang", "N [FORMULA]", "the accepted words of length <= N",
	 "lang", run_lang, true},
	{"info", "[FORMULA]", "depth, size, letters, fragment, layers",
	 "info", run_info, false},
	{"tl", "[FORMULA]", "the formula with its let-definitions",
	 "print --to=tl", run_tl, false},
	{"core", "[FORMULA]", "the formula in the core grammar",
	 "print --to=tl-core", run_core, false},
	{"crasp", "[FORMULA]", "the formula as a C-RASP program",
	 "print --to=crasp", run_crasp, false},
	{"dot", "FILE [FORMULA]", "write the dataflow graph (Graphviz)",
	 "print --to=dot", run_dot, false},
	{"equiv", "F G", "same words or counts? (names, inputs split by a "
			 "blank)",
	 "equiv", run_equiv, true},
	{"check", "TASK [F]", "sat, valid, nonneg, bounded=K; the last "
			      "implies G?",
	 "check", run_check, true},
	{"search", "[OPTION]...", "the least depth defining the last "
				  "formula",
	 "search", run_search, true},
	{"alphabet", "[LETTERS]", "show the alphabet, or add letters ('' "
				  "clears)",
	 NULL, run_alphabet, false},
	{"defs", "", "the session's definitions, as :save writes them",
	 NULL, run_defs, false},
	{"load", "FILE", "read definitions (TL file, .crasp or .cr program)",
	 NULL, run_load, false},
	{"save", "FILE", "write the definitions as a TL file for :load",
	 NULL, run_save, false},
	{"reset", "", "forget every definition", NULL, run_reset, false},
	{"quit", "", "leave (so does Ctrl-D)", NULL, run_quit, false},
};
static const size_t ncommands = sizeof commands / sizeof commands[0];

/* Runs a command that may take long in a child process, so that Ctrl-C
 * (which the terminal sends to the child and to us) ends the command and
 * not the session.  These commands change nothing in the session but its
 * error flag, which comes back as the exit status. */
static void run_apart(Repl *r, const Command *c, char *arg)
{
	fflush(stdout);
	fflush(stderr);
	struct sigaction ignore = {.sa_handler = SIG_IGN}, saved;
	sigemptyset(&ignore.sa_mask);
	sigaction(SIGINT, &ignore, &saved);
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		c->run(r, arg);
		fflush(stdout);
		fflush(stderr);
		_exit(r->failed ? 1 : 0);
	}
	int status = 0;
	if (pid < 0) {
		sigaction(SIGINT, &saved, NULL);
		c->run(r, arg); /* no process to spare: run it here */
		return;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		continue;
	sigaction(SIGINT, &saved, NULL);
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) {
		fprintf(stderr, "tally: :%s interrupted\n", c->name);
		r->failed = true;
	} else if (WIFSIGNALED(status)) {
		fprintf(stderr, "tally: :%s ended by signal %d\n", c->name,
			WTERMSIG(status));
		r->failed = true;
	} else if (WEXITSTATUS(status) != 0) {
		r->failed = true;
	}
}

void repl_commands_run(Repl *r, const char *line)
{
	const char *name = repl_session_skip_blank(line) + 1;
	size_t len = strcspn(name, " \t");
	const Command *c = find_command(name, len);
	if (!c) {
		Suggest sg;
		suggest_init(&sg, name, len);
		for (size_t i = 0; i < ncommands; i++)
			suggest_offer(&sg, commands[i].name);
		if (sg.best)
			repl_session_fail(r, "unknown command ':%.*s'; did "
					  "you mean ':%s'? (:help lists them)",
					  (int)len, name, sg.best);
		else
			repl_session_fail(r, "unknown command ':%.*s' (:help "
					  "lists them)", (int)len, name);
		return;
	}
	char *arg = xstrdup(name + len);
	if (c->apart)
		run_apart(r, c, arg);
	else
		c->run(r, arg);
	free(arg);
	limit_stop(); /* no timer outlives its command */
}


size_t repl_commands_count(void)
{
	return ncommands;
}

const char *repl_commands_name(size_t i)
{
	return commands[i].name;
}

ReplArg repl_commands_arg(const char *name, size_t len)
{
	const Command *c = find_command(name, len);
	if (c && (c->run == run_load || c->run == run_save ||
		  c->run == run_dot))
		return REPL_ARG_FILE;
	if (c && c->run == run_help)
		return REPL_ARG_COMMAND;
	return REPL_ARG_OTHER;
}
