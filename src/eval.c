/* eval.c -- the exact evaluator: the compiled streaming machine
 * (machine.c) for past-only formulas, and a column evaluator for whole
 * words.
 *
 * Column evaluator.  Future counts #> need the whole word: every node is
 * evaluated over all positions, node by node in id order (prefix sums for
 * #, suffix sums for #>).
 */
#include <config.h>
#include "eval.h"

#include <assert.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "mem.h"
#include "vec.h"

struct EvalSnapshot {
	MachineState st;
	const Machine *m;
};

struct Evaluator {
	const Store *s;
	Node *roots;
	size_t nroots;
	AcceptAt accept;
	bool streams, too_long;
	MachineCodes codes;
	Machine lean;
	MachineBlock blk;
	MachineState st;      /* the streaming state */
	MachineState scratch; /* EOS queries */
};

/* ---- the evaluator ------------------------------------------------------ */

static uint32_t code_of(const Evaluator *ev, Sym l)
{
	return machine_code(&ev->codes, l);
}

Evaluator *eval_new(const Store *s, const Node *roots, size_t nroots,
		    AcceptAt accept)
{
	Evaluator *ev = xcalloc(1, sizeof *ev);
	ev->s = s;
	ev->roots = xmalloc((nroots ? nroots : 1) * sizeof *ev->roots);
	memcpy(ev->roots, roots, nroots * sizeof *roots);
	ev->nroots = nroots;
	ev->accept = accept;
	ev->streams = true;
	for (size_t r = 0; r < nroots; r++)
		if (store_flags(s, roots[r]) & FLAG_FUTURE)
			ev->streams = false;
	machine_codes_init(&ev->codes, s, roots, nroots);
	if (ev->streams) {
		machine_init(&ev->lean, s, roots, nroots, false);
		machine_state_init(&ev->lean, &ev->st);
		machine_state_init(&ev->lean, &ev->scratch);
		machine_block_init(&ev->lean, &ev->blk);
	}
	return ev;
}

void eval_free(Evaluator *ev)
{
	if (!ev)
		return;
	if (ev->streams) {
		machine_state_free(&ev->lean, &ev->st);
		machine_state_free(&ev->lean, &ev->scratch);
		machine_block_free(&ev->blk);
		machine_free(&ev->lean);
	}
	machine_codes_free(&ev->codes);
	free(ev->roots);
	free(ev);
}

bool eval_streams(const Evaluator *ev)
{
	return ev->streams;
}

bool eval_too_long(const Evaluator *ev)
{
	return ev->too_long;
}

void eval_reset(Evaluator *ev)
{
	ev->too_long = false;
	if (ev->streams)
		machine_reset(&ev->lean, &ev->st);
}

void eval_push(Evaluator *ev, Sym letter)
{
	eval_push_many(ev, &letter, 1);
}

void eval_push_many(Evaluator *ev, const Sym *letters, size_t n)
{
	assert(ev->streams); /* #> needs the whole word: use eval_word */
	const Machine *p = &ev->lean;
	MachineState *st = &ev->st;
	if (n > MACHINE_MAX_POSITIONS - st->pos) {
		ev->too_long = true;
		n = (size_t)(MACHINE_MAX_POSITIONS - st->pos);
	}
	/* Short pushes (tally lang) step; long ones run in blocks. */
	if (!p->blockable || n < 16) {
		for (size_t i = 0; i < n; i++)
			machine_step(p, st, code_of(ev, letters[i]));
		return;
	}
	for (size_t done = 0; done < n;) {
		size_t m = n - done < p->blk ? n - done : p->blk;
		for (size_t i = 0; i < m; i++)
			ev->blk.codes[i] = code_of(ev, letters[done + i]);
		machine_run_block(p, st, &ev->blk, m);
		done += m;
	}
}

bool eval_accepts(Evaluator *ev, size_t root)
{
	assert(ev->streams); /* #> needs the whole word: use eval_word */
	const Machine *p = &ev->lean;
	MachineState *st = &ev->st;
	if (ev->accept == ACCEPT_EOS) {
		machine_state_copy(p, &ev->scratch, st);
		st = &ev->scratch;
		machine_step(p, st, (uint32_t)p->ncodes - 1);
	}
	machine_query(p, st);
	return machine_root(p, st, root);
}

EvalSnapshot *eval_snapshot_new(const Evaluator *ev)
{
	EvalSnapshot *snap = xcalloc(1, sizeof *snap);
	snap->m = &ev->lean;
	machine_state_init(snap->m, &snap->st);
	return snap;
}

