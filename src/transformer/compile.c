/* compile.c -- formulas to rounded transformers (see compile.h): the
 * interface and the frame of the construction.  The components of the
 * Booleans and their layers, the embedding (depth-0 Booleans as
 * functions of the token), each layer's heads and gates in order, the
 * precision the construction needs (the ALiBi slope, the T5 bias, the
 * least p).  The parts built inside a layer live by kind in
 * compile_heads.c, compile_gates.c, compile_positional.c and
 * compile_readout.c, over the state of compile_state.h. */
#include <config.h>
#include "transformer/compile.h"

#include "transformer/compile_state.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "core/print.h"
#include "transformer/fixed.h"
#include "transformer/sim.h"

/* Value of a depth-0 or position-0 Boolean node: `token` is the letter at
 * the position (SYM_NONE at BOS, where counts are 0). */
static bool value_at(Compiler *c, Node n, Sym token, const bool *val)
{
	Store *st = c->st;
	const Node *k = store_kids(st, n);
	uint32_t nk = store_nkids(st, n);
	switch (store_op(st, n)) {
	case OP_TRUE: return true;
	case OP_FALSE: return false;
	case OP_LETTER:
		return token != SYM_NONE && store_letter_sym(st, n) == token;
	/* at BOS only (position 0): what the model's MOD and Y compute */
	case OP_MOD: return store_aux2(st, n) == 0;
	case OP_PREV: return false;
	case OP_NOT: return !val[k[0]];
	case OP_AND:
		for (uint32_t i = 0; i < nk; i++)
			if (!val[k[i]])
				return false;
		return true;
	case OP_OR:
		for (uint32_t i = 0; i < nk; i++)
			if (val[k[i]])
				return true;
		return false;
	case OP_CMP: {
		/* all counts are 0 here (BOS), or there are none (depth 0) */
		Linear l;
		store_linear(st, k[0], &l);
		int sign;
		long shift;
		bool ok = compiler_strict_form(store_rel(st, n), &sign, &shift);
		bool v = ok && (sign * fmpz_sgn(l.constant) < 0 ||
				(fmpz_is_zero(l.constant) && shift < 0));
		store_linear_free(&l);
		return v;
	}
	default: return false;
	}
}

static uint32_t add_comp(Compiler *c, CompKind kind, uint32_t layer,
			 Node n)
{
	Component comp = {.kind = kind, .layer = layer};
	if (n != NODE_NONE)
		comp.formula = compiler_label(c, n);
	VEC_PUSH(c->comps, comp);
	return (uint32_t)(c->comps.len - 1);
}

/* Boolean n now has component k: larger labels refer to it by name. */
static void name_comp(Compiler *c, Node n, uint32_t k)
{
	char name[24];
	int len = snprintf(name, sizeof name, "c%u", k);
	c->label[n] = sym_intern(store_syms(c->st), name, (size_t)len);
}

static bool build_layer(Compiler *c, Node core, uint32_t l, Layer *ly)
{
	Store *st = c->st;
	size_t hcap = 0, gcap = 0;
	for (Node n = 1; n <= core; n++) {
		if (!c->bool_comp[n] || c->lay[n] != l)
			continue;
		Op op = store_op(st, n);
		if (op == OP_CMP || op == OP_PREV || op == OP_MOD) {
			mem_grow((void **)&ly->heads, &hcap, ly->nheads + 1,
				 sizeof *ly->heads);
			Head *h = &ly->heads[ly->nheads++];
			memset(h, 0, sizeof *h);
			if (op == OP_MOD) {
				compiler_build_mod_rope(c, n, h, ly, &gcap);
				continue;
			}
			if (op == OP_PREV) {
				if (c->o->pe == PE_T5)
					compiler_build_prev_t5(c, n, h);
				else if (c->o->pe == PE_URPE)
					compiler_build_prev_urpe(c, n, h, ly,
								 &gcap);
				else
					compiler_build_prev(c, n, h, ly, &gcap);
				continue;
			}
			if (!compiler_build_head(c, n, h))
				return false;
		}
		compiler_add_gate(c, ly, compiler_gate_of(c, n), &gcap);
	}
	return true;
}

/* The layer of a Boolean: like its depth, with Y counted like a count. */
static uint32_t layer_of(Compiler *c, Node n)
{
	Store *st = c->st;
	const Node *k = store_kids(st, n);
	uint32_t l = 0;
	switch (store_op(st, n)) {
	case OP_NOT:
	case OP_AND:
	case OP_OR:
		for (uint32_t i = 0; i < store_nkids(st, n); i++)
			if (c->lay[k[i]] > l)
				l = c->lay[k[i]];
		return l;
	case OP_PREV: return c->lay[k[0]] + 1;
	case OP_MOD: return c->o->pe == PE_ROPE; /* a head of layer 1 */
	case OP_CMP: {
		Linear lin;
		store_linear(st, k[0], &lin);
		for (size_t i = 0; i < lin.n; i++) {
			Node a = lin.atoms[i];
			uint32_t la = store_op(st, a) == OP_COUNT
					      ? c->lay[store_kid(st, a, 0)] + 1
					      : store_depth(st, a);
			if (la > l)
				l = la;
		}
		store_linear_free(&lin);
		return l;
	}
	default: return 0;
	}
}

