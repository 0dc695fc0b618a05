/* membership.c -- one small loop per language; see membership.h. */
#include <config.h>


#include "membership.h"

static size_t occurrences(char c, const char *w, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += w[i] == c;
	return k;
}

bool membership_lk(unsigned k, const char *w, size_t n)
{
	if (n == 0 || w[0] != 'a')
		return false;
	unsigned blocks = 1;
	for (size_t i = 1; i < n; i++)
		if (w[i] != w[i - 1])
			blocks++;
	return blocks == k;
}

bool membership_subseq(const char *p, const char *w, size_t n)
{
	for (size_t i = 0; i < n && *p; i++)
		if (w[i] == *p)
			p++;
	return *p == '\0';
}

static bool l1(const char *w, size_t n) { return membership_lk(1, w, n); }
static bool l2(const char *w, size_t n) { return membership_lk(2, w, n); }
static bool l3(const char *w, size_t n) { return membership_lk(3, w, n); }
static bool l4(const char *w, size_t n) { return membership_lk(4, w, n); }
static bool l5(const char *w, size_t n) { return membership_lk(5, w, n); }

static bool dyck1(const char *w, size_t n)
{
	long depth = 0;
	for (size_t i = 0; i < n; i++) {
		depth += w[i] == '(' ? 1 : -1;
		if (depth < 0)
			return false;
	}
	return depth == 0;
}

static bool majority(const char *w, size_t n)
{
	return occurrences('a', w, n) > occurrences('b', w, n);
}

/* a^m b^m with m >= 1 */
static bool anbn(const char *w, size_t n)
{
	if (n == 0 || n % 2 != 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (w[i] != (i < n / 2 ? 'a' : 'b'))
			return false;
	return true;
}

/* a^m b^m c^m with m >= 0 */
static bool anbncn(const char *w, size_t n)
{
	if (n % 3 != 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (w[i] != "abc"[i / (n / 3)])
			return false;
	return true;
}

static bool first_a(const char *w, size_t n)
{
	return n > 0 && w[0] == 'a';
}

static bool contains_a(const char *w, size_t n)
{
	return occurrences('a', w, n) > 0;
}

static bool contains_ab(const char *w, size_t n)
{
	return membership_subseq("ab", w, n);
}

static bool ends_a(const char *w, size_t n)
{
	return n > 0 && w[n - 1] == 'a';
}

static bool twice_b(const char *w, size_t n)
{
	return occurrences('a', w, n) == 2 * occurrences('b', w, n);
}

/* (ab)* */
static bool ab_star(const char *w, size_t n)
{
	if (n % 2 != 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (w[i] != (i % 2 == 0 ? 'a' : 'b'))
			return false;
	return true;
}

/* an odd number of 1s */
static bool parity2(const char *w, size_t n)
{
	return occurrences('1', w, n) % 2 == 1;
}

static bool factor_bb(const char *w, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (w[i - 1] == 'b' && w[i] == 'b')
			return true;
	return false;
}

/* The prelude's sub_w definitions: w a scattered subsequence. */
#define SUBSEQ(name, pattern)                                                 \
	static bool name(const char *w, size_t n)                             \
	{                                                                     \
		return membership_subseq(pattern, w, n);                      \
	}
SUBSEQ(sub_a, "a")
SUBSEQ(sub_b, "b")
SUBSEQ(sub_ba, "ba")
SUBSEQ(sub_aba, "aba")
SUBSEQ(sub_bab, "bab")
SUBSEQ(sub_abab, "abab")
SUBSEQ(sub_baba, "baba")
SUBSEQ(sub_ababa, "ababa")
SUBSEQ(sub_babab, "babab")

const MembershipLang membership_langs[] = {
	{"L_1", "ab", l1},
	{"L_2", "ab", l2},
	{"L_3", "ab", l3},
	{"L_4", "ab", l4},
	{"L_5", "ab", l5},
	{"dyck1", "()", dyck1},
	{"majority", "ab", majority},
	{"anbn", "ab", anbn},
	{"anbncn", "abc", anbncn},
	{"first_a", "ab", first_a},
	{"contains_a", "ab", contains_a},
	{"contains_ab", "ab", contains_ab},
	{"ends_a", "ab", ends_a},
	{"twice_b", "ab", twice_b},
	{"ab_star", "ab", ab_star},
	{"parity2", "01", parity2},
	{"factor_bb", "ab", factor_bb},
	{"sub_a", "ab", sub_a},
	{"sub_b", "ab", sub_b},
	{"sub_ab", "ab", contains_ab},
	{"sub_ba", "ab", sub_ba},
	{"sub_aba", "ab", sub_aba},
	{"sub_bab", "ab", sub_bab},
	{"sub_abab", "ab", sub_abab},
	{"sub_baba", "ab", sub_baba},
	{"sub_ababa", "ab", sub_ababa},
	{"sub_babab", "ab", sub_babab},
};
const size_t membership_nlangs =
	sizeof membership_langs / sizeof membership_langs[0];
