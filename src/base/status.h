/* status -- tally's exit statuses and the one-line messages on stderr
 * that go with them ("tally: error: ...").
 *
 * Every layer may report a user error this way (the message is the
 * report; the status is the value handed back up); only the commands
 * turn a status into the process's exit.
 *
 * Ownership: nothing is allocated.
 */
#ifndef TALLY_STATUS_H
#define TALLY_STATUS_H

#include <stdarg.h>

#include "base/buf.h"

enum {
	EXIT_YES = 0,      /* success, or a true answer */
	EXIT_NO = 1,       /* a negative answer, with a witness */
	EXIT_USAGE = 2,    /* usage or input error */
	EXIT_UNKNOWN = 3,  /* unknown, or only a bounded answer */
	EXIT_LIMIT = 4,    /* a user limit was reached */
	EXIT_INTERNAL = 70,
};

/* The worse of two exit statuses of a batch's records: an internal
 * error, an input that does not load, a wrong answer (EXIT_NO where the
 * caller counts it so), a limit, an unknown, success. */
int status_worse(int a, int b);

/* Prints "tally: KIND: MSG" and a newline on stderr. */
void status_vmessage(const char *kind, const char *fmt, va_list ap);
/* While `into` is set (NULL: none), the text of every message is also
 * appended to it, without the "tally: KIND: " prefix and one message a
 * line: a batch prints a refused record's reason in the record's place.
 * Returns the Buf set before. */
Buf *status_capture(Buf *into);
/* Prints "tally: error: MSG" and returns EXIT_USAGE. */
int status_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif
