/* eval.c -- the exact evaluator: a compiled streaming machine for
 * past-only formulas and a column evaluator for whole words.
 *
 * Streaming machine.  The reachable DAG is compiled once into a flat
 * instruction array over value slots (int64, or FLINT fmpz for the
 * nodes whose magnitude could leave int64, decided statically from a
 * bound on the word length: no overflow checks on the hot path).  Two
 * shortcuts keep the per-letter work close to a hand-written loop:
 *  - letter functions (Boolean combinations of Q_sigma) are tabulated per
 *    letter and copied in as one row;
 *  - "letter-driven" integers (counts of letter functions, and linear
 *    combinations of those) change by a per-letter constant, so they are
 *    maintained by adding one precomputed delta row per letter.
 * Only nodes under a count or Y run at every position; the Boolean
 * structure on top runs when a verdict is asked ("lean" mode).  Tables
 * use "full" mode, where every node runs at every position.
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

#include "mem.h"
#include "vec.h"

/* Words longer than this are refused (eval_too_long): the static bounds
 * that make int64 arithmetic exact assume it.  2^48 symbols is days of
 * input at any speed. */
#define MAX_POSITIONS ((uint64_t)1 << 48)
/* int64 slots hold values of magnitude below this. */
#define SMALL_BITS 62

enum {
	I_NOT, I_AND, I_OR, I_CMP, I_BCMP, I_COUNT, I_PREV, I_MOD,
	I_LIN, I_BLIN, I_ITE, I_BITE, I_MIN, I_MAX, I_BMIN, I_BMAX,
};

static bool is_big_op(unsigned op)
{
	return op == I_BCMP || op == I_BLIN || op == I_BITE || op == I_BMIN ||
	       op == I_BMAX;
}

typedef struct {
	uint8_t op, rel;
	uint32_t dst, a, b, c; /* operand slots (MOD: a = m, b = r) */
	uint32_t n, off;       /* n-ary operands: opnd[off..off+n) */
	int64_t k;             /* LIN constant */
} Instr;

/* A compiled program: slot layout, rows and instructions. */
typedef struct {
	size_t nslots, nld, nlf; /* LD slots [0,nld), LF slots after them */
	size_t ncodes;           /* letter codes; the last one is "other" */
	int64_t *delta;          /* nld x ncodes */
	int64_t *lfrow;          /* ncodes x nlf */
	int64_t *init;           /* initial slot values (small slots) */
	bool *big;               /* per slot */
	fmpz *binit;             /* initial values of big slots */
	Instr *step, *query;
	size_t nstep, nquery;
	uint32_t *opnd;
	int64_t *coef;  /* small LIN coefficients, parallel to opnd */
	fmpz *bcoef;    /* big LIN coefficients, parallel to opnd */
	fmpz *bconst;   /* big LIN constants, indexed by Instr.k */
	size_t nopnd, nbconst;
	uint32_t *slot_of; /* node id -> slot, UINT32_MAX when absent */
	bool blockable;    /* no big instruction runs per step */
	size_t blk;        /* positions per block */
} Prog;

typedef struct {
	int64_t *V;
	fmpz *B;
	uint64_t pos;
	uint32_t last; /* code of the letter at pos (other at pos 0) */
} State;

/* Block execution: every slot's values over a block of positions. */
typedef struct {
	int64_t *col; /* nslots x blk */
	uint32_t *codes;
} Block;

struct EvalSnapshot {
	State st;
	size_t nslots;
};

struct Evaluator {
	const Store *s;
	Node *roots;
	size_t nroots;
	AcceptAt accept;
	Node maxnode;
	bool streams, too_long;
	uint32_t *symcode; /* Sym -> letter code */
	size_t nsymcode, ncodes;
	Prog lean;
	Block blk;
	State st;     /* the streaming state */
	State scratch; /* EOS queries */
};

/* ---- analysis --------------------------------------------------------- */

/* Per-node facts shared by the compilers. */
typedef struct {
	Node max;
	unsigned char *reach;
	bool *lf;         /* letter function */
	uint8_t *lfv;     /* [node * ncodes + code] value of a letter function */
	bool *big;        /* int node whose bound reaches 2^SMALL_BITS */
	Linear *lin;      /* ADD/MUL: the flattened linear form */
	size_t ncodes;
} Facts;

static void mark_reachable(const Evaluator *ev, Facts *f)
{
	f->reach = store_reachable(ev->s, ev->roots, ev->nroots);
}

