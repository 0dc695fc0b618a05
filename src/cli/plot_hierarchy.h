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
 * Ownership: as plot.h.
 */
#ifndef TALLY_PLOT_HIERARCHY_H
#define TALLY_PLOT_HIERARCHY_H

#include <stdbool.h>

#include "base/plot.h"

/* Draws the records of p (lk: one row each; dk: its past and two_sided
 * parts) and writes the file (note: a last line, e.g. why the table is
 * partial, or NULL); false with *err.  Frees p either way. */
bool plot_hierarchy_write(Plot *p, bool dk, const char *note, char **err);

#endif
