/* capture.c -- see capture.h. */
#include <config.h>
#include "capture.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/mem.h"

static int saved_out = -1, saved_err = -1;
static FILE *scratch_out, *scratch_err, *report;

void capture_init(void)
{
	fflush(stdout);
	saved_out = dup(STDOUT_FILENO);
	saved_err = dup(STDERR_FILENO);
	scratch_out = tmpfile();
	scratch_err = tmpfile();
	report = fdopen(dup(saved_out), "w");
	if (saved_out < 0 || saved_err < 0 || !scratch_out || !scratch_err ||
	    !report) {
		perror("consistency: cannot set up the output capture");
		exit(99);
	}
	setvbuf(report, NULL, _IOLBF, 0);
}

void capture_finish(void)
{
	fclose(scratch_out);
	fclose(scratch_err);
	fclose(report);
	close(saved_out);
	close(saved_err);
}

FILE *capture_report(void)
{
	return report;
}

int capture_report_fd(void)
{
	return saved_out;
}

static char *slurp(FILE *f)
{
	Buf b = {0};
	buf_puts(&b, "");
	fflush(f);
	rewind(f);
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_append(&b, chunk, n);
	return buf_take(&b);
}

static void redirect(FILE *scratch, int fd)
{
	if (ftruncate(fileno(scratch), 0) != 0)
		abort();
	rewind(scratch);
	if (dup2(fileno(scratch), fd) < 0)
		abort();
}

void capture_run(CommandFn fn, int argc, char **argv, Captured *c)
{
	fflush(stdout);
	fflush(stderr);
	redirect(scratch_out, STDOUT_FILENO);
	redirect(scratch_err, STDERR_FILENO);
	optind = 0; /* getopt starts afresh, as in a new process */
	c->status = fn(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	c->out = slurp(scratch_out);
	c->err = slurp(scratch_err);
}

void captured_free(Captured *c)
{
	free(c->out);
	free(c->err);
	c->out = c->err = NULL;
}