/* The components of the Booleans (and their heads) reachable from the
 * lowered roots. */
static void make_components(Compiler *c, Node root, CompileInfo *info)
{
	Store *st = c->st;
	Node core = c->core;
	unsigned char *mark = store_reachable(st, c->cores, c->ncores);
	size_t top = (size_t)core + 1;
	c->bool_comp = xcalloc(top, sizeof *c->bool_comp);
	c->label = xmalloc(top * sizeof *c->label);
	for (size_t i = 0; i < top; i++)
		c->label[i] = SYM_NONE;
	c->head_comp = xcalloc(top, sizeof *c->head_comp);
	c->at0 = xcalloc(top, sizeof *c->at0);
	c->lay = xcalloc(top, sizeof *c->lay);
	c->hid = xcalloc(top, sizeof *c->hid);
	c->rope_a = xcalloc(top, sizeof *c->rope_a);
	add_comp(c, COMP_BOS, 0, NODE_NONE);
	if (c->o->pe == PE_ROPE && (store_flags(st, root) & FLAG_MOD))
		c->one = add_comp(c, COMP_HIDDEN, 0, NODE_NONE);
	for (Node n = 1; n <= core; n++) {
		if (!mark[n] || !store_is_bool(st, n))
			continue;
		uint32_t l = c->lay[n] = layer_of(c, n);
		Op op = store_op(st, n);
		PeKind pe = c->o->pe;
		if ((op == OP_CMP && l > 0) || (op == OP_PREV && pe != PE_T5))
			c->head_comp[n] = add_comp(c, COMP_HEAD, l, n);
		if (op == OP_PREV && pe != PE_T5)
			c->comps.data[c->head_comp[n]].window = true;
		if (op == OP_PREV && pe == PE_ALIBI) {
			c->hid[n] = add_comp(c, COMP_HIDDEN, l, NODE_NONE);
			for (int i = 1; i < 5; i++)
				add_comp(c, COMP_HIDDEN, l, NODE_NONE);
		}
		if (op == OP_MOD && pe == PE_SINUSOIDAL) /* the feature */
			c->hid[n] = add_comp(c, COMP_HIDDEN, l, NODE_NONE);
		if ((op == OP_MOD && pe == PE_ROPE) ||
		    (op == OP_PREV && pe == PE_URPE)) {
			c->hid[n] = add_comp(c, COMP_HIDDEN, l, NODE_NONE);
			add_comp(c, COMP_HIDDEN, l, NODE_NONE);
		}
		if (op == OP_MOD && pe == PE_ROPE) {
			c->head_comp[n] = add_comp(c, COMP_HEAD, l, n);
			c->comps.data[c->head_comp[n]].window = true;
			c->rope_a[n] =
				compiler_rope_amplitude(c, store_aux(st, n));
			if (c->rope_a[n] > info->rope_amplitude)
				info->rope_amplitude = c->rope_a[n];
		}
		c->bool_comp[n] = add_comp(c, COMP_BOOL, l, n);
		name_comp(c, n, c->bool_comp[n]);
		c->at0[n] = value_at(c, n, SYM_NONE, c->at0);
	}
	free(mark);
}

static void embed(Compiler *c, Node core, const Sym *letters, size_t nl)
{
	Model *m = c->m;
	m->embed = xcalloc((nl + 1) * m->d, sizeof *m->embed);
	bool *val = xcalloc((size_t)core + 1, sizeof *val);
	for (size_t t = 0; t <= nl; t++) {
		Sym tok = t ? letters[t - 1] : SYM_NONE;
		double *row = m->embed + t * m->d;
		row[0] = t == 0;
		if (c->one)
			row[c->one] = 1;
		for (Node n = 1; n <= core; n++) {
			if (!c->bool_comp[n] || c->lay[n] != 0 ||
			    compiler_positional(c, n))
				continue;
			val[n] = value_at(c, n, tok, val);
			row[c->bool_comp[n]] = val[n];
		}
	}
	free(val);
}