void eval_save_to(const Evaluator *ev, EvalSnapshot *snap)
{
	machine_state_copy(&ev->lean, &snap->st, &ev->st);
}

EvalSnapshot *eval_save(const Evaluator *ev)
{
	EvalSnapshot *snap = eval_snapshot_new(ev);
	eval_save_to(ev, snap);
	return snap;
}

void eval_restore(Evaluator *ev, const EvalSnapshot *snap)
{
	machine_state_copy(&ev->lean, &ev->st, &snap->st);
	ev->too_long = false;
}

void eval_snapshot_free(EvalSnapshot *snap)
{
	if (!snap)
		return;
	machine_state_free(snap->m, &snap->st);
	free(snap);
}

/* ---- tables -------------------------------------------------------------- */

/* One node's values over the recorded positions: int64 (Booleans as 0/1)
 * or fmpz for the nodes whose bound is beyond int64. */
typedef struct {
	int64_t *v;
	fmpz *b;
} Col;

struct EvalTable {
	size_t first, last; /* recorded positions; empty when first > last */
	size_t len;
	Node max;
	uint32_t *col_of; /* node -> column, UINT32_MAX when absent */
	Col *cols;
	size_t ncols;
};

static EvalTable *table_new(const MachineFacts *f, size_t first, size_t last)
{
	EvalTable *t = xcalloc(1, sizeof *t);
	t->first = first;
	t->last = last;
	t->len = first <= last ? last - first + 1 : 0;
	t->max = f->max;
	t->col_of = xmalloc(((size_t)f->max + 1) * sizeof *t->col_of);
	for (Node n = 0; n <= f->max; n++) {
		t->col_of[n] = UINT32_MAX;
		if (n == 0 || !f->reach[n])
			continue;
		t->col_of[n] = (uint32_t)t->ncols++;
	}
	t->cols = xcalloc(t->ncols ? t->ncols : 1, sizeof *t->cols);
	for (Node n = 1; n <= f->max; n++) {
		if (t->col_of[n] == UINT32_MAX)
			continue;
		Col *c = &t->cols[t->col_of[n]];
		if (f->big[n])
			c->b = xcalloc(t->len ? t->len : 1, sizeof *c->b);
		else
			c->v = xcalloc(t->len ? t->len : 1, sizeof *c->v);
	}
	return t;
}

void eval_table_free(EvalTable *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->ncols; i++) {
		if (t->cols[i].b)
			for (size_t j = 0; j < t->len; j++)
				fmpz_clear(&t->cols[i].b[j]);
		free(t->cols[i].b);
		free(t->cols[i].v);
	}
	free(t->cols);
	free(t->col_of);
	free(t);
}

size_t eval_table_first(const EvalTable *t) { return t->first; }
size_t eval_table_last(const EvalTable *t) { return t->last; }

static const Col *table_col(const EvalTable *t, Node node, size_t pos,
			    size_t *i)
{
	if (node == 0 || node > t->max || t->col_of[node] == UINT32_MAX ||
	    pos < t->first || pos > t->last)
		return NULL;
	*i = pos - t->first;
	return &t->cols[t->col_of[node]];
}

bool eval_table_bool(const EvalTable *t, Node node, size_t pos)
{
	size_t i;
	const Col *c = table_col(t, node, pos, &i);
	return c && c->v && c->v[i] != 0;
}

void eval_table_int(const EvalTable *t, Node node, size_t pos, fmpz_t out)
{
	size_t i;
	const Col *c = table_col(t, node, pos, &i);
	if (!c)
		fmpz_zero(out);
	else if (c->b)
		fmpz_set(out, &c->b[i]);
	else
		fmpz_set_si(out, c->v[i]);
}

/* The positions a word is evaluated at: 0 for the empty word, else 1..n,
 * plus the end marker n+1 under ACCEPT_EOS. */
static void word_range(const Evaluator *ev, size_t n, size_t *lo, size_t *hi)
{
	*lo = n == 0 && ev->accept == ACCEPT_LAST ? 0 : 1;
	*hi = ev->accept == ACCEPT_EOS ? n + 1 : n;
}

static void col_get(const Col *c, size_t i, fmpz_t out)
{
	if (c->b)
		fmpz_set(out, &c->b[i]);
	else
		fmpz_set_si(out, c->v[i]);
}

/* The column evaluator: every reachable node over positions lo..hi of a
 * whole word, into a table with that range. */
