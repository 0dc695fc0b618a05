/* number.c -- the one reader of counts and ranges (see number.h). */
#include <config.h>
#include "base/number.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool number_parse_count(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end || errno || v > max)
		return false;
	*out = v;
	return true;
}

/* One bound of a range: the text [s, e) as a count. */
static bool range_bound(const char *s, const char *e, size_t *out)
{
	char tmp[32];
	uint64_t v;
	if (e - s >= (ptrdiff_t)sizeof tmp)
		return false;
	memcpy(tmp, s, (size_t)(e - s));
	tmp[e - s] = '\0';
	if (!number_parse_count(tmp, SIZE_MAX, &v))
		return false;
	*out = (size_t)v;
	return true;
}

/* RANGE: N, N..M, ..M, N.. ("..", alone, says nothing: refused). */
bool number_parse_range(const char *s, size_t *lo, size_t *hi)
{
	const char *dots = strstr(s, "..");
	*lo = 0;
	*hi = SIZE_MAX;
	if (!dots) {
		if (!range_bound(s, s + strlen(s), lo))
			return false;
		*hi = *lo;
		return true;
	}
	if (dots == s && !dots[2])
		return false;
	if (dots != s && !range_bound(s, dots, lo))
		return false;
	if (dots[2] && !range_bound(dots + 2, dots + strlen(dots), hi))
		return false;
	return *lo <= *hi;
}
