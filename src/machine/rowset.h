/* rowset -- a set of packed rows numbered by dense 32-bit ids.
 *
 * A row is `width` int64s: a machine state packed by machine_pack (with
 * whatever a caller appends, such as gen's class), or any fixed-size key
 * copied into int64s (the breakdown search's accumulators).  Rows are
 * numbered 0, 1, 2, ... in the order they were first added; a caller
 * keeps what it knows of a row (its parent, its letter, its
 * multiplicity) in arrays of its own indexed by these ids.  This is the
 * one table behind explore, lang --count, gen's state graph, the
 * breakdown search and each rank of tally-mpi.
 *
 * One hash, machine_packed_hash (a packed state's hash is then
 * machine_state_hash's, and tally-mpi picks a state's rank from the
 * hash's high bits while the table takes the low ones); linear probing;
 * the index doubles when it is half full, the rows double when full.
 * Running out of ids (more than max_ids distinct rows; 2^32 - 2 unless a
 * test lowers it) is a limit reached, like running out of memory
 * (mem.c): "tally: limit: ..." on stderr and exit status 4 (EXIT_LIMIT),
 * from rowset_add itself -- such a table holds tens of GiB of rows.
 *
 * Ownership: a RowSet owns its rows and its index; a pointer from
 * rowset_row is valid until the next rowset_add.  Callers read `width`
 * and `n` (the ids handed out are 0 .. n-1) and set `max_ids` and
 * `advice` only between rowset_init and the first add.
 */
#ifndef TALLY_ROWSET_H
#define TALLY_ROWSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most distinct rows of one set: UINT32_MAX marks a free slot of
 * the index, and callers keep one more value as "no row". */
#define ROWSET_MAX_IDS (UINT32_MAX - 1)

typedef struct RowSet {
	size_t width;       /* int64s per row, at least 1 */
	size_t n;           /* rows added */
	size_t cap;         /* room in rows, in int64s */
	int64_t *rows;      /* row i at rows + i * width */
	uint32_t *slot;     /* the index: ids, UINT32_MAX free */
	size_t mask;        /* slots - 1 (a power of two) */
	uint32_t max_ids;   /* ROWSET_MAX_IDS; tests lower it */
	const char *advice; /* appended to the out-of-ids message, or NULL */
} RowSet;

void rowset_init(RowSet *r, size_t width);
void rowset_free(RowSet *r);
/* Forgets every row; the index and the rows' room keep their size. */
void rowset_clear(RowSet *r);
/* The id of the row equal to row, added now when there is none (*added
 * then true).  Exits with status 4 when that would be id max_ids. */
uint32_t rowset_add(RowSet *r, const int64_t *row, bool *added);

static inline const int64_t *rowset_row(const RowSet *r, size_t id)
{
	return r->rows + id * r->width;
}

#endif
