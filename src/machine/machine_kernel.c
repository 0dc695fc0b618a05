/* machine_kernel.c -- the register kernel of machine.h: one-byte letters
 * read with every value in a register, no dispatch per letter.
 *
 * The input goes in blocks of KERNEL_BLOCK bytes.  Per block, only the
 * counted tests are stepped letter by letter (one add, one shift, one
 * add each); the letter-driven slots follow from how often each letter
 * occurs (vector compares when at most MACHINE_KERNEL_BYTES bytes are
 * letters), and so does the check that every byte is a letter, so the
 * letter loop has no branch and no check.  The rare block with a
 * non-letter is cut before it and read again.  Every other value (the
 * uncounted tests) follows at the end from the letter-driven slots.
 */
#include <config.h>
#include "machine/machine.h"

#include <assert.h>
#include <string.h>

/* Bytes per block: 128 rounds of 16 bytes, so a lane's byte counter
 * cannot overflow. */
enum { KERNEL_BLOCK = 2048 };

/* 16 bytes: one SSE2 or NEON register (GCC splits wider vectors). */
typedef uint8_t Bytes16 __attribute__((vector_size(16)));

/* The sign bit of y, or for = and != (e all ones) of y | -y, which is
 * set exactly when y is not 0 (|y| < 2^62 by the static bounds); not
 * yet flipped by the test's f. */
static inline uint64_t raw_bit(uint64_t e, int64_t y)
{
	uint64_t u = (uint64_t)y;
	return (u | (-u & e)) >> 63;
}

static inline int64_t test_bit(const MachineTest *t, int64_t y)
{
	return (int64_t)(raw_bit(t->e, y) ^ t->f);
}

void machine_byte_map(const Machine *p, MachineByteMap *map,
		      const uint8_t *code)
{
	const MachineKernel *k = &p->kernel;
	memset(map, 0, sizeof *map);
	for (size_t j = 0; j < k->ntest; j++)
		if (k->test[j].dst != UINT32_MAX)
			map->count[map->ncount++] = k->test[j];
	for (int b = 0; b < 256; b++) {
		map->other[b] = code[b] == 0xff;
		if (code[b] == 0xff)
			continue;
		if (map->nbyte < MACHINE_KERNEL_BYTES)
			map->byte[map->nbyte] = (uint8_t)b;
		map->nbyte++;
		for (size_t j = 0; j < p->nld; j++)
			map->dx[j][b] = p->delta[j * p->ncodes + code[b]];
		for (size_t j = 0; j < map->ncount; j++)
			map->dy[j][b] = map->count[j].s *
					map->dx[map->count[j].ld][b];
	}
}

/* got[j] = how often byte[j] occurs in p[0..n), n <= KERNEL_BLOCK, for
 * the first k bytes (k a constant where it is inlined). */
static inline __attribute__((always_inline)) void
count_k(const uint8_t *byte, const unsigned char *p, size_t n, size_t k,
	uint64_t *got)
{
	Bytes16 want[MACHINE_KERNEL_BYTES], acc[MACHINE_KERNEL_BYTES];
	for (size_t j = 0; j < k; j++) {
		for (size_t l = 0; l < 16; l++)
			want[j][l] = byte[j];
		acc[j] = (Bytes16){0};
	}
	size_t i = 0;
	for (; i + 16 <= n; i += 16) {
		Bytes16 x;
		memcpy(&x, p + i, sizeof x);
		for (size_t j = 0; j < k; j++)
			acc[j] -= (Bytes16)(x == want[j]);
	}
	for (size_t j = 0; j < k; j++) {
		got[j] = 0;
		for (size_t l = 0; l < 16; l++)
			got[j] += acc[j][l];
		for (size_t q = i; q < n; q++)
			got[j] += p[q] == byte[j];
	}
}

/* count_k for nbyte (1 to MACHINE_KERNEL_BYTES) bytes, n <=
 * KERNEL_BLOCK; returns the sum of the counts. */
static uint64_t count_block(const uint8_t *byte, size_t nbyte,
			    const unsigned char *p, size_t n, uint64_t *got)
{
	switch (nbyte) {
	case 1: count_k(byte, p, n, 1, got); break;
	case 2: count_k(byte, p, n, 2, got); break;
	case 3: count_k(byte, p, n, 3, got); break;
	default: count_k(byte, p, n, 4, got); break;
	}
	uint64_t all = 0;
	for (size_t j = 0; j < nbyte; j++)
		all += got[j];
	return all;
}

uint64_t machine_count_bytes(const uint8_t *byte, size_t nbyte,
			     const unsigned char *p, size_t n, uint64_t *got)
{
	uint64_t all = 0, part[MACHINE_KERNEL_BYTES];
	for (size_t j = 0; j < nbyte; j++)
		got[j] = 0;
	for (size_t i = 0; i < n; i += KERNEL_BLOCK) {
		size_t m = n - i < KERNEL_BLOCK ? n - i : KERNEL_BLOCK;
		all += count_block(byte, nbyte, p + i, m, part);
		for (size_t j = 0; j < nbyte; j++)
			got[j] += part[j];
	}
	return all;
}

