/* mpi_job.c -- the MPI job around one command (see mpi_job.h). */
#include <config.h>
#include "mpi/mpi_job.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "base/number.h"
#include "base/parallel.h"
#include "base/status.h"
#include "machine/machine.h"
#include "base/mem.h"
#include "mpi/mpi_wait.h"

static int job_rank, job_size = 1;
/* Between MPI_Init and MPI_Finalize: an exit now must abort the job. */
static bool job_live;
/* The rank's own stderr, kept for the note of an abnormal exit. */
static int saved_stderr = -1;
/* TALLY_MPI_STATS: rank 0's, so that every rank makes the same calls. */
static int stats_on;
static double job_start;
/* Resident memory when the search began (0 on rank 0): see job_memory. */
static size_t baseline;

int mpi_job_rank(void)
{
	return job_rank;
}

int mpi_job_size(void)
{
	return job_size;
}

/* exit() while the job runs (out of memory in mem.c, a limit message
 * followed by exit): the other ranks would wait for this one forever,
 * so the job is aborted with this status. */
static void on_exit_abort(int status, void *arg)
{
	(void)arg;
	if (!job_live)
		return;
	job_live = false;
	fflush(stdout);
	fflush(stderr);
	if (job_rank != 0 && saved_stderr >= 0) {
		char note[96];
		int n = snprintf(note, sizeof note, "tally: error: rank %d ended "
				 "the job with exit status %d\n", job_rank, status);
		ssize_t w = write(saved_stderr, note, (size_t)n);
		(void)w;
	}
	MPI_Abort(MPI_COMM_WORLD, status ? status : EXIT_INTERNAL);
}

/* Ranks other than 0 compute the same answers: their output would only
 * repeat rank 0's. */
static void silence(void)
{
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null < 0)
		return;
	saved_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	dup2(null, STDOUT_FILENO);
	dup2(null, STDERR_FILENO);
	close(null);
}

void mpi_job_init(int *argc, char ***argv)
{
	MPI_Init(argc, argv);
	job_start = limit_now();
	MPI_Comm_rank(MPI_COMM_WORLD, &job_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &job_size);
	/* Errors in MPI calls end the job (the default); said here so that
	 * no code path relies on a returned error code. */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	job_live = true;
	on_exit(on_exit_abort, NULL);
	const char *stats = getenv("TALLY_MPI_STATS");
	const char *spin = getenv("TALLY_MPI_SPIN");
	int flags[2] = {stats && strcmp(stats, "1") == 0,
			spin && strcmp(spin, "1") == 0};
	MPI_Bcast(flags, 2, MPI_INT, 0, MPI_COMM_WORLD);
	stats_on = flags[0];
	mpi_wait_spin(flags[1]);
	/* The ranks on this machine share its cores: default --jobs gives
	 * each its part (parallel.h), not every core to every rank. */
	MPI_Comm node;
	int here = 1;
	if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
				MPI_INFO_NULL, &node) == MPI_SUCCESS) {
		MPI_Comm_size(node, &here);
		MPI_Comm_free(&node);
	}
	parallel_share_cores((unsigned)here);
	if (job_rank != 0) {
		silence();
		/* A rank waiting in a collective does no work past the
		 * deadline: only rank 0's backstop may end the job. */
		limit_keep_process();
	}
}

/* The one collective of begin and end: {leaving, working, status,
 * rank + 1 of a leaving rank}, maximum over ranks. */
static void meet(bool leaving, int status, int out[4])
{
	int mine[4] = {leaving, !leaving, leaving ? status : 0,
		       leaving ? job_rank + 1 : 0};
	MPI_Request req;
	MPI_Iallreduce(mine, out, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req);
	mpi_wait(&req);
}

static void finalize(void)
{
	fflush(stdout);
	fflush(stderr);
	job_live = false;
	MPI_Finalize();
}

/* The job cannot go on: every rank ends here with status. */
static void give_up(int status)
{
	finalize();
	exit(status);
}

