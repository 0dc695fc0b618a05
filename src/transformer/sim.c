/* sim.c -- the streaming transformer simulator (see sim.h). */
#include <config.h>
#include "transformer/sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/* The rounded cos (and sin) of a rational angle a/b pi at position i
 * depend on i mod 2b only: kept by residue when 2b is small, each
 * computed once (MPFR brackets them, microseconds each). */
enum { CYCLE_MAX = 1 << 16 };

typedef struct {
	double *v; /* 2 per residue (cos, sin; a feature: its value); NAN
		    * until computed */
	size_t n;  /* the period, or 0: not kept */
} Cycle;

static void cycle_init(Cycle *c, const Angle *a)
{
	c->n = !a->standard && a->den <= CYCLE_MAX / 2 ? 2 * (size_t)a->den
						       : 0;
	c->v = c->n ? xmalloc(2 * c->n * sizeof *c->v) : NULL;
	for (size_t i = 0; i < 2 * c->n; i++)
		c->v[i] = NAN;
}

/* One row of a sparse matrix, weights converted to the format. */
typedef struct {
	uint32_t n;
	uint32_t *col;
	double *w;
} Row;

typedef struct {
	Row *rows;
	uint32_t nrows;
} Rows;

typedef struct {
	Rows q, k;
	Row v;
	double bv, slope;
	uint32_t out;
	bool uniform; /* constant logits: running sums */
	bool qfree;   /* logits depend on i - j only */
	double *ew;   /* qfree: e(d) = round(exp(round(-slope d + t5(d)))) */
	size_t new, ewcap;  /* e(d) known for d < new */
	size_t window; /* e(d) = 0 for d >= window (0: none known) */
	size_t zero_from; /* e(d) can only decrease from this distance on */
	bool far;      /* qfree, slope 0: e(d) and c(d) constant for d >= near */
	size_t near;
	const Angle *rope;
	size_t nrope;
	Cycle *rot;    /* per RoPE angle */
	bool has_t5;
	T5 t5;
	double *t5b;   /* the biases in the format */
	double *urpe;  /* c(d) in the format, d < nurpe; urpe_beyond after */
	size_t nurpe;
	double urpe_beyond;
	size_t koff;   /* offset of its keys in a position's key cache */
} SHead;

typedef struct {
	Rows w1, w2; /* w2: one row per component */
	double *b1, *b2;
	uint32_t *touched;
	size_t ntouched;
} SBlock;

/* Per head and position, for heads with a far regime: the numerator and
 * denominator summed over the keys at distance >= near (all keys when
 * near is 0: uniform heads). */
enum { ACCS = 2 };

struct Sim {
	const Model *m;
	Semantics sem;
	size_t L, d, H, kstride;
	SHead *heads;  /* all layers, in order */
	size_t *first; /* first head of each layer, L + 1 entries */
	SBlock **blocks;
	SBlock *inblocks; /* the input block (model.input) */
	Cycle *feat;      /* per sinusoidal feature */
	double *embed, *bout_w, bout;
	Row wout;
	double one;
	size_t len;
	size_t hcap, kvcap; /* positions the arrays hold */
	bool ring;     /* streaming: h and acc keep positions len-1 and len */
	bool kvring;   /* ... and vc and kc too (every head uniform) */
	double *h;     /* hcap x (L + 1) x d */
	Acc *acc;      /* hcap x H x ACCS */
	double *vc;    /* kvcap x H */
	double *kc;    /* kvcap x kstride */
	double *tmp, *hid, *q;
	size_t tmpcap;
};

/* An empty row allocates nothing: a model may declare many. */
static Row make_row(const Semantics *sem, const Sparse *sp, uint32_t r)
{
	Row row = {0};
	for (size_t i = 0; i < sp->n; i++)
		row.n += sp->e[i].row == r;
	if (row.n == 0)
		return row;
	row.col = xcalloc(row.n, sizeof *row.col);
	row.w = xcalloc(row.n, sizeof *row.w);
	uint32_t k = 0;
	for (size_t i = 0; i < sp->n; i++)
		if (sp->e[i].row == r) {
			row.col[k] = sp->e[i].col;
			row.w[k++] = sem_convert(sem, sp->e[i].w);
		}
	return row;
}

