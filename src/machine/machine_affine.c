/* machine_affine.c -- the affine kernel of machine.h: the step program
 * of one pass read from one-byte letters with every value in a register.
 *
 * It is derived from the pass's step program by running it on symbols:
 * every value is either an affine form (integers: a combination of
 * accumulators, the totals of #> and a constant, plus a number that
 * depends on the letter only) or a Boolean function of the letter and of
 * at most AFF_TEST comparisons (a truth table per letter byte over the
 * comparisons' bits).  Accumulators are the letter-driven slots and the
 * latches of #> of letter functions (#>[Q_a] = total - latch + Q_a once
 * the latch has counted the current letter).  Per letter the kernel
 * moves the accumulators and the comparisons' own sums by a table
 * lookup, takes each comparison's bit without a branch, and adds to each
 * count its truth table's bit.  Any other instruction (Y, MOD, min/max,
 * ?:, a count of a count, big numbers) leaves the pass to the block
 * interpreter (machine_run_block).
 */
#include <config.h>
#include "machine/machine.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

enum { AFF_ACC = 6, AFF_TEST = 4, AFF_COUNT = 4, AFF_TOT = 8 };

struct MachineAffine {
	size_t nacc, ntest, ncount;
	uint32_t acc_slot[AFF_ACC];  /* where each accumulator lives */
	int64_t da[AFF_ACC][256];    /* its delta per byte */
	/* comparison t: y = sum_a c[a] acc_a + sum_k tot[k] total[k] + k0,
	 * its bit that of (y + off[b]) (sign bit, or for = and != of
	 * v | -v, e all ones) flipped by f */
	int64_t c[AFF_TEST][AFF_ACC], tot[AFF_TEST][AFF_TOT], k0[AFF_TEST];
	int64_t dy[AFF_TEST][256], off[AFF_TEST][256];
	uint64_t e[AFF_TEST], f[AFF_TEST];
	size_t nbyte;                /* letter bytes; at most MACHINE_KERNEL_BYTES: */
	uint8_t byte[MACHINE_KERNEL_BYTES]; /* the accumulators from counts */
	uint32_t count_slot[AFF_COUNT];
	uint16_t tt[AFF_COUNT][256]; /* bit idx: the count's value */
};

/* A symbolic value. */
typedef struct {
	enum { V_NONE, V_AFF, V_BOOL } kind;
	int64_t c[AFF_ACC], tot[AFF_TOT], k;
	int64_t off[256];
	uint16_t tt[256];
} SymVal;

/* The truth table of comparison t's bit (idx bit t). */
static uint16_t test_table(size_t t)
{
	static const uint16_t bit[AFF_TEST] = {0xaaaa, 0xcccc, 0xf0f0, 0xff00};
	return bit[t];
}

/* Whether v depends on the letter only (no accumulator, no total). */
static bool letter_only(const SymVal *v)
{
	for (size_t a = 0; a < AFF_ACC; a++)
		if (v->c[a])
			return false;
	for (size_t k = 0; k < AFF_TOT; k++)
		if (v->tot[k])
			return false;
	return true;
}

/* v as a Boolean: a comparison's or a letter function's (0/1 per byte). */
static bool as_bool(const SymVal *v, uint16_t *tt)
{
	if (v->kind == V_BOOL) {
		memcpy(tt, v->tt, sizeof v->tt);
		return true;
	}
	if (v->kind != V_AFF || !letter_only(v))
		return false;
	for (int b = 0; b < 256; b++) {
		int64_t x = v->off[b] + v->k;
		if (x != 0 && x != 1)
			return false;
		tt[b] = x ? 0xffff : 0;
	}
	return true;
}

/* d += co * v, false on overflow. */
static bool add_scaled(SymVal *d, int64_t co, const SymVal *v)
{
	bool bad = false;
	int64_t t;
	for (size_t a = 0; a < AFF_ACC; a++) {
		bad |= __builtin_mul_overflow(co, v->c[a], &t);
		bad |= __builtin_add_overflow(d->c[a], t, &d->c[a]);
	}
	for (size_t k = 0; k < AFF_TOT; k++) {
		bad |= __builtin_mul_overflow(co, v->tot[k], &t);
		bad |= __builtin_add_overflow(d->tot[k], t, &d->tot[k]);
	}
	bad |= __builtin_mul_overflow(co, v->k, &t);
	bad |= __builtin_add_overflow(d->k, t, &d->k);
	for (int b = 0; b < 256; b++) {
		bad |= __builtin_mul_overflow(co, v->off[b], &t);
		bad |= __builtin_add_overflow(d->off[b], t, &d->off[b]);
	}
	return !bad;
}

/* A bound on |y + off| of comparison v over words of at most 2^48
 * letters below 2^61, so that y | -y and the sums cannot overflow. */
static long double absl(int64_t x)
{
	return x < 0 ? -(long double)x : (long double)x;
}

