/* exactness_proof.c -- the argument that a compiled model computes under
 * a semantics what it computes under kneedeep, at every length or up to
 * one (exactness.h); exactness.c searches and spot-checks around it. */
#include <config.h>
#include "transformer/exactness.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "transformer/pe.h"

/* ---- the proof ----------------------------------------------------------
 *
 * Under kneedeep the construction is exact at every length (compile.h;
 * the RoPE MOD heads are checked on two periods by compile_formula).
 * Under another semantics S and for a word of length n (positions
 * 0..n), we show that when the conditions below hold every Boolean
 * component has the same value, 0 or 1, under S as under kneedeep, at
 * every position; so has the output, which reads one of them (O).  By
 * induction over the layers: given equal Booleans, each gadget writes
 * equal Booleans.
 *
 * (W) S converts every weight to its format.  Rounded-sums keeps F_{p,s};
 *     under IEEE every weight must convert exactly (checked), so that S
 *     runs the same model.  Every Boolean, head and hidden component has
 *     one writer and is 0 before it, so adding x to it gives x.
 * (C) A counting head (no query or key rows, slope 0) has every weight
 *     round(exp(0)) = 1.  Its value at a position is an integer of
 *     magnitude at most V = sum |w| + |bias| (it reads 0/1 components),
 *     so every partial sum of its numerator N and denominator n+1 is an
 *     integer of magnitude at most (n+1) max(V, 1).  Integers of
 *     magnitude up to T are exact: T is the largest integer of F_{p,s}
 *     under rounded-sums (whose additions are then exact, no
 *     saturation), 2^prec under IEEE (prec = 24, 8, 11 bits).  So while
 *     (n+1) max(V, 1) <= T both sums are exact: rounded-sums then
 *     divides like kneedeep; IEEE gives x = RNE(N/(n+1)), which has the
 *     sign of N (|N|/(n+1) >= 2^-prec cannot underflow), and kneedeep's
 *     floor(N/(n+1)) >= 0 iff N >= 0 iff x >= 0.
 * (U) A URPE Y head: weights 1, c(1) = 1 and 0 at every other distance;
 *     its numerator is the one term v(i-1) = +-1, its denominator n+1:
 *     (C) with N = +-1, exact while n+1 <= T.
 * (T) A T5 Y head: bias 0 at bucket 1 and -C elsewhere, round(exp(-C)) =
 *     0 under kneedeep.  Rounded-sums rounds weights alike and its sums
 *     have one term.  Under IEEE the same holds iff RNE(exp(-C)) = 0
 *     (checked; C would have to exceed 17 even in fp16).  Every length.
 * (A) An ALiBi Y head reads a window of 2 (weights beyond distance 1
 *     floor to 0).  Rounded-sums rounds weights alike; its sums have two
 *     terms of at most V <= T.  Under IEEE exp(-2a) does not round to 0:
 *     no proof.
 * (R) A RoPE MOD head: every weight but BOS's (at i = r mod m) floors to
 *     0.  Rounded-sums rounds logits and weights alike; its sums are the
 *     BOS term, or the fallback average of the n+1 values 1, 0, ..., 0,
 *     exact while n+1 <= T.  Under IEEE exp(-A) is positive: no proof.
 * (S) A sinusoidal MOD feature x_i = round(cos(2 pi (i-r)/m)) read by
 *     ge0(x - 1).  Rounded-sums rounds it like kneedeep.  Under IEEE
 *     x_i = 1 when i = r (mod m) (cos is exactly 1 there), and otherwise
 *     x_i <= RNE(cos(2 pi/m)) (RNE is monotone and cos(2 pi k/m) <=
 *     cos(2 pi/m) for k != 0 mod m): RNE(cos(2 pi/m)) < 1 is required.
 * (G) Table gates are comparisons, exact in every semantics; ge0 of a
 *     head (bias 0) reads x >= 0, equal by (C) and (U).
 * (L) ReLU gadgets compute under rounded-sums as under kneedeep.  Under
 *     IEEE, not/and/or of 0/1 inputs compute integers of magnitude at
 *     most k+1 (k the fan-in): exact while k+1 <= 2^prec.  ge0(x + b)
 *     (b = 0 for a head, -1 for a feature) is min(1, relu(y)), y = x + b
 *     + eps, eps = 2^-s (computed exactly, rounded once), then stages
 *     o <- min(1, 2^m o) with m <= min(s, p-2-s), s >= 1.  It outputs
 *     exactly [x + b >= 0] if (i) x + b >= 0 or x + b <= -eps, (ii) |y|
 *     <= 2^(prec-3) and (iii) 2^(m+1) <= 2^prec.  If y <= 0 every unit
 *     is 0 at every stage.  If 0 < y <= 1 the first block gives o =
 *     RNE(y) in [eps, 1]; if y > 1 it gives RNE(RNE(y) - RNE(y-1)),
 *     within 2y 2^-prec <= 1/4 of 1 by (ii).  A stage with 2^m o <= 1
 *     gives o' = RNE(o + RNE((2^m - 1) o)); for L = eps 2^(m of the
 *     stages so far), a power of two, o >= L implies o' >= 2^m L
 *     (monotone; (2^m - 1) L is representable) and o' <= 1 ((2^m - 1) o
 *     <= 1 - o).  A stage with 2^m o > 1 computes 2^m o and 2^m o - 1
 *     exactly (iii), so o' = RNE(o + RNE(1 - o)) = 1: |1 - o| < 1 makes
 *     RNE(1 - o) err by at most 2^-(prec+1), and 1 + d with |d| <=
 *     2^-(prec+1) rounds to 1 (the tie below 1 goes to the even 1).
 *     After the stages L = eps 2^s = 1, so o = 1.  For a head, (i) needs
 *     N < 0 to give x <= -eps: |N|/(n+1) >= 1/(n+1) >= 2^-s iff n+1 <=
 *     2^s.  This is what round to nearest costs: majority with ReLU at
 *     s = 8 breaks at length 256 (a^128 b^128, x = -1/257 > -eps).  For
 *     a feature, (i) needs RNE(cos(2 pi/m)) <= 1 - eps (checked).
 */