/* The rows of sp, each entry visited once (a row per entry scan would
 * be quadratic in a model's declared rows). */
static Rows make_rows(const Semantics *sem, const Sparse *sp, uint32_t nrows)
{
	Rows rs = {xcalloc(nrows ? nrows : 1, sizeof *rs.rows), nrows};
	for (size_t i = 0; i < sp->n; i++)
		rs.rows[sp->e[i].row].n++;
	for (uint32_t r = 0; r < nrows; r++) {
		Row *row = &rs.rows[r];
		if (row->n) {
			row->col = xcalloc(row->n, sizeof *row->col);
			row->w = xcalloc(row->n, sizeof *row->w);
		}
		row->n = 0;
	}
	for (size_t i = 0; i < sp->n; i++) {
		Row *row = &rs.rows[sp->e[i].row];
		row->col[row->n] = sp->e[i].col;
		row->w[row->n++] = sem_convert(sem, sp->e[i].w);
	}
	return rs;
}

static void free_row(Row *r)
{
	free(r->col);
	free(r->w);
}

static void free_rows(Rows *rs)
{
	for (uint32_t r = 0; r < rs->nrows; r++)
		free_row(&rs->rows[r]);
	free(rs->rows);
}

static void ensure_tmp(Sim *s, size_t n)
{
	if (n > s->tmpcap) {
		s->tmp = xrealloc(s->tmp, n * sizeof *s->tmp);
		s->tmpcap = n;
	}
}

/* round(row . x + b) */
static double affine(Sim *s, const Row *row, const double *x, double b)
{
	ensure_tmp(s, row->n);
	for (uint32_t k = 0; k < row->n; k++)
		s->tmp[k] = x[row->col[k]];
	return sem_affine(&s->sem, row->w, s->tmp, (int)row->n, b);
}

/* Where position pos is kept: its own slot, or one of two (streaming):
 * its residual stream and attention sums (slot), its values and keys
 * (kvslot). */
static size_t slot(const Sim *s, size_t pos)
{
	return s->ring ? pos & 1 : pos;
}

static size_t kvslot(const Sim *s, size_t pos)
{
	return s->kvring ? pos & 1 : pos;
}

/* a * b, or SIZE_MAX when it overflows (an allocation that must fail:
 * out of memory is exit 4). */
static size_t mul_sat(size_t a, size_t b)
{
	return b && a > SIZE_MAX / b ? SIZE_MAX : a * b;
}

