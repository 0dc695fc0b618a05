/* blockeval.c -- one long word on several cores, in passes over blocks
 * (blockeval.h). */
#include <config.h>
#include "machine/blockeval.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/parallel.h"

/* ---- levels ------------------------------------------------------------- */

/* The slots instruction in reads (none for MI_MOD, whose a and b are
 * numbers); n receives how many. */
static const uint32_t *operands(const Machine *m, const MachineInstr *in,
				uint32_t buf[3], size_t *n)
{
	switch (in->op) {
	case MI_AND: case MI_OR: case MI_LIN:
		*n = in->n;
		return m->opnd ? m->opnd + in->off : buf;
	case MI_ITE:
		buf[2] = in->c;
		/* fall through */
	case MI_MIN: case MI_MAX:
		buf[1] = in->b;
		/* fall through */
	case MI_NOT: case MI_CMP: case MI_COUNT:
		buf[0] = in->a;
		*n = in->op == MI_ITE ? 3 : in->op == MI_MIN || in->op == MI_MAX ? 2 : 1;
		return buf;
	default:
		*n = 0;
		return buf;
	}
}

/* lv[slot]: the largest level of a persistent slot the slot's value
 * depends on (0: letters and position only); for a count, its own
 * level.  Returns the largest level of a count, or -1 when m is not for
 * blocks (an instruction other than the small past-only ones, or a
 * persistent slot that is neither letter-driven nor a count). */
static int levels(const Machine *m, unsigned *lv)
{
	if (m->fdepth || m->big_persistent || !(m->blockable || m->kernel.on))
		return -1;
	for (size_t i = 0; i < m->nslots; i++)
		lv[i] = i < m->nld;
	int top = 0;
	for (size_t k = 0; k < m->nstep; k++) {
		const MachineInstr *in = &m->step[k];
		switch (in->op) {
		case MI_NOT: case MI_AND: case MI_OR: case MI_CMP: case MI_COUNT:
		case MI_MOD: case MI_LIN: case MI_ITE: case MI_MIN: case MI_MAX:
			break;
		default:
			return -1;
		}
		uint32_t buf[3];
		size_t n;
		const uint32_t *op = operands(m, in, buf, &n);
		unsigned v = 0;
		for (size_t j = 0; j < n; j++)
			v = lv[op[j]] > v ? lv[op[j]] : v;
		if (in->op == MI_COUNT) {
			v++;
			top = (int)v > top ? (int)v : top;
		}
		lv[in->dst] = v;
	}
	for (size_t i = m->nld; i < m->nslots; i++) {
		if (!m->persistent[i])
			continue;
		bool counted = false;
		for (size_t k = 0; k < m->nstep; k++)
			counted |= m->step[k].op == MI_COUNT && m->step[k].dst == i;
		if (!counted)
			return -1;
	}
	return top;
}

bool blockeval_supports(const Machine *m)
{
	unsigned *lv = xmalloc((m->nslots ? m->nslots : 1) * sizeof *lv);
	bool ok = levels(m, lv) >= 0;
	free(lv);
	return ok;
}

/* ---- counting letters --------------------------------------------------- */

/* 16 bytes: one SSE2 or NEON register (wider vectors than the target
 * has are split by GCC one lane at a time). */
typedef uint8_t Bytes16 __attribute__((vector_size(16)));

/* How often each of the k bytes want[0..k) occurs in p[0..n), added to
 * out[0..k): 16 bytes per round, the byte counters of a lane widened
 * every 255 rounds.  k is a constant where it is inlined. */
static inline __attribute__((always_inline)) void
count_bytes(const unsigned char *p, size_t n, const Bytes16 *want, size_t k,
	    uint64_t *out)
{
	size_t i = 0;
	while (n - i >= 16) {
		size_t rounds = (n - i) / 16 < 255 ? (n - i) / 16 : 255;
		Bytes16 acc[4] = {{0}, {0}, {0}, {0}};
		for (size_t r = 0; r < rounds; r++, i += 16) {
			Bytes16 x;
			memcpy(&x, p + i, sizeof x);
			for (size_t j = 0; j < k; j++)
				acc[j] -= (Bytes16)(x == want[j]);
		}
		for (size_t j = 0; j < k; j++)
			for (size_t l = 0; l < 16; l++)
				out[j] += acc[j][l];
	}
	for (; i < n; i++)
		for (size_t j = 0; j < k; j++)
			out[j] += p[i] == want[j][0];
}

/* count[c] += how often letter code c occurs in p[0..n); false when
 * some byte is not a letter.  Few letter bytes (the common alphabets)
 * are counted by vector compares, more by a table of 256 counters. */
