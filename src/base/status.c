/* status.c -- exit statuses and their messages (see status.h). */
#include <config.h>
#include "base/status.h"

#include <stdio.h>

int status_worse(int a, int b)
{
	static const int order[] = {EXIT_INTERNAL, EXIT_USAGE, EXIT_NO,
				    EXIT_LIMIT, EXIT_UNKNOWN, EXIT_YES};
	for (size_t i = 0; i < sizeof order / sizeof *order; i++)
		if (a == order[i] || b == order[i])
			return order[i];
	return a;
}

static Buf *captured;

Buf *status_capture(Buf *into)
{
	Buf *before = captured;
	captured = into;
	return before;
}

void status_vmessage(const char *kind, const char *fmt, va_list ap)
{
	if (captured) {
		va_list again;
		va_copy(again, ap);
		if (captured->len)
			buf_putc(captured, '\n');
		buf_vprintf(captured, fmt, again);
		va_end(again);
	}
	fprintf(stderr, "tally: %s: ", kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int status_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	status_vmessage("error", fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}
