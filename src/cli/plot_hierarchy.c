/* plot_hierarchy.c -- the hierarchy table as an SVG chart. */
#include <config.h>

#include "cli/plot_hierarchy.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"
#include "base/plot.h"
#include "base/svg.h"
#include "base/vec.h"

enum { CELL_W = 60, ROW_H = 30, HEAD_H = 24, NUM_W = 64, GAP = 14 };

/* The records and how to read them. */
typedef struct {
	Plot *f;
	bool dk;
} Table;

/* A drawn row: a record (lk), or its past or two_sided part (dk). */
typedef struct {
	const char *target;
	const char *part; /* "past", "two_sided" or "" */
	json_t *r;        /* least_depth, verified, evidence, refuted */
	int theory;       /* -1: the record has none */
} Row;

typedef enum { CELL_NOT_TRIED, CELL_FOUND, CELL_PAIR, CELL_SEARCH } Cell;

static int int_or(json_t *o, const char *key, int dflt)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? (int)json_integer_value(v) : dflt;
}

static const char *str_or(json_t *o, const char *key, const char *dflt)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : dflt;
}

static size_t nrows(const Table *p)
{
	return p->f->recs.len * (p->dk ? 2 : 1);
}

static Row row_at(const Table *p, size_t i)
{
	json_t *rec = p->f->recs.data[p->dk ? i / 2 : i];
	Row r = {.target = str_or(rec, "target", "?"), .part = "", .r = rec};
	if (p->dk) {
		r.part = i % 2 ? "two_sided" : "past";
		r.r = json_object_get(rec, r.part);
	}
	r.theory = int_or(r.r, "theory_depth", -1);
	return r;
}

/* The depth of the verified formula found, or -1 (settled as the least
 * depth or not: the cells below it say whether a pair refutes them). */
static int least(const Row *r)
{
	return json_is_true(json_object_get(r->r, "verified"))
		? int_or(r->r, "depth_found", -1) : -1;
}

static Cell cell(const Row *r, unsigned d)
{
	if (least(r) == (int)d)
		return CELL_FOUND;
	json_t *ref = json_array_get(json_object_get(r->r, "refuted"), d);
	/* the row's certified pair refutes every depth up to its own (a
	 * row not searched has no "refuted" list) */
	if (!ref && (int)d <= int_or(r->r, "certified_depth", -1))
		return CELL_PAIR;
	if (!ref)
		return CELL_NOT_TRIED;
	json_t *pairs = json_object_get(ref, "indistinguishable_pairs");
	return json_array_size(pairs) > 0 ? CELL_PAIR : CELL_SEARCH;
}

/* The class of a cell, and its word. */
static const char *cell_class(const Row *r, Cell c, const char **word)
{
	const char *ev = str_or(r->r, "evidence", "");
	switch (c) {
	case CELL_FOUND:
		if (strcmp(ev, "definition") == 0) { /* the target itself */
			*word = "definition";
			return "found-proof";
		}
		*word = strcmp(ev, "proof") == 0 ? "proof"
			: strcmp(ev, "bound") == 0 ? "bound" : "sample";
		return strcmp(ev, "proof") == 0 ? "found-proof"
			: strcmp(ev, "bound") == 0 ? "found-bound" : "found-sample";
	case CELL_PAIR: *word = "pair"; return "refuted-pair";
	case CELL_SEARCH: *word = "search"; return "refuted-search";
	default: *word = ""; return "not-tried";
	}
}

static void label(const Row *r, char *out, size_t n)
{
	snprintf(out, n, "%s%s", r->target, strcmp(r->part, "past") == 0
		 ? " past-only" : *r->part ? " two-sided" : "");
}

/* The deepest column: every least depth, theory depth and refuted depth. */
static unsigned max_depth(const Table *p)
{
	int m = 0;
	for (size_t i = 0; i < nrows(p); i++) {
		Row r = row_at(p, i);
		int n = (int)json_array_size(json_object_get(r.r, "refuted"));
		int c[3] = {least(&r), r.theory, n - 1};
		for (int k = 0; k < 3; k++)
			m = c[k] > m ? c[k] : m;
	}
	return (unsigned)m;
}

