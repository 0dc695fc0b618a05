/* floor -- hand-written specialised recognisers, the benchmarks' floor.
 *
 * floor dyck1|majority reads words from stdin, one per line, and does the
 * same job as `tally eval -f dyck1` (or majority) on one-character
 * letters: echo the word, a tab and accept/reject.  It keeps only the
 * counters the language needs, so the time tally takes beyond this is the
 * price of generality.  Built with the same CFLAGS as tally.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct {
	int64_t x, y; /* dyck1: depth and lowest depth; majority: #a, #b */
} State;

static bool dyck1_step(State *s, char c)
{
	if (c == '(')
		s->x++;
	else if (c == ')') {
		if (--s->x < s->y)
			s->y = s->x;
	} else
		return false;
	return true;
}

static bool dyck1_accepts(const State *s)
{
	return s->x == 0 && s->y >= 0;
}

static bool majority_step(State *s, char c)
{
	if (c == 'a')
		s->x++;
	else if (c == 'b')
		s->y++;
	else
		return false;
	return true;
}

static bool majority_accepts(const State *s)
{
	return s->x > s->y;
}

int main(int argc, char **argv)
{
	bool dyck = argc == 2 && strcmp(argv[1], "dyck1") == 0;
	if (!dyck && !(argc == 2 && strcmp(argv[1], "majority") == 0)) {
		fprintf(stderr, "usage: floor dyck1|majority < WORDS\n");
		return 2;
	}
	static char buf[1 << 16];
	State s = {0, 0};
	bool all = true, pending = false;
	size_t got;
	uint64_t pos = 0;
	while ((got = fread(buf, 1, sizeof buf, stdin)) > 0) {
		size_t start = 0;
		for (size_t i = 0; i < got; i++) {
			if (buf[i] == '\n') {
				fwrite(buf + start, 1, i - start, stdout);
				bool ok = dyck ? dyck1_accepts(&s)
					       : majority_accepts(&s);
				printf("\t%s\n", ok ? "accept" : "reject");
				all = all && ok;
				s = (State){0, 0};
				start = i + 1;
				pos = 0;
				pending = false;
				continue;
			}
			pos++;
			pending = true;
			if (!(dyck ? dyck1_step(&s, buf[i])
				   : majority_step(&s, buf[i]))) {
				fprintf(stderr, "floor: unknown letter '%c' at "
					"position %llu\n", buf[i],
					(unsigned long long)pos);
				return 2;
			}
		}
		fwrite(buf + start, 1, got - start, stdout);
	}
	if (pending) { /* a last line without its newline */
		bool ok = dyck ? dyck1_accepts(&s) : majority_accepts(&s);
		printf("\t%s\n", ok ? "accept" : "reject");
		all = all && ok;
	}
	return all ? 0 : 1;
}
