/* dot.c -- the dataflow graph of a C-RASP program (see dot.h). */
#include <config.h>
#include "core/dot.h"

#include <stdlib.h>

#include "base/mem.h"
#include "core/print.h"

/* A DOT string literal's contents: quotes and backslashes escaped. */
static void escaped(Buf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			buf_putc(out, '\\');
		if (*s == '\n')
			buf_puts(out, "\\n");
		else
			buf_putc(out, *s);
	}
}

static void letter_node(Buf *out, Store *s, Node n)
{
	Buf label = {0};
	tl_print_letter(&label, s, store_letter_sym(s, n), SYNTAX_TL);
	buf_printf(out, "\t\tn%u [shape=plaintext, label=\"", n);
	escaped(out, label.data);
	buf_puts(out, "\"];\n");
	buf_free(&label);
}

static void def_node(Buf *out, Store *s, const CraspProgram *p,
		     const CraspDef *d)
{
	Buf label = {0};
	buf_printf(&label, "%s := ", sym_name(store_syms(s), d->name));
	crasp_print_body(&label, s, p, d->node, CRASP_COMPACT);
	const char *shape = d->is_count ? "box, style=\"filled,bold\", "
					  "fillcolor=\"#f6c667\""
			    : store_is_bool(s, d->node) ? "ellipse"
							: "hexagon";
	buf_printf(out, "\t\tn%u [shape=%s%s, label=\"", d->node, shape,
		   d->node == p->root ? ", peripheries=2" : "");
	escaped(out, label.data);
	buf_puts(out, "\"];\n");
	buf_free(&label);
}

typedef struct {
	Buf *out;
	Node to;
	bool head; /* `to` is a count: its input is attended to */
} Edge;

static void edge(Node from, void *arg)
{
	Edge *e = arg;
	buf_printf(e->out, "\tn%u -> n%u%s;\n", from, e->to,
		   e->head ? " [style=bold, color=\"#b07000\"]" : "");
}

/* Letters read by some definition, each once. */
static void mark_letter(Node n, void *arg)
{
	unsigned char *seen = arg;
	seen[n] = 1;
}

void dot_print(Buf *out, Store *s, const CraspProgram *p)
{
	unsigned char *letter = xcalloc((size_t)p->root + 1, 1);
	for (size_t i = 0; i < p->ndefs; i++)
		crasp_reads(s, p, p->defs[i].node, mark_letter, letter);
	buf_puts(out, "digraph crasp {\n\trankdir=TB;\n"
		      "\tnode [fontname=\"Helvetica\"];\n"
		      "\tedge [color=\"#555555\"];\n");
	uint32_t depth = store_depth(s, p->root);
	/* The definitions grouped by layer (a counting sort): scanning all
	 * of them for every layer was quadratic on deep programs. */
	size_t *start = xcalloc((size_t)depth + 2, sizeof *start);
	size_t *order = xmalloc((p->ndefs ? p->ndefs : 1) * sizeof *order);
	for (size_t i = 0; i < p->ndefs; i++)
		start[store_depth(s, p->defs[i].node) + 1]++;
	for (uint32_t l = 0; l <= depth; l++)
		start[l + 1] += start[l];
	for (size_t i = 0; i < p->ndefs; i++)
		order[start[store_depth(s, p->defs[i].node)]++] = i;
	for (uint32_t l = depth + 1; l > 0; l--) /* back to the starts */
		start[l] = start[l - 1];
	start[0] = 0;
	for (uint32_t layer = 0; layer <= depth; layer++) {
		buf_printf(out,
			   "\tsubgraph cluster_layer%u {\n\t\tlabel=\"layer %u%s\";"
			   "\n\t\tstyle=dashed;\n",
			   layer, layer,
			   layer == 0 ? " (position-wise, before attention)" : "");
		for (Node n = 1; layer == 0 && n <= p->root; n++)
			if (letter[n] && store_op(s, n) == OP_LETTER &&
			    p->name_of[n] == SYM_NONE)
				letter_node(out, s, n);
		for (size_t k = start[layer]; k < start[layer + 1]; k++)
			def_node(out, s, p, &p->defs[order[k]]);
		buf_puts(out, "\t}\n");
	}
	for (size_t i = 0; i < p->ndefs; i++) {
		Edge e = {out, p->defs[i].node, p->defs[i].is_count};
		crasp_reads(s, p, p->defs[i].node, edge, &e);
	}
	buf_puts(out, "}\n");
	free(start);
	free(order);
	free(letter);
}
