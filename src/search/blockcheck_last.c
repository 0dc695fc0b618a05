/* blockcheck_last.c -- the last level from the two last positions. */
#include <config.h>

#include "search/blockcheck_last.h"

/* A word's last position's counts of the classes of the level below
 * (past, and two-sided future): the runs before the last one, then the
 * last one whole. */
static void last_vec(const Check *k, const Segs *in, size_t nbelow, Vec *out)
{
	Walk w;
	blockcheck_walk_start(&w, in, nbelow, k->stride == 2);
	for (size_t r = 0; r + 1 < in->n; r++)
		blockcheck_walk_past(&w, in->s[r].cls, in->s[r].len);
	blockcheck_vec_at(&w, in->s[in->n - 1].cls, in->s[in->n - 1].len, out);
	blockcheck_walk_free(&w);
}

int blockcheck_last_apart(Check *k, const Segs *cur, size_t ncls)
{
	Vec va, vb;
	last_vec(k, &cur[0], ncls, &va);
	last_vec(k, &cur[1], ncls, &vb);
	int r = blockcheck_apart(k, &va, &vb, 0);
	blockcheck_vec_free(&va);
	blockcheck_vec_free(&vb);
	return r;
}