static bool build(Compiler *c, Node root, const Sym *letters, size_t nl,
		  CompileInfo *info)
{
	Store *st = c->st;
	Model *m = c->m;
	if (!compiler_check_fragment(c, root) || !compiler_lower_roots(c, root))
		return false;
	make_components(c, root, info);
	if (c->o->readout == READOUT_RATIO)
		compiler_make_ratio_comp(c, root);
	Node core = c->core;
	m->d = (uint32_t)c->comps.len;
	m->comps = c->comps.data;
	c->range = 1;
	embed(c, core, letters, nl);
	compiler_build_input(c, core);
	m->feats = c->feats.data;
	m->nfeats = c->feats.len;
	m->nlayers = c->ratio_layer;
	for (size_t i = 0; i < c->ncores; i++)
		if (c->lay[c->cores[i]] > m->nlayers)
			m->nlayers = c->lay[c->cores[i]];
	m->layers = xcalloc(m->nlayers ? m->nlayers : 1, sizeof *m->layers);
	for (uint32_t l = 1; l <= m->nlayers; l++)
		if (!build_layer(c, core, l, &m->layers[l - 1]))
			return false;
	if (c->o->readout == READOUT_RATIO && !compiler_build_ratio_head(c))
		return false;
	compiler_readout_row(c);
	info->range = c->range;
	info->depth = store_depth(st, root);
	info->heads = model_nheads(m);
	info->features = m->nfeats;
	info->max_fanin = c->fanin;
	if ((store_flags(st, root) & FLAG_PREV) && c->o->pe == PE_T5)
		info->t5_bias = -c->t5c;
	if ((store_flags(st, root) & FLAG_PREV) && c->o->pe == PE_ALIBI) {
		info->slope = c->slope;
		Semantics kd = {.kind = SEM_KNEEDEEP, .p = m->p, .s = m->s};
		info->window = sim_alibi_window(&kd, c->slope);
	}
	return true;
}

static const char *const pe_names[] = {"nope", "alibi", "sinusoidal",
				       "rope", "t5", "urpe"};

bool pe_kind_parse(const char *text, PeKind *out)
{
	for (int k = 0; k <= PE_URPE; k++)
		if (strcmp(text, pe_names[k]) == 0) {
			*out = (PeKind)k;
			return true;
		}
	return false;
}

const char *pe_kind_name(PeKind pe)
{
	return pe_names[pe];
}

double compile_alibi_slope(int p, int s)
{
	Semantics kd = {.kind = SEM_KNEEDEEP, .p = p, .s = s};
	double eps = ldexp(1, -s);
	for (int64_t m = 1; m <= fixed_max_m(p); m++) {
		double a = ldexp((double)m, -s);
		double e1 = sem_exp(&kd, -a);
		if (e1 == 0)
			return 0; /* steeper slopes only shrink e1 */
		if (sem_exp(&kd, sem_affine(&kd, NULL, NULL, 0, -2 * a)) == 0 &&
		    sem_div(&kd, e1, sem_add(&kd, 1, e1)) >= eps)
			return a;
	}
	return 0;
}

double compile_t5_bias(int p, int s)
{
	Semantics kd = {.kind = SEM_KNEEDEEP, .p = p, .s = s};
	for (int64_t cc = 1; cc <= fixed_max_m(p) >> s; cc++)
		if (sem_exp(&kd, -(double)cc) == 0)
			return -(double)cc;
	return 0;
}

int compile_min_p(const CompileInfo *info, FfnKind ffn, int s)
{
	for (int p = s + 2; p <= FIXED_MAX_P; p++) {
		if (ffn == FFN_RELU && s > 0 && p < s + 3)
			continue;
		if ((double)fixed_max_m(p) >= ldexp(info->range, s))
			return p;
	}
	return 0;
}

bool compile_formula(Store *s, Node root, const Sym *letters,
		     size_t nletters, const char *source,
		     const CompileOptions *o, Model *out, CompileInfo *info,
		     char **err)
{
	memset(out, 0, sizeof *out);
	memset(info, 0, sizeof *info);
	out->p = o->p;
	out->s = o->s;
	out->ffn = o->ffn;
	out->pe = xstrdup(pe_kind_name(o->pe));
	out->formula = source ? xstrdup(source) : NULL;
	out->alphabet = xcalloc(nletters + 1, sizeof *out->alphabet);
	for (size_t i = 0; i < nletters; i++)
		out->alphabet[i] = xstrdup(sym_name(store_syms(s), letters[i]));
	out->nletters = nletters;
	Compiler c = {.st = s, .o = o, .m = out};
	if (o->pe == PE_ALIBI)
		c.slope = compile_alibi_slope(o->p, o->s);
	if (o->pe == PE_T5 || o->pe == PE_ROPE)
		c.t5c = -compile_t5_bias(o->p, o->s);
	bool ok = build(&c, root, letters, nletters, info);
	if (ok && (o->p < compile_min_p(info, o->ffn, o->s) ||
		   compile_min_p(info, o->ffn, o->s) == 0)) {
		int need = compile_min_p(info, o->ffn, o->s);
		c.err = need ? compiler_message("precision %d,%d is too "
						"small: this construction "
						"needs p >= %d at s = %d",
						o->p, o->s, need, o->s)
			     : compiler_message("no p <= %d suffices at s = %d",
						FIXED_MAX_P, o->s);
		ok = false;
	}
	if (ok && c.one && !compiler_check_rope_mod(&c, c.core))
		ok = false;
	if (!ok) {
		if (!out->comps)
			out->comps = c.comps.data, out->d = (uint32_t)c.comps.len;
		if (!out->feats)
			VEC_FREE(c.feats);
		model_free(out);
		*err = c.err;
	}
	free(c.bool_comp);
	free(c.cores);
	if (c.has_ratio)
		store_linear_free(&c.ratio);
	free(c.label);
	free(c.head_comp);
	free(c.at0);
	free(c.lay);
	free(c.hid);
	free(c.rope_a);
	return ok;
}
