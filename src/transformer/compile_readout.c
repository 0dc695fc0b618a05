/* compile_readout.c -- what the model's output row reads (see compile.h,
 * --readout): the Booleans each readout needs before lowering (the root;
 * [t >= k] for a class readout; the counted Booleans of a ratio's linear
 * term), their lowering, the ratio's own head, and the output row. */
#include <config.h>
#include "transformer/compile_state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "core/lower.h"
#include "core/print.h"

/* The Booleans a readout needs, before lowering: the root itself (accept,
 * per_position), [t >= k] for k = lo+1..hi (class), the counted psi_k of
 * the linear term (ratio, kept in c->ratio).  NULL with c->err when the
 * readout cannot read the root. */
static Node *readout_roots(Compiler *c, Node root, size_t *n)
{
	Store *st = c->st;
	const CompileOptions *o = c->o;
	bool term = !store_is_bool(st, root);
	*n = 0;
	if (term && !readout_counts(o->readout)) {
		c->err = compiler_message("the output is an integer term: a "
					  "component of the fixed-precision "
					  "stream is bounded and a count "
					  "grows with the length, so it needs "
					  "a readout: --readout=class:LO:HI "
					  "(the integer min(max(t, LO), HI)) "
					  "or --readout=ratio (floor(t/(i+1)) "
					  "at precision s, for a linear term)");
		return NULL;
	}
	if (!term && readout_counts(o->readout)) {
		c->err = compiler_message("--readout=%s reads an integer "
					  "term, and the output is a formula "
					  "(--per-position reads a formula at "
					  "every position)",
					  readout_name(o->readout));
		return NULL;
	}
	if (o->readout == READOUT_CLASS) {
		if (o->hi - o->lo > COMPILE_MAX_CLASSES) {
			c->err = compiler_message("--readout=class:%lld:%lld "
						  "needs %lld comparisons "
						  "(one per boundary); the "
						  "compiler takes at most %d",
						  (long long)o->lo,
						  (long long)o->hi,
						  (long long)(o->hi - o->lo),
						  COMPILE_MAX_CLASSES);
			return NULL;
		}
		Node *r = xcalloc((size_t)(o->hi - o->lo) + 1, sizeof *r);
		for (int64_t k = o->lo + 1; k <= o->hi; k++)
			r[(*n)++] = store_make_cmp(st, REL_GE, root,
						   store_make_const_si(st, (long)k));
		return r;
	}
	if (o->readout == READOUT_RATIO) {
		store_linear(st, root, &c->ratio);
		c->has_ratio = true;
		Node *r = xcalloc(c->ratio.n + 1, sizeof *r);
		if (!compiler_counted(st, &c->ratio, r)) {
			c->err = compiler_message("--readout=ratio needs a "
						  "linear term sum_k a_k "
						  "#[psi_k] + c, read by one "
						  "uniform head; this one has "
						  "min, max or a conditional, "
						  "which picks between counts "
						  "by a Boolean, and the "
						  "construction has no gate "
						  "that selects a head's "
						  "value: use "
						  "--readout=class:LO:HI");
			free(r);
			return NULL;
		}
		*n = c->ratio.n;
		return r;
	}
	Node *r = xcalloc(1, sizeof *r);
	r[(*n)++] = root;
	return r;
}

/* Lowers the readout's roots into c->cores (c->core the largest). */
bool compiler_lower_roots(Compiler *c, Node root)
{
	size_t n;
	Node *roots = readout_roots(c, root, &n);
	if (!roots)
		return false;
	Lowering *lw = lower_new(c->st);
	c->cores = xcalloc(n + 1, sizeof *c->cores);
	for (size_t i = 0; i < n && !c->err; i++) {
		char *lerr = NULL;
		c->cores[i] = lower_formula(lw, roots[i], &lerr);
		if (c->cores[i] == NODE_NONE)
			c->err = lerr;
		else if (c->cores[i] > c->core)
			c->core = c->cores[i];
		c->ncores++;
	}
	lower_free(lw);
	free(roots);
	return c->err == NULL;
}

/* The ratio readout's head: one layer after its counted Booleans, the
 * head of the comparison t >= 0 (sign -1, shift -1), whose sum is t. */
void compiler_make_ratio_comp(Compiler *c, Node root)
{
	c->ratio_layer = 1;
	for (size_t i = 0; i < c->ncores; i++)
		if (c->lay[c->cores[i]] + 1 > c->ratio_layer)
			c->ratio_layer = c->lay[c->cores[i]] + 1;
	Node ge = store_make_cmp(c->st, REL_GE, root,
				 store_make_const_si(c->st, 0));
	Component comp = {.kind = COMP_HEAD, .layer = c->ratio_layer,
			  .formula = tl_print(c->st, ge, SYNTAX_TL, NULL)};
	VEC_PUSH(c->comps, comp);
	c->ratio_comp = (uint32_t)(c->comps.len - 1);
}

bool compiler_build_ratio_head(Compiler *c)
{
	Layer *ly = &c->m->layers[c->ratio_layer - 1];
	ly->heads = xrealloc(ly->heads, (ly->nheads + 1) * sizeof *ly->heads);
	Head *h = &ly->heads[ly->nheads++];
	memset(h, 0, sizeof *h);
	return compiler_head_linear(c, &c->ratio, c->cores, -1, -1,
				    c->ratio_comp, h);
}

/* The output row: the root's Boolean; the class comparisons with weight
 * 1 each (merged where two lower alike) and the bias lo; the ratio
 * head. */
void compiler_readout_row(Compiler *c)
{
	Model *m = c->m;
	Readout r = c->o->readout;
	m->readout = r;
	double *w = xcalloc(m->d, sizeof *w);
	if (r == READOUT_RATIO)
		w[c->ratio_comp] = 1;
	else
		for (size_t i = 0; i < c->ncores; i++)
			w[c->bool_comp[c->cores[i]]] += 1;
	if (r == READOUT_CLASS) {
		m->class_lo = c->o->lo;
		m->class_hi = c->o->hi;
		m->bout = (double)c->o->lo;
		compiler_note_range(c, fabs((double)c->o->lo));
		compiler_note_range(c, fabs((double)c->o->hi));
	}
	m->wout.rows = 1;
	m->wout.e = xcalloc(c->ncores + 1, sizeof *m->wout.e);
	for (uint32_t k = 0; k < m->d; k++)
		if (w[k] != 0) {
			m->wout.e[m->wout.n++] = (Entry){0, k, w[k]};
			compiler_note_range(c, w[k]);
		}
	free(w);
}
