/* mona.c -- the threshold fragment in M2L-Str, decided by running MONA
 * (see mona.h).
 *
 * Every Boolean node reachable from the roots becomes one predicate
 * N<id>(i) about a string position i (MONA numbers positions from 0, so
 * tally's position is i + 1); letters are the second-order variables
 * P0, P1, ... (one per alphabet letter, in the query's order).
 */
#include <config.h>
#include "decide/mona.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/diag.h"
#include "machine/eval.h"
#include "machine/machine.h"
#include "base/mem.h"
#include "base/limit.h"

/* ---- the fragment ---------------------------------------------------- */

typedef enum { TH_FALSE, TH_TRUE, TH_GE, TH_LE, TH_EQ, TH_NE } ThKind;

typedef struct {
	ThKind kind;
	ulong t;    /* the threshold (TH_GE: count >= t, ...) */
	Node count; /* the OP_COUNT / OP_FCOUNT node */
} Threshold;

static Rel flip(Rel r)
{
	switch (r) {
	case REL_LT: return REL_GT;
	case REL_LE: return REL_GE;
	case REL_GE: return REL_LE;
	case REL_GT: return REL_LT;
	default: return r;
	}
}

/* c*x + k REL 0 over naturals x as a threshold on x.  With r = -k/c and
 * the relation flipped when c < 0: x < r iff x <= ceil(r) - 1, x <= r iff
 * x <= floor(r), x > r iff x >= floor(r) + 1, x >= r iff x >= ceil(r). */
static void to_threshold(const fmpz_t c, const fmpz_t k, Rel rel, fmpz_t t,
			 ThKind *kind)
{
	fmpz_t nk, rem;
	fmpz_init(nk);
	fmpz_init(rem);
	fmpz_neg(nk, k);
	if (fmpz_sgn(c) < 0)
		rel = flip(rel);
	fmpz_fdiv_qr(t, rem, nk, c);
	bool exact = fmpz_is_zero(rem);
	switch (rel) {
	case REL_LT:
		fmpz_cdiv_q(t, nk, c);
		fmpz_sub_ui(t, t, 1);
		*kind = TH_LE;
		break;
	case REL_LE: *kind = TH_LE; break;
	case REL_GT:
		fmpz_add_ui(t, t, 1);
		*kind = TH_GE;
		break;
	case REL_GE:
		fmpz_cdiv_q(t, nk, c);
		*kind = TH_GE;
		break;
	case REL_EQ: *kind = exact ? TH_EQ : TH_FALSE; break;
	case REL_NE: *kind = exact ? TH_NE : TH_TRUE; break;
	}
	fmpz_clear(nk);
	fmpz_clear(rem);
}

/* The comparison node n as a threshold; false (with why) outside the
 * fragment. */
static bool threshold(const Store *s, Node n, Threshold *out,
		      const char **why)
{
	Linear l;
	store_linear(s, store_kid(s, n, 0), &l);
	bool ok = l.n <= 1;
	*why = "a comparison involves two counts (only a count "
	       "against a constant is in the threshold fragment)";
	if (ok && l.n == 1) {
		Op op = store_op(s, l.atoms[0]);
		ok = op == OP_COUNT || op == OP_FCOUNT;
		*why = "a comparison involves ?:, min or max";
	}
	if (ok) {
		fmpz_t t;
		fmpz_init(t);
		out->count = l.n ? l.atoms[0] : NODE_NONE;
		if (l.n == 0) /* k REL 0: the smart constructors fold
			       * these, but a DAG may keep one */
			out->kind = machine_rel_holds(store_rel(s, n),
						      fmpz_sgn(l.constant))
					    ? TH_TRUE : TH_FALSE;
		else
			to_threshold(l.coefs, l.constant, store_rel(s, n), t,
				     &out->kind);
		if (out->kind == TH_LE && fmpz_sgn(t) < 0)
			out->kind = TH_FALSE;
		else if (out->kind == TH_GE && fmpz_sgn(t) <= 0)
			out->kind = TH_TRUE;
		else if ((out->kind == TH_EQ || out->kind == TH_NE) &&
			 fmpz_sgn(t) < 0)
			out->kind = out->kind == TH_EQ ? TH_FALSE : TH_TRUE;
		/* <=, = and != also use "at least t + 1". */
		ulong most = out->kind == TH_GE ? MONA_MAX_THRESHOLD
						: MONA_MAX_THRESHOLD - 1;
		ok = out->kind == TH_TRUE || out->kind == TH_FALSE ||
		     fmpz_cmp_ui(t, most) <= 0;
		*why = "a threshold is too large for the M2L-Str "
		       "translation";
		out->t = ok ? fmpz_get_ui(t) : 0;
		fmpz_clear(t);
	}
	store_linear_free(&l);
	return ok;
}