static bool count_letters(const unsigned char *p, size_t n,
			  const uint32_t *code, size_t ncodes, uint64_t *count)
{
	Bytes16 want[4];
	unsigned char byte[4];
	size_t k = 0;
	for (int b = 0; b < 256 && k <= 4; b++)
		if (code[b] != UINT32_MAX) {
			if (k < 4) {
				byte[k] = (unsigned char)b;
				for (size_t l = 0; l < 16; l++)
					want[k][l] = (uint8_t)b;
			}
			k++;
		}
	uint64_t got[256] = {0};
	if (k <= 4) {
		switch (k) {
		case 1: count_bytes(p, n, want, 1, got); break;
		case 2: count_bytes(p, n, want, 2, got); break;
		case 3: count_bytes(p, n, want, 3, got); break;
		case 4: count_bytes(p, n, want, 4, got); break;
		default: break;
		}
		uint64_t letters = 0;
		for (size_t j = 0; j < k; j++) {
			count[code[byte[j]]] += got[j];
			letters += got[j];
		}
		return letters == n;
	}
	for (size_t i = 0; i < n; i++)
		got[p[i]]++;
	for (int b = 0; b < 256; b++) {
		if (got[b] && code[b] == UINT32_MAX)
			return false;
		if (got[b])
			count[code[b]] += got[b];
	}
	(void)ncodes;
	return true;
}

/* ---- the passes ------------------------------------------------------- */

typedef struct {
	const Machine *m;
	const uint32_t *code;
	const MachineByteMap *map; /* the register kernel's, or NULL */
	const unsigned char *in;
	size_t n, nb;              /* letters in blocks; blocks */
	const unsigned *lv;
	unsigned level;            /* the pass */
	uint64_t *count;           /* nb x ncodes: letters per block */
	bool *bad;                 /* per block: a byte that is not a letter */
	int64_t *start;            /* nb x nslots: exact persistent starts */
	int64_t *add;              /* nb x nslots: what a block adds */
	MachineState *st;          /* per block */
	MachineBlock *bk;          /* per worker (not with the kernel) */
} Job;

static size_t block_lo(const Job *J, size_t b)
{
	return (size_t)((unsigned __int128)J->n * b / J->nb);
}

static void count_task(void *ctx, unsigned worker, size_t b)
{
	Job *J = ctx;
	size_t lo = block_lo(J, b), hi = block_lo(J, b + 1);
	J->bad[b] = !count_letters(J->in + lo, hi - lo, J->code, J->m->ncodes,
				   J->count + b * J->m->ncodes);
	(void)worker;
}

/* Reads p[0..n), every byte a letter, into st. */
static void run_bytes(const Job *J, MachineState *st, MachineBlock *bk,
		      const unsigned char *p, size_t n)
{
	const Machine *m = J->m;
	if (J->map) {
		machine_run_mapped(m, st, J->map, p, n);
		return;
	}
	while (n) {
		size_t k = n < m->blk ? n : m->blk;
		for (size_t i = 0; i < k; i++)
			bk->codes[i] = J->code[p[i]];
		machine_run_block(m, st, bk, k);
		p += k;
		n -= k;
	}
}

/* Whether slot i's start is known in pass J->level: letter-driven
 * slots from pass 0, counts below the level from earlier passes. */
static bool known(const Job *J, size_t i)
{
	return i < J->m->nld || J->lv[i] < J->level;
}

/* Whether some count has level J->level (a pass is needed). */
static bool has_counts(const Job *J)
{
	for (size_t i = J->m->nld; i < J->m->nslots; i++)
		if (J->m->persistent[i] && J->lv[i] == J->level)
			return true;
	return false;
}

static void level_task(void *ctx, unsigned worker, size_t b)
{
	Job *J = ctx;
	const Machine *m = J->m;
	MachineState *st = &J->st[b];
	const int64_t *start = J->start + b * m->nslots;
	for (size_t i = 0; i < m->nslots; i++)
		if (m->persistent[i])
			st->V[i] = known(J, i) ? start[i] : 0;
	size_t lo = block_lo(J, b), hi = block_lo(J, b + 1);
	st->pos = lo;
	run_bytes(J, st, J->bk ? &J->bk[worker] : NULL, J->in + lo, hi - lo);
	for (size_t i = m->nld; i < m->nslots; i++)
		if (m->persistent[i] && J->lv[i] == J->level)
			J->add[b * m->nslots + i] = st->V[i];
}

/* start of block b + 1 = start of block b + what b adds, for the slots
 * selected; block 0 starts from the empty word's values. */
static void prefix_sums(Job *J, bool ld, unsigned level)
{
	const Machine *m = J->m;
	for (size_t b = 0; b < J->nb; b++)
		for (size_t i = 0; i < m->nslots; i++) {
			bool mine = i < m->nld ? ld
				  : m->persistent[i] && J->lv[i] == level;
			if (!mine)
				continue;
			int64_t *s = J->start + b * m->nslots + i;
			s[m->nslots] = s[0] + J->add[b * m->nslots + i];
		}
}

