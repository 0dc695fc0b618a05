/* consistency.c -- the cross-method consistency harness (issue 18).
 *
 * Random inputs (pairs and single formulas of count depth 0 to 3 over one
 * to three letters; letters spelled but simplified away, constants and
 * coefficients of any size, Y, MOD, #>; TL formulas, .crasp and .cr
 * programs) and the tasks equivalence, satisfiability, validity and
 * implication, each decided by every method (explore, presburger, chc,
 * mona, unary, auto) under --accept-at=last and eos, against brute force
 * over every word up to a length (the naive reference evaluator on the
 * parsed nodes, and the harness's own evaluator on the input's text).
 *
 * A case is one input, one method and one convention.  Each case runs
 * the method's own MethodResult (so that an unsound encoding is caught
 * even where a later check would mask it) and the command a user runs
 * (cmd_equiv / cmd_check in this process, --json output captured).  It
 * fails on: a proof (equivalent, valid, unsatisfiable) that brute force
 * contradicts; a bound "up to length N" contradicted at a length <= N; a
 * counterexample or witness on which the sides agree, or that is not
 * shortest or not the first in shortlex order where that is claimed; an
 * exit status that does not match the verdict; an internal error, a
 * crash or a hang; and parsed nodes that do not mean what the text says.
 * unknown and "not applicable" are always fine.
 *
 * Knobs (environment, or the options of the same name): TALLY_CONSISTENCY_
 * CASES (--cases, default 2004, a third of it in a sanitizer build:
 * make check; check-heavy sets 100000),
 * TALLY_CONSISTENCY_SEED (--seed), TALLY_CONSISTENCY_BUDGET (--budget,
 * seconds per method and case, default 0.5); --input=K reruns input K
 * alone and prints every verdict. */
#include <config.h>

#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ast.h"
#include "brute.h"
#include "buf.h"
#include "capture.h"
#include "chc.h"
#include "cli.h"
#include "commands.h"
#include "explore.h"
#include "limit.h"
#include "mem.h"
#include "mona.h"
#include "presburger.h"
#include "runeval.h"
#include "splitmix.h"
#include "unary.h"

#ifdef __SANITIZE_ADDRESS__
/* A third under the sanitizers, which make Z3, MONA's start and the
 * methods about four times slower: CI runs the suite twice. */
#define DEFAULT_CASES 672
#else
#define DEFAULT_CASES 2004
#endif
#define DEFAULT_SEED 18
#define DEFAULT_BUDGET 0.5
/* Failures printed in full (in all, and of one input); the others are
 * only counted. */
#define SHOWN_MAX 12
#define SHOWN_PER_INPUT 3
/* A case running this long (seconds) is a hang. */
#define HANG_MIN 120.0

/* ---- methods ------------------------------------------------------------- */

typedef struct {
	const char *name;
	MethodFn fn; /* NULL: auto, which has no MethodResult of its own */
} MethodRow;

static const MethodRow methods[] = {
	{"explore", explore_decide},   {"presburger", presburger_decide},
	{"chc", chc_decide},           {"mona", mona_decide},
	{"unary", unary_decide},       {"auto", NULL},
};
enum { NMETHODS = sizeof methods / sizeof methods[0] };
enum { CASES_PER_INPUT = 2 * NMETHODS };

/* ---- inputs ---------------------------------------------------------------- */

typedef enum { IN_TL, IN_CRASP, IN_CR } InSyntax;

typedef struct {
	Tree *e;
	InSyntax syn;
	char *text;  /* the formula, or the program's text */
	char *path;  /* the program's file, or NULL */
} Side;

typedef struct {
	unsigned id;
	DecideTask task;
	const char *origin; /* how it was made, for the report */
	const char *profile; /* for which fragment */
	Side side[2];
	size_t nsides;
	int extra;          /* --alphabet letter (0 = a), or -1 */
	unsigned nletters;  /* letters the generator drew from */
	Pool pool;
} Input;

typedef struct {
	uint64_t seed;
	unsigned cases;
	double budget;
	long only;          /* --input, or -1 */
	unsigned show_max;  /* failures printed in full (--show) */
	unsigned input_shown, input_hidden; /* of the current input */
	const char *self;   /* argv[0], for the reproduction line */
	char dir[64];       /* program files */
	/* figures */
	unsigned inputs, ncases, failures, shown, unchecked;
	/* outcomes by method, MethodResult (0) or command (1) */
	unsigned outcomes[NMETHODS][2][4];
	unsigned fail_kind[16];
	double seconds[NMETHODS][2]; /* the MethodResult, the command */
	double brute_seconds;
	double started;
} Run;

static const char *const task_names[] = {"equiv", "check --sat",
					 "check --valid", "check --implies"};

static uint64_t input_seed(uint64_t seed, unsigned id)
{
	uint64_t s = seed ^ ((uint64_t)id * 0x9e3779b97f4a7c15ull);
	splitmix64_next(&s);
	return splitmix64_next(&s);
}

static InSyntax pick_syntax(Rng *r, const Tree *e, bool tl_only)
{
	if (tl_only || ast_has_future(e))
		return IN_TL;
	uint32_t c = rng_below(r, 100);
	return c < 60 ? IN_TL : c < 80 ? IN_CRASP : IN_CR;
}

/* The second side of an equivalence: unrelated, the same tree in
 * another syntax, an equivalent rewrite, a near-copy, or a weakening or
 * strengthening that differs on few words. */
static Tree *partner(Input *in, Rng *r, Tree *a, const AstOptions *o)
{
	uint32_t c = rng_below(r, 100);
	unsigned extra = o->nletters < 3 ? o->nletters + 1 : 3;
	if (c < 15) {
		in->origin = "unrelated";
		return ast_formula(&in->pool, r, o);
	}
	if (c < 30) {
		in->origin = "same tree";
		return a;
	}
	if (c < 60) {
		in->origin = "rewrite";
		return ast_rewrite(&in->pool, r, a, extra);
	}
	if (c < 85) {
		in->origin = "near-copy";
		return ast_mutate(&in->pool, r, a, o);
	}
	Tree *h = ast_formula(&in->pool, r, o), *k = ast_formula(&in->pool, r, o);
	Tree *hk = ast_binary(&in->pool, E_AND, h, k);
	in->origin = "rarely different";
	return c < 93 ? ast_binary(&in->pool, E_OR, a, hk)
		      : ast_binary(&in->pool, E_AND, a, ast_not(&in->pool, hk));
}

