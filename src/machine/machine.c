/* machine.c -- running the streaming machine of machine.h (compiled by
 * machine_compile.c): states, one letter or a block of letters at a time,
 * the verdicts, and the packed states explore and chc keep.
 */
#include <config.h>
#include "machine/machine.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/* ---- running it --------------------------------------------------------- */

void machine_state_init(const Machine *m, MachineState *st)
{
	size_t nslots = m->nslots;
	st->V = xcalloc(nslots ? nslots : 1, sizeof *st->V);
	st->B = xcalloc(nslots ? nslots : 1, sizeof *st->B);
	st->pos = 0;
	machine_reset(m, st); /* constant slots hold their values from now */
}

void machine_state_free(const Machine *m, MachineState *st)
{
	for (size_t i = 0; i < m->nslots; i++)
		fmpz_clear(&st->B[i]);
	free(st->V);
	free(st->B);
}

void machine_state_copy(const Machine *p, MachineState *dst,
			const MachineState *src)
{
	memcpy(dst->V, src->V, p->nslots * sizeof *dst->V);
	for (size_t i = 0; i < p->nslots; i++)
		if (p->big[i])
			fmpz_set(&dst->B[i], &src->B[i]);
	dst->pos = src->pos;
}

/* Bit (sign + 1) of rel_mask[rel] tells whether "x REL 0" holds. */
static const uint8_t rel_mask[] = {
	[REL_LT] = 1, [REL_LE] = 3, [REL_EQ] = 2,
	[REL_NE] = 5, [REL_GE] = 6, [REL_GT] = 4,
};

bool machine_rel_holds(Rel rel, int sg)
{
	return rel_mask[rel] >> (sg + 1) & 1;
}

static void get_big(const Machine *p, const MachineState *st, uint32_t slot, fmpz_t out)
{
	if (p->big[slot])
		fmpz_set(out, &st->B[slot]);
	else
		fmpz_set_si(out, st->V[slot]);
}

static void run_big(const Machine *p, MachineState *st, const MachineInstr *in,
		    bool pos0)
{
	fmpz_t x, y;
	fmpz_init(x);
	fmpz_init(y);
	fmpz *d = &st->B[in->dst];
	switch (in->op) {
	case MI_BCOUNT:
		if (pos0)
			fmpz_zero(d);
		else
			fmpz_add_ui(d, d, (ulong)st->V[in->a]);
		break;
	case MI_BCMP:
		st->V[in->dst] =
			rel_mask[in->rel] >> (fmpz_sgn(&st->B[in->a]) + 1) & 1;
		break;
	case MI_BLIN:
		fmpz_set(d, &p->bconst[in->k]);
		for (uint32_t j = 0; j < in->n; j++) {
			get_big(p, st, p->opnd[in->off + j], x);
			fmpz_addmul(d, &p->bcoef[in->off + j], x);
		}
		break;
	case MI_BITE: get_big(p, st, st->V[in->a] ? in->b : in->c, d); break;
	case MI_BMIN:
	case MI_BMAX:
		get_big(p, st, in->a, x);
		get_big(p, st, in->b, y);
		fmpz_set(d, (fmpz_cmp(x, y) < 0) == (in->op == MI_BMIN) ? x : y);
		break;
	}
	fmpz_clear(x);
	fmpz_clear(y);
}

/* pos0: the empty word's position 0, where counts are 0 and Y is false. */
static inline void run(const Machine *p, MachineState *st, const MachineInstr *code, size_t n,
		       bool pos0)
{
	int64_t *V = st->V;
	const uint32_t *op = p->opnd;
	for (size_t i = 0; i < n; i++) {
		const MachineInstr *in = &code[i];
		int64_t x;
		switch (in->op) {
		case MI_NOT: V[in->dst] = !V[in->a]; break;
		case MI_AND:
			x = 1;
			for (uint32_t j = 0; j < in->n; j++)
				x &= V[op[in->off + j]];
			V[in->dst] = x;
			break;
		case MI_OR:
			x = 0;
			for (uint32_t j = 0; j < in->n; j++)
				x |= V[op[in->off + j]];
			V[in->dst] = x;
			break;
		case MI_CMP:
			x = V[in->a];
			V[in->dst] = rel_mask[in->rel] >> ((x > 0) - (x < 0) + 1) & 1;
			break;
		case MI_COUNT: V[in->dst] = pos0 ? 0 : V[in->dst] + V[in->a]; break;
		case MI_PREV:
			V[in->dst] = pos0 ? 0 : V[in->b];
			V[in->b] = pos0 ? 0 : V[in->a];
			break;
		case MI_FCOUNT:
			V[in->dst] = pos0 ? 0 : p->total[in->k] - V[in->b];
			V[in->b] = pos0 ? 0 : V[in->b] + V[in->a];
			break;
		case MI_MOD: V[in->dst] = st->pos % in->a == in->b; break;
		case MI_LIN:
			x = in->k;
			for (uint32_t j = 0; j < in->n; j++)
				x += p->coef[in->off + j] * V[op[in->off + j]];
			V[in->dst] = x;
			break;
		case MI_ITE: V[in->dst] = V[in->a] ? V[in->b] : V[in->c]; break;
		case MI_MIN:
			V[in->dst] = V[in->a] < V[in->b] ? V[in->a] : V[in->b];
			break;
		case MI_MAX:
			V[in->dst] = V[in->a] > V[in->b] ? V[in->a] : V[in->b];
			break;
		default: run_big(p, st, in, pos0); break;
		}
	}
}

