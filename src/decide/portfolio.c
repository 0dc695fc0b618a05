/* portfolio.c -- methods side by side in child processes (see
 * portfolio.h). */
#include <config.h>
#include "decide/portfolio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/mem.h"

bool portfolio_definite(MethodStatus s)
{
	return s == MR_EQUIVALENT || s == MR_DIFFERENT;
}

void arm_outcome_free(ArmOutcome *o)
{
	method_result_free(&o->res);
	free(o->failure);
	o->failure = NULL;
}

/* ---- the message a child sends ------------------------------------------------ */

/* Integers in native byte order (both ends are this program), strings
 * as a length (UINT64_MAX: NULL) and bytes, counts as decimal text. */

static void put_u64(Buf *b, uint64_t v)
{
	buf_append(b, (const char *)&v, sizeof v);
}

static void put_str(Buf *b, const char *s)
{
	put_u64(b, s ? strlen(s) : UINT64_MAX);
	if (s)
		buf_append(b, s, strlen(s));
}

static void encode(Buf *b, const MethodResult *r, const Limits *lim)
{
	put_u64(b, (uint64_t)r->status);
	put_u64(b, r->witness_shortest);
	put_u64(b, r->bound);
	put_u64(b, r->states);
	put_u64(b, lim ? (uint64_t)lim->hit : LIMIT_NONE);
	put_u64(b, lim ? lim->memory : 0);
	put_str(b, r->certificate);
	put_str(b, r->reason);
	put_u64(b, r->witness.n);
	for (size_t i = 0; i < r->witness.n; i++) {
		char *c = fmpz_get_str(NULL, 10, r->witness.count + i);
		put_u64(b, r->witness.letter[i]);
		put_str(b, c);
		flint_free(c);
	}
}

typedef struct {
	const char *p, *end;
	bool ok;
} Reader;

static uint64_t get_u64(Reader *r)
{
	uint64_t v = 0;
	if (r->ok && (size_t)(r->end - r->p) >= sizeof v) {
		memcpy(&v, r->p, sizeof v);
		r->p += sizeof v;
	} else {
		r->ok = false;
	}
	return v;
}

static char *get_str(Reader *r)
{
	uint64_t n = get_u64(r);
	if (!r->ok || n == UINT64_MAX)
		return NULL;
	if ((uint64_t)(r->end - r->p) < n) {
		r->ok = false;
		return NULL;
	}
	char *s = xmalloc(n + 1);
	memcpy(s, r->p, n);
	s[n] = '\0';
	r->p += n;
	return s;
}

/* False when the message is cut short or malformed (a child that died
 * while writing it). */
static bool decode(const char *data, size_t len, ArmOutcome *o)
{
	Reader r = {data, data + len, true};
	MethodResult *res = &o->res;
	res->status = (MethodStatus)get_u64(&r);
	res->witness_shortest = get_u64(&r) != 0;
	res->bound = get_u64(&r);
	res->states = get_u64(&r);
	o->hit = (LimitKind)get_u64(&r);
	o->memory = get_u64(&r);
	res->certificate = get_str(&r);
	res->reason = get_str(&r);
	uint64_t n = get_u64(&r);
	for (uint64_t i = 0; r.ok && i < n; i++) {
		Sym letter = (Sym)get_u64(&r);
		char *c = get_str(&r);
		fmpz_t count;
		fmpz_init(count);
		if (!c || fmpz_set_str(count, c, 10) != 0 || fmpz_sgn(count) <= 0)
			r.ok = false;
		else
			runs_push(&res->witness, letter, count);
		fmpz_clear(count);
		free(c);
	}
	return r.ok && r.p == r.end;
}

/* ---- a child ------------------------------------------------------------------------ */

static void write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* TALLY_INJECT_ARM_FAULT (portfolio.h): true when the answer is replaced. */
static bool inject(const char *name, MethodResult *r)
{
	const char *f = getenv("TALLY_INJECT_ARM_FAULT");
	size_t n = strlen(name);
	if (!f || strncmp(f, name, n) != 0 || (f[n] && strcmp(f + n, ":crash") != 0))
		return false;
	if (f[n])
		kill(getpid(), SIGKILL);
	r->status = MR_INTERNAL;
	r->reason = xstrdup("injected fault (TALLY_INJECT_ARM_FAULT)");
	return true;
}

