/* mpi_count.c -- lang --count over MPI ranks (see mpi_count.h). */
#include <config.h>
#include "mpi/mpi_count.h"

#include <stdlib.h>
#include <string.h>

#include <flint/fmpz_vec.h>

#include "machine/lang_count.h"
#include "machine/machine.h"
#include "base/mem.h"
#include "mpi/mpi_exchange.h"
#include "mpi/mpi_job.h"

/* Bytes of states a rank sends in one round (a bound on its buffers). */
#define ROUND_BYTES ((size_t)4 << 20)

typedef struct {
	Machine m;
	MachineState st, judge;
	AcceptAt accept;
	fmpz *per_code;  /* how many alphabet letters have each code */
	size_t width;
	int size;
	int64_t *row;
	fmpz_t k, accepted;
	LangCountLevel lv[2]; /* this rank's states of two lengths */
	MpiExchange x;
} Dist;

/* The verdict of the word read into st. */
static bool accepts(Dist *d, MachineState *st)
{
	if (d->accept == ACCEPT_EOS) {
		machine_state_copy(&d->m, &d->judge, st);
		st = &d->judge;
		machine_step(&d->m, st, (uint32_t)d->m.ncodes - 1);
	}
	machine_query(&d->m, st);
	return machine_root(&d->m, st, 0);
}

static void dist_init(Dist *d, const Store *s, Node root,
		      const Alphabet *alpha, AcceptAt accept)
{
	memset(d, 0, sizeof *d);
	d->accept = accept;
	d->size = mpi_job_size();
	machine_init(&d->m, s, &root, 1, false);
	machine_state_init(&d->m, &d->st);
	machine_state_init(&d->m, &d->judge);
	d->per_code = _fmpz_vec_init((slong)d->m.ncodes);
	for (size_t i = 0; i < alpha->n; i++) {
		uint32_t c = machine_code(&d->m.codes, alpha->letters[i]);
		fmpz_add_ui(&d->per_code[c], &d->per_code[c], 1);
	}
	d->width = machine_packed_len(&d->m);
	d->row = xmalloc(d->width * sizeof *d->row);
	fmpz_init(d->k);
	fmpz_init(d->accepted);
	for (int i = 0; i < 2; i++) {
		lang_count_level_init(&d->lv[i], d->width);
		d->lv[i].rows.advice = "use more ranks";
	}
	mpi_exchange_init(&d->x);
}

static void dist_free(Dist *d)
{
	mpi_exchange_free(&d->x);
	lang_count_level_free(&d->lv[0]);
	lang_count_level_free(&d->lv[1]);
	fmpz_clear(d->k);
	fmpz_clear(d->accepted);
	free(d->row);
	_fmpz_vec_clear(d->per_code, (slong)d->m.ncodes);
	machine_state_free(&d->m, &d->st);
	machine_state_free(&d->m, &d->judge);
	machine_free(&d->m);
}

/* Steps state i of cur by every letter code: accepted words add to
 * d->accepted, successors go to their owners as [row, n, n limbs]. */
static void expand(Dist *d, const LangCountLevel *cur, size_t i,
		   size_t len)
{
	for (uint32_t code = 0; code < d->m.ncodes; code++) {
		if (fmpz_is_zero(&d->per_code[code]))
			continue;
		machine_unpack(&d->m, &d->st, rowset_row(&cur->rows, i), len);
		machine_step(&d->m, &d->st, code);
		fmpz_mul(d->k, &cur->mult[i], &d->per_code[code]);
		if (accepts(d, &d->st))
			fmpz_add(d->accepted, d->accepted, d->k);
		machine_pack(&d->m, &d->st, d->row);
		int to = mpi_job_owner(machine_packed_hash(d->row, d->width),
				       d->size);
		size_t n = fmpz_size(d->k); /* >= 1: multiplicities are >= 1 */
		int64_t *out = mpi_exchange_append(&d->x, to, d->width + 1 + n);
		memcpy(out, d->row, d->width * sizeof *out);
		out[d->width] = (int64_t)n;
		fmpz_get_ui_array((ulong *)(out + d->width + 1), (slong)n, d->k);
	}
}