static bool is_lin(Op op)
{
	return op == OP_ADD || op == OP_MUL;
}

/* Bounds on |value| with at most `npos` positions: big when >= 2^62. */
static void compute_big(const Evaluator *ev, Facts *f, uint64_t npos)
{
	const Store *s = ev->s;
	fmpz *b = xcalloc((size_t)f->max + 1, sizeof *b); /* zero fmpz */
	for (Node n = 1; n <= f->max; n++) {
		if (!f->reach[n] || store_is_bool(s, n))
			continue;
		const Node *k = store_kids(s, n);
		switch (store_op(s, n)) {
		case OP_CONST: fmpz_abs(&b[n], store_constant(s, n)); break;
		case OP_COUNT:
		case OP_FCOUNT: fmpz_set_ui(&b[n], npos); break;
		case OP_ITE: fmpz_set(&b[n], fmpz_cmp(&b[k[1]], &b[k[2]]) > 0
						     ? &b[k[1]] : &b[k[2]]);
			break;
		case OP_MIN:
		case OP_MAX: fmpz_set(&b[n], fmpz_cmp(&b[k[0]], &b[k[1]]) > 0
						     ? &b[k[0]] : &b[k[1]]);
			break;
		case OP_MUL:
			fmpz_abs(&b[n], store_constant(s, n));
			fmpz_mul(&b[n], &b[n], &b[k[0]]);
			break;
		case OP_ADD:
			for (uint32_t i = 0; i < store_nkids(s, n); i++)
				fmpz_add(&b[n], &b[n], &b[k[i]]);
			break;
		default: break;
		}
		f->big[n] = fmpz_bits(&b[n]) > SMALL_BITS - 1;
	}
	for (Node n = 0; n <= f->max; n++)
		fmpz_clear(&b[n]);
	free(b);
}

static void facts_init(const Evaluator *ev, Facts *f, uint64_t npos)
{
	const Store *s = ev->s;
	memset(f, 0, sizeof *f);
	f->max = ev->maxnode;
	f->ncodes = ev->ncodes;
	mark_reachable(ev, f);
	size_t nn = (size_t)f->max + 1;
	f->lf = xcalloc(nn, sizeof *f->lf);
	f->lfv = xcalloc(nn * f->ncodes, 1);
	f->big = xcalloc(nn, sizeof *f->big);
	f->lin = xcalloc(nn, sizeof *f->lin);
	compute_big(ev, f, npos);
	for (Node n = 1; n <= f->max; n++) {
		if (!f->reach[n])
			continue;
		Op op = store_op(s, n);
		uint32_t nk = store_nkids(s, n);
		const Node *k = store_kids(s, n);
		uint8_t *v = f->lfv + (size_t)n * f->ncodes;
		if (is_lin(op))
			store_linear(s, n, &f->lin[n]);
		switch (op) {
		case OP_TRUE: f->lf[n] = true; memset(v, 1, f->ncodes); break;
		case OP_FALSE: f->lf[n] = true; break;
		case OP_LETTER: {
			f->lf[n] = true;
			Sym l = store_letter_sym(s, n);
			if (l < ev->nsymcode && ev->symcode[l] + 1 < f->ncodes)
				v[ev->symcode[l]] = 1;
			break;
		}
		case OP_NOT:
		case OP_AND:
		case OP_OR: {
			bool all = true;
			for (uint32_t i = 0; i < nk; i++)
				all = all && f->lf[k[i]];
			if (!all)
				break;
			f->lf[n] = true;
			for (size_t c = 0; c < f->ncodes; c++) {
				bool x = op == OP_AND;
				for (uint32_t i = 0; i < nk; i++) {
					bool y = f->lfv[(size_t)k[i] * f->ncodes + c];
					x = op == OP_AND ? x && y
					    : op == OP_OR ? x || y : !y;
				}
				v[c] = x;
			}
			break;
		}
		default: break;
		}
	}
}

static void facts_free(const Store *s, Facts *f)
{
	for (Node n = 1; n <= f->max; n++)
		if (f->reach[n] && is_lin(store_op(s, n)))
			store_linear_free(&f->lin[n]);
	free(f->reach);
	free(f->lf);
	free(f->lfv);
	free(f->big);
	free(f->lin);
}

/* ---- compiling the streaming machine ---------------------------------- */