static size_t add_sat(size_t a, size_t b)
{
	return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

static double *hist(const Sim *s, size_t pos, size_t layer)
{
	return s->h + (slot(s, pos) * (s->L + 1) + layer) * s->d;
}

static void init_head(Sim *s, SHead *sh, const Head *h)
{
	const Semantics *sem = &s->sem;
	sh->q = make_rows(sem, &h->wq, h->wq.rows);
	sh->k = make_rows(sem, &h->wk, h->wk.rows);
	sh->v = make_row(sem, &h->wv, 0);
	sh->bv = sem_convert(sem, h->bv);
	sh->slope = sem_convert(sem, h->slope);
	sh->out = h->out;
	sh->qfree = h->wq.rows == 0;
	sh->rope = h->rope;
	sh->nrope = h->nrope;
	sh->rot = xcalloc(h->nrope ? h->nrope : 1, sizeof *sh->rot);
	for (size_t k = 0; k < h->nrope; k++)
		cycle_init(&sh->rot[k], &h->rope[k]);
	if (h->t5) {
		const char *err;
		sh->has_t5 = t5_init(&sh->t5, h->t5->buckets,
				     h->t5->max_distance, h->t5->bidirectional,
				     &err);
		sh->t5b = xcalloc(h->t5->buckets, sizeof *sh->t5b);
		for (uint32_t b = 0; b < h->t5->buckets; b++)
			sh->t5b[b] = sem_convert(sem, h->t5->bias[b]);
		sh->zero_from = t5_last_start(&sh->t5);
	}
	if (h->urpe) {
		sh->nurpe = h->nurpe;
		sh->urpe = xcalloc(h->nurpe ? h->nurpe : 1, sizeof *sh->urpe);
		for (size_t d = 0; d < h->nurpe; d++)
			sh->urpe[d] = sem_convert(sem, h->urpe[d]);
		sh->urpe_beyond = sem_convert(sem, h->urpe_beyond);
	}
	sh->far = sh->qfree && h->slope == 0;
	if (sh->far)
		sh->near = sh->zero_from > sh->nurpe ? sh->zero_from : sh->nurpe;
	sh->uniform = sh->far && sh->near == 0;
	sh->koff = s->kstride;
	s->kstride += h->wk.rows;
}

static void init_block(Sim *s, SBlock *sb, const Block *b)
{
	const Semantics *sem = &s->sem;
	sb->w1 = make_rows(sem, &b->w1, b->w1.rows);
	sb->w2 = make_rows(sem, &b->w2, (uint32_t)s->d);
	sb->b1 = xcalloc(b->w1.rows ? b->w1.rows : 1, sizeof *sb->b1);
	for (uint32_t r = 0; r < b->w1.rows; r++)
		sb->b1[r] = sem_convert(sem, b->b1[r]);
	sb->b2 = xcalloc(s->d, sizeof *sb->b2);
	sb->touched = xcalloc(s->d, sizeof *sb->touched);
	for (size_t c = 0; c < s->d; c++) {
		sb->b2[c] = sem_convert(sem, b->b2[c]);
		if (sb->w2.rows[c].n || b->b2[c] != 0)
			sb->touched[sb->ntouched++] = (uint32_t)c;
	}
	if (b->w1.rows > s->tmpcap)
		ensure_tmp(s, b->w1.rows);
}

Sim *sim_new(const Model *m, const Semantics *sem)
{
	Sim *s = xcalloc(1, sizeof *s);
	s->m = m;
	s->sem = *sem;
	if (sem->kind != SEM_IEEE) {
		s->sem.p = m->p;
		s->sem.s = m->s;
	}
	s->L = m->nlayers;
	s->d = m->d;
	s->H = model_nheads(m);
	s->heads = xcalloc(s->H ? s->H : 1, sizeof *s->heads);
	s->first = xcalloc(s->L + 1, sizeof *s->first);
	s->blocks = xcalloc(s->L ? s->L : 1, sizeof *s->blocks);
	size_t hi = 0, maxhid = 1;
	for (size_t l = 0; l < s->L; l++) {
		const Layer *ly = &m->layers[l];
		s->first[l] = hi;
		for (size_t h = 0; h < ly->nheads; h++)
			init_head(s, &s->heads[hi++], &ly->heads[h]);
		s->blocks[l] = xcalloc(ly->nblocks ? ly->nblocks : 1,
				       sizeof **s->blocks);
		for (size_t b = 0; b < ly->nblocks; b++) {
			init_block(s, &s->blocks[l][b], &ly->blocks[b]);
			if (ly->blocks[b].w1.rows > maxhid)
				maxhid = ly->blocks[b].w1.rows;
		}
	}
	s->first[s->L] = hi;
	s->inblocks = xcalloc(m->input.nblocks ? m->input.nblocks : 1,
			      sizeof *s->inblocks);
	for (size_t b = 0; b < m->input.nblocks; b++) {
		init_block(s, &s->inblocks[b], &m->input.blocks[b]);
		if (m->input.blocks[b].w1.rows > maxhid)
			maxhid = m->input.blocks[b].w1.rows;
	}
	s->feat = xcalloc(m->nfeats ? m->nfeats : 1, sizeof *s->feat);
	for (size_t f = 0; f < m->nfeats; f++)
		cycle_init(&s->feat[f], &m->feats[f].angle);
	s->hid = xcalloc(maxhid, sizeof *s->hid);
	s->q = xcalloc(s->kstride ? s->kstride : 1, sizeof *s->q);
	s->embed = xcalloc((m->nletters + 1) * s->d, sizeof *s->embed);
	for (size_t i = 0; i < (m->nletters + 1) * s->d; i++)
		s->embed[i] = sem_convert(&s->sem, m->embed[i]);
	s->wout = make_row(&s->sem, &m->wout, 0);
	s->bout = sem_convert(&s->sem, m->bout);
	s->one = sem_convert(&s->sem, 1);
	sim_reset(s);
	return s;
}

static void free_block(SBlock *sb)
{
	free_rows(&sb->w1);
	free_rows(&sb->w2);
	free(sb->b1);
	free(sb->b2);
	free(sb->touched);
}

void sim_free(Sim *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->H; i++) {
		free_rows(&s->heads[i].q);
		free_rows(&s->heads[i].k);
		free_row(&s->heads[i].v);
		free(s->heads[i].ew);
		free(s->heads[i].t5b);
		free(s->heads[i].urpe);
		for (size_t k = 0; k < s->heads[i].nrope; k++)
			free(s->heads[i].rot[k].v);
		free(s->heads[i].rot);
		t5_free(&s->heads[i].t5);
	}
	for (size_t b = 0; b < s->m->input.nblocks; b++)
		free_block(&s->inblocks[b]);
	free(s->inblocks);
	for (size_t f = 0; f < s->m->nfeats; f++)
		free(s->feat[f].v);
	free(s->feat);
	for (size_t l = 0; l < s->L; l++) {
		for (size_t b = 0; b < s->m->layers[l].nblocks; b++)
			free_block(&s->blocks[l][b]);
		free(s->blocks[l]);
	}
	free_row(&s->wout);
	free(s->blocks);
	free(s->heads);
	free(s->first);
	free(s->embed);
	free(s->h);
	free(s->acc);
	free(s->vc);
	free(s->kc);
	free(s->tmp);
	free(s->hid);
	free(s->q);
	free(s);
}

