/* bank.c -- the bank (bank.h): its lifetime, its entries and their
 * signatures, inserting a candidate, an entry's Node, the limits; built
 * layer by layer in bank_build.c, shared over processes in
 * bank_share.c. */
#include <config.h>

#include "search/bank.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limit.h"
#include "base/mem.h"
#include "search/bank_impl.h"

Bank *bank_new(const Sample *S, Store *st, const BankOptions *opt)
{
	Bank *b = xcalloc(1, sizeof *b);
	b->S = S;
	b->st = st;
	b->o = *opt;
	if (b->o.jobs == 0)
		b->o.jobs = 1;
	b->set = sigset_new(S->nwords);
	b->built = -1;
	b->sh = share_job;
	if (b->sh) {
		b->out = xcalloc((size_t)b->sh->size, sizeof *b->out);
		int64_t facts[8] = {(int64_t)S->nbits, (int64_t)S->nwords,
				    (int64_t)S->nletters, b->o.C, b->o.counts,
				    b->o.base, b->o.base1, (int64_t)b->o.max_sigs};
		b->sh->begin(sig_hash((const Word64 *)facts, 8));
	}
	if (b->o.C == 0)
		b->o.C = 1;
	if (b->o.counts >= 2)
		snprintf(b->grammar, sizeof b->grammar,
			 "comparisons of one count with constants within [-%u, %u], "
			 "of two counts a1 #[psi1] + a2 #[psi2] with coefficients "
			 "within [-%u, %u] over every entry of depth 0 and the %u "
			 "smallest of each deeper depth (%u of depth 1 at depth 2); "
			 "Q_x & atom, Q_x | atom", b->o.C, b->o.C, b->o.C,
			 b->o.C, b->o.base, b->o.base1 ? b->o.base1 : b->o.base);
	else
		snprintf(b->grammar, sizeof b->grammar,
			 "comparisons of one count with constants within [-%u, %u]; "
			 "Q_x & atom, Q_x | atom", b->o.C, b->o.C);
	return b;
}

void bank_free(Bank *b)
{
	if (!b)
		return;
	sigset_free(b->set);
	VEC_FREE(b->e);
	for (int r = 0; b->sh && r < b->sh->size; r++)
		VEC_FREE(b->out[r]);
	free(b->out);
	free(b->focus);
	for (size_t i = 0; i < b->pins.len; i++)
		free(b->pins.data[i]);
	VEC_FREE(b->pins);
	bank_share_free(b);
	free(b);
}

unsigned bank_depth(const Bank *b)
{
	return b->built < 0 ? 0 : (unsigned)b->built + b->top_atoms;
}

size_t bank_count(const Bank *b)
{
	return b->built < 0 ? 0 : b->first[bank_depth(b) + 1];
}
const Entry *bank_entry(const Bank *b, size_t i) { return &b->e.data[i]; }
size_t bank_first(const Bank *b, unsigned d) { return b->first[d]; }
const LayerStats *bank_stats(const Bank *b, unsigned d) { return &b->stats[d]; }
const char *bank_grammar(const Bank *b) { return b->grammar; }

size_t bank_bytes(const Bank *b)
{
	return sigset_bytes(b->set) + b->e.cap * sizeof(Entry) +
	       store_node_count(b->st) * 64;
}

const Share *bank_share(const Bank *b) { return b->sh; }

bool bank_mine(const Bank *b, const Entry *e)
{
	return !b->sh || e->owner == b->sh->rank;
}

const Word64 *bank_canonical(const Bank *b, const Entry *e)
{
	if (bank_mine(b, e))
		return sigset_get(b->set, e->sig);
	return e->pin ? b->pins.data[e->pin - 1] : NULL;
}

void bank_sig(const Bank *b, const Entry *e, Word64 *out)
{
	const Word64 *c = bank_canonical(b, e);
	if (!c) {
		fprintf(stderr, "tally: internal error: a signature this process "
			"does not hold (bank.c)\n");
		abort();
	}
	if (e->neg)
		sig_not(out, c, b->S->valid, b->S->nwords);
	else
		memcpy(out, c, b->S->nwords * sizeof(Word64));
}