bool mona_in_fragment(const Store *s, Node root, const char **why)
{
	Node roots[1] = { root };
	unsigned char *reach = store_reachable(s, roots, 1);
	bool ok = true;
	*why = NULL;
	for (Node n = 1; n <= root && ok; n++) {
		if (!reach[n])
			continue;
		Op op = store_op(s, n);
		Threshold th;
		if (op == OP_CMP)
			ok = threshold(s, n, &th, why);
		else if (op == OP_MOD && store_aux(s, n) > MONA_MAX_MODULUS) {
			ok = false;
			*why = "MOD(m, r) with m above 12: MONA's automata "
			       "for the period grow exponentially with m";
		}
		else if (op == OP_ITE || op == OP_MIN || op == OP_MAX) {
			ok = false;
			*why = "?:, min and max are outside the threshold "
			       "fragment";
		}
	}
	free(reach);
	return ok;
}

/* ---- translation ----------------------------------------------------- */

/* "at least t positions p with N<kid>(p), p <= i (past) or p >= i". */
static void at_least(Buf *b, const Store *s, Node count, ulong t)
{
	if (t == 0) {
		buf_puts(b, "true");
		return;
	}
	bool future = store_op(s, count) == OP_FCOUNT;
	Node kid = store_kid(s, count, 0);
	buf_puts(b, "(ex1 ");
	for (ulong j = 1; j <= t; j++)
		buf_printf(b, "%sp%lu", j > 1 ? ", " : "", j);
	buf_puts(b, ": ");
	if (future)
		buf_puts(b, "i <= p1 & ");
	for (ulong j = 1; j < t; j++)
		buf_printf(b, "p%lu < p%lu & ", j, j + 1);
	if (!future)
		buf_printf(b, "p%lu <= i & ", t);
	for (ulong j = 1; j <= t; j++)
		buf_printf(b, "%sN%u(p%lu)", j > 1 ? " & " : "", kid, j);
	buf_puts(b, ")");
}

static void cmp_body(Buf *b, const Store *s, Node n)
{
	Threshold th;
	const char *why;
	threshold(s, n, &th, &why);
	switch (th.kind) {
	case TH_TRUE: buf_puts(b, "true"); break;
	case TH_FALSE: buf_puts(b, "false"); break;
	case TH_GE: at_least(b, s, th.count, th.t); break;
	case TH_LE:
		buf_puts(b, "~");
		at_least(b, s, th.count, th.t + 1);
		break;
	case TH_EQ:
	case TH_NE:
		buf_puts(b, th.kind == TH_EQ ? "(" : "~(");
		at_least(b, s, th.count, th.t);
		buf_puts(b, " & ~");
		at_least(b, s, th.count, th.t + 1);
		buf_puts(b, ")");
		break;
	}
}

static size_t letter_index(const Query *q, Sym l)
{
	for (size_t t = 0; t < q->nletters; t++)
		if (q->alphabet[t] == l)
			return t;
	return SIZE_MAX;
}

/* The body of predicate N<n>(i). */
static void node_body(Buf *b, const Query *q, Node n)
{
	const Store *s = q->store;
	const Node *k = store_kids(s, n);
	uint32_t nk = store_nkids(s, n);
	switch (store_op(s, n)) {
	case OP_TRUE: buf_puts(b, "true"); break;
	case OP_FALSE: buf_puts(b, "false"); break;
	case OP_LETTER: {
		size_t t = letter_index(q, store_letter_sym(s, n));
		if (t == SIZE_MAX)
			buf_puts(b, "false");
		else
			buf_printf(b, "i in P%zu", t);
		break;
	}
	case OP_NOT: buf_printf(b, "~N%u(i)", k[0]); break;
	case OP_AND:
	case OP_OR:
		buf_puts(b, "(");
		for (uint32_t j = 0; j < nk; j++)
			buf_printf(b, "%sN%u(i)",
				   j ? (store_op(s, n) == OP_AND ? " & "
								 : " | ")
				     : "",
				   k[j]);
		buf_puts(b, ")");
		break;
	case OP_CMP: cmp_body(b, s, n); break;
	case OP_PREV: buf_printf(b, "(ex1 j: j + 1 = i & N%u(j))", k[0]); break;
	case OP_MOD: {
		/* tally position i + 1 = r (mod m): i in the set X of the
		 * positions = r - 1 (mod m), defined by its first element
		 * and the step m. */
		uint32_t m = store_aux(s, n), r = store_aux2(s, n);
		uint32_t r0 = (r + m - 1) % m;
		buf_printf(b, "(ex2 X: (all1 j: j in X <=> ((j < %u & j = %u) "
			   "| (ex1 h: h + %u = j & h in X))) & i in X)",
			   m, r0, m);
		break;
	}
	default: buf_puts(b, "false"); break; /* integers: not predicates */
	}
}