/* The logit of a key at distance d, round(q.k - slope d + t5(d)): the
 * query s->q (rows of it, none for a content-free head) and the key k,
 * computed exactly and rounded once (the distance as one more term, so
 * that slope d is exact at every length). */
static double logit(Sim *s, const SHead *h, const double *k, size_t d)
{
	size_t n = h->q.nrows;
	double b = h->has_t5 ? h->t5b[t5_bucket(&h->t5, d)] : 0;
	if (h->slope == 0)
		return sem_affine(&s->sem, s->q, k, (int)n, b);
	ensure_tmp(s, 2 * (n + 1));
	double *w = s->tmp, *x = s->tmp + n + 1;
	memcpy(w, s->q, n * sizeof *w);
	if (n)
		memcpy(x, k, n * sizeof *x);
	w[n] = -h->slope;
	x[n] = (double)d;
	return sem_affine(&s->sem, w, x, (int)n + 1, b);
}

/* e(d) for a content-free head, computed on demand. */
static double head_weight(Sim *s, SHead *h, size_t dist)
{
	while (h->new <= dist) {
		mem_grow((void **)&h->ew, &h->ewcap, h->new + 1, sizeof *h->ew);
		double e = sem_exp(&s->sem, logit(s, h, NULL, h->new));
		h->ew[h->new++] = e;
		/* beyond zero_from the logit never grows (slope >= 0, the
		 * last T5 bucket): the first zero there ends the window */
		if (e == 0 && h->slope >= 0 && (h->slope > 0 || h->has_t5) &&
		    h->new - 1 >= h->zero_from && !h->window)
			h->window = h->new - 1;
	}
	return h->ew[dist];
}

/* c(d) of a URPE head (1 without URPE). */
static double head_c(const Sim *s, const SHead *h, size_t d)
{
	if (!h->urpe)
		return s->one;
	return d < h->nurpe ? h->urpe[d] : h->urpe_beyond;
}

/* Adds key j's term to num and den: round(round(e c) v), e. */
static void add_term(Sim *s, SHead *h, size_t hi, Acc *num, Acc *den,
		     double e, size_t d, size_t j)
{
	const Semantics *sem = &s->sem;
	double c = head_c(s, h, d);
	if (e != 0 && c != 0) {
		double ec = h->urpe ? sem_mul(sem, e, c) : e;
		acc_add(sem, num, sem_mul(sem, ec, s->vc[kvslot(s, j) * s->H + hi]));
	}
	if (e != 0)
		acc_add(sem, den, e);
}

/* Rotates the pairs of rows of x by pos times the RoPE angles. */
/* The rounded cos and sin of pos times RoPE angle k of head h. */
static void rotation(Sim *s, const SHead *h, size_t k, size_t pos,
		     double *c, double *sn)
{
	Cycle *cy = &h->rot[k];
	double *v = cy->n ? cy->v + 2 * (pos % cy->n) : NULL;
	if (v && !isnan(v[0])) {
		*c = v[0];
		*sn = v[1];
		return;
	}
	pe_rotation(&s->sem, &h->rope[k], pos, c, sn);
	if (v) {
		v[0] = *c;
		v[1] = *sn;
	}
}