static EvalTable *columns(const Evaluator *ev, const Sym *word, size_t n)
{
	const Store *s = ev->s;
	size_t lo, hi;
	word_range(ev, n, &lo, &hi);
	MachineFacts f;
	machine_facts_init(&f, s, ev->roots, ev->nroots, &ev->codes,
			   hi > 0 ? hi : 1);
	EvalTable *t = table_new(&f, lo, hi);
	size_t len = t->len, nc = f.ncodes;
	uint32_t *code = xmalloc(len * sizeof *code);
	for (size_t i = 0; i < len; i++) {
		size_t p = lo + i;
		code[i] = p >= 1 && p <= n ? code_of(ev, word[p - 1])
					   : (uint32_t)nc - 1;
	}
	fmpz_t x, y;
	fmpz_init(x);
	fmpz_init(y);
	for (Node nd = 1; nd <= f.max; nd++) {
		if (!f.reach[nd])
			continue;
		Col *c = &t->cols[t->col_of[nd]];
		const Node *k = store_kids(s, nd);
		const Col *k0 = store_nkids(s, nd) ? &t->cols[t->col_of[k[0]]] : NULL;
		Op op = store_op(s, nd);
		if (f.lf[nd]) {
			for (size_t i = 0; i < len; i++)
				c->v[i] = f.lfv[(size_t)nd * nc + code[i]];
			continue;
		}
		switch (op) {
		case OP_NOT:
			for (size_t i = 0; i < len; i++)
				c->v[i] = !k0->v[i];
			break;
		case OP_AND:
		case OP_OR:
			for (size_t i = 0; i < len; i++) {
				bool acc = op == OP_AND;
				for (uint32_t j = 0; j < store_nkids(s, nd); j++) {
					bool b = t->cols[t->col_of[k[j]]].v[i] != 0;
					acc = op == OP_AND ? acc && b : acc || b;
				}
				c->v[i] = acc;
			}
			break;
		case OP_CMP:
			for (size_t i = 0; i < len; i++) {
				int sg;
				if (k0->b)
					sg = fmpz_sgn(&k0->b[i]);
				else
					sg = (k0->v[i] > 0) - (k0->v[i] < 0);
				c->v[i] = machine_rel_holds(store_rel(s, nd), sg);
			}
			break;
		case OP_PREV:
			for (size_t i = 0; i < len; i++)
				c->v[i] = lo + i >= 2 ? k0->v[i - 1] : 0;
			break;
		case OP_MOD:
			for (size_t i = 0; i < len; i++)
				c->v[i] = (lo + i) % store_aux(s, nd) ==
					  store_aux2(s, nd);
			break;
		case OP_CONST:
			for (size_t i = 0; i < len; i++) {
				if (c->b)
					fmpz_set(&c->b[i], store_constant(s, nd));
				else
					c->v[i] = fmpz_get_si(store_constant(s, nd));
			}
			break;
		case OP_COUNT: {
			int64_t acc = 0;
			for (size_t i = 0; i < len; i++) {
				if (lo + i >= 1)
					acc += k0->v[i];
				c->v[i] = acc;
			}
			break;
		}
		case OP_FCOUNT: {
			int64_t acc = 0;
			for (size_t i = len; i-- > 0;) {
				if (lo + i >= 1)
					acc += k0->v[i];
				c->v[i] = acc;
			}
			break;
		}
		case OP_ITE:
		case OP_MIN:
		case OP_MAX:
			for (size_t i = 0; i < len; i++) {
				const Col *pick;
				if (op == OP_ITE) {
					pick = &t->cols[t->col_of[k0->v[i] ? k[1] : k[2]]];
					col_get(pick, i, x);
				} else {
					col_get(k0, i, x);
					col_get(&t->cols[t->col_of[k[1]]], i, y);
					if ((fmpz_cmp(y, x) < 0) == (op == OP_MIN))
						fmpz_swap(x, y);
				}
				if (c->b)
					fmpz_set(&c->b[i], x);
				else
					c->v[i] = fmpz_get_si(x);
			}
			break;
		case OP_ADD:
		case OP_MUL: {
			const Linear *l = &f.lin[nd];
			for (size_t i = 0; i < len; i++) {
				if (!c->b) {
					int64_t acc = fmpz_get_si(l->constant);
					for (size_t j = 0; j < l->n; j++)
						acc += fmpz_get_si(&l->coefs[j]) *
						       t->cols[t->col_of[l->atoms[j]]].v[i];
					c->v[i] = acc;
					continue;
				}
				fmpz_set(&c->b[i], l->constant);
				for (size_t j = 0; j < l->n; j++) {
					col_get(&t->cols[t->col_of[l->atoms[j]]], i, x);
					fmpz_addmul(&c->b[i], &l->coefs[j], x);
				}
			}
			break;
		}
		default: break;
		}
	}
	fmpz_clear(x);
	fmpz_clear(y);
	free(code);
	machine_facts_free(s, &f);
	return t;
}

