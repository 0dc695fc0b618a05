/* search_cli -- what `tally search` and `tally hierarchy` share: the
 * sample and bank options, building the search sample, the fresh
 * verification samples, and the progress line.
 *
 * Ownership: samples returned are the caller's (sample_free); SearchOpts
 * holds no allocations.
 */
#ifndef TALLY_SEARCH_CLI_H
#define TALLY_SEARCH_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "search/bank.h"
#include "search/claim.h"
#include "cli/cli.h"
#include "search/indist.h"
#include "base/limit.h"
#include "search/sample.h"
#include "search/search.h"
#include "search/verify.h"
#include "base/vec.h"

#include <jansson.h>

typedef struct {
	unsigned length;     /* all words up to this length */
	unsigned pairs;      /* witness pairs */
	unsigned lo, hi;     /* their block lengths */
	uint64_t seed;
	unsigned C;          /* largest |constant| and |coefficient| */
	unsigned T;          /* counts per comparison */
	bool C_given, T_given; /* set by the user (not raised to a target's) */
	unsigned base;       /* the bank's two-count comparisons: inner
			      * formulas per depth */
	unsigned base1;      /* of depth 1 at depth 2 (0: base) */
	unsigned jobs;       /* 0: all cores */
	Limits lim;          /* --timeout, --max-memory (limit.h): the
			      * bank and enum poll them */
	size_t max_sigs;     /* 0: none */
	unsigned certify;    /* tries per depth for certified pairs (0: none) */
	unsigned rounds;     /* rounds of counterexamples at most */
	size_t max_errors;   /* labelled words a formula may get wrong */
	unsigned verify_len; /* exhaustive verification length */
	unsigned decide_len; /* the decision engine's length bound (0: off) */
	bool json, csv, quiet;
	double start;        /* limit_now() at the start (for reports) */
} SearchOpts;

/* The rows of the sample options, one macro each (enum shares some with
 * its own help texts), into the SearchOpts *o. */
#define SEARCH_LENGTH_ROW(o, h)                                               \
	OPTION_COUNT_ROW(0, "max-length", "N", 0, 24, &(o)->length, h)
#define SEARCH_PAIRS_ROW(o, h)                                                \
	OPTION_COUNT_ROW(0, "pairs", "N", 0, 4096, &(o)->pairs, h)
#define SEARCH_BLOCKS_ROW(o, h)                                               \
	OPTION_RANGE_ROW("blocks", "LO..HI", 1, 10000, true, &(o)->lo,        \
			 &(o)->hi, h)
#define SEARCH_SEED_ROW(o, h)                                                 \
	OPTION_COUNT_ROW(0, "seed", "N", 0, UINT64_MAX, &(o)->seed, h)
#define SEARCH_MAXCONST_ROW(o, h)                                             \
	{.name = "max-const", .kind = OPTION_COUNT, .meta = "C", .lo = 1,     \
	 .hi = 64, .dest = &(o)->C, .width = sizeof (o)->C,                   \
	 .given = &(o)->C_given, .help = (h)}
#define SEARCH_CSV_ROW(o, h) OPTION_FLAG_ROW(0, "csv", &(o)->csv, h)
#define SEARCH_QUIET_ROW(o, h) OPTION_FLAG_ROW(0, "quiet", &(o)->quiet, h)

