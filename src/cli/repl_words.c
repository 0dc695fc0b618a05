/* repl_words.c -- the : commands about words (:word, :examples, :eval,
 * :trace; see repl_handlers.h): the example word, and tally eval's work
 * (cmd_eval_words) on the session's formulas.  They share how the
 * session reads a word (its alphabet, the word reader's messages put in
 * the REPL's terms), which is this file's reason to be one. */
#include <config.h>
#include "cli/repl_handlers.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/status.h"
#include "cli/commands.h"
#include "cli/repl_args.h"
#include "cli/repl_session.h"
#include "core/word.h"
#include "machine/eval.h"

void repl_cmd_examples(Repl *r, char *arg)
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

void repl_cmd_word(Repl *r, char *arg)
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

void repl_cmd_eval(Repl *r, char *arg)
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

void repl_cmd_trace(Repl *r, char *arg)
{
	char **words;
	size_t n = split_words(arg, &words);
	/* :trace NAME [WORD]: a definition's trace, as :trace of the last
	 * formula (a word that is also a name reads as the name) */
	Node named = n ? repl_defined(r, words[0]) : NODE_NONE;
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
