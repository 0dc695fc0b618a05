/* tally_module.c -- the CPython extension _tally, the C half of the
 * Python package `tally` (src/python/tally/).
 *
 * run() runs one command of the CLI in-process: its cmd_NAME function
 * (commands.h) with argv, stdin from the caller's bytes, stdout and
 * stderr into memory files, the GIL released.  Same engines, same bytes
 * as `tally NAME ARGS`; the package reads the JSON and TSV they print.
 * evaluate() runs the evaluator (eval.h) on many words and returns the
 * output's value at every position as packed bytes, which the package
 * wraps as NumPy arrays without a copy per word.
 *
 * Ctrl-C during a call raises the limit flag every engine polls
 * (limit_interrupt): the command stops as at a limit, and the call
 * raises KeyboardInterrupt.  Nothing ends the process: the limits'
 * backstop is off (limit_keep_process), as in the REPL.
 *
 * Ownership: nothing outlives a call.  One call at a time (a lock): the
 * commands share process state (getopt, the standard streams).
 */
#include <config.h>
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio_ext.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/limit.h"
#include "base/mem.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "gen/gen_data.h"
#include "core/word.h"
#include "machine/eval.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{"info", cmd_info},         {"print", cmd_print},
	{"eval", cmd_eval},         {"lang", cmd_lang},
	{"equiv", cmd_equiv},       {"check", cmd_check},
	{"gen", cmd_gen},           {"compile", cmd_compile},
	{"simulate", cmd_simulate}, {"enum", cmd_enum},
	{"search", cmd_search},     {"hierarchy", cmd_hierarchy},
};

static pthread_mutex_t one_call = PTHREAD_MUTEX_INITIALIZER;
static unsigned long main_thread;
static volatile sig_atomic_t got_sigint;

static void on_sigint(int sig)
{
	(void)sig;
	got_sigint = 1;
	limit_interrupt();
}

/* The standard streams of a call: memory files in place of fds 0, 1, 2,
 * and the SIGINT handler in place of Python's (main thread only: a
 * signal is delivered there). */
typedef struct {
	int saved[3], fd[3];
	bool hooked;
	struct sigaction old_int;
} Capture;

static bool capture_begin(Capture *c, const char *in, Py_ssize_t inlen)
{
	fflush(stdout);
	fflush(stderr);
	for (int i = 0; i < 3; i++) {
		c->fd[i] = memfd_create("tally", MFD_CLOEXEC);
		if (c->fd[i] < 0) {
			while (i-- > 0)
				close(c->fd[i]);
			return false;
		}
	}
	for (Py_ssize_t done = 0; done < inlen;) {
		ssize_t w = write(c->fd[0], in + done, (size_t)(inlen - done));
		if (w <= 0)
			break;
		done += w;
	}
	lseek(c->fd[0], 0, SEEK_SET);
	__fpurge(stdin);
	clearerr(stdin);
	for (int i = 0; i < 3; i++) {
		c->saved[i] = dup(i);
		dup2(c->fd[i], i);
	}
	got_sigint = 0;
	limit_interrupt_clear();
	c->hooked = PyThread_get_thread_ident() == main_thread;
	if (c->hooked) {
		struct sigaction sa = {.sa_handler = on_sigint};
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, &c->old_int);
	}
	return true;
}

static PyObject *read_all(int fd)
{
	off_t n = lseek(fd, 0, SEEK_END);
	PyObject *b = PyBytes_FromStringAndSize(NULL, n < 0 ? 0 : n);
	if (b && n > 0 && pread(fd, PyBytes_AS_STRING(b), (size_t)n, 0) != n) {
		Py_DECREF(b);
		return PyErr_SetFromErrno(PyExc_OSError);
	}
	return b;
}

/* Restores the streams; the captured stdout and stderr into out[0..1]
 * (new references, NULL after an error). */