/* The successors this rank owns, added into next. */
static void absorb(Dist *d, LangCountLevel *next)
{
	const int64_t *p = d->x.recv, *end = p + d->x.nrecv;
	while (p < end) {
		size_t n = (size_t)p[d->width];
		fmpz_set_ui_array(d->k, (const ulong *)(p + d->width + 1),
				  (slong)n);
		lang_count_level_add(next, p, d->k);
		p += d->width + 1 + n;
	}
}

/* From length len in cur to len + 1 in next, in rounds until every rank
 * is through; d->accepted: the words of length len + 1 accepted (the
 * job's).  False when a limit stopped it. */
static bool step_level(Dist *d, LangCountLevel *cur, LangCountLevel *next,
		       size_t len, Limits *lim)
{
	size_t per = ROUND_BYTES / (d->m.ncodes * (d->width + 4) * sizeof(int64_t));
	if (per < 64)
		per = 64;
	fmpz_zero(d->accepted);
	size_t i = 0;
	for (;;) {
		size_t end = i + per < cur->rows.n ? i + per : cur->rows.n;
		for (; i < end; i++)
			expand(d, cur, i, len);
		mpi_exchange_run(&d->x);
		absorb(d, next);
		MpiAgree ag;
		mpi_job_agree(lim, i < cur->rows.n, false, 0, &ag);
		if (ag.hit != LIMIT_NONE)
			return false;
		if (!ag.more)
			break;
	}
	mpi_job_sum_fmpz(d->accepted);
	return true;
}

/* What every rank must hold alike: the machine, the letters per code,
 * the length (d->row: the empty word's state). */
static uint64_t problem(const Dist *d, size_t maxlen)
{
	const Machine *m = &d->m;
	int64_t f[9] = {
		(int64_t)d->width, (int64_t)m->ncodes, (int64_t)m->nslots,
		(int64_t)m->nstep, (int64_t)maxlen, (int64_t)d->accept,
		(int64_t)machine_packed_hash(d->row, d->width),
		(int64_t)machine_packed_hash(m->delta, m->nld * m->ncodes),
		0,
	};
	for (size_t c = 0; c < m->ncodes; c++)
		f[8] = (int64_t)((uint64_t)f[8] * 31 +
				 (uint64_t)fmpz_get_si(&d->per_code[c]));
	return mpi_job_fingerprint(f, sizeof f / sizeof *f);
}

bool mpi_count(const Store *s, Node root, const Alphabet *alpha,
	       AcceptAt accept, size_t maxlen, Limits *lim,
	       LangCountEmit emit, void *arg)
{
	Dist d;
	dist_init(&d, s, root, alpha, accept);
	/* Length 0, the empty word: every rank knows it; its owner keeps it. */
	machine_reset(&d.m, &d.st);
	fmpz_set_ui(d.accepted, accepts(&d, &d.st));
	machine_pack(&d.m, &d.st, d.row);
	mpi_job_begin(problem(&d, maxlen));
	fmpz_one(d.k);
	if (mpi_job_owner(machine_packed_hash(d.row, d.width), d.size) ==
	    mpi_job_rank())
		lang_count_level_add(&d.lv[0], d.row, d.k);
	emit(0, d.accepted, arg);
	bool ok = true;
	for (size_t len = 0; len < maxlen; len++) {
		LangCountLevel *cur = &d.lv[len & 1];
		LangCountLevel *next = &d.lv[(len + 1) & 1];
		lang_count_level_clear(next);
		ok = step_level(&d, cur, next, len, lim);
		if (!ok)
			break;
		emit(len + 1, d.accepted, arg);
		if (mpi_job_stats_on())
			mpi_job_stats("lang --count", len + 1, next->rows.n,
				      d.x.sent);
	}
	dist_free(&d);
	return ok;
}