/* The whole M2L-Str program: predicates, the letters, and "the sides
 * differ at the last position l". */
static char *program(const Query *q)
{
	const Store *s = q->store;
	Node top = q->root[0] > q->root[1] ? q->root[0] : q->root[1];
	unsigned char *reach = store_reachable(s, q->root, 2);
	Buf b = { 0 };
	buf_puts(&b, "m2l-str;\n");
	if (q->nletters) {
		buf_puts(&b, "var2 ");
		for (size_t t = 0; t < q->nletters; t++)
			buf_printf(&b, "%sP%zu", t ? ", " : "", t);
		buf_puts(&b, ";\n");
	}
	for (Node n = 1; n <= top; n++)
		if (reach[n] && store_is_bool(s, n)) {
			buf_printf(&b, "pred N%u(var1 i) = ", n);
			node_body(&b, q, n);
			buf_puts(&b, ";\n");
		}
	/* One letter per position: at least one, no two. */
	buf_puts(&b, "pred Letter(var1 j) = (false");
	for (size_t t = 0; t < q->nletters; t++)
		buf_printf(&b, " | j in P%zu", t);
	buf_puts(&b, ")");
	for (size_t t = 0; t < q->nletters; t++)
		for (size_t u = t + 1; u < q->nletters; u++)
			buf_printf(&b, " & ~(j in P%zu & j in P%zu)", t, u);
	buf_puts(&b, ";\npred NoLetter(var1 j) = true");
	for (size_t t = 0; t < q->nletters; t++)
		buf_printf(&b, " & j notin P%zu", t);
	buf_puts(&b, ";\n");
	if (q->accept == ACCEPT_EOS)
		buf_puts(&b, "ex1 l: (all1 k: k <= l) & NoLetter(l) & "
			     "(all1 k: k < l => Letter(k))");
	else
		buf_puts(&b, "ex1 l: (all1 k: k <= l) & (all1 k: Letter(k))");
	buf_printf(&b, " & ~(N%u(l) <=> N%u(l));\n", q->root[0], q->root[1]);
	free(reach);
	return buf_take(&b);
}

/* ---- running MONA ---------------------------------------------------- */

typedef enum { RUN_OK, RUN_FAILED, RUN_TIMEOUT } RunStatus;

/* Runs `mona -q in` with stdout into the file out (TALLY_MONA overrides
 * the program). */
static RunStatus run_mona(const char *in, const char *out, double timeout)
{
	const char *prog = getenv("TALLY_MONA");
	if (!prog || !*prog)
		prog = "mona";
	pid_t pid = fork();
	if (pid < 0)
		return RUN_FAILED;
	if (pid == 0) {
		/* MONA ends with its caller (a portfolio arm may be killed:
		 * portfolio.h). */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int fd = open(out, O_WRONLY | O_TRUNC);
		int null = open("/dev/null", O_WRONLY);
		if (fd < 0 || null < 0 || dup2(fd, 1) < 0 || dup2(null, 2) < 0)
			_exit(126);
		execlp(prog, prog, "-q", in, (char *)NULL);
		_exit(127);
	}
	double deadline = timeout > 0 ? limit_now() + timeout : 0;
	int st;
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return RUN_FAILED;
		if (deadline && limit_now() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return RUN_TIMEOUT;
		}
		struct timespec ts = { 0, 2000000 };
		nanosleep(&ts, NULL);
	}
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? RUN_OK : RUN_FAILED;
}

