/* check_word.c -- the token reader (word.c, issue 12) against a naive
 * reference written here: a line is split at every blank byte (space,
 * tab, CR, VT, FF), each token is compared byte for byte with every
 * letter, and an unknown one stops reading with the message of
 * cli.md.  Random inputs from a fixed seed over alphabets with
 * prefix-sharing, long (more than 16 bytes) and many letters, with odd
 * whitespace, CRLF, tabs, control bytes, over-long tokens and lines of
 * thousands of tokens; the reader is fed the whole input, byte by byte
 * and in random chunks.  One-character tokens also give the same
 * letters as the same word read as characters.
 */
#include <config.h>

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "core/cr_words.h"
#include "randgen.h"
#include "core/store.h"
#include "suites.h"
#include "core/word.h"
#include "word_log.h"

/* mode: WORD_LOG_WHOLE, _BYTES or _CHUNKS (1 to 300 bytes); flags as
 * word_log_run's. */
static char *read_with(const Alphabet *a, unsigned flags, const char *in,
		       size_t n, int mode)
{
	Buf log = {0};
	buf_puts(&log, "");
	word_log_run(a, flags, in, n, mode, 300, &log);
	return buf_take(&log);
}

/* ---- the reference --------------------------------------------------------- */

static bool blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* A letter as messages show it (cli.md): its first bytes, control bytes
 * as \xNN, at most 36 bytes of that, then "..." when cut. */
static void show_ref(Buf *b, const char *s, size_t n)
{
	size_t start = b->len, i = 0;
	for (; i < n && b->len - start < 36; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f)
			buf_printf(b, "\\x%02x", c);
		else
			buf_putc(b, (char)c);
	}
	if (i < n)
		buf_puts(b, "...");
}

static Sym letter_ref(const Alphabet *a, const char *s, size_t n)
{
	for (size_t i = 0; i < a->n; i++) {
		const char *name = sym_name(a->syms, a->letters[i]);
		if (strlen(name) == n && memcmp(name, s, n) == 0)
			return a->letters[i];
	}
	return a->other;
}

static char *read_ref(const Alphabet *a, const char *in, size_t n)
{
	Buf log = {0};
	buf_puts(&log, "");
	size_t word = 1, at = 0;
	bool ok = true;
	char *err = NULL;
	while (at < n && ok) {
		const char *nl = memchr(in + at, '\n', n - at);
		size_t end = nl ? (size_t)(nl - in) : n, pos = 0;
		Buf cur = {0};
		buf_puts(&cur, "");
		for (size_t i = at; i < end && ok;) {
			if (blank((unsigned char)in[i])) {
				i++;
				continue;
			}
			size_t j = i;
			while (j < end && !blank((unsigned char)in[j]))
				j++;
			Sym l = letter_ref(a, in + i, j - i);
			pos++;
			if (l == SYM_NONE) {
				Buf m = {0};
				buf_printf(&m, "tally: error: word %zu: unknown "
					       "letter '", word);
				show_ref(&m, in + i, j - i);
				char *al = alphabet_describe(a);
				buf_printf(&m, "' at position %zu (alphabet: "
					       "%s)%s\n", pos, al,
					   a->given ? "" : "; add letters with "
							   "--alphabet");
				free(al);
				err = buf_take(&m);
				ok = false;
			} else {
				buf_printf(&cur, "%u,", (unsigned)l);
			}
			i = j;
		}
		if (ok) {
			buf_printf(&log, "[%s|", cur.data);
			buf_append(&log, in + at, end - at);
			buf_puts(&log, "]\n");
		}
		buf_free(&cur);
		at = end + 1;
		word++;
	}
	buf_printf(&log, "ok=%d\n%s", ok, err ? err : "");
	free(err);
	return buf_take(&log);
}

/* ---- random inputs --------------------------------------------------------- */

static const char *const seps[] = {" ", " ", " ", " ", "  ", "\t", " \t ",
				   "\r", "\v", "\f", " \r "};

/* Bytes that are no letter: a letter's proper prefix or extension, a
 * letter with one byte changed, control bytes (NUL too), UTF-8, a token
 * longer than a block. */
