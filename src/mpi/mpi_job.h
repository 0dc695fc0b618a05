/* mpi_job -- one tally command run as an MPI job (tally-mpi).
 *
 * Every rank parses the same argv and loads the same inputs, so every
 * rank reaches the distributed parts (mpi_explore.h, mpi_count.h) with
 * the same problem; only rank 0 writes to stdout and stderr (the other
 * ranks' are /dev/null).  A job must end, never hang, when the ranks do
 * not agree: mpi_job_begin() (before collective work) and mpi_job_end()
 * (once, after the command) are the same collective, so a rank that
 * stopped early (an input it could not read: stdin reaches rank 0 only)
 * meets the others at their next begin and the whole job ends with its
 * exit status; ranks that reach the engine with different problems (a
 * fingerprint of the compiled machine and the options) end it too.  A rank that exits in the middle (out of memory, mem.c)
 * aborts the job with its status (MPI_Abort from an exit handler).
 *
 * Limits are the whole job's: mpi_job_agree() is the per-round
 * collective in which the ranks pool what they know (any rank's --timeout
 * flag, the job's memory against --max-memory, counts).  The job's
 * memory is rank 0's resident memory plus what each other rank gained
 * since the search began: what one tally holding the same search would
 * hold, so that a --max-memory (and decision.c's default) means the same
 * whatever the number of ranks; the ranks' own start-up memory (MPI's,
 * about 15 MiB each) is not counted.
 *
 * Ownership: the job is process-wide state; nothing is handed out.
 */
#ifndef TALLY_MPI_JOB_H
#define TALLY_MPI_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <flint/fmpz.h>

#include "base/limit.h"

/* MPI_Init, the rank's output, the exit handler. */
void mpi_job_init(int *argc, char ***argv);
/* The final agreement, MPI_Finalize; returns the status every rank
 * exits with (rank 0's). */
int mpi_job_end(int status);

int mpi_job_rank(void);
int mpi_job_size(void);

/* Collective: before work that needs every rank, with a fingerprint of
 * the problem (mpi_job_fingerprint).  Ends the process when some rank
 * already left (with its status) or holds another problem (status 2). */
void mpi_job_begin(uint64_t problem);
/* A fingerprint of n int64 facts about a problem. */
uint64_t mpi_job_fingerprint(const int64_t *facts, size_t n);

/* The rank owning a packed state of this hash (machine_packed_hash):
 * its high bits, the low ones index the owner's own table. */
static inline int mpi_job_owner(uint64_t hash, int size)
{
	return (int)((hash >> 32) % (uint64_t)size);
}

/* What the ranks agree on after a round of work. */
typedef struct {
	bool more;       /* some rank has work left */
	bool budget;     /* some rank's own budget (a caller's seconds) ended */
	LimitKind hit;   /* the user's limit reached (set in lim too) */
	uint64_t total;  /* the sum of the ranks' counts */
} MpiAgree;

/* Collective: pools more, budget and count with the limits: lim's
 * --timeout flag on any rank, and the job's memory (above) against
 * lim->max_memory.  When a limit is reached, every rank's lim says so
 * (hit; memory: the job's), as limit_check() would. */
void mpi_job_agree(Limits *lim, bool more, bool budget, uint64_t count,
		   MpiAgree *out);

/* Collective helpers on uint64 values. */
uint64_t mpi_job_sum(uint64_t v);
uint64_t mpi_job_min(uint64_t v);
/* The sum of v over the ranks before this one. */
uint64_t mpi_job_offset(uint64_t v);
/* all[r * k + j] = rank r's mine[j]. */
void mpi_job_allgather(const uint64_t *mine, size_t k, uint64_t *all);
/* x := the sum of x over the ranks (exact; x >= 0), on every rank. */
void mpi_job_sum_fmpz(fmpz_t x);
/* Rank root's v[0..k) to every rank. */
void mpi_job_bcast(uint64_t *v, size_t k, int root);

/* TALLY_MPI_STATS=1 (rank 0's environment): a line per length on
 * stderr with the job's states, bytes sent between ranks and the largest
 * peak memory of a rank (HACKING.md's figures). */
bool mpi_job_stats_on(void);
/* Collective, when mpi_job_stats_on(): the line of length len (states
 * and sent: this rank's, summed here). */
void mpi_job_stats(const char *what, size_t len, uint64_t states,
		   uint64_t sent);
/* The same line with other words for the step and the things counted
 * ("depth", "signatures": the bank of mpi_share.c). */
void mpi_job_stats_of(const char *what, const char *step, size_t len,
		      const char *unit, uint64_t states, uint64_t sent);

/* A count too large for one MPI call: "tally: limit: ..." and the job
 * ends with exit 4 (never a truncated message). */
void mpi_job_too_large(const char *what) __attribute__((noreturn));

#endif