/* One formula for sat / valid: random, or "F and not F'" / "F or not F'"
 * with F' a rewrite (unsatisfiable / valid) or a near-copy. */
static Tree *single(Input *in, Rng *r, const AstOptions *o)
{
	Tree *a = ast_formula(&in->pool, r, o);
	if (rng_below(r, 2) == 0) {
		in->origin = "random";
		return a;
	}
	unsigned extra = o->nletters < 3 ? o->nletters + 1 : 3;
	bool near = rng_below(r, 3) == 0;
	in->origin = near ? "against a near-copy" : "against a rewrite";
	Tree *b = near ? ast_mutate(&in->pool, r, a, o)
		       : ast_rewrite(&in->pool, r, a, extra);
	return ast_binary(&in->pool, in->task == TASK_SAT ? E_AND : E_OR, a,
			  ast_not(&in->pool, b));
}

/* Each input is made for one method's fragment (or none), so that every
 * method gets inputs it decides; the name goes into the report. */
static const char *gen_options(Rng *r, AstOptions *o)
{
	static const unsigned letters[12] = {1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3,
					     3};
	static const unsigned depths[20] = {0, 0, 1, 1, 1, 1, 1, 1, 1, 2,
					    2, 2, 2, 2, 2, 2, 3, 3, 3, 3};
	memset(o, 0, sizeof *o);
	o->nletters = letters[rng_below(r, 12)];
	o->depth = depths[rng_below(r, 20)];
	o->size = 4 + rng_below(r, 10);
	o->future = rng_below(r, 100) < 20;
	o->positional = rng_below(r, 100) < 50;
	o->mod_percent = 8;
	uint32_t p = rng_below(r, 100);
	if (p < 30)
		return "general";
	if (p < 47) { /* unary: one letter, MOD under counts */
		o->nletters = 1;
		o->depth = 1 + rng_below(r, 3);
		o->future = false;
		o->positional = true;
		o->mod_percent = 30;
		return "one letter";
	}
	if (p < 64) { /* presburger: depth <= 1, no Y, MOD, #> */
		o->depth = rng_below(r, 2);
		o->future = o->positional = false;
		o->nletters = 2 + rng_below(r, 2);
		return "depth 1";
	}
	if (p < 82) { /* mona: thresholds */
		o->thresholds = true;
		o->depth = 1 + rng_below(r, 3);
		o->mod_percent = 20;
		return "thresholds";
	}
	o->depth = 2 + rng_below(r, 2); /* chc: past-only, deep */
	o->future = false;
	return "deep";
}

static void generate(Input *in, uint64_t seed)
{
	Rng r;
	rng_seed(&r, input_seed(seed, in->id));
	AstOptions o;
	in->profile = gen_options(&r, &o);
	in->nletters = o.nletters;
	static const DecideTask tasks[10] = {
		TASK_EQUIV, TASK_EQUIV, TASK_EQUIV, TASK_EQUIV, TASK_SAT,
		TASK_SAT, TASK_VALID, TASK_VALID, TASK_IMPLIES, TASK_IMPLIES};
	in->task = tasks[rng_below(&r, 10)];
	in->extra = rng_below(&r, 100) < 15 ? (int)rng_below(&r, 4) : -1;
	if (in->task == TASK_SAT || in->task == TASK_VALID) {
		in->nsides = 1;
		in->side[0].e = single(in, &r, &o);
	} else {
		in->nsides = 2;
		in->side[0].e = ast_formula(&in->pool, &r, &o);
		in->side[1].e = partner(in, &r, in->side[0].e, &o);
	}
	for (size_t i = 0; i < in->nsides; i++)
		in->side[i].syn = pick_syntax(&r, in->side[i].e,
					      in->task == TASK_IMPLIES && i == 1);
	/* The same tree twice: in two syntaxes where programs can say it
	 * (else two texts with other let definitions). */
	if (in->task == TASK_EQUIV && in->side[0].e == in->side[1].e &&
	    in->side[0].syn == in->side[1].syn && !ast_has_future(in->side[0].e))
		in->side[1].syn = in->side[0].syn == IN_TL ? IN_CRASP : IN_TL;
	for (size_t i = 0; i < in->nsides; i++) {
		Side *sd = &in->side[i];
		switch (sd->syn) {
		case IN_TL: sd->text = ast_print_tl(sd->e, &r); break;
		case IN_CRASP: sd->text = ast_print_crasp(sd->e, &r); break;
		case IN_CR: sd->text = ast_print_cr(sd->e, &r); break;
		}
	}
}

/* ---- fixed inputs: the reproducers of issue 18 ---------------------------- */

static Tree *letter(Pool *p, int x)
{
	Tree *e = ast_binary(p, E_LETTER, NULL, NULL);
	e->letter = x;
	return e;
}

static Tree *count(Pool *p, Tree *body)
{
	return ast_binary(p, E_COUNT, body, NULL);
}

static Tree *cmp(Pool *p, Tree *a, int rel, Tree *b)
{
	Tree *e = ast_binary(p, E_CMP, a, b);
	e->rel = rel;
	return e;
}

static Tree *num(Pool *p, long v)
{
	Tree *e = ast_binary(p, E_CONST, NULL, NULL);
	fmpz_set_si(e->num, v);
	return e;
}

enum { NFIXED = 3 };

/* Input 0: check --sat of #[#[true] > #[Q_a]] >= 1 (valid under eos);
 * 1: #[!Q_a] >= 1 against false (the empty word differs under eos);
 * 2: check --valid of the program O := #Q_a = #(Q_b | !Q_b) (b is a
 * letter of the alphabet; the word b is rejected). */