static bool small_enough(const MachineAffine *k, const int64_t *init,
			 const SymVal *v)
{
	long double n = (long double)MACHINE_MAX_POSITIONS;
	long double bound = absl(v->k);
	for (size_t a = 0; a < k->nacc; a++) {
		long double m = 0;
		for (int b = 0; b < 256; b++)
			m = absl(k->da[a][b]) > m ? absl(k->da[a][b]) : m;
		bound += absl(v->c[a]) * (m * n + absl(init[k->acc_slot[a]]));
	}
	for (size_t t = 0; t < AFF_TOT; t++)
		bound += absl(v->tot[t]) * n * 2;
	long double m = 0;
	for (int b = 0; b < 256; b++)
		m = absl(v->off[b]) > m ? absl(v->off[b]) : m;
	return bound + m < 0x1p61L;
}

/* One instruction on symbols; false when it is not of the kernel's. */
static bool take(const Machine *p, MachineAffine *k, SymVal *sv,
		 const MachineInstr *in)
{
	SymVal *d = &sv[in->dst];
	const SymVal *a = &sv[in->a];
	memset(d, 0, sizeof *d);
	switch (in->op) {
	case MI_FCOUNT:
		if (a->kind != V_AFF || !letter_only(a) || k->nacc == AFF_ACC ||
		    in->k >= AFF_TOT)
			return false;
		for (int b = 0; b < 256; b++)
			k->da[k->nacc][b] = a->off[b] + a->k;
		k->acc_slot[k->nacc] = in->b;
		d->kind = V_AFF;
		d->c[k->nacc++] = -1;
		d->tot[in->k] = 1;
		for (int b = 0; b < 256; b++)
			d->off[b] = a->off[b] + a->k;
		return true;
	case MI_LIN:
		d->kind = V_AFF;
		d->k = in->k;
		for (uint32_t j = 0; j < in->n; j++) {
			const SymVal *o = &sv[p->opnd[in->off + j]];
			if (o->kind != V_AFF ||
			    !add_scaled(d, p->coef[in->off + j], o))
				return false;
		}
		return true;
	case MI_CMP: {
		if (a->kind != V_AFF)
			return false;
		Rel rel = (Rel)in->rel;
		d->kind = V_BOOL;
		if (letter_only(a)) {
			for (int b = 0; b < 256; b++) {
				int64_t x = a->off[b] + a->k;
				d->tt[b] = machine_rel_holds(rel, (x > 0) - (x < 0))
					 ? 0xffff : 0;
			}
			return true;
		}
		size_t t = k->ntest;
		if (t == AFF_TEST)
			return false;
		/* x REL 0 as the sign of s*x + u (machine.h, the kernel) */
		int64_t s = rel == REL_GT || rel == REL_GE ? -1 : 1;
		int64_t u = rel == REL_LE || rel == REL_GE ? -1 : 0;
		SymVal y = {0};
		if (!add_scaled(&y, s, a) || __builtin_add_overflow(y.k, u, &y.k) ||
		    !small_enough(k, p->init, &y))
			return false;
		memcpy(k->c[t], y.c, sizeof y.c);
		memcpy(k->tot[t], y.tot, sizeof y.tot);
		k->k0[t] = y.k;
		memcpy(k->off[t], y.off, sizeof y.off);
		k->e[t] = rel == REL_EQ || rel == REL_NE ? UINT64_MAX : 0;
		k->f[t] = rel == REL_EQ;
		for (int b = 0; b < 256; b++) {
			int64_t dy = 0;
			for (size_t c = 0; c < k->nacc; c++)
				dy += y.c[c] * k->da[c][b];
			k->dy[t][b] = dy;
		}
		k->ntest++;
		for (int b = 0; b < 256; b++)
			d->tt[b] = test_table(t);
		return true;
	}
	case MI_NOT:
		d->kind = V_BOOL;
		if (!as_bool(a, d->tt))
			return false;
		for (int b = 0; b < 256; b++)
			d->tt[b] ^= 0xffff;
		return true;
	case MI_AND:
	case MI_OR:
		d->kind = V_BOOL;
		for (int b = 0; b < 256; b++)
			d->tt[b] = in->op == MI_AND ? 0xffff : 0;
		for (uint32_t j = 0; j < in->n; j++) {
			uint16_t tt[256];
			if (!as_bool(&sv[p->opnd[in->off + j]], tt))
				return false;
			for (int b = 0; b < 256; b++)
				d->tt[b] = in->op == MI_AND ? d->tt[b] & tt[b]
							    : d->tt[b] | tt[b];
		}
		return true;
	case MI_COUNT:
		if (k->ncount == AFF_COUNT || !as_bool(a, k->tt[k->ncount]))
			return false;
		k->count_slot[k->ncount++] = in->dst;
		return true; /* d stays V_NONE: no count of a count */
	default:
		return false;
	}
}

