/* parallel.c -- parallel_each (parallel.h): workers claim tasks from one
 * atomic counter. */
#include <config.h>
#include "base/parallel.h"

#include <pthread.h>
#include <stdbool.h>
#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>

#include <flint/flint.h>

typedef struct {
	ParallelTask *fn;
	void *ctx;
	size_t n;
	atomic_size_t next;
} Pool;

typedef struct {
	Pool *pool;
	unsigned worker;
} Worker;

static void *work(void *p)
{
	Worker *w = p;
	size_t i;
	while ((i = atomic_fetch_add(&w->pool->next, 1)) < w->pool->n)
		w->pool->fn(w->pool->ctx, w->worker, i);
	/* FLINT keeps caches per thread (fmpz's mpz blocks): a thread that
	 * ends frees its own, or they leak (LeakSanitizer: gen --jobs). */
	if (w->worker != 0)
		flint_cleanup();
	return NULL;
}

void parallel_each(unsigned jobs, size_t n, ParallelTask *fn, void *ctx)
{
	if (jobs > PARALLEL_MAX_JOBS)
		jobs = PARALLEL_MAX_JOBS;
	if (jobs > n)
		jobs = (unsigned)n;
	Pool pool = {fn, ctx, n, 0};
	Worker w[PARALLEL_MAX_JOBS];
	pthread_t th[PARALLEL_MAX_JOBS];
	bool started[PARALLEL_MAX_JOBS] = {false};
	for (unsigned j = 1; j < jobs; j++) {
		w[j] = (Worker){&pool, j};
		started[j] = pthread_create(&th[j], NULL, work, &w[j]) == 0;
	}
	w[0] = (Worker){&pool, 0};
	work(&w[0]);
	for (unsigned j = 1; j < jobs; j++)
		if (started[j])
			pthread_join(th[j], NULL);
}

static unsigned sharers = 1;

void parallel_share_cores(unsigned n)
{
	sharers = n ? n : 1;
}

unsigned parallel_cores(void)
{
	long n = 0;
#ifdef CPU_COUNT
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		n = CPU_COUNT(&set);
#endif
	if (n <= 0)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	n /= (long)sharers;
	if (n <= 0)
		n = 1;
	return n > PARALLEL_MAX_JOBS ? PARALLEL_MAX_JOBS : (unsigned)n;
}
