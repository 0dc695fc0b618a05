/* share.c -- the seam's one global and its helper (see share.h). */
#include <config.h>

#include "base/share.h"

#include <string.h>

#include "base/mem.h"

const Share *share_job;

void *share_bcast_bytes(const Share *sh, const void *p, size_t *len)
{
	uint64_t n = sh->rank == 0 ? *len : 0;
	sh->bcast(&n, sizeof n);
	void *out = xmalloc(n + 1);
	if (sh->rank == 0 && n)
		memcpy(out, p, n);
	if (n)
		sh->bcast(out, n);
	*len = n;
	return out;
}
