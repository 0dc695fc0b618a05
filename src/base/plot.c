/* plot.c -- the frame both SVG plots share. */
#include <config.h>

#include "base/plot.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

const char plot_css[] =
	"text { fill: #111; font-size: 12px; }\n"
	"text.title { font-size: 16px; font-weight: bold; }\n"
	"text.small { font-size: 11px; fill: #333; }\n"
	"text.head { font-size: 12px; font-weight: bold; }\n"
	"text.mid { text-anchor: middle; }\n"
	"text.cell { font-size: 11px; text-anchor: middle; }\n"
	"text.dark { fill: #fff; }\n"
	"text.none { font-style: italic; fill: #555; }\n"
	".found-proof { fill: #1b7837; }\n"
	".found-bound { fill: #5aae61; }\n"
	".found-sample { fill: #d9f0a3; }\n"
	".refuted-pair { fill: #b2182b; }\n"
	".refuted-search { fill: #f4a582; }\n"
	".not-tried { fill: #e6e6e6; }\n"
	".cell-box { stroke: #fff; stroke-width: 2; }\n"
	".least { fill: none; stroke: #000; stroke-width: 3; }\n"
	".theory-under { fill: none; stroke: #fff; stroke-width: 5; }\n"
	".theory { fill: none; stroke: #08306b; stroke-width: 2.5; "
	"stroke-dasharray: 5 3; }\n"
	".swatch { stroke: #777; stroke-width: 0.5; }\n"
	".bar { fill: #d6604d; }\n"
	".axis { stroke: #444; stroke-width: 1; }\n"
	".grid { stroke: #ccc; stroke-width: 1; stroke-dasharray: 2 3; }\n"
	".band { fill: #f7f7f7; }\n"
	".bound { stroke: #08306b; stroke-width: 2; stroke-dasharray: 6 3; }\n"
	".bound-key { fill: none; stroke: #08306b; stroke-width: 2; "
	"stroke-dasharray: 4 2; }\n";

Plot *plot_open(const char *path, char **err)
{
	Plot *f = xcalloc(1, sizeof *f);
	f->file = svg_file_open(path, err);
	if (f->file)
		return f;
	free(f);
	return NULL;
}

void plot_title(Plot *f, const char *title)
{
	free(f->title);
	f->title = xstrdup(title);
}

void plot_line(Plot *f, const char *line)
{
	VEC_PUSH(f->lines, xstrdup(line));
}

void plot_note(Plot *f, const char *note)
{
	VEC_PUSH(f->notes, xstrdup(note));
}

void plot_record(Plot *f, json_t *record)
{
	VEC_PUSH(f->recs, json_incref(record));
}

/* Characters of a px-sized text that fit in width w. */
static size_t columns(double w, double px)
{
	double c = (w - 2 * PLOT_MARGIN) / (px * SVG_ADVANCE);
	return c < 10 ? 10 : (size_t)c;
}

static double lines_height(char **lines, size_t n, double w)
{
	double h = 0;
	for (size_t i = 0; i < n; i++)
		h += PLOT_LH * (double)svg_wrap_count(lines[i],
						      columns(w, PLOT_TEXT_PX));
	return h;
}

double plot_heading_height(const Plot *f, double w)
{
	const char *t = f->title ? f->title : "";
	return PLOT_MARGIN + PLOT_TITLE_LH * (double)svg_wrap_count(t,
		columns(w, PLOT_TITLE_PX)) + lines_height(f->lines.data,
		f->lines.len, w) + PLOT_LH / 2;
}

double plot_notes_height(const Plot *f, double w)
{
	return lines_height(f->notes.data, f->notes.len, w);
}

/* Wrapped lines from y (their top); the y below them. */
static double draw_lines(Svg *g, char **lines, size_t n, double y, double w)
{
	for (size_t i = 0; i < n; i++)
		y += PLOT_LH * (double)svg_text_wrapped(g, PLOT_MARGIN,
			y + PLOT_TEXT_PX, PLOT_LH, NULL,
			columns(w, PLOT_TEXT_PX), lines[i]);
	return y;
}

void plot_heading(const Plot *f, Svg *g, double w)
{
	double y = PLOT_MARGIN;
	y += PLOT_TITLE_LH * (double)svg_text_wrapped(g, PLOT_MARGIN,
		y + PLOT_TITLE_PX, PLOT_TITLE_LH, "title",
		columns(w, PLOT_TITLE_PX), f->title ? f->title : "");
	draw_lines(g, f->lines.data, f->lines.len, y, w);
}

void plot_notes(const Plot *f, Svg *g, double y, double w)
{
	draw_lines(g, f->notes.data, f->notes.len, y, w);
}

double plot_legend_height(size_t n)
{
	return PLOT_LH * (double)n;
}

double plot_legend_width(const PlotKey *keys, size_t n)
{
	double w = 0;
	for (size_t i = 0; i < n; i++) {
		double t = svg_text_width(keys[i].text, PLOT_TEXT_PX);
		w = t > w ? t : w;
	}
	return w + 22;
}

void plot_legend(Svg *g, double x, double y, const PlotKey *keys, size_t n)
{
	for (size_t i = 0; i < n; i++, y += PLOT_LH) {
		svg_rect(g, x, y + 2, 14, 11, keys[i].cls);
		svg_close(g);
		svg_text(g, x + 22, y + PLOT_TEXT_PX, NULL, "%s", keys[i].text);
	}
}

static void free_plot(Plot *f)
{
	for (size_t i = 0; i < f->recs.len; i++)
		json_decref(f->recs.data[i]);
	VEC_FREE(f->recs);
	for (size_t i = 0; i < f->lines.len; i++)
		free(f->lines.data[i]);
	for (size_t i = 0; i < f->notes.len; i++)
		free(f->notes.data[i]);
	VEC_FREE(f->lines);
	VEC_FREE(f->notes);
	free(f->title);
	free(f);
}

bool plot_commit(Plot *f, Svg *g, char **err)
{
	char *doc = svg_finish(g);
	bool ok = svg_file_commit(f->file, doc, err);
	free(doc);
	free_plot(f);
	return ok;
}

void plot_discard(Plot *f)
{
	if (!f)
		return;
	svg_file_discard(f->file);
	free_plot(f);
}
