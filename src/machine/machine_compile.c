/* machine_compile.c -- compiling formulas into the streaming machine of
 * machine.h (machine.c runs it).
 *
 * The reachable DAG is compiled once into a flat instruction array over
 * value slots (int64, or FLINT fmpz for the nodes whose magnitude could
 * leave int64, decided statically from a bound on the word length: no
 * overflow checks on the hot path).  Two shortcuts keep the per-letter
 * work close to a hand-written loop:
 *  - letter functions (Boolean combinations of Q_sigma) are tabulated per
 *    letter and copied in as one row;
 *  - "letter-driven" integers (counts of letter functions, and linear
 *    combinations of those) change by a per-letter constant, so they are
 *    maintained by adding one precomputed delta row per letter.
 * Only nodes under a count or Y run at every position; the Boolean
 * structure on top runs when a verdict is asked ("lean" mode).  Tables
 * use "full" mode, where every node runs at every position.
 */
#include <config.h>
#include "machine/machine.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/vec.h"

/* int64 slots hold values of magnitude below this. */
#define SMALL_BITS 62

static bool is_big_op(unsigned op)
{
	return op == MI_BCMP || op == MI_BLIN || op == MI_BITE ||
	       op == MI_BMIN || op == MI_BMAX;
}

/* ---- letter codes -------------------------------------------------------- */

void machine_codes_init(MachineCodes *c, const Store *s, const Node *roots,
			size_t nroots)
{
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
	c->nsymcode = maxsym;
	c->symcode = xmalloc((maxsym ? maxsym : 1) * sizeof *c->symcode);
	c->letters = xmalloc((letters.len ? letters.len : 1) * sizeof *c->letters);
	for (size_t i = 0; i < maxsym; i++)
		c->symcode[i] = UINT32_MAX;
	uint32_t nc = 0;
	for (size_t i = 0; i < letters.len; i++)
		if (c->symcode[letters.data[i]] == UINT32_MAX) {
			c->letters[nc] = letters.data[i];
			c->symcode[letters.data[i]] = nc++;
		}
	for (size_t i = 0; i < maxsym; i++)
		if (c->symcode[i] == UINT32_MAX)
			c->symcode[i] = nc;
	c->ncodes = (size_t)nc + 1;
	VEC_FREE(letters);
}

void machine_codes_free(MachineCodes *c)
{
	free(c->symcode);
	free(c->letters);
	memset(c, 0, sizeof *c);
}

/* ---- analysis --------------------------------------------------------- */

static bool is_lin(Op op)
{
	return op == OP_ADD || op == OP_MUL;
}

/* Bounds on |value| with at most `npos` positions: big when >= 2^62. */
static void compute_big(const Store *s, MachineFacts *f, const fmpz_t npos)
{
	fmpz *b = xcalloc((size_t)f->max + 1, sizeof *b); /* zero fmpz */
	for (Node n = 1; n <= f->max; n++) {
		if (!f->reach[n] || store_is_bool(s, n))
			continue;
		const Node *k = store_kids(s, n);
		switch (store_op(s, n)) {
		case OP_CONST: fmpz_abs(&b[n], store_constant(s, n)); break;
		case OP_COUNT:
		case OP_FCOUNT: fmpz_set(&b[n], npos); break;
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

static void facts_init(MachineFacts *f, const Store *s, const Node *roots,
		       size_t nroots, const MachineCodes *c, const fmpz_t npos)
{
	memset(f, 0, sizeof *f);
	for (size_t r = 0; r < nroots; r++)
		if (roots[r] > f->max)
			f->max = roots[r];
	f->ncodes = c->ncodes;
	f->reach = store_reachable(s, roots, nroots);
	size_t nn = (size_t)f->max + 1;
	f->lf = xcalloc(nn, sizeof *f->lf);
	f->lfv = xcalloc(nn * f->ncodes, 1);
	f->big = xcalloc(nn, sizeof *f->big);
	f->lin = xcalloc(nn, sizeof *f->lin);
	compute_big(s, f, npos);
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
			if (machine_code(c, l) + 1 < f->ncodes)
				v[machine_code(c, l)] = 1;
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
			for (size_t cd = 0; cd < f->ncodes; cd++) {
				bool x = op == OP_AND;
				for (uint32_t i = 0; i < nk; i++) {
					bool y = f->lfv[(size_t)k[i] * f->ncodes + cd];
					x = op == OP_AND ? x && y
					    : op == OP_OR ? x || y : !y;
				}
				v[cd] = x;
			}
			break;
		}
		default: break;
		}
	}
}

