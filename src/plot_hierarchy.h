/* plot_hierarchy -- `tally hierarchy --plot=FILE.svg`: the table as a
 * chart of rows (L_k, P_k, or D_k past-only and two-sided) by depth.
 *
 * The chart is drawn from the very JSON records `--json` prints (one
 * per row, handed in as the command makes them), so a cell can say no
 * more than the record: depth d of a row is
 *   found (proof, bound or sample only: the record's evidence) when the
 *     record is verified and d is its least_depth;
 *   refuted by a pair when its "refuted" entry for d lists pairs the
 *     exact check proved indistinguishable within the class;
 *   refuted by the search when the entry lists none (the search's own
 *     comparisons on the sample);
 *   not tried otherwise (above the least depth, or past where the search
 *     stopped).
 * The least depth is framed, the theory's depth (theory_depth, where the
 * record has one) marked, and both are printed beside the row.
 *
 * Ownership: a PlotHierarchy owns its file (svg.h) until written or
 * freed, and a reference to every record.
 */
#ifndef TALLY_PLOT_HIERARCHY_H
#define TALLY_PLOT_HIERARCHY_H

#include <stdbool.h>

#include <jansson.h>

typedef struct PlotHierarchy PlotHierarchy;

/* Creates the plot's temporary file at once: NULL with *err (malloc'd)
 * when path cannot be written.  dk: records of --family=dk. */
PlotHierarchy *plot_hierarchy_open(const char *path, bool dk, char **err);
/* The title, then lines under it (the header the text output prints). */
void plot_hierarchy_title(PlotHierarchy *p, const char *title);
void plot_hierarchy_line(PlotHierarchy *p, const char *line);
/* One row's record, as --json prints it (a reference is taken). */
void plot_hierarchy_row(PlotHierarchy *p, json_t *record);
/* Draws and writes the file (note: a last line, e.g. why the table is
 * partial, or NULL); false with *err.  Frees p either way. */
bool plot_hierarchy_write(PlotHierarchy *p, const char *note, char **err);
/* Frees p and removes its temporary file (NULL: nothing). */
void plot_hierarchy_discard(PlotHierarchy *p);

#endif
