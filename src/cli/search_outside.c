/* search_outside.c -- `tally search --family=parity|mod3|dyck2` (or -f
 * with one of these names): a target given by its membership function
 * only (search/outside.h).  No formula is searched: for every depth
 * 0..--max-depth the command prints the shortest pair it built that no
 * formula of that depth within C, T separates, checked by two exact
 * checks that share no code, trying the family's shapes of pairs in
 * order; where none certifies, exactly what was tried.  "not definable
 * at any depth" only for a pair whose refinement reached a fixpoint
 * before separating it.  Text, or one JSON object (--json). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "base/buf.h"
#include "cli/search_cmd.h"
#include "core/json.h"
#include "search/outside.h"

/* The largest size n of a pair tried: 2^20 (the pairs of PARITY and MOD3
 * to depth 6 have n <= 65; a shape that no size up to here certifies is
 * reported with what was tried). */
#define OUTSIDE_MAX_N ((uint64_t)1 << 20)

static char *text(const Outside *o, const BlockWord *w)
{
	char names[8][2] = {{0}};
	const char *ptr[8];
	for (size_t i = 0; i < 8 && o->letters[i]; i++) {
		names[i][0] = o->letters[i];
		ptr[i] = names[i];
	}
	return blockword_text(w, ptr);
}

/* One depth's answer: the pair of the first shape that certifies, or
 * what every shape tried. */
typedef struct {
	PairgenStatus st;
	unsigned shape;           /* the shape of the pair (FOUND) */
	PairCert p;
	bool never;
	unsigned nshapes;         /* shapes tried */
	OutsideTried tried[OUTSIDE_SHAPES];
} Depth;

static void find_pair(Search *s, const Outside *o, unsigned d, IndistBounds b,
		      Depth *out)
{
	*out = (Depth){.st = PAIRGEN_NONE};
	for (unsigned k = 0; k < OUTSIDE_SHAPES && o->shapes[k].desc; k++) {
		search_progress(&s->o, "%s: a pair for depth %u (shape %u)",
				o->name, d, k + 1);
		out->nshapes = k + 1;
		out->st = outside_pair(o, k, d, b, OUTSIDE_MAX_N, &s->o.lim,
				       &out->p, &out->never, &out->tried[k]);
		search_progress_done(&s->o);
		out->shape = k;
		if (out->st != PAIRGEN_NONE)
			return;
	}
}

/* "shape 1 (...): sizes n = 2..2^40 (40 sizes; u up to L letters), the
 * largest separated at depth e; shape 2 ..." */
static void tried_text(const Outside *o, const Depth *dp, Buf *b)
{
	for (unsigned k = 0; k < dp->nshapes; k++) {
		const OutsideTried *t = &dp->tried[k];
		buf_printf(b, "%sshape %u (%s): ", k ? "; " : "", k + 1,
			   o->shapes[k].desc);
		if (!t->sizes) {
			buf_printf(b, "no pair of this shape");
			continue;
		}
		buf_printf(b, "%u sizes n = %llu..%llu doubling (u up to %llu "
			   "letters), the largest separated at depth %u", t->sizes,
			   (unsigned long long)t->nmin, (unsigned long long)t->nmax,
			   (unsigned long long)t->ulen, t->last_sep);
	}
}

static void print_pair(const Outside *o, unsigned d, const Depth *dp,
		       const char *cls)
{
	char *u = text(o, &dp->p.u), *v = text(o, &dp->p.v), sh[32] = "";
	if (dp->shape)
		snprintf(sh, sizeof sh, " (shape %u)", dp->shape + 1);
	printf("depth %u: within %s, no depth-<=%u formula separates \"%s\" (in) "
	       "and \"%s\" (out): %llu and %llu letters; shown by two exact "
	       "checks that share no code (blockref, blockcheck)%s\n", d, cls, d,
	       u, v, (unsigned long long)blockword_length(&dp->p.u),
	       (unsigned long long)blockword_length(&dp->p.v), sh);
	free(u);
	free(v);
}

static json_t *depth_json(const Outside *o, unsigned d, const Depth *dp)
{
	json_t *j = json_object();
	json_object_set_new(j, "depth", json_integer(d));
	json_object_set_new(j, "certified", json_boolean(dp->st == PAIRGEN_FOUND));
	if (dp->st == PAIRGEN_FOUND) {
		char *u = text(o, &dp->p.u), *v = text(o, &dp->p.v);
		json_object_set_new(j, "pair", json_pack("[s, s]", u, v));
		json_object_set_new(j, "lengths", json_pack("[I, I]",
			(json_int_t)blockword_length(&dp->p.u),
			(json_int_t)blockword_length(&dp->p.v)));
		json_object_set_new(j, "shape", json_integer(dp->shape + 1));
		json_object_set_new(j, "fixpoint", json_boolean(dp->never));
		free(u);
		free(v);
	} else {
		json_t *arr = json_array();
		for (unsigned k = 0; k < dp->nshapes; k++) {
			const OutsideTried *t = &dp->tried[k];
			json_array_append_new(arr, json_pack(
				"{s:I, s:I, s:I, s:I, s:I, s:I}", "shape",
				(json_int_t)k + 1, "sizes", (json_int_t)t->sizes,
				"n_min", (json_int_t)t->nmin, "n_max",
				(json_int_t)t->nmax, "u_length_max",
				(json_int_t)t->ulen, "separated_at_depth",
				(json_int_t)t->last_sep));
		}
		json_object_set_new(j, "tried", arr);
	}
	return j;
}

