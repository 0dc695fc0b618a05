/* compile.c -- formulas to rounded transformers (see compile.h). */
#include <config.h>
#include "compile.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fixed.h"
#include "lower.h"
#include "mem.h"
#include "print.h"
#include "sim.h"
#include "vec.h"

typedef VEC(Entry) Entries;

typedef struct {
	Store *st;
	const CompileOptions *o;
	Model *m;
	uint32_t *bool_comp; /* by node id: component of a Boolean, or 0 */
	uint32_t *head_comp; /* by node id: head component of a comparison */
	bool *at0;           /* by node id: Boolean value at BOS (position 0) */
	uint32_t *lay;       /* by node id: the layer computing a Boolean */
	uint32_t *hid;       /* by node id: first hidden component of a Y */
	double slope;
	VEC(Component) comps;
	double range;
	char *err;
} Compiler;

static char *message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *message(const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	return xstrdup(tmp);
}

static void note_range(Compiler *c, double x)
{
	if (fabs(x) > c->range)
		c->range = fabs(x);
}

/* A comparison as L' < 0 with L' = sign * L + shift (L the kid). */
static bool strict_form(Rel rel, int *sign, long *shift)
{
	switch (rel) {
	case REL_LT: *sign = 1; *shift = 0; return true;  /* L < 0 */
	case REL_LE: *sign = 1; *shift = -1; return true; /* L - 1 < 0 */
	case REL_GT: *sign = -1; *shift = 0; return true; /* -L < 0 */
	case REL_GE: *sign = -1; *shift = -1; return true;
	default: return false;
	}
}

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
	case OP_LETTER: return token != SYM_NONE && store_letter_sym(st, n) == token;
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
		bool ok = strict_form(store_rel(st, n), &sign, &shift);
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
		comp.formula = tl_print_brief(c->st, n, SYNTAX_TL);
	VEC_PUSH(c->comps, comp);
	return (uint32_t)(c->comps.len - 1);
}

static bool fits(const fmpz_t x)
{
	return fmpz_bits(x) <= 40;
}

/* The head of comparison n: value weights and its component's counts. */
static bool build_head(Compiler *c, Node n, Head *h)
{
	Store *st = c->st;
	Linear l;
	store_linear(st, store_kid(st, n, 0), &l);
	int sign;
	long shift;
	if (!strict_form(store_rel(st, n), &sign, &shift) || !fits(l.constant)) {
		store_linear_free(&l);
		c->err = message("internal: a comparison the lowering should "
				 "have removed");
		return false;
	}
	Component *comp = &c->comps.data[c->head_comp[n]];
	comp->counts = xcalloc(l.n ? l.n : 1, sizeof *comp->counts);
	h->wv.rows = 1;
	h->wv.e = xcalloc(l.n + 1, sizeof *h->wv.e);
	double cst = sign * (double)fmpz_get_si(l.constant) + (double)shift;
	double bos = -(cst + 1);
	for (size_t i = 0; i < l.n; i++) {
		Node atom = l.atoms[i];
		if (store_op(st, atom) != OP_COUNT || !fits(&l.coefs[i])) {
			store_linear_free(&l);
			c->err = message("internal: a linear form over something "
					 "else than counts");
			return false;
		}
		Node psi = store_kid(st, atom, 0);
		double a = sign * (double)fmpz_get_si(&l.coefs[i]);
		h->wv.e[h->wv.n++] = (Entry){0, c->bool_comp[psi], -a};
		if (c->at0[psi])
			bos += a; /* cancel psi's own value at BOS */
		comp->counts[comp->ncounts++] =
			(CountTerm){a, tl_print_brief(st, psi, SYNTAX_TL)};
	}
	comp->constant = cst;
	h->wv.e[h->wv.n++] = (Entry){0, 0, bos};
	double sum = 0;
	for (size_t i = 0; i < h->wv.n; i++)
		sum += fabs(h->wv.e[i].w);
	note_range(c, sum);
	h->out = c->head_comp[n];
	store_linear_free(&l);
	return true;
}

/* ---- the ReLU realisation of the gates -------------------------------- */

typedef struct {
	Entries w1, w2;
	VEC(double) b1;
	uint32_t hidden;
} BlockBuilder;

static uint32_t unit(BlockBuilder *b, double bias)
{
	VEC_PUSH(b->b1, bias);
	return b->hidden++;
}

