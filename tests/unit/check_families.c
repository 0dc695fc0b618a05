/* check_families.c -- the membership functions of src/families.c (tally
 * gen's labels) against the independently written ones of membership.c,
 * on every word up to a length; the RANGE parser; the family table; the
 * bounded draw of their random members. */
#include <config.h>

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "gen/families.h"
#include "membership.h"
#include "cli/cli.h"
#include "base/limit.h"
#include "suites.h"

/* The family and the membership.c language that define one set. */
static const struct {
	const char *family, *lang;
} same[] = {
	{"dyck1", "dyck1"},	  {"majority", "majority"},
	{"anbn", "anbn"},	  {"anbncn", "anbncn"},
	{"first-a", "first_a"},	  {"subseq-ab", "contains_ab"},
	{"d1", "ab_star"},	  {"parity-twosided", "parity2"},
};

static const MembershipLang *lang_named(const char *name)
{
	for (size_t i = 0; i < membership_nlangs; i++)
		if (strcmp(membership_langs[i].name, name) == 0)
			return &membership_langs[i];
	return NULL;
}

/* Calls check(w, n, ctx) on every word over alpha of length <= max. */
static void every_word(const char *alpha, size_t max,
		       void (*check)(const char *, size_t, const void *),
		       const void *ctx)
{
	size_t m = strlen(alpha);
	char w[16];
	size_t digit[16];
	ck_assert(max < sizeof w);
	for (size_t n = 0; n <= max; n++) {
		memset(digit, 0, sizeof digit);
		for (;;) {
			for (size_t i = 0; i < n; i++)
				w[i] = alpha[digit[i]];
			check(w, n, ctx);
			size_t i = n;
			while (i > 0 && ++digit[i - 1] == m)
				digit[--i] = 0;
			if (i == 0)
				break;
		}
	}
}

static void agree_fixed(const char *w, size_t n, const void *ctx)
{
	size_t i = *(const size_t *)ctx;
	const Family *f = family_find(same[i].family);
	const MembershipLang *l = lang_named(same[i].lang);
	ck_assert_msg(f->member(w, n, 0) == l->member(w, n),
		      "%s vs %s on '%.*s'", same[i].family, same[i].lang,
		      (int)n, w);
}

START_TEST(fixed_families)
{
	size_t i = (size_t)_i;
	const Family *f = family_find(same[i].family);
	const MembershipLang *l = lang_named(same[i].lang);
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(l);
	ck_assert_str_eq(f->alphabet, l->alphabet);
	every_word(f->alphabet, strlen(f->alphabet) == 2 ? 12 : 8,
		   agree_fixed, &i);
}
END_TEST

static void agree_lk(const char *w, size_t n, const void *ctx)
{
	long k = *(const long *)ctx;
	ck_assert(family_find("lk")->member(w, n, k) ==
		  membership_lk((unsigned)k, w, n));
}

/* E_k: L_k after deleting the e's. */
static void agree_ek(const char *w, size_t n, const void *ctx)
{
	long k = *(const long *)ctx;
	char rest[16];
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (w[i] != 'e')
			rest[m++] = w[i];
	ck_assert(family_find("ek")->member(w, n, k) ==
		  membership_lk((unsigned)k, rest, m));
}

START_TEST(lk_and_ek)
{
	for (long k = 1; k <= 6; k++) {
		every_word("ab", 12, agree_lk, &k);
		every_word("abe", 8, agree_ek, &k);
	}
}
END_TEST

/* Random members are members, of the length asked, for every family. */
START_TEST(positive_samples)
{
	FamilyRng r = {42};
	char w[64];
	for (size_t i = 0; i < family_count; i++) {
		const Family *f = &family_table[i];
		long k = f->kmin ? f->kmin + 2 : 0;
		if (f->values)
			continue; /* a sequence task: no members */
		for (size_t n = 0; n < sizeof w; n++)
			for (int t = 0; t < 5; t++) {
				memset(w, 'x', sizeof w);
				if (!f->positive(w, n, k, &r))
					continue;
				ck_assert_msg(f->member(w, n, k),
					      "%s: '%.*s'", f->name, (int)n, w);
				for (size_t j = 0; j < n; j++)
					ck_assert(strchr(f->alphabet, w[j]));
			}
	}
}
END_TEST

/* The sequence families' value functions against their definitions,
 * recounted from the start of the word at every position. */
static long occurrences(const char *w, size_t upto, char c)
{
	long k = 0;
	for (size_t j = 0; j <= upto; j++)
		k += w[j] == c;
	return k;
}