static void run_child(const Query *q, const PortfolioArm *a, int fd,
		      const char *tmpdir, pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0); /* the parent is gone already */
	if (tmpdir)
		setenv("TMPDIR", tmpdir, 1);
	Query mine = *q;
	mine.timeout = a->timeout;
	limit_rearm_child(mine.limits);
	MethodResult r;
	method_result_init(&r);
	if (!inject(a->name, &r))
		a->fn(&mine, &r);
	Buf b = {0};
	encode(&b, &r, mine.limits);
	write_all(fd, b.data, b.len);
	_exit(0);
}

/* ---- the parent -------------------------------------------------------------------- */

typedef struct {
	pid_t pid;  /* 0: not running */
	int fd;
	Buf msg;
} Child;

/* A directory for the children's temporary files (mona's), removed with
 * whatever a killed child left there; NULL when none can be made. */
static char *make_tmpdir(void)
{
	const char *dir = getenv("TMPDIR");
	Buf b = {0};
	buf_printf(&b, "%s/tally-arms-XXXXXX", dir && *dir ? dir : "/tmp");
	if (mkdtemp(b.data))
		return buf_take(&b);
	buf_free(&b);
	return NULL;
}

static void remove_tmpdir(char *path)
{
	if (!path)
		return;
	DIR *d = opendir(path);
	for (struct dirent *e; d && (e = readdir(d));) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		Buf f = {0};
		buf_printf(&f, "%s/%s", path, e->d_name);
		unlink(f.data);
		buf_free(&f);
	}
	if (d)
		closedir(d);
	rmdir(path);
	free(path);
}

/* Starts arm a as child c of the table ch (the parent's, which a child
 * frees: it leaves by _exit, and valgrind follows it). */
static void start(const Query *q, const PortfolioArm *a, Child *ch,
		  Child *c, ArmOutcome *o, const char *tmpdir)
{
	int p[2];
	pid_t parent = getpid();
	/* No buffered output may be written twice (a child leaves by
	 * _exit, but a memory failure in it exits through stdio). */
	fflush(NULL);
	bool piped = pipe(p) == 0;
	/* not into MONA, which a child execs */
	if (piped)
		fcntl(p[1], F_SETFD, FD_CLOEXEC);
	pid_t pid = piped ? fork() : -1;
	if (pid == 0) {
		close(p[0]);
		free(ch);
		run_child(q, a, p[1], tmpdir, parent);
	}
	if (pid < 0) {
		if (piped) {
			close(p[0]);
			close(p[1]);
		}
		/* No child: the method runs here, to the end. */
		Query mine = *q;
		mine.timeout = a->timeout;
		a->fn(&mine, &o->res);
		o->state = ARM_ANSWERED;
		o->hit = mine.limits ? mine.limits->hit : LIMIT_NONE;
		o->memory = mine.limits ? mine.limits->memory : 0;
		return;
	}
	close(p[1]);
	/* reads never block: a child's message comes in pieces */
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	c->pid = pid;
	c->fd = p[0];
}

