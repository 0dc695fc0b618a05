/* mpi_wait.c -- sleeping waits for MPI requests (see mpi_wait.h). */
#include <config.h>
#include "mpi/mpi_wait.h"

#include <time.h>

/* The first SPIN seconds of a wait poll without sleeping; later naps
 * are at most NAP_SHARE of the wait so far and at most NAP_MAX. */
#define SPIN 50e-6
#define NAP_SHARE 0.125
#define NAP_MAX 1e-3

static bool spin;
static double waited, slept;

void mpi_wait_spin(bool on)
{
	spin = on;
}

double mpi_wait_seconds(void)
{
	return waited;
}

double mpi_wait_slept(void)
{
	return slept;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void nap(double seconds)
{
	struct timespec ts = {0, (long)(seconds * 1e9)};
	nanosleep(&ts, NULL);
	slept += seconds;
}

/* Polls done() until it says so, napping as mpi_wait.h says. */
static void wait_until(bool (*done)(void *), void *arg)
{
	if (done(arg))
		return;
	double t0 = now(), t = t0;
	while (!done(arg)) {
		t = now();
		double so_far = t - t0;
		if (so_far < SPIN)
			continue;
		double s = so_far * NAP_SHARE;
		nap(s < NAP_MAX ? s : NAP_MAX);
	}
	waited += now() - t0;
}

void mpi_wait_until(bool (*done)(void *), void *arg)
{
	if (!spin) {
		wait_until(done, arg);
		return;
	}
	while (!done(arg))
		;
}

typedef struct {
	int n;
	MPI_Request *req;
	int index;
} Wait;

static bool all_done(void *arg)
{
	Wait *w = arg;
	int flag;
	MPI_Testall(w->n, w->req, &flag, MPI_STATUSES_IGNORE);
	return flag;
}

static bool any_done(void *arg)
{
	Wait *w = arg;
	int flag;
	MPI_Testany(w->n, w->req, &w->index, &flag, MPI_STATUS_IGNORE);
	return flag; /* also true, index MPI_UNDEFINED, when none is active */
}

void mpi_wait_all(int n, MPI_Request *req)
{
	if (spin) {
		MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
		return;
	}
	Wait w = {n, req, MPI_UNDEFINED};
	wait_until(all_done, &w);
}

int mpi_wait_any(int n, MPI_Request *req)
{
	Wait w = {n, req, MPI_UNDEFINED};
	if (spin)
		MPI_Waitany(n, req, &w.index, MPI_STATUS_IGNORE);
	else
		wait_until(any_done, &w);
	return w.index;
}
