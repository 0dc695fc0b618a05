/* report -- what the consistency harness found: one line per failure
 * (with the lines that reproduce it), at most a few per input and a
 * dozen in all, counted by kind; and the figures of the run (cases,
 * verdicts per method, seconds, memory).  Also the table of the methods
 * under test.
 *
 * Ownership: a Run is the whole run's state (the driver's); a Case
 * borrows its Run, Input and command line.
 */
#ifndef TALLY_CONSISTENCY_REPORT_H
#define TALLY_CONSISTENCY_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "input.h"
#include "decide/method.h"

typedef struct {
	const char *name;
	MethodFn fn; /* NULL: auto, which has no MethodResult of its own */
} MethodRow;

enum { NMETHODS = 6 };
/* explore, presburger, chc, mona, unary, auto */
extern const MethodRow report_methods[NMETHODS];

enum {
	K_PROOF, K_BOUND, K_WITNESS, K_SHORTEST, K_ORDER, K_STATUS,
	K_INTERNAL, K_OUTPUT, K_ALPHABET, K_MEANING, K_LOAD, NKINDS
};

enum { O_PROOF, O_COUNTEREXAMPLE, O_BOUNDED, O_UNKNOWN, NOUTCOMES };

typedef struct {
	/* knobs */
	uint64_t seed;
	unsigned cases;
	double budget;
	long only;          /* --input, or -1 */
	unsigned show_max;  /* failures printed in full (--show) */
	const char *self;   /* argv[0], for the reproduction line */
	char dir[64];       /* program files */
	/* figures */
	unsigned input_shown, input_hidden; /* of the current input */
	unsigned inputs, ncases, failures, shown, unchecked;
	unsigned outcomes[NMETHODS][2][NOUTCOMES]; /* MethodResult, command */
	unsigned fail_kind[NKINDS];
	double seconds[NMETHODS][2];
	double brute_seconds;
	double started;
} Run;

typedef struct {
	Run *run;
	const Input *in;
	size_t mi;          /* the method's row */
	AcceptAt accept;
	bool raw;           /* the method's MethodResult, not the command */
	const Argv *cmd;    /* the command line; NULL: about the input */
	bool failed;        /* this case failed already (count it once) */
} Case;

void report_fail(Case *c, int kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void report_outcome(Case *c, int outcome);
/* After an input: how many of its failures were not printed. */
void report_input_done(Run *run, unsigned id);
void report_summary(const Run *run);

#endif