/* Streaming with every node at every position, recording the window. */
static EvalTable *streamed(const Evaluator *ev, const Sym *word, size_t n,
			   size_t wlo, size_t whi)
{
	const Store *s = ev->s;
	size_t lo, hi;
	word_range(ev, n, &lo, &hi);
	if (wlo < lo)
		wlo = lo;
	if (whi > hi)
		whi = hi;
	MachineFacts f;
	machine_facts_init(&f, s, ev->roots, ev->nroots, &ev->codes,
			   MACHINE_MAX_POSITIONS + 1);
	Machine p;
	machine_init(&p, s, ev->roots, ev->nroots, true);
	EvalTable *t = table_new(&f, wlo, whi);
	MachineState st;
	machine_state_init(&p, &st);
	for (size_t pos = lo; pos <= hi; pos++) {
		if (pos >= 1)
			machine_step(&p, &st, pos <= n ? code_of(ev, word[pos - 1])
						    : (uint32_t)p.ncodes - 1);
		if (pos < wlo || pos > whi)
			continue;
		for (Node nd = 1; nd <= f.max; nd++) {
			if (!f.reach[nd])
				continue;
			Col *c = &t->cols[t->col_of[nd]];
			uint32_t sl = p.slot_of[nd];
			if (c->b)
				fmpz_set(&c->b[pos - wlo], &st.B[sl]);
			else
				c->v[pos - wlo] = st.V[sl];
		}
	}
	machine_state_free(&p, &st);
	machine_free(&p);
	machine_facts_free(s, &f);
	return t;
}

EvalTable *eval_table_window(Evaluator *ev, const Sym *word, size_t n,
			     size_t first, size_t last)
{
	if (ev->streams)
		return streamed(ev, word, n, first, last);
	EvalTable *all = columns(ev, word, n);
	if (first <= all->first && last >= all->last)
		return all;
	/* Keep the window only. */
	size_t wlo = first > all->first ? first : all->first;
	size_t whi = last < all->last ? last : all->last;
	MachineFacts f = {.max = all->max};
	f.reach = xcalloc((size_t)all->max + 1, 1);
	f.big = xcalloc((size_t)all->max + 1, sizeof *f.big);
	for (Node nd = 1; nd <= all->max; nd++) {
		f.reach[nd] = all->col_of[nd] != UINT32_MAX;
		f.big[nd] = f.reach[nd] && all->cols[all->col_of[nd]].b;
	}
	EvalTable *t = table_new(&f, wlo, whi);
	for (size_t c = 0; c < t->ncols; c++)
		for (size_t i = 0; i < t->len; i++) {
			size_t from = wlo + i - all->first;
			if (t->cols[c].b)
				fmpz_set(&t->cols[c].b[i], &all->cols[c].b[from]);
			else
				t->cols[c].v[i] = all->cols[c].v[from];
		}
	free(f.reach);
	free(f.big);
	eval_table_free(all);
	return t;
}

EvalTable *eval_table(Evaluator *ev, const Sym *word, size_t n)
{
	return eval_table_window(ev, word, n, 0, SIZE_MAX);
}

void eval_word(Evaluator *ev, const Sym *word, size_t n, bool *accepted)
{
	if (ev->streams) {
		eval_reset(ev);
		eval_push_many(ev, word, n);
		for (size_t r = 0; r < ev->nroots; r++)
			accepted[r] = eval_accepts(ev, r);
		return;
	}
	EvalTable *t = columns(ev, word, n);
	for (size_t r = 0; r < ev->nroots; r++)
		accepted[r] = eval_table_bool(t, ev->roots[r], t->last);
	eval_table_free(t);
}

const char *eval_accept_name(AcceptAt a)
{
	return a == ACCEPT_EOS ? "eos" : "last";
}

bool eval_accept_parse(const char *name, AcceptAt *out)
{
	if (strcmp(name, "last") == 0)
		*out = ACCEPT_LAST;
	else if (strcmp(name, "eos") == 0)
		*out = ACCEPT_EOS;
	else
		return false;
	return true;
}
