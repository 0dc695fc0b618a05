/* report.c -- failures and figures of the consistency harness (see
 * report.h). */
#include <config.h>
#include "report.h"

#include <stdarg.h>
#include <stdio.h>

#include "capture.h"
#include "decide/chc.h"
#include "decide/explore.h"
#include "base/limit.h"
#include "decide/mona.h"
#include "decide/presburger.h"
#include "decide/unary.h"

/* Failures printed in full of one input (the others are counted). */
#define SHOWN_PER_INPUT 3

const MethodRow report_methods[NMETHODS] = {
	{"explore", explore_decide},   {"presburger", presburger_decide},
	{"chc", chc_decide},           {"mona", mona_decide},
	{"unary", unary_decide},       {"auto", NULL},
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

static void headline(FILE *f, const Case *c, int kind)
{
	const char *task = input_task_names[c->in->task];
	const char *acc = eval_accept_name(c->accept);
	if (!c->cmd)
		fprintf(f, "FAIL input %u, %s, --accept-at=%s (%s): ",
			c->in->id, task, acc, kind_names[kind]);
	else
		fprintf(f, "FAIL input %u, %s, method %s, --accept-at=%s, %s "
			   "(%s): ", c->in->id, task,
			report_methods[c->mi].name, acc,
			c->raw ? "its MethodResult" : "the command",
			kind_names[kind]);
}

void report_fail(Case *c, int kind, const char *fmt, ...)
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
	headline(f, c, kind);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fprintf(f, "\n  inputs made as: %s, %s; reproduce: %s --seed=%llu "
		   "--budget=%g --input=%u\n", c->in->profile, c->in->origin,
		run->self, (unsigned long long)run->seed, run->budget,
		c->in->id);
	if (c->cmd)
		argv_print(f, c->cmd);
	for (size_t i = 0; i < c->in->nsides; i++)
		input_print_side(f, c->in, i);
}

void report_outcome(Case *c, int outcome)
{
	c->run->outcomes[c->mi][!c->raw][outcome]++;
}

void report_input_done(Run *run, unsigned id)
{
	if (run->input_hidden)
		fprintf(capture_report(), "  (%u more failures of input %u "
			"not shown)\n", run->input_hidden, id);
	run->input_shown = run->input_hidden = 0;
}

void report_summary(const Run *run)
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
		fprintf(f, "    %-10s %6u %6u %6u %6u | %6u %6u %6u %6u\n",
			report_methods[m].name, o[0], o[1], o[2], o[3], k[0],
			k[1], k[2], k[3]);
	}
	fprintf(f, "  %u witnesses too long to check; peak memory %zu MiB\n",
		run->unchecked, limit_peak_memory() >> 20);
	fprintf(f, "  seconds: brute force %.1f", run->brute_seconds);
	for (size_t m = 0; m < NMETHODS; m++)
		fprintf(f, ", %s %.1f + %.1f", report_methods[m].name,
			run->seconds[m][0], run->seconds[m][1]);
	fprintf(f, " (the MethodResult + the command)\n");
	fprintf(f, "  %u failed cases", run->failures);
	for (int k = 0; k < NKINDS; k++)
		if (run->fail_kind[k])
			fprintf(f, "; %u %s", run->fail_kind[k], kind_names[k]);
	fprintf(f, "\n");
}