void machine_facts_init(MachineFacts *f, const Store *s, const Node *roots,
			size_t nroots, const MachineCodes *c, uint64_t npos)
{
	fmpz_t z;
	fmpz_init_set_ui(z, npos);
	facts_init(f, s, roots, nroots, c, z);
	fmpz_clear(z);
}

void machine_facts_free(const Store *s, MachineFacts *f)
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
	VEC(MachineInstr) step, query;
	VEC(uint32_t) opnd, flatch;
	VEC(Node) snode; /* the node of each step instruction */
	VEC(int64_t) coef;
	VEC(fmpz) bcoef, bconst;
} Emit;

/* The operands an instruction for n reads: a linear form reads its atoms. */
static size_t operands(const Store *s, const MachineFacts *f, Node n, const Node **out)
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
static bool *find_ld(const Store *s, const MachineFacts *f)
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

static void emit_node(const Store *s, const MachineFacts *f, Machine *p, Emit *e, Node n,
		      bool per_step, size_t *nslots)
{
	const uint32_t *so = p->slot_of;
	MachineInstr in = {.dst = so[n]};
	const Node *k = store_kids(s, n);
	uint32_t nk = store_nkids(s, n);
	switch (store_op(s, n)) {
	case OP_NOT: in.op = MI_NOT; in.a = so[k[0]]; break;
	case OP_AND:
	case OP_OR:
		in.op = store_op(s, n) == OP_AND ? MI_AND : MI_OR;
		in.n = nk;
		for (uint32_t i = 0; i < nk; i++) {
			uint32_t at = push_operand(e, so[k[i]], 0, NULL);
			if (i == 0)
				in.off = at;
		}
		break;
	case OP_CMP:
		in.op = f->big[k[0]] ? MI_BCMP : MI_CMP;
		in.rel = (uint8_t)store_rel(s, n);
		in.a = so[k[0]];
		break;
	case OP_COUNT:
		in.op = f->big[n] ? MI_BCOUNT : MI_COUNT;
		in.a = so[k[0]];
		break;
	case OP_PREV:
		in.op = MI_PREV;
		in.a = so[k[0]];
		in.b = (uint32_t)(*nslots)++; /* the latch */
		break;
	case OP_FCOUNT:
		assert(!f->big[n]); /* only machine_init's bound compiles #> */
		in.op = MI_FCOUNT;
		in.a = so[k[0]];
		in.b = (uint32_t)(*nslots)++; /* the latch */
		in.k = (int64_t)e->flatch.len;
		VEC_PUSH(e->flatch, in.b);
		break;
	case OP_MOD:
		in.op = MI_MOD;
		in.a = store_aux(s, n);
		in.b = store_aux2(s, n);
		break;
	case OP_ADD:
	case OP_MUL: {
		const Linear *l = &f->lin[n];
		bool big = f->big[n];
		in.op = big ? MI_BLIN : MI_LIN;
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
		in.op = f->big[n] ? MI_BITE : MI_ITE;
		in.a = so[k[0]];
		in.b = so[k[1]];
		in.c = so[k[2]];
		break;
	case OP_MIN:
	case OP_MAX:
		in.op = store_op(s, n) == OP_MIN ? (f->big[n] ? MI_BMIN : MI_MIN)
						 : (f->big[n] ? MI_BMAX : MI_MAX);
		in.a = so[k[0]];
		in.b = so[k[1]];
		break;
	default:
		return; /* constants and letter functions need no code */
	}
	if (per_step) {
		VEC_PUSH(e->step, in);
		VEC_PUSH(e->snode, n);
	} else
		VEC_PUSH(e->query, in);
}

/* Per node, the largest number of #> on a path from it down. */
static unsigned *future_depths(const Store *s, const MachineFacts *f)
{
	unsigned *d = xcalloc((size_t)f->max + 1, sizeof *d);
	for (Node n = 1; n <= f->max; n++) {
		if (!f->reach[n])
			continue;
		for (uint32_t i = 0; i < store_nkids(s, n); i++)
			if (d[store_kid(s, n, i)] > d[n])
				d[n] = d[store_kid(s, n, i)];
		d[n] += store_op(s, n) == OP_FCOUNT;
	}
	return d;
}

static bool is_lf_slot(const Machine *p, uint32_t slot)
{
	return slot >= p->nld && slot < p->nld + p->nlf;
}

/* The step programs of the passes before the last (machine.h "Future
 * counts"): pass k needs only what the #> of depth k + 1 count, so it
 * runs the step instructions of their operands' closure. */
static void pass_programs(Machine *p, const MachineFacts *f, Emit *e)
{
	const Store *s = p->s;
	unsigned *d = future_depths(s, f);
	for (size_t r = 0; r < p->nroots; r++)
		if (d[p->roots[r]] > p->fdepth)
			p->fdepth = d[p->roots[r]];
	p->future_level = xcalloc(p->nfuture ? p->nfuture : 1,
				  sizeof *p->future_level);
	p->future_operand = xcalloc(p->nfuture ? p->nfuture : 1,
				    sizeof *p->future_operand);
	p->letter_totals = p->fdepth > 0;
	for (size_t i = 0; i < e->step.len; i++) {
		const MachineInstr *in = &e->step.data[i];
		if (in->op != MI_FCOUNT)
			continue;
		p->future_level[in->k] = d[e->snode.data[i]];
		p->future_operand[in->k] = in->a;
		if (d[e->snode.data[i]] == 1 && !is_lf_slot(p, in->a))
			p->letter_totals = false;
	}
	p->pstep_off = xcalloc((size_t)p->fdepth + 1, sizeof *p->pstep_off);
	VEC(MachineInstr) all = {0};
	unsigned char *mark = xcalloc((size_t)f->max + 1, 1);
	for (unsigned k = 0; k < p->fdepth; k++) {
		memset(mark, 0, (size_t)f->max + 1);
		for (Node n = f->max; n > 0; n--) {
			if (store_op(s, n) == OP_FCOUNT && f->reach[n] &&
			    d[n] == k + 1)
				mark[n] = 1;
			const Node *ops;
			size_t no = mark[n] ? operands(s, f, n, &ops) : 0;
			for (size_t i = 0; i < no; i++)
				mark[ops[i]] = 1;
		}
		for (size_t i = 0; i < e->step.len; i++)
			if (mark[e->snode.data[i]])
				VEC_PUSH(all, e->step.data[i]);
		p->pstep_off[k + 1] = all.len;
	}
	p->pstep = all.data;
	p->pass = p->fdepth;
	free(mark);
	free(d);
}

/* The comparison "x REL 0" as the kernel's formula (machine.h): the sign
 * bit of s*x + t (x < 0; x <= 0 as x - 1 < 0; x > 0 as -x < 0; x >= 0
 * as -x - 1 < 0), or for = and != of y | -y, which is negative exactly
 * when y is not 0 (|y| < 2^62 by the static bounds), flipped for =. */
static void kernel_test(MachineTest *t, Rel rel)
{
	t->s = rel == REL_GT || rel == REL_GE ? -1 : 1;
	t->t = rel == REL_LE || rel == REL_GE ? -1 : 0;
	t->e = rel == REL_EQ || rel == REL_NE ? UINT64_MAX : 0;
	t->f = rel == REL_EQ;
}

/* The test whose comparison is in slot, or k->ntest. */
static size_t kernel_test_of(const MachineKernel *k, uint32_t slot)
{
	size_t j = 0;
	while (j < k->ntest && k->test[j].cmp != slot)
		j++;
	return j;
}

/* Adds what instruction in makes of the kernel's tests: a comparison of
 * a letter-driven slot, its negation (the same test flipped) or the
 * count of one; false when it is none of those, or one test too many. */
static bool kernel_take(const Machine *p, MachineKernel *k,
			const MachineInstr *in)
{
	size_t j = kernel_test_of(k, in->a);
	bool full = k->ntest == MACHINE_KERNEL_COUNTS;
	switch (in->op) {
	case MI_CMP:
		if (in->a >= p->nld || full)
			return false;
		k->test[k->ntest] = (MachineTest){.ld = in->a, .cmp = in->dst,
						  .dst = UINT32_MAX};
		kernel_test(&k->test[k->ntest++], (Rel)in->rel);
		return true;
	case MI_NOT:
		if (j == k->ntest || full)
			return false;
		k->test[k->ntest] = k->test[j];
		k->test[k->ntest].cmp = in->dst;
		k->test[k->ntest].dst = UINT32_MAX;
		k->test[k->ntest++].f ^= 1;
		return true;
	case MI_COUNT:
		if (j == k->ntest || k->test[j].dst != UINT32_MAX ||
		    p->big[in->dst])
			return false;
		k->test[j].dst = in->dst;
		return true;
	default:
		return false;
	}
}

/* Whether the step program has the register kernel's shape (machine.h
 * "The register kernel"), and its description when it has. */
static void derive_kernel(Machine *p)
{
	MachineKernel *k = &p->kernel;
	memset(k, 0, sizeof *k);
	if (p->fdepth || p->nlf || p->nld == 0 || p->nld > MACHINE_KERNEL_LD ||
	    p->ncodes > MACHINE_KERNEL_CODES)
		return;
	for (size_t i = 0; i < p->nld; i++)
		if (p->big[i])
			return;
	for (size_t i = 0; i < p->nstep; i++)
		if (!kernel_take(p, k, &p->step[i]))
			return;
	k->on = true;
}

/* Lean mode computes only what the roots need, and only the part under a
 * count or Y at every position; full mode computes every reachable node at
 * every position (tables). */
static void compile(Machine *p, const MachineFacts *f, bool full)
{
	const Store *s = p->s;
	size_t nn = (size_t)f->max + 1, nc = f->ncodes;
	p->ncodes = nc;
	bool *ld = find_ld(s, f);
	unsigned char *need = xcalloc(nn, 1), *every = xcalloc(nn, 1);
	if (full) {
		memcpy(need, f->reach, nn);
		memcpy(every, f->reach, nn);
	} else {
		for (size_t r = 0; r < p->nroots; r++)
			need[p->roots[r]] = 1;
	}
	for (Node n = f->max; n > 0 && !full; n--) {
		if (!need[n] || ld[n] || f->lf[n])
			continue;
		Op op = store_op(s, n);
		if (op == OP_COUNT || op == OP_FCOUNT || op == OP_PREV)
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
	p->future_latch = e.flatch.data;
	p->nfuture = e.flatch.len;
	p->total = xcalloc(p->nfuture ? p->nfuture : 1, sizeof *p->total);
	pass_programs(p, f, &e);
	VEC_FREE(e.snode);
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
	derive_kernel(p);
}

void machine_free(Machine *p)
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
	free(p->node_of);
	free(p->persistent);
	free(p->pslot);
	free(p->root_slot);
	free(p->total);
	free(p->future_latch);
	free(p->future_level);
	free(p->future_operand);
	free(p->pstep);
	free(p->pstep_off);
	free(p->roots);
	machine_codes_free(&p->codes);
	memset(p, 0, sizeof *p);
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* What explore and chc need besides the program: which slot computes
 * which node, which slots persist, the MOD period, the root slots. */
static void describe(Machine *m)
{
	m->node_of = xcalloc(m->nslots ? m->nslots : 1, sizeof *m->node_of);
	m->persistent = xcalloc(m->nslots ? m->nslots : 1, sizeof *m->persistent);
	for (Node n = 1; n <= m->maxnode; n++)
		if (m->slot_of[n] != UINT32_MAX)
			m->node_of[m->slot_of[n]] = n;
	for (size_t i = 0; i < m->nld; i++)
		m->persistent[i] = true;
	const MachineInstr *lists[2] = {m->step, m->query};
	size_t lens[2] = {m->nstep, m->nquery};
	for (int l = 0; l < 2; l++)
		for (size_t i = 0; i < lens[l]; i++) {
			const MachineInstr *in = &lists[l][i];
			if (in->op == MI_COUNT || in->op == MI_BCOUNT)
				m->persistent[in->dst] = true;
			else if (in->op == MI_PREV || in->op == MI_FCOUNT)
				m->persistent[in->b] = true;
			else if (in->op == MI_MOD && !m->huge_period) {
				uint64_t p = m->period ? m->period : 1;
				uint64_t g = gcd64(p, in->a);
				if (p / g > UINT64_MAX / in->a / 2)
					m->huge_period = true;
				else
					m->period = p / g * in->a;
			}
		}
	m->pslot = xmalloc((m->nslots ? m->nslots : 1) * sizeof *m->pslot);
	for (size_t i = 0; i < m->nslots; i++)
		if (m->persistent[i]) {
			m->big_persistent |= m->big[i];
			m->pslot[m->npslot++] = (uint32_t)i;
		}
	m->root_slot = xmalloc((m->nroots ? m->nroots : 1) * sizeof *m->root_slot);
	for (size_t r = 0; r < m->nroots; r++)
		m->root_slot[r] = m->slot_of[m->roots[r]];
}

void machine_init_bounded(Machine *m, const Store *s, const Node *roots,
			  size_t nroots, bool full, const fmpz_t npos)
{
	memset(m, 0, sizeof *m);
	m->s = s;
	m->roots = xmalloc((nroots ? nroots : 1) * sizeof *m->roots);
	memcpy(m->roots, roots, nroots * sizeof *roots);
	m->nroots = nroots;
	for (size_t r = 0; r < nroots; r++)
		if (roots[r] > m->maxnode)
			m->maxnode = roots[r];
	machine_codes_init(&m->codes, s, roots, nroots);
	MachineFacts f;
	facts_init(&f, s, roots, nroots, &m->codes, npos);
	compile(m, &f, full);
	machine_facts_free(s, &f);
	describe(m);
}

void machine_init(Machine *m, const Store *s, const Node *roots,
		  size_t nroots, bool full)
{
	fmpz_t z;
	fmpz_init_set_ui(z, MACHINE_MAX_POSITIONS + 1);
	machine_init_bounded(m, s, roots, nroots, full, z);
	fmpz_clear(z);
}