static void rotate(Sim *s, const SHead *h, double *x, size_t pos)
{
	for (size_t k = 0; k < h->nrope; k++) {
		double c, sn;
		rotation(s, h, k, pos, &c, &sn);
		double w0[2] = {c, -sn}, w1[2] = {sn, c};
		double in[2] = {x[2 * k], x[2 * k + 1]};
		x[2 * k] = sem_affine(&s->sem, w0, in, 2, 0);
		x[2 * k + 1] = sem_affine(&s->sem, w1, in, 2, 0);
	}
}

/* Keys at distance >= near: carried over from pos - 1, plus the key that
 * reaches distance near now (sums in the order BOS, 1, 2, ...). */
static void far_sums(Sim *s, SHead *h, size_t hi, size_t pos, Acc *mine)
{
	if (pos) {
		const Acc *prev = s->acc + (slot(s, pos - 1) * s->H + hi) * ACCS;
		memcpy(mine, prev, ACCS * sizeof *mine);
	} else {
		acc_zero(&mine[0]);
		acc_zero(&mine[1]);
	}
	if (pos >= h->near)
		add_term(s, h, hi, &mine[0], &mine[1], head_weight(s, h, h->near),
			 h->near, pos - h->near);
}

/* The output of head hi of layer l at position pos. */
static double attend(Sim *s, size_t hi, size_t pos, size_t l)
{
	SHead *h = &s->heads[hi];
	const Semantics *sem = &s->sem;
	const double *in = hist(s, pos, l);
	double v = affine(s, &h->v, in, h->bv);
	s->vc[kvslot(s, pos) * s->H + hi] = v;
	double *kpos = s->kc + kvslot(s, pos) * s->kstride + h->koff;
	for (uint32_t r = 0; r < h->k.nrows; r++)
		kpos[r] = affine(s, &h->k.rows[r], in, 0);
	rotate(s, h, kpos, pos);
	Acc *mine = s->acc + (slot(s, pos) * s->H + hi) * ACCS;
	Acc num, den;
	if (h->far) {
		far_sums(s, h, hi, pos, mine);
		num = mine[0];
		den = mine[1];
		size_t d = h->near < pos + 1 ? h->near : pos + 1;
		for (size_t j = pos + 1 - d; j <= pos; j++)
			add_term(s, h, hi, &num, &den, head_weight(s, h, pos - j),
				 pos - j, j);
	} else {
		acc_zero(&num);
		acc_zero(&den);
		for (uint32_t r = 0; r < h->q.nrows; r++)
			s->q[r] = affine(s, &h->q.rows[r], in, 0);
		rotate(s, h, s->q, pos);
		size_t lo = 0;
		if (h->qfree) {
			size_t pre = h->zero_from + 64;
			head_weight(s, h, pos < pre ? pos : pre);
			if (h->window && pos >= h->window)
				lo = pos - h->window + 1;
		}
		for (size_t j = lo; j <= pos; j++) {
			double e;
			if (h->qfree) {
				e = head_weight(s, h, pos - j);
			} else {
				const double *kj = s->kc + kvslot(s, j) * s->kstride +
						   h->koff;
				e = sem_exp(sem, logit(s, h, kj, pos - j));
			}
			add_term(s, h, hi, &num, &den, e, pos - j, j);
		}
	}
	if (!acc_is_zero(sem, &den))
		return acc_div(sem, &num, &den);
	/* all weights rounded to 0: the plain average of the values (each
	 * times c(i-j) with URPE: a uniform row, then C) */
	acc_zero(&num);
	acc_zero(&den);
	for (size_t j = 0; j <= pos; j++)
		add_term(s, h, hi, &num, &den, s->one, pos - j, j);
	return acc_div(sem, &num, &den);
}

static double gate(const Gate *g, const double *h)
{
	switch (g->op) {
	case GATE_GE0: return h[g->in[0]] + g->bias >= 0; /* exact: grid values */
	case GATE_NOT: return !(h[g->in[0]] > 0);
	case GATE_AND:
		for (size_t k = 0; k < g->nin; k++)
			if (!(h[g->in[k]] > 0))
				return 0;
		return 1;
	case GATE_OR:
		for (size_t k = 0; k < g->nin; k++)
			if (h[g->in[k]] > 0)
				return 1;
		return 0;
	}
	return 0;
}