static double label_width(const Table *p)
{
	double w = svg_text_width("depth", PLOT_TEXT_PX);
	for (size_t i = 0; i < nrows(p); i++) {
		char t[160];
		Row r = row_at(p, i);
		label(&r, t, sizeof t);
		double x = svg_text_width(t, PLOT_TEXT_PX);
		w = x > w ? x : w;
	}
	return w + 12;
}

static const PlotKey keys[] = {
	{"found-proof", "found and verified: proof (the engine proved it "
			"equivalent)"},
	{"found-bound", "found and verified: bound (equal on every word up to "
			"a length)"},
	{"found-sample", "found and verified on samples only"},
	{"refuted-pair", "refuted: pairs that no formula of the class of this "
			 "depth separates (exact check)"},
	{"refuted-search", "refuted on the sample by the search's comparisons "
			   "only"},
	{"not-tried", "not tried (the search stops at the least depth)"},
	{"least", "the least depth found"},
	{"theory", "the theory's depth"},
};
enum { NKEYS = sizeof keys / sizeof keys[0] };

static void cell_tooltip(Svg *g, const Row *r, unsigned d, Cell c)
{
	char name[160];
	label(r, name, sizeof name);
	if (c == CELL_FOUND)
		svg_close_title(g, "%s, depth %u: found, verified (%s): %s", name,
				d, str_or(r->r, "evidence", ""),
				str_or(r->r, "formula", ""));
	else if (c == CELL_PAIR && !json_array_get(json_object_get(r->r, "refuted"), d))
		svg_close_title(g, "%s, depth %u: refuted by the row's lower-bound "
				"pair, certified at depth %d", name, d,
				int_or(r->r, "certified_depth", -1));
	else if (c == CELL_PAIR)
		svg_close_title(g, "%s, depth %u: refuted by %zu pairs proved "
				"indistinguishable within the class", name, d,
				json_array_size(json_object_get(json_array_get(
					json_object_get(r->r, "refuted"), d),
					"indistinguishable_pairs")));
	else if (c == CELL_SEARCH)
		svg_close_title(g, "%s, depth %u: no Boolean combination of the "
				"search's comparisons agrees on the sample", name,
				d);
	else
		svg_close_title(g, "%s, depth %u: not tried", name, d);
}

/* Which cell an element belongs to (for readers of the file, and the
 * test that compares it with the JSON records). */
static void where(Svg *g, const Row *r, unsigned d)
{
	svg_attr(g, "data-row", "%s", r->target);
	svg_attr(g, "data-part", "%s", r->part);
	svg_attr(g, "data-depth", "%u", d);
}

static void draw_cell(Svg *g, const Row *r, unsigned d, double x, double y)
{
	const char *word;
	Cell c = cell(r, d);
	const char *cls = cell_class(r, c, &word);
	char both[64];
	snprintf(both, sizeof both, "%s cell-box", cls);
	svg_rect(g, x, y, CELL_W, ROW_H, both);
	where(g, r, d);
	svg_attr(g, "data-state", "%s", cls);
	cell_tooltip(g, r, d, c);
	if (*word)
		svg_text(g, x + CELL_W / 2.0, y + ROW_H / 2.0 + 4,
			 c == CELL_FOUND && strcmp(word, "sample") != 0
			 ? "cell dark" : c == CELL_PAIR ? "cell dark" : "cell",
			 "%s", word);
	if (r->theory == (int)d) {
		svg_rect(g, x + 6, y + 6, CELL_W - 12, ROW_H - 12,
			 "theory-under");
		svg_close(g);
		svg_rect(g, x + 6, y + 6, CELL_W - 12, ROW_H - 12, "theory");
		where(g, r, d);
		svg_close(g);
	}
	if (c == CELL_FOUND) {
		svg_rect(g, x + 1.5, y + 1.5, CELL_W - 3, ROW_H - 3, "least");
		where(g, r, d);
		svg_close(g);
	}
}

