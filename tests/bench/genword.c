/* genword -- a random word for the benchmarks, written to stdout.
 *
 * genword ALPHABET LENGTH [SEED] prints LENGTH characters drawn uniformly
 * from ALPHABET (one character per letter) and a newline.  The stream is
 * generated on the fly in fixed-size blocks, so a 10^9-symbol word can be
 * piped into tally without ever being stored.  The same seed gives the
 * same word.
 */
#include <errno.h>
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
	const char *alpha = argv[1];
	uint64_t k = strlen(alpha);
	errno = 0;
	char *end;
	unsigned long long len = strtoull(argv[2], &end, 10);
	if (errno || *end) {
		fprintf(stderr, "genword: bad length '%s'\n", argv[2]);
		return 2;
	}
	uint64_t seed = argc == 4 ? strtoull(argv[3], NULL, 10) : 1;
	static char block[1 << 16];
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