static void capture_end(Capture *c, PyObject **out)
{
	fflush(stdout);
	fflush(stderr);
	__fpurge(stdin);
	clearerr(stdin);
	limit_stop();
	if (c->hooked)
		sigaction(SIGINT, &c->old_int, NULL);
	for (int i = 0; i < 3; i++) {
		dup2(c->saved[i], i);
		close(c->saved[i]);
	}
	out[0] = read_all(c->fd[1]);
	out[1] = read_all(c->fd[2]);
	for (int i = 0; i < 3; i++)
		close(c->fd[i]);
}

/* A tuple (status, stdout, stderr), or KeyboardInterrupt. */
static PyObject *call_result(int status, PyObject **out)
{
	if (!out[0] || !out[1]) {
		Py_XDECREF(out[0]);
		Py_XDECREF(out[1]);
		return NULL;
	}
	if (got_sigint) {
		Py_DECREF(out[0]);
		Py_DECREF(out[1]);
		PyErr_SetNone(PyExc_KeyboardInterrupt);
		return NULL;
	}
	return Py_BuildValue("(iNN)", status, out[0], out[1]);
}

static int (*command_named(const char *name))(int, char **)
{
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(commands[i].name, name) == 0)
			return commands[i].run;
	return NULL;
}

/* argv = {"tally", the strings of seq..., NULL}: malloc'd copies, since
 * the GIL is released while they are used. */
static char **argv_from(PyObject *seq, int *argc)
{
	Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
	char **argv = xcalloc((size_t)n + 2, sizeof *argv);
	argv[0] = xstrdup("tally");
	for (Py_ssize_t i = 0; i < n; i++) {
		const char *s = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i));
		if (!s) {
			while (i >= 0)
				free(argv[i--]);
			free(argv);
			return NULL;
		}
		argv[i + 1] = xstrdup(s);
	}
	*argc = (int)n + 1;
	return argv;
}

static void argv_free(char **argv, int argc)
{
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}

/* The gen sink of a call, read by gen_into (one call at a time). */
static const GenSink *call_sink;

static int gen_into(int argc, char **argv)
{
	return cmd_gen_into(argc, argv, call_sink);
}

/* The command args names, run with stdin from in (inlen bytes) and
 * gen's records into sink (when it takes them): (status, stdout,
 * stderr). */
static PyObject *run_command(PyObject *list, const char *in,
			     Py_ssize_t inlen, const GenSink *sink)
{
	PyObject *seq = PySequence_Fast(list, "run: a list of arguments");
	if (!seq)
		return NULL;
	int argc = 0;
	char **argv = PySequence_Fast_GET_SIZE(seq) > 0 ? argv_from(seq, &argc)
						       : NULL;
	Py_DECREF(seq);
	if (!argv)
		return PyErr_Occurred() ? NULL
			: PyErr_Format(PyExc_ValueError, "run: no command");
	int (*fn)(int, char **) = command_named(argv[1]);
	if (!fn) {
		PyErr_Format(PyExc_ValueError, "run: no command '%s'", argv[1]);
		argv_free(argv, argc);
		return NULL;
	}
	if (sink && fn == cmd_gen)
		fn = gen_into;
	int status;
	PyObject *out[2];
	Capture c;
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&one_call);
	call_sink = sink;
	if (capture_begin(&c, in, inlen)) {
		/* the command permutes and rewrites its argv: a copy of the
		 * array, so that argv still holds what to free */
		char **call = xmalloc(((size_t)argc + 1) * sizeof *call);
		memcpy(call, argv, ((size_t)argc + 1) * sizeof *call);
		optind = 0; /* GNU getopt: start afresh */
		cli_batch_failed = false;
		status = cli_run_command(argv[1], fn, argc, call);
		free(call);
	} else {
		status = -1;
	}
	call_sink = NULL;
	Py_END_ALLOW_THREADS
	argv_free(argv, argc);
	if (status == -1) {
		pthread_mutex_unlock(&one_call);
		return PyErr_SetFromErrno(PyExc_OSError);
	}
	capture_end(&c, out);
	pthread_mutex_unlock(&one_call);
	return call_result(status, out);
}

