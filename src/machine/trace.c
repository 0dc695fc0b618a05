#include <config.h>
#include "machine/trace.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "core/json.h"
#include "base/mem.h"
#include "core/print.h"
#include "base/vec.h"

/* Labels longer than this are cut (at a character boundary). */
#define LABEL_MAX 60

typedef struct {
	char *label;
	Node node;
	size_t input; /* the unit it belongs to */
} Row;

struct Trace {
	const Store *s;
	VEC(Row) rows;   /* by input; a subformula of two inputs is in both */
	VEC(char *) inputs; /* each input's label (its source) */
	VEC(Node) nodes; /* the rows' nodes, once each: the table's roots */
};

/* A label of at most LABEL_MAX bytes: longer ones are cut at a
 * character boundary and end in "...". */
static void cut_label(char *label)
{
	if (strlen(label) > LABEL_MAX) {
		size_t cut = LABEL_MAX - 3;
		while (cut > 0 && ((unsigned char)label[cut] & 0xc0) == 0x80)
			cut--;
		strcpy(label + cut, "...");
	}
}

static void add_row(Trace *tr, char *label, Node node)
{
	cut_label(label);
	Row r = {label, node, tr->inputs.len - 1};
	VEC_PUSH(tr->rows, r);
}

/* An input as the command line gave it: "-f TEXT" (on one line) or the
 * file's name. */
static void add_input(Trace *tr, const Unit *u)
{
	Buf b = {0};
	buf_puts(&b, "");
	if (u->src && strcmp(u->src->name, "-f") == 0) {
		buf_puts(&b, "-f ");
		for (size_t i = 0; i < u->src->len && b.len <= LABEL_MAX; i++)
			buf_putc(&b, u->src->text[i] == '\n' ||
					     u->src->text[i] == '\t'
					     ? ' ' : u->src->text[i]);
	} else {
		buf_puts(&b, u->src ? u->src->name : "(built in)");
	}
	char *label = buf_take(&b);
	cut_label(label);
	VEC_PUSH(tr->inputs, label);
}

/* The rows' nodes, once each: the roots of the trace's table. */
static void collect_nodes(Trace *tr)
{
	unsigned char *in = xcalloc(store_node_count(tr->s) + 1, 1);
	for (size_t i = 0; i < tr->rows.len; i++) {
		Node n = tr->rows.data[i].node;
		if (!in[n])
			VEC_PUSH(tr->nodes, n);
		in[n] = 1;
	}
	free(in);
}

/* Subformulas worth a row: not letters (they are the header) nor
 * constants. */
static bool shown(const Store *s, Node n)
{
	switch (store_op(s, n)) {
	case OP_LETTER:
	case OP_CONST:
	case OP_TRUE:
	case OP_FALSE: return false;
	default: return true;
	}
}

enum { UNREACHED, REACHED, INTERNAL, EXTERNAL_PARENT };

/* Marks the nodes reachable from root as REACHED, except the sums and
 * scaled terms that exist only because a comparison t < u is stored as
 * t - u < 0: those are INTERNAL and get no row (the user never wrote
 * them), nor the scaled terms c*t of a sum.  Parents have larger ids, so one downward sweep sees every
 * parent of a node before the node. */
static unsigned char *internal_sums(const Store *s, Node root)
{
	unsigned char *mark = xcalloc((size_t)root + 1, 1);
	mark[root] = EXTERNAL_PARENT;
	for (Node n = root; n > 0; n--) {
		if (mark[n] == UNREACHED)
			continue;
		Op op = store_op(s, n);
		bool sum = op == OP_ADD || op == OP_MUL;
		mark[n] = sum && mark[n] != EXTERNAL_PARENT ? INTERNAL : REACHED;
		bool passes_on = op != OP_CMP && mark[n] != INTERNAL;
		for (uint32_t i = 0; i < store_nkids(s, n); i++) {
			Node k = store_kid(s, n, i);
			/* the terms c*t of a sum are part of the sum's row */
			bool term = op == OP_ADD && store_op(s, k) == OP_MUL;
			if (passes_on && !term)
				mark[k] = EXTERNAL_PARENT;
			else if (mark[k] == UNREACHED)
				mark[k] = REACHED;
		}
	}
	return mark;
}