static void draw_row(Svg *g, const Row *r, unsigned D, double x, double y,
		     double lw)
{
	char t[160];
	label(r, t, sizeof t);
	svg_text(g, x, y + ROW_H / 2.0 + 4, NULL, "%s", t);
	x += lw;
	for (unsigned d = 0; d <= D; d++)
		draw_cell(g, r, d, x + d * CELL_W, y);
	x += (D + 1) * CELL_W + NUM_W / 2.0;
	int l = least(r);
	if (l >= 0)
		svg_text(g, x, y + ROW_H / 2.0 + 4, "mid", "%d", l);
	else
		svg_text(g, x, y + ROW_H / 2.0 + 4, "mid none", "none");
	if (r->theory >= 0)
		svg_text(g, x + NUM_W, y + ROW_H / 2.0 + 4, "mid", "%d",
			 r->theory);
	else
		svg_text(g, x + NUM_W, y + ROW_H / 2.0 + 4, "mid none", "-");
}

static void draw_header(Svg *g, unsigned D, double x, double y, double lw)
{
	svg_text(g, x, y + 16, "head", "depth");
	x += lw;
	for (unsigned d = 0; d <= D; d++)
		svg_text(g, x + d * CELL_W + CELL_W / 2.0, y + 16, "head mid",
			 "%u", d);
	x += (D + 1) * CELL_W + NUM_W / 2.0;
	svg_text(g, x, y + 16, "head mid", "least");
	svg_text(g, x + NUM_W, y + 16, "head mid", "theory");
}

/* Notes for rows without a verified formula, and the reading. */
static void add_notes(const Table *p, const char *note)
{
	for (size_t i = 0; i < nrows(p); i++) {
		Row r = row_at(p, i);
		char t[160];
		label(&r, t, sizeof t);
		if (least(&r) < 0) {
			Buf b = {0};
			buf_printf(&b, "%s: no verified formula%s%s", t,
				   json_is_string(json_object_get(r.r, "failure"))
				   ? ": " : "", str_or(r.r, "failure", ""));
			plot_note(p->f, b.data);
			buf_free(&b);
		}
	}
	if (note)
		plot_note(p->f, note);
}

bool plot_hierarchy_write(Plot *f, bool dk, const char *note, char **err)
{
	Table tb = {.f = f, .dk = dk}, *p = &tb;
	add_notes(p, note);
	unsigned D = max_depth(p);
	double lw = label_width(p);
	double grid = lw + (D + 1) * CELL_W + 2 * NUM_W;
	double legw = plot_legend_width(keys, NKEYS);
	double w = (grid > legw ? grid : legw) + 2 * PLOT_MARGIN;
	w = w < PLOT_MIN_WIDTH ? PLOT_MIN_WIDTH : w;
	double top = plot_heading_height(f, w);
	double legy = top + HEAD_H + ROW_H * (double)nrows(p) + GAP;
	double notey = legy + plot_legend_height(NKEYS) + GAP;
	double h = notey + plot_notes_height(f, w) + PLOT_MARGIN;
	Svg g;
	svg_begin(&g, w, h, f->title ? f->title : "", plot_css);
	plot_heading(f, &g, w);
	draw_header(&g, D, PLOT_MARGIN, top, lw);
	for (size_t i = 0; i < nrows(p); i++) {
		Row r = row_at(p, i);
		draw_row(&g, &r, D, PLOT_MARGIN, top + HEAD_H + ROW_H * (double)i,
			 lw);
	}
	plot_legend(&g, PLOT_MARGIN, legy, keys, NKEYS);
	plot_notes(f, &g, notey, w);
	return plot_commit(f, &g, err);
}
