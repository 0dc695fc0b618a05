/* search_seqtask.c -- `tally search --family=copy|reverse|sort`: sequence
 * tasks whose output is a letter (search/seqtask.h).  No program is
 * searched: the command prints the argument that none exists, a pair of
 * words checked by two implementations of the task -- for every depth
 * when the task needs the future (past-only programs), for depth <= 1
 * when two words with the same letter counts need different outputs --
 * and otherwise says that nothing was searched past that depth. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "cli/search_cmd.h"
#include "core/json.h"
#include "search/seqtask.h"

static void word_text(const SeqTask *t, const uint8_t *w, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = t->letters[w[i]];
	out[n] = '\0';
}

static json_t *pair_json(const SeqTask *t, const SeqPair *p, const char *kind)
{
	char u[SEQTASK_MAXLEN + 1], v[SEQTASK_MAXLEN + 1];
	char ou[2] = {t->letters[p->out_u], 0}, ov[2] = {t->letters[p->out_v], 0};
	word_text(t, p->u, p->nu, u);
	word_text(t, p->v, p->nv, v);
	json_t *o = json_object();
	json_object_set_new(o, "kind", json_string(kind));
	json_object_set_new(o, "words", json_pack("[ss]", u, v));
	json_object_set_new(o, "position", json_integer((json_int_t)p->pos));
	json_object_set_new(o, "outputs", json_pack("[ss]", ou, ov));
	return o;
}

static void print_pair(const SeqTask *t, const SeqPair *p, const char *why)
{
	char u[SEQTASK_MAXLEN + 1], v[SEQTASK_MAXLEN + 1];
	word_text(t, p->u, p->nu, u);
	word_text(t, p->v, p->nv, v);
	printf("  \"%s\" and \"%s\" %s, and the output at position %zu is %c for "
	       "the first, %c for the second (two implementations of the task "
	       "agree)\n", u, v, why, p->pos, t->letters[p->out_u],
	       t->letters[p->out_v]);
}

int search_seqtask_run(Search *s, const SeqTask *t)
{
	if (s->o.csv)
		return status_usage_error("--family=%s prints text or --json",
					  t->name);
	SeqPair fut, cnt;
	SeqPairStatus fs = seqtask_future_pair(t, 6, &fut);
	SeqPairStatus cs = fs == SEQPAIR_FOUND ? SEQPAIR_NONE
					       : seqtask_counts_pair(t, 6, &cnt);
	if (fs == SEQPAIR_MISMATCH || cs == SEQPAIR_MISMATCH) {
		fprintf(stderr, "tally: internal error: the two implementations "
			"of --family=%s disagree on the pair found\n", t->name);
		return EXIT_INTERNAL;
	}
	if (s->o.json) {
		json_t *o = json_envelope();
		json_object_set_new(o, "target", json_string(t->name));
		json_object_set_new(o, "target_kind", json_string("sequence task"));
		json_object_set_new(o, "definition", json_string(t->definition));
		json_object_set_new(o, "alphabet", json_string(t->letters));
		if (fs == SEQPAIR_FOUND) {
			json_object_set_new(o, "not_expressible",
					    json_string("past-only, any depth"));
			json_object_set_new(o, "argument",
					    pair_json(t, &fut, "future"));
		} else if (cs == SEQPAIR_FOUND) {
			json_object_set_new(o, "not_expressible",
					    json_string("depth <= 1"));
			json_object_set_new(o, "argument",
					    pair_json(t, &cnt, "counts"));
		}
		json_emit(o);
		return EXIT_NO;
	}
	printf("target: %s (--family=%s: a sequence task over", t->name, t->name);
	for (const char *c = t->letters; *c; c++)
		printf(" %c", *c);
	printf(" whose output at a position is a letter: %s)\n", t->definition);
	if (fs == SEQPAIR_FOUND) {
		printf("not expressible by a past-only program (C-RASP, TL[#] "
		       "without #>, with or without Y and MOD) at any depth:\n");
		print_pair(t, &fut, "share their first letters up to it");
		printf("  a past-only output at position i reads only w_1..w_i\n");
		printf("two-sided programs (#>): not searched\n");
		return EXIT_NO;
	}
	printf("no two words up to length 6 sharing a prefix need different "
	       "outputs in it: the future gives no argument\n");
	if (cs == SEQPAIR_FOUND) {
		printf("not expressible at depth <= 1 (without Y or MOD):\n");
		print_pair(t, &cnt, "have the same number of each letter and the "
				    "same last letter");
		printf("  a formula of depth <= 1 at a position reads only its "
		       "letter and counts of letter tests up to it\n");
	}
	printf("depth >= %d: not searched, and no argument is known here\n",
	       cs == SEQPAIR_FOUND ? 2 : 0);
	return EXIT_NO;
}
