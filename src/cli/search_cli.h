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

enum {
	OPT_S_LENGTH = OPT__COMMAND_BASE + 50,
	OPT_S_PAIRS,
	OPT_S_BLOCKS,
	OPT_S_SEED,
	OPT_S_MAXCONST,
	OPT_S_COUNTS,
	OPT_S_BASE,
	OPT_S_JOBS,
	OPT_S_MAXSIGS,
	OPT_S_CERTIFY,
	OPT_S_ROUNDS,
	OPT_S_VERIFY,
	OPT_S_DECIDE,
	OPT_S_CSV,
	OPT_S_QUIET,
};

#define SEARCH_CLI_OPTIONS                                                    \
	{"max-length", required_argument, NULL, OPT_S_LENGTH},                \
	{"pairs", required_argument, NULL, OPT_S_PAIRS},                      \
	{"blocks", required_argument, NULL, OPT_S_BLOCKS},                    \
	{"seed", required_argument, NULL, OPT_S_SEED},                        \
	{"max-const", required_argument, NULL, OPT_S_MAXCONST},               \
	{"counts", required_argument, NULL, OPT_S_COUNTS},                    \
	{"base", required_argument, NULL, OPT_S_BASE},                        \
	{"jobs", required_argument, NULL, OPT_S_JOBS},                        \
	LIMIT_OPTIONS,                                                        \
	{"max-signatures", required_argument, NULL, OPT_S_MAXSIGS},           \
	{"certify", required_argument, NULL, OPT_S_CERTIFY},                  \
	{"rounds", required_argument, NULL, OPT_S_ROUNDS},                    \
	{"verify-length", required_argument, NULL, OPT_S_VERIFY},             \
	{"decide-length", required_argument, NULL, OPT_S_DECIDE},             \
	{"json", no_argument, NULL, OPT_JSON},                                \
	{"csv", no_argument, NULL, OPT_S_CSV},                                \
	{"quiet", no_argument, NULL, OPT_S_QUIET}

#define SEARCH_CLI_HELP                                                       \
	"Sample (every result prints its description):\n"                     \
	"      --max-length=N     all words of length <= N (default 10; fewer\n" \
	"                         when the tree would pass 16384 words)\n"    \
	"      --pairs=N          witness pairs u.s s s' s' / u.s s' s s' with\n" \
	"                         u in L_d and long blocks (default 16; 0: none,\n" \
	"                         and no certified pairs either)\n"          \
	"      --blocks=LO..HI    their block lengths, times 2^(d-1) for u in\n" \
	"                         L_d (default 8..20)\n"                      \
	"      --seed=N           for the block lengths (default 1)\n"        \
	"      --certify=N        tries per depth 2..3 for a witness pair the\n" \
	"                         class cannot separate (default 24; 0: none)\n" \
	"      --rounds=N         rounds of counterexamples at most (default 12)\n" \
	"The class of every negative claim (F_d(C, T): any size, every relation):\n" \
	"      --max-const=C      coefficients and constants within [-C, C]\n" \
	"                         (default 1; a target formula's own raise it)\n" \
	"      --counts=T         counts per comparison, 1..4 (default 2)\n"  \
	"The search's bank (one formula per signature on the sample):\n"     \
	"      --base=N[..M]      two-count comparisons over the N smallest\n" \
	"                         entries of each depth (M of depth 1 at depth\n" \
	"                         2; default 4..32, hierarchy 4)\n"           \
	"      --max-signatures=N stop the bank after N signatures\n"         \
	"      --jobs=N           threads (default: all cores)\n"             \
	LIMIT_HELP                                                            \
	"Verification:\n"                                                     \
	"      --verify-length=N  also check every word of length <= N with\n" \
	"                         the evaluator (default 14 for two letters)\n" \
	"      --decide-length=N  then tally equiv's engine on every word up\n" \
	"                         to N, or a proof (default 16; 0: off)\n"  \
	"Output:\n"                                                           \
	"      --json             JSON lines\n"                               \
	"      --csv              comma-separated values\n"                   \
	"      --quiet            no progress line on a terminal\n"

/* Certified pairs are looked for up to this depth (deeper checks take
 * seconds and need blocks of thousands of letters). */
enum { SEARCH_CERT_DEPTH = 3, SEARCH_TREE_MAX = 1 << 14, SEARCH_EXH_MAX = 1 << 20 };

typedef VEC(SampleWord) SampleVec;

void search_opts_init(SearchOpts *o);
/* The class of every negative claim (indist.h). */
IndistBounds search_bounds(const SearchOpts *o);
/* Handles one of SEARCH_CLI_OPTIONS: true if opt was one (*status set to
 * EXIT_USAGE after a message when its value is bad). */
bool search_opts_option(SearchOpts *o, int opt, const char *arg, int *status);
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
} Solution;

/* Searches depths 0..maxd; a formula that agrees on the sample but not
 * beyond (verify.h) gives its counterexamples to the sample, and the
 * search starts again, until a formula is verified, none is found, a
 * limit is reached or the rounds run out. */
void search_solve(SearchState *ss, const Target *tg, unsigned maxd, Solution *out);
void solution_free(Solution *sol);

/* The progress line on stderr (terminal only, not --quiet). */
void search_progress(const SearchOpts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void search_progress_done(const SearchOpts *o);

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
/* A CSV field: quoted, with doubled quotes. */
void search_csv_field(const char *s, bool last);

#endif