Trace *trace_new(const Store *s, const Unit *units, size_t nunits)
{
	Trace *tr = xcalloc(1, sizeof *tr);
	tr->s = s;
	size_t nn = store_node_count(s) + 1;
	unsigned char *seen = xmalloc(nn);
	for (size_t u = 0; u < nunits; u++) {
		const Unit *un = &units[u];
		add_input(tr, un);
		memset(seen, 0, nn); /* each input shows all of its rows */
		Sym *names = unit_name_map(un, s);
		SymTab *syms = store_syms((Store *)s);
		if (un->ndefs > 0) {
			bool out_named = false;
			for (size_t i = 0; i < un->ndefs; i++) {
				const Def *d = &un->defs[i];
				add_row(tr, xstrdup(sym_name(syms, d->name)), d->node);
				out_named |= d->node == un->output;
			}
			if (!out_named)
				add_row(tr, tl_print(s, un->output, SYNTAX_TL, names),
					un->output);
		} else {
			unsigned char *mark = internal_sums(s, un->output);
			for (Node n = 1; n <= un->output; n++)
				if (mark[n] == REACHED && !seen[n] &&
				    (shown(s, n) || n == un->output)) {
					/* (the output has a row even when
					 * it is a letter or a constant) */
					seen[n] = 1;
					add_row(tr, tl_print(s, n, SYNTAX_TL, names), n);
				}
			free(mark);
		}
		free(names);
	}
	free(seen);
	collect_nodes(tr);
	return tr;
}

void trace_free(Trace *tr)
{
	if (!tr)
		return;
	for (size_t i = 0; i < tr->rows.len; i++)
		free(tr->rows.data[i].label);
	VEC_FREE(tr->rows);
	for (size_t i = 0; i < tr->inputs.len; i++)
		free(tr->inputs.data[i]);
	VEC_FREE(tr->inputs);
	VEC_FREE(tr->nodes);
	free(tr);
}

EvalTable *trace_table(const Trace *tr, AcceptAt accept, const Sym *word,
			size_t n, size_t first, size_t last)
{
	return eval_table_nodes(tr->s, tr->nodes.data, tr->nodes.len, accept,
				word, n, first, last);
}

/* t when it has every row's node, else (*own) the trace's own table over
 * t's window: a table built for the outputs alone lacks the definitions
 * the store merged into larger nodes or that no output uses. */
static const EvalTable *rows_table(const Trace *tr, const EvalTable *t,
				   const Sym *word, size_t n, EvalTable **own)
{
	*own = NULL;
	for (size_t i = 0; i < tr->nodes.len; i++)
		if (!eval_table_has(t, tr->nodes.data[i])) {
			*own = trace_table(tr, eval_table_accept(t), word, n,
					   eval_table_first(t),
					   eval_table_last(t));
			return *own;
		}
	return t;
}

static const char *letter_at(const Trace *tr, const Sym *word, size_t n,
			     size_t pos)
{
	if (pos == 0)
		return "-";
	if (pos > n)
		return "<eos>";
	return sym_name(store_syms((Store *)tr->s), word[pos - 1]);
}

/* The cell text of a node at a position (malloc'd). */
static char *cell(const Trace *tr, const EvalTable *t, Node node, size_t pos)
{
	if (store_is_bool(tr->s, node))
		return xstrdup(eval_table_bool(t, node, pos) ? "1" : "0");
	fmpz_t v;
	fmpz_init(v);
	eval_table_int(t, node, pos, v);
	char *digits = fmpz_get_str(NULL, 10, v);
	char *copy = xstrdup(digits);
	flint_free(digits);
	fmpz_clear(v);
	return copy;
}

/* Display width: code points, which is what terminals align on for the
 * letters and labels tally prints. */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void pad(FILE *out, const char *s, size_t w, bool right)
{
	size_t have = width(s);
	if (!right)
		fputs(s, out);
	for (; have < w; have++)
		fputc(' ', out);
	if (right)
		fputs(s, out);
}