typedef struct {
	VEC(Instr) step, query;
	VEC(uint32_t) opnd;
	VEC(int64_t) coef;
	VEC(fmpz) bcoef, bconst;
} Emit;

/* The operands an instruction for n reads: a linear form reads its atoms. */
static size_t operands(const Store *s, const Facts *f, Node n, const Node **out)
{
	if (is_lin(store_op(s, n))) {
		*out = f->lin[n].atoms;
		return f->lin[n].n;
	}
	*out = store_kids(s, n);
	return store_nkids(s, n);
}

static uint32_t push_operand(Emit *e, uint32_t slot, int64_t c, const fmpz *bc)
{
	uint32_t at = (uint32_t)e->opnd.len;
	VEC_PUSH(e->opnd, slot);
	VEC_PUSH(e->coef, c);
	fmpz z;
	fmpz_init(&z);
	if (bc)
		fmpz_set(&z, bc);
	VEC_PUSH(e->bcoef, z);
	return at;
}

/* Letter-driven integers: counts of letter functions and linear forms
 * over them (small ones only: their deltas are exact in int64). */
static bool *find_ld(const Store *s, const Facts *f)
{
	bool *ld = xcalloc((size_t)f->max + 1, sizeof *ld);
	for (Node n = 1; n <= f->max; n++) {
		if (!f->reach[n] || f->big[n])
			continue;
		Op op = store_op(s, n);
		if (op == OP_COUNT) {
			ld[n] = f->lf[store_kid(s, n, 0)];
		} else if (is_lin(op)) {
			bool all = f->lin[n].n > 0;
			for (size_t i = 0; i < f->lin[n].n; i++)
				all = all && ld[f->lin[n].atoms[i]];
			ld[n] = all;
		}
	}
	return ld;
}

static void emit_node(const Store *s, const Facts *f, Prog *p, Emit *e, Node n,
		      bool per_step, size_t *nslots)
{
	const uint32_t *so = p->slot_of;
	Instr in = {.dst = so[n]};
	const Node *k = store_kids(s, n);
	uint32_t nk = store_nkids(s, n);
	switch (store_op(s, n)) {
	case OP_NOT: in.op = I_NOT; in.a = so[k[0]]; break;
	case OP_AND:
	case OP_OR:
		in.op = store_op(s, n) == OP_AND ? I_AND : I_OR;
		in.n = nk;
		for (uint32_t i = 0; i < nk; i++) {
			uint32_t at = push_operand(e, so[k[i]], 0, NULL);
			if (i == 0)
				in.off = at;
		}
		break;
	case OP_CMP:
		in.op = f->big[k[0]] ? I_BCMP : I_CMP;
		in.rel = (uint8_t)store_rel(s, n);
		in.a = so[k[0]];
		break;
	case OP_COUNT: in.op = I_COUNT; in.a = so[k[0]]; break;
	case OP_PREV:
		in.op = I_PREV;
		in.a = so[k[0]];
		in.b = (uint32_t)(*nslots)++; /* the latch */
		break;
	case OP_MOD:
		in.op = I_MOD;
		in.a = store_aux(s, n);
		in.b = store_aux2(s, n);
		break;
	case OP_ADD:
	case OP_MUL: {
		const Linear *l = &f->lin[n];
		bool big = f->big[n];
		in.op = big ? I_BLIN : I_LIN;
		in.n = (uint32_t)l->n;
		for (size_t i = 0; i < l->n; i++) {
			uint32_t at = push_operand(
				e, so[l->atoms[i]],
				big ? 0 : fmpz_get_si(&l->coefs[i]), &l->coefs[i]);
			if (i == 0)
				in.off = at;
		}
		if (big) {
			fmpz c;
			fmpz_init_set(&c, l->constant);
			in.k = (int64_t)e->bconst.len;
			VEC_PUSH(e->bconst, c);
		} else {
			in.k = fmpz_get_si(l->constant);
		}
		break;
	}
	case OP_ITE:
		in.op = f->big[n] ? I_BITE : I_ITE;
		in.a = so[k[0]];
		in.b = so[k[1]];
		in.c = so[k[2]];
		break;
	case OP_MIN:
	case OP_MAX:
		in.op = store_op(s, n) == OP_MIN ? (f->big[n] ? I_BMIN : I_MIN)
						 : (f->big[n] ? I_BMAX : I_MAX);
		in.a = so[k[0]];
		in.b = so[k[1]];
		break;
	default:
		return; /* constants and letter functions need no code */
	}
	if (per_step)
		VEC_PUSH(e->step, in);
	else
		VEC_PUSH(e->query, in);
}