void bank_cand(const Sample *S, Word64 *sig, Cand *c)
{
	c->neg = sig_canonical(sig, S->valid, S->nwords);
	c->hash = sig_hash(sig, S->nwords);
}

void bank_append(Bank *b, Entry e)
{
	e.linear = e.kind == ENTRY_LIN ||
		   ((e.kind == ENTRY_ATOM || e.kind == ENTRY_COMBO ||
		     e.kind == ENTRY_PAIR) && b->e.data[e.child].linear) ||
		   (e.kind == ENTRY_PAIR && b->e.data[e.child2].linear);
	e.node = NODE_NONE;
	VEC_PUSH(b->e, e);
}

/* Inserts a candidate; a fresh one becomes an entry (a recipe: its node
 * is built on first use). */
/* Does sig tell a focus pair apart? */
static bool in_focus(const Bank *b, const Word64 *sig)
{
	for (size_t k = 0; k < b->nfocus; k++)
		if (sig_bit(sig, b->focus[k]) != sig_bit(sig, b->focus[b->nfocus + k]))
			return true;
	return false;
}

static bool insert(Bank *b, const Word64 *sig, const Cand *c, Entry e)
{
	if (b->focus_only && !in_focus(b, sig)) {
		b->stats[e.depth].generated++;
		return false;
	}
	bool fresh;
	size_t i = sigset_insert_hashed(b->set, sig, c->hash, &fresh);
	b->stats[e.depth].generated++;
	if (!fresh)
		return false;
	b->stats[e.depth].kept++;
	e.sig = (uint32_t)i;
	e.neg = c->neg;
	bank_append(b, e);
	return true;
}

void bank_emit(Bank *b, uint64_t key, const Word64 *sig, const Cand *c,
	       Entry e)
{
	if (b->sh)
		bank_share_queue(b, key, sig, c, e);
	else
		insert(b, sig, c, e);
}

static Node letter(Bank *b, size_t x)
{
	return store_make_letter(b->st, b->S->letters[x]);
}

static Node count_of(Bank *b, Node f, bool fut)
{
	return fut ? store_make_fcount(b->st, f) : store_make_count(b->st, f);
}

static Node scaled_count(Bank *b, int a, Node f, bool fut)
{
	fmpz_t c;
	fmpz_init_set_si(c, a);
	Node t = store_make_scale(b->st, c, count_of(b, f, fut));
	fmpz_clear(c);
	return t;
}

static Node build_node(Bank *b, const Entry *e)
{
	Store *st = b->st;
	switch (e->kind) {
	case ENTRY_BASE: {
		if (e->c == 0)
			return store_make_true(st);
		Node kids[8];
		size_t n = 0;
		for (size_t x = 0; x < b->S->nletters && x < 8; x++)
			if (e->c >> x & 1)
				kids[n++] = letter(b, x);
		return store_make_or(st, kids, n);
	}
	case ENTRY_ATOM: {
		Node psi = bank_node(b, e->child);
		if (e->pol)
			psi = store_make_not(st, psi);
		return store_make_cmp(st, (Rel)e->rel, count_of(b, psi, e->fut),
				      store_make_const_si(st, e->c));
	}
	case ENTRY_LIN: {
		Node p1 = bank_node(b, e->child), p2 = bank_node(b, e->child2);
		if (e->pol)
			p1 = store_make_not(st, p1);
		if (e->pol2)
			p2 = store_make_not(st, p2);
		return store_make_cmp(st, (Rel)e->rel,
				      store_make_add2(st, scaled_count(b, e->a1, p1, e->fut),
						      scaled_count(b, e->a2, p2, e->fut2)),
				      store_make_const_si(st, e->c));
	}
	case ENTRY_COMBO: {
		Node at = bank_node(b, e->child);
		if (e->y & 1)
			at = store_make_not(st, at);
		Node q = letter(b, e->x);
		return e->y < 2 ? store_make_and2(st, q, at) : store_make_or2(st, q, at);
	}
	case ENTRY_PAIR: {
		Node l[3] = {letter(b, e->x), bank_node(b, e->child),
			     bank_node(b, e->child2)};
		for (int k = 0; k < 2; k++)
			if (e->y >> k & 1)
				l[k + 1] = store_make_not(st, l[k + 1]);
		return store_make_and(st, l, 3);
	}
	}
	return NODE_NONE;
}