/* The child has closed its end: its message, and how it ended. */
static void finish(const PortfolioArm *a, Child *c, ArmOutcome *o)
{
	int st = 0;
	close(c->fd);
	while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
		;
	c->pid = 0;
	if (decode(c->msg.data ? c->msg.data : "", c->msg.len, o)) {
		o->state = ARM_ANSWERED;
		return;
	}
	method_result_free(&o->res);
	method_result_init(&o->res);
	o->state = ARM_FAILED;
	Buf b = {0};
	if (WIFSIGNALED(st))
		buf_printf(&b, "method %s was killed by signal %d", a->name,
			   WTERMSIG(st));
	else
		buf_printf(&b, "method %s ended with status %d and no answer",
			   a->name, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	o->failure = buf_take(&b);
}

static void kill_child(Child *c, ArmOutcome *o, ArmState why)
{
	kill(c->pid, SIGKILL);
	close(c->fd);
	while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
		;
	c->pid = 0;
	o->state = why;
}

/* Reads what is there; true when the child's end is closed. */
static bool drain(Child *c)
{
	char buf[4096];
	for (;;) {
		ssize_t r = read(c->fd, buf, sizeof buf);
		if (r > 0) {
			buf_append(&c->msg, buf, (size_t)r);
			if ((size_t)r < sizeof buf)
				return false;
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		return r == 0 || errno != EAGAIN;
	}
}

/* Kills arms past their end plus the grace; returns the milliseconds to
 * the next such end (-1: none). */
static int stop_overdue(const PortfolioArm *arms, Child *ch, ArmOutcome *out,
			size_t n)
{
	double now = limit_now(), next = -1;
	for (size_t i = 0; i < n; i++) {
		if (!ch[i].pid || arms[i].end <= 0)
			continue;
		double due = arms[i].end + PORTFOLIO_GRACE - now;
		if (due <= 0)
			kill_child(&ch[i], &out[i], ARM_STOPPED);
		else if (next < 0 || due < next)
			next = due;
	}
	return next < 0 ? -1 : (int)(next * 1000) + 1;
}

/* One round: waits up to wait_ms for some child to write or end. */
static void round_of(const PortfolioArm *arms, Child *ch, ArmOutcome *out,
		     size_t n, int wait_ms)
{
	struct pollfd *pf = xmalloc(n * sizeof *pf);
	size_t *who = xmalloc(n * sizeof *who), k = 0;
	for (size_t i = 0; i < n; i++)
		if (ch[i].pid) {
			pf[k] = (struct pollfd){.fd = ch[i].fd, .events = POLLIN};
			who[k++] = i;
		}
	int r = poll(pf, k, wait_ms);
	for (size_t j = 0; r > 0 && j < k; j++) {
		Child *c = &ch[who[j]];
		if (pf[j].revents && drain(c))
			finish(&arms[who[j]], c, &out[who[j]]);
	}
	free(pf);
	free(who);
}

/* The first arm in table order with a definite answer (n: none). */
static size_t first_definite(const Child *ch, const ArmOutcome *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!ch[i].pid && out[i].state == ARM_ANSWERED &&
		    portfolio_definite(out[i].res.status))
			return i;
	return n;
}

/* Whether arms before `first` are still running. */
static bool earlier_running(const Child *ch, size_t first)
{
	for (size_t i = 0; i < first; i++)
		if (ch[i].pid)
			return true;
	return false;
}

/* A stop asked from outside (limit_interrupt(): the Python package's
 * Ctrl-C) ends the wait: the arms are cancelled. */
static bool interrupted(void)
{
	Limits probe;
	limit_init(&probe);
	return limit_check(&probe) && probe.hit == LIMIT_INTERRUPT;
}

static int min_ms(int a, int b)
{
	return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

void portfolio_run(const Query *q, const PortfolioArm *arms, size_t n,
		   ArmOutcome *out)
{
	Child *ch = xcalloc(n, sizeof *ch);
	char *tmpdir = make_tmpdir();
	double started = limit_now(), prefer_until = 0;
	for (size_t i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof out[i]);
		method_result_init(&out[i].res);
		out[i].state = ARM_CANCELLED;
		if (first_definite(ch, out, i) == i)
			start(q, &arms[i], ch, &ch[i], &out[i], tmpdir);
	}
	for (;;) {
		int wait_ms = stop_overdue(arms, ch, out, n);
		size_t first = first_definite(ch, out, n), running = 0;
		for (size_t i = 0; i < n; i++)
			running += ch[i].pid != 0;
		if (running == 0 || interrupted())
			break;
		if (first < n) {
			/* An earlier row may still answer: waited for a
			 * while, so that the method named does not depend
			 * on which process the machine ran first. */
			double now = limit_now();
			if (!prefer_until)
				prefer_until = now + PORTFOLIO_PREFER + (now - started);
			if (!earlier_running(ch, first) || now >= prefer_until)
				break;
			wait_ms = min_ms(wait_ms,
					 (int)((prefer_until - now) * 1000) + 1);
		}
		round_of(arms, ch, out, n, wait_ms);
	}
	for (size_t i = 0; i < n; i++) {
		if (ch[i].pid)
			kill_child(&ch[i], &out[i], ARM_CANCELLED);
		buf_free(&ch[i].msg);
	}
	remove_tmpdir(tmpdir);
	free(ch);
}