static void in_w(BlockBuilder *b, uint32_t u, uint32_t col, double w)
{
	VEC_PUSH(b->w1, ((Entry){u, col, w}));
}

static void out_w(BlockBuilder *b, uint32_t comp, uint32_t u, double w)
{
	VEC_PUSH(b->w2, ((Entry){comp, u, w}));
}

static void finish_block(Compiler *c, BlockBuilder *bb, Layer *ly)
{
	mem_grow((void **)&ly->blocks, &(size_t){ly->nblocks}, ly->nblocks + 1,
		 sizeof *ly->blocks);
	Block *b = &ly->blocks[ly->nblocks++];
	b->w1 = (Sparse){bb->hidden, bb->w1.data, bb->w1.len};
	b->w2 = (Sparse){c->m->d, bb->w2.data, bb->w2.len};
	b->b1 = bb->b1.data ? bb->b1.data : xcalloc(1, sizeof *b->b1);
	b->b2 = xcalloc(c->m->d, sizeof *b->b2);
	memset(bb, 0, sizeof *bb);
}

/* o = min(1, relu(x + eps)) in {0} u [eps, 1], then doubling stages of
 * 2^m (clipped at 1) until o is 0 or 1; saturation-safe (see the note). */
static void relu_ge0(Compiler *c, Layer *ly, uint32_t x, double bias,
		     uint32_t o)
{
	int s = c->o->s, p = c->o->p;
	double eps = ldexp(1, -s);
	BlockBuilder b = {0};
	uint32_t u1 = unit(&b, bias + eps), u2 = unit(&b, bias + eps - 1);
	in_w(&b, u1, x, 1);
	in_w(&b, u2, x, 1);
	out_w(&b, o, u1, 1);
	out_w(&b, o, u2, -1);
	finish_block(c, &b, ly);
	for (int done = 0; done < s;) {
		int m = s - done < p - 2 - s ? s - done : p - 2 - s;
		double f = ldexp(1, m);
		note_range(c, f);
		uint32_t a = unit(&b, 0), d = unit(&b, -1), id = unit(&b, 0);
		in_w(&b, a, o, f);
		in_w(&b, d, o, f);
		in_w(&b, id, o, 1);
		out_w(&b, o, a, 1);
		out_w(&b, o, d, -1);
		out_w(&b, o, id, -1);
		finish_block(c, &b, ly);
		done += m;
	}
}

static void relu_gate(Compiler *c, Layer *ly, const Gate *g)
{
	if (g->op == GATE_GE0) {
		relu_ge0(c, ly, g->in[0], g->bias, g->out);
		return;
	}
	BlockBuilder b = {0};
	double k = (double)g->nin;
	uint32_t u;
	switch (g->op) {
	case GATE_NOT: /* relu(1 - x) */
		u = unit(&b, 1);
		in_w(&b, u, g->in[0], -1);
		out_w(&b, g->out, u, 1);
		break;
	case GATE_AND: /* relu(sum - (k - 1)) */
		u = unit(&b, 1 - k);
		for (size_t i = 0; i < g->nin; i++)
			in_w(&b, u, g->in[i], 1);
		out_w(&b, g->out, u, 1);
		note_range(c, k);
		break;
	case GATE_OR: { /* relu(sum) - relu(sum - 1) */
		uint32_t v = unit(&b, 0), w = unit(&b, -1);
		for (size_t i = 0; i < g->nin; i++) {
			in_w(&b, v, g->in[i], 1);
			in_w(&b, w, g->in[i], 1);
		}
		out_w(&b, g->out, v, 1);
		out_w(&b, g->out, w, -1);
		note_range(c, k);
		break;
	}
	default: break;
	}
	finish_block(c, &b, ly);
}

/* ---- the layers ------------------------------------------------------- */

static Gate gate_of(Compiler *c, Node n)
{
	Store *st = c->st;
	Gate g = {.out = c->bool_comp[n]};
	uint32_t nk = store_nkids(st, n);
	switch (store_op(st, n)) {
	case OP_CMP: g.op = GATE_GE0; nk = 1; break;
	case OP_NOT: g.op = GATE_NOT; break;
	case OP_AND: g.op = GATE_AND; break;
	default: g.op = GATE_OR; break;
	}
	g.in = xcalloc(nk, sizeof *g.in);
	g.nin = nk;
	for (uint32_t i = 0; i < nk; i++)
		g.in[i] = store_op(st, n) == OP_CMP
				  ? c->head_comp[n]
				  : c->bool_comp[store_kid(st, n, i)];
	return g;
}

