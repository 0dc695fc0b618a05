/* plot_breakdown -- `tally simulate --find-breakdown --plot=FILE.svg`:
 * the first length at which each semantics disagrees with kneedeep,
 * one row per semantics labelled with its precision, on a log2 axis of
 * word length up to the search's bound.
 *
 * The chart is drawn from the records --json prints (simcheck.h): a
 * "found" record is a bar to its length with the witness beside it; a
 * "none" record is the words "no disagreement up to length N", never a
 * bar; a "limit" record says up to which length every word agreed and
 * that a limit stopped the search.
 *
 * Ownership: as plot.h.
 */
#ifndef TALLY_PLOT_BREAKDOWN_H
#define TALLY_PLOT_BREAKDOWN_H

#include <stdbool.h>

#include "base/plot.h"

/* Draws the records of p and writes the file (note: a last line or
 * NULL); false with *err.  Frees p either way. */
bool plot_breakdown_write(Plot *p, const char *note, char **err);

#endif
