/* search_outside.c -- `tally search --family=parity|mod3|dyck2`: a
 * target given by its membership function only (search/outside.h).  No
 * formula is searched: for every depth 0..--max-depth the command prints
 * the shortest pair it built that no formula of that depth within C, T
 * separates, checked by two exact checks that share no code, and says
 * "not definable at any depth" only for a pair whose refinement reached
 * a fixpoint before separating it. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "base/buf.h"
#include "cli/search_cmd.h"
#include "search/outside.h"

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

static void print_pair(const Search *s, const Outside *o, unsigned d,
		       const PairCert *p, const char *cls)
{
	char *u = text(o, &p->u), *v = text(o, &p->v), tm[32] = "";
	(void)s;
	printf("depth %u: within %s, no depth-<=%u formula separates \"%s\" (in) "
	       "and \"%s\" (out): %llu and %llu letters; shown by two exact "
	       "checks that share no code (blockref, blockcheck)%s\n", d, cls, d,
	       u, v, (unsigned long long)blockword_length(&p->u),
	       (unsigned long long)blockword_length(&p->v), tm);
	free(u);
	free(v);
}

int search_outside_run(Search *s, const Outside *o)
{
	if (s->o.json || s->o.csv)
		return status_usage_error("--family=%s prints text only (no --json "
				       "or --csv yet)", o->name);
	IndistBounds b = search_bounds(&s->o);
	b.two_sided = s->whole; /* --two-sided: pairs against #> too */
	char cls[80], desc[200];
	search_class_brief(b, cls, sizeof cls);
	indist_describe(b, desc, sizeof desc);
	printf("target: %s (--family=%s: a membership function, no formula)\n",
	       o->definition, o->name);
	printf("alphabet:");
	for (const char *c = o->letters; *c; c++)
		printf(" %c", *c);
	printf("\nbounds: C = %u, T = %u: %s\n", b.C, b.T, desc);
	printf("pairs: %s; for each depth the least n whose pair no formula of "
	       "the depth separates (n doubled, then bisected)\n", o->shape);
	fflush(stdout);
	Buf lens = {0};
	unsigned certified = 0;
	int status = EXIT_NO;
	bool any = false;
	for (unsigned d = 0; d <= s->maxd; d++) {
		PairCert p;
		bool never = false;
		search_progress(&s->o, "%s: a pair for depth %u", o->name, d);
		PairgenStatus st = outside_pair(o, d, b, (uint64_t)1 << 40,
						&s->o.lim, &p, &never);
		search_progress_done(&s->o);
		if (st == PAIRGEN_STOPPED) {
			status = limit_report(&s->o.lim, "the depths printed are "
					      "certified");
			break;
		}
		if (st == PAIRGEN_DISAGREE) {
			char *u = text(o, &p.u), *v = text(o, &p.v);
			fprintf(stderr, "tally: internal error: the two exact checks "
				"disagree on \"%s\" and \"%s\" at depth %u\n", u, v, d);
			free(u);
			free(v);
			pairgen_free(&p);
			buf_free(&lens);
			return EXIT_INTERNAL;
		}
		if (st == PAIRGEN_NONE) {
			printf("depth %u: no pair of this shape certified (every one "
			       "tried is separated at depth <= %u)\n", d, d);
			break;
		}
		print_pair(s, o, d, &p, cls);
		buf_printf(&lens, "%s%u: %llu", certified ? ", " : "", d,
			   (unsigned long long)blockword_length(&p.u));
		certified++;
		if (never && !any) {
			char *u = text(o, &p.u), *v = text(o, &p.v);
			printf("not definable within C = %u, T = %u at any depth: the "
			       "refinement of \"%s\" and \"%s\" reaches a fixpoint "
			       "before separating them\n", b.C, b.T, u, v);
			free(u);
			free(v);
			any = true;
		}
		pairgen_free(&p);
	}
	if (certified)
		printf("certified pair lengths (u) by depth: %s\n", lens.data);
	if (certified == s->maxd + 1)
		printf("no least depth: no formula of depth <= %u within %s "
		       "defines the target (a certified pair at every depth "
		       "0..%u)%s\n", s->maxd, cls, s->maxd, any ? ""
		       : "; no pair reached a fixpoint, so nothing is claimed "
			 "beyond depth --max-depth");
	buf_free(&lens);
	return status;
}
