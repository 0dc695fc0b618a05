/* mpi_wait -- waiting for MPI requests without holding a core.
 *
 * Open MPI's blocking calls (MPI_Wait, MPI_Allreduce, ...) poll until
 * they are done: a rank waiting for another (rank 0 verifying a formula,
 * a slower rank finishing its part of a block) burns a whole core that
 * the working ranks, or anyone else on the machine, could use
 * (mpi_yield_when_idle only turns the polling into sched_yield calls,
 * still a core's worth of system time when nobody else wants it).
 * tally-mpi therefore starts every collective as a nonblocking request
 * and waits here: a short spin (an answer that is already on its way
 * costs no sleep), then naps that grow with the wait, each at most an
 * eighth of the time waited so far and at most 1 ms, so that the time
 * lost to a late wake-up stays below about an eighth of the wait.
 * Polling is also what progresses Open MPI's nonblocking requests (no
 * progress thread), so a nap never lasts long.
 *
 * TALLY_MPI_SPIN=1 (rank 0's environment, spread at mpi_job_init) waits
 * in MPI_Waitall instead: the old behaviour, for comparison (make bench).
 *
 * Ownership: nothing is allocated; the requests are the caller's.
 */
#ifndef TALLY_MPI_WAIT_H
#define TALLY_MPI_WAIT_H

#include <stdbool.h>

#include <mpi.h>

/* Waits until every req[0..n) is complete (they become
 * MPI_REQUEST_NULL). */
void mpi_wait_all(int n, MPI_Request *req);
/* Waits until one of req[0..n) completes; returns its index
 * (MPI_UNDEFINED when none is active). */
int mpi_wait_any(int n, MPI_Request *req);
static inline void mpi_wait(MPI_Request *req)
{
	mpi_wait_all(1, req);
}

/* Calls done(arg) until it returns true, napping between calls as the
 * waits above do (busy under TALLY_MPI_SPIN): done() tests requests
 * (MPI_Test*, MPI_Improbe), which is also what moves them on. */
void mpi_wait_until(bool (*done)(void *), void *arg);

/* Busy waiting (TALLY_MPI_SPIN) on or off, the same on every rank. */
void mpi_wait_spin(bool on);
/* Seconds this rank spent waiting in mpi_wait_*, and of them asleep
 * (TALLY_MPI_STATS). */
double mpi_wait_seconds(void);
double mpi_wait_slept(void);

#endif
