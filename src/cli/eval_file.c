/* eval_file.c -- the passes of #> over a file on stdin (eval_file.h). */
#include <config.h>
#include "cli/eval_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/mem.h"
#include "base/status.h"

enum { CHUNK = 1 << 16 }; /* the reader works on it while it is in cache */

bool eval_file_usable(int fd)
{
	struct stat sb;
	return fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	       lseek(fd, 0, SEEK_CUR) >= 0;
}

/* ---- the sink of the passes before the last: letters to the evaluator -- */

static void pass_letters(void *ctx, const Sym *s, size_t n)
{
	eval_push_many(ctx, s, n);
}

static void pass_restart(void *ctx)
{
	eval_reset(ctx);
}

static void pass_text(void *ctx, const char *bytes, size_t n)
{
	(void)ctx, (void)bytes, (void)n;
}

static bool pass_end(void *ctx)
{
	(void)ctx;
	return true;
}

static size_t pass_bytes(void *ctx, const unsigned char *b, size_t n,
			 const Sym *byte_sym)
{
	return eval_push_bytes(ctx, b, n, byte_sym);
}

/* ---- reading ------------------------------------------------------------ */

typedef struct {
	int fd;
	char *buf;
	bool failed; /* a read error, reported */
} LineSource;

/* Up to CHUNK bytes at off; -1 after a read error (reported). */
static ssize_t chunk_at(LineSource *src, off_t off)
{
	for (;;) {
		ssize_t got = pread(src->fd, src->buf, CHUNK, off);
		if (got >= 0)
			return got;
		if (errno != EINTR) {
			status_usage_error("cannot read stdin: %s", strerror(errno));
			src->failed = true;
			return -1;
		}
	}
}

/* Feeds the line that starts at off to r, finding where it ends: *end
 * is the offset after its newline (or the file's end: *nl false).  A
 * line with no newline is closed (word_close).  *empty: the file ends at
 * off.  False after an error. */
static bool first_pass(LineSource *src, WordReader *r, off_t off, off_t *end,
		       bool *nl, bool *empty)
{
	*nl = false;
	*empty = true;
	for (off_t at = off;;) {
		ssize_t got = chunk_at(src, at);
		if (got < 0)
			return false;
		if (got == 0) {
			*end = at;
			return *empty || word_close(r);
		}
		*empty = false;
		const char *p = memchr(src->buf, '\n', (size_t)got);
		size_t n = p ? (size_t)(p - src->buf) + 1 : (size_t)got;
		if (!word_feed(r, src->buf, n))
			return false;
		at += (off_t)n;
		if (p) {
			*end = at;
			*nl = true;
			return true;
		}
	}
}

/* Feeds bytes off..end (a line first_pass found) to r. */
static bool again(LineSource *src, WordReader *r, off_t off, off_t end, bool nl)
{
	while (off < end) {
		ssize_t got = chunk_at(src, off);
		if (got <= 0) { /* the file shrank under us */
			if (got == 0)
				status_usage_error("stdin changed while it was read");
			return false;
		}
		size_t n = (size_t)got < (size_t)(end - off) ? (size_t)got
							      : (size_t)(end - off);
		if (!word_feed(r, src->buf, n))
			return false;
		off += (off_t)n;
	}
	return nl || word_close(r);
}

/* One line through every pass; false at the end of the file or after an
 * error (*ok says which). */
static bool one_line(LineSource *src, Evaluator *ev, WordReader *pr, unsigned np,
		     WordReader *last, off_t *off, bool *ok)
{
	off_t end;
	bool nl, empty;
	eval_pass_begin(ev, 0);
	*ok = first_pass(src, &pr[0], *off, &end, &nl, &empty);
	if (!*ok || empty)
		return false;
	eval_pass_end(ev);
	for (unsigned k = 1; k < np && *ok; k++) {
		eval_pass_begin(ev, k);
		*ok = again(src, &pr[k], *off, end, nl);
		if (*ok)
			eval_pass_end(ev);
	}
	if (*ok) {
		eval_pass_begin(ev, np);
		*ok = again(src, last, *off, end, nl);
	}
	*off = end;
	return *ok && nl;
}

bool eval_file_read(int fd, Evaluator *ev, WordReader *last,
		    const Alphabet *alpha, bool tokens_only, Diag *d)
{
	unsigned np = eval_pass_count(ev) - 1; /* the passes before the last */
	LineSource src = {fd, xmalloc(CHUNK), false};
	WordSink sink = {ev, pass_letters, pass_restart, pass_text, pass_end};
	WordReader *pr = xcalloc(np, sizeof *pr);
	for (unsigned k = 0; k < np; k++) {
		word_reader_init(&pr[k], alpha, tokens_only, &sink, d);
		word_reader_bytes(&pr[k], pass_bytes);
	}
	off_t off = lseek(fd, 0, SEEK_CUR);
	bool ok = true;
	while (one_line(&src, ev, pr, np, last, &off, &ok))
		;
	lseek(fd, off, SEEK_SET); /* as far as the one-pass reading got */
	for (unsigned k = 0; k < np; k++)
		word_reader_free(&pr[k]);
	free(pr);
	free(src.buf);
	return ok;
}