static void add_gate(Compiler *c, Layer *ly, Gate g, size_t *gcap)
{
	if (c->o->ffn == FFN_RELU) {
		relu_gate(c, ly, &g);
		free(g.in);
		return;
	}
	mem_grow((void **)&ly->gates, gcap, ly->ngates + 1, sizeof *ly->gates);
	ly->gates[ly->ngates++] = g;
}

static Gate gate2(GateOp op, uint32_t out, uint32_t a, uint32_t b, size_t n)
{
	Gate g = {.op = op, .out = out, .nin = n};
	g.in = xcalloc(2, sizeof *g.in);
	g.in[0] = a;
	g.in[1] = b;
	return g;
}

/* Y psi: an ALiBi head averaging psi over {i-1, i}, c; then psi(i-1) =
 * (!psi(i) & c > 0) | (psi(i) & c >= 1) (see compile_alibi_slope). */
static void build_prev(Compiler *c, Node n, Head *h, Layer *ly, size_t *gcap)
{
	Node psi = store_kid(c->st, n, 0);
	uint32_t x = c->head_comp[n], k = c->hid[n], v = c->bool_comp[psi];
	h->wv.rows = 1;
	h->wv.e = xcalloc(2, sizeof *h->wv.e);
	h->wv.e[h->wv.n++] = (Entry){0, v, 1};
	if (c->at0[psi]) /* psi's value at BOS is cancelled: Y is false there */
		h->wv.e[h->wv.n++] = (Entry){0, 0, -1};
	h->slope = c->slope;
	h->out = x;
	note_range(c, 2);
	note_range(c, c->slope);
	Gate g = gate2(GATE_GE0, k, x, 0, 1);
	g.bias = -ldexp(1, -c->o->s);
	add_gate(c, ly, g, gcap);
	g = gate2(GATE_GE0, k + 1, x, 0, 1);
	g.bias = -1;
	add_gate(c, ly, g, gcap);
	add_gate(c, ly, gate2(GATE_NOT, k + 2, v, 0, 1), gcap);
	add_gate(c, ly, gate2(GATE_AND, k + 3, k + 2, k, 2), gcap);
	add_gate(c, ly, gate2(GATE_AND, k + 4, v, k + 1, 2), gcap);
	add_gate(c, ly, gate2(GATE_OR, c->bool_comp[n], k + 3, k + 4, 2), gcap);
}