void mpi_job_begin(uint64_t problem)
{
	int all[4];
	meet(false, 0, all);
	if (all[0]) {
		if (job_rank == 0)
			fprintf(stderr, "tally: error: rank %d stopped before the "
					"distributed work (exit status %d): every "
					"rank must read the same inputs (stdin "
					"reaches rank 0 only)\n", all[3] - 1, all[2]);
		give_up(all[2] ? all[2] : EXIT_USAGE);
	}
	/* The same problem everywhere, or the ranks' collectives would not
	 * match: the largest and the least fingerprint agree. */
	uint64_t mine[2] = {problem, ~problem}, most[2];
	MPI_Request req;
	MPI_Iallreduce(mine, most, 2, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD,
		       &req);
	mpi_wait(&req);
	if (most[0] != ~most[1]) {
		if (job_rank == 0)
			fprintf(stderr, "tally: error: the ranks do not hold the "
					"same problem: every rank must read the same "
					"inputs (stdin reaches rank 0 only)\n");
		give_up(EXIT_USAGE);
	}
	baseline = job_rank == 0 ? 0 : limit_memory();
}

uint64_t mpi_job_fingerprint(const int64_t *facts, size_t n)
{
	return machine_packed_hash(facts, n);
}

int mpi_job_end(int status)
{
	int all[4];
	meet(true, status, all);
	if (!all[1]) {
		/* Everybody is here: rank 0's status for all, so that mpirun
		 * reports the status rank 0's output goes with. */
		MPI_Request req;
		MPI_Ibcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
		mpi_wait(&req);
	}
	finalize();
	return status;
}

void mpi_job_allgather(const uint64_t *mine, size_t k, uint64_t *all)
{
	MPI_Request req;
	MPI_Iallgather(mine, (int)k, MPI_UINT64_T, all, (int)k, MPI_UINT64_T,
		       MPI_COMM_WORLD, &req);
	mpi_wait(&req);
}

void mpi_job_bcast(uint64_t *v, size_t k, int root)
{
	MPI_Request req;
	MPI_Ibcast(v, (int)k, MPI_UINT64_T, root, MPI_COMM_WORLD, &req);
	mpi_wait(&req);
}

static uint64_t reduce(uint64_t v, MPI_Op op)
{
	uint64_t out;
	MPI_Request req;
	MPI_Iallreduce(&v, &out, 1, MPI_UINT64_T, op, MPI_COMM_WORLD, &req);
	mpi_wait(&req);
	return out;
}

uint64_t mpi_job_sum(uint64_t v)
{
	return reduce(v, MPI_SUM);
}

uint64_t mpi_job_min(uint64_t v)
{
	return reduce(v, MPI_MIN);
}

/* Exact integers travel as their 64-bit limbs, least significant first. */
_Static_assert(sizeof(ulong) == sizeof(uint64_t), "64-bit limbs");

void mpi_job_sum_fmpz(fmpz_t x)
{
	int n = (int)fmpz_size(x);
	int *count = xmalloc((size_t)job_size * sizeof *count);
	int *displ = xmalloc((size_t)job_size * sizeof *displ);
	MPI_Request req;
	MPI_Iallgather(&n, 1, MPI_INT, count, 1, MPI_INT, MPI_COMM_WORLD, &req);
	mpi_wait(&req);
	size_t total = 0;
	for (int r = 0; r < job_size; r++) {
		displ[r] = (int)total;
		total += (size_t)count[r];
	}
	ulong *mine = xmalloc(((size_t)n + 1) * sizeof *mine);
	ulong *all = xmalloc((total + 1) * sizeof *all);
	if (n)
		fmpz_get_ui_array(mine, n, x);
	MPI_Iallgatherv(mine, n, MPI_UINT64_T, all, count, displ, MPI_UINT64_T,
			MPI_COMM_WORLD, &req);
	mpi_wait(&req);
	fmpz_t part;
	fmpz_init(part);
	fmpz_zero(x);
	for (int r = 0; r < job_size; r++) {
		if (!count[r])
			continue;
		fmpz_set_ui_array(part, all + displ[r], count[r]);
		fmpz_add(x, x, part);
	}
	fmpz_clear(part);
	free(all);
	free(mine);
	free(displ);
	free(count);
}

uint64_t mpi_job_offset(uint64_t v)
{
	uint64_t out = 0;
	MPI_Request req;
	MPI_Iexscan(&v, &out, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD, &req);
	mpi_wait(&req);
	return job_rank == 0 ? 0 : out;
}

