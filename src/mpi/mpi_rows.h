/* mpi_rows -- the packed machine states one rank owns (machine.h's
 * machine_pack rows), numbered in the order they were added, with a
 * hash index: what explore's and lang_count's tables are, for the
 * distributed versions, which keep a parallel array per number.
 *
 * Ownership: an MpiRows owns its rows and index; pointers to rows are
 * valid until the next add.
 */
#ifndef TALLY_MPI_ROWS_H
#define TALLY_MPI_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
	size_t width;    /* int64s per row */
	size_t n, cap;
	int64_t *rows;
	uint32_t *index; /* open addressing: row numbers, UINT32_MAX free */
	size_t mask;
} MpiRows;

void mpi_rows_init(MpiRows *r, size_t width);
void mpi_rows_free(MpiRows *r);
/* Forgets every row (the index keeps its size). */
void mpi_rows_clear(MpiRows *r);
/* The number of an equal row, or of row added now (*added true). */
uint32_t mpi_rows_add(MpiRows *r, const int64_t *row, bool *added);

static inline const int64_t *mpi_rows_get(const MpiRows *r, size_t i)
{
	return r->rows + i * r->width;
}

#endif