static PyObject *py_run(PyObject *self, PyObject *args)
{
	PyObject *list;
	const char *in = NULL;
	Py_ssize_t inlen = 0;
	(void)self;
	if (!PyArg_ParseTuple(args, "O|z#:run", &list, &in, &inlen))
		return NULL;
	return run_command(list, in, inlen, NULL);
}

/* gen_arrays(): gen's word records as arrays, never as text.  Words of
 * one-byte letters only (else begin() declines and gen writes text):
 * row i of words is word i, its letters' bytes padded with NULs to the
 * width (the longest length; trimmed to the longest word at the end). */
typedef struct {
	char *letter;        /* per letter index: its byte */
	size_t width, rows, cap, longest;
	char *words, *labels, *splits;
	char (*names)[GEN_SPLIT_NAME]; /* per split, when named */
	size_t nsplits;
} Arrays;

static bool arrays_begin(void *ctx, const GenSpec *sp, size_t maxlen)
{
	Arrays *a = ctx;
	const Alphabet *al = sp->alpha;
	for (size_t i = 0; i < al->n; i++)
		if (strlen(sym_name(al->syms, al->letters[i])) != 1)
			return false;
	a->letter = xmalloc(al->n + 1);
	for (size_t i = 0; i < al->n; i++)
		a->letter[i] = sym_name(al->syms, al->letters[i])[0];
	a->width = maxlen;
	if (sp->named_splits) {
		a->nsplits = sp->nsplits;
		a->names = xmalloc(sp->nsplits * sizeof *a->names);
		for (size_t s = 0; s < sp->nsplits; s++)
			memcpy(a->names[s], sp->splits[s].name, GEN_SPLIT_NAME);
	}
	return true;
}

static void arrays_word(void *ctx, size_t split, const uint32_t *w,
			size_t n, bool label)
{
	Arrays *a = ctx;
	if (a->rows == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 4096;
		a->words = xrealloc(a->words, a->cap * (a->width ? a->width : 1));
		a->labels = xrealloc(a->labels, a->cap);
		a->splits = xrealloc(a->splits, a->cap);
	}
	char *row = a->words + a->rows * a->width;
	for (size_t i = 0; i < n; i++)
		row[i] = a->letter[w[i]];
	memset(row + n, 0, a->width - n);
	a->labels[a->rows] = (char)label;
	a->splits[a->rows] = (char)split;
	a->longest = n > a->longest ? n : a->longest;
	a->rows++;
}

static void arrays_free(Arrays *a)
{
	free(a->letter);
	free(a->words);
	free(a->labels);
	free(a->splits);
	free(a->names);
}

/* (words, width, labels, split indices, split names or None) of a, the
 * rows narrowed to the longest word. */
static PyObject *arrays_tuple(Arrays *a)
{
	size_t w = a->longest;
	for (size_t i = 1; w < a->width && i < a->rows; i++)
		memmove(a->words + i * w, a->words + i * a->width, w);
	PyObject *names = Py_None;
	Py_INCREF(names);
	if (a->names) {
		Py_DECREF(names);
		names = PyList_New((Py_ssize_t)a->nsplits);
		for (size_t s = 0; names && s < a->nsplits; s++)
			PyList_SET_ITEM(names, (Py_ssize_t)s,
					PyUnicode_FromString(a->names[s]));
	}
	return Py_BuildValue("(NnNNN)",
		PyByteArray_FromStringAndSize(a->words ? a->words : "",
					      (Py_ssize_t)(a->rows * w)),
		(Py_ssize_t)w,
		PyByteArray_FromStringAndSize(a->labels ? a->labels : "",
					      (Py_ssize_t)a->rows),
		PyBytes_FromStringAndSize(a->splits ? a->splits : "",
					  (Py_ssize_t)a->rows),
		names);
}