static void fixed(Input *in)
{
	Pool *p = &in->pool;
	in->origin = "issue 18 reproducer";
	in->profile = "fixed";
	in->extra = -1;
	in->nletters = in->id == 2 ? 2 : 1;
	if (in->id == 0) {
		in->task = TASK_SAT;
		in->nsides = 1;
		in->side[0].e = cmp(p, count(p, cmp(p, count(p, ast_bool(p, true)),
						    5, count(p, letter(p, 0)))),
				    4, num(p, 1));
	} else if (in->id == 1) {
		in->task = TASK_EQUIV;
		in->nsides = 2;
		in->side[0].e = cmp(p, count(p, ast_not(p, letter(p, 0))), 4,
				    num(p, 1));
		in->side[1].e = ast_bool(p, false);
	} else {
		in->task = TASK_VALID;
		in->nsides = 1;
		Tree *taut = ast_binary(p, E_TAUT, NULL, NULL);
		taut->letter = 1;
		in->side[0].e = cmp(p, count(p, letter(p, 0)), 2, count(p, taut));
		in->side[0].syn = IN_CRASP;
	}
	for (size_t i = 0; i < in->nsides; i++)
		in->side[i].text = in->side[i].syn == IN_CRASP
					   ? ast_print_crasp(in->side[i].e, NULL)
					   : ast_print_tl(in->side[i].e, NULL);
}

static bool make_input(Run *run, Input *in, unsigned id)
{
	memset(in, 0, sizeof *in);
	pool_init(&in->pool);
	in->id = id;
	if (id < NFIXED)
		fixed(in);
	else
		generate(in, run->seed);
	for (size_t i = 0; i < in->nsides; i++) {
		Side *sd = &in->side[i];
		if (sd->syn == IN_TL)
			continue;
		Buf path = {0};
		buf_printf(&path, "%s/input%u-%zu.%s", run->dir, id, i + 1,
			   sd->syn == IN_CR ? "cr" : "crasp");
		sd->path = buf_take(&path);
		FILE *f = fopen(sd->path, "w");
		if (!f || fputs(sd->text, f) < 0 || fclose(f) != 0) {
			fprintf(stderr, "consistency: cannot write %s\n", sd->path);
			return false;
		}
	}
	return true;
}

static void free_input(Input *in, bool keep_files)
{
	for (size_t i = 0; i < in->nsides; i++) {
		if (in->side[i].path && !keep_files)
			remove(in->side[i].path);
		free(in->side[i].path);
		free(in->side[i].text);
	}
	pool_free(&in->pool);
}

/* ---- command lines ------------------------------------------------------------ */

typedef struct {
	char *arg[24];
	int n;
} Argv;

static void push(Argv *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void push(Argv *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&a->arg[a->n], fmt, ap) < 0)
		abort();
	va_end(ap);
	a->n++;
}

static void argv_free(Argv *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->arg[i]);
	a->n = 0;
}

static void command(const Run *run, const Input *in, const char *method,
		    AcceptAt accept, size_t maxlen, Argv *a)
{
	a->n = 0;
	push(a, "tally %s", in->task == TASK_EQUIV ? "equiv" : "check");
	if (in->task == TASK_SAT)
		push(a, "--sat");
	if (in->task == TASK_VALID)
		push(a, "--valid");
	push(a, "--json");
	push(a, "--quiet");
	push(a, "--method=%s", method);
	push(a, "--accept-at=%s", eval_accept_name(accept));
	push(a, "--timeout=%g", run->budget);
	push(a, "--max-length=%zu", maxlen);
	if (in->extra >= 0)
		push(a, "--alphabet=%c", 'a' + in->extra);
	for (size_t i = 0; i < in->nsides; i++) {
		const Side *sd = &in->side[i];
		if (in->task == TASK_IMPLIES && i == 1)
			push(a, "--implies");
		else
			push(a, "%s", sd->path ? "-P" : "-f");
		push(a, "%s", sd->path ? sd->path : sd->text);
	}
}

