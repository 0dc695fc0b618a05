/* gen_graph -- the inside of a GenStates (gen_states.h) and its
 * reading, shared by gen_states.c (one process), gen_unrank.c (its
 * counts in machine words) and gen_share.c (the count tables shared
 * out over the ranks of a job), which calls nothing of gen_states.c.
 * Nothing outside the three includes it.
 */
#ifndef TALLY_GEN_GRAPH_H
#define TALLY_GEN_GRAPH_H

#include "gen/gen_states.h"
#include "machine/machine.h"

struct Share;

struct GenStates {
	Machine m;
	size_t nletters;
	uint32_t *code;   /* per letter index: its machine code */
	uint32_t *same;   /* per letter: the first letter with its code */
	size_t nlevels;
	size_t *first;    /* first[d]: the first state of level d; nlevels+1 */
	uint32_t *next;   /* state * nletters + letter */
	size_t next_cap;
	uint32_t *pair;   /* two letters at once: (state * nletters + a) *
			   * nletters + b; NULL when too large */
	uint8_t *cls;     /* class bits per state */
	size_t n, cap;    /* states */
	fmpz *cnt[2];     /* per state (shared out: per state this rank owns,
			   gen_share.h): completions of the aim, by class */
	size_t ncnt;      /* the length of cnt[c] */
	size_t aim;       /* the length cnt counts towards; SIZE_MAX: none */
	/* cnt as fixed-width numbers (gen_unrank.h): limbs[c] words a
	 * state, for the states of levels 0..aim; NULL shared out */
	uint64_t *lcnt[2];
	size_t limbs[2], lcnt_cap[2];
	fmpz *total[2];   /* per length, by class */
	uint32_t *dist;   /* gen_states_horizon: letters to a member */
	size_t nclamped;
	bool domain;
	/* Shared out over a job (share.h, gen_share.h); sh NULL: one
	 * process.  Level d's states own_lo[d] .. own_lo[d] + own_n[d] are
	 * this rank's (for the current aim), at cnt[c][own_base[d] + s -
	 * own_lo[d]]. */
	const struct Share *sh;
	Limits *lim;
	size_t *own_lo, *own_n, *own_base;
	/* The aim's blocks: rank q's states of level d are cut[d * (size +
	 * 1) + q] .. cut[d * (size + 1) + q + 1].  The states of level
	 * d + 1 this rank owns that rank q's block of level d reaches:
	 * give[give_at[d * size + q] .. give_at[d * size + q + 1]). */
	size_t *cut;
	uint32_t *give;
	size_t *give_at, give_cap;
};

/* A class's states: members (in the language and the domain), or
 * non-members in the domain. */
static inline bool gen_states_in_class(unsigned cls, bool member)
{
	return member ? cls == (GEN_IN | GEN_DOMAIN) : cls == GEN_DOMAIN;
}

/* The graph's reading, which the one-process code (gen_states.c) and the
 * shared-out counts (gen_share.c) both walk: a state's successor by
 * letter index (gen_states_next is the same for the other modules), and
 * the most states a level has. */
static inline uint32_t gen_states_succ(const GenStates *g, uint32_t state,
				       size_t letter)
{
	return g->next[(size_t)state * g->nletters + letter];
}

static inline size_t gen_states_widest(const GenStates *g)
{
	size_t w = 1;
	for (size_t d = 0; d < g->nlevels; d++)
		if (g->first[d + 1] - g->first[d] > w)
			w = g->first[d + 1] - g->first[d];
	return w;
}

/* gen_unrank.c: the table of lcnt after gen_states_aim (one process). */
void gen_unrank_table(GenStates *g);

#endif