/* The rows search and hierarchy share (options.h). */
#define SEARCH_CLI_ROWS(o)                                                    \
	OPTION_TEXT_ROW("Sample (every result prints its description):\n"),   \
	SEARCH_LENGTH_ROW(o, "all words of length <= N (default 10; fewer\n"  \
			     "when the tree would pass 16384 words)"),         \
	SEARCH_PAIRS_ROW(o, "witness pairs u.s s s' s' / u.s s' s s' with\n"  \
			    "u in L_d and long blocks (default 16; 0: none,\n" \
			    "and no certified pairs either)"),                 \
	SEARCH_BLOCKS_ROW(o, "their block lengths, times 2^(d-1) for u in\n"  \
			     "L_d (default 8..20)"),                           \
	SEARCH_SEED_ROW(o, "for the block lengths (default 1)"),              \
	OPTION_COUNT_ROW(0, "certify", "N", 0, 1000, &(o)->certify,           \
			 "tries per depth 2..3 for a witness pair the\n"      \
			 "class cannot separate (default 24; 0: none)"),      \
	OPTION_COUNT_ROW(0, "rounds", "N", 0, 1000, &(o)->rounds,             \
			 "rounds of counterexamples at most (default 12)"),   \
	OPTION_TEXT_ROW("The class of every negative claim (F_d(C, T): any "  \
			"size, every relation):\n"),                           \
	SEARCH_MAXCONST_ROW(o, "coefficients and constants within [-C, C]\n"  \
			       "(default 1; a target formula's own raise it)"), \
	{.name = "counts", .kind = OPTION_COUNT, .meta = "T", .lo = 1,        \
	 .hi = INDIST_MAX_T, .dest = &(o)->T, .width = sizeof (o)->T,         \
	 .given = &(o)->T_given,                                              \
	 .help = "counts per comparison, 1..4 (default 2)"},                  \
	OPTION_TEXT_ROW("The search's bank (one formula per signature on the " \
			"sample):\n"),                                         \
	OPTION_RANGE_ROW("base", "N[..M]", 1, 4096, true, &(o)->base,         \
			 &(o)->base1,                                         \
			 "two-count comparisons over the N smallest\n"        \
			 "entries of each depth (M of depth 1 at depth\n"     \
			 "2; default 4..32, hierarchy 4)"),                   \
	OPTION_COUNT_ROW(0, "max-signatures", "N", 1, UINT32_MAX,             \
			 &(o)->max_sigs, "stop the bank after N signatures"), \
	OPTION_COUNT_ROW(0, "jobs", "N", 0, 64, &(o)->jobs,                   \
			 "threads (default: all cores)"),                     \
	OPTION_TEXT_ROW("Limits (reached: what was found so far stays "       \
			"printed, exit 4):\n"),                                \
	OPTION_SECONDS_ROW("timeout", &(o)->lim.timeout,                      \
			   "stop after this much wall-clock time"),            \
	OPTION_SIZE_ROW("max-memory", &(o)->lim.max_memory,                   \
			"stop when the resident memory exceeds SIZE\n"         \
			"bytes (suffixes K, M, G; default a quarter of\n"      \
			"the machine's memory); the bank is cut to fit\n"     \
			"half of it: smallest formulas first, then\n"         \
			"those that separate the target's words"),           \
	OPTION_TEXT_ROW("Verification:\n"),                                   \
	OPTION_COUNT_ROW(0, "verify-length", "N", 0, 24, &(o)->verify_len,    \
			 "also check every word of length <= N with\n"        \
			 "the evaluator (default 14 for two letters)"),       \
	OPTION_COUNT_ROW(0, "decide-length", "N", 0, 64, &(o)->decide_len,    \
			 "then tally equiv's methods side by side\n"         \
			 "for 2 s: a proof, or every word up to N\n"         \
			 "(default 16; 0: off)"),                              \
	OPTION_TEXT_ROW("Output:\n"),                                         \
	OPTION_FLAG_ROW(0, "json", &(o)->json, "JSON lines"),                 \
	SEARCH_CSV_ROW(o, "comma-separated values"),                          \
	SEARCH_QUIET_ROW(o, "no progress line on a terminal")

/* Certified pairs are looked for up to this depth (deeper checks take
 * seconds and need blocks of thousands of letters). */
/* The bank's share of --max-memory: 1/SEARCH_BANK_SHARE (bank.h cuts
 * its layers to fit; samples, partitions and checks use the rest). */
enum { SEARCH_BANK_SHARE = 2 };

enum { SEARCH_CERT_DEPTH = 3, SEARCH_TREE_MAX = 1 << 14, SEARCH_EXH_MAX = 1 << 20 };

typedef VEC(SampleWord) SampleVec;

void search_opts_init(SearchOpts *o);
/* The class of every negative claim (indist.h). */
IndistBounds search_bounds(const SearchOpts *o);
/* The bank's options; its limits are o->lim (armed by limit_start). */
void search_bank_options(SearchOpts *o, BankOptions *bo);

/* The two-sided search sample (whole words): all words of length 1..N
 * with N <= o->length and about SEARCH_TREE_MAX positions, the witness
 * pairs and the extra words; fresh: the verification one (longer words,
 * twice the pairs, another seed). */
Sample *search_sample_whole(const SearchOpts *o, const SymTab *syms,
			    const Sym *letters, size_t nletters, unsigned dmin,
			    unsigned dmax, const SampleWord *extra, size_t nextra,
			    bool fresh);

/* The search sample: all words up to o->length plus o->pairs witness
 * pairs with u in L_dmin..L_dmax (none when dmax is 0 or the alphabet has
 * fewer than two letters), plus the extra words.  fresh: the verification
 * sample (longer words, twice the pairs, another seed, longer blocks). */
Sample *search_sample(const SearchOpts *o, const SymTab *syms, const Sym *letters,
		      size_t nletters, unsigned dmin, unsigned dmax,
		      const SampleWord *extra, size_t nextra, bool fresh);