static void print_header(const Search *s, const Outside *o, IndistBounds b)
{
	char desc[200];
	indist_describe(b, desc, sizeof desc);
	printf("target: %s (--family=%s: a membership function, no formula)\n",
	       o->definition, o->name);
	printf("alphabet:");
	for (const char *c = o->letters; *c; c++)
		printf(" %c", *c);
	printf("\nbounds: C = %u, T = %u: %s\n", b.C, b.T, desc);
	printf("pairs: %s; for each depth the least n whose pair no formula of "
	       "the depth separates (n doubled, then bisected)\n",
	       o->shapes[0].desc);
	for (unsigned k = 1; k < OUTSIDE_SHAPES && o->shapes[k].desc; k++)
		printf("pairs, shape %u (where the ones before certify none): %s\n",
		       k + 1, o->shapes[k].desc);
	(void)s;
	fflush(stdout);
}

static json_t *envelope(const Search *s, const Outside *o, IndistBounds b)
{
	json_t *j = json_envelope(), *ab = json_array(), *sh = json_array();
	char one[2] = "";
	for (const char *c = o->letters; *c; c++) {
		one[0] = *c;
		json_array_append_new(ab, json_string(one));
	}
	for (unsigned k = 0; k < OUTSIDE_SHAPES && o->shapes[k].desc; k++)
		json_array_append_new(sh, json_string(o->shapes[k].desc));
	json_object_set_new(j, "target", json_string(o->definition));
	json_object_set_new(j, "family", json_string(o->name));
	json_object_set_new(j, "alphabet", ab);
	json_object_set_new(j, "max_const", json_integer(b.C));
	json_object_set_new(j, "counts", json_integer(b.T));
	json_object_set_new(j, "max_depth", json_integer(s->maxd));
	json_object_set_new(j, "shapes", sh);
	json_object_set_new(j, "least_depth", json_null());
	return j;
}

int search_outside_run(Search *s, const Outside *o)
{
	if (s->o.csv)
		return status_usage_error("--family=%s prints text or --json (no "
				       "--csv)", o->name);
	IndistBounds b = search_bounds(&s->o);
	b.two_sided = s->whole; /* --two-sided: pairs against #> too */
	char cls[80];
	search_class_brief(b, cls, sizeof cls);
	bool json = s->o.json;
	json_t *j = json ? envelope(s, o, b) : NULL, *depths = json_array();
	if (!json)
		print_header(s, o, b);
	Buf lens = {0};
	unsigned certified = 0;
	int status = EXIT_NO, deepest = -1;
	bool any = false, stopped = false;
	for (unsigned d = 0; d <= s->maxd; d++) {
		Depth dp;
		find_pair(s, o, d, b, &dp);
		if (dp.st == PAIRGEN_STOPPED) {
			stopped = true;
			break;
		}
		if (dp.st == PAIRGEN_DISAGREE) {
			char *u = text(o, &dp.p.u), *v = text(o, &dp.p.v);
			fprintf(stderr, "tally: internal error: the two exact checks "
				"disagree on \"%s\" and \"%s\" at depth %u\n", u, v, d);
			free(u);
			free(v);
			pairgen_free(&dp.p);
			buf_free(&lens);
			json_decref(j);
			json_decref(depths);
			return EXIT_INTERNAL;
		}
		if (json)
			json_array_append_new(depths, depth_json(o, d, &dp));
		if (dp.st == PAIRGEN_NONE) {
			if (!json) {
				Buf t = {0};
				tried_text(o, &dp, &t);
				printf("depth %u: no pair certified; tried %s\n", d,
				       t.data);
				buf_free(&t);
			}
			break;
		}
		if (!json)
			print_pair(o, d, &dp, cls);
		buf_printf(&lens, "%s%u: %llu", certified ? ", " : "", d,
			   (unsigned long long)blockword_length(&dp.p.u));
		certified++;
		deepest = (int)d;
		if (dp.never && !any && !json) {
			char *u = text(o, &dp.p.u), *v = text(o, &dp.p.v);
			printf("not definable within C = %u, T = %u at any depth: the "
			       "refinement of \"%s\" and \"%s\" reaches a fixpoint "
			       "before separating them\n", b.C, b.T, u, v);
			free(u);
			free(v);
		}
		any = any || dp.never;
		pairgen_free(&dp.p);
	}
	if (json) {
		json_object_set_new(j, "depths", depths);
		json_object_set_new(j, "certified_depth", deepest >= 0
				    ? json_integer(deepest) : json_null());
		json_object_set_new(j, "every_depth", json_boolean(
			certified == s->maxd + 1));
		json_object_set_new(j, "not_definable_at_any_depth",
				    json_boolean(any));
		json_object_set_new(j, "stopped", json_boolean(stopped));
		json_emit(j);
	} else {
		json_decref(depths);
		if (certified)
			printf("certified pair lengths (u) by depth: %s\n", lens.data);
		if (certified == s->maxd + 1)
			printf("no least depth: no formula of depth <= %u within %s "
			       "defines the target (a certified pair at every depth "
			       "0..%u)%s\n", s->maxd, cls, s->maxd, any ? ""
			       : "; no pair reached a fixpoint, so nothing is "
				 "claimed beyond depth --max-depth");
	}
	fflush(stdout);
	if (stopped)
		status = limit_report(&s->o.lim, "the depths printed are "
				      "certified");
	buf_free(&lens);
	return status;
}