const MachineInstr *machine_program(const Machine *p, size_t *n)
{
	if (p->pass >= p->fdepth) {
		*n = p->nstep;
		return p->step;
	}
	*n = p->pstep_off[p->pass + 1] - p->pstep_off[p->pass];
	return p->pstep + p->pstep_off[p->pass];
}

void machine_begin_pass(Machine *m, unsigned k)
{
	m->pass = k;
}

void machine_step(const Machine *p, MachineState *st, uint32_t code)
{
	int64_t *V = st->V;
	st->pos++;
	for (size_t j = 0; j < p->nld; j++)
		V[j] += p->delta[j * p->ncodes + code];
	if (p->nlf)
		memcpy(V + p->nld, p->lfrow + (size_t)code * p->nlf,
		       p->nlf * sizeof *V);
	size_t n;
	const MachineInstr *prog = machine_program(p, &n);
	run(p, st, prog, n, false);
}

void machine_block_init(const Machine *p, MachineBlock *bk)
{
	bk->col = xmalloc((p->nslots ? p->nslots : 1) * p->blk * sizeof *bk->col);
	bk->codes = xmalloc(p->blk * sizeof *bk->codes);
	/* Columns of constants never change; the others are overwritten. */
	for (size_t sl = p->nld + p->nlf; sl < p->nslots; sl++)
		for (size_t i = 0; i < p->blk; i++)
			bk->col[sl * p->blk + i] = p->init[sl];
}

void machine_block_free(MachineBlock *bk)
{
	free(bk->col);
	free(bk->codes);
}

/* The step program over the m <= blk positions whose codes are in
 * bk->codes and that end at st->pos: one tight loop per instruction. */
/* d[i] = (a[i] REL 0): one loop per relation, so that each is a plain
 * comparison the compiler vectorises (the sign-indexed mask of
 * machine_rel_holds is a variable shift per element, three times
 * slower on the dyck1 program). */
static void compare_column(Rel rel, const int64_t *a, int64_t *d, size_t m)
{
#define COMPARE_LOOP(test)                                               \
	_Pragma("GCC unroll 4") for (size_t i = 0; i < m; i++) d[i] = (test); \
	break
	switch (rel) {
	case REL_LT: COMPARE_LOOP(a[i] < 0);
	case REL_LE: COMPARE_LOOP(a[i] <= 0);
	case REL_EQ: COMPARE_LOOP(a[i] == 0);
	case REL_NE: COMPARE_LOOP(a[i] != 0);
	case REL_GE: COMPARE_LOOP(a[i] >= 0);
	case REL_GT: COMPARE_LOOP(a[i] > 0);
	}
#undef COMPARE_LOOP
}

