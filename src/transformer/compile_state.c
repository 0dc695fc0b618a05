/* compile_state.c -- the services every part of the compiler uses on a
 * Compiler (compile_state.h): its error messages, the range of the
 * weights it has made, the labels of its components. */
#include <config.h>
#include "transformer/compile_state.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "base/mem.h"
#include "core/print.h"

char *compiler_message(const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	return xstrdup(tmp);
}

void compiler_note_range(Compiler *c, double x)
{
	if (fabs(x) > c->range)
		c->range = fabs(x);
}

/* Components are labelled with their subformula, written out when small;
 * a larger one names the components of its Boolean subformulas ("c7"),
 * so that the labels of a deep formula stay linear in it, not quadratic. */
enum { COMP_LABEL_SIZE = 64 };

char *compiler_label(const Compiler *c, Node n)
{
	return tl_print(c->st, n, SYNTAX_TL,
			store_size(c->st, n) > COMP_LABEL_SIZE ? c->label
								: NULL);
}