/* Lean mode computes only what the roots need, and only the part under a
 * count or Y at every position; full mode computes every reachable node at
 * every position (tables). */
static void prog_compile(const Evaluator *ev, const Facts *f, bool full,
			 Prog *p)
{
	const Store *s = ev->s;
	size_t nn = (size_t)f->max + 1, nc = f->ncodes;
	memset(p, 0, sizeof *p);
	p->ncodes = nc;
	bool *ld = find_ld(s, f);
	unsigned char *need = xcalloc(nn, 1), *every = xcalloc(nn, 1);
	if (full) {
		memcpy(need, f->reach, nn);
		memcpy(every, f->reach, nn);
	} else {
		for (size_t r = 0; r < ev->nroots; r++)
			need[ev->roots[r]] = 1;
	}
	for (Node n = f->max; n > 0 && !full; n--) {
		if (!need[n] || ld[n] || f->lf[n])
			continue;
		Op op = store_op(s, n);
		if (op == OP_COUNT || op == OP_PREV)
			every[n] = 1;
		const Node *ops;
		size_t no = operands(s, f, n, &ops);
		for (size_t i = 0; i < no; i++) {
			need[ops[i]] = 1;
			every[ops[i]] |= every[n];
		}
	}
	/* Slots: letter-driven first, then letter functions, then the rest. */
	p->slot_of = xmalloc(nn * sizeof *p->slot_of);
	for (size_t i = 0; i < nn; i++)
		p->slot_of[i] = UINT32_MAX;
	size_t ns = 0;
	for (int pass = 0; pass < 3; pass++)
		for (Node n = 1; n <= f->max; n++) {
			if (!need[n] || pass != (ld[n] ? 0 : f->lf[n] ? 1 : 2))
				continue;
			p->slot_of[n] = (uint32_t)ns++;
			if (pass == 0)
				p->nld++;
			else if (pass == 1)
				p->nlf++;
		}
	Emit e = {0};
	for (Node n = 1; n <= f->max; n++)
		if (need[n] && !ld[n] && !f->lf[n])
			emit_node(s, f, p, &e, n, every[n], &ns);
	p->nslots = ns;
	p->blockable = true;
	for (size_t i = 0; i < e.step.len; i++)
		p->blockable &= !is_big_op(e.step.data[i].op);
	/* Blocks of up to 1024 positions, within about 8 MB of columns. */
	p->blk = ((size_t)1 << 20) / (ns ? ns : 1);
	p->blk = p->blk > 1024 ? 1024 : p->blk < 16 ? 16 : p->blk;
	p->step = e.step.data;
	p->nstep = e.step.len;
	p->query = e.query.data;
	p->nquery = e.query.len;
	p->opnd = e.opnd.data;
	p->coef = e.coef.data;
	p->bcoef = e.bcoef.data;
	p->nopnd = e.opnd.len;
	p->bconst = e.bconst.data;
	p->nbconst = e.bconst.len;
	/* Initial values, big flags, rows. */
	p->init = xcalloc(ns, sizeof *p->init);
	p->big = xcalloc(ns, sizeof *p->big);
	p->binit = xcalloc(ns, sizeof *p->binit);
	int64_t *dl = xcalloc(nn * nc, sizeof *dl); /* deltas of all LD nodes */
	p->delta = xcalloc(nc * (p->nld ? p->nld : 1), sizeof *p->delta);
	p->lfrow = xcalloc(nc * (p->nlf ? p->nlf : 1), sizeof *p->lfrow);
	for (Node n = 1; n <= f->max; n++) {
		if (ld[n]) {
			int64_t *d = dl + (size_t)n * nc;
			if (store_op(s, n) == OP_COUNT) {
				Node k = store_kid(s, n, 0);
				for (size_t c = 0; c < nc; c++)
					d[c] = f->lfv[(size_t)k * nc + c];
			} else {
				const Linear *l = &f->lin[n];
				for (size_t i = 0; i < l->n; i++) {
					int64_t co = fmpz_get_si(&l->coefs[i]);
					const int64_t *da = dl + (size_t)l->atoms[i] * nc;
					for (size_t c = 0; c < nc; c++)
						d[c] += co * da[c];
				}
			}
		}
		uint32_t sl = p->slot_of[n];
		if (sl == UINT32_MAX)
			continue;
		if (!store_is_bool(s, n))
			p->big[sl] = f->big[n];
		if (ld[n]) {
			if (is_lin(store_op(s, n)))
				p->init[sl] = fmpz_get_si(f->lin[n].constant);
			for (size_t c = 0; c < nc; c++)
				p->delta[sl * nc + c] = dl[(size_t)n * nc + c];
		} else if (f->lf[n]) {
			for (size_t c = 0; c < nc; c++)
				p->lfrow[c * p->nlf + (sl - p->nld)] =
					f->lfv[(size_t)n * nc + c];
		} else if (store_op(s, n) == OP_CONST) {
			if (f->big[n])
				fmpz_set(&p->binit[sl], store_constant(s, n));
			else
				p->init[sl] = fmpz_get_si(store_constant(s, n));
		}
	}
	free(dl);
	free(ld);
	free(need);
	free(every);
}

