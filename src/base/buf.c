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

void buf_vprintf(Buf *b, const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	if (n >= 0) {
		mem_grow((void **)&b->data, &b->cap, b->len + (size_t)n + 1, 1);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again);
		b->len += (size_t)n;
	}
	va_end(again);
}

void buf_printf(Buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
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
