#include <config.h>
#include "base/limit.h"

#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "base/number.h"
#include "base/status.h"

/* Expiries of the deadline timer: 1 at the deadline, then one a second. */
static volatile sig_atomic_t expiries;
/* The backstop may end the process (not for the default budget of
 * equiv/check, not in the REPL). */
static volatile sig_atomic_t backstop = 1;
static bool keep_process;
/* Raised by limit_interrupt(): a stop asked from outside. */
static volatile sig_atomic_t interrupted;
/* Written by limit_start, so that the handler only writes. */
static char backstop_msg[96];
static size_t backstop_len;

void limit_keep_process(void)
{
	keep_process = true;
}

/* The first expiry only raises the flag the pollers read; the second,
 * a second later, means nobody polled: report and end here.  Only
 * async-signal-safe calls. */
static void on_alarm(int sig)
{
	(void)sig;
	if (++expiries < 2 || !backstop)
		return;
	ssize_t w = write(STDERR_FILENO, backstop_msg, backstop_len);
	(void)w;
	_exit(EXIT_LIMIT);
}

static void disarm(void)
{
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_REAL, &off, NULL);
}

void limit_interrupt(void)
{
	interrupted = 1;
}

void limit_interrupt_clear(void)
{
	interrupted = 0;
}

void limit_init(Limits *l)
{
	memset(l, 0, sizeof *l);
}

bool limit_parse_count(const char *s, uint64_t *out)
{
	uint64_t v;
	if (!number_parse_count(s, UINT64_MAX, &v) || v == 0)
		return false;
	*out = v;
	return true;
}

double limit_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void limit_stop(void)
{
	disarm();
	expiries = 0;
}

/* The timer: SIGALRM after `seconds`, then one a second. */
static void arm(double seconds)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	double whole = floor(seconds);
	struct itimerval t = {
		.it_interval = {1, 0},
		.it_value = {(time_t)whole,
			     (suseconds_t)((seconds - whole) * 1e6)},
	};
	if (t.it_value.tv_sec == 0 && t.it_value.tv_usec == 0)
		t.it_value.tv_usec = 1;
	setitimer(ITIMER_REAL, &t, NULL);
}

void limit_start(Limits *l)
{
	disarm();
	expiries = 0;
	backstop = !l->no_backstop && !keep_process;
	l->polls = 0;
	l->hit = LIMIT_NONE;
	l->started = limit_now();
	if (l->timeout <= 0)
		return;
	snprintf(backstop_msg, sizeof backstop_msg, "tally: limit: --timeout=%g "
		 "reached (in work that cannot stop early)\n", l->timeout);
	backstop_len = strlen(backstop_msg);
	arm(l->timeout);
}

void limit_rearm_child(Limits *l)
{
	disarm();
	expiries = 0;
	backstop = 0;
	if (!l || l->timeout <= 0)
		return;
	double left = l->started + l->timeout - limit_now();
	arm(left > 0 ? left : 0);
}

size_t limit_peak_memory(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (size_t)ru.ru_maxrss * 1024; /* Linux: kilobytes */
}

/* /proc/self/statm's second field is the resident set in pages; kept
 * open, one pread per reading. */
size_t limit_memory(void)
{
	static int fd = -2;
	if (fd == -2)
		fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
	char buf[128];
	ssize_t n = fd >= 0 ? pread(fd, buf, sizeof buf - 1, 0) : -1;
	unsigned long long pages, rss;
	if (n <= 0)
		return limit_peak_memory();
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &pages, &rss) != 2)
		return limit_peak_memory();
	return (size_t)rss * (size_t)sysconf(_SC_PAGESIZE);
}

size_t limit_default_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || size <= 0)
		return 0;
	return (size_t)pages / LIMIT_DEFAULT_SHARE * (size_t)size;
}

double limit_left(const Limits *l)
{
	if (!l || l->timeout <= 0)
		return 0;
	double left = l->started + l->timeout - limit_now();
	return left > 0.001 ? left : 0.001;
}

bool limit_check(Limits *l)
{
	if (!l)
		return false;
	if (l->hit != LIMIT_NONE)
		return true;
	if (interrupted)
		l->hit = LIMIT_INTERRUPT;
	else if (expiries > 0 && l->timeout > 0)
		l->hit = LIMIT_TIME;
	else if (l->max_memory && (l->memory = limit_memory()) > l->max_memory)
		l->hit = LIMIT_MEMORY;
	if (l->hit != LIMIT_NONE)
		disarm(); /* the command reports it: no backstop needed */
	return l->hit != LIMIT_NONE;
}

bool limit_poll(Limits *l)
{
	if (!l)
		return false;
	if (expiries > 0 || interrupted || l->hit != LIMIT_NONE)
		return limit_check(l);
	if (!l->max_memory || ++l->polls < LIMIT_POLL_EVERY)
		return false;
	l->polls = 0;
	return limit_check(l);
}

int limit_report(const Limits *l, const char *what)
{
	if (l->hit == LIMIT_TIME)
		fprintf(stderr, "tally: limit: --timeout=%g reached", l->timeout);
	else if (l->hit == LIMIT_INTERRUPT)
		fputs("tally: limit: interrupted", stderr);
	else
		fprintf(stderr, "tally: limit: --max-memory reached (resident "
				"memory %zu MiB, limit %zu MiB)",
			l->memory >> 20, l->max_memory >> 20);
	if (what)
		fprintf(stderr, "; %s", what);
	fputc('\n', stderr);
	return EXIT_LIMIT;
}

int limit_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	status_vmessage("limit", fmt, ap);
	va_end(ap);
	return EXIT_LIMIT;
}
