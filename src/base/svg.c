/* svg.c -- SVG documents in memory, and the file they are written to. */
#include <config.h>

#include "base/svg.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/mem.h"

/* ---- escaping ---------------------------------------------------------- */

/* The length of the valid UTF-8 sequence of a character XML allows at s,
 * or 0. */
static size_t xml_char(const unsigned char *s)
{
	unsigned c = s[0];
	if (c < 0x80)
		return c >= 0x20 || c == '\t' || c == '\n' || c == '\r';
	size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
		 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
	unsigned long cp = c & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	/* overlong forms, surrogates, beyond U+10FFFF, U+FFFE and U+FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
		return 0;
	return n;
}

void svg_escape(Buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t n = xml_char(p);
		switch (n ? *p : 0) {
		case 0: buf_putc(b, '?'); n = 1; break;
		case '&': buf_puts(b, "&amp;"); break;
		case '<': buf_puts(b, "&lt;"); break;
		case '>': buf_puts(b, "&gt;"); break;
		case '"': buf_puts(b, "&quot;"); break;
		case '\'': buf_puts(b, "&#39;"); break;
		default: buf_append(b, (const char *)p, n);
		}
		p += n;
	}
}

static void escape_vf(Buf *b, const char *fmt, va_list ap)
{
	Buf t = {0};
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	char *s = xmalloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	svg_escape(&t, s);
	buf_puts(b, t.data ? t.data : "");
	buf_free(&t);
	free(s);
}

/* ---- measuring and wrapping -------------------------------------------- */

size_t svg_chars(const char *text)
{
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		n += (*p & 0xC0) != 0x80;
	return n;
}

char *svg_clip(const char *text, size_t cols)
{
	if (svg_chars(text) <= cols)
		return xstrdup(text);
	size_t keep = cols > 3 ? cols - 3 : 0, i = 0, chars = 0;
	for (; text[i]; i++)
		if ((text[i] & 0xC0) != 0x80 && chars++ == keep)
			break;
	Buf b = {0};
	buf_append(&b, text, i);
	buf_puts(&b, "...");
	return buf_take(&b);
}

double svg_text_width(const char *text, double px)
{
	return (double)svg_chars(text) * px * SVG_ADVANCE;
}

/* The next line of at most cols characters of s: its length in bytes
 * (*len) and the bytes to skip to the line after (the return). */
static size_t next_line(const char *s, size_t cols, size_t *len)
{
	size_t chars = 0, i = 0, brk = 0;
	while (s[i] && s[i] != '\n') {
		if ((s[i] & 0xC0) != 0x80) {
			if (chars == cols)
				break;
			chars++;
		}
		if (s[i] == ' ')
			brk = i;
		i++;
	}
	if (!s[i] || s[i] == '\n') {
		*len = i;
		return i + (s[i] == '\n');
	}
	if (brk > 0) { /* break at the last space; drop it */
		*len = brk;
		return brk + 1;
	}
	*len = i; /* one long word: cut it */
	return i;
}

size_t svg_wrap_count(const char *text, size_t cols)
{
	size_t n = 0, len;
	do {
		text += next_line(text, cols ? cols : 1, &len);
		n++;
	} while (*text);
	return n;
}

/* ---- the document ------------------------------------------------------ */

void svg_begin(Svg *g, double w, double h, const char *title,
	       const char *css)
{
	memset(g, 0, sizeof *g);
	buf_printf(&g->b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		   "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n<title>",
		   w, h, w, h);
	svg_escape(&g->b, title);
	buf_printf(&g->b, "</title>\n<style>\ntext { font-family: "
		   "\"DejaVu Sans Mono\", \"Liberation Mono\", monospace; }\n"
		   "%s</style>\n<rect x=\"0\" y=\"0\" width=\"%.0f\" "
		   "height=\"%.0f\" fill=\"white\"/>\n", css, w, h);
}

char *svg_finish(Svg *g)
{
	if (g->open)
		svg_close(g);
	buf_puts(&g->b, "</svg>\n");
	return buf_take(&g->b);
}

static void start(Svg *g, const char *name, const char *cls)
{
	if (g->open)
		svg_close(g);
	g->open = name;
	buf_printf(&g->b, "<%s", name);
	if (cls && *cls)
		buf_printf(&g->b, " class=\"%s\"", cls);
}

void svg_rect(Svg *g, double x, double y, double w, double h,
	      const char *cls)
{
	start(g, "rect", cls);
	buf_printf(&g->b, " x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		   "height=\"%.1f\"", x, y, w, h);
}

void svg_line(Svg *g, double x1, double y1, double x2, double y2,
	      const char *cls)
{
	start(g, "line", cls);
	buf_printf(&g->b, " x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"",
		   x1, y1, x2, y2);
}

void svg_attr(Svg *g, const char *name, const char *fmt, ...)
{
	va_list ap;
	buf_printf(&g->b, " %s=\"", name);
	va_start(ap, fmt);
	escape_vf(&g->b, fmt, ap);
	va_end(ap);
	buf_putc(&g->b, '"');
}

void svg_close(Svg *g)
{
	buf_puts(&g->b, "/>\n");
	g->open = NULL;
}

void svg_close_title(Svg *g, const char *fmt, ...)
{
	va_list ap;
	buf_puts(&g->b, "><title>");
	va_start(ap, fmt);
	escape_vf(&g->b, fmt, ap);
	va_end(ap);
	buf_printf(&g->b, "</title></%s>\n", g->open);
	g->open = NULL;
}

void svg_text(Svg *g, double x, double y, const char *cls,
	      const char *fmt, ...)
{
	va_list ap;
	start(g, "text", cls);
	buf_printf(&g->b, " x=\"%.1f\" y=\"%.1f\">", x, y);
	va_start(ap, fmt);
	escape_vf(&g->b, fmt, ap);
	va_end(ap);
	buf_puts(&g->b, "</text>\n");
	g->open = NULL;
}

size_t svg_text_wrapped(Svg *g, double x, double y, double lh,
			const char *cls, size_t cols, const char *text)
{
	size_t n = 0, len;
	do {
		size_t skip = next_line(text, cols ? cols : 1, &len);
		char *line = xstrndup(text, len);
		svg_text(g, x, y + lh * (double)n++, cls, "%s", line);
		free(line);
		text += skip;
	} while (*text);
	return n;
}

/* ---- the file ---------------------------------------------------------- */

struct SvgFile {
	char *path, *tmp;
	int fd;
};

static char *file_error(const char *path, int e)
{
	Buf b = {0};
	buf_printf(&b, "cannot write the plot '%s': %s", path, strerror(e));
	return buf_take(&b);
}

SvgFile *svg_file_open(const char *path, char **err)
{
	SvgFile *f = xcalloc(1, sizeof *f);
	Buf t = {0};
	buf_printf(&t, "%s.XXXXXX", path);
	f->tmp = buf_take(&t);
	f->fd = mkstemp(f->tmp);
	if (f->fd < 0) {
		*err = file_error(path, errno);
		free(f->tmp);
		free(f);
		return NULL;
	}
	/* mkstemp makes it 0600; a plot is as readable as any new file */
	mode_t mask = umask(0);
	umask(mask);
	(void)fchmod(f->fd, 0666 & ~mask);
	f->path = xstrdup(path);
	return f;
}

void svg_file_discard(SvgFile *f)
{
	if (!f)
		return;
	close(f->fd);
	unlink(f->tmp);
	free(f->tmp);
	free(f->path);
	free(f);
}

bool svg_file_commit(SvgFile *f, const char *doc, char **err)
{
	size_t n = strlen(doc), done = 0;
	int e = 0;
	while (done < n && !e) {
		ssize_t w = write(f->fd, doc + done, n - done);
		if (w < 0 && errno != EINTR)
			e = errno;
		else if (w > 0)
			done += (size_t)w;
	}
	if (!e && close(f->fd) != 0)
		e = errno;
	f->fd = e ? f->fd : -1;
	if (!e && rename(f->tmp, f->path) != 0)
		e = errno;
	if (e) {
		*err = file_error(f->path, e);
		if (f->fd >= 0)
			close(f->fd);
		unlink(f->tmp);
	}
	free(f->tmp);
	free(f->path);
	free(f);
	return e == 0;
}
