/* gen_data -- `tally gen`'s labelled datasets for any formula or program:
 * words sampled length by length with an exact class ratio, hard
 * negatives (mutated members) and uniformly random ones, no duplicates,
 * train/test splits by length, word, per-position or prediction labels
 * in TSV, JSONL or the .cr word format, and a leakage report.
 *
 * The plan: each split's words are shared out over the lengths of its
 * range where both classes exist (gen_states.h counts them exactly; the
 * lengths where one does not are left out and said so), in units of the
 * ratio, so every length is balanced on its own.  Lengths are then
 * generated in increasing order and written at once (streaming: memory
 * for one length's words).  Labels come from the evaluator (eval.h),
 * never from the sampler: the sampler's intended class, and the family's
 * membership function when there is one, are a second path that must
 * agree (an internal error otherwise).
 *
 * Sequence outputs (logic/README.md §2.7): --labels=sequence writes the
 * program's output at every position 1..n, Boolean or integer, as
 * `tally eval --per-position` prints it (seqeval.h).  A count-valued
 * program has no classes: its words are drawn uniformly per length
 * (root is then the formula true, every word its member) and the report
 * gives the distribution of its values instead of a balance.  A Boolean
 * output's last value must agree with the evaluator's verdict, and, when
 * it is past-only, every value with the verdict on that prefix; a
 * family's value function checks every position.
 *
 * Ownership: a GenSpec borrows everything it points to.
 */
#ifndef TALLY_GEN_DATA_H
#define TALLY_GEN_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/families.h"
#include "base/limit.h"
#include "core/store.h"
#include "core/alphabet.h"

typedef enum { GEN_LABELS_WORD, GEN_LABELS_POSITION, GEN_LABELS_PREDICTION,
	       GEN_LABELS_SEQUENCE } GenLabels;
typedef enum { GEN_FORMAT_TSV, GEN_FORMAT_JSONL, GEN_FORMAT_CR } GenFormat;

enum { GEN_SPLIT_NAME = 32 };

/* Records as data instead of text (the Python package's arrays): when a
 * GenSpec has a sink and its begin() accepts the spec (called once the
 * longest length is known; false: write text as usual), every record
 * goes to word() in the order the text would have, and nothing is
 * written on stdout.  Word labels of a Boolean output only (others are
 * always text).  word() is called on the calling thread. */
typedef struct GenSpec GenSpec;
typedef struct GenSink {
	void *ctx;
	bool (*begin)(void *ctx, const GenSpec *sp, size_t maxlen);
	void (*word)(void *ctx, size_t split, const uint32_t *w, size_t n,
		     bool label);
} GenSink;

typedef struct {
	char name[GEN_SPLIT_NAME];
	size_t lo, hi;  /* lengths */
	uint64_t count; /* words; 0 = a share of --sample */
} GenSplit;

struct GenSpec {
	Store *store;
	Node root;   /* the language */
	Node domain; /* words are drawn from it (lk-predict), or NODE_NONE */
	Node output; /* read at every position (sequence labels, or a
		      * count-valued program), or NODE_NONE */
	bool integer; /* output is an integer term: root is true */
	const Alphabet *alpha;
	const Family *family; /* its membership function checks the labels */
	long k;
	bool every_word; /* all words of the lengths, no sampling */
	uint64_t sample;
	GenSplit *splits;
	size_t nsplits;
	bool named_splits; /* --split given: a split column/field */
	unsigned ratio[2]; /* non-members : members, as [0] : [1] */
	unsigned random_pct; /* of the non-members: uniformly random */
	uint64_t seed;
	GenLabels labels;
	GenFormat format;
	size_t horizon;    /* prediction labels: members up to this length */
	size_t max_states; /* gen_states budget */
	const char *report; /* --report=FILE, or NULL */
	bool quiet;         /* no summary, no progress on stderr */
	const char *source; /* the formula's text, for the report */
	Limits *limits;
	unsigned jobs; /* threads labelling and formatting (0: 1); the
			* bytes are the same for any number */
	const GenSink *sink; /* or NULL: text on stdout */
};

/* Writes the dataset on stdout and the report; an exit status. */
int gen_data_run(const GenSpec *spec);

/* The name of the end of the word in prediction labels. */
#define GEN_EOS "</s>"

#endif
