/* share -- the seam through which the search engine (the bank, the
 * partition test, the extraction, the verification) runs as one job of
 * several processes: a few collective primitives, nothing else.
 *
 * enum (enum.c) and gen's count tables (gen_share.h) use it too.
 *
 * tally leaves share_job NULL: one process, the plain code paths.
 * tally-mpi installs an MPI implementation (mpi_share.c) before running
 * `hierarchy` or `search`; then every process runs the same command on
 * the same inputs, holds the bank's entries (the recipes) but only the
 * signatures it owns (by hash), and meets the others in these calls in
 * the same order.  Every primitive is collective: every rank calls it,
 * with the same sizes where a size is shared.
 *
 * Ownership: the Share is static (the implementation's); what the
 * primitives return is the caller's to free.
 */
#ifndef TALLY_SHARE_H
#define TALLY_SHARE_H

#include <stddef.h>
#include <stdint.h>

struct Limits;

/* A part of an exchange that reached this rank (exchange_each). */
typedef void ShareTake(void *ctx, int from, const void *p, size_t len);

typedef struct Share {
	int rank, size;
	/* Before collective work, with a fingerprint of the problem: ends
	 * the job when a rank left early or holds another problem. */
	void (*begin)(uint64_t fingerprint);
	/* buf[0..n) := the OR of every rank's buf. */
	void (*or_words)(uint64_t *buf, size_t n);
	/* send[r][0..lens[r]) to rank r; returns what this rank received,
	 * in rank order (malloc'd, *len bytes). */
	void *(*exchange)(void *const *send, const size_t *lens, size_t *len);
	/* The same exchange, what arrives handed over as it comes, without
	 * a copy: take(ctx, r, p, len) once for every rank r that sent
	 * this one something, this rank's own part first (p is send[me]
	 * itself), the others in the order they land; p is valid during
	 * the call only.  The caller works on each part while the others
	 * are still on their way. */
	void (*exchange_each)(void *const *send, const size_t *lens,
			      ShareTake *take, void *ctx);
	/* Every rank's mine[0..len), in rank order (malloc'd, *total). */
	void *(*allgather)(const void *mine, size_t len, size_t *total);
	/* Rank 0's p[0..len) to every rank. */
	void (*bcast)(void *p, size_t len);
	/* The job's limits: any rank's deadline, the job's memory against
	 * --max-memory; afterwards lim->hit is the same on every rank. */
	void (*agree)(struct Limits *lim);
	/* The end of a phase of the bank's depth (statistics only):
	 * `owned`, this rank's signatures. */
	void (*layer)(const char *what, unsigned depth, uint64_t owned);
} Share;

/* NULL in tally; set by tally-mpi for the distributed commands. */
extern const Share *share_job;

/* Rank 0's buffer of *len bytes to every rank: a malloc'd copy there
 * (rank 0 gets a copy too); *len is set everywhere. */
void *share_bcast_bytes(const Share *sh, const void *p, size_t *len);

#endif
