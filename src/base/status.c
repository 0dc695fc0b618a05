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

void status_vmessage(const char *kind, const char *fmt, va_list ap)
{
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