enum { AG_MORE = 1, AG_BUDGET = 2, AG_TIME = 4 };

/* The deadline only: the memory is the job's, pooled below.  (With
 * max_memory cleared, limit_check() reads nothing but the timer's
 * flag.) */
static bool limit_time_up(Limits *lim)
{
	size_t keep = lim->max_memory;
	lim->max_memory = 0;
	bool up = limit_check(lim) && lim->hit == LIMIT_TIME;
	lim->max_memory = keep;
	return up;
}

/* This rank's share of the job's memory: rank 0 all of its resident
 * memory, another rank what it gained since the search began (so that
 * N ranks holding a search weigh what one tally holding it would). */
static uint64_t job_memory(void)
{
	size_t now = limit_memory();
	return now > baseline ? now - baseline : 0;
}

void mpi_job_agree(Limits *lim, bool more, bool budget, uint64_t count,
		   MpiAgree *out)
{
	uint64_t flags = (more ? AG_MORE : 0) | (budget ? AG_BUDGET : 0);
	if (lim && limit_time_up(lim))
		flags |= AG_TIME;
	uint64_t mine[3] = {flags, lim && lim->max_memory ? job_memory() : 0,
			    count};
	uint64_t *all = xmalloc((size_t)job_size * 3 * sizeof *all);
	mpi_job_allgather(mine, 3, all);
	uint64_t any = 0, memory = 0;
	out->total = 0;
	for (int r = 0; r < job_size; r++) {
		any |= all[3 * r];
		memory += all[3 * r + 1];
		out->total += all[3 * r + 2];
	}
	free(all);
	out->more = any & AG_MORE;
	out->budget = any & AG_BUDGET;
	out->hit = LIMIT_NONE;
	if (!lim)
		return;
	if (any & AG_TIME)
		out->hit = LIMIT_TIME;
	else if (lim->max_memory && memory > lim->max_memory)
		out->hit = LIMIT_MEMORY;
	if (out->hit == LIMIT_NONE)
		return;
	/* Every rank reports the same limit; the deadline's timer is of no
	 * use any more (the work stops now). */
	lim->hit = out->hit;
	if (out->hit == LIMIT_MEMORY)
		lim->memory = memory;
	limit_stop();
}

bool mpi_job_stats_on(void)
{
	return stats_on;
}

void mpi_job_stats(const char *what, size_t len, uint64_t states,
		   uint64_t sent)
{
	mpi_job_stats_of(what, "length", len, "states", states, sent);
}

void mpi_job_stats_of(const char *what, const char *step, size_t len,
		      const char *unit, uint64_t states, uint64_t sent)
{
	/* the waits in microseconds (mpi_wait.h) */
	uint64_t mine[5] = {states, sent, limit_peak_memory(),
			    (uint64_t)(mpi_wait_seconds() * 1e6),
			    (uint64_t)(mpi_wait_slept() * 1e6)};
	uint64_t *all = xmalloc((size_t)job_size * 5 * sizeof *all);
	mpi_job_allgather(mine, 5, all);
	uint64_t bytes = 0, peak = 0, waited = 0, slept = 0;
	states = 0;
	for (int r = 0; r < job_size; r++) {
		states += all[5 * r];
		bytes += all[5 * r + 1];
		peak = all[5 * r + 2] > peak ? all[5 * r + 2] : peak;
		waited += all[5 * r + 3];
		slept += all[5 * r + 4];
	}
	free(all);
	if (job_rank == 0)
		fprintf(stderr, "tally-mpi: %s: %s %zu, %llu %s, %llu "
			"bytes sent between ranks so far, peak memory of a rank "
			"%llu MiB, %.2f s; the ranks waited %.2f s (%.2f s of "
			"it asleep)\n", what, step, len,
			(unsigned long long)states, unit, (unsigned long long)bytes,
			(unsigned long long)(peak >> 20), limit_now() - job_start,
			(double)waited * 1e-6, (double)slept * 1e-6);
}

void mpi_job_too_large(const char *what)
{
	limit_fail("%s is too large for one MPI message on rank %d; use more "
		   "ranks", what, job_rank);
	exit(EXIT_LIMIT);
}
