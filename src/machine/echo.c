/* echo.c -- a word's text held until its verdict (see echo.h). */
#include <config.h>
#include "machine/echo.h"

#include <unistd.h>

/* Moves the text to a temporary file; false when none can be made (the
 * text then stays in memory). */
static bool start_spill(Echo *e)
{
	if (!e->spill && !(e->spill = tmpfile()))
		return false;
	if (e->text.len)
		fwrite(e->text.data, 1, e->text.len, e->spill);
	e->text.len = 0;
	e->spilled = true;
	return true;
}

void echo_add(Echo *e, const char *bytes, size_t n)
{
	if (n == 0)
		return;
	if (!e->spilled && e->text.len + n > ECHO_MAX)
		start_spill(e);
	if (!e->spilled) {
		buf_append(&e->text, bytes, n);
		return;
	}
	if (e->held_cr)
		fputc('\r', e->spill);
	e->held_cr = bytes[n - 1] == '\r';
	fwrite(bytes, 1, n - e->held_cr, e->spill);
}

void echo_write(Echo *e, FILE *out)
{
	if (!e->spilled) {
		size_t n = e->text.len;
		if (n && e->text.data[n - 1] == '\r')
			n--;
		fwrite(e->text.data ? e->text.data : "", 1, n, out);
		return;
	}
	char buf[1 << 16];
	size_t got;
	fflush(e->spill);
	rewind(e->spill);
	while ((got = fread(buf, 1, sizeof buf, e->spill)) > 0)
		fwrite(buf, 1, got, out);
}

void echo_drop(Echo *e)
{
	e->text.len = 0;
	if (e->spilled) {
		rewind(e->spill);
		if (ftruncate(fileno(e->spill), 0) != 0)
			clearerr(e->spill);
	}
	e->spilled = e->held_cr = false;
}

void echo_free(Echo *e)
{
	buf_free(&e->text);
	if (e->spill)
		fclose(e->spill);
	e->spill = NULL;
}
