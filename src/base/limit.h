/* limit -- the user's bounds on long work: --timeout and --max-memory.
 *
 * A command that can run long puts the rows CLI_LIMIT_ROWS (cli/cli.h)
 * in its option table, calls limit_start() when the work begins and
 * limit_poll() in its hot loop.  limit_poll() costs a counter increment: the clock is never
 * read (a timer signal sets a flag), and the resident memory
 * (/proc/self/statm) is read every LIMIT_POLL_EVERY calls.  Engines
 * (explore, the bank, enum) take a Limits pointer and poll it; they
 * have no limits of their own besides counts (--max-states).  When it returns
 * true the command stops, keeps what it already printed, reports with
 * limit_report() and exits EXIT_LIMIT (4).
 *
 * Work that does not poll (a printer, a parser) is still bounded: one
 * second after the deadline the timer prints the message itself and
 * ends the process with status 4.  Running out of memory (ulimit -v) is
 * status 4 too (mem.c).
 *
 * Ownership: one Limits per process (the timer is process-wide); it owns
 * nothing on the heap.
 */
#ifndef TALLY_LIMIT_H
#define TALLY_LIMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { LIMIT_NONE, LIMIT_TIME, LIMIT_MEMORY, LIMIT_INTERRUPT } LimitKind;

typedef struct Limits {
	double timeout;    /* seconds; 0 = none */
	size_t max_memory; /* bytes of resident memory; 0 = none */
	bool no_backstop;  /* the REPL: never end the process */
	double started;    /* limit_now() at limit_start() */
	unsigned polls;    /* since the last memory reading */
	size_t memory;     /* the reading that reached --max-memory */
	LimitKind hit;
} Limits;

enum { LIMIT_POLL_EVERY = 4096 };

void limit_init(Limits *l);
/* Arms the deadline (if any); call once, when the long work starts. */
void limit_start(Limits *l);
/* In a child process forked during the work (decide/portfolio.h): fork
 * cleared the timer, so this arms it again for what is left of l's
 * deadline (l may be NULL: none), without the backstop -- the parent
 * stops its children itself. */
void limit_rearm_child(Limits *l);
/* For the REPL: limits end the command that reached them, never the
 * process (no backstop: work that does not poll runs on). */
void limit_keep_process(void);
/* Disarms the deadline: the work is over (the REPL calls it after every
 * command, so that no timer outlives the command that armed it). */
void limit_stop(void);
/* True once a limit is reached (l->hit says which).  NULL: no limits
 * (an engine run without a user's limits). */
bool limit_poll(Limits *l);
/* Forces a memory reading now (between phases of a command; engines
 * that poll once per block of work). */
bool limit_check(Limits *l);
/* From a signal handler (the Python package's Ctrl-C): every Limits
 * polled from now on is reached (LIMIT_INTERRUPT), until
 * limit_interrupt_clear(). */
void limit_interrupt(void);
void limit_interrupt_clear(void);
/* Seconds left before the deadline (at least 0.001), or 0 when there is
 * no deadline: the budget handed to an outside solver (Z3, MONA). */
double limit_left(const Limits *l);
/* Monotonic seconds (for budgets and for reporting durations). */
double limit_now(void);
/* "tally: limit: ..." on stderr; returns EXIT_LIMIT.  `what` says what
 * was left undone ("the listing stopped after length 12"), or NULL. */
int limit_report(const Limits *l, const char *what);
/* A positive decimal count (--max-size, --max-states): false otherwise. */
bool limit_parse_count(const char *s, uint64_t *out);
/* "tally: limit: MSG" on stderr, for a bound the command checks itself
 * (--max-size, a built-in limit); returns EXIT_LIMIT. */
int limit_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Peak resident memory of the process so far, in bytes. */
size_t limit_peak_memory(void);
/* Resident memory of the process now, in bytes (the peak where the
 * system does not say). */
size_t limit_memory(void);
/* The default --max-memory of search and hierarchy: a
 * LIMIT_DEFAULT_SHARE-th of the machine's physical memory (sysconf), so
 * that a search never takes the machine; 0 when the system does not
 * say. */
enum { LIMIT_DEFAULT_SHARE = 4 };
size_t limit_default_memory(void);

#endif