static void prog_free(Prog *p)
{
	for (size_t i = 0; i < p->nslots; i++)
		fmpz_clear(&p->binit[i]);
	for (size_t i = 0; i < p->nopnd; i++)
		fmpz_clear(&p->bcoef[i]);
	for (size_t i = 0; i < p->nbconst; i++)
		fmpz_clear(&p->bconst[i]);
	free(p->binit);
	free(p->bcoef);
	free(p->bconst);
	free(p->init);
	free(p->big);
	free(p->delta);
	free(p->lfrow);
	free(p->step);
	free(p->query);
	free(p->opnd);
	free(p->coef);
	free(p->slot_of);
	memset(p, 0, sizeof *p);
}

/* ---- running it --------------------------------------------------------- */

static void state_init(State *st, size_t nslots)
{
	st->V = xcalloc(nslots ? nslots : 1, sizeof *st->V);
	st->B = xcalloc(nslots ? nslots : 1, sizeof *st->B);
	st->pos = 0;
	st->last = 0;
}

static void state_free(State *st, size_t nslots)
{
	for (size_t i = 0; i < nslots; i++)
		fmpz_clear(&st->B[i]);
	free(st->V);
	free(st->B);
}

static void state_copy(const Prog *p, State *dst, const State *src)
{
	memcpy(dst->V, src->V, p->nslots * sizeof *dst->V);
	for (size_t i = 0; i < p->nslots; i++)
		if (p->big[i])
			fmpz_set(&dst->B[i], &src->B[i]);
	dst->pos = src->pos;
	dst->last = src->last;
}

/* Bit (sign + 1) of rel_mask[rel] tells whether "x REL 0" holds. */
static const uint8_t rel_mask[] = {
	[REL_LT] = 1, [REL_LE] = 3, [REL_EQ] = 2,
	[REL_NE] = 5, [REL_GE] = 6, [REL_GT] = 4,
};

static void get_big(const Prog *p, const State *st, uint32_t slot, fmpz_t out)
{
	if (p->big[slot])
		fmpz_set(out, &st->B[slot]);
	else
		fmpz_set_si(out, st->V[slot]);
}

static void run_big(const Prog *p, State *st, const Instr *in)
{
	fmpz_t x, y;
	fmpz_init(x);
	fmpz_init(y);
	fmpz *d = &st->B[in->dst];
	switch (in->op) {
	case I_BCMP:
		st->V[in->dst] =
			rel_mask[in->rel] >> (fmpz_sgn(&st->B[in->a]) + 1) & 1;
		break;
	case I_BLIN:
		fmpz_set(d, &p->bconst[in->k]);
		for (uint32_t j = 0; j < in->n; j++) {
			get_big(p, st, p->opnd[in->off + j], x);
			fmpz_addmul(d, &p->bcoef[in->off + j], x);
		}
		break;
	case I_BITE: get_big(p, st, st->V[in->a] ? in->b : in->c, d); break;
	case I_BMIN:
	case I_BMAX:
		get_big(p, st, in->a, x);
		get_big(p, st, in->b, y);
		fmpz_set(d, (fmpz_cmp(x, y) < 0) == (in->op == I_BMIN) ? x : y);
		break;
	}
	fmpz_clear(x);
	fmpz_clear(y);
}

