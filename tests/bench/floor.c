/* floor -- hand-written specialised recognisers, the benchmarks' floor.
 *
 * floor dyck1|majority reads words from stdin, one per line, and does the
 * same job as `tally eval -f dyck1` (or majority) on one-character
 * letters: echo the word, a tab and accept/reject.  It keeps only the
 * counters the language needs, so the time tally takes beyond this is the
 * price of generality.  Built with the same CFLAGS as tally.
 *
 * floor tokens L1 L2 reads lines of tokens (blank-separated) and prints
 * accept or reject for each, as `tally eval --no-echo --tokens -f
 * '#[Q_L1] > #[Q_L2]'` does for genword's words (tokens one space
 * apart): the C library's memchr to each token's end and two
 * comparisons, a token that is neither letter an error.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct {
	int64_t x, y; /* dyck1: depth and lowest depth; majority: #a - #b */
	bool bad;     /* a character outside the alphabet was seen */
} State;

/* The inner loops: one pass over a run of letters with no newline,
 * written so the compiler can keep everything in registers. */
static void dyck1_run(State *s, const char *p, size_t n)
{
	int64_t d = s->x, lo = s->y;
	bool bad = false;
	for (size_t i = 0; i < n; i++) {
		d += p[i] == '(' ? 1 : -1;
		lo = d < lo ? d : lo;
		bad |= (p[i] != '(') & (p[i] != ')');
	}
	s->x = d;
	s->y = lo;
	s->bad |= bad;
}

static bool dyck1_accepts(const State *s)
{
	return s->x == 0 && s->y >= 0;
}

static void majority_run(State *s, const char *p, size_t n)
{
	int64_t a = 0, b = 0;
	for (size_t i = 0; i < n; i++) {
		a += p[i] == 'a';
		b += p[i] == 'b';
	}
	s->x += a - b;
	s->bad |= (size_t)(a + b) != n;
}

static bool majority_accepts(const State *s)
{
	return s->x > 0;
}

/* The tokens' floor: lines of tokens from stdin, #L1 > #L2 per line. */
static int tokens_main(const char *l1, const char *l2)
{
	static char buf[1 << 20];
	size_t n1 = strlen(l1), n2 = strlen(l2), have = 0;
	int64_t diff = 0;
	bool all = true, pending = false, eof = false;
	while (!eof) {
		size_t got = fread(buf + have, 1, sizeof buf - have, stdin);
		eof = got == 0;
		have += got;
		const char *p = buf, *end = buf + have;
		while (p < end) {
			if (*p == '\n') {
				bool ok = diff > 0;
				puts(ok ? "accept" : "reject");
				all = all && ok;
				diff = 0;
				pending = false;
				p++;
				continue;
			}
			if ((unsigned char)*p <= ' ') {
				p++;
				continue;
			}
			/* genword's tokens are one space apart: the C
			 * library's vector search for it, or the line's end */
			const char *q = memchr(p, ' ', (size_t)(end - p));
			const char *nl = memchr(p, '\n', (size_t)((q ? q : end) - p));
			q = nl ? nl : q ? q : end;
			if (q == end && !eof)
				break; /* the token goes on in the next read */
			size_t len = (size_t)(q - p);
			if (len == n1 && memcmp(p, l1, n1) == 0)
				diff++;
			else if (len == n2 && memcmp(p, l2, n2) == 0)
				diff--;
			else {
				fprintf(stderr, "floor: unknown letter\n");
				return 2;
			}
			pending = true;
			p = q;
		}
		have = (size_t)(end - p);
		memmove(buf, p, have);
		if (have == sizeof buf) {
			fprintf(stderr, "floor: token too long\n");
			return 2;
		}
	}
	if (pending) { /* a last line without its newline */
		bool ok = diff > 0;
		puts(ok ? "accept" : "reject");
		all = all && ok;
	}
	return all ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "tokens") == 0)
		return tokens_main(argv[2], argv[3]);
	bool dyck = argc == 2 && strcmp(argv[1], "dyck1") == 0;
	if (!dyck && !(argc == 2 && strcmp(argv[1], "majority") == 0)) {
		fprintf(stderr, "usage: floor dyck1|majority < WORDS\n"
				"       floor tokens L1 L2 < WORDS\n");
		return 2;
	}
	void (*step)(State *, const char *, size_t) =
		dyck ? dyck1_run : majority_run;
	bool (*accepts)(const State *) =
		dyck ? dyck1_accepts : majority_accepts;
	static char buf[1 << 20];
	State s = {0, 0, false};
	bool all = true, pending = false;
	size_t got;
	while ((got = fread(buf, 1, sizeof buf, stdin)) > 0) {
		const char *p = buf, *end = buf + got;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *stop = nl ? nl : end;
			step(&s, p, (size_t)(stop - p));
			fwrite(p, 1, (size_t)(stop - p), stdout);
			pending = true;
			if (s.bad) {
				fprintf(stderr, "floor: unknown letter\n");
				return 2;
			}
			if (!nl)
				break;
			bool ok = accepts(&s);
			printf("\t%s\n", ok ? "accept" : "reject");
			all = all && ok;
			s = (State){0, 0, false};
			pending = false;
			p = nl + 1;
		}
	}
	if (pending) { /* a last line without its newline */
		bool ok = accepts(&s);
		printf("\t%s\n", ok ? "accept" : "reject");
		all = all && ok;
	}
	return all ? 0 : 1;
}
