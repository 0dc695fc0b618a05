/* plot -- what the SVG plots of tally share (plot_hierarchy.h,
 * plot_breakdown.h): a frame of a title and lines under it (the bounds
 * of the run), the chart the caller draws, a legend and notes under it,
 * and the file it is written to (created when the command starts, so
 * that an unwritable path fails before the work; written whole at the
 * end, svg.h).
 *
 * Sizes are in SVG user units (pixels at 100 %); texts are measured with
 * svg_text_width() and wrapped to the width of the plot.
 *
 * Ownership: a PlotFrame owns its strings and its file until committed
 * or freed.
 */
#ifndef TALLY_PLOT_H
#define TALLY_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "svg.h"
#include "vec.h"

enum { PLOT_MARGIN = 16, PLOT_TITLE_PX = 16, PLOT_TEXT_PX = 12,
       PLOT_TITLE_LH = 22, PLOT_LH = 17, PLOT_MIN_WIDTH = 720 };

typedef struct {
	SvgFile *file;
	char *title;
	VEC(char *) lines; /* under the title */
	VEC(char *) notes; /* under the chart */
} PlotFrame;

/* Creates the file's temporary file: false with *err (malloc'd). */
bool plot_frame_open(PlotFrame *f, const char *path, char **err);
void plot_frame_title(PlotFrame *f, const char *title);
void plot_frame_line(PlotFrame *f, const char *line);
void plot_frame_note(PlotFrame *f, const char *note);

/* The CSS both plots use (text classes "title", "small", "cell" ...). */
extern const char plot_css[];

/* The height of the heading (title and lines) and of the notes at
 * width w. */
double plot_heading_height(const PlotFrame *f, double w);
double plot_notes_height(const PlotFrame *f, double w);
/* Draws the heading from the top; the notes from y. */
void plot_heading(const PlotFrame *f, Svg *g, double w);
void plot_notes(const PlotFrame *f, Svg *g, double y, double w);

/* A legend: one swatch (a rect of class cls[i]) and its text per line. */
typedef struct {
	const char *cls, *text;
} PlotKey;
double plot_legend_height(size_t n);
double plot_legend_width(const PlotKey *keys, size_t n);
void plot_legend(Svg *g, double x, double y, const PlotKey *keys, size_t n);

/* Finishes g, writes the file; false with *err.  Frees f's contents
 * either way (and g's text). */
bool plot_frame_commit(PlotFrame *f, Svg *g, char **err);
/* Frees f's contents and removes its temporary file. */
void plot_frame_free(PlotFrame *f);

#endif
