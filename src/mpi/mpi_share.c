/* mpi_share.c -- share.h's primitives as MPI collectives. */
#include <config.h>
#include "mpi/mpi_share.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include <mpi.h>

#include "base/limit.h"
#include "base/mem.h"
#include "mpi/mpi_job.h"

/* One MPI call moves at most INT_MAX elements: larger buffers go in
 * pieces. */
enum { PIECE = 1 << 30 };

/* Bytes this rank sent to other ranks (TALLY_MPI_STATS). */
static uint64_t sent;

static void begin(uint64_t fingerprint)
{
	mpi_job_begin(fingerprint);
}

static void or_words(uint64_t *buf, size_t n)
{
	sent += n * 8 * (uint64_t)(mpi_job_size() - 1);
	for (size_t at = 0; at < n; at += PIECE / 8) {
		size_t k = n - at < PIECE / 8 ? n - at : PIECE / 8;
		MPI_Allreduce(MPI_IN_PLACE, buf + at, (int)k, MPI_UINT64_T,
			      MPI_BOR, MPI_COMM_WORLD);
	}
}

/* Byte counts as MPI's ints: a count past INT_MAX ends the job (exit 4,
 * mpi_job_too_large), never a truncated message. */
static int *displs(const int *count, int size, const char *what)
{
	int *d = xmalloc((size_t)size * sizeof *d);
	size_t total = 0;
	for (int r = 0; r < size; r++) {
		if (total > INT_MAX)
			mpi_job_too_large(what);
		d[r] = (int)total;
		total += (size_t)count[r];
	}
	if (total > INT_MAX)
		mpi_job_too_large(what);
	return d;
}

/* Each queue goes straight to its rank (no staging copy): the counts by
 * one all-to-all, then a receive and a send per other rank. */
static void *exchange(void *const *send, const size_t *lens, size_t *len)
{
	int size = mpi_job_size(), me = mpi_job_rank();
	int *sc = xmalloc((size_t)size * sizeof *sc);
	int *rc = xmalloc((size_t)size * sizeof *rc);
	for (int r = 0; r < size; r++) {
		if (lens[r] > INT_MAX)
			mpi_job_too_large("a block of the bank's candidates");
		sc[r] = (int)lens[r];
		if (r != me)
			sent += lens[r];
	}
	MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, MPI_COMM_WORLD);
	int *rd = displs(rc, size, "a block of the bank's candidates");
	size_t in = (size_t)rd[size - 1] + (size_t)rc[size - 1];
	unsigned char *rb = xmalloc(in + 1);
	MPI_Request *req = xmalloc(2 * (size_t)size * sizeof *req);
	int nreq = 0;
	for (int r = 0; r < size; r++) {
		if (r == me || !rc[r])
			continue;
		MPI_Irecv(rb + rd[r], rc[r], MPI_BYTE, r, 0, MPI_COMM_WORLD,
			  &req[nreq++]);
	}
	for (int r = 0; r < size; r++) {
		if (r == me || !sc[r])
			continue;
		MPI_Isend(send[r], sc[r], MPI_BYTE, r, 0, MPI_COMM_WORLD,
			  &req[nreq++]);
	}
	if (rc[me])
		memcpy(rb + rd[me], send[me], (size_t)rc[me]);
	MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
	free(req);
	free(sc);
	free(rc);
	free(rd);
	*len = in;
	return rb;
}

static void *allgather(const void *mine, size_t len, size_t *total)
{
	int size = mpi_job_size();
	if (len > INT_MAX)
		mpi_job_too_large("a rank's part of the search's partition");
	int n = (int)len;
	sent += len * (uint64_t)(size - 1);
	int *count = xmalloc((size_t)size * sizeof *count);
	MPI_Allgather(&n, 1, MPI_INT, count, 1, MPI_INT, MPI_COMM_WORLD);
	int *d = displs(count, size, "the search's partition");
	*total = (size_t)d[size - 1] + (size_t)count[size - 1];
	unsigned char *all = xmalloc(*total + 1);
	MPI_Allgatherv(mine, n, MPI_BYTE, all, count, d, MPI_BYTE, MPI_COMM_WORLD);
	free(count);
	free(d);
	return all;
}

static void bcast(void *p, size_t len)
{
	if (mpi_job_rank() == 0)
		sent += len * (uint64_t)(mpi_job_size() - 1);
	for (size_t at = 0; at < len; at += PIECE) {
		size_t k = len - at < PIECE ? len - at : PIECE;
		MPI_Bcast((unsigned char *)p + at, (int)k, MPI_BYTE, 0,
			  MPI_COMM_WORLD);
	}
}

static void agree(Limits *lim)
{
	MpiAgree a;
	mpi_job_agree(lim, false, false, 0, &a);
	lim->hit = a.hit; /* a rank's own reading alone does not count */
}

static void layer(const char *what, unsigned depth, uint64_t owned)
{
	if (mpi_job_stats_on())
		mpi_job_stats_of(what, "depth", depth, "signatures", owned, sent);
}

static Share job_share = {
	.begin = begin, .or_words = or_words, .exchange = exchange,
	.allgather = allgather, .bcast = bcast, .agree = agree,
	.layer = layer,
};

const Share *mpi_share(void)
{
	job_share.rank = mpi_job_rank();
	job_share.size = mpi_job_size();
	/* the bank's entries name their owner in 16 bits */
	if (job_share.size > UINT16_MAX)
		mpi_job_too_large("a job of more than 65535 ranks");
	return &job_share;
}