static void junk(Buf *b, const Alphabet *a, Rng *g)
{
	const char *name = sym_name(a->syms,
				    a->letters[rng_below(g, a->n)]);
	switch (rng_below(g, 6)) {
	case 5: { /* one byte changed: the same length, a near miss */
		size_t n = strlen(name), at = rng_below(g, n);
		buf_append(b, name, n);
		b->data[b->len - n + at] = name[at] == 'Q' ? 'R' : 'Q';
		return;
	}
	case 0:
		buf_append(b, name, strlen(name) - (strlen(name) > 1));
		if (strlen(name) == 1)
			buf_putc(b, 'Z');
		return;
	case 1:
		buf_printf(b, "%sx", name);
		return;
	case 2:
		buf_append(b, name, strlen(name));
		buf_append(b, "\0\x01", 1 + rng_below(g, 2));
		return;
	case 3:
		buf_puts(b, "\xc3\xa9\x7f");
		return;
	default:
		for (size_t k = 70 + rng_below(g, 100); k > 0; k--)
			buf_putc(b, (char)('A' + rng_below(g, 26)));
		return;
	}
}

/* Lines of tokens; one in (1 in bad_in) tokens is junk, so most inputs
 * stop with a message at some point, many never do. */
static void random_input(Buf *b, const Alphabet *a, Rng *g,
			 size_t bad_in)
{
	size_t lines = 1 + rng_below(g, 6);
	for (size_t l = 0; l < lines; l++) {
		size_t ntok = rng_below(g, 4) == 0
				      ? rng_below(g, 4)
				      : rng_below(g, 3000);
		/* half the lines as token files are usually written, one
		 * space apart (the readers' fastest paths) */
		bool plain = rng_below(g, 2) == 0;
		if (rng_below(g, 4) == 0)
			buf_puts(b, seps[rng_below(g, 11)]);
		for (size_t t = 0; t < ntok; t++) {
			if (t)
				buf_puts(b, plain ? " " : seps[rng_below(g, 11)]);
			if (rng_below(g, bad_in) == 0) {
				junk(b, a, g);
				continue;
			}
			const char *name = sym_name(
				a->syms, a->letters[rng_below(g, a->n)]);
			buf_puts(b, name);
		}
		if (rng_below(g, 4) == 0)
			buf_puts(b, seps[rng_below(g, 11)]);
		if (l + 1 < lines || rng_below(g, 2))
			buf_puts(b, rng_below(g, 3) ? "\n" : "\r\n");
	}
}

/* ---- the tests --------------------------------------------------------------- */

#define TEN "0123456789"
static const char *const alphabets[] = {
	"a,ab,abc,abcd,b",
	"open,close",
	"(,),[,],{,}",
	"alpha,beta,gamma,delta,epsilon,zeta,eta,theta",
	/* 8 and 9, 16 and 17 bytes, prefixes of each other, and longer
	 * (one spans more than two 64-byte blocks) */
	"abcdefgh,abcdefghi,abcdefghijklmnop,abcdefghijklmnopq,"
	"abcdefghijklmnopqrstuvwxyz0123456789,x,\xc3\xa9,"
	TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN,
	/* the direct table (toktab.h): letters of 14 and 26 bytes that
	 * share their first 8 or 25 bytes, and of 31, 32 and 33 bytes
	 * around its key's end */
	"identifier_one,identifier_two,a_rather_long_letter_name,"
	"a_rather_long_letter_namf,b,abcdefghijklmnopqrstuvwxyz01234,"
	"abcdefghijklmnopqrstuvwxyz012345,abcdefghijklmnopqrstuvwxyz0123456",
};