static void block(Sim *s, const SBlock *b, double *h)
{
	for (uint32_t r = 0; r < b->w1.nrows; r++) {
		double u = affine(s, &b->w1.rows[r], h, b->b1[r]);
		s->hid[r] = u > 0 ? u : 0;
	}
	/* all updates read the block's input: collect, then add */
	ensure_tmp(s, b->ntouched + 1);
	double *y = xcalloc(b->ntouched ? b->ntouched : 1, sizeof *y);
	for (size_t t = 0; t < b->ntouched; t++) {
		uint32_t c = b->touched[t];
		y[t] = affine(s, &b->w2.rows[c], s->hid, b->b2[c]);
	}
	for (size_t t = 0; t < b->ntouched; t++) {
		uint32_t c = b->touched[t];
		h[c] = sem_add(&s->sem, h[c], y[t]);
	}
	free(y);
}

/* The gates and blocks of a feed-forward block on h. */
static void ffn(Sim *s, const Layer *ly, SBlock *blocks, double *h)
{
	for (size_t g = 0; g < ly->ngates; g++)
		h[ly->gates[g].out] = gate(&ly->gates[g], h);
	for (size_t b = 0; b < ly->nblocks; b++)
		block(s, &blocks[b], h);
}

/* round(cos(pos angle + phase pi)) of feature f. */
static double feature(Sim *s, size_t f, size_t pos)
{
	const Feature *ft = &s->m->feats[f];
	Cycle *cy = &s->feat[f];
	double *v = cy->n ? cy->v + 2 * (pos % cy->n) : NULL;
	if (v && !isnan(v[0]))
		return v[0];
	double x = pe_cos(&s->sem, &ft->angle, ft->pnum, ft->pden, pos);
	if (v)
		v[0] = x;
	return x;
}

static void step(Sim *s, size_t pos, uint32_t token)
{
	double *h0 = hist(s, pos, 0);
	memcpy(h0, s->embed + token * s->d, s->d * sizeof(double));
	for (size_t f = 0; f < s->m->nfeats; f++) {
		uint32_t o = s->m->feats[f].out;
		h0[o] = sem_add(&s->sem, h0[o], feature(s, f, pos));
	}
	ffn(s, &s->m->input, s->inblocks, h0);
	for (size_t l = 0; l < s->L; l++) {
		double *out = hist(s, pos, l + 1);
		memcpy(out, hist(s, pos, l), s->d * sizeof *out);
		for (size_t hi = s->first[l]; hi < s->first[l + 1]; hi++) {
			double c = attend(s, hi, pos, l);
			uint32_t o = s->heads[hi].out;
			out[o] = sem_add(&s->sem, out[o], c);
		}
		ffn(s, &s->m->layers[l], s->blocks[l], out);
	}
}

/* Room for positions 0..npos-1 (sizes saturate: an impossible size is
 * an allocation that fails, exit 4). */
static void reserve(Sim *s, size_t npos)
{
	size_t hn = s->ring && npos > 2 ? 2 : npos;
	size_t kvn = s->kvring && npos > 2 ? 2 : npos;
	if (hn > s->hcap) {
		size_t cap = s->hcap ? s->hcap : 16;
		while (cap < hn)
			cap = mul_sat(cap, 2);
		size_t hd = mul_sat(s->L + 1, s->d);
		s->h = xrealloc(s->h, mul_sat(cap, mul_sat(hd, sizeof *s->h)));
		s->acc = xrealloc(s->acc, mul_sat(cap, mul_sat(s->H ? s->H : 1,
							      ACCS * sizeof *s->acc)));
		s->hcap = cap;
	}
	if (kvn > s->kvcap) {
		size_t cap = s->kvcap ? s->kvcap : 16;
		while (cap < kvn)
			cap = mul_sat(cap, 2);
		s->vc = xrealloc(s->vc, mul_sat(cap, mul_sat(s->H ? s->H : 1,
							     sizeof *s->vc)));
		s->kc = xrealloc(s->kc, mul_sat(cap, mul_sat(s->kstride ? s->kstride
									 : 1,
							     sizeof *s->kc)));
		s->kvcap = cap;
	}
}