MachineAffine *machine_affine_new(const Machine *p, const uint32_t *code)
{
	if (p->nld > AFF_ACC || p->nfuture > AFF_TOT || p->big_persistent)
		return NULL;
	for (size_t i = 0; i < p->nslots; i++)
		if (p->big[i])
			return NULL;
	MachineAffine *k = xcalloc(1, sizeof *k);
	SymVal *sv = xcalloc(p->nslots ? p->nslots : 1, sizeof *sv);
	for (size_t i = 0; i < p->nslots; i++) {
		sv[i].kind = V_AFF; /* constants: init[i] */
		sv[i].k = p->init[i];
	}
	for (size_t j = 0; j < p->nld; j++) {
		sv[j].k = 0;
		sv[j].c[j] = 1;
		k->acc_slot[j] = (uint32_t)j;
		for (int b = 0; b < 256; b++)
			k->da[j][b] = code[b] == UINT32_MAX ? 0
				    : p->delta[j * p->ncodes + code[b]];
	}
	k->nacc = p->nld;
	for (int b = 0; b < 256; b++)
		if (code[b] != UINT32_MAX) {
			if (k->nbyte < MACHINE_KERNEL_BYTES)
				k->byte[k->nbyte] = (uint8_t)b;
			k->nbyte++;
		}
	for (size_t j = 0; j < p->nlf; j++) {
		sv[p->nld + j].k = 0;
		for (int b = 0; b < 256; b++)
			sv[p->nld + j].off[b] = code[b] == UINT32_MAX ? 0
				: p->lfrow[(size_t)code[b] * p->nlf + j];
	}
	size_t n;
	const MachineInstr *prog = machine_program(p, &n);
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++)
		ok = take(p, k, sv, &prog[i]);
	free(sv);
	if (!ok) {
		free(k);
		return NULL;
	}
	return k;
}

void machine_affine_free(MachineAffine *k)
{
	free(k);
}

/* The kernel for nacc accumulators, ntest comparisons, ncount counts:
 * constants where it is inlined. */
static inline __attribute__((always_inline)) void
affine_run(const MachineAffine *k, const Machine *p, MachineState *st,
	   const unsigned char *in, size_t n, size_t nacc, size_t ntest,
	   size_t ncount)
{
	int64_t acc[AFF_ACC], y[AFF_TEST], cnt[AFF_COUNT];
	for (size_t a = 0; a < nacc; a++)
		acc[a] = st->V[k->acc_slot[a]];
	for (size_t t = 0; t < ntest; t++) {
		y[t] = k->k0[t];
		for (size_t a = 0; a < nacc; a++)
			y[t] += k->c[t][a] * acc[a];
		for (size_t f = 0; f < p->nfuture && f < AFF_TOT; f++)
			y[t] += k->tot[t][f] * p->total[f];
	}
	for (size_t c = 0; c < ncount; c++)
		cnt[c] = st->V[k->count_slot[c]];
	/* with few letter bytes the accumulators follow from counts */
	bool counted = k->nbyte <= MACHINE_KERNEL_BYTES;
	if (counted) {
		uint64_t got[MACHINE_KERNEL_BYTES];
		machine_count_bytes(k->byte, k->nbyte, in, n, got);
		for (size_t a = 0; a < nacc; a++)
			for (size_t j = 0; j < k->nbyte; j++)
				acc[a] += (int64_t)got[j] * k->da[a][k->byte[j]];
	}
	for (size_t i = 0; i < n; i++) {
		unsigned b = in[i];
#pragma GCC unroll 6
		for (size_t a = 0; a < nacc && !counted; a++)
			acc[a] += k->da[a][b];
		unsigned idx = 0;
#pragma GCC unroll 4
		for (size_t t = 0; t < ntest; t++) {
			y[t] += k->dy[t][b];
			uint64_t u = (uint64_t)(y[t] + k->off[t][b]);
			idx |= (unsigned)(((u | (-u & k->e[t])) >> 63) ^ k->f[t]) << t;
		}
#pragma GCC unroll 4
		for (size_t c = 0; c < ncount; c++)
			cnt[c] += k->tt[c][b] >> idx & 1;
	}
	for (size_t a = 0; a < nacc; a++)
		st->V[k->acc_slot[a]] = acc[a];
	for (size_t c = 0; c < ncount; c++)
		st->V[k->count_slot[c]] = cnt[c];
	st->pos += n;
}

void machine_affine_run(const MachineAffine *k, const Machine *p,
			MachineState *st, const unsigned char *in, size_t n)
{
#define AFFINE_CASE(a, t, c) \
	case (a) * 64 + (t) * 8 + (c): \
		affine_run(k, p, st, in, n, (a), (t), (c)); \
		return
	switch (k->nacc * 64 + k->ntest * 8 + k->ncount) {
	AFFINE_CASE(1, 1, 1); AFFINE_CASE(2, 1, 1); AFFINE_CASE(3, 1, 1);
	AFFINE_CASE(3, 2, 1); AFFINE_CASE(2, 2, 1); AFFINE_CASE(3, 2, 2);
	default:
		affine_run(k, p, st, in, n, k->nacc, k->ntest, k->ncount);
	}
#undef AFFINE_CASE
}