void trace_print(const Trace *tr, const EvalTable *given, const Sym *word,
		 size_t n, FILE *out)
{
	EvalTable *own;
	const EvalTable *t = rows_table(tr, given, word, n, &own);
	size_t first = eval_table_first(t), last = eval_table_last(t);
	if (first > last) {
		fputs("(no positions in the trace window)\n", out);
		eval_table_free(own);
		return;
	}
	size_t ncol = last - first + 1, nrow = tr->rows.len + 2;
	char **cells = xcalloc(nrow * ncol, sizeof *cells);
	size_t *w = xcalloc(ncol, sizeof *w);
	size_t lw = strlen("position");
	for (size_t r = 0; r < tr->rows.len; r++)
		if (width(tr->rows.data[r].label) > lw)
			lw = width(tr->rows.data[r].label);
	for (size_t c = 0; c < ncol; c++) {
		char num[32];
		snprintf(num, sizeof num, "%zu", first + c);
		cells[c] = xstrdup(num);
		cells[ncol + c] = xstrdup(letter_at(tr, word, n, first + c));
		for (size_t r = 0; r < tr->rows.len; r++)
			cells[(r + 2) * ncol + c] =
				cell(tr, t, tr->rows.data[r].node, first + c);
		for (size_t r = 0; r < nrow; r++)
			if (width(cells[r * ncol + c]) > w[c])
				w[c] = width(cells[r * ncol + c]);
	}
	/* With several inputs, "-- input N: SOURCE" before each one's rows
	 * (also when it has none: a letter, a constant). */
	size_t next_input = 0;
	for (size_t r = 0; r <= nrow; r++) {
		size_t input = r < 2 ? 0 : r < nrow ? tr->rows.data[r - 2].input
						   : tr->inputs.len;
		for (; r >= 2 && next_input <= input &&
		       next_input < tr->inputs.len && tr->inputs.len > 1;
		     next_input++)
			fprintf(out, "-- input %zu: %s\n", next_input + 1,
				tr->inputs.data[next_input]);
		if (r == nrow)
			break;
		pad(out, r == 0 ? "position" : r == 1 ? "letter"
						    : tr->rows.data[r - 2].label,
		    lw, false);
		for (size_t c = 0; c < ncol; c++) {
			fputc(' ', out);
			pad(out, cells[r * ncol + c], w[c], true);
		}
		fputc('\n', out);
	}
	for (size_t i = 0; i < nrow * ncol; i++)
		free(cells[i]);
	free(cells);
	free(w);
	eval_table_free(own);
}

json_t *trace_json(const Trace *tr, const EvalTable *given, const Sym *word,
		   size_t n)
{
	EvalTable *own;
	const EvalTable *t = rows_table(tr, given, word, n, &own);
	size_t first = eval_table_first(t), last = eval_table_last(t);
	json_t *o = json_object(), *pos = json_array(), *let = json_array();
	json_t *rows = json_array();
	for (size_t p = first; p <= last && first <= last; p++) {
		json_array_append_new(pos, json_integer((json_int_t)p));
		json_array_append_new(let, p == 0 || p > n
					      ? json_null()
					      : json_string(letter_at(tr, word, n, p)));
	}
	fmpz_t v;
	fmpz_init(v);
	for (size_t r = 0; r < tr->rows.len; r++) {
		Node node = tr->rows.data[r].node;
		bool b = store_is_bool(tr->s, node);
		json_t *row = json_object(), *vals = json_array();
		json_object_set_new(row, "label",
				    json_string(tr->rows.data[r].label));
		json_object_set_new(row, "sort", json_string(b ? "bool" : "int"));
		json_object_set_new(row, "input",
				    json_integer((json_int_t)tr->rows.data[r].input + 1));
		for (size_t p = first; p <= last && first <= last; p++) {
			if (b) {
				json_array_append_new(
					vals, json_integer(eval_table_bool(t, node, p)));
			} else {
				eval_table_int(t, node, p, v);
				json_array_append_new(vals, json_fmpz(v));
			}
		}
		json_object_set_new(row, "values", vals);
		json_array_append_new(rows, row);
	}
	fmpz_clear(v);
	json_object_set_new(o, "positions", pos);
	json_object_set_new(o, "letters", let);
	json_object_set_new(o, "rows", rows);
	json_t *inputs = json_array();
	for (size_t i = 0; i < tr->inputs.len; i++)
		json_array_append_new(inputs, json_string(tr->inputs.data[i]));
	json_object_set_new(o, "inputs", inputs);
	eval_table_free(own);
	return o;
}
