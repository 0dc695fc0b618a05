/* search_cmd -- the state of one `tally search` (cmd_search.c), shared
 * by the files of the command: the labelled words (search_labelled.c)
 * and --separate (search_separating.c).
 *
 * Ownership: a Search owns its letters, words, texts and Inputs;
 * cmd_search frees them.
 */
#ifndef TALLY_SEARCH_CMD_H
#define TALLY_SEARCH_CMD_H

#include <stdbool.h>
#include <stddef.h>

#include "base/vec.h"
#include "cli/cli.h"
#include "cli/search_cli.h"
#include "search/holdout.h"
#include "search/search.h"

typedef struct Search {
	SearchOpts o;
	Inputs in;
	const char *family, *pos, *neg, *alphabet;
	size_t k;
	long separate;
	size_t count;
	unsigned maxd;
	/* the run */
	Sym *letters;
	size_t nletters;
	Target tg;
	VEC(SampleWord) words;       /* every labelled word */
	VEC(bool) labels;
	Holdout hold;                /* which are held out */
	unsigned holdout;            /* --holdout, percent */
	VEC(SampleWord) train;       /* the others: the search's */
	VEC(bool) train_labels;
	size_t held_right;           /* held-out words the formula gets right */
	bool generalises;
	char *target_text;
	char *family_text;           /* a tally gen family's formula */
	TargetShape shape;           /* a formula target's */
	bool has_shape;
	bool whole;                  /* two-sided: whole-word samples */
	const char *family_alphabet; /* and its letters */
	Node proved_term;            /* search_terms_run: a term proved equal
					to the count-valued target, or
					NODE_NONE */
	unsigned lower;              /* the last run's certified lower bound
					on the depth (search/claim.h) */
	bool settled;                /* and its least depth was settled */
} Search;

/* The index of a letter among the search's letters, added when new;
 * SIZE_MAX past 255 letters. */
size_t search_labelled_letter(Search *s, const char *name, size_t n);
/* The letters of --alphabet (parsed as everywhere, alphabet.h), in order,
 * added to the search's. */
void search_labelled_alphabet(Search *s, const char *spec);
/* --positive and --negative: reads both files, refuses a word with both
 * labels, holds out a share (holdout.h) and makes the target of the
 * other words.  EXIT_YES, or EXIT_USAGE after a message. */
int search_labelled_target(Search *s);

/* A formula target: its letters, its shape, the class and the depth
 * bound it implies (search_run.c).  EXIT_YES. */
int search_formula_target(Search *s, Node f);
/* The search of the target set (search_run.c): prints the result; the
 * exit status. */
int search_run_target(Search *s);

/* A count-valued target (an integer term, search_counts.c): true when
 * the input's output is one. */
bool search_counts_target(const Search *s);
/* Its least depth through the thresholds [t >= k] (their least depths
 * bound it from below, its own depth from above); the exit status. */
int search_counts_run(Search *s);

/* The same target searched directly (search_terms.c): the smallest term
 * of the least depth in the term grammar (terms.h) equal to it on the
 * sample, checked by the evaluator and the decision engine; text or
 * --json.  The exit status (1: none found, or it fails beyond the
 * sample). */
int search_terms_run(Search *s);

/* --family=copy|reverse|sort (search/seqtask.h): why no program
 * computes the task, as far as a pair shows it.  The exit status (1). */
struct SeqTask;
int search_seqtask_run(Search *s, const struct SeqTask *t);

/* --separate=D: the smallest languages of depth D + 1 that no depth-<=D
 * formula matches on the sample.  The exit status. */
int search_separating_run(Search *s);

/* --family=NAME of a target outside the logic (search/outside.h): a
 * certified pair per depth.  The exit status (1: no formula). */
struct Outside;
int search_outside_run(Search *s, const struct Outside *o);

#endif
