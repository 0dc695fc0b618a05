#include <config.h>
#include "cli/lineedit.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>

#ifdef HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

#include "base/mem.h"

enum { HISTORY_MAX = 1000 };

static struct {
	bool interactive;
	char *history;
	LineeditCompleter complete;
	void *ctx;
} le;

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* Ctrl-C while a line is read interrupts the read (no SA_RESTART); at
 * other times it keeps its default meaning. */
static void catch_sigint(bool on, struct sigaction *saved)
{
	if (on) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_sigint;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, saved);
	} else {
		sigaction(SIGINT, saved, NULL);
	}
	interrupted = 0;
}

#ifdef HAVE_READLINE

static char **matches;    /* the completer's words with the prefix */
static size_t nmatches, next_match;

static char *next_candidate(const char *text, int state)
{
	(void)text;
	if (state == 0)
		next_match = 0;
	return next_match < nmatches ? xstrdup(matches[next_match++]) : NULL;
}

static char **attempt(const char *text, int start, int end)
{
	(void)end;
	char **all = le.complete(le.ctx, rl_line_buffer, start);
	if (!all)
		return NULL; /* readline completes file names */
	rl_attempted_completion_over = 1;
	size_t n = 0, len = strlen(text);
	for (size_t i = 0; all[i]; i++)
		n++;
	matches = xcalloc(n + 1, sizeof *matches);
	nmatches = 0;
	for (size_t i = 0; all[i]; i++)
		if (strncmp(all[i], text, len) == 0)
			matches[nmatches++] = all[i];
	char **out = rl_completion_matches(text, next_candidate);
	free(matches);
	matches = NULL;
	for (size_t i = 0; all[i]; i++)
		free(all[i]);
	free(all);
	return out;
}

static char *line_read;
static bool line_done;

static void on_line(char *line)
{
	line_read = line;
	line_done = true;
	rl_callback_handler_remove();
}

/* Abandons the line being edited after a Ctrl-C. */
static void abandon_line(void)
{
	interrupted = 0;
	rl_free_line_state();
	rl_callback_sigcleanup();
	rl_replace_line("", 0);
	rl_crlf();
	rl_callback_handler_remove();
}

/* readline's callback interface, so that a Ctrl-C can abandon the line
 * without leaving readline's state behind.  SIGINT is blocked except
 * inside pselect: a Ctrl-C that arrives while a key is being handled is
 * then seen before the next wait, not lost until more keys come. */
static char *read_readline(const char *prompt, bool *was_interrupted)
{
	sigset_t block, orig;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &orig);
	line_read = NULL;
	line_done = false;
	rl_callback_handler_install(prompt, on_line);
	while (!line_done) {
		if (interrupted) {
			abandon_line();
			*was_interrupted = true;
			break;
		}
		fd_set fds;
		FD_ZERO(&fds);
		FD_SET(STDIN_FILENO, &fds);
		int r = pselect(STDIN_FILENO + 1, &fds, NULL, NULL, NULL, &orig);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rl_callback_handler_remove();
			break;
		}
		rl_callback_read_char();
	}
	sigprocmask(SIG_SETMASK, &orig, NULL);
	if (*was_interrupted)
		return NULL;
	if (line_done && !line_read)
		putchar('\n'); /* Ctrl-D: leave the prompt line */
	return line_read;
}

#endif

static char *read_plain(const char *prompt, bool *was_interrupted)
{
	if (le.interactive) {
		fputs(prompt, stdout);
		fflush(stdout);
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t got = getline(&line, &cap, stdin);
	if (got < 0) {
		free(line);
		if (interrupted && le.interactive) {
			clearerr(stdin);
			putchar('\n');
			*was_interrupted = true;
		} else if (le.interactive) {
			putchar('\n');
		}
		return NULL;
	}
	if (got > 0 && line[got - 1] == '\n')
		line[got - 1] = '\0';
	return line;
}

void lineedit_init(bool interactive, const char *history,
		   LineeditCompleter complete, void *ctx)
{
	le.interactive = interactive;
	le.complete = complete;
	le.ctx = ctx;
	free(le.history);
	le.history = interactive && history ? xstrdup(history) : NULL;
#ifdef HAVE_READLINE
	if (!interactive)
		return;
	rl_readline_name = "tally";
	rl_catch_signals = 0;
	rl_attempted_completion_function = attempt;
	/* ':' and '_' belong to words (:help, C_open); brackets and
	 * operators separate them */
	rl_basic_word_break_characters = " \t\n()[]#!&|<>=+-*,;?'\"";
	using_history();
	if (le.history && read_history(le.history) != 0)
		write_history(le.history); /* create it: append needs a file */
#endif
}

char *lineedit_read(const char *prompt, bool *was_interrupted)
{
	*was_interrupted = false;
	struct sigaction saved;
	if (le.interactive)
		catch_sigint(true, &saved);
	char *line;
#ifdef HAVE_READLINE
	if (le.interactive)
		line = read_readline(prompt, was_interrupted);
	else
#endif
		line = read_plain(prompt, was_interrupted);
	if (le.interactive)
		catch_sigint(false, &saved);
	fflush(stdout);
	return line;
}

void lineedit_add_history(const char *line)
{
#ifdef HAVE_READLINE
	if (!le.interactive || !*line)
		return;
	HIST_ENTRY *last = history_length > 0 ? history_get(history_base +
							    history_length - 1)
					      : NULL;
	if (last && strcmp(last->line, line) == 0)
		return;
	add_history(line);
	if (le.history)
		append_history(1, le.history);
#else
	(void)line;
#endif
}

void lineedit_end(void)
{
#ifdef HAVE_READLINE
	if (le.interactive && le.history)
		history_truncate_file(le.history, HISTORY_MAX);
	if (le.interactive)
		clear_history();
#endif
	free(le.history);
	le.history = NULL;
}
