/* mpi_exchange.c -- all-to-all rounds of int64 records (see
 * mpi_exchange.h). */
#include <config.h>
#include "mpi/mpi_exchange.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "base/mem.h"
#include "mpi/mpi_job.h"
#include "mpi/mpi_wait.h"

void mpi_exchange_init(MpiExchange *x)
{
	memset(x, 0, sizeof *x);
	x->size = mpi_job_size();
	size_t n = (size_t)x->size;
	x->out = xcalloc(n, sizeof *x->out);
	x->outlen = xcalloc(n, sizeof *x->outlen);
	x->outcap = xcalloc(n, sizeof *x->outcap);
	x->scount = xcalloc(n, sizeof *x->scount);
	x->sdispl = xcalloc(n, sizeof *x->sdispl);
	x->rcount = xcalloc(n, sizeof *x->rcount);
	x->rdispl = xcalloc(n, sizeof *x->rdispl);
}

void mpi_exchange_free(MpiExchange *x)
{
	for (int r = 0; r < x->size; r++)
		free(x->out[r]);
	free(x->out);
	free(x->outlen);
	free(x->outcap);
	free(x->sendbuf);
	free(x->recv);
	free(x->scount);
	free(x->sdispl);
	free(x->rcount);
	free(x->rdispl);
	memset(x, 0, sizeof *x);
}

int64_t *mpi_exchange_append(MpiExchange *x, int dest, size_t n)
{
	mem_grow((void **)&x->out[dest], &x->outcap[dest], x->outlen[dest] + n,
		 sizeof **x->out);
	int64_t *p = x->out[dest] + x->outlen[dest];
	x->outlen[dest] += n;
	return p;
}

size_t mpi_exchange_pending(const MpiExchange *x)
{
	size_t n = 0;
	for (int r = 0; r < x->size; r++)
		n += x->outlen[r];
	return n;
}

/* Displacements from counts; MPI counts are ints. */
static size_t displace(const int *count, int *displ, int size,
		       const char *what)
{
	size_t total = 0;
	for (int r = 0; r < size; r++) {
		if (total > INT_MAX)
			mpi_job_too_large(what);
		displ[r] = (int)total;
		total += (size_t)count[r];
	}
	if (total > INT_MAX)
		mpi_job_too_large(what);
	return total;
}

void mpi_exchange_run(MpiExchange *x)
{
	for (int r = 0; r < x->size; r++) {
		if (x->outlen[r] > INT_MAX)
			mpi_job_too_large("a round of states");
		x->scount[r] = (int)x->outlen[r];
	}
	size_t nsend = displace(x->scount, x->sdispl, x->size, "a round of states");
	mem_grow((void **)&x->sendbuf, &x->sendcap, nsend + 1,
		 sizeof *x->sendbuf);
	int self = mpi_job_rank();
	for (int r = 0; r < x->size; r++) {
		if (x->outlen[r])
			memcpy(x->sendbuf + x->sdispl[r], x->out[r],
			       x->outlen[r] * sizeof *x->sendbuf);
		if (r != self)
			x->sent += x->outlen[r] * sizeof *x->sendbuf;
		x->outlen[r] = 0;
	}
	MPI_Request req;
	MPI_Ialltoall(x->scount, 1, MPI_INT, x->rcount, 1, MPI_INT,
		      MPI_COMM_WORLD, &req);
	mpi_wait(&req);
	x->nrecv = displace(x->rcount, x->rdispl, x->size, "a round of states");
	mem_grow((void **)&x->recv, &x->recvcap, x->nrecv + 1, sizeof *x->recv);
	MPI_Ialltoallv(x->sendbuf, x->scount, x->sdispl, MPI_INT64_T, x->recv,
		       x->rcount, x->rdispl, MPI_INT64_T, MPI_COMM_WORLD, &req);
	mpi_wait(&req);
}

void mpi_exchange_reply(MpiExchange *x, const int64_t *reply, int64_t *answer)
{
	int self = mpi_job_rank();
	for (int r = 0; r < x->size; r++)
		if (r != self)
			x->sent += (uint64_t)x->rcount[r] * sizeof *reply;
	MPI_Request req;
	MPI_Ialltoallv(reply, x->rcount, x->rdispl, MPI_INT64_T, answer,
		       x->scount, x->sdispl, MPI_INT64_T, MPI_COMM_WORLD, &req);
	mpi_wait(&req);
}
