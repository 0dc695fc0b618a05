/* parallel -- a fixed number of threads sharing a list of tasks.
 *
 * parallel_each(jobs, n, fn, ctx) calls fn(ctx, worker, i) once for every
 * task i in [0, n), on at most jobs threads (the calling thread is worker
 * 0; workers are numbered 0..jobs-1, so per-worker scratch can be
 * indexed by them).  Tasks are claimed in increasing order as workers
 * become free, so a slow core holds up one task, not a fixed share; the
 * results must not depend on which worker ran a task.  Returns when every
 * task is done.  When a thread cannot be started its tasks are taken by
 * the others: the work is done whatever the system allows.
 */
#ifndef TALLY_PARALLEL_H
#define TALLY_PARALLEL_H

#include <stddef.h>

enum { PARALLEL_MAX_JOBS = 64 };

typedef void ParallelTask(void *ctx, unsigned worker, size_t i);

void parallel_each(unsigned jobs, size_t n, ParallelTask *fn, void *ctx);

/* The cores this process may use (at least 1, at most PARALLEL_MAX_JOBS):
 * its CPU affinity's, divided among the processes that share them. */
unsigned parallel_cores(void);
/* The machine's cores are shared by n processes (tally-mpi: the ranks on
 * one node), so that n processes of default --jobs do not start n times
 * as many threads as there are cores.  Default 1. */
void parallel_share_cores(unsigned n);

#endif