/* count_block for the map's letter bytes. */
static uint64_t count_letters(const MachineByteMap *map,
			      const unsigned char *p, size_t n, uint64_t *got)
{
	return count_block(map->byte, map->nbyte, p, n, got);
}

/* The first of p[0..n) that is not a letter, or n. */
static size_t letters_before(const MachineByteMap *map,
			     const unsigned char *p, size_t n)
{
	size_t i = 0;
	while (i < n && !map->other[p[i]])
		i++;
	return i;
}

/* The kernel for nld slots, ncnt counted tests, sign (every counted test
 * a sign bit: no = or !=): constants where it is inlined. */
static inline __attribute__((always_inline)) size_t
kernel_run(const Machine *p, MachineState *st, const MachineByteMap *map,
	   const unsigned char *in, size_t n, size_t nld, size_t ncnt,
	   bool sign)
{
	const MachineKernel *k = &p->kernel;
	const bool vec = map->nbyte <= MACHINE_KERNEL_BYTES;
	int64_t x[MACHINE_KERNEL_LD], y[MACHINE_KERNEL_COUNTS];
	int64_t cnt[MACHINE_KERNEL_COUNTS];
	uint64_t e[MACHINE_KERNEL_COUNTS];
	for (size_t j = 0; j < nld; j++)
		x[j] = st->V[j];
	for (size_t j = 0; j < ncnt; j++) {
		const MachineTest *t = &map->count[j];
		y[j] = t->s * x[t->ld] + t->t;
		cnt[j] = st->V[t->dst];
		e[j] = sign ? 0 : t->e;
	}
	size_t i = 0;
	for (bool more = true; more && i < n;) {
		const unsigned char *b = in + i;
		size_t m = n - i < KERNEL_BLOCK ? n - i : KERNEL_BLOCK;
		uint64_t got[MACHINE_KERNEL_BYTES];
		bool cut = false;
		if (vec) {
			cut = count_letters(map, b, m, got) != m;
		} else {
			uint8_t other = 0;
			for (size_t q = 0; q < m; q++)
				other |= map->other[b[q]];
			cut = other;
		}
		if (cut) {
			m = letters_before(map, b, m);
			more = false;
			if (vec)
				count_letters(map, b, m, got);
		}
		/* the letter-driven slots from the letters' counts */
		if (vec)
			for (size_t j = 0; j < nld; j++)
				for (size_t c = 0; c < map->nbyte; c++)
					x[j] += (int64_t)got[c] *
						map->dx[j][map->byte[c]];
		else
			for (size_t j = 0; j < nld; j++)
				for (size_t q = 0; q < m; q++)
					x[j] += map->dx[j][b[q]];
		/* the counted tests, letter by letter: the raw bits are
		 * summed and flipped once per block */
		uint64_t raw[MACHINE_KERNEL_COUNTS] = {0};
#pragma GCC unroll 8
		for (size_t q = 0; q < m; q++)
			for (size_t j = 0; j < ncnt; j++) {
				y[j] += map->dy[j][b[q]];
				raw[j] += raw_bit(e[j], y[j]);
			}
		for (size_t j = 0; j < ncnt; j++)
			cnt[j] += (int64_t)(map->count[j].f ? m - raw[j] : raw[j]);
		i += m;
	}
	for (size_t j = 0; j < nld; j++)
		st->V[j] = x[j];
	for (size_t j = 0; j < k->ntest; j++) {
		const MachineTest *t = &k->test[j];
		st->V[t->cmp] = test_bit(t, t->s * x[t->ld] + t->t);
	}
	for (size_t j = 0; j < ncnt; j++)
		st->V[map->count[j].dst] = cnt[j];
	st->pos += i;
	return i;
}

size_t machine_run_mapped(const Machine *p, MachineState *st,
			  const MachineByteMap *map, const unsigned char *in,
			  size_t n)
{
	assert(p->kernel.on);
	bool sign = true;
	for (size_t j = 0; j < map->ncount; j++)
		sign &= map->count[j].e == 0;
	/* one instance per common shape, each unrolled by the compiler */
#define KERNEL_CASE(l, c, sg) \
	case (l) * 16 + (c) * 2 + (sg): \
		return kernel_run(p, st, map, in, n, (l), (c), (sg))
	switch (p->nld * 16 + map->ncount * 2 + sign) {
	KERNEL_CASE(1, 0, 1); KERNEL_CASE(2, 0, 1);
	KERNEL_CASE(1, 1, 1); KERNEL_CASE(1, 1, 0);
	KERNEL_CASE(2, 1, 1); KERNEL_CASE(1, 2, 1); KERNEL_CASE(2, 2, 1);
	default:
		return kernel_run(p, st, map, in, n, p->nld, map->ncount,
				  false);
	}
#undef KERNEL_CASE
}
