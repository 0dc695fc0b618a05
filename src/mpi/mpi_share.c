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
#include "mpi/mpi_wait.h"

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
		MPI_Request req;
		MPI_Iallreduce(MPI_IN_PLACE, buf + at, (int)k, MPI_UINT64_T,
			       MPI_BOR, MPI_COMM_WORLD, &req);
		mpi_wait(&req);
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

/* An exchange under way: what each rank sends this one lands in rb at
 * rd[r] (rc[r] bytes); req[0..nrecv) are the receives (from from[]),
 * req[nrecv..nreq) the sends. */
typedef struct {
	unsigned char *rb;
	int *sc, *rc, *rd, *from;
	MPI_Request *req;
	int nrecv, nreq;
	size_t in;
} Posted;

/* The counts by one all-to-all (after it every rank is here, so the
 * transfers that follow are not waited for long), then each queue
 * straight from its buffer to its rank's (no staging copy): a receive
 * and a send per other rank. */
/* exchange_each's receive buffer, kept from one exchange to the next: a
 * fresh one each time (megabytes) would cost the kernel's page faults
 * and zeroing for every byte received. */
static unsigned char *each_buf;
static size_t each_cap;

/* rb: the caller's buffer (grown to fit), else a new one. */
static void post(void *const *send, const size_t *lens, Posted *x,
		 unsigned char **rb, size_t *cap)
{
	int size = mpi_job_size(), me = mpi_job_rank();
	x->sc = xmalloc((size_t)size * sizeof *x->sc);
	x->rc = xmalloc((size_t)size * sizeof *x->rc);
	for (int r = 0; r < size; r++) {
		if (lens[r] > INT_MAX)
			mpi_job_too_large("a block of the bank's candidates");
		x->sc[r] = (int)lens[r];
		if (r != me)
			sent += lens[r];
	}
	MPI_Request counts;
	MPI_Ialltoall(x->sc, 1, MPI_INT, x->rc, 1, MPI_INT, MPI_COMM_WORLD,
		      &counts);
	mpi_wait(&counts);
	x->rd = displs(x->rc, size, "a block of the bank's candidates");
	x->in = (size_t)x->rd[size - 1] + (size_t)x->rc[size - 1];
	if (rb) {
		mem_grow((void **)rb, cap, x->in + 1, 1);
		x->rb = *rb;
	} else {
		x->rb = xmalloc(x->in + 1);
	}
	x->req = xmalloc(2 * (size_t)size * sizeof *x->req);
	x->from = xmalloc((size_t)size * sizeof *x->from);
	x->nrecv = 0;
	for (int r = 0; r < size; r++) {
		if (r == me || !x->rc[r])
			continue;
		x->from[x->nrecv] = r;
		MPI_Irecv(x->rb + x->rd[r], x->rc[r], MPI_BYTE, r, 0,
			  MPI_COMM_WORLD, &x->req[x->nrecv++]);
	}
	x->nreq = x->nrecv;
	for (int r = 0; r < size; r++) {
		if (r == me || !x->sc[r])
			continue;
		MPI_Isend(send[r], x->sc[r], MPI_BYTE, r, 0, MPI_COMM_WORLD,
			  &x->req[x->nreq++]);
	}
}

static void posted_free(Posted *x)
{
	free(x->from);
	free(x->req);
	free(x->sc);
	free(x->rc);
	free(x->rd);
}

static void *exchange(void *const *send, const size_t *lens, size_t *len)
{
	Posted x;
	post(send, lens, &x, NULL, NULL);
	int me = mpi_job_rank();
	if (x.rc[me])
		memcpy(x.rb + x.rd[me], send[me], (size_t)x.rc[me]);
	mpi_wait_all(x.nreq, x.req);
	posted_free(&x);
	*len = x.in;
	return x.rb;
}

/* The own part is worked on while the others travel; each received
 * part is handed over as soon as it is complete (mpi_wait_any). */
static void exchange_each(void *const *send, const size_t *lens,
			  ShareTake *take, void *ctx)
{
	Posted x;
	post(send, lens, &x, &each_buf, &each_cap);
	int me = mpi_job_rank();
	if (lens[me])
		take(ctx, me, send[me], lens[me]);
	for (int k = 0; k < x.nrecv; k++) {
		int i = mpi_wait_any(x.nrecv, x.req);
		int r = x.from[i];
		take(ctx, r, x.rb + x.rd[r], (size_t)x.rc[r]);
	}
	mpi_wait_all(x.nreq - x.nrecv, x.req + x.nrecv);
	posted_free(&x);
}

static void *allgather(const void *mine, size_t len, size_t *total)
{
	int size = mpi_job_size();
	if (len > INT_MAX)
		mpi_job_too_large("a rank's part of the search's partition");
	int n = (int)len;
	sent += len * (uint64_t)(size - 1);
	int *count = xmalloc((size_t)size * sizeof *count);
	MPI_Request req;
	MPI_Iallgather(&n, 1, MPI_INT, count, 1, MPI_INT, MPI_COMM_WORLD, &req);
	mpi_wait(&req);
	int *d = displs(count, size, "the search's partition");
	*total = (size_t)d[size - 1] + (size_t)count[size - 1];
	unsigned char *all = xmalloc(*total + 1);
	MPI_Iallgatherv(mine, n, MPI_BYTE, all, count, d, MPI_BYTE,
			MPI_COMM_WORLD, &req);
	mpi_wait(&req);
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
		MPI_Request req;
		MPI_Ibcast((unsigned char *)p + at, (int)k, MPI_BYTE, 0,
			   MPI_COMM_WORLD, &req);
		mpi_wait(&req);
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
	.exchange_each = exchange_each,
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
