/* genword -- a random word for the benchmarks, written to stdout.
 *
 * genword ALPHABET LENGTH [SEED] prints LENGTH characters drawn uniformly
 * from ALPHABET (one character per letter) and a newline.  The stream is
 * generated on the fly in fixed-size blocks, so a 10^9-symbol word can be
 * piped into tally without ever being stored.  The same seed gives the
 * same word.  An ALPHABET with commas is a list of letters ("open,close"):
 * the word is printed as tokens, one space apart; with the same seed it
 * is the same word as over one character per letter ("open,close" and
 * "ab" give "open close close" and "abb").
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64: tiny, fast, and good enough to make words look random */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 4 || argv[1][0] == '\0') {
		fprintf(stderr, "usage: genword ALPHABET LENGTH [SEED]\n");
		return 2;
	}
	/* the letters: one character each, or the comma-separated names */
	char *alpha = argv[1];
	const char *names[256];
	size_t lens[256];
	uint64_t k = 0;
	bool tokens = strchr(alpha, ',') != NULL;
	for (char *p = alpha; *p && k < 256; k++) {
		names[k] = p;
		lens[k] = tokens ? strcspn(p, ",") : 1;
		if (lens[k] > 1000) {
			fprintf(stderr, "genword: letters are at most 1000 bytes\n");
			return 2;
		}
		p += lens[k];
		if (tokens && *p == ',')
			p++;
	}
	errno = 0;
	char *end;
	unsigned long long len = strtoull(argv[2], &end, 10);
	if (errno || *end) {
		fprintf(stderr, "genword: bad length '%s'\n", argv[2]);
		return 2;
	}
	uint64_t seed = argc == 4 ? strtoull(argv[3], NULL, 10) : 1;
	static char block[1 << 16];
	if (!tokens) { /* the fast loop: streams of 10^9 symbols */
		while (len > 0) {
			size_t m = len < sizeof block ? (size_t)len : sizeof block;
			for (size_t i = 0; i < m; i++)
				block[i] = alpha[((next(&seed) >> 32) * k) >> 32];
			if (fwrite(block, 1, m, stdout) != m)
				return 1; /* a closed pipe: the reader has its answer */
			len -= m;
		}
		putchar('\n');
		return fflush(stdout) == 0 ? 0 : 1;
	}
	size_t fill = 0;
	for (uint64_t i = 0; i < len; i++) {
		uint64_t c = ((next(&seed) >> 32) * k) >> 32;
		if (fill + lens[c] + 1 > sizeof block) {
			if (fwrite(block, 1, fill, stdout) != fill)
				return 1;
			fill = 0;
		}
		if (i > 0)
			block[fill++] = ' ';
		memcpy(block + fill, names[c], lens[c]);
		fill += lens[c];
	}
	if (fwrite(block, 1, fill, stdout) != fill)
		return 1;
	putchar('\n');
	return fflush(stdout) == 0 ? 0 : 1;
}