typedef enum { HK_COUNT, HK_URPE, HK_T5, HK_ALIBI, HK_ROPE, HK_OTHER } HeadKind;

static HeadKind head_kind(const Head *h)
{
	if (h->nrope)
		return HK_ROPE;
	if (h->wq.rows || h->wk.rows)
		return HK_OTHER;
	if (h->t5)
		return HK_T5;
	if (h->urpe)
		return HK_URPE;
	return h->slope != 0 ? HK_ALIBI : HK_COUNT;
}

/* V of (C): the largest magnitude of the head's value (0/1 inputs). */
static double value_bound(const Head *h)
{
	double v = fabs(h->bv);
	for (size_t k = 0; k < h->wv.n; k++)
		v += fabs(h->wv.e[k].w);
	return v;
}

typedef struct {
	const Model *m;
	const CompileInfo *info;
	Semantics sem;
	bool ieee;
	int prec;       /* IEEE significand bits */
	double top;     /* T of (C) */
	bool all, none;
	size_t len;     /* the length proved, when !all && !none */
	Buf why;        /* the clauses that bound it */
	Buf no;         /* why there is no proof */
	bool inexact;   /* a weight does not convert exactly: */
	double bad;     /* the first one */
} Proof;

static void none(Proof *pf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void none(Proof *pf, const char *fmt, ...)
{
	if (pf->none)
		return; /* the first reason is enough */
	pf->none = true;
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	buf_puts(&pf->no, tmp);
}

/* Lengths up to n are proved by the clause (n < 0: not even the empty
 * word). */
static void bound(Proof *pf, double n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void bound(Proof *pf, double n, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0) {
		none(pf, "%s, which fails already at length 0", tmp);
		return;
	}
	if (n > (double)(SIZE_MAX / 4))
		n = (double)(SIZE_MAX / 4);
	buf_printf(&pf->why, "%s%s (n <= %.0f)", pf->why.len ? "; " : "", tmp,
		   n);
	if (pf->all || (size_t)n < pf->len)
		pf->len = (size_t)n;
	pf->all = false;
}

/* Whether w converts exactly; the first that does not is kept. */
static bool exact_weight(Proof *pf, double w)
{
	if (sem_convert(&pf->sem, w) == w)
		return true;
	if (!pf->inexact) {
		pf->inexact = true;
		pf->bad = w;
	}
	return false;
}

static bool exact_sparse(Proof *pf, const Sparse *sp)
{
	for (size_t k = 0; k < sp->n; k++)
		if (!exact_weight(pf, sp->e[k].w))
			return false;
	return true;
}

static bool exact_head(Proof *pf, const Head *h)
{
	bool ok = exact_sparse(pf, &h->wq) && exact_sparse(pf, &h->wk) &&
		  exact_sparse(pf, &h->wv) && exact_weight(pf, h->bv) &&
		  exact_weight(pf, h->slope) && exact_weight(pf, h->urpe_beyond);
	for (size_t d = 0; ok && d < h->nurpe; d++)
		ok = exact_weight(pf, h->urpe[d]);
	for (uint32_t b = 0; ok && h->t5 && b < h->t5->buckets; b++)
		ok = exact_weight(pf, h->t5->bias[b]);
	return ok;
}

static bool exact_layer(Proof *pf, const Layer *ly, uint32_t d)
{
	for (size_t h = 0; h < ly->nheads; h++)
		if (!exact_head(pf, &ly->heads[h]))
			return false;
	for (size_t b = 0; b < ly->nblocks; b++) {
		const Block *bl = &ly->blocks[b];
		if (!exact_sparse(pf, &bl->w1) || !exact_sparse(pf, &bl->w2))
			return false;
		for (uint32_t r = 0; r < bl->w1.rows; r++)
			if (!exact_weight(pf, bl->b1[r]))
				return false;
		for (uint32_t c = 0; c < d; c++)
			if (!exact_weight(pf, bl->b2[c]))
				return false;
	}
	return true;
}

/* (W): every weight of the model is in the format. */
static bool exact_weights(Proof *pf)
{
	const Model *m = pf->m;
	for (size_t i = 0; i < (m->nletters + 1) * m->d; i++)
		if (!exact_weight(pf, m->embed[i]))
			return false;
	if (!exact_layer(pf, &m->input, m->d))
		return false;
	for (size_t l = 0; l < m->nlayers; l++)
		if (!exact_layer(pf, &m->layers[l], m->d))
			return false;
	return exact_sparse(pf, &m->wout) && exact_weight(pf, m->bout);
}

/* (T): the T5 biases that kneedeep rounds to weight 0 do so under S. */
static void prove_t5(Proof *pf, const Head *h)
{
	if (!pf->ieee)
		return;
	for (uint32_t b = 0; b < h->t5->buckets; b++) {
		double w = sem_exp(&pf->sem, h->t5->bias[b]);
		if (h->t5->bias[b] != 0 && w != 0)
			none(pf, "the T5 Y heads need exp(%g) to round to 0, and "
				 "it rounds to %g",
			     h->t5->bias[b], w);
	}
}

/* The A of a RoPE MOD head: its query's unrotated row (the logit of
 * every key after BOS is -A). */
static double rope_amplitude(const Head *h)
{
	for (size_t k = 0; k < h->wq.n; k++)
		if (h->wq.e[k].row == 2 * h->nrope)
			return h->wq.e[k].w;
	return 0;
}

/* What the heads of the model need, gathered before the clauses. */
typedef struct {
	double vcount;  /* the largest V of (C), or -1: no counting head */
	double vmax;    /* the largest V of any head */
	bool urpe, rope;
} Heads;

static void prove_head(Proof *pf, const Head *h, Heads *hs)
{
	double v = value_bound(h), a;
	switch (head_kind(h)) {
	case HK_COUNT:
		if (v > hs->vcount)
			hs->vcount = v > 1 ? v : 1;
		break;
	case HK_URPE: hs->urpe = true; break;
	case HK_T5: prove_t5(pf, h); break;
	case HK_ALIBI:
		if (pf->ieee)
			none(pf, "the ALiBi Y heads need exp(-2*%g) to round to "
				 "0, and it rounds to %g",
			     h->slope, sem_exp(&pf->sem, -2 * h->slope));
		else if (2 * v > pf->top)
			none(pf, "the ALiBi Y heads' sums of two values up to %g "
				 "leave F_{%d,%d}", v, pf->m->p, pf->m->s);
		break;
	case HK_ROPE:
		hs->rope = true;
		a = rope_amplitude(h);
		if (pf->ieee)
			none(pf, "the RoPE MOD heads need exp(-%g) to round to 0, "
				 "and it rounds to %g", a, sem_exp(&pf->sem, -a));
		break;
	case HK_OTHER:
		none(pf, "a head with query/key rows that the construction "
			 "does not build");
		break;
	}
	if (v > hs->vmax)
		hs->vmax = v;
}

/* T of (C) as text: 2^prec under IEEE. */
static void top_text(const Proof *pf, char *out, size_t n)
{
	if (pf->ieee)
		snprintf(out, n, "2^%d", pf->prec);
	else
		snprintf(out, n, "%.0f = the largest integer of F_{%d,%d}",
			 pf->top, pf->m->p, pf->m->s);
}

/* The clauses (C), (U) and (R) of the heads gathered. */
static void prove_sums(Proof *pf, const Heads *hs)
{
	char top[64];
	top_text(pf, top, sizeof top);
	if (hs->vcount > 0)
		bound(pf, floor(pf->top / hs->vcount) - 1,
		      "the counting heads' sums are exact integers while "
		      "(n+1)*%g <= %s", hs->vcount, top);
	if (hs->urpe)
		bound(pf, pf->top - 1, "the URPE heads' denominators are exact "
				       "while n+1 <= %s", top);
	if (hs->rope && !pf->ieee)
		bound(pf, pf->top - 1, "the RoPE heads' fallback sums are exact "
				       "while n+1 <= %s", top);
}

/* (S): RNE(cos(2 pi/m)) for the largest m, and the (L) margin. */
static void prove_features(Proof *pf)
{
	const Model *m = pf->m;
	double eps = ldexp(1, -m->s);
	for (size_t f = 0; f < m->nfeats && pf->ieee; f++) {
		const Angle *a = &m->feats[f].angle;
		double c = pe_cos(&pf->sem, a, 0, 1, 1); /* cos(2 pi/m) */
		int64_t mod = 2 * a->den / a->num;
		if (c >= 1)
			none(pf, "cos(2 pi/%lld) rounds to 1 under %s, so MOD(%lld, "
				 ".) reads as true at every position",
			     (long long)mod, semantics_name(&pf->sem),
			     (long long)mod);
		else if (m->ffn == FFN_RELU && c > 1 - eps)
			none(pf, "cos(2 pi/%lld) rounds to %.10g, above 1 - 2^-%d, "
				 "which the ReLU ge0 gadget cannot tell from 1",
			     (long long)mod, c, m->s);
	}
}

/* (L) under IEEE: the conditions of the ReLU gadgets. */
static void prove_relu(Proof *pf, double vmax, bool read)
{
	const Model *m = pf->m;
	int s = m->s, mm = s < m->p - 2 - s ? s : m->p - 2 - s;
	if (s == 0) {
		none(pf, "the ReLU ge0 gadget needs s >= 1 under round to "
			 "nearest");
		return;
	}
	if (mm + 1 > pf->prec)
		none(pf, "the ReLU doubling stages (factor 2^%d) are not exact "
			 "with %d significand bits", mm, pf->prec);
	if ((double)pf->info->max_fanin + 1 > ldexp(1, pf->prec))
		none(pf, "a ReLU and/or gadget of fan-in %zu is not exact with "
			 "%d significand bits", pf->info->max_fanin, pf->prec);
	if (vmax + 2 > ldexp(1, pf->prec - 3))
		none(pf, "head values up to %g are too large for the ReLU ge0 "
			 "gadget with %d significand bits", vmax, pf->prec);
	if (read)
		bound(pf, ldexp(1, s) - 1, "a ReLU ge0 gadget tells a negative "
					   "head output from 0 only below -2^-%d, "
					   "so n+1 <= 2^%d", s, s);
}

static void prove(Proof *pf)
{
	const Model *m = pf->m;
	if (pf->sem.kind == SEM_KNEEDEEP)
		return; /* pf->all: Knee-Deep's theorem */
	if (pf->ieee && !exact_weights(pf)) {
		char *w = dyadic_text(pf->bad);
		none(pf, "the weight %s of the model is not representable in "
			 "%s (it rounds to %.10g)",
		     w, semantics_name(&pf->sem), sem_convert(&pf->sem, pf->bad));
		free(w);
		return;
	}
	Heads hs = {-1, 0, false, false};
	for (size_t l = 0; l < m->nlayers; l++)
		for (size_t h = 0; h < m->layers[l].nheads; h++)
			prove_head(pf, &m->layers[l].heads[h], &hs);
	prove_sums(pf, &hs);
	prove_features(pf);
	if (pf->ieee && m->ffn == FFN_RELU)
		prove_relu(pf, hs.vmax, hs.vcount > 0 || hs.urpe);
}

static void proof_init(Proof *pf, const ExactInput *in)
{
	memset(pf, 0, sizeof *pf);
	pf->m = in->m;
	pf->info = in->info;
	pf->sem = in->sem;
	pf->sem.p = in->m->p;
	pf->sem.s = in->m->s;
	pf->ieee = in->sem.kind == SEM_IEEE;
	pf->prec = in->sem.fmt == IEEE_FP32 ? 24 : in->sem.fmt == IEEE_BF16 ? 8
									   : 11;
	pf->top = pf->ieee ? ldexp(1, pf->prec)
			   : (double)(fixed_max_m(in->m->p) >> in->m->s);
	pf->all = true;
}

void exactness_prove(const ExactInput *in, Exactness *e)
{
	Proof pf;
	proof_init(&pf, in);
	prove(&pf);
	const char *sem = semantics_name(&in->sem);
	Buf b = {0};
	if (pf.none) {
		buf_printf(&b, "none for %s: %s", sem, pf.no.data);
	} else if (in->sem.kind == SEM_KNEEDEEP) {
		buf_puts(&b, "kneedeep sums attention exactly and the sign of a "
			     "floor-rounded average is exact at every length "
			     "(Knee-Deep's theorem)");
		if (in->info->rope_amplitude != 0)
			buf_puts(&b, "; the RoPE MOD heads were checked on two "
				     "periods");
	} else if (pf.all) {
		buf_printf(&b, "every gadget of this model computes under %s what "
			       "it computes under kneedeep, at every length",
			   sem);
	} else {
		buf_printf(&b, "under %s, %s", sem, pf.why.data);
	}
	e->proved_all = !pf.none && pf.all;
	e->proved = !pf.none;
	e->proved_len = pf.len;
	e->argument = buf_take(&b);
	buf_free(&pf.why);
	buf_free(&pf.no);
}
