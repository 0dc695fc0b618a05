/* mpi_rows.c -- a rank's packed states (see mpi_rows.h). */
#include <config.h>
#include "mpi/mpi_rows.h"

#include <stdlib.h>
#include <string.h>

#include "base/number.h"
#include "base/status.h"
#include "base/limit.h"
#include "machine/machine.h"
#include "base/mem.h"

#define FREE UINT32_MAX

static void fresh_index(MpiRows *r, size_t size)
{
	free(r->index);
	r->index = xmalloc(size * sizeof *r->index);
	memset(r->index, 0xff, size * sizeof *r->index);
	r->mask = size - 1;
}

void mpi_rows_init(MpiRows *r, size_t width)
{
	memset(r, 0, sizeof *r);
	r->width = width;
	fresh_index(r, 1024);
}

void mpi_rows_free(MpiRows *r)
{
	free(r->rows);
	free(r->index);
	memset(r, 0, sizeof *r);
}

void mpi_rows_clear(MpiRows *r)
{
	r->n = 0;
	memset(r->index, 0xff, (r->mask + 1) * sizeof *r->index);
}

static size_t slot_of(const MpiRows *r, const int64_t *row)
{
	return machine_packed_hash(row, r->width) & r->mask;
}

static void grow_index(MpiRows *r)
{
	fresh_index(r, 2 * (r->mask + 1));
	for (size_t i = 0; i < r->n; i++) {
		size_t h = slot_of(r, mpi_rows_get(r, i));
		while (r->index[h] != FREE)
			h = (h + 1) & r->mask;
		r->index[h] = (uint32_t)i;
	}
}

uint32_t mpi_rows_add(MpiRows *r, const int64_t *row, bool *added)
{
	size_t bytes = r->width * sizeof *row;
	size_t h = slot_of(r, row);
	for (; r->index[h] != FREE; h = (h + 1) & r->mask)
		if (memcmp(mpi_rows_get(r, r->index[h]), row, bytes) == 0) {
			*added = false;
			return r->index[h];
		}
	if (r->n >= FREE - 1) {
		limit_fail("one rank holds 2^32 states; use more ranks");
		exit(EXIT_LIMIT);
	}
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 1024;
		r->rows = xrealloc(r->rows, r->cap * bytes);
	}
	memcpy(r->rows + r->n * r->width, row, bytes);
	r->index[h] = (uint32_t)r->n;
	*added = true;
	if (2 * ++r->n > r->mask)
		grow_index(r);
	return (uint32_t)(r->n - 1);
}
