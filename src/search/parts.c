/* parts.c -- the partition of a sample's care positions by atoms, one
 * process or met over processes, and the partition test (parts.h). */
#include <config.h>

#include "search/parts.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "search/pairs.h"

void parts_init(Parts *p, const Sample *S, const Word64 *care,
		const Word64 *label)
{
	size_t total = sig_popcount(care, S->nwords);
	p->bit = xmalloc((total + 1) * sizeof *p->bit);
	p->lab = xmalloc(total + 1);
	p->cls = xcalloc(total + 1, sizeof *p->cls);
	p->remap = xmalloc(2 * (total + 1) * sizeof *p->remap);
	p->npos = xmalloc(2 * (total + 1) * sizeof *p->npos);
	p->nneg = xmalloc(2 * (total + 1) * sizeof *p->nneg);
	p->n = 0;
	for (size_t b = 0; b < S->nbits; b++)
		if (sig_bit(care, b)) {
			p->bit[p->n] = b;
			p->lab[p->n++] = sig_bit(label, b);
		}
	p->ncls = 1;
}

void parts_free(Parts *p)
{
	free(p->bit);
	free(p->lab);
	free(p->cls);
	free(p->remap);
	free(p->npos);
	free(p->nneg);
}

void parts_split(Parts *p, const Word64 *a)
{
	uint32_t next = 0;
	for (size_t k = 0; k < 2 * (size_t)p->ncls; k++)
		p->remap[k] = UINT32_MAX;
	for (size_t i = 0; i < p->n; i++) {
		size_t k = 2 * (size_t)p->cls[i] + sig_bit(a, p->bit[i]);
		if (p->remap[k] == UINT32_MAX)
			p->remap[k] = next++;
		p->cls[i] = p->remap[k];
	}
	p->ncls = next;
}

void parts_drop_pure(Parts *p)
{
	memset(p->npos, 0, p->ncls * sizeof *p->npos);
	memset(p->nneg, 0, p->ncls * sizeof *p->nneg);
	for (size_t i = 0; i < p->n; i++)
		(p->lab[i] ? p->npos : p->nneg)[p->cls[i]]++;
	uint32_t next = 0;
	for (uint32_t c = 0; c < p->ncls; c++)
		p->remap[c] = p->npos[c] && p->nneg[c] ? next++ : UINT32_MAX;
	size_t m = 0;
	for (size_t i = 0; i < p->n; i++) {
		uint32_t c = p->remap[p->cls[i]];
		if (c == UINT32_MAX)
			continue;
		p->bit[m] = p->bit[i];
		p->lab[m] = p->lab[i];
		p->cls[m++] = c;
	}
	p->n = m;
	p->ncls = next;
}

/* ---- the partition over processes (a shared bank) ---------------------- */

/* Each point's class becomes its pair (class, c[i]), numbered by first
 * point; a point with c[i] == UINT32_MAX is dead (in a pure class). */
static void refine(Parts *p, const uint32_t *c, bool *dead)
{
	size_t cap = 64;
	while (cap < 4 * (p->n + 1))
		cap *= 2;
	uint64_t *key = xmalloc(cap * sizeof *key);
	uint32_t *val = xmalloc(cap * sizeof *val), next = 0;
	memset(key, 0xff, cap * sizeof *key);
	for (size_t i = 0; i < p->n; i++) {
		if (dead[i] || c[i] == UINT32_MAX) {
			dead[i] = true;
			continue;
		}
		uint64_t k = (uint64_t)p->cls[i] << 32 | c[i];
		size_t h = (size_t)((k * 0x9e3779b97f4a7c15u) >> 17) & (cap - 1);
		while (key[h] != UINT64_MAX && key[h] != k)
			h = (h + 1) & (cap - 1);
		if (key[h] == UINT64_MAX) {
			key[h] = k;
			val[h] = next++;
		}
		p->cls[i] = val[h];
	}
	p->ncls = next;
	free(key);
	free(val);
}

/* The partition of p's points by the atoms of every rank: each rank
 * splits by its own, and the ranks' classes are met.  The classes, and
 * their numbers (by first point), are those of one process splitting by
 * every atom; with drop, only the classes that mix labels stay (a class
 * pure for one rank's atoms is pure for all of them). */
static void parts_shared(Parts *p, const Atoms *a, bool drop)
{
	size_t n0 = p->n;
	if (n0 == 0)
		return;
	size_t *bit0 = xmalloc(n0 * sizeof *bit0);
	bool *lab0 = xmalloc(n0);
	memcpy(bit0, p->bit, n0 * sizeof *bit0);
	memcpy(lab0, p->lab, n0);
	if (drop)
		parts_drop_pure(p);
	size_t done = 0;
	for (size_t i = 0; i < a->n && p->n > 0; i++) {
		if (!atoms_mine(a, i))
			continue;
		parts_split(p, a->sig[i]);
		if (drop && ++done % 16 == 0)
			parts_drop_pure(p);
	}
	if (drop)
		parts_drop_pure(p);
	uint32_t *loc = xmalloc(n0 * sizeof *loc);
	for (size_t j = 0, i = 0; j < n0; j++)
		loc[j] = i < p->n && p->bit[i] == bit0[j] ? p->cls[i++] : UINT32_MAX;
	size_t total;
	uint32_t *all = a->sh->allgather(loc, n0 * sizeof *loc, &total);
	free(loc);
	memcpy(p->bit, bit0, n0 * sizeof *bit0);
	memcpy(p->lab, lab0, n0);
	memset(p->cls, 0, n0 * sizeof *p->cls);
	p->n = n0;
	p->ncls = 1;
	bool *dead = xcalloc(n0, 1);
	for (int r = 0; r < a->sh->size; r++)
		refine(p, all + (size_t)r * n0, dead);
	size_t m = 0;
	for (size_t i = 0; i < n0; i++)
		if (!dead[i]) {
			p->bit[m] = p->bit[i];
			p->lab[m] = p->lab[i];
			p->cls[m++] = p->cls[i];
		}
	p->n = m;
	if (drop)
		parts_drop_pure(p);
	free(dead);
	free(all);
	free(bit0);
	free(lab0);
}

void parts_split_all(Parts *p, const Atoms *a)
{
	if (a->sh) {
		parts_shared(p, a, false);
		return;
	}
	for (size_t i = 0; i < a->n; i++)
		parts_split(p, a->sig[i]);
}

bool parts_test(const Atoms *a, const Sample *S, const Word64 *care,
		const Word64 *label, const IndistBounds *cert,
		unsigned d, Limits *lim, Refutation *r)
{
	Parts p;
	parts_init(&p, S, care, label);
	if (a->sh) {
		parts_shared(&p, a, true);
	} else {
		parts_drop_pure(&p);
		for (size_t i = 0; i < a->n && p.n > 0; i++) {
			parts_split(&p, a->sig[i]);
			if (i % 16 == 15 || i + 1 == a->n)
				parts_drop_pure(&p);
		}
	}
	bool ok = p.n == 0;
	r->natoms = a->n;
	r->nconflict = p.ncls;
	r->npairs = 0;
	if (!ok && cert) {
		/* rank 0 checks the pairs (exact, polled: a limit there must
		 * not make the ranks differ) and tells the others */
		if (!a->sh || a->sh->rank == 0)
			pairs_certify(&p, S, d, *cert, lim, r);
		if (a->sh)
			a->sh->bcast(r, sizeof *r);
	}
	parts_free(&p);
	return ok;
}