/* pos0: the empty word's position 0, where counts are 0 and Y is false. */
static inline void run(const Prog *p, State *st, const Instr *code, size_t n,
		       bool pos0)
{
	int64_t *V = st->V;
	const uint32_t *op = p->opnd;
	for (size_t i = 0; i < n; i++) {
		const Instr *in = &code[i];
		int64_t x;
		switch (in->op) {
		case I_NOT: V[in->dst] = !V[in->a]; break;
		case I_AND:
			x = 1;
			for (uint32_t j = 0; j < in->n; j++)
				x &= V[op[in->off + j]];
			V[in->dst] = x;
			break;
		case I_OR:
			x = 0;
			for (uint32_t j = 0; j < in->n; j++)
				x |= V[op[in->off + j]];
			V[in->dst] = x;
			break;
		case I_CMP:
			x = V[in->a];
			V[in->dst] = rel_mask[in->rel] >> ((x > 0) - (x < 0) + 1) & 1;
			break;
		case I_COUNT: V[in->dst] = pos0 ? 0 : V[in->dst] + V[in->a]; break;
		case I_PREV:
			V[in->dst] = pos0 ? 0 : V[in->b];
			V[in->b] = pos0 ? 0 : V[in->a];
			break;
		case I_MOD: V[in->dst] = st->pos % in->a == in->b; break;
		case I_LIN:
			x = in->k;
			for (uint32_t j = 0; j < in->n; j++)
				x += p->coef[in->off + j] * V[op[in->off + j]];
			V[in->dst] = x;
			break;
		case I_ITE: V[in->dst] = V[in->a] ? V[in->b] : V[in->c]; break;
		case I_MIN:
			V[in->dst] = V[in->a] < V[in->b] ? V[in->a] : V[in->b];
			break;
		case I_MAX:
			V[in->dst] = V[in->a] > V[in->b] ? V[in->a] : V[in->b];
			break;
		default: run_big(p, st, in); break;
		}
	}
}

static inline void prog_step(const Prog *p, State *st, uint32_t code)
{
	int64_t *V = st->V;
	st->pos++;
	st->last = code;
	for (size_t j = 0; j < p->nld; j++)
		V[j] += p->delta[j * p->ncodes + code];
	if (p->nlf)
		memcpy(V + p->nld, p->lfrow + (size_t)code * p->nlf,
		       p->nlf * sizeof *V);
	run(p, st, p->step, p->nstep, false);
}

static void block_init(const Prog *p, Block *bk)
{
	bk->col = xmalloc((p->nslots ? p->nslots : 1) * p->blk * sizeof *bk->col);
	bk->codes = xmalloc(p->blk * sizeof *bk->codes);
	/* Columns of constants never change; the others are overwritten. */
	for (size_t sl = p->nld + p->nlf; sl < p->nslots; sl++)
		for (size_t i = 0; i < p->blk; i++)
			bk->col[sl * p->blk + i] = p->init[sl];
}

static void block_free(Block *bk)
{
	free(bk->col);
	free(bk->codes);
}

/* The step program over the m <= blk positions whose codes are in
 * bk->codes and that end at st->pos: one tight loop per instruction. */