static void shell_quote(FILE *f, const char *s)
{
	if (strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789-_=./,") == strlen(s) && *s) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

static void print_command(FILE *f, const Argv *a)
{
	fputs("  ", f);
	for (int i = 0; i < a->n; i++) {
		if (i)
			fputc(' ', f);
		if (i == 0)
			fputs(a->arg[0], f);
		else
			shell_quote(f, a->arg[i]);
	}
	fputc('\n', f);
}

/* ---- crashes and hangs ------------------------------------------------------- */

/* What is running now, written before each step so that a crash or a
 * hang can say which case it was (the signal handler only writes it). */
static char current[4096];
static size_t current_len;
static volatile double case_started;
static double hang_after;

static void set_current(const Run *run, const Input *in, const char *what,
			const Argv *a)
{
	FILE *f = fmemopen(current, sizeof current - 1, "w");
	if (!f)
		return;
	fprintf(f, "consistency: seed %llu input %u: %s\n  reproduce: %s "
		   "--seed=%llu --budget=%g --input=%u\n",
		(unsigned long long)run->seed, in->id, what, run->self,
		(unsigned long long)run->seed, run->budget, in->id);
	if (a)
		print_command(f, a);
	fflush(f);
	current_len = (size_t)ftell(f);
	fclose(f);
	case_started = limit_now();
}

static const int fatal[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL};
enum { NFATAL = sizeof fatal / sizeof fatal[0] };
/* The handlers before ours (a sanitizer's): they report after us. */
static struct sigaction previous[NFATAL];

static void say_current(const char *head, size_t n)
{
	ssize_t w = write(capture_report_fd(), head, n);
	w = write(capture_report_fd(), current, current_len);
	(void)w;
}

static void on_crash(int sig)
{
	static const char head[] = "\nFAIL (crash: a fatal signal)\n";
	say_current(head, sizeof head - 1);
	for (size_t i = 0; i < NFATAL; i++)
		if (fatal[i] == sig)
			sigaction(sig, &previous[i], NULL);
	raise(sig);
}

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>

/* Z3 keeps some memory of its own until the process ends (a few
 * allocations after a thousand contexts); ours is still checked. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libz3.so\n";
}

const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}

/* A sanitizer's report ends the process without a signal. */
static void on_sanitizer_death(void)
{
	static const char head[] = "\nFAIL (a sanitizer stopped the "
				   "harness; its report is above)\n";
	say_current(head, sizeof head - 1);
}
#endif

static void *watchdog(void *arg)
{
	(void)arg;
	for (;;) {
		sleep(1);
		double t = case_started;
		if (t > 0 && limit_now() - t > hang_after) {
			static const char head[] = "\nFAIL (hang: one case ran "
						   "for minutes)\n";
			say_current(head, sizeof head - 1);
			_exit(1);
		}
	}
	return NULL;
}

static void install_guards(double budget)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_crash;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NFATAL; i++)
		sigaction(fatal[i], &sa, &previous[i]);
#ifdef __SANITIZE_ADDRESS__
	__sanitizer_set_death_callback(on_sanitizer_death);
#endif
	hang_after = HANG_MIN + 60 * budget;
	/* The watchdog takes no signal (limit.c's timer is for the
	 * commands). */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_t th;
	if (pthread_create(&th, NULL, watchdog, NULL) == 0)
		pthread_detach(th);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* ---- failures ------------------------------------------------------------------ */

enum {
	K_PROOF, K_BOUND, K_WITNESS, K_SHORTEST, K_ORDER, K_STATUS,
	K_INTERNAL, K_OUTPUT, K_ALPHABET, K_MEANING, K_LOAD, NKINDS
};
static const char *const kind_names[NKINDS] = {
	"proof contradicted by brute force",
	"bound contradicted by brute force",
	"witness that does not separate",
	"witness claimed shortest that is not",
	"counterexample not the first in shortlex order",
	"exit status that does not match the verdict",
	"internal error or usage error",
	"output that is not the documented JSON",
	"alphabet that is not the letters the inputs spell",
	"parsed input that does not mean what its text says",
	"input that does not load",
};

enum { O_PROOF, O_COUNTEREXAMPLE, O_BOUNDED, O_UNKNOWN };

typedef struct {
	Run *run;
	const Input *in;
	size_t mi;          /* the method's row */
	const char *method;
	AcceptAt accept;
	bool raw;         /* the method's MethodResult, not the command */
	const Argv *cmd;  /* the command line of this case */
	bool failed;      /* this case failed already (count once) */
} Case;

static void print_side(FILE *f, const Input *in, size_t i)
{
	const Side *sd = &in->side[i];
	if (!sd->path)
		return;
	fprintf(f, "  %s:\n", sd->path);
	for (const char *l = sd->text; *l;) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		fprintf(f, "    %.*s\n", (int)n, l);
		l += n + (nl != NULL);
	}
}

