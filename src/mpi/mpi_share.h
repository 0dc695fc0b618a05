/* mpi_share -- the search engine's seam (share.h) over MPI: the
 * primitives as MPI collectives on MPI_COMM_WORLD, the limits pooled by
 * mpi_job_agree().
 *
 * Ownership: the Share is static; what the primitives return is the
 * caller's.
 */
#ifndef TALLY_MPI_SHARE_H
#define TALLY_MPI_SHARE_H

#include "base/share.h"

/* The job's Share (after mpi_job_init). */
const Share *mpi_share(void);

#endif