static void agree_values(const char *w, size_t n, const void *ctx)
{
	const char *name = ctx;
	long got[16];
	family_find(name)->values(w, n, 0, got);
	for (size_t i = 0; i < n; i++) {
		long a = occurrences(w, i, 'a'), b = occurrences(w, i, 'b');
		long want = strcmp(name, "histogram") == 0 ? occurrences(w, i, w[i])
			    : strcmp(name, "margin") == 0  ? a - b
							   : a;
		ck_assert_msg(got[i] == want, "%s: '%.*s' position %zu: %ld, "
			      "not %ld", name, (int)n, w, i + 1, got[i], want);
	}
}

START_TEST(sequence_values)
{
	static const char *const names[] = {"histogram", "margin", "count-a"};
	for (size_t i = 0; i < 3; i++) {
		ck_assert_ptr_nonnull(family_find(names[i])->values);
		every_word("ab", 10, agree_values, names[i]);
	}
}
END_TEST

START_TEST(ranges)
{
	size_t lo, hi;
	uint64_t v;
	ck_assert(number_parse_range("3", &lo, &hi) && lo == 3 && hi == 3);
	ck_assert(number_parse_range("1..5", &lo, &hi) && lo == 1 && hi == 5);
	ck_assert(number_parse_range("..7", &lo, &hi) && lo == 0 && hi == 7);
	ck_assert(number_parse_range("4..", &lo, &hi) && lo == 4 && hi == SIZE_MAX);
	ck_assert(!number_parse_range("", &lo, &hi));
	ck_assert(!number_parse_range("..", &lo, &hi));
	ck_assert(!number_parse_range("5..2", &lo, &hi));
	ck_assert(!number_parse_range("1...3", &lo, &hi));
	ck_assert(!number_parse_range("2:4", &lo, &hi));
	ck_assert(!number_parse_range("x", &lo, &hi));
	ck_assert(!number_parse_range("-1", &lo, &hi));
	ck_assert(!number_parse_range("+1", &lo, &hi));
	ck_assert(!number_parse_range("1.. 3", &lo, &hi));
	ck_assert(!number_parse_range("99999999999999999999", &lo, &hi));
	/* counts: 0..max, digits only; limit_parse_count: positive */
	ck_assert(number_parse_count("0", 5, &v) && v == 0);
	ck_assert(number_parse_count("5", 5, &v) && v == 5);
	ck_assert(!number_parse_count("6", 5, &v));
	ck_assert(!number_parse_count("", 5, &v));
	ck_assert(!number_parse_count(" 1", 5, &v));
	ck_assert(!number_parse_count("1K", 5, &v));
	ck_assert(!number_parse_count("-0", 5, &v));
	ck_assert(number_parse_count("18446744073709551615", UINT64_MAX, &v) &&
		  v == UINT64_MAX);
	ck_assert(!number_parse_count("18446744073709551616", UINT64_MAX, &v));
	ck_assert(!limit_parse_count("0", &v));
	ck_assert(limit_parse_count("7", &v) && v == 7);
}

START_TEST(table)
{
	for (size_t i = 0; i < family_count; i++) {
		const Family *f = &family_table[i];
		ck_assert_ptr_eq(family_find(f->name), f);
		ck_assert(f->formula);
		/* a language, or a sequence task (values only) */
		ck_assert(f->values ? !f->member && !f->positive && !f->kmin
				    : f->member && f->positive);
		ck_assert(strlen(f->definition) > 10);
		ck_assert(strlen(f->reference) > 10);
	}
	ck_assert_ptr_null(family_find("nosuch"));
}
END_TEST

/* A bound near 2/3 of 2^64: `next % n` would give a residue below n / 2
 * two times in three (the draws past n fold onto the low half); an
 * unbiased draw, one time in two. */
START_TEST(unbiased_draw)
{
	const uint64_t n = 0xaaaaaaaaaaaaaaabu;
	FamilyRng r = {20261123};
	unsigned low = 0, draws = 20000;
	for (unsigned i = 0; i < draws; i++) {
		uint64_t x = family_rng_below(&r, n);
		ck_assert_uint_lt(x, n);
		low += x < n / 2;
	}
	ck_assert_uint_gt(low, draws * 47 / 100);
	ck_assert_uint_lt(low, draws * 53 / 100);
}
END_TEST

Suite *families_suite(void)
{
	Suite *s = suite_create("families");
	TCase *tc = tcase_create("families");
	tcase_add_loop_test(tc, fixed_families, 0,
			    (int)(sizeof same / sizeof same[0]));
	tcase_add_test(tc, lk_and_ek);
	tcase_add_test(tc, positive_samples);
	tcase_add_test(tc, sequence_values);
	tcase_add_test(tc, ranges);
	tcase_add_test(tc, table);
	tcase_add_test(tc, unbiased_draw);
	suite_add_tcase(s, tc);
	return s;
}
