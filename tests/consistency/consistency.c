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
 * Knobs (environment, or the options of the same name):
 * TALLY_CONSISTENCY_CASES (--cases; default 2004, a third of it in a
 * sanitizer build, scaled by TALLY_TEST_MULTIPLIER; make check-heavy
 * sets 100000), TALLY_CONSISTENCY_SEED (--seed), TALLY_CONSISTENCY_BUDGET
 * (--budget, seconds per method and case, default 0.5); --input=K reruns
 * input K alone and prints every verdict; --show=N prints N failures in
 * full (default 12). */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "brute.h"
#include "capture.h"
#include "check.h"
#include "randgen.h"
#include "guard.h"
#include "input.h"
#include "base/limit.h"
#include "base/mem.h"
#include "report.h"

#ifdef __SANITIZE_ADDRESS__
/* A third under the sanitizers, which make Z3, MONA's start and the
 * methods about four times slower: CI runs the suite twice. */
#define DEFAULT_CASES 672
#else
#define DEFAULT_CASES 2004
#endif
#define DEFAULT_SEED 18
#define DEFAULT_BUDGET 0.5
/* Failures printed in full; the others are only counted. */
#define SHOWN_MAX 12
enum { CASES_PER_INPUT = 2 * NMETHODS };

/* ---- one input ----------------------------------------------------------- */

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
	case TASK_NONNEG: /* questions about counts: not drawn here */
	case TASK_BOUNDED:
		abort();
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
		Case c = {.run = run, .in = in};
		report_fail(&c, K_LOAD, "tally does not load the generated "
			    "input");
	}
	return ok;
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
		input_command(in, report_methods[m].name, p->accept,
			      run->budget, p->method_len, &a);
		Case c = {.run = run, .in = in, .mi = m, .accept = p->accept,
			  .cmd = &a};
		run->ncases++;
		if (report_methods[m].fn) {
			c.raw = true;
			guard_enter(in->id, report_methods[m].name, &a);
			t = limit_now();
			check_method(&c, p, &b);
			run->seconds[m][0] += limit_now() - t;
			c.raw = false;
		}
		guard_enter(in->id, "the command", &a);
		t = limit_now();
		check_command(&c, p, &b);
		run->seconds[m][1] += limit_now() - t;
		argv_free(&a);
	}
}

static void run_input(Run *run, unsigned id)
{
	Input in;
	guard_enter(id, "making the input", NULL);
	if (!input_make(&in, id, run->seed, run->dir)) {
		input_free(&in, false);
		return;
	}
	unsigned before = run->failures;
	guard_enter(id, "loading", NULL);
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
				id, input_task_names[in.task], in.profile,
				in.origin);
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
	report_input_done(run, id);
	run->inputs++;
	guard_leave();
	input_free(&in, run->failures > before);
}

/* ---- the driver ---------------------------------------------------------- */

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
	/* TALLY_TEST_MULTIPLIER scales the default as it scales the random
	 * suites (1/30 in the valgrind stage). */
	run->cases = (unsigned)env_number("TALLY_CONSISTENCY_CASES",
					  test_count(DEFAULT_CASES));
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
				"[--budget=SECONDS] [--input=K] [--show=N]\n",
				argv[0]);
			exit(99);
		}
	}
}

int main(int argc, char **argv)
{
	Run run = {0};
	parse_args(&run, argc, argv);
	mem_install();
	limit_keep_process();
	capture_init();
	char reproduce[256];
	snprintf(reproduce, sizeof reproduce, "%s --seed=%llu --budget=%g",
		 run.self, (unsigned long long)run.seed, run.budget);
	guard_install(reproduce, run.budget);
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
	report_summary(&run);
	capture_finish();
	return run.failures ? 1 : 0;
}