/* All words up to the verification length (bounded by the alphabet). */
Sample *search_exhaustive_sample(const SearchOpts *o, const SymTab *syms,
				 const Sym *letters, size_t nletters);

/* ---- the counterexample-guided search (search and hierarchy) ---- */

/* One search's samples and bank: the search sample (all words up to the
 * length, the witness pairs, the given words and the counterexamples
 * found so far), its bank, the fresh and the exhaustive samples.
 * Ownership: owns its samples, bank and words. */
typedef struct {
	SearchOpts *o;
	Store *st;
	const Sym *letters;
	size_t nletters;
	unsigned dmin, dmax; /* witness pairs: u in L_dmin..L_dmax */
	bool labels;         /* labelled words: no fresh samples */
	bool whole;          /* two-sided: whole-word samples (sample.h) */
	unsigned whole_n;    /* their words of length 1..whole_n */
	SampleVec words;     /* given words, then counterexamples */
	size_t ngiven;
	Sample *S, *fresh, *exh;
	Bank *bank;
	double bank_seconds, bank_cpu; /* over every bank built */
	uint64_t generated;
} SearchState;

void search_state_init(SearchState *ss, SearchOpts *o, Store *st,
		       const Sym *letters, size_t nletters, unsigned dmin,
		       unsigned dmax, const SampleWord *given, size_t ngiven,
		       bool labels, bool whole);
void search_state_free(SearchState *ss);

typedef struct {
	SearchResult r;
	Verification v;
	bool have_v;       /* r.formula was verified (v filled) */
	unsigned rounds;   /* counterexamples added to the sample */
	bool exhausted;    /* stopped after SEARCH_ROUNDS rounds */
	char *failed;      /* the last candidate an earlier round found
			    * and verification refuted (text; NULL: none),
			    * shown when a limit stops the search */
	unsigned failed_depth;
} Solution;

/* Searches depths 0..maxd; a formula that agrees on the sample but not
 * beyond (verify.h) gives its counterexamples to the sample, and the
 * search starts again, until a formula is verified, none is found, a
 * limit is reached or the rounds run out. */
void search_solve(SearchState *ss, const Target *tg, unsigned maxd, Solution *out);
/* f against the target as search_solve verifies what it finds (the
 * fresh and exhaustive samples, then the decision engine; under
 * tally-mpi rank 0 verifies and every rank takes its verdict). */
void search_verify(SearchState *ss, const Target *tg, Node f, Verification *v);
void solution_free(Solution *sol);

/* The progress line on stderr (terminal only, not --quiet). */
void search_progress(const SearchOpts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void search_progress_done(const SearchOpts *o);
/* A progress line for the exact refinement of block pairs (blockref.h)
 * while `what` ("L_5: a pair for depth 4") is being certified; NULL
 * what: none from now on. */
void search_refine_progress(const SearchOpts *o, const char *what);

/* The limit message on stderr for a bank that stopped (stop !=
 * BANK_OK) after `what` was established; returns EXIT_LIMIT. */
int search_limit_report(const SearchOpts *o, BankStop stop, const char *what);

/* ---- reporting (shared by search and hierarchy) ---- */

/* "constants <= C, T counts per comparison" */
void search_class_brief(IndistBounds b, char *out, size_t n);
/* The "bounds:" line (the class of the negative claims) and the
 * "search:" line (the bank's grammar). */
void search_print_bounds(const SearchOpts *o, const Bank *b);
/* "  depth D: ..." lines: for each refuted depth the certified pairs, or
 * what the search's own comparisons show. */
void search_print_refutations(const Sample *S, const SearchResult *r,
			      const char *indent);
json_t *search_json_refutations(const Sample *S, const SearchResult *r);
/* The claim of a result (search/claim.h): found says a verified formula
 * of depth r->depth was found; lower is a depth certified by another
 * pair (-1: none), raised by the refuted depths' pairs that blockcheck
 * confirms.  False (said on stderr) when blockcheck separates a pair the
 * exact check certified: the caller exits 70. */
bool search_claim(SearchOpts *o, const Sample *S, const SearchResult *r,
		  bool found, int lower, DepthClaim *c);
/* least_depth (null unless settled), depth_found (null unless found)
 * and certified_depth (null when nothing is certified). */
void search_json_claim(json_t *o, const DepthClaim *c);
/* The same as three CSV fields, each followed by a comma. */
void search_csv_claim(const DepthClaim *c);
/* A CSV field: quoted, with doubled quotes. */
void search_csv_field(const char *s, bool last);

#endif