Node bank_node(Bank *b, size_t i)
{
	/* children have smaller indices: the recursion is as deep as the
	 * formula's depth times two */
	if (b->e.data[i].node == NODE_NONE) {
		Entry e = b->e.data[i];
		b->e.data[i].node = build_node(b, &e);
	}
	return b->e.data[i].node;
}

BankStop bank_limit_stop(Limits *lim)
{
	if (!limit_check(lim))
		return BANK_OK;
	return lim->hit == LIMIT_TIME ? BANK_TIME : BANK_MEMORY;
}

BankStop bank_stop_now(const Bank *b)
{
	if (!b->sh)
		return bank_limit_stop(b->o.limits);
	if (!b->o.limits)
		return BANK_OK;
	b->sh->agree(b->o.limits);
	LimitKind k = b->o.limits->hit;
	return k == LIMIT_NONE ? BANK_OK : k == LIMIT_TIME ? BANK_TIME : BANK_MEMORY;
}

static size_t entry_bytes(const Bank *b);

/* (the signatures are the entries, on every rank) */
BankStop bank_block_end(Bank *b)
{
	if (b->o.progress && b->built >= 0)
		b->o.progress(b->o.progress_ctx, bank_depth(b) + !b->top_atoms,
			      b->e.len);
	if (b->o.max_sigs && b->e.len >= b->o.max_sigs)
		return BANK_CAP;
	BankStop stop = bank_stop_now(b);
	if (stop != BANK_OK || !b->part_cap || b->e.len < b->part_cap)
		return stop;
	/* past the part's share: with a focus, only what separates it, up
	 * to the whole budget */
	if (!b->nfocus || b->sh ||
	    b->e.len >= b->o.max_bytes / entry_bytes(b))
		return BANK_FULL;
	b->focus_only = true;
	return BANK_OK;
}

void bank_set_focus(Bank *b, const size_t *pos, const size_t *neg, size_t n)
{
	if (n > BANK_FOCUS_MAX)
		n = BANK_FOCUS_MAX;
	free(b->focus);
	b->focus = n ? xmalloc(2 * n * sizeof *b->focus) : NULL;
	for (size_t k = 0; k < n; k++) {
		b->focus[k] = pos[k];
		b->focus[n + k] = neg[k];
	}
	b->nfocus = n;
}

bool bank_tight(const Bank *b)
{
	return b->o.max_bytes && !b->sh &&
	       bank_estimate(b) > b->o.max_bytes / 4;
}

/* Bytes per entry over the whole job (its memory bound is the job's):
 * the recipe on every process, the signature with its hash set's slot
 * and hash on its owner. */
static size_t entry_bytes(const Bank *b)
{
	size_t ranks = b->sh ? (size_t)b->sh->size : 1;
	return ranks * sizeof(Entry) + b->S->nwords * sizeof(Word64) + 24;
}

size_t bank_estimate(const Bank *b)
{
	return b->e.len * entry_bytes(b);
}

void bank_part_start(Bank *b)
{
	b->part_cap = 0;
	if (!b->o.max_bytes)
		return;
	size_t all = b->o.max_bytes / entry_bytes(b);
	size_t left = all > b->e.len ? all - b->e.len : 0;
	b->part_cap = b->e.len + (left / 2 > BANK_CUT_MIN ? left / 2 : BANK_CUT_MIN);
}

BankStop bank_part_end(Bank *b, unsigned d, BankStop stop)
{
	b->part_cap = 0;
	if (b->focus_only)
		b->stats[d].cut = true;
	b->focus_only = false;
	if (stop != BANK_FULL)
		return stop;
	b->stats[d].cut = true;
	return BANK_OK;
}

bool bank_cut(const Bank *b, unsigned d)
{
	for (unsigned k = 0; k <= d && k <= MAXD; k++)
		if (b->stats[k].cut)
			return true;
	return false;
}

double bank_seconds(const Bank *b) { return b->seconds; }
Limits *bank_limits(const Bank *b) { return b->o.limits; }
double bank_cpu_seconds(const Bank *b) { return b->cpu; }
