#include <config.h>
#include "base/buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

void buf_append(Buf *b, const char *s, size_t n)
{
	mem_grow((void **)&b->data, &b->cap, b->len + n + 1, 1);
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void buf_puts(Buf *b, const char *s)
{
	buf_append(b, s, strlen(s));
}

void buf_putc(Buf *b, char c)
{
	buf_append(b, &c, 1);
}

void buf_printf(Buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	mem_grow((void **)&b->data, &b->cap, b->len + (size_t)n + 1, 1);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

char *buf_take(Buf *b)
{
	char *s = b->data ? b->data : xstrdup("");
	b->data = NULL;
	b->len = b->cap = 0;
	return s;
}

void buf_free(Buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