static void run_block(const Prog *p, State *st, Block *bk, size_t m)
{
	int64_t *V = st->V;
	const size_t nb = p->blk;
	const uint32_t *codes = bk->codes;
#define COL(slot) (bk->col + (size_t)(slot) * nb)
	for (size_t j = 0; j < p->nld; j++) {
		int64_t acc = V[j], *c = COL(j);
		const int64_t *d = p->delta + j * p->ncodes;
		for (size_t i = 0; i < m; i++) {
			acc += d[codes[i]];
			c[i] = acc;
		}
		V[j] = acc;
	}
	for (size_t j = 0; j < p->nlf; j++) {
		int64_t *c = COL(p->nld + j);
		const int64_t *r = p->lfrow + j;
		for (size_t i = 0; i < m; i++)
			c[i] = r[(size_t)codes[i] * p->nlf];
		V[p->nld + j] = c[m - 1];
	}
	for (size_t k = 0; k < p->nstep; k++) {
		const Instr *in = &p->step[k];
		int64_t *d = COL(in->dst), acc;
		const int64_t *a = COL(in->a), *b = COL(in->b), *c = COL(in->c);
		const uint32_t *op = p->opnd + in->off;
		switch (in->op) {
		case I_NOT:
			for (size_t i = 0; i < m; i++)
				d[i] = !a[i];
			break;
		case I_AND:
		case I_OR:
			memcpy(d, COL(op[0]), m * sizeof *d);
			for (uint32_t j = 1; j < in->n; j++) {
				const int64_t *x = COL(op[j]);
				if (in->op == I_AND)
					for (size_t i = 0; i < m; i++)
						d[i] &= x[i];
				else
					for (size_t i = 0; i < m; i++)
						d[i] |= x[i];
			}
			break;
		case I_CMP: {
			unsigned mask = rel_mask[in->rel];
			for (size_t i = 0; i < m; i++)
				d[i] = mask >> ((a[i] > 0) - (a[i] < 0) + 1) & 1;
			break;
		}
		case I_COUNT:
			acc = V[in->dst];
			for (size_t i = 0; i < m; i++) {
				acc += a[i];
				d[i] = acc;
			}
			break;
		case I_PREV:
			acc = V[in->b];
			for (size_t i = 0; i < m; i++) {
				d[i] = acc;
				acc = a[i];
			}
			V[in->b] = acc;
			break;
		case I_MOD: {
			uint64_t ph = (st->pos - m + 1) % in->a;
			for (size_t i = 0; i < m; i++) {
				d[i] = ph == in->b;
				if (++ph == in->a)
					ph = 0;
			}
			break;
		}
		case I_LIN:
			for (size_t i = 0; i < m; i++)
				d[i] = in->k;
			for (uint32_t j = 0; j < in->n; j++) {
				int64_t co = p->coef[in->off + j];
				const int64_t *x = COL(op[j]);
				for (size_t i = 0; i < m; i++)
					d[i] += co * x[i];
			}
			break;
		case I_ITE:
			for (size_t i = 0; i < m; i++)
				d[i] = a[i] ? b[i] : c[i];
			break;
		case I_MIN:
			for (size_t i = 0; i < m; i++)
				d[i] = a[i] < b[i] ? a[i] : b[i];
			break;
		case I_MAX:
			for (size_t i = 0; i < m; i++)
				d[i] = a[i] > b[i] ? a[i] : b[i];
			break;
		}
		V[in->dst] = d[m - 1];
	}
#undef COL
	st->last = codes[m - 1];
}

static void prog_reset(const Prog *p, State *st)
{
	uint32_t other = (uint32_t)p->ncodes - 1;
	memcpy(st->V, p->init, p->nslots * sizeof *st->V);
	for (size_t i = 0; i < p->nslots; i++)
		if (p->big[i])
			fmpz_set(&st->B[i], &p->binit[i]);
	if (p->nlf)
		memcpy(st->V + p->nld, p->lfrow + (size_t)other * p->nlf,
		       p->nlf * sizeof *st->V);
	st->pos = 0;
	st->last = other;
	run(p, st, p->step, p->nstep, true);
}

/* ---- the evaluator ------------------------------------------------------ */

static uint32_t code_of(const Evaluator *ev, Sym l)
{
	return l < ev->nsymcode ? ev->symcode[l] : (uint32_t)ev->ncodes - 1;
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
	for (size_t r = 0; r < nroots; r++) {
		if (roots[r] > ev->maxnode)
			ev->maxnode = roots[r];
		if (store_flags(s, roots[r]) & FLAG_FUTURE)
			ev->streams = false;
	}
	/* Letter codes: the mentioned letters, then "other". */
	size_t nl = 0;
	Sym maxsym = 0;
	VEC(Sym) letters = {0};
	for (size_t r = 0; r < nroots; r++) {
		Sym *ls = store_letters(s, roots[r], &nl);
		for (size_t i = 0; i < nl; i++) {
			VEC_PUSH(letters, ls[i]);
			if (ls[i] >= maxsym)
				maxsym = ls[i] + 1;
		}
		free(ls);
	}
	ev->nsymcode = maxsym;
	ev->symcode = xmalloc((maxsym ? maxsym : 1) * sizeof *ev->symcode);
	for (size_t i = 0; i < maxsym; i++)
		ev->symcode[i] = UINT32_MAX;
	uint32_t nc = 0;
	for (size_t i = 0; i < letters.len; i++)
		if (ev->symcode[letters.data[i]] == UINT32_MAX)
			ev->symcode[letters.data[i]] = nc++;
	for (size_t i = 0; i < maxsym; i++)
		if (ev->symcode[i] == UINT32_MAX)
			ev->symcode[i] = nc;
	ev->ncodes = (size_t)nc + 1;
	VEC_FREE(letters);
	if (ev->streams) {
		Facts f;
		facts_init(ev, &f, MAX_POSITIONS + 1);
		prog_compile(ev, &f, false, &ev->lean);
		facts_free(s, &f);
		state_init(&ev->st, ev->lean.nslots);
		state_init(&ev->scratch, ev->lean.nslots);
		block_init(&ev->lean, &ev->blk);
		prog_reset(&ev->lean, &ev->st);
	}
	return ev;
}

