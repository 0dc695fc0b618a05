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

/* The parts of an exchange or all-gather travel as point-to-point
 * messages whose size the message itself says (MPI_Improbe): one trip
 * between ranks, where counts first (an all-to-all) and the data after
 * took two, and every trip is a meeting of ranks that a loaded machine
 * makes late.  One tag per kind of meeting, so that a rank already at
 * its next exchange is never taken for this one (messages of one
 * sender and tag arrive in order, and each meeting takes one message
 * from each rank). */
enum { TAG_EXCHANGE = 31, TAG_GATHER = 32 };

/* The parts coming to this rank: state[r] is 0 until rank r's message
 * is probed, 1 while it is received into its place, 2 once it has
 * landed, 3 after it was handed over. */
typedef struct {
	int size, me, tag;
	unsigned char *state;
	MPI_Message *msg;
	MPI_Request *req;
	size_t *len;
	unsigned char **at; /* where rank r's part is received */
	bool receive;       /* probe and receive (else probe only) */
} Inbox;

static void inbox_init(Inbox *x, int tag, bool receive)
{
	x->size = mpi_job_size();
	x->me = mpi_job_rank();
	x->tag = tag;
	x->receive = receive;
	x->state = xcalloc((size_t)x->size, 1);
	x->state[x->me] = 3;
	x->msg = xmalloc((size_t)x->size * sizeof *x->msg);
	x->req = xmalloc((size_t)x->size * sizeof *x->req);
	x->len = xcalloc((size_t)x->size, sizeof *x->len);
	x->at = xcalloc((size_t)x->size, sizeof *x->at);
}

static void inbox_free(Inbox *x)
{
	free(x->state);
	free(x->msg);
	free(x->req);
	free(x->len);
	free(x->at);
}

/* exchange_each's receive buffers, one per sender, kept from one
 * exchange to the next: fresh ones each time (megabytes) would cost
 * the kernel's page faults and zeroing for every byte received. */
static unsigned char **each_buf;
static size_t *each_cap;

/* Rank r's message has been probed: its place (exchange_each: r's kept
 * buffer) and its receive. */
static void inbox_receive(Inbox *x, int r)
{
	if (!x->at[r]) {
		mem_grow((void **)&each_buf[r], &each_cap[r], x->len[r] + 1, 1);
		x->at[r] = each_buf[r];
	}
	MPI_Imrecv(x->at[r], (int)x->len[r], MPI_BYTE, &x->msg[r], &x->req[r]);
	x->state[r] = 1;
}

/* One pass over the parts still coming (mpi_wait_until's test): true
 * when a part has landed (or, probing only, when every message has
 * been probed), or nothing is left. */
static bool inbox_step(void *arg)
{
	Inbox *x = arg;
	bool landed = false, left = false;
	for (int r = 0; r < x->size; r++) {
		if (x->state[r] == 0) {
			int flag, n;
			MPI_Status st;
			MPI_Improbe(r, x->tag, MPI_COMM_WORLD, &flag, &x->msg[r], &st);
			if (!flag) {
				left = true;
				continue;
			}
			MPI_Get_count(&st, MPI_BYTE, &n);
			x->len[r] = (size_t)n;
			x->state[r] = 2;
			if (x->receive)
				inbox_receive(x, r);
		}
		if (x->state[r] == 1) {
			int flag;
			MPI_Test(&x->req[r], &flag, MPI_STATUS_IGNORE);
			if (flag)
				x->state[r] = 2;
			else
				left = true;
		}
		landed |= x->state[r] == 2 && x->receive;
	}
	return landed || !left;
}

/* send[r][0..lens[r]) to every rank r but this one (empty parts too:
 * the receiver waits for one message from every rank); the requests
 * into req, their number returned. */
static int send_all(const void *const *send, const size_t *lens, int tag,
		    MPI_Request *req, const char *what)
{
	int size = mpi_job_size(), me = mpi_job_rank(), n = 0;
	for (int r = 0; r < size; r++) {
		if (r == me)
			continue;
		if (lens[r] > INT_MAX)
			mpi_job_too_large(what);
		sent += lens[r];
		MPI_Isend(send[r], (int)lens[r], MPI_BYTE, r, tag, MPI_COMM_WORLD,
			  &req[n++]);
	}
	return n;
}