/* The satisfying example of MONA's output as a word: "least length (n)"
 * then lines "P3 = {0,4,5}".  False when there is none or it does not
 * parse. */
static bool parse_example(const Query *q, const char *text, MethodResult *out)
{
	static const char key0[] = "A satisfying example of least length (";
	const char *at = strstr(text, key0);
	if (!at)
		return false;
	unsigned long n = strtoul(at + strlen(key0), NULL, 10);
	Sym *w = xmalloc((n ? n : 1) * sizeof *w);
	for (unsigned long i = 0; i < n; i++)
		w[i] = SYM_NONE;
	for (size_t t = 0; t < q->nletters; t++) {
		char key[32];
		snprintf(key, sizeof key, "\nP%zu = {", t);
		const char *p = strstr(at, key);
		if (!p)
			continue;
		p += strlen(key);
		while (*p && *p != '}') {
			char *end;
			unsigned long pos = strtoul(p, &end, 10);
			if (end == p)
				break;
			if (pos < n)
				w[pos] = q->alphabet[t];
			p = *end == ',' ? end + 1 : end;
		}
	}
	unsigned long len = q->accept == ACCEPT_EOS && n ? n - 1 : n;
	bool ok = true;
	for (unsigned long i = 0; i < len; i++) {
		ok = ok && w[i] != SYM_NONE;
		if (!ok)
			break;
		if (i > 0 && w[i] == w[i - 1])
			fmpz_add_ui(out->witness.count + out->witness.n - 1,
				    out->witness.count + out->witness.n - 1, 1);
		else
			runs_push_ui(&out->witness, w[i], 1);
	}
	free(w);
	return ok;
}

static void interpret(const Query *q, const char *prog, const char *text,
		      MethodResult *out)
{
	if (parse_example(q, text, out)) {
		out->status = MR_DIFFERENT;
		out->witness_shortest = true;
	} else if (strstr(text, "Formula is unsatisfiable")) {
		out->status = MR_EQUIVALENT;
		if (q->want_certificate) {
			Buf b = { 0 };
			buf_printf(&b, "mona: MONA found this M2L-Str formula "
				   "(\"the sides differ at the last "
				   "position\") unsatisfiable:\n%s", prog);
			out->certificate = buf_take(&b);
		}
	} else {
		runs_clear(&out->witness);
		out->status = MR_UNKNOWN;
		out->reason = xstrdup("unexpected output from mona");
	}
}

void mona_decide(const Query *q, MethodResult *out)
{
	const char *why;
	for (int r = 0; r < 2; r++)
		if (!mona_in_fragment(q->store, q->root[r], &why)) {
			out->status = MR_NOT_APPLICABLE;
			out->reason = xstrdup(why);
			return;
		}
	if (q->accept == ACCEPT_LAST && method_empty_word_differs(q)) {
		out->status = MR_DIFFERENT;
		out->witness_shortest = true;
		return;
	}
	const char *dir = getenv("TMPDIR");
	Buf in = { 0 }, outp = { 0 };
	buf_printf(&in, "%s/tally-mona-XXXXXX", dir && *dir ? dir : "/tmp");
	char *prog = program(q);
	int fd = mkstemp(in.data);
	bool written = fd >= 0 && write(fd, prog, strlen(prog)) ==
					(ssize_t)strlen(prog);
	if (fd >= 0)
		close(fd);
	buf_printf(&outp, "%s.out", in.data);
	int ofd = written ? open(outp.data, O_CREAT | O_EXCL | O_WRONLY, 0600)
			  : -1;
	if (ofd >= 0)
		close(ofd);
	RunStatus st = ofd >= 0 ? run_mona(in.data, outp.data, q->timeout)
				: RUN_FAILED;
	Diag quiet = { 0 }; /* a missing output is reported below */
	Source *text = st == RUN_OK ? source_read_file(outp.data, &quiet)
				    : NULL;
	if (text) {
		interpret(q, prog, text->text, out);
	} else {
		out->status = st == RUN_TIMEOUT ? MR_LIMIT : MR_UNKNOWN;
		out->reason = xstrdup(st == RUN_TIMEOUT
				? "time limit"
				: "could not run mona (is it installed?)");
	}
	if (fd >= 0)
		unlink(in.data);
	if (ofd >= 0)
		unlink(outp.data);
	if (text)
		source_free(text);
	free(prog);
	buf_free(&in);
	buf_free(&outp);
}