void eval_free(Evaluator *ev)
{
	if (!ev)
		return;
	if (ev->streams) {
		state_free(&ev->st, ev->lean.nslots);
		state_free(&ev->scratch, ev->lean.nslots);
		block_free(&ev->blk);
		prog_free(&ev->lean);
	}
	free(ev->symcode);
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
		prog_reset(&ev->lean, &ev->st);
}

void eval_push(Evaluator *ev, Sym letter)
{
	eval_push_many(ev, &letter, 1);
}

void eval_push_many(Evaluator *ev, const Sym *letters, size_t n)
{
	assert(ev->streams); /* #> needs the whole word: use eval_word */
	const Prog *p = &ev->lean;
	State *st = &ev->st;
	if (n > MAX_POSITIONS - st->pos) {
		ev->too_long = true;
		n = (size_t)(MAX_POSITIONS - st->pos);
	}
	/* Short pushes (tally lang) step; long ones run in blocks. */
	if (!p->blockable || n < 16) {
		for (size_t i = 0; i < n; i++)
			prog_step(p, st, code_of(ev, letters[i]));
		return;
	}
	for (size_t done = 0; done < n;) {
		size_t m = n - done < p->blk ? n - done : p->blk;
		for (size_t i = 0; i < m; i++)
			ev->blk.codes[i] = code_of(ev, letters[done + i]);
		st->pos += m;
		run_block(p, st, &ev->blk, m);
		done += m;
	}
}

bool eval_accepts(Evaluator *ev, size_t root)
{
	assert(ev->streams); /* #> needs the whole word: use eval_word */
	const Prog *p = &ev->lean;
	State *st = &ev->st;
	if (ev->accept == ACCEPT_EOS) {
		state_copy(p, &ev->scratch, st);
		st = &ev->scratch;
		prog_step(p, st, (uint32_t)ev->ncodes - 1);
	}
	run(p, st, p->query, p->nquery, false);
	return st->V[p->slot_of[ev->roots[root]]] != 0;
}

EvalSnapshot *eval_snapshot_new(const Evaluator *ev)
{
	EvalSnapshot *snap = xcalloc(1, sizeof *snap);
	snap->nslots = ev->lean.nslots;
	state_init(&snap->st, snap->nslots);
	return snap;
}

void eval_save_to(const Evaluator *ev, EvalSnapshot *snap)
{
	state_copy(&ev->lean, &snap->st, &ev->st);
}

EvalSnapshot *eval_save(const Evaluator *ev)
{
	EvalSnapshot *snap = eval_snapshot_new(ev);
	eval_save_to(ev, snap);
	return snap;
}

void eval_restore(Evaluator *ev, const EvalSnapshot *snap)
{
	state_copy(&ev->lean, &ev->st, &snap->st);
	ev->too_long = false;
}

void eval_snapshot_free(EvalSnapshot *snap)
{
	if (!snap)
		return;
	state_free(&snap->st, snap->nslots);
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

static EvalTable *table_new(const Facts *f, size_t first, size_t last)
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
	Facts f;
	facts_init(ev, &f, hi > 0 ? hi : 1);
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
				c->v[i] = rel_mask[store_rel(s, nd)] >> (sg + 1) & 1;
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
	facts_free(s, &f);
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
	Facts f;
	facts_init(ev, &f, MAX_POSITIONS + 1);
	Prog p;
	prog_compile(ev, &f, true, &p);
	EvalTable *t = table_new(&f, wlo, whi);
	State st;
	state_init(&st, p.nslots);
	prog_reset(&p, &st);
	for (size_t pos = lo; pos <= hi; pos++) {
		if (pos >= 1)
			prog_step(&p, &st, pos <= n ? code_of(ev, word[pos - 1])
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
	state_free(&st, p.nslots);
	prog_free(&p);
	facts_free(s, &f);
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
	Facts f = {.max = all->max};
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
