/* blockcheck.c -- the second check of block pairs, level by level: the
 * letters as level 0, each level's words built from the one below
 * (blockcheck_pieces.c), the last level from the last positions
 * (blockcheck_last.c). */
#include <config.h>

#include "search/blockcheck.h"

#include <stdlib.h>

#include "base/mem.h"
#include "search/blockcheck_last.h"
#include "search/blockcheck_pieces.h"

enum { CHECK_MAX_DEPTH = 64 };

/* The letters as the classes of level 0, numbered as they come. */
static size_t letters(const BlockWord *const *w, size_t nletters, Segs *out)
{
	int *num = xmalloc((nletters + 1) * sizeof *num);
	for (size_t a = 0; a <= nletters; a++)
		num[a] = -1;
	size_t n = 0;
	for (int i = 0; i < 2; i++)
		for (size_t r = 0; r < w[i]->n; r++) {
			uint8_t a = w[i]->letter[r];
			if (num[a] < 0)
				num[a] = (int)n++;
			blockcheck_segs_push(&out[i], (uint32_t)num[a], w[i]->len[r]);
		}
	free(num);
	return n;
}

unsigned blockcheck_pair(const BlockWord *u, const BlockWord *v,
			 size_t nletters, unsigned maxd, IndistBounds b,
			 struct Limits *lim)
{
	bool eu = blockword_length(u) == 0, ev = blockword_length(v) == 0;
	if (eu || ev)
		return eu && ev ? BLOCKCHECK_NEVER : 0;
	Check k;
	blockcheck_state_init(&k, b, lim);
	const BlockWord *w[2] = {u, v};
	Segs cur[2] = {{0}, {0}};
	size_t ncls = letters(w, nletters, cur);
	unsigned answer = BLOCKCHECK_NONE;
	bool exact = true;
	for (unsigned d = 0;; d++) {
		if (cur[0].s[cur[0].n - 1].cls != cur[1].s[cur[1].n - 1].cls) {
			answer = exact ? d : BLOCKCHECK_UNDECIDED;
			break;
		}
		if (d == maxd || d == CHECK_MAX_DEPTH)
			break;
		if (d + 1 == maxd) {
			int r = blockcheck_last_apart(&k, cur, ncls);
			answer = r == 0 ? BLOCKCHECK_NONE
				 : r > 0 && exact ? maxd : BLOCKCHECK_UNDECIDED;
			break;
		}
		Classes cs = {0};
		Segs next[2] = {{0}, {0}};
		bool ok = true;
		k.undecided = false;
		for (int i = 0; i < 2 && ok; i++)
			ok = blockcheck_next_level(&k, &cs, &cur[i], ncls, &next[i]);
		size_t n = cs.n;
		blockcheck_classes_free(&cs);
		for (int i = 0; i < 2; i++) {
			free(cur[i].s);
			cur[i] = next[i];
		}
		if (!ok) {
			answer = BLOCKCHECK_STOPPED;
			break;
		}
		exact &= !k.undecided;
		if (n == ncls && exact) {
			answer = BLOCKCHECK_NEVER;
			break;
		}
		ncls = n;
	}
	free(cur[0].s);
	free(cur[1].s);
	blockcheck_state_free(&k);
	return answer;
}
