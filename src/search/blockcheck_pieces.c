/* blockcheck_pieces.c -- a word's runs cut into pieces by search, the
 * pieces matched to the classes of the next level. */
#include <config.h>

#include "search/blockcheck_pieces.h"

#include "base/limit.h"

/* Positions first and at (1-based in the run) apart? */
static int run_apart(Check *k, const Walk *w, uint32_t c0, uint64_t first,
		     uint64_t at)
{
	Vec a, b;
	blockcheck_vec_at(w, c0, first, &a);
	blockcheck_vec_at(w, c0, at, &b);
	int r = blockcheck_apart(k, &a, &b, k->piece);
	blockcheck_vec_free(&a);
	blockcheck_vec_free(&b);
	if (r < 0)
		k->undecided = true;
	return r;
}

/* The last position of the run that no comparison separates from
 * `first`: doubling, then bisection (apartness grows with the distance). */
static uint64_t piece_end(Check *k, const Walk *w, uint32_t c0,
			  uint64_t first, uint64_t len)
{
	uint64_t good = first, step = 1, bad = len + 1;
	k->piece++;
	while (good < len) {
		uint64_t t = len - good < step ? len : good + step;
		if (run_apart(k, w, c0, first, t) != 0) {
			bad = t;
			break;
		}
		good = t;
		step *= 2;
	}
	while (bad - good > 1) {
		uint64_t mid = good + (bad - good) / 2;
		if (run_apart(k, w, c0, first, mid) != 0)
			bad = mid;
		else
			good = mid;
	}
	return good;
}

bool blockcheck_next_level(Check *k, Classes *cs, const Segs *in,
			   size_t nbelow, Segs *out)
{
	Walk w;
	blockcheck_walk_start(&w, in, nbelow, k->stride == 2);
	bool ok = true;
	for (size_t r = 0; r < in->n && ok; r++) {
		uint32_t c0 = in->s[r].cls;
		uint64_t len = in->s[r].len, first = 1;
		cs->runs++;
		while (first <= len) {
			if (limit_poll(k->lim)) {
				ok = false;
				break;
			}
			uint64_t end = piece_end(k, &w, c0, first, len);
			Vec v;
			blockcheck_vec_at(&w, c0, first, &v);
			blockcheck_segs_push(out, blockcheck_classify(k, cs, c0, &v),
					     end - first + 1);
			first = end + 1;
		}
		blockcheck_walk_past(&w, c0, len);
	}
	blockcheck_walk_free(&w);
	return ok;
}