/* What each block adds to the letter-driven slots, from its letters. */
static void letter_adds(Job *J)
{
	const Machine *m = J->m;
	for (size_t b = 0; b < J->nb; b++)
		for (size_t i = 0; i < m->nld; i++) {
			int64_t d = 0;
			for (size_t c = 0; c < m->ncodes; c++)
				d += (int64_t)J->count[b * m->ncodes + c] *
				     m->delta[i * m->ncodes + c];
			J->add[b * m->nslots + i] = d;
		}
}

/* Blocks per pass: one per thread for short words (so that --jobs=2, 3
 * and 7 cut a test word differently), four per thread for long ones
 * (a core slowed by other work then holds up a quarter of its share). */
static size_t blocks_for(size_t n, unsigned jobs)
{
	return n < ((size_t)1 << 20) ? jobs : (size_t)jobs * 4;
}

/* Threads for n letters: short words are cut in blocks all the same but
 * run in the calling thread, where starting threads would cost more. */
static unsigned threads_for(size_t n, unsigned jobs)
{
	return n < (size_t)jobs * 4096 ? 1 : jobs;
}

bool blockeval_run(const Machine *m, MachineState *st, const uint32_t *code,
		   const unsigned char *in, size_t n, unsigned jobs)
{
	if (n == 0 || n > MACHINE_MAX_POSITIONS)
		return false;
	unsigned *lv = xmalloc((m->nslots ? m->nslots : 1) * sizeof *lv);
	int top = levels(m, lv);
	if (top < 0) {
		free(lv);
		return false;
	}
	jobs = jobs < 1 ? 1 : jobs > PARALLEL_MAX_JOBS ? PARALLEL_MAX_JOBS : jobs;
	Job J = {.m = m, .code = code, .in = in, .n = n - 1, .lv = lv};
	J.nb = blocks_for(J.n, jobs);
	unsigned threads = threads_for(J.n, jobs);
	size_t ns = m->nslots ? m->nslots : 1;
	J.count = xcalloc(J.nb * m->ncodes, sizeof *J.count);
	J.bad = xcalloc(J.nb, sizeof *J.bad);
	J.start = xcalloc((J.nb + 1) * ns, sizeof *J.start);
	J.add = xcalloc(J.nb * ns, sizeof *J.add);
	parallel_each(threads, J.nb, count_task, &J);
	bool ok = code[in[n - 1]] != UINT32_MAX;
	for (size_t b = 0; b < J.nb; b++)
		ok &= !J.bad[b];
	MachineByteMap *map = NULL;
	if (ok && m->kernel.on && m->ncodes <= MACHINE_KERNEL_CODES) {
		uint8_t c8[256];
		for (int b = 0; b < 256; b++)
			c8[b] = code[b] == UINT32_MAX ? 0xff : (uint8_t)code[b];
		map = xmalloc(sizeof *map);
		machine_byte_map(m, map, c8);
		J.map = map;
	}
	if (ok && top > 0) {
		/* the states and scratch are made here: the threads only
		 * write int64 slots, never FLINT's numbers */
		J.st = xmalloc(J.nb * sizeof *J.st);
		for (size_t b = 0; b < J.nb; b++)
			machine_state_init(m, &J.st[b]);
		if (!J.map) {
			J.bk = xmalloc(threads * sizeof *J.bk);
			for (unsigned w = 0; w < threads; w++)
				machine_block_init(m, &J.bk[w]);
		}
	}
	if (ok) {
		for (size_t i = 0; i < m->nslots; i++)
			if (m->persistent[i])
				J.start[i] = st->V[i]; /* the empty word's */
		letter_adds(&J);
		prefix_sums(&J, true, 0);
		for (J.level = 1; J.level <= (unsigned)top; J.level++)
			if (has_counts(&J)) {
				parallel_each(threads, J.nb, level_task, &J);
				prefix_sums(&J, false, J.level);
			}
		/* the state after n - 1 letters, then the last letter */
		for (size_t i = 0; i < m->nslots; i++)
			if (m->persistent[i])
				st->V[i] = J.start[J.nb * ns + i];
		st->pos = J.n;
		machine_step(m, st, code[in[n - 1]]);
	}
	if (J.st)
		for (size_t b = 0; b < J.nb; b++)
			machine_state_free(m, &J.st[b]);
	if (J.bk)
		for (unsigned w = 0; w < threads; w++)
			machine_block_free(&J.bk[w]);
	free(J.st);
	free(J.bk);
	free(map);
	free(J.count);
	free(J.bad);
	free(J.start);
	free(J.add);
	free(lv);
	return ok;
}