static void check_alphabet(const char *spec, bool open_alpha,
			   uint64_t seed0)
{
	Store *s = store_new();
	Alphabet a;
	alphabet_init(&a, s, NULL, 0, spec);
	if (open_alpha)
		alphabet_open(&a);
	Rng g;
	rng_seed(&g, seed0);
	unsigned rounds = test_count(12);
	for (unsigned k = 0; k < rounds; k++) {
		Buf in = {0};
		buf_puts(&in, "");
		random_input(&in, &a, &g, k % 3 == 0 ? 2000 : 200000);
		char *want = read_ref(&a, in.data, in.len);
		/* modes 3 and 4: whole and in chunks, the letters as
		 * codes to a WordBytes (the evaluator's way) */
		for (int mode = 0; mode < 5; mode++) {
			char *got = read_with(&a, WORD_LOG_TOKENS |
						  (mode > 2 ? WORD_LOG_BYTES_SINK : 0),
					      in.data, in.len,
					      mode > 2 ? (mode == 3 ? WORD_LOG_WHOLE
								  : WORD_LOG_CHUNKS)
						       : mode);
			ck_assert_msg(strcmp(got, want) == 0,
				      "alphabet %s%s, round %u, mode %d "
				      "(%zu bytes):\n--- reader\n%.2000s\n"
				      "--- reference\n%.2000s",
				      spec, open_alpha ? " (open)" : "", k,
				      mode, in.len, got, want);
			free(got);
		}
		free(want);
		buf_free(&in);
	}
	alphabet_free(&a);
	store_free(s);
}

START_TEST(tokens_match_reference)
{
	check_alphabet(alphabets[_i], false, 0x5eed0000u + (uint64_t)_i);
}
END_TEST

START_TEST(open_alphabet_tokens)
{
	check_alphabet(alphabets[_i], true, 0x0be40000u + (uint64_t)_i);
}
END_TEST

/* Every letter of the direct table's alphabet with each byte changed in
 * turn, amid known tokens (so it is read by the 64-byte blocks): an
 * unknown token, as the reference says; the letter itself, known. */
START_TEST(near_misses)
{
	const char *spec = alphabets[sizeof alphabets / sizeof alphabets[0] - 1];
	Store *s = store_new();
	Alphabet a;
	alphabet_init(&a, s, NULL, 0, spec);
	for (size_t l = 0; l < a.n; l++) {
		const char *name = sym_name(a.syms, a.letters[l]);
		size_t n = strlen(name);
		for (size_t at = 0; at <= n; at++) {
			Buf in = {0};
			for (size_t k = 0; k < 12; k++)
				buf_printf(&in, "%s ", sym_name(a.syms,
						a.letters[k % a.n]));
			size_t from = in.len;
			buf_puts(&in, name);
			if (at < n) /* at == n: the letter itself */
				in.data[from + at] ^= 0x01;
			for (size_t k = 0; k < 12; k++)
				buf_printf(&in, " %s", sym_name(a.syms,
						a.letters[(k + l) % a.n]));
			buf_puts(&in, "\n");
			char *want = read_ref(&a, in.data, in.len);
			char *got = read_with(&a, true, in.data, in.len,
					      WORD_LOG_WHOLE);
			ck_assert_msg(strcmp(got, want) == 0,
				      "letter %s, byte %zu changed:\n--- reader\n"
				      "%s\n--- reference\n%s", name, at, got, want);
			free(got);
			free(want);
			buf_free(&in);
		}
	}
	alphabet_free(&a);
	store_free(s);
}
END_TEST

/* A log without the echoes (which differ between "a b" and "ab"):
 * "[LETTERS|ECHO]" lines become "[LETTERS]". */
static char *letters_of(char *log)
{
	char *to = log;
	for (const char *from = log; *from;) {
		if (*from == '|') {
			while (*from && *from != ']')
				from++;
			continue;
		}
		*to++ = *from++;
	}
	*to = '\0';
	return log;
}

/* "a b c" and "abc" are the same word, also across buffer edges. */
START_TEST(tokens_match_characters)
{
	Store *s = store_new();
	Alphabet a;
	alphabet_init(&a, s, NULL, 0, "abc");
	Rng g;
	rng_seed(&g, 77);
	for (int k = 0; k < 20; k++) {
		Buf chars = {0}, toks = {0};
		size_t len = rng_below(&g, 5000);
		for (size_t i = 0; i < len; i++) {
			char c = (char)('a' + rng_below(&g, 3));
			buf_putc(&chars, c);
			if (i)
				buf_puts(&toks, k % 2 ? " "
						      : seps[rng_below(&g, 11)]);
			buf_putc(&toks, c);
		}
		buf_puts(&chars, "\n");
		buf_puts(&toks, "\n");
		char *want = letters_of(read_with(&a, false, chars.data,
						  chars.len, WORD_LOG_WHOLE));
		for (int mode = 0; mode < 3; mode++) {
			char *got = letters_of(read_with(&a, true, toks.data,
							 toks.len, mode));
			ck_assert_str_eq(got, want);
			free(got);
			/* the characters and the tokens as a WordBytes
			 * gets them: byte runs and codes */
			got = letters_of(read_with(&a, WORD_LOG_TOKENS |
						       WORD_LOG_BYTES_SINK,
						   toks.data, toks.len, mode));
			ck_assert_str_eq(got, want);
			free(got);
			got = letters_of(read_with(&a, WORD_LOG_BYTES_SINK,
						   chars.data, chars.len, mode));
			ck_assert_str_eq(got, want);
			free(got);
		}
		free(want);
		buf_free(&chars);
		buf_free(&toks);
	}
	alphabet_free(&a);
	store_free(s);
}
END_TEST


