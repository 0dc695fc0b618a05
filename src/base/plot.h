/* plot -- what the SVG plots of tally share (plot_hierarchy.h,
 * plot_breakdown.h): the records a command hands in as it prints them
 * (its --json records: a plot draws nothing else), a frame of a title and
 * lines under it (the bounds of the run), the chart drawn from the
 * records, a legend and notes under it, and the file it is written to
 * (created when the command starts, so that an unwritable path fails
 * before the work; written whole at the end, svg.h).
 *
 * Sizes are in SVG user units (pixels at 100 %); texts are measured with
 * svg_text_width() and wrapped to the width of the plot.
 *
 * Ownership: a Plot owns its strings, a reference to each record, and
 * its file until committed or discarded.
 */
#ifndef TALLY_PLOT_H
#define TALLY_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "base/svg.h"
#include "base/vec.h"

enum { PLOT_MARGIN = 16, PLOT_TITLE_PX = 16, PLOT_TEXT_PX = 12,
       PLOT_TITLE_LH = 22, PLOT_LH = 17, PLOT_MIN_WIDTH = 720 };

typedef struct {
	SvgFile *file;
	char *title;
	VEC(char *) lines; /* under the title */
	VEC(char *) notes; /* under the chart */
	VEC(json_t *) recs;
} Plot;

/* Creates the plot's temporary file: NULL with *err (malloc'd). */
Plot *plot_open(const char *path, char **err);
void plot_title(Plot *f, const char *title);
void plot_line(Plot *f, const char *line);
void plot_note(Plot *f, const char *note);
/* A record as --json prints it (a reference is taken). */
void plot_record(Plot *f, json_t *record);

/* The CSS both plots use (text classes "title", "small", "cell" ...). */
extern const char plot_css[];

/* The height of the heading (title and lines) and of the notes at
 * width w. */
double plot_heading_height(const Plot *f, double w);
double plot_notes_height(const Plot *f, double w);
/* Draws the heading from the top; the notes from y. */
void plot_heading(const Plot *f, Svg *g, double w);
void plot_notes(const Plot *f, Svg *g, double y, double w);

/* A legend: one swatch (a rect of class cls[i]) and its text per line. */
typedef struct {
	const char *cls, *text;
} PlotKey;
double plot_legend_height(size_t n);
double plot_legend_width(const PlotKey *keys, size_t n);
void plot_legend(Svg *g, double x, double y, const PlotKey *keys, size_t n);

/* Finishes g, writes the file; false with *err.  Frees f either way
 * (and g's text). */
bool plot_commit(Plot *f, Svg *g, char **err);
/* Frees f and removes its temporary file (NULL: nothing). */
void plot_discard(Plot *f);

#endif
