/* rowset.c -- packed rows numbered by dense ids (see rowset.h). */
#include <config.h>
#include "machine/rowset.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/limit.h"
#include "base/mem.h"
#include "base/status.h"
#include "machine/machine.h"

#define FREE_SLOT UINT32_MAX
/* Small enough that a level of a few states costs little to clear. */
#define FIRST_SLOTS 256

static void fresh_index(RowSet *r, size_t slots)
{
	free(r->slot);
	r->slot = xmalloc(slots * sizeof *r->slot);
	memset(r->slot, 0xff, slots * sizeof *r->slot);
	r->mask = slots - 1;
}

void rowset_init(RowSet *r, size_t width)
{
	assert(width > 0);
	memset(r, 0, sizeof *r);
	r->width = width;
	r->max_ids = ROWSET_MAX_IDS;
	fresh_index(r, FIRST_SLOTS);
}

void rowset_free(RowSet *r)
{
	free(r->rows);
	free(r->slot);
	memset(r, 0, sizeof *r);
}

void rowset_clear(RowSet *r)
{
	r->n = 0;
	memset(r->slot, 0xff, (r->mask + 1) * sizeof *r->slot);
}

static size_t home(const RowSet *r, const int64_t *row)
{
	return machine_packed_hash(row, r->width) & r->mask;
}

/* Twice the slots, every id placed again. */
static void grow_index(RowSet *r)
{
	fresh_index(r, 2 * (r->mask + 1));
	for (size_t i = 0; i < r->n; i++) {
		size_t h = home(r, rowset_row(r, i));
		while (r->slot[h] != FREE_SLOT)
			h = (h + 1) & r->mask;
		r->slot[h] = (uint32_t)i;
	}
}

/* A limit reached, not a bug: the process ends as out of memory does. */
static void out_of_ids(const RowSet *r)
{
	limit_fail("more than %u distinct states in one table (its ids are "
		   "32-bit)%s%s", (unsigned)r->max_ids,
		   r->advice ? "; " : "", r->advice ? r->advice : "");
	exit(EXIT_LIMIT);
}

uint32_t rowset_add(RowSet *r, const int64_t *row, bool *added)
{
	size_t bytes = r->width * sizeof *row;
	size_t h = home(r, row);
	for (; r->slot[h] != FREE_SLOT; h = (h + 1) & r->mask)
		if (memcmp(rowset_row(r, r->slot[h]), row, bytes) == 0) {
			*added = false;
			return r->slot[h];
		}
	if (r->n >= r->max_ids)
		out_of_ids(r);
	if ((r->n + 1) * r->width > r->cap) /* no call on the hot path */
		mem_grow((void **)&r->rows, &r->cap, (r->n + 1) * r->width,
			 sizeof *r->rows);
	memcpy(r->rows + r->n * r->width, row, bytes);
	uint32_t id = (uint32_t)r->n++;
	r->slot[h] = id;
	*added = true;
	if (2 * r->n > r->mask + 1)
		grow_index(r);
	return id;
}