void sim_reset(Sim *s)
{
	reserve(s, 1);
	s->len = 0;
	step(s, 0, 0);
}

void sim_push(Sim *s, uint32_t token)
{
	reserve(s, s->len + 2);
	step(s, s->len + 1, token);
	s->len++;
}

void sim_pop(Sim *s)
{
	if (s->len)
		s->len--;
}

size_t sim_length(const Sim *s)
{
	return s->len;
}

double sim_output(const Sim *s)
{
	return affine((Sim *)s, &s->wout, hist(s, s->len, s->L), s->bout);
}

bool sim_accepts(const Sim *s)
{
	return sim_output(s) > 0;
}

const double *sim_residual(const Sim *s, size_t pos, size_t layer)
{
	return hist(s, pos, layer);
}

bool sim_uniform(const Sim *s)
{
	for (size_t i = 0; i < s->H; i++)
		if (!s->heads[i].uniform)
			return false;
	return true;
}

void sim_set_streaming(Sim *s, bool on)
{
	s->ring = on;
	s->kvring = on && sim_uniform(s);
	sim_reset(s);
}

/* What sim_new allocates for a layer's blocks. */
static size_t blocks_bytes(const Layer *ly, size_t d)
{
	size_t b = 0;
	for (size_t i = 0; i < ly->nblocks; i++) {
		size_t hid = ly->blocks[i].w1.rows;
		b = add_sat(b, mul_sat(add_sat(hid, d), sizeof(Row) + 16));
		b = add_sat(b, mul_sat(add_sat(ly->blocks[i].w1.n,
					       ly->blocks[i].w2.n), 12));
	}
	return b;
}

size_t sim_estimate(const Model *m)
{
	size_t b = mul_sat(m->nletters + 1, mul_sat(m->d, 8));
	size_t heads = 0, keys = 0;
	for (size_t l = 0; l < m->nlayers; l++) {
		const Layer *ly = &m->layers[l];
		for (size_t i = 0; i < ly->nheads; i++) {
			const Head *h = &ly->heads[i];
			heads++;
			keys = add_sat(keys, h->wk.rows);
			b = add_sat(b, mul_sat(h->wq.rows, 2 * sizeof(Row) + 8));
			b = add_sat(b, mul_sat(add_sat(h->wq.n, h->wk.n), 12));
		}
		b = add_sat(b, blocks_bytes(ly, m->d));
	}
	b = add_sat(b, blocks_bytes(&m->input, m->d));
	/* the first 16 positions of history */
	size_t pos = mul_sat(mul_sat(m->nlayers + 1, m->d), 8);
	pos = add_sat(pos, mul_sat(heads, ACCS * sizeof(Acc) + 8));
	pos = add_sat(pos, mul_sat(keys, 8));
	return add_sat(b, mul_sat(pos, 16));
}

size_t sim_history_bytes(const Sim *s)
{
	size_t h = mul_sat(s->hcap, mul_sat(mul_sat(s->L + 1, s->d), 8));
	h = add_sat(h, mul_sat(s->hcap, mul_sat(s->H, ACCS * sizeof(Acc))));
	size_t kv = mul_sat(s->kvcap, mul_sat(add_sat(s->H, s->kstride), 8));
	return add_sat(h, kv);
}

size_t sim_state_size(const Sim *s)
{
	return s->H * ACCS;
}

void sim_save_state(const Sim *s, Acc *out)
{
	memcpy(out, s->acc + slot(s, s->len) * s->H * ACCS,
	       s->H * ACCS * sizeof *out);
}

void sim_load_state(Sim *s, size_t length, const Acc *in)
{
	reserve(s, add_sat(length, 2));
	memcpy(s->acc + slot(s, length) * s->H * ACCS, in,
	       s->H * ACCS * sizeof *in);
	s->len = length;
}

size_t sim_alibi_window(const Semantics *sem, double slope)
{
	if (slope <= 0)
		return 0;
	for (size_t d = 1; d < (size_t)1 << 20; d++) {
		double z = sem_affine(sem, NULL, NULL, 0, -slope * (double)d);
		if (sem_exp(sem, z) == 0)
			return d;
	}
	return 0;
}
