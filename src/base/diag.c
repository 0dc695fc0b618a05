#include <config.h>
#include "base/diag.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

Source *source_new(const char *name, const char *text, size_t len)
{
	Source *s = xcalloc(1, sizeof *s);
	s->name = xstrdup(name);
	s->text = xmalloc(len + 1);
	memcpy(s->text, text, len);
	s->text[len] = '\0';
	s->len = len;
	return s;
}

Source *source_read_file(const char *path, Diag *d)
{
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	if (!f) {
		diag_plain(d, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	Buf b = {0};
	char chunk[65536];
	size_t n;
	while (b.len <= SOURCE_MAX_BYTES &&
	       (n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_append(&b, chunk, n);
	bool failed = ferror(f);
	int err = errno; /* EISDIR for a directory */
	if (!is_stdin)
		fclose(f);
	if (failed || b.len > SOURCE_MAX_BYTES) {
		if (failed) {
			diag_plain(d, "cannot read '%s': %s", path,
				   strerror(err ? err : EIO));
		} else {
			diag_plain(d, "'%s' is larger than the input limit of %zu "
				      "MiB", path, SOURCE_MAX_BYTES >> 20);
			d->limit = true;
		}
		buf_free(&b);
		return NULL;
	}
	Source *s = source_new(is_stdin ? "<stdin>" : path, b.data ? b.data : "",
			       b.len);
	buf_free(&b);
	return s;
}

void source_free(Source *s)
{
	if (!s)
		return;
	free(s->name);
	free(s->text);
	free(s);
}

/* Length of the UTF-8 sequence starting at p (1 for an invalid byte). */
static size_t utf8_len(const unsigned char *p, size_t avail)
{
	size_t n = *p < 0x80 ? 1 : (*p >> 5) == 6 ? 2 : (*p >> 4) == 14 ? 3
		: (*p >> 3) == 30 ? 4 : 1;
	if (n > avail)
		return 1;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xC0) != 0x80)
			return 1;
	return n;
}

/* Combining marks (the arrows of #⃖ and #⃗) take no column. */
static bool zero_width(const unsigned char *p, size_t n)
{
	if (n == 2) {
		unsigned cp = ((p[0] & 0x1Fu) << 6) | (p[1] & 0x3Fu);
		return cp >= 0x300 && cp <= 0x36F;
	}
	if (n == 3) {
		unsigned cp = ((p[0] & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) |
			      (p[2] & 0x3Fu);
		return cp >= 0x20D0 && cp <= 0x20FF;
	}
	return false;
}

static size_t line_start(const Source *s, size_t off)
{
	while (off > 0 && s->text[off - 1] != '\n')
		off--;
	return off;
}

void diag_position(const Source *s, size_t off, int *line, int *col)
{
	if (off > s->len)
		off = s->len;
	int l = 1 + s->line_base;
	for (size_t i = 0; i < off; i++)
		if (s->text[i] == '\n')
			l++;
	int c = 1;
	const unsigned char *t = (const unsigned char *)s->text;
	for (size_t i = line_start(s, off); i < off;) {
		size_t n = utf8_len(t + i, s->len - i);
		if (!zero_width(t + i, n))
			c++;
		i += n;
	}
	*line = l;
	*col = c;
}

/* Show at most this many columns of a long line on each side of the caret. */
enum { CONTEXT = 60 };

static void render_excerpt(Buf *out, const Source *s, size_t off)
{
	const unsigned char *t = (const unsigned char *)s->text;
	size_t from = line_start(s, off), to = off;
	while (to < s->len && t[to] != '\n')
		to++;
	/* Keep the excerpt short on huge one-line inputs. */
	size_t cols = 0, start = off;
	while (start > from && cols < CONTEXT) {
		start--;
		while (start > from && (t[start] & 0xC0) == 0x80)
			start--;
		cols++;
	}
	size_t end = off;
	for (cols = 0; end < to && cols < CONTEXT; cols++)
		end += utf8_len(t + end, s->len - end);
	Buf caret = {0};
	if (start > from) {
		buf_puts(out, "...");
		buf_puts(&caret, "   ");
	}
	for (size_t i = start; i < end;) {
		size_t n = utf8_len(t + i, s->len - i);
		bool bad = n == 1 && (t[i] >= 0x80 || t[i] < 0x20) &&
			   t[i] != '\t';
		if (bad)
			buf_putc(out, '?');
		else
			buf_append(out, (const char *)t + i, n);
		if (i < off && !zero_width(t + i, n))
			buf_putc(&caret, t[i] == '\t' ? '\t' : ' ');
		i += n;
	}
	if (end < to)
		buf_puts(out, "...");
	buf_putc(out, '\n');
	buf_append(out, caret.data ? caret.data : "", caret.len);
	buf_puts(out, "^\n");
	buf_free(&caret);
}

/* The formatted message and a newline (messages are short: 1 KiB). */
static void append_message(Buf *msg, const char *fmt, va_list ap)
{
	char tmp[1024];
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	buf_puts(msg, tmp);
	buf_putc(msg, '\n');
}

static void emit(Diag *d, Buf *msg, bool error)
{
	if (d->out) {
		fputs(msg->data, d->out);
		fflush(d->out);
	}
	if (d->capture)
		buf_append(d->capture, msg->data, msg->len);
	if (error)
		d->errors++;
}

void diag_error(Diag *d, const Source *s, size_t off, const char *fmt, ...)
{
	int line, col;
	diag_position(s, off, &line, &col);
	Buf msg = {0};
	buf_printf(&msg, "tally: %s:%d:%d: error: ", s->name, line, col);
	va_list ap;
	va_start(ap, fmt);
	append_message(&msg, fmt, ap);
	va_end(ap);
	render_excerpt(&msg, s, off);
	emit(d, &msg, true);
	buf_free(&msg);
}

void diag_plain(Diag *d, const char *fmt, ...)
{
	Buf msg = {0};
	buf_puts(&msg, "tally: error: ");
	va_list ap;
	va_start(ap, fmt);
	append_message(&msg, fmt, ap);
	va_end(ap);
	emit(d, &msg, true);
	buf_free(&msg);
}

void diag_warning(Diag *d, const Source *s, size_t off, const char *notes,
		  const char *fmt, ...)
{
	int line, col;
	diag_position(s, off, &line, &col);
	Buf msg = {0};
	buf_printf(&msg, "tally: %s:%d:%d: warning: ", s->name, line, col);
	va_list ap;
	va_start(ap, fmt);
	append_message(&msg, fmt, ap);
	va_end(ap);
	render_excerpt(&msg, s, off);
	if (notes)
		buf_puts(&msg, notes);
	emit(d, &msg, false);
	buf_free(&msg);
}