static bool build_layer(Compiler *c, Node core, uint32_t l, Layer *ly)
{
	Store *st = c->st;
	size_t hcap = 0, gcap = 0;
	for (Node n = 1; n <= core; n++) {
		if (!c->bool_comp[n] || c->lay[n] != l)
			continue;
		Op op = store_op(st, n);
		if (op == OP_CMP || op == OP_PREV) {
			mem_grow((void **)&ly->heads, &hcap, ly->nheads + 1,
				 sizeof *ly->heads);
			Head *h = &ly->heads[ly->nheads++];
			memset(h, 0, sizeof *h);
			if (op == OP_PREV) {
				build_prev(c, n, h, ly, &gcap);
				continue;
			}
			if (!build_head(c, n, h))
				return false;
		}
		add_gate(c, ly, gate_of(c, n), &gcap);
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

static bool check_fragment(Compiler *c, Node root)
{
	unsigned f = store_flags(c->st, root);
	if (f & FLAG_FUTURE)
		c->err = message("future counts #> cannot be compiled: the "
				 "transformer is future-masked");
	else if (f & FLAG_MOD)
		c->err = message("MOD needs a periodic positional encoding "
				 "(sinusoidal or RoPE), which tally compile does "
				 "not construct");
	else if ((f & FLAG_PREV) && !c->o->alibi)
		c->err = message("Y needs a positional encoding: use --pe=alibi");
	else if ((f & FLAG_PREV) && c->slope == 0)
		c->err = message("no ALiBi slope in F_{%d,%d} gives a window of "
				 "exactly 2 that the gates can read: more "
				 "fractional bits are needed",
				 c->o->p, c->o->s);
	return c->err == NULL;
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
		for (Node n = 1; n <= core; n++) {
			if (!c->bool_comp[n] || c->lay[n] != 0)
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
	if (!check_fragment(c, root))
		return false;
	Lowering *lw = lower_new(st);
	char *lerr = NULL;
	Node core = lower_formula(lw, root, &lerr);
	lower_free(lw);
	if (core == NODE_NONE) {
		c->err = lerr;
		return false;
	}
	unsigned char *mark = store_reachable(st, &core, 1);
	size_t top = (size_t)core + 1;
	c->bool_comp = xcalloc(top, sizeof *c->bool_comp);
	c->head_comp = xcalloc(top, sizeof *c->head_comp);
	c->at0 = xcalloc(top, sizeof *c->at0);
	c->lay = xcalloc(top, sizeof *c->lay);
	c->hid = xcalloc(top, sizeof *c->hid);
	add_comp(c, COMP_BOS, 0, NODE_NONE);
	for (Node n = 1; n <= core; n++) {
		if (!mark[n] || !store_is_bool(st, n))
			continue;
		uint32_t l = c->lay[n] = layer_of(c, n);
		Op op = store_op(st, n);
		if ((op == OP_CMP && l > 0) || op == OP_PREV)
			c->head_comp[n] = add_comp(c, COMP_HEAD, l, n);
		if (op == OP_PREV) {
			c->comps.data[c->head_comp[n]].window = true;
			c->hid[n] = add_comp(c, COMP_HIDDEN, l, NODE_NONE);
			for (int i = 1; i < 5; i++)
				add_comp(c, COMP_HIDDEN, l, NODE_NONE);
		}
		c->bool_comp[n] = add_comp(c, COMP_BOOL, l, n);
		c->at0[n] = value_at(c, n, SYM_NONE, c->at0);
	}
	free(mark);
	m->d = (uint32_t)c->comps.len;
	m->comps = c->comps.data;
	c->range = 1;
	embed(c, core, letters, nl);
	m->nlayers = c->lay[core];
	m->layers = xcalloc(m->nlayers ? m->nlayers : 1, sizeof *m->layers);
	for (uint32_t l = 1; l <= m->nlayers; l++)
		if (!build_layer(c, core, l, &m->layers[l - 1]))
			return false;
	m->wout.rows = 1;
	m->wout.e = xcalloc(1, sizeof *m->wout.e);
	m->wout.e[0] = (Entry){0, c->bool_comp[core], 1};
	m->wout.n = 1;
	info->range = c->range;
	info->depth = store_depth(st, root);
	info->heads = model_nheads(m);
	if (store_flags(st, root) & FLAG_PREV) {
		info->slope = c->slope;
		Semantics kd = {.kind = SEM_KNEEDEEP, .p = m->p, .s = m->s};
		info->window = sim_alibi_window(&kd, c->slope);
	}
	return true;
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
	out->pe = xstrdup(o->alibi ? "alibi" : "nope");
	out->formula = source ? xstrdup(source) : NULL;
	out->alphabet = xcalloc(nletters + 1, sizeof *out->alphabet);
	for (size_t i = 0; i < nletters; i++)
		out->alphabet[i] = xstrdup(sym_name(store_syms(s), letters[i]));
	out->nletters = nletters;
	Compiler c = {.st = s, .o = o, .m = out};
	if (o->alibi)
		c.slope = compile_alibi_slope(o->p, o->s);
	bool ok = build(&c, root, letters, nletters, info);
	if (ok && (o->p < compile_min_p(info, o->ffn, o->s) ||
		   compile_min_p(info, o->ffn, o->s) == 0)) {
		int need = compile_min_p(info, o->ffn, o->s);
		c.err = need ? message("precision %d,%d is too small: this "
				       "construction needs p >= %d at s = %d",
				       o->p, o->s, need, o->s)
			     : message("no p <= %d suffices at s = %d",
				       FIXED_MAX_P, o->s);
		ok = false;
	}
	if (!ok) {
		if (!out->comps)
			out->comps = c.comps.data, out->d = (uint32_t)c.comps.len;
		model_free(out);
		*err = c.err;
	}
	free(c.bool_comp);
	free(c.head_comp);
	free(c.at0);
	free(c.lay);
	free(c.hid);
	return ok;
}
