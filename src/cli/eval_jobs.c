/* eval_jobs.c -- stdin in whole lines for the block-parallel evaluator
 * (eval_jobs.h). */
#include <config.h>
#include "cli/eval_jobs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/mem.h"
#include "base/status.h"

typedef struct {
	WordReader *wr;
	size_t min_line;
	EvalJobsJudge *judge;
	void *ctx;
	bool mid; /* the reader has the start of the current line */
} Lines;

size_t eval_jobs_file_size(void)
{
	struct stat sb;
	if (fstat(STDIN_FILENO, &sb) != 0 || !S_ISREG(sb.st_mode))
		return 0;
	off_t at = lseek(STDIN_FILENO, 0, SEEK_CUR);
	return at >= 0 && sb.st_size > at ? (size_t)(sb.st_size - at) : 0;
}

bool eval_jobs_read_stdin(char *buf, size_t cap, size_t *got)
{
	ssize_t k;
	while ((k = read(STDIN_FILENO, buf, cap)) < 0 && errno == EINTR)
		;
	if (k < 0)
		return status_usage_error("cannot read stdin: %s",
					  strerror(errno)) == EXIT_YES;
	*got = (size_t)k;
	return true;
}

/* buf[0..n), line by line: long whole lines to the judge, the others to
 * the reader.  A last line without its newline waits for more input
 * unless eof.  *used: the bytes taken. */
static bool take_lines(Lines *L, const char *buf, size_t n, bool eof,
		       size_t *used)
{
	size_t i = 0, run = 0; /* buf[run..i): lines for the reader */
	if (L->mid) {
		const char *nl = memchr(buf, '\n', n);
		i = nl ? (size_t)(nl - buf) + 1 : n;
		L->mid = !nl;
	}
	while (i < n) {
		const char *nl = memchr(buf + i, '\n', n - i);
		if (!nl && !eof)
			break;
		size_t e = nl ? (size_t)(nl - buf) : n;
		size_t next = nl ? e + 1 : n;
		if (e - i >= L->min_line) {
			if (i > run && !word_feed(L->wr, buf + run, i - run))
				return false;
			run = i;
			int r = L->judge(L->ctx, (const unsigned char *)buf + i,
					 e - i);
			if (r < 0)
				return false;
			if (r > 0) {
				word_line_done(L->wr);
				run = next;
			}
		}
		i = next;
	}
	*used = i;
	return i == run || word_feed(L->wr, buf + run, i - run);
}

/* A regular file, mapped: every line whole.  -1: it could not be
 * mapped (read it instead). */
static int read_mapped(Lines *L)
{
	struct stat sb;
	off_t at = lseek(STDIN_FILENO, 0, SEEK_CUR);
	if (fstat(STDIN_FILENO, &sb) != 0 || at < 0 || sb.st_size <= at)
		return -1;
	size_t size = (size_t)sb.st_size;
	void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, STDIN_FILENO, 0);
	if (map == MAP_FAILED)
		return -1;
	size_t used;
	bool ok = take_lines(L, (const char *)map + at, size - (size_t)at, true,
			     &used);
	munmap(map, size);
	lseek(STDIN_FILENO, 0, SEEK_END);
	return ok;
}

/* A pipe: buffers of EVAL_JOBS_BUFFER bytes; a line that does not fit
 * goes to the reader as it comes. */
static bool read_buffered(Lines *L)
{
	char *buf = xmalloc(EVAL_JOBS_BUFFER);
	size_t have = 0;
	bool ok = true;
	for (bool eof = false; ok && !eof;) {
		size_t got;
		if (!eval_jobs_read_stdin(buf + have, EVAL_JOBS_BUFFER - have,
					  &got)) {
			ok = false;
			break;
		}
		eof = got == 0;
		have += got;
		size_t used;
		ok = take_lines(L, buf, have, eof, &used);
		if (ok && used == 0 && have == EVAL_JOBS_BUFFER) {
			ok = word_feed(L->wr, buf, have);
			L->mid = true;
			used = have;
		}
		memmove(buf, buf + used, have - used);
		have -= used;
	}
	free(buf);
	return ok;
}

bool eval_jobs_read(WordReader *wr, size_t min_line, EvalJobsJudge *judge,
		    void *ctx)
{
	Lines L = {wr, min_line ? min_line : 1, judge, ctx, false};
	int ok = eval_jobs_file_size() ? read_mapped(&L) : -1;
	if (ok < 0)
		ok = read_buffered(&L);
	return ok && word_close(wr);
}
