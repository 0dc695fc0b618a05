/* search -- least-depth formulas for a target on a sample, with bounded
 * negative evidence (search-feasibility.md §3, §6).
 *
 * A target is a formula, the next-token prediction task of L_m, or
 * labelled words; on a Sample it becomes a care set (the positions that
 * are judged) and labels.  For d = 0, 1, ... an exact partition-refinement
 * test asks whether the target is a Boolean function of the letters and
 * the bank's count atoms of depth <= d on the care set.  When it is not,
 * the classes that still mix labels give pairs of words that every such
 * formula treats alike (the bounded negative evidence).  At the first d
 * where it is, atoms are chosen greedily by the conflicting pairs they
 * separate and a small enumeration over the chosen atoms finds the
 * smallest Boolean combination; failing that, a DNF over the chosen atoms
 * (flagged as large).
 *
 * Ownership: results own their arrays (search_result_free); Nodes belong
 * to the Store.
 */
#ifndef TALLY_SEARCH_H
#define TALLY_SEARCH_H

#include <stdbool.h>
#include <stddef.h>

#include "search/bank.h"
#include "search/indist.h"
#include "search/sample.h"

typedef enum { TARGET_FORMULA, TARGET_PREDICT, TARGET_LABELS } TargetKind;

typedef struct {
	TargetKind kind;
	Node node;         /* TARGET_FORMULA */
	unsigned m;        /* TARGET_PREDICT: L_m */
	SampleWord *words; /* TARGET_LABELS (borrowed) */
	const bool *labels;
	size_t nwords;
	const char *name;  /* for the output */
} Target;

/* care and label on the sample (label within care).  False if the target
 * formula cannot be evaluated by prefixes (it has #>). */
bool target_sig(const Target *t, const Sample *S, const Store *st,
		Word64 *care, Word64 *label);

/* What a target formula needs of the class: its depth, its largest
 * coefficient or constant and its most counts in one comparison; or why
 * it is outside every class F_d(C, T) as written (Y, MOD, #>, ?:, min,
 * max). */
typedef struct {
	unsigned depth, C, T;
	const char *outside; /* NULL when inside */
} TargetShape;
void search_target_shape(const Store *st, Node f, TargetShape *out);
#define SEARCH_OUTSIDE_FUTURE "it counts the future (#>)"

enum { SEARCH_MAXD = 15, SEARCH_PAIRS = 3, SEARCH_ERRORS_MAX = 1000 };

typedef struct {
	size_t pos, neg; /* sample bits: target accepts pos, rejects neg */
} WordPair;

/* A refuted depth d: no Boolean combination of the bank's comparisons of
 * depth <= d agrees with the target on the sample; and, when npairs > 0,
 * pairs (pos labelled in, neg out) that the exact check (indist.h) proves
 * no formula of the class F_d(C, T) tells apart, so that no formula of
 * the class agrees with the target at all. */
typedef struct {
	size_t natoms;               /* bank comparisons of depth <= d */
	size_t nconflict;            /* their classes that mix labels */
	WordPair pairs[SEARCH_PAIRS]; /* certified pairs, shortest first */
	bool parikh[SEARCH_PAIRS];   /* the same last letter and Parikh
				      * vector (depth 1: any constants) */
	size_t npairs;
	size_t checked;              /* candidate pairs checked */
	size_t wrong;                /* noisy: the best combination's errors */
	bool cut;                    /* the bank's layers of depth <= d were
				      * cut at its memory budget (bank.h) */
} Refutation;

typedef struct {
	bool found;
	unsigned depth;     /* least depth, when found */
	unsigned tried;     /* depths 0..tried-1 refuted */
	Refutation refuted[SEARCH_MAXD + 1];
	Node formula;
	bool large;         /* a DNF over the greedy atoms */
	size_t chosen;      /* greedy atoms */
	BankStop stop;      /* why the bank stopped, if it did */
	IndistBounds cls;   /* the class of the certified pairs */
	bool certified;     /* the refuted depths' pairs were checked */
	bool two_sided;     /* on a whole-word sample (no pairs checked) */
	bool noisy;         /* from search_run_noisy */
	size_t nerrors;     /* search_run_noisy: words the formula gets wrong */
	size_t errors[SEARCH_ERRORS_MAX]; /* their bits (the first ones) */
} SearchResult;

/* Searches depths 0..maxd, building the bank as needed; the pairs of
 * every refuted depth are certified against the class cls (NULL: not
 * yet, see search_certify). */
void search_run(Bank *b, const Sample *S, Store *st, const Word64 *care,
		const Word64 *label, unsigned maxd, const IndistBounds *cls,
		SearchResult *r);
/* The same for noisy labels: the least depth at which the best Boolean
 * function of the comparisons (each class of the partition takes its
 * majority label) gets at most max_errors words wrong; r->errors lists
 * them (up to SEARCH_ERRORS_MAX). */
void search_run_noisy(Bank *b, const Sample *S, Store *st, const Word64 *care,
		      const Word64 *label, unsigned maxd, size_t max_errors,
		      SearchResult *r);
/* Certifies the pairs of the depths r refuted (the bank still built). */
void search_certify(Bank *b, const Sample *S, const Word64 *care,
		    const Word64 *label, IndistBounds cls, SearchResult *r);

/* Disagreements of formula f with the target on sample S (via the
 * evaluator); *first gets the first bad bit.  SIZE_MAX if f cannot be
 * evaluated by prefixes. */
size_t search_check(const Sample *S, const Store *st, Node f,
		    const Word64 *care, const Word64 *label, size_t *first);

/* --separate: depth-(D+1) entries of the bank (built to D+1), smallest
 * first, each with a pair of sample words that it separates and that the
 * exact check proves no formula of F_D(cls) tells apart: so no formula of
 * the class of depth <= D defines the entry's language.  At most `tries`
 * pairs are checked in all. */
typedef struct {
	size_t entry;  /* bank entry */
	WordPair pair; /* the formula accepts pos, rejects neg */
	bool parikh;   /* the same last letter and Parikh vector */
} Separation;
size_t search_separate(Bank *b, const Sample *S, unsigned D, IndistBounds cls,
		       size_t max, size_t tries, Separation *out);

#endif