static PyObject *py_gen_arrays(PyObject *self, PyObject *args)
{
	PyObject *list;
	(void)self;
	if (!PyArg_ParseTuple(args, "O:gen_arrays", &list))
		return NULL;
	Arrays a = {0};
	GenSink sink = {&a, arrays_begin, arrays_word};
	PyObject *res = run_command(list, NULL, 0, &sink);
	if (res)
		res = Py_BuildValue("(NN)", res, a.letter ? arrays_tuple(&a)
						: (Py_INCREF(Py_None), Py_None));
	arrays_free(&a);
	return res;
}

/* evaluate(): the words' letters are gathered by the word reader and
 * each complete word is evaluated whole (eval_table). */
typedef struct {
	Evaluator *ev;
	Node root;
	Sym *word;
	size_t n, cap;
	bool stop;
	Buf verdicts, lengths, values;
} Gather;

static void on_letters(void *ctx, const Sym *s, size_t n)
{
	Gather *g = ctx;
	if (g->n + n > g->cap) {
		g->cap = (g->n + n) * 2;
		g->word = xrealloc(g->word, g->cap * sizeof *g->word);
	}
	memcpy(g->word + g->n, s, n * sizeof *s);
	g->n += n;
}

static void on_restart(void *ctx)
{
	((Gather *)ctx)->n = 0;
}

static void on_text(void *ctx, const char *bytes, size_t n)
{
	(void)ctx, (void)bytes, (void)n;
}

static bool on_end(void *ctx)
{
	Gather *g = ctx;
	EvalTable *t = eval_table(g->ev, g->word, g->n);
	char verdict = eval_table_bool(t, g->root, eval_table_last(t));
	int64_t len = (int64_t)g->n;
	buf_append(&g->verdicts, &verdict, 1);
	buf_append(&g->lengths, (const char *)&len, sizeof len);
	for (size_t pos = 1; pos <= g->n; pos++) {
		char v = eval_table_bool(t, g->root, pos);
		buf_append(&g->values, &v, 1);
	}
	eval_table_free(t);
	g->n = 0;
	return !got_sigint;
}

/* A Buf's bytes (b"" for an empty one, whose data is NULL). */
static PyObject *bytes_of(const Buf *b)
{
	return PyBytes_FromStringAndSize(b->len ? b->data : "",
					 (Py_ssize_t)b->len);
}

typedef struct {
	const char *flag, *text, *syntax, *output, *alphabet;
	AcceptAt accept;
	bool tokens;
	char **words;
	size_t nwords;
} EvalCall;

/* The last unit's output on every word; false after a message. */
static int evaluate_words(const EvalCall *e, Gather *g)
{
	Inputs in;
	inputs_init(&in);
	in.syntax = e->syntax;
	in.output = e->output;
	inputs_option(&in, e->flag[0], e->text);
	if (!inputs_load(&in, false)) {
		int status = inputs_failure(&in);
		inputs_free(&in);
		return status;
	}
	g->root = in.units[in.nunits - 1].output;
	Alphabet alpha;
	alphabet_init_units(&alpha, in.store, &g->root, 1, in.units,
			    in.nunits, e->alphabet);
	g->ev = eval_new(in.store, &g->root, 1, e->accept);
	WordSink sink = {g, on_letters, on_restart, on_text, on_end};
	WordReader wr;
	word_reader_init(&wr, &alpha, e->tokens, &sink, &in.diag);
	bool ok = true;
	for (size_t i = 0; i < e->nwords && ok; i++)
		ok = word_one(&wr, e->words[i], strlen(e->words[i]));
	word_reader_free(&wr);
	eval_free(g->ev);
	alphabet_free(&alpha);
	inputs_free(&in);
	return ok || got_sigint ? EXIT_YES : EXIT_USAGE;
}