/* Every other rank's part, probed, then received in rank order into one
 * buffer with this rank's own part (mine, copied) at its place; *total
 * bytes. */
static unsigned char *gather_in(Inbox *x, const void *mine, size_t mlen,
				size_t *total, const char *what)
{
	mpi_wait_until(inbox_step, x);
	size_t at = 0;
	for (int r = 0; r < x->size; r++)
		at += r == x->me ? mlen : x->len[r];
	if (at > INT_MAX)
		mpi_job_too_large(what);
	unsigned char *all = xmalloc(at + 1);
	*total = at;
	int n = 0;
	at = 0;
	for (int r = 0; r < x->size; r++) {
		if (r == x->me) {
			if (mlen)
				memcpy(all + at, mine, mlen);
			at += mlen;
			continue;
		}
		MPI_Imrecv(all + at, (int)x->len[r], MPI_BYTE, &x->msg[r],
			   &x->req[n++]);
		at += x->len[r];
	}
	mpi_wait_all(n, x->req);
	return all;
}

static void *exchange(void *const *send, const size_t *lens, size_t *len)
{
	int size = mpi_job_size(), me = mpi_job_rank();
	MPI_Request *sreq = xmalloc((size_t)size * sizeof *sreq);
	int ns = send_all((const void *const *)send, lens, TAG_EXCHANGE, sreq,
			  "a block of the bank's candidates");
	Inbox x;
	inbox_init(&x, TAG_EXCHANGE, false);
	void *all = gather_in(&x, send[me], lens[me], len,
			      "a block of the bank's candidates");
	mpi_wait_all(ns, sreq);
	inbox_free(&x);
	free(sreq);
	return all;
}

/* The own part is worked on while the others travel; each received
 * part is handed over as soon as it has landed, from a buffer kept for
 * its sender. */
static void exchange_each(void *const *send, const size_t *lens,
			  ShareTake *take, void *ctx)
{
	int size = mpi_job_size(), me = mpi_job_rank();
	if (!each_buf) {
		each_buf = xcalloc((size_t)size, sizeof *each_buf);
		each_cap = xcalloc((size_t)size, sizeof *each_cap);
	}
	MPI_Request *sreq = xmalloc((size_t)size * sizeof *sreq);
	int ns = send_all((const void *const *)send, lens, TAG_EXCHANGE, sreq,
			  "a block of the bank's candidates");
	if (lens[me])
		take(ctx, me, send[me], lens[me]);
	Inbox x;
	inbox_init(&x, TAG_EXCHANGE, true);
	for (int done = 1; done < size;) {
		mpi_wait_until(inbox_step, &x);
		for (int r = 0; r < size; r++) {
			if (x.state[r] != 2)
				continue;
			x.state[r] = 3;
			done++;
			if (x.len[r])
				take(ctx, r, x.at[r], x.len[r]);
		}
	}
	mpi_wait_all(ns, sreq);
	inbox_free(&x);
	free(sreq);
}

static void *allgather(const void *mine, size_t len, size_t *total)
{
	int size = mpi_job_size();
	const void **send = xmalloc((size_t)size * sizeof *send);
	size_t *lens = xmalloc((size_t)size * sizeof *lens);
	for (int r = 0; r < size; r++) {
		send[r] = mine;
		lens[r] = len;
	}
	MPI_Request *sreq = xmalloc((size_t)size * sizeof *sreq);
	int ns = send_all(send, lens, TAG_GATHER, sreq,
			  "a rank's part of the search's partition");
	Inbox x;
	inbox_init(&x, TAG_GATHER, false);
	void *all = gather_in(&x, mine, len, total,
			      "the search's partition");
	mpi_wait_all(ns, sreq);
	inbox_free(&x);
	free(sreq);
	free(lens);
	free(send);
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
