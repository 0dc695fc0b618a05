/* repl_commands.c -- the REPL's : commands (see repl_commands.h): their
 * table (names, arguments, summaries, :help), finding a command by its
 * name, and running the long ones apart; the handlers themselves are
 * defined by kind (repl_handlers.h). */
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
#include "cli/repl_handlers.h"
#include "cli/repl_session.h"
#include "core/print.h"

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
	 NULL, repl_cmd_word, false},
	{"examples", "on|off", "show values on the example word, or not",
	 NULL, repl_cmd_examples, false},
	{"eval", "[WORD]...", "accept or reject words (default: the example "
			      "word)",
	 "eval", repl_cmd_eval, false},
	{"trace", "[WORD]", "every definition's value at every position",
	 "eval --trace", repl_cmd_trace, false},
	{"lang", "N [FORMULA]", "the accepted words of length <= N",
	 "lang", repl_cmd_lang, true},
	{"info", "[FORMULA]", "depth, size, letters, fragment, layers",
	 "info", repl_cmd_info, false},
	{"tl", "[FORMULA]", "the formula with its let-definitions",
	 "print --to=tl", repl_cmd_tl, false},
	{"core", "[FORMULA]", "the formula in the core grammar",
	 "print --to=tl-core", repl_cmd_core, false},
	{"crasp", "[FORMULA]", "the formula as a C-RASP program",
	 "print --to=crasp", repl_cmd_crasp, false},
	{"dot", "FILE [FORMULA]", "write the dataflow graph (Graphviz)",
	 "print --to=dot", repl_cmd_dot, false},
	{"equiv", "F G", "same words or counts? (names, inputs split by a "
			 "blank)",
	 "equiv", repl_cmd_equiv, true},
	{"check", "TASK [F]", "sat, valid, nonneg, bounded=K; the last "
			      "implies G?",
	 "check", repl_cmd_check, true},
	{"search", "[OPTION]...", "the least depth defining the last "
				  "formula",
	 "search", repl_cmd_search, true},
	{"alphabet", "[LETTERS]", "show the alphabet, or add letters ('' "
				  "clears)",
	 NULL, repl_cmd_alphabet, false},
	{"defs", "", "the session's definitions, as :save writes them",
	 NULL, repl_cmd_defs, false},
	{"load", "FILE", "read definitions (TL file, .crasp or .cr program)",
	 NULL, repl_cmd_load, false},
	{"save", "FILE", "write the definitions as a TL file for :load",
	 NULL, repl_cmd_save, false},
	{"reset", "", "forget every definition", NULL, repl_cmd_reset, false},
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
	if (c && (c->run == repl_cmd_load || c->run == repl_cmd_save ||
		  c->run == repl_cmd_dot))
		return REPL_ARG_FILE;
	if (c && c->run == run_help)
		return REPL_ARG_COMMAND;
	return REPL_ARG_OTHER;
}

