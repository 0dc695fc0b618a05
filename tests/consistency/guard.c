/* guard.c -- reports of crashes and hangs (see guard.h). */
#include <config.h>
#include "guard.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "base/limit.h"

/* A case running this long (seconds, plus 60 budgets) is a hang. */
#define HANG_MIN 120.0

/* What is running now, written before each step so that a crash or a
 * hang can say which case it was (the signal handler only writes it). */
static char current[4096];
static size_t current_len;
static volatile double case_started;
static double hang_after;

static char reproduce_prefix[512];

void guard_enter(unsigned id, const char *what, const Argv *a)
{
	FILE *f = fmemopen(current, sizeof current - 1, "w");
	if (!f)
		return;
	fprintf(f, "consistency: input %u: %s\n  reproduce: %s --input=%u\n",
		id, what, reproduce_prefix, id);
	if (a)
		argv_print(f, a);
	fflush(f);
	current_len = (size_t)ftell(f);
	fclose(f);
	case_started = limit_now();
}

static const int fatal[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL};
enum { NFATAL = sizeof fatal / sizeof fatal[0] };
/* The handlers before ours (a sanitizer's): they report after us. */
static struct sigaction previous[NFATAL];

static void say_current(const char *head, size_t n)
{
	ssize_t w = write(capture_report_fd(), head, n);
	w = write(capture_report_fd(), current, current_len);
	(void)w;
}

static void on_crash(int sig)
{
	static const char head[] = "\nFAIL (crash: a fatal signal)\n";
	say_current(head, sizeof head - 1);
	for (size_t i = 0; i < NFATAL; i++)
		if (fatal[i] == sig)
			sigaction(sig, &previous[i], NULL);
	raise(sig);
}

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>

/* Z3 keeps some memory of its own until the process ends (a few
 * allocations after a thousand contexts); ours is still checked. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libz3.so\n";
}

const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}

/* A sanitizer's report ends the process without a signal. */
static void on_sanitizer_death(void)
{
	static const char head[] = "\nFAIL (a sanitizer stopped the "
				   "harness; its report is above)\n";
	say_current(head, sizeof head - 1);
}
#endif

static void *watchdog(void *arg)
{
	(void)arg;
	for (;;) {
		sleep(1);
		double t = case_started;
		if (t > 0 && limit_now() - t > hang_after) {
			static const char head[] = "\nFAIL (hang: one case ran "
						   "for minutes)\n";
			say_current(head, sizeof head - 1);
			_exit(1);
		}
	}
	return NULL;
}

void guard_install(const char *reproduce, double budget)
{
	snprintf(reproduce_prefix, sizeof reproduce_prefix, "%s", reproduce);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_crash;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NFATAL; i++)
		sigaction(fatal[i], &sa, &previous[i]);
#ifdef __SANITIZE_ADDRESS__
	__sanitizer_set_death_callback(on_sanitizer_death);
#endif
	hang_after = HANG_MIN + 60 * budget;
	/* The watchdog takes no signal (limit.c's timer is for the
	 * commands). */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_t th;
	if (pthread_create(&th, NULL, watchdog, NULL) == 0)
		pthread_detach(th);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}


void guard_leave(void)
{
	case_started = 0;
}