static PyObject *py_evaluate(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *names[] = {"flag", "text", "words", "syntax", "output",
				"alphabet", "eos", "tokens", NULL};
	EvalCall e = {0};
	PyObject *list;
	int eos = 0, tokens = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "ssO|zzzpp:evaluate", names,
					 &e.flag, &e.text, &list, &e.syntax,
					 &e.output, &e.alphabet, &eos, &tokens))
		return NULL;
	if (!strchr("fFP", e.flag[0]) || e.flag[0] == '\0')
		return PyErr_Format(PyExc_ValueError, "evaluate: flag f, F or P");
	e.accept = eos ? ACCEPT_EOS : ACCEPT_LAST;
	e.tokens = tokens;
	PyObject *seq = PySequence_Fast(list, "evaluate: a list of words");
	if (!seq)
		return NULL;
	int argc = 0;
	char **words = argv_from(seq, &argc);
	Py_DECREF(seq);
	if (!words)
		return NULL;
	e.words = words + 1;
	e.nwords = (size_t)argc - 1;
	/* the strings of the call, copied: the GIL is released below */
	char *copies[] = {xstrdup(e.text), e.syntax ? xstrdup(e.syntax) : NULL,
			  e.output ? xstrdup(e.output) : NULL,
			  e.alphabet ? xstrdup(e.alphabet) : NULL};
	e.text = copies[0], e.syntax = copies[1], e.output = copies[2];
	e.alphabet = copies[3];
	Gather g = {0};
	int status;
	PyObject *out[2];
	Capture c;
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&one_call);
	status = capture_begin(&c, NULL, 0) ? evaluate_words(&e, &g) : -1;
	Py_END_ALLOW_THREADS
	argv_free(words, argc);
	for (size_t i = 0; i < sizeof copies / sizeof copies[0]; i++)
		free(copies[i]);
	PyObject *res = NULL;
	if (status == -1) {
		pthread_mutex_unlock(&one_call);
		PyErr_SetFromErrno(PyExc_OSError);
	} else {
		capture_end(&c, out);
		pthread_mutex_unlock(&one_call);
		res = call_result(status, out);
	}
	if (res)
		res = Py_BuildValue("(NNNN)", res, bytes_of(&g.verdicts),
				    bytes_of(&g.lengths), bytes_of(&g.values));
	free(g.word);
	buf_free(&g.verdicts);
	buf_free(&g.lengths);
	buf_free(&g.values);
	return res;
}

static PyMethodDef methods[] = {
	{"run", py_run, METH_VARARGS,
	 "run(args, input=None) -> (status, stdout, stderr)\n\n"
	 "`tally ARGS` in-process: args[0] is the command; input is stdin."},
	{"gen_arrays", py_gen_arrays, METH_VARARGS,
	 "gen_arrays(args) -> ((status, stdout, stderr), arrays or None)\n\n"
	 "`tally gen ARGS` with word labels as arrays: (words, width,\n"
	 "labels, splits, split names or None); words holds a row of width\n"
	 "bytes per word (NUL-padded), labels a byte per word, splits the\n"
	 "index of its split.  None: the words were written as text (not\n"
	 "one-byte letters, or not word labels of a Boolean output)."},
	{"evaluate", (PyCFunction)(void (*)(void))py_evaluate,
	 METH_VARARGS | METH_KEYWORDS,
	 "evaluate(flag, text, words, syntax=None, output=None, alphabet=None,"
	 " eos=False, tokens=False)\n"
	 "-> ((status, stdout, stderr), verdicts, lengths, values)\n\n"
	 "The input's output on each word: a verdict byte per word, the\n"
	 "lengths as int64, the value at positions 1..n of every word."},
	{NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
	PyModuleDef_HEAD_INIT, "_tally",
	"The C half of the tally package (see help(tally)).", -1, methods,
	NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__tally(void);
PyMODINIT_FUNC PyInit__tally(void)
{
	main_thread = PyThread_get_thread_ident();
	limit_keep_process();
	return PyModule_Create(&module);
}
