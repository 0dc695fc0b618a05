/* mpi_exchange -- one all-to-all round of int64 records: each rank
 * appends to a buffer per destination rank, then mpi_exchange_run()
 * delivers, and every rank reads what it received, grouped by source.
 * The distributed explore and lang --count send packed states to their
 * owners this way; the key ranking of mpi_explore.c sends keys.
 *
 * Ownership: an MpiExchange owns its buffers; what was received is
 * valid until the next run.
 */
#ifndef TALLY_MPI_EXCHANGE_H
#define TALLY_MPI_EXCHANGE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	int size;
	int64_t **out;       /* [size] outgoing, per destination */
	size_t *outlen, *outcap;
	int64_t *sendbuf, *recv;
	size_t sendcap, recvcap;
	int *scount, *sdispl, *rcount, *rdispl;
	size_t nrecv;        /* int64s received */
	uint64_t sent;       /* bytes sent to other ranks, ever */
} MpiExchange;

void mpi_exchange_init(MpiExchange *x);
void mpi_exchange_free(MpiExchange *x);
/* Room for n more int64s to rank dest. */
int64_t *mpi_exchange_append(MpiExchange *x, int dest, size_t n);
/* Outgoing int64s queued so far, over every destination. */
size_t mpi_exchange_pending(const MpiExchange *x);
/* Collective: sends what was appended (then forgets it); received from
 * rank r: recv[rdispl[r] .. rdispl[r] + rcount[r]). */
void mpi_exchange_run(MpiExchange *x);
/* Collective: sends back one int64 per int64 received in the last run,
 * reply[i] answering recv[i]; answer[i] then answers the i-th int64 this
 * rank sent (destinations in rank order, each in the order appended). */
void mpi_exchange_reply(MpiExchange *x, const int64_t *reply,
			int64_t *answer);

#endif
