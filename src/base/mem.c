#include <config.h>
#include "base/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <flint/flint.h>
#include <gmp.h>

/* Running out of memory is a limit reached (ulimit -v, a container), not
 * a bug: exit status 4, EXIT_LIMIT of cli.h. */
static void mem_fatal_oom(size_t n)
{
	fprintf(stderr, "tally: limit: out of memory allocating %zu bytes\n",
		n);
	exit(4);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		mem_fatal_oom(n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		mem_fatal_oom(count * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		mem_fatal_oom(n);
	return q;
}

/* GMP's allocator signatures: sizes it already knows are not needed. */
static void *gmp_realloc(void *p, size_t old, size_t n)
{
	(void)old;
	return xrealloc(p, n);
}

static void gmp_free(void *p, size_t n)
{
	(void)n;
	free(p);
}

void mem_install(void)
{
	mp_set_memory_functions(xmalloc, gmp_realloc, gmp_free);
	__flint_set_memory_functions(xmalloc, xcalloc, xrealloc, free);
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

void mem_grow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return;
	size_t c = *cap ? *cap : 8;
	while (c < need) {
		if (c > ((size_t)-1) / 2 / elem)
			mem_fatal_oom((size_t)-1);
		c *= 2;
	}
	*p = xrealloc(*p, c * elem);
	*cap = c;
}
