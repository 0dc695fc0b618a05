/* compile_gates.c -- the feed-forward part of a layer (see compile.h):
 * each Boolean of the layer as a gate (ge0, not, and, or) over earlier
 * components, kept as a gate list or, with --ffn=relu, realised as
 * blocks of ReLU units whose output is exactly 0 or 1 at precision s. */
#include <config.h>
#include "transformer/compile_state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

typedef VEC(Entry) Entries;

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
		compiler_note_range(c, f);
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
		compiler_note_range(c, k);
		break;
	case GATE_OR: { /* relu(sum) - relu(sum - 1) */
		uint32_t v = unit(&b, 0), w = unit(&b, -1);
		for (size_t i = 0; i < g->nin; i++) {
			in_w(&b, v, g->in[i], 1);
			in_w(&b, w, g->in[i], 1);
		}
		out_w(&b, g->out, v, 1);
		out_w(&b, g->out, w, -1);
		compiler_note_range(c, k);
		break;
	}
	default: break;
	}
	finish_block(c, &b, ly);
}

Gate compiler_gate_of(Compiler *c, Node n)
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

void compiler_add_gate(Compiler *c, Layer *ly, Gate g, size_t *gcap)
{
	if (g.nin > c->fanin)
		c->fanin = g.nin;
	if (c->o->ffn == FFN_RELU) {
		relu_gate(c, ly, &g);
		free(g.in);
		return;
	}
	mem_grow((void **)&ly->gates, gcap, ly->ngates + 1, sizeof *ly->gates);
	ly->gates[ly->ngates++] = g;
}

Gate compiler_gate2(GateOp op, uint32_t out, uint32_t a, uint32_t b, size_t n)
{
	Gate g = {.op = op, .out = out, .nin = n};
	g.in = xcalloc(2, sizeof *g.in);
	g.in[0] = a;
	g.in[1] = b;
	return g;
}