void machine_run_block(const Machine *p, MachineState *st, MachineBlock *bk,
		       size_t m)
{
	int64_t *V = st->V;
	const size_t nb = p->blk;
	const uint32_t *codes = bk->codes;
	st->pos += m;
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
	size_t nstep;
	const MachineInstr *prog = machine_program(p, &nstep);
	for (size_t k = 0; k < nstep; k++) {
		const MachineInstr *in = &prog[k];
		int64_t *d = COL(in->dst), acc;
		const int64_t *a = COL(in->a), *b = COL(in->b), *c = COL(in->c);
		/* opnd is NULL in a machine without n-ary instructions,
		 * and NULL + 0 is undefined */
		const uint32_t *op = p->opnd ? p->opnd + in->off : NULL;
		switch (in->op) {
		case MI_NOT:
			for (size_t i = 0; i < m; i++)
				d[i] = !a[i];
			break;
		case MI_AND:
		case MI_OR:
			memcpy(d, COL(op[0]), m * sizeof *d);
			for (uint32_t j = 1; j < in->n; j++) {
				const int64_t *x = COL(op[j]);
				if (in->op == MI_AND)
					for (size_t i = 0; i < m; i++)
						d[i] &= x[i];
				else
					for (size_t i = 0; i < m; i++)
						d[i] |= x[i];
			}
			break;
		case MI_CMP:
			compare_column(in->rel, a, d, m);
			break;
		case MI_COUNT:
			acc = V[in->dst];
			for (size_t i = 0; i < m; i++) {
				acc += a[i];
				d[i] = acc;
			}
			break;
		case MI_PREV:
			acc = V[in->b];
			for (size_t i = 0; i < m; i++) {
				d[i] = acc;
				acc = a[i];
			}
			V[in->b] = acc;
			break;
		case MI_FCOUNT: {
			int64_t total = p->total[in->k];
			acc = V[in->b];
			for (size_t i = 0; i < m; i++) {
				d[i] = total - acc;
				acc += a[i];
			}
			V[in->b] = acc;
			break;
		}
		case MI_MOD: {
			uint64_t ph = (st->pos - m + 1) % in->a;
			for (size_t i = 0; i < m; i++) {
				d[i] = ph == in->b;
				if (++ph == in->a)
					ph = 0;
			}
			break;
		}
		case MI_LIN:
			for (size_t i = 0; i < m; i++)
				d[i] = in->k;
			for (uint32_t j = 0; j < in->n; j++) {
				int64_t co = p->coef[in->off + j];
				const int64_t *x = COL(op[j]);
				for (size_t i = 0; i < m; i++)
					d[i] += co * x[i];
			}
			break;
		case MI_ITE:
			for (size_t i = 0; i < m; i++)
				d[i] = a[i] ? b[i] : c[i];
			break;
		case MI_MIN:
			for (size_t i = 0; i < m; i++)
				d[i] = a[i] < b[i] ? a[i] : b[i];
			break;
		case MI_MAX:
			for (size_t i = 0; i < m; i++)
				d[i] = a[i] > b[i] ? a[i] : b[i];
			break;
		}
		V[in->dst] = d[m - 1];
	}
#undef COL
}

void machine_reset(const Machine *p, MachineState *st)
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
	size_t n;
	const MachineInstr *prog = machine_program(p, &n);
	run(p, st, prog, n, true);
}

void machine_letter_totals(Machine *m, const uint64_t *count)
{
	assert(m->letter_totals);
	for (size_t k = 0; k < m->nfuture; k++) {
		if (m->future_level[k] != 1)
			continue;
		uint32_t a = m->future_operand[k] - (uint32_t)m->nld;
		int64_t t = 0;
		for (size_t c = 0; c < m->ncodes; c++)
			t += (int64_t)count[c] * m->lfrow[c * m->nlf + a];
		m->total[k] = t;
	}
}

void machine_take_totals(Machine *m, const MachineState *st)
{
	for (size_t k = 0; k < m->nfuture; k++)
		if (m->future_level[k] == m->pass + 1)
			m->total[k] = st->V[m->future_latch[k]];
}

void machine_query(const Machine *m, MachineState *st)
{
	run(m, st, m->query, m->nquery, false);
}

/* The position's contribution to the persistent state. */
static uint64_t phase(const Machine *m, const MachineState *st)
{
	if (m->huge_period)
		return st->pos;
	return m->period ? st->pos % m->period : 0;
}

/* One round of mixing per 64-bit word, then a final avalanche (the
 * table of explore masks the low bits). */
static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x100000001b3u;
	return h ^ h >> 29;
}

static uint64_t finish(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdu;
	return h ^ h >> 33;
}

uint64_t machine_state_hash(const Machine *m, const MachineState *st)
{
	assert(!m->big_persistent);
	uint64_t h = 0xcbf29ce484222325u;
	for (size_t i = 0; i < m->npslot; i++)
		h = mix(h, (uint64_t)st->V[m->pslot[i]]);
	return finish(mix(h, phase(m, st)));
}

uint64_t machine_packed_hash(const int64_t *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325u;
	for (size_t i = 0; i < len; i++)
		h = mix(h, (uint64_t)p[i]);
	return finish(h);
}

bool machine_state_equal(const Machine *m, const MachineState *a,
			 const MachineState *b)
{
	if (phase(m, a) != phase(m, b))
		return false;
	for (size_t i = 0; i < m->npslot; i++)
		if (a->V[m->pslot[i]] != b->V[m->pslot[i]])
			return false;
	return true;
}

size_t machine_packed_len(const Machine *m)
{
	return m->npslot + 1;
}

void machine_pack(const Machine *m, const MachineState *st, int64_t *out)
{
	assert(!m->big_persistent);
	for (size_t i = 0; i < m->npslot; i++)
		out[i] = st->V[m->pslot[i]];
	out[m->npslot] = (int64_t)phase(m, st);
}

void machine_unpack(const Machine *m, MachineState *st, const int64_t *in,
		    uint64_t pos)
{
	for (size_t i = 0; i < m->npslot; i++)
		st->V[m->pslot[i]] = in[i];
	st->pos = pos;
}
