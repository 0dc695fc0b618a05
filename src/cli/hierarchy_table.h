/* hierarchy_table.h -- what `tally hierarchy`'s two tables share: the
 * options and samples (Table), a row's certified pair (Lower), and the
 * pieces both the L_k table (hierarchy_lk.c) and the D_k table
 * (hierarchy_dk.c) print with.  cmd_hierarchy.c parses into a Table and
 * runs one of the two. */
#ifndef TALLY_CLI_HIERARCHY_TABLE_H
#define TALLY_CLI_HIERARCHY_TABLE_H

#include <stdbool.h>

#include "base/buf.h"
#include "base/plot.h"
#include "cli/search_cli.h"
#include "search/pairgen.h"

/* A row's lower bound by a pair of block words (pairgen.h). */
typedef struct {
	bool tried, found, stopped; /* stopped: by a limit */
	PairCert pair;
} Lower;

typedef struct {
	SearchOpts o;
	bool predict;
	bool dk;             /* --family=dk: the two-sided table */
	SearchState two;     /* its whole-word samples and bank */
	size_t klo, khi;
	Store *st;
	Sym ab[2];
	SearchState ss;
	unsigned jobs;
	bool all_ok, no_time;
	BankStop stop;       /* why the table stopped (a limit) */
	unsigned stopped_at; /* the row it stopped in */
	const char *plot_path; /* --plot */
	Plot *plot;            /* drawn from the rows' JSON records */
	unsigned lower_tries;  /* --lower-bounds */
	bool disagree;         /* the two checks of a pair disagreed */
	Buf certified, search_only; /* the rows, for the staircase line */
	unsigned search_depth; /* --search-depth: deeper rows are built */
	Buf searched, built;   /* the rows by where the upper bound came from */
} Table;

/* The two tables (each frees its samples and the store). */
int table_run_lk(Table *t);
int table_run_dk(Table *t);

void table_plot_header(const Table *t, const char *title);
const char *table_row_failure(const Solution *sol);
char *table_pair_text(const BlockWord *w);
void table_print_lower(const Table *t, const char *label, unsigned d,
		       IndistBounds b, const Lower *lw);
bool table_lower_by(Table *t, PairgenFn *gen, const char *name, unsigned k,
		    unsigned d, IndistBounds b, const Node *roots,
		    size_t nroots, Lower *lw);
void table_print_lower_lists(const Table *t);
/* The footer's "upper bounds:" line, when some row was built (which: the
 * depth compared with --search-depth; what: the built rows' formulas),
 * and its "peak memory ...; total ..." line. */
void table_print_upper_lists(const Table *t, const char *which,
			     const char *what);
void table_print_peak(const Table *t);
/* The depth of the witness pairs the samples need: every depth the
 * searched rows must exclude, the deepest searched row being `deepest`
 * or --search-depth. */
unsigned table_sample_depth(const Table *t, unsigned deepest);

/* Rows above --search-depth (hierarchy_built.c): f as a row's found
 * formula, sol->v left for the caller's verification; L_k's own formula
 * f checked against a count of runs on every word up to the exhaustive
 * verification length; the row's "upper bound: not searched (which
 * depth > --search-depth): what" line. */
void table_built_solution(Table *t, Node f, Solution *sol);
void table_check_definition(Table *t, unsigned k, Node f, Verification *v);
void table_print_built(const Table *t, const char *indent, const char *which,
		       unsigned depth, const char *what);
int table_finish(Table *t, bool complete);
void table_free_lists(Table *t);

#endif
