/* range.c -- parsing N, N..M, ..M, N.. and N:M. */
#include <config.h>

#include "range.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A decimal bound at *s, or -1 (and nothing consumed) when there is none;
 * false on overflow. */
static bool bound(const char **s, long *out)
{
	*out = -1;
	if (!isdigit((unsigned char)**s))
		return true;
	char *end;
	errno = 0;
	long v = strtol(*s, &end, 10);
	if (errno != 0)
		return false;
	*out = v;
	*s = end;
	return true;
}

bool range_parse(const char *s, Range *r)
{
	if (!bound(&s, &r->lo))
		return false;
	if (*s == '\0') { /* a single number */
		r->hi = r->lo;
		return r->lo >= 0;
	}
	if (strncmp(s, "..", 2) == 0)
		s += 2;
	else if (*s == ':')
		s += 1;
	else
		return false;
	if (!bound(&s, &r->hi) || *s != '\0')
		return false;
	if (r->lo < 0 && r->hi < 0)
		return false; /* ".." alone says nothing */
	return r->lo < 0 || r->hi < 0 || r->lo <= r->hi;
}
