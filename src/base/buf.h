/* buf -- a growable byte buffer for printers.
 *
 * The Buf struct owns data (always NUL-terminated after any append);
 * buf_take() hands the string to the caller, who frees it.
 */
#ifndef TALLY_BUF_H
#define TALLY_BUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct {
	char *data;
	size_t len, cap;
} Buf;

void buf_append(Buf *b, const char *s, size_t n);
void buf_puts(Buf *b, const char *s);
void buf_putc(Buf *b, char c);
void buf_vprintf(Buf *b, const char *fmt, va_list ap);
void buf_printf(Buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
char *buf_take(Buf *b);
void buf_free(Buf *b);

#endif