static void fail(Case *c, int kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(Case *c, int kind, const char *fmt, ...)
{
	Run *run = c->run;
	run->fail_kind[kind]++;
	if (!c->failed) {
		c->failed = true;
		run->failures++;
	}
	if (run->only < 0 && (run->shown >= run->show_max ||
			      run->input_shown >= SHOWN_PER_INPUT)) {
		run->input_hidden += run->shown < run->show_max;
		return;
	}
	run->shown++;
	run->input_shown++;
	FILE *f = capture_report();
	if (!c->cmd) /* about the input itself */
		fprintf(f, "FAIL input %u, %s, --accept-at=%s (%s): ", c->in->id,
			task_names[c->in->task], eval_accept_name(c->accept),
			kind_names[kind]);
	else
		fprintf(f, "FAIL input %u, %s, method %s, --accept-at=%s, %s "
			   "(%s): ", c->in->id, task_names[c->in->task],
			c->method, eval_accept_name(c->accept),
			c->raw ? "its MethodResult" : "the command",
			kind_names[kind]);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fprintf(f, "\n  inputs made as: %s, %s; reproduce: %s --seed=%llu "
		   "--budget=%g --input=%u\n", c->in->profile, c->in->origin,
		run->self, (unsigned long long)run->seed, run->budget,
		c->in->id);
	if (c->cmd)
		print_command(f, c->cmd);
	for (size_t i = 0; i < c->in->nsides; i++)
		print_side(f, c->in, i);
}

static void count_outcome(Case *c, int outcome)
{
	c->run->outcomes[c->mi][!c->raw][outcome]++;
}

/* ---- words ------------------------------------------------------------------------ */

static char *word_text(const Problem *p, const Sym *w, size_t n)
{
	Buf b = {0};
	buf_puts(&b, "\"");
	for (size_t i = 0; i < n; i++)
		buf_puts(&b, sym_name(store_syms(p->s), w[i]));
	buf_puts(&b, "\"");
	return buf_take(&b);
}

static char *runs_text(const Problem *p, const Runs *w)
{
	char *t = runs_format(w, store_syms(p->s), 60);
	Buf b = {0};
	buf_printf(&b, "\"%s\"", t);
	free(t);
	return buf_take(&b);
}

static void runs_len(const Runs *w, fmpz_t len)
{
	fmpz_zero(len);
	for (size_t i = 0; i < w->n; i++)
		fmpz_add(len, len, w->count + i);
}

/* The truth behind a claim of equality up to length `upto` (SIZE_MAX:
 * every length): fails when brute force separates within it. */
static void check_equal(Case *c, const Problem *p, const Brute *b,
			size_t upto, const char *claim)
{
	if (!b->differs || b->first_len > upto)
		return;
	char *w = word_text(p, b->first, b->first_len);
	fail(c, upto == SIZE_MAX ? K_PROOF : K_BOUND,
	     "%s, but the sides differ on %s (length %zu; %s by the reduced "
	     "first side)", claim, w, b->first_len,
	     b->first_accepted ? "accepted" : "rejected");
	free(w);
}

/* A claimed separating word: it separates, its letters are in the
 * alphabet, and it is as short as claimed.  accepted_by: 0 or 1 as
 * claimed, -1 when nothing is claimed.  Returns its length when it
 * separates and is at most BRUTE_MAX_LEN long, else SIZE_MAX. */
static size_t check_witness(Case *c, const Problem *p, const Brute *b,
			    const Runs *w, bool shortest, int accepted_by)
{
	for (size_t i = 0; i < w->n; i++) {
		bool in = false;
		for (size_t j = 0; j < p->n; j++)
			in = in || p->sym[j] == w->letter[i];
		if (!in) {
			char *t = runs_text(p, w);
			fail(c, K_WITNESS, "the word %s has a letter outside the "
			     "alphabet", t);
			free(t);
			return SIZE_MAX;
		}
	}
	bool acc[2];
	char *why = NULL;
	if (!brute_word(p, w, acc, &why)) {
		c->run->unchecked++;
		free(why);
		return SIZE_MAX;
	}
	char *t = runs_text(p, w);
	size_t result = SIZE_MAX;
	fmpz_t len;
	fmpz_init(len);
	runs_len(w, len);
	if (acc[0] == acc[1]) {
		fail(c, K_WITNESS, "the sides agree on %s (both %s it)", t,
		     acc[0] ? "accept" : "reject");
	} else if (accepted_by >= 0 && acc[accepted_by] != true) {
		fail(c, K_WITNESS, "%s is said to be accepted by the %s side, "
		     "but it is accepted by the other", t,
		     accepted_by == 0 ? "first" : "second");
	} else if (shortest && b->differs && fmpz_cmp_ui(len, b->first_len) > 0) {
		char *s = word_text(p, b->first, b->first_len);
		fail(c, K_SHORTEST, "%s is said to be shortest, but %s "
		     "separates too", t, s);
		free(s);
	} else if (fmpz_cmp_ui(len, BRUTE_MAX_LEN) <= 0) {
		result = fmpz_get_ui(len);
	}
	fmpz_clear(len);
	free(t);
	return result;
}

/* ---- one method's MethodResult ------------------------------------------------ */

static const char *status_name(MethodStatus s)
{
	static const char *const n[] = {"MR_EQUIVALENT", "MR_DIFFERENT",
					 "MR_BOUNDED", "MR_UNKNOWN", "MR_LIMIT",
					 "MR_NOT_APPLICABLE"};
	return n[s];
}

static void run_raw(Case *c, const Problem *p, const Brute *b,
		    const MethodRow *m)
{
	Query q = {.store = p->s, .alphabet = p->sym, .nletters = p->n,
		   .accept = p->accept, .timeout = c->run->budget,
		   .max_length = p->method_len,
		   .want_certificate = c->in->id % 2 == 0};
	q.root[0] = p->root[0];
	q.root[1] = p->root[1];
	MethodResult r;
	method_result_init(&r);
	m->fn(&q, &r);
	char claim[64];
	switch (r.status) {
	case MR_EQUIVALENT:
		count_outcome(c, O_PROOF);
		check_equal(c, p, b, SIZE_MAX, "MR_EQUIVALENT");
		break;
	case MR_BOUNDED:
		count_outcome(c, O_BOUNDED);
		snprintf(claim, sizeof claim, "MR_BOUNDED up to length %zu",
			 r.bound);
		check_equal(c, p, b, r.bound, claim);
		break;
	case MR_DIFFERENT:
		count_outcome(c, O_COUNTEREXAMPLE);
		check_witness(c, p, b, &r.witness, r.witness_shortest, -1);
		break;
	case MR_LIMIT:
		/* explore says how far it got: every word up to .bound. */
		if (m->fn == explore_decide) {
			snprintf(claim, sizeof claim, "MR_LIMIT after every "
				 "word up to length %zu", r.bound);
			check_equal(c, p, b, r.bound, claim);
		}
		count_outcome(c, O_UNKNOWN);
		break;
	default:
		count_outcome(c, O_UNKNOWN);
		break;
	}
	if (c->run->only >= 0)
		fprintf(capture_report(), "  %-10s %-4s raw      %s%s%s\n",
			m->name, eval_accept_name(p->accept),
			status_name(r.status), r.reason ? ": " : "",
			r.reason ? r.reason : "");
	method_result_free(&r);
}

/* ---- the command ------------------------------------------------------------------ */

typedef enum { V_EQUAL, V_DIFFERENT, V_BOUNDED, V_UNKNOWN, V_BAD } Verdict;

/* The verdict line's meaning; *bound for "... up to length N". */
static Verdict parse_verdict(DecideTask t, const char *v, size_t *bound)
{
	static const char *const words[][2] = {
		[TASK_EQUIV] = {"equivalent", "not equivalent"},
		[TASK_SAT] = {"unsatisfiable", "satisfiable"},
		[TASK_VALID] = {"valid", "not valid"},
		[TASK_IMPLIES] = {"valid", "not valid"},
	};
	if (strcmp(v, "unknown") == 0)
		return V_UNKNOWN;
	if (strcmp(v, words[t][0]) == 0)
		return V_EQUAL;
	if (strcmp(v, words[t][1]) == 0)
		return V_DIFFERENT;
	size_t n = strlen(words[t][0]);
	unsigned long long b;
	char tail;
	if (strncmp(v, words[t][0], n) == 0 &&
	    sscanf(v + n, " up to length %llu%c", &b, &tail) == 1) {
		*bound = (size_t)b;
		return V_BOUNDED;
	}
	return V_BAD;
}

static bool status_matches(DecideTask t, Verdict v, int status)
{
	bool sat = t == TASK_SAT;
	switch (v) {
	case V_EQUAL: return status == (sat ? EXIT_NO : EXIT_YES);
	case V_DIFFERENT: return status == (sat ? EXIT_YES : EXIT_NO);
	case V_BOUNDED: return status == EXIT_UNKNOWN;
	case V_UNKNOWN: return status == EXIT_UNKNOWN || status == EXIT_LIMIT;
	default: return false;
	}
}

/* The counterexample's word: letters written together, or run-length
 * items "a^N" separated by blanks (the form of tally-equiv(1)). */
static bool parse_word(const Problem *p, const char *text, Runs *out)
{
	SymTab *syms = store_syms(p->s);
	bool runs = strchr(text, '^') || strchr(text, ' ');
	for (const char *s = text; *s;) {
		if (*s == ' ') {
			s++;
			continue;
		}
		Sym l = sym_lookup(syms, s, 1);
		if (l == SYM_NONE)
			l = sym_intern(syms, s, 1);
		s++;
		fmpz_t k;
		fmpz_init_set_ui(k, 1);
		if (runs && *s == '^') {
			const char *d = ++s;
			while (*s >= '0' && *s <= '9')
				s++;
			char *digits = strndup(d, (size_t)(s - d));
			bool ok = *digits && fmpz_set_str(k, digits, 10) == 0 &&
				  fmpz_sgn(k) > 0;
			free(digits);
			if (!ok) {
				fmpz_clear(k);
				return false;
			}
		}
		runs_push(out, l, k);
		fmpz_clear(k);
	}
	return true;
}

/* The alphabet of the JSON output: the same letters as the problem's;
 * their order into order[]. */
static bool check_alphabet(Case *c, const Problem *p, json_t *alpha,
			   Sym *order)
{
	size_t n = json_array_size(alpha);
	bool same = json_is_array(alpha) && n == p->n;
	for (size_t i = 0; same && i < n; i++) {
		const char *name = json_string_value(json_array_get(alpha, i));
		Sym l = name ? sym_lookup(store_syms(p->s), name, strlen(name))
			     : SYM_NONE;
		bool in = false;
		for (size_t j = 0; j < p->n; j++)
			in = in || p->sym[j] == l;
		same = in;
		order[i] = l;
	}
	if (!same) {
		char *got = json_dumps(alpha, JSON_COMPACT);
		Buf want = {0};
		buf_puts(&want, "");
		for (size_t j = 0; j < p->n; j++)
			buf_printf(&want, "%s%s", j ? " " : "",
				   sym_name(store_syms(p->s), p->sym[j]));
		fail(c, K_ALPHABET, "the alphabet is %s, the inputs spell %s",
		     got ? got : "?", want.data);
		free(got);
		buf_free(&want);
	}
	return same;
}

static void check_counterexample(Case *c, const Problem *p, const Brute *b,
				 json_t *o, const Sym *order, bool ordered)
{
	json_t *ce = json_object_get(o, "counterexample");
	const char *word = json_string_value(json_object_get(ce, "word"));
	const char *by = json_string_value(json_object_get(ce, "accepted_by"));
	if (!word || !by) {
		fail(c, K_OUTPUT, "no counterexample word with accepted_by");
		return;
	}
	Runs w;
	runs_init(&w);
	if (!parse_word(p, word, &w)) {
		fail(c, K_OUTPUT, "cannot read the word \"%s\"", word);
		runs_clear(&w);
		return;
	}
	bool shortest = json_is_true(json_object_get(ce, "shortest"));
	size_t len = check_witness(c, p, b, &w, shortest,
				   strcmp(by, "first") == 0 ? 0 : 1);
	const char *line = json_string_value(json_object_get(o, "method_line"));
	/* Every counterexample is made the first of its length in
	 * shortlex order, unless that search stopped (the method line
	 * says so). */
	if (len != SIZE_MAX && len <= p->maxlen && ordered && shortest &&
	    !(line && strstr(line, "stopped at a limit"))) {
		Sym first[BRUTE_MAX_LEN];
		if (brute_first_of_length(p, order, p->n, len, first)) {
			size_t n;
			Sym *got = runs_expand(&w, BRUTE_MAX_LEN, &n);
			if (memcmp(got, first, n * sizeof *got) != 0) {
				char *t = word_text(p, first, len);
				fail(c, K_ORDER, "printed \"%s\", but %s comes "
				     "first", word, t);
				free(t);
			}
			free(got);
		}
	}
	runs_clear(&w);
}

static void check_json(Case *c, const Problem *p, const Brute *b,
		       const Captured *cap)
{
	json_error_t err;
	json_t *o = json_loads(cap->out, 0, &err);
	const char *v = json_string_value(json_object_get(o, "verdict"));
	if (!v) {
		fail(c, K_OUTPUT, "exit %d, no verdict in \"%.200s\"; stderr: "
		     "%.300s", cap->status, cap->out, cap->err);
		json_decref(o);
		return;
	}
	size_t bound = 0;
	Verdict verdict = parse_verdict(c->in->task, v, &bound);
	if (!status_matches(c->in->task, verdict, cap->status))
		fail(c, K_STATUS, "\"%s\" with exit status %d", v, cap->status);
	Sym order[BRUTE_MAX_LETTERS];
	bool ordered = check_alphabet(c, p, json_object_get(o, "alphabet"),
				      order);
	char claim[96];
	snprintf(claim, sizeof claim, "printed \"%s\"", v);
	switch (verdict) {
	case V_EQUAL:
		count_outcome(c, O_PROOF);
		check_equal(c, p, b, SIZE_MAX, claim);
		break;
	case V_BOUNDED:
		count_outcome(c, O_BOUNDED);
		check_equal(c, p, b, bound, claim);
		break;
	case V_DIFFERENT:
		count_outcome(c, O_COUNTEREXAMPLE);
		check_counterexample(c, p, b, o, order, ordered);
		break;
	case V_UNKNOWN: {
		/* A limit stopped explore: it says up to where it got. */
		json_t *jb = json_object_get(o, "bound");
		const char *m = json_string_value(json_object_get(o, "method"));
		if (json_is_integer(jb) && m && strcmp(m, "explore") == 0) {
			snprintf(claim, sizeof claim, "printed \"unknown\" after "
				 "every word up to length %lld",
				 (long long)json_integer_value(jb));
			check_equal(c, p, b, (size_t)json_integer_value(jb),
				    claim);
		}
		count_outcome(c, O_UNKNOWN);
		break;
	}
	default:
		fail(c, K_OUTPUT, "the verdict \"%s\" is none of the "
		     "documented ones", v);
	}
	if (c->run->only >= 0)
		fprintf(capture_report(), "  %-10s %-4s command  %s (exit %d)\n",
			c->method, eval_accept_name(p->accept), v, cap->status);
	json_decref(o);
}

static void run_command(Case *c, const Problem *p, const Brute *b)
{
	Argv *a = (Argv *)c->cmd;
	Captured cap;
	capture_run(c->in->task == TASK_EQUIV ? cmd_equiv : cmd_check, a->n,
		    a->arg, &cap);
	bool future = false;
	for (size_t i = 0; i < p->nsides; i++)
		future = future || (store_flags(p->s, p->side[i]) & FLAG_FUTURE);
	if (cap.status == EXIT_USAGE && strcmp(c->method, "chc") == 0 &&
	    future && strstr(cap.err, "needs past-only formulas")) {
		/* Documented: chc refuses #>. */
		count_outcome(c, O_UNKNOWN);
	} else if (cap.status == EXIT_INTERNAL || cap.status == EXIT_USAGE) {
		fail(c, K_INTERNAL, "exit status %d; stderr: %.300s",
		     cap.status, cap.err);
	} else {
		check_json(c, p, b, &cap);
	}
	captured_free(&cap);
}

/* ---- one input ------------------------------------------------------------------ */

/* Brute force's length bound for n letters (about 1000 words), and the
 * --max-length the methods get: shorter, so that a bound overstated by
 * a length or two is caught too. */
static size_t brute_length(size_t n)
{
	static const size_t len[BRUTE_MAX_LETTERS + 1] = {14, 14, 9, 6, 5};
	return len[n];
}

/* From 1 up to two less than brute force's, by the input's number (a
 * bound is mostly contradicted just past the length given). */
static size_t method_length(size_t n, unsigned id)
{
	size_t most = brute_length(n) - 2;
	return most - (id * 7u) % (most < 4 ? most : 4);
}

/* The alphabet: the --alphabet letter first, then the letters spelled,
 * by name (word.h's order); "a" when there is none. */
static void alphabet(const Input *in, Problem *p)
{
	unsigned spelled = 0;
	for (size_t i = 0; i < in->nsides; i++)
		spelled |= ast_letters(in->side[i].e);
	p->n = 0;
	if (in->extra >= 0) {
		p->code[p->n++] = in->extra;
		spelled &= ~(1u << in->extra);
	}
	for (int x = 0; x < BRUTE_MAX_LETTERS; x++)
		if (spelled & (1u << x))
			p->code[p->n++] = x;
	if (p->n == 0)
		p->code[p->n++] = 0;
	for (size_t i = 0; i < p->n; i++) {
		char name[2] = {(char)('a' + p->code[i]), 0};
		p->sym[i] = sym_intern(store_syms(p->s), name, 1);
	}
	p->maxlen = brute_length(p->n);
	p->method_len = method_length(p->n, in->id);
}

static void roots(Problem *p)
{
	Store *s = p->s;
	switch (p->task) {
	case TASK_EQUIV:
		p->root[0] = p->side[0];
		p->root[1] = p->side[1];
		break;
	case TASK_SAT:
		p->root[0] = p->side[0];
		p->root[1] = store_make_false(s);
		break;
	case TASK_VALID:
		p->root[0] = p->side[0];
		p->root[1] = store_make_true(s);
		break;
	case TASK_IMPLIES:
		p->root[0] = store_make_and2(s, p->side[0],
					     store_make_not(s, p->side[1]));
		p->root[1] = store_make_false(s);
		break;
	}
}

static bool load(Run *run, const Input *in, Inputs *ld)
{
	inputs_init(ld);
	for (size_t i = 0; i < in->nsides; i++) {
		const Side *sd = &in->side[i];
		inputs_option(ld, sd->path ? 'P' : 'f',
			      sd->path ? sd->path : sd->text);
	}
	bool ok = inputs_load(ld, false);
	if (ok)
		for (size_t i = 0; i < in->nsides; i++)
			ok = ok && ld->units[i].output != NODE_NONE;
	if (!ok) {
		Case c = {.run = run, .in = in, .method = "none"};
		fail(&c, K_LOAD, "tally does not load the generated input");
	}
	return ok;
}

static void check_meaning(Run *run, const Input *in, const Problem *p,
			  const Brute *b)
{
	if (!b->misread)
		return;
	Case c = {.run = run, .in = in, .method = "none", .accept = p->accept};
	char *w = word_text(p, b->misread_word, b->misread_len);
	fail(&c, K_MEANING, "side %zu: tally's nodes %s %s, the text's "
	     "meaning %s it; the text: %s", b->misread_side + 1,
	     b->misread_by_node ? "accept" : "reject", w,
	     b->misread_by_node ? "rejects" : "accepts",
	     in->side[b->misread_side].text);
	free(w);
}

static void run_convention(Run *run, const Input *in, Problem *p)
{
	Brute b;
	double t = limit_now();
	brute_run(p, &b);
	run->brute_seconds += limit_now() - t;
	check_meaning(run, in, p, &b);
	for (size_t m = 0; m < NMETHODS; m++) {
		Argv a;
		command(run, in, methods[m].name, p->accept, p->method_len,
			&a);
		Case c = {.run = run, .in = in, .mi = m,
			  .method = methods[m].name,
			  .accept = p->accept, .cmd = &a};
		run->ncases++;
		if (methods[m].fn) {
			c.raw = true;
			set_current(run, in, methods[m].name, &a);
			t = limit_now();
			run_raw(&c, p, &b, &methods[m]);
			run->seconds[m][0] += limit_now() - t;
			c.raw = false;
		}
		set_current(run, in, "the command", &a);
		t = limit_now();
		run_command(&c, p, &b);
		run->seconds[m][1] += limit_now() - t;
		argv_free(&a);
	}
}

static void run_input(Run *run, unsigned id)
{
	Input in;
	Input blank = {.id = id};
	set_current(run, &blank, "making the input", NULL);
	if (!make_input(run, &in, id)) {
		free_input(&in, false);
		return;
	}
	unsigned before = run->failures;
	run->input_shown = run->input_hidden = 0;
	set_current(run, &in, "loading", NULL);
	Inputs ld;
	if (load(run, &in, &ld)) {
		Problem p = {.s = ld.store, .task = in.task,
			     .nsides = in.nsides};
		for (size_t i = 0; i < in.nsides; i++) {
			p.side[i] = ld.units[i].output;
			p.tree[i] = in.side[i].e;
		}
		roots(&p);
		alphabet(&in, &p);
		if (run->only >= 0) {
			fprintf(capture_report(), "input %u (%s, %s, %s):\n",
				id, task_names[in.task], in.profile, in.origin);
			for (size_t i = 0; i < in.nsides; i++)
				fprintf(capture_report(), "  side %zu: %s%s",
					i + 1, in.side[i].text,
					in.side[i].path ? "" : "\n");
		}
		for (int acc = 0; acc < 2; acc++) {
			p.accept = acc ? ACCEPT_EOS : ACCEPT_LAST;
			run_convention(run, &in, &p);
		}
	}
	inputs_free(&ld);
	if (run->input_hidden)
		fprintf(capture_report(), "  (%u more failures of input %u "
			"not shown)\n", run->input_hidden, id);
	run->inputs++;
	case_started = 0;
	free_input(&in, run->failures > before);
}

/* ---- the driver ------------------------------------------------------------------ */

static double env_number(const char *name, double dflt)
{
	const char *v = getenv(name);
	if (!v || !*v)
		return dflt;
	char *end;
	double d = strtod(v, &end);
	if (*end || d <= 0) {
		fprintf(stderr, "consistency: %s=%s is not a positive number\n",
			name, v);
		exit(99);
	}
	return d;
}

static bool option(const char *arg, const char *name, double *out)
{
	size_t n = strlen(name);
	if (strncmp(arg, name, n) != 0 || arg[n] != '=')
		return false;
	char *end;
	*out = strtod(arg + n + 1, &end);
	if (*end || *out < 0) {
		fprintf(stderr, "consistency: bad value in %s\n", arg);
		exit(99);
	}
	return true;
}

static void parse_args(Run *run, int argc, char **argv)
{
	run->self = argv[0];
	run->cases = (unsigned)env_number("TALLY_CONSISTENCY_CASES",
					  DEFAULT_CASES);
	run->seed = (uint64_t)env_number("TALLY_CONSISTENCY_SEED",
					 DEFAULT_SEED);
	run->budget = env_number("TALLY_CONSISTENCY_BUDGET", DEFAULT_BUDGET);
	run->only = -1;
	run->show_max = SHOWN_MAX;
	for (int i = 1; i < argc; i++) {
		double v;
		if (option(argv[i], "--cases", &v))
			run->cases = (unsigned)v;
		else if (option(argv[i], "--seed", &v))
			run->seed = (uint64_t)v;
		else if (option(argv[i], "--budget", &v) && v > 0)
			run->budget = v;
		else if (option(argv[i], "--input", &v))
			run->only = (long)v;
		else if (option(argv[i], "--show", &v))
			run->show_max = (unsigned)v;
		else {
			fprintf(stderr, "usage: %s [--cases=N] [--seed=S] "
				"[--budget=SECONDS] [--input=K] [--show=N]\n", argv[0]);
			exit(99);
		}
	}
}

static void summary(const Run *run)
{
	FILE *f = capture_report();
	double t = limit_now() - run->started;
	fprintf(f, "consistency: seed %llu, %u inputs, %u cases (%d methods x "
		   "2 conventions each; the method's own result and the "
		   "command), %.1f s\n",
		(unsigned long long)run->seed, run->inputs, run->ncases,
		NMETHODS, t);
	fprintf(f, "  verdicts (proofs, counterexamples, bounded, unknown or "
		   "not applicable) of the MethodResult | the command:\n");
	for (size_t m = 0; m < NMETHODS; m++) {
		const unsigned *o = run->outcomes[m][0], *k = run->outcomes[m][1];
		fprintf(f, "    %-10s %5u %5u %5u %5u | %5u %5u %5u %5u\n",
			methods[m].name, o[0], o[1], o[2], o[3], k[0], k[1],
			k[2], k[3]);
	}
	fprintf(f, "  %u witnesses too long to check; peak memory %zu MiB\n",
		run->unchecked, limit_peak_memory() >> 20);
	fprintf(f, "  seconds: brute force %.1f", run->brute_seconds);
	for (size_t m = 0; m < NMETHODS; m++)
		fprintf(f, ", %s %.1f + %.1f", methods[m].name,
			run->seconds[m][0], run->seconds[m][1]);
	fprintf(f, " (the MethodResult + the command)\n");
	fprintf(f, "  %u failed cases", run->failures);
	for (int k = 0; k < NKINDS; k++)
		if (run->fail_kind[k])
			fprintf(f, "; %u %s", run->fail_kind[k], kind_names[k]);
	fprintf(f, "\n");
}

int main(int argc, char **argv)
{
	Run run = {0};
	parse_args(&run, argc, argv);
	mem_install();
	limit_keep_process();
	capture_init();
	install_guards(run.budget);
	snprintf(run.dir, sizeof run.dir, "consistency.dir");
	if (mkdir(run.dir, 0777) != 0 && errno != EEXIST) {
		perror("consistency: consistency.dir");
		return 99;
	}
	run.started = limit_now();
	if (run.only >= 0) {
		run_input(&run, (unsigned)run.only);
	} else {
		unsigned inputs = (run.cases + CASES_PER_INPUT - 1) /
				  CASES_PER_INPUT;
		for (unsigned id = 0; id < inputs; id++)
			run_input(&run, id);
	}
	summary(&run);
	capture_finish();
	return run.failures ? 1 : 0;
}
