/* plot_breakdown.c -- first disagreement lengths as an SVG chart. */
#include <config.h>

#include "cli/plot_breakdown.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"
#include "base/svg.h"

enum { AXIS_W = 480, ROW_H = 44, BAR_H = 16, AXIS_H = 44, GAP = 14 };

static const PlotKey keys[] = {
	{"bar", "the first length at which the semantics disagrees with "
		"kneedeep (witness confirmed)"},
	{"bound-key", "the search's bound (--max-length)"},
};
enum { NKEYS = sizeof keys / sizeof keys[0] };

/* The chart: the records and the axis. */
typedef struct {
	Plot *f;
	double x0, top; /* the axis starts at x0; the first row at top */
	unsigned e;     /* the axis ends at 2^e */
	size_t cols;    /* characters that fit right of x0 */
} Chart;

static const char *str_of(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : "";
}

static uint64_t num_of(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
}

static void label(json_t *rec, char *out, size_t n)
{
	const char *sem = str_of(rec, "semantics");
	if (strncmp(sem, "ieee=", 5) == 0)
		snprintf(out, n, "%s, %s (%llu-bit significand)", sem,
			 str_of(rec, "precision"),
			 (unsigned long long)num_of(rec, "precision_bits"));
	else
		snprintf(out, n, "%s, %s", sem, str_of(rec, "precision"));
}

static double x_of(const Chart *c, uint64_t len)
{
	return len == 0 ? c->x0 : c->x0 + AXIS_W * log2((double)len) / c->e;
}

/* The largest bound of the records. */
static uint64_t bound(const Plot *f)
{
	uint64_t n = 1;
	for (size_t i = 0; i < f->recs.len; i++) {
		uint64_t m = num_of(f->recs.data[i], "max_length");
		n = m > n ? m : n;
	}
	return n;
}

/* What a record that drew no bar says. */
static void no_bar_text(json_t *rec, Buf *b)
{
	const char *res = str_of(rec, "result");
	if (strcmp(res, "none") == 0)
		buf_printf(b, "none up to length %llu (%llu states)",
			   (unsigned long long)num_of(rec, "agrees_up_to"),
			   (unsigned long long)num_of(rec, "states"));
	else if (strcmp(res, "limit") == 0)
		buf_printf(b, "none up to length %llu; a limit stopped the "
			   "search (bound %llu)",
			   (unsigned long long)num_of(rec, "agrees_up_to"),
			   (unsigned long long)num_of(rec, "max_length"));
	else
		buf_printf(b, "not searched: %s", res);
}

static void draw_row(const Chart *c, Svg *g, json_t *rec, double y)
{
	char lab[120];
	Buf b = {0};
	const char *res = str_of(rec, "result");
	bool found = strcmp(res, "found") == 0;
	label(rec, lab, sizeof lab);
	svg_rect(g, c->x0, y + 2, AXIS_W, ROW_H - 4, "band");
	svg_attr(g, "data-semantics", "%s", str_of(rec, "semantics"));
	svg_attr(g, "data-result", "%s", res);
	svg_close(g);
	svg_text(g, PLOT_MARGIN, y + 4 + BAR_H - 3, NULL, "%s", lab);
	if (found) {
		uint64_t len = num_of(rec, "length");
		double w = x_of(c, len) - c->x0;
		svg_rect(g, c->x0, y + 4, w < 2 ? 2 : w, BAR_H, "bar");
		svg_attr(g, "data-semantics", "%s", str_of(rec, "semantics"));
		svg_attr(g, "data-length", "%llu", (unsigned long long)len);
		buf_printf(&b, "%llu: %s (transformer %s, formula %s%s)",
			   (unsigned long long)len, str_of(rec, "word"),
			   json_is_true(json_object_get(rec, "transformer_accepts"))
			   ? "accepts" : "rejects",
			   json_is_true(json_object_get(rec, "formula_accepts"))
			   ? "accepts" : "rejects",
			   json_is_true(json_object_get(rec, "confirmed")) ? ""
			   : "; NOT confirmed by the evaluator");
		svg_close_title(g, "%s: first disagreement at length %s", lab,
				b.data);
	} else
		no_bar_text(rec, &b);
	char *t = svg_clip(b.data, c->cols);
	svg_text(g, c->x0 + 4, found ? y + ROW_H - 8 : y + 4 + BAR_H - 3,
		 found ? NULL : "none", "%s", t);
	free(t);
	buf_free(&b);
}

/* Ticks at powers of two, labelled often enough not to collide. */
static void draw_axis(const Chart *c, Svg *g, double y, uint64_t maxlen)
{
	char widest[24];
	snprintf(widest, sizeof widest, "%llu",
		 (unsigned long long)((uint64_t)1 << c->e));
	double need = svg_text_width(widest, PLOT_TEXT_PX) + 10;
	unsigned step = 1;
	while (step < c->e && AXIS_W * step / (double)c->e < need)
		step++;
	svg_line(g, c->x0, y, c->x0 + AXIS_W, y, "axis");
	svg_close(g);
	for (unsigned k = 0; k <= c->e; k += step) {
		double x = x_of(c, (uint64_t)1 << k);
		svg_line(g, x, c->top, x, y + 4, "grid");
		svg_close(g);
		svg_text(g, x, y + 18, "mid", "%llu",
			 (unsigned long long)((uint64_t)1 << k));
	}
	double xb = x_of(c, maxlen);
	svg_line(g, xb, c->top, xb, y, "bound");
	svg_attr(g, "data-length", "%llu", (unsigned long long)maxlen);
	svg_close(g);
	svg_text(g, c->x0 + AXIS_W / 2.0, y + 36, "mid",
		 "word length (log scale)");
}

bool plot_breakdown_write(Plot *f, const char *note, char **err)
{
	if (note && *note)
		plot_note(f, note);
	char lab[120];
	double lw = 0;
	for (size_t i = 0; i < f->recs.len; i++) {
		label(f->recs.data[i], lab, sizeof lab);
		double t = svg_text_width(lab, PLOT_TEXT_PX);
		lw = t > lw ? t : lw;
	}
	uint64_t maxlen = bound(f);
	double w = PLOT_MARGIN * 2 + lw + 16 + AXIS_W;
	double legw = plot_legend_width(keys, NKEYS) + 2 * PLOT_MARGIN;
	w = w < legw ? legw : w;
	w = w < PLOT_MIN_WIDTH ? PLOT_MIN_WIDTH : w;
	Chart c = {.f = f, .x0 = PLOT_MARGIN + lw + 16};
	c.e = (unsigned)ceil(log2((double)maxlen));
	c.e = c.e < 1 ? 1 : c.e;
	c.cols = (size_t)((w - c.x0 - 4 - PLOT_MARGIN) /
			  (PLOT_TEXT_PX * SVG_ADVANCE));
	c.top = plot_heading_height(f, w);
	double axis = c.top + ROW_H * (double)f->recs.len + 4;
	double legy = axis + AXIS_H + GAP;
	double notey = legy + plot_legend_height(NKEYS) + GAP;
	double h = notey + plot_notes_height(f, w) + PLOT_MARGIN;
	Svg g;
	svg_begin(&g, w, h, f->title ? f->title : "", plot_css);
	plot_heading(f, &g, w);
	for (size_t i = 0; i < f->recs.len; i++)
		draw_row(&c, &g, f->recs.data[i], c.top + ROW_H * (double)i);
	draw_axis(&c, &g, axis, maxlen);
	plot_legend(&g, PLOT_MARGIN, legy, keys, NKEYS);
	plot_notes(f, &g, notey, w);
	return plot_commit(f, &g, err);
}