/* The interpreter's word files (cr_words.h): fed whole, byte by byte or
 * in chunks, the filter gives what the token reader gives on the same
 * text with the dropped lines ("//" comments, blank lines) and the
 * blanks that start a line taken out by a naive line filter here. */
static void naive_cr_filter(const char *in, size_t n, Buf *out)
{
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(in + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - in) + 1 : n, j = i;
		while (j < end && (blank((unsigned char)in[j]) || in[j] == '\n'))
			j++;
		bool comment = end - i >= 2 && in[i] == '/' && in[i + 1] == '/';
		if (j < end && !comment) /* without its leading blanks */
			buf_append(out, in + j, end - j);
		i = end;
	}
}

START_TEST(cr_filter_matches_naive)
{
	static const char *const lines[] = {
		"// a comment ( ) x", "//", "/ ( )", "/", "", "  \t ", "\r",
		"( ) ( )", "x ( )", " ( ( ) )", "(\t)\r",
	};
	Store *s = store_new();
	Alphabet a;
	alphabet_init(&a, s, NULL, 0, "(,),/");
	Rng g;
	rng_seed(&g, 0xc7u);
	for (int k = 0; k < 40; k++) {
		Buf in = {0}, kept = {0};
		buf_puts(&in, "");
		buf_puts(&kept, "");
		for (size_t l = rng_below(&g, 30); l > 0; l--) {
			if (rng_below(&g, 3) == 0) { /* a long word line */
				for (size_t t = rng_below(&g, 400); t > 0; t--)
					buf_puts(&in, rng_below(&g, 2) ? "( " : ") ");
				buf_puts(&in, ")");
			} else {
				buf_puts(&in, lines[rng_below(&g, 11)]);
			}
			if (l > 1 || rng_below(&g, 2))
				buf_puts(&in, "\n");
		}
		naive_cr_filter(in.data, in.len, &kept);
		Buf want = {0};
		buf_puts(&want, "");
		word_log_run(&a, WORD_LOG_TOKENS, kept.data, kept.len,
			     WORD_LOG_WHOLE, 300, &want);
		for (int mode = 0; mode < 3; mode++) {
			Buf got = {0};
			buf_puts(&got, "");
			word_log_run(&a, WORD_LOG_CR, in.data, in.len, mode, 300,
				     &got);
			ck_assert_msg(strcmp(got.data, want.data) == 0,
				      "round %d, mode %d:\n%s\n--- filter\n%s\n"
				      "--- naive\n%s", k, mode, in.data,
				      got.data, want.data);
			buf_free(&got);
		}
		buf_free(&want);
		buf_free(&in);
		buf_free(&kept);
	}
	alphabet_free(&a);
	store_free(s);
}
END_TEST

Suite *word_suite(void)
{
	Suite *su = suite_create("word");
	TCase *tc = tcase_create("tokens");
	tcase_set_timeout(tc, 120 * test_multiplier());
	int n = (int)(sizeof alphabets / sizeof alphabets[0]);
	tcase_add_loop_test(tc, tokens_match_reference, 0, n);
	tcase_add_test(tc, near_misses);
	tcase_add_loop_test(tc, open_alphabet_tokens, 0, n);
	tcase_add_test(tc, tokens_match_characters);
	tcase_add_test(tc, cr_filter_matches_naive);
	suite_add_tcase(su, tc);
	return su;
}
