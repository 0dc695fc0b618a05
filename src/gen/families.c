/* families.c -- the named families: formulas, membership, random members.
 *
 * The membership functions follow the definitions literally (count
 * blocks, compare letter counts, scan once) and share nothing with the
 * formulas, which are written as the papers give them.
 */
#include <config.h>

#include "gen/families.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"
#include "base/splitmix.h"

uint64_t family_rng_below(FamilyRng *r, uint64_t n)
{
	return splitmix64_below(&r->state, n);
}

/* ---- formulas ----------------------------------------------------------- */

static char *copy(const char *text)
{
	Buf b = {0};
	buf_puts(&b, text);
	return buf_take(&b);
}

/* The alternating pattern of length m starting with `first`, as a
 * subsequence test (Knee-Deep §6.3, consuming the pattern from the right):
 * S(x) = 1 <= #[Q_x], S(p x) = 1 <= #[Q_x & S(p)].  Alternating patterns
 * need no strict past.  Depth m. */
static void subsequence(Buf *b, char first, long m)
{
	char last = (m % 2 == 1) ? first : (first == 'a' ? 'b' : 'a');
	buf_printf(b, "1 <= #[Q_%c", last);
	if (m > 1) {
		buf_puts(b, " & ");
		subsequence(b, first, m - 1);
	}
	buf_putc(b, ']');
}

/* L_k = A_k minus B_k: abab... is a subsequence, baba... is not. */
static char *lk_formula(long k)
{
	Buf b = {0};
	subsequence(&b, 'a', k);
	buf_puts(&b, " & !(");
	subsequence(&b, 'b', k);
	buf_putc(&b, ')');
	return buf_take(&b);
}

/* The prediction task for L_k (k >= 3; Knee-Deep cor:prediction_task_depth):
 * on prefixes of members, "blocks 2..k-1 were seen (the pattern baba... of
 * length k-2) and the current letter is that of block k".  Depth k-2. */
static char *lk_predict_formula(long k)
{
	Buf b = {0};
	subsequence(&b, 'b', k - 2);
	buf_printf(&b, " & Q_%c", k % 2 == 1 ? 'a' : 'b');
	return buf_take(&b);
}

/* The domain of lk-predict: nonempty words that start with a and have at
 * most k blocks (abab... of length k + 1 is not a subsequence). */
static char *lk_prefix_formula(long k)
{
	Buf b = {0};
	buf_puts(&b, "1 <= #[Q_a & #[Q_b] < 1] & !(");
	subsequence(&b, 'a', k + 1);
	buf_putc(&b, ')');
	return buf_take(&b);
}

#define FIXED_FORMULA(fn, text) \
	static char *fn(long k) { (void)k; return copy(text); }

FIXED_FORMULA(dyck1_formula, "#['('] = #[')'] & #[#['('] < #[')']] = 0")
FIXED_FORMULA(majority_formula, "#[Q_b] < #[Q_a]")
FIXED_FORMULA(anbn_formula,
	      "#[Q_a & 1 <= #[Q_b]] < 1 & #[Q_a] = #[Q_b] & #[Q_a] >= 1")
FIXED_FORMULA(anbncn_formula,
	      "#[Q_b & #[Q_c] = 0] = #[Q_b] & #[Q_a & #[Q_b | Q_c] = 0] = #[Q_a]"
	      " & #[Q_a] = #[Q_b] & #[Q_b] = #[Q_c]")
FIXED_FORMULA(first_a_formula, "1 <= #[Q_a & #[Q_b] < 1]")
FIXED_FORMULA(subseq_ab_formula, "1 <= #[Q_b & 1 <= #[Q_a]]")
FIXED_FORMULA(d1_formula,
	      "#[!(#[Q_b] <= #[Q_a] & #[Q_a] <= #[Q_b] + 1)] < 1"
	      " & #[Q_a] = #[Q_b]")
/* The sequence tasks, spelled otherwise than the prelude's entries
 * (logic/README.md §8), which the tests compare them with. */
FIXED_FORMULA(histogram_formula, "(Q_b ? #[Q_b] : #[Q_a])")
FIXED_FORMULA(margin_formula, "#[Q_a] + -1 * #[Q_b]")
FIXED_FORMULA(count_a_formula, "#[Q_a]")
FIXED_FORMULA(parity_formula, "1 <= #[Q_1 & #[Q_1] = #>[Q_1]]")

/* ---- membership --------------------------------------------------------- */

static size_t count_of(const char *w, size_t n, char c)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += w[i] == c;
	return k;
}

/* The number of maximal blocks of a nonempty word over {a, b} that starts
 * with a; 0 otherwise. */
static long ab_blocks(const char *w, size_t n)
{
	if (n == 0 || w[0] != 'a')
		return 0;
	long blocks = 1;
	for (size_t i = 0; i < n; i++) {
		if (w[i] != 'a' && w[i] != 'b')
			return 0;
		if (i > 0 && w[i] != w[i - 1])
			blocks++;
	}
	return blocks;
}

static bool lk_member(const char *w, size_t n, long k)
{
	return ab_blocks(w, n) == k;
}

/* Prefixes of members of L_k are the words of L_1 ... L_k. */
static bool lk_prefix(const char *w, size_t n, long k)
{
	long b = ab_blocks(w, n);
	return b >= 1 && b <= k;
}

/* E_k: L_k after deleting every e. */
static bool ek_member(const char *w, size_t n, long k)
{
	char *rest = xmalloc(n + 1);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (w[i] != 'e')
			rest[m++] = w[i];
	bool in = ab_blocks(rest, m) == k;
	free(rest);
	return in;
}

static bool dyck1_member(const char *w, size_t n, long k)
{
	long depth = 0;
	for (size_t i = 0; i < n && depth >= 0; i++)
		depth += w[i] == '(' ? 1 : -1;
	return depth == 0;
}

static bool majority_member(const char *w, size_t n, long k)
{
	return count_of(w, n, 'a') > count_of(w, n, 'b');
}

/* w = x1^m x2^m ... (the letters of xs in order), m >= min. */
static bool equal_runs(const char *w, size_t n, const char *xs, size_t min)
{
	size_t r = strlen(xs);
	if (n % r != 0 || n / r < min)
		return false;
	size_t m = n / r;
	for (size_t i = 0; i < n; i++)
		if (w[i] != xs[i / m])
			return false;
	return true;
}

static bool anbn_member(const char *w, size_t n, long k)
{
	return equal_runs(w, n, "ab", 1);
}

static bool anbncn_member(const char *w, size_t n, long k)
{
	return equal_runs(w, n, "abc", 0);
}

static bool first_a_member(const char *w, size_t n, long k)
{
	return n > 0 && w[0] == 'a';
}

static bool subseq_ab_member(const char *w, size_t n, long k)
{
	const char *a = memchr(w, 'a', n);
	return a && memchr(a, 'b', n - (size_t)(a - w)) != NULL;
}

static bool d1_member(const char *w, size_t n, long k)
{
	if (n % 2 != 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (w[i] != "ab"[i % 2])
			return false;
	return true;
}

static bool parity_member(const char *w, size_t n, long k)
{
	return count_of(w, n, '1') % 2 == 1;
}

/* ---- values of the sequence tasks -------------------------------------- */

/* How often the letter at each position has occurred up to it: a table
 * of running counts per byte. */
static void histogram_values(const char *w, size_t n, long k, long *out)
{
	long seen[256] = {0};
	for (size_t i = 0; i < n; i++)
		out[i] = ++seen[(unsigned char)w[i]];
}

/* The running difference of a's and b's. */
static void margin_values(const char *w, size_t n, long k, long *out)
{
	long d = 0;
	for (size_t i = 0; i < n; i++) {
		d += w[i] == 'a' ? 1 : w[i] == 'b' ? -1 : 0;
		out[i] = d;
	}
}

static void count_a_values(const char *w, size_t n, long k, long *out)
{
	long a = 0;
	for (size_t i = 0; i < n; i++)
		out[i] = a += w[i] == 'a';
}

/* ---- random members ----------------------------------------------------- */

static void fill_random(char *w, size_t n, const char *alphabet,
			FamilyRng *r)
{
	size_t m = strlen(alphabet);
	for (size_t i = 0; i < n; i++)
		w[i] = alphabet[family_rng_below(r, m)];
}

/* k blocks over n letters: k - 1 distinct switch points among 1..n-1,
 * as in the data generator of Knee-Deep's experiments (uniform blocks
 * lengths, hence long blocks for long words). */
static bool lk_positive(char *w, size_t n, long k, FamilyRng *r)
{
	if (n < (size_t)k)
		return false;
	memset(w, 0, n);
	for (long s = 1; s < k; s++) { /* mark k - 1 distinct switches */
		size_t at;
		do
			at = 1 + family_rng_below(r, n - 1);
		while (w[at]);
		w[at] = 1;
	}
	char c = 'a';
	for (size_t i = 0; i < n; i++) {
		if (w[i])
			c = c == 'a' ? 'b' : 'a';
		w[i] = c;
	}
	return true;
}

/* An L_k word with e's inserted at random places (about a third). */
static bool ek_positive(char *w, size_t n, long k, FamilyRng *r)
{
	if (n < (size_t)k)
		return false;
	size_t es = family_rng_below(r, (n - (size_t)k) / 2 + 1);
	char *core = xmalloc(n + 1);
	lk_positive(core, n - es, k, r);
	memset(w, 0, n);
	for (size_t placed = 0; placed < es;) {
		size_t at = family_rng_below(r, n);
		if (!w[at]) {
			w[at] = 'e';
			placed++;
		}
	}
	for (size_t i = 0, j = 0; i < n; i++)
		if (!w[i])
			w[i] = core[j++];
	free(core);
	return true;
}

/* A random walk that never goes below zero and returns to it (not
 * uniform over the Dyck words, which is not needed here). */
static bool dyck1_positive(char *w, size_t n, long k, FamilyRng *r)
{
	if (n % 2 != 0)
		return false;
	size_t opens = n / 2, depth = 0;
	for (size_t i = 0; i < n; i++) {
		bool open = depth == 0 ||
			    (opens > 0 && family_rng_below(r, 2) == 0);
		w[i] = open ? '(' : ')';
		opens -= open;
		depth += open ? 1 : (size_t)-1;
	}
	return true;
}

static bool majority_positive(char *w, size_t n, long k, FamilyRng *r)
{
	if (n == 0)
		return false;
	fill_random(w, n, "ab", r);
	size_t a = count_of(w, n, 'a'), b = n - a;
	if (a < b) /* swap the letters */
		for (size_t i = 0; i < n; i++)
			w[i] = w[i] == 'a' ? 'b' : 'a';
	if (a == b)
		*(char *)memchr(w, 'b', n) = 'a';
	return true;
}

static bool runs_positive(char *w, size_t n, const char *xs, size_t min)
{
	size_t r = strlen(xs);
	if (n % r != 0 || n / r < min)
		return false;
	for (size_t i = 0; i < n; i++)
		w[i] = xs[i / (n / r)];
	return true;
}

static bool anbn_positive(char *w, size_t n, long k, FamilyRng *r)
{
	return runs_positive(w, n, "ab", 1);
}

static bool anbncn_positive(char *w, size_t n, long k, FamilyRng *r)
{
	return runs_positive(w, n, "abc", 0);
}

static bool first_a_positive(char *w, size_t n, long k, FamilyRng *r)
{
	if (n == 0)
		return false;
	fill_random(w, n, "ab", r);
	w[0] = 'a';
	return true;
}

static bool subseq_ab_positive(char *w, size_t n, long k, FamilyRng *r)
{
	if (n < 2)
		return false;
	fill_random(w, n, "ab", r);
	size_t i = family_rng_below(r, n - 1);
	w[i] = 'a';
	w[i + 1 + family_rng_below(r, n - 1 - i)] = 'b';
	return true;
}

static bool d1_positive(char *w, size_t n, long k, FamilyRng *r)
{
	if (n % 2 != 0)
		return false;
	for (size_t i = 0; i < n; i++)
		w[i] = "ab"[i % 2];
	return true;
}

static bool parity_positive(char *w, size_t n, long k, FamilyRng *r)
{
	if (n == 0)
		return false;
	fill_random(w, n, "01", r);
	if (count_of(w, n, '1') % 2 == 0) {
		size_t i = family_rng_below(r, n);
		w[i] = w[i] == '1' ? '0' : '1';
	}
	return true;
}

/* ---- the table ---------------------------------------------------------- */

#define KNEE_DEEP "Yang, Cadilhac & Chiang 2025, Knee-Deep in C-RASP, arXiv 2506.16055"
#define COUNTING "Yang & Chiang 2024, Counting Like Transformers, arXiv 2404.04393"

const Family family_table[] = {
	{"lk", "ab", 1,
	 "L_k: exactly k nonempty alternating blocks starting with a "
	 "(a+, a+b+, a+b+a+, ...); needs depth k",
	 KNEE_DEEP ", §6.3 and thm:TLCl_depth",
	 lk_formula, lk_member, NULL, lk_positive, NULL, NULL},
	{"lk-predict", "ab", 3,
	 "next-token prediction for L_k: agree with L_k on every prefix of "
	 "its members (k >= 3); needs depth k-2",
	 KNEE_DEEP ", def:prediction_task, cor:prediction_task_depth",
	 lk_predict_formula, lk_member, lk_prefix, lk_positive,
	 lk_prefix_formula, NULL},
	{"ek", "abe", 1,
	 "E_k: L_k with a neutral letter e (a word is in E_k iff deleting "
	 "its e's gives a word of L_k); the L_k formula unchanged",
	 KNEE_DEEP ", positional encodings (v2+)",
	 lk_formula, ek_member, NULL, ek_positive, NULL, NULL},
	{"dyck1", "()", 0,
	 "Dyck-1: balanced parentheses, the empty word included; depth 2",
	 COUNTING "; Knee-Deep Example 2.3",
	 dyck1_formula, dyck1_member, NULL, dyck1_positive, NULL, NULL},
	{"majority", "ab", 0, "MAJORITY: more a's than b's; depth 1",
	 COUNTING, majority_formula, majority_member, NULL,
	 majority_positive, NULL, NULL},
	{"anbn", "ab", 0, "a^n b^n, n >= 1; depth 2",
	 "a standard counting language; formula of tally's prelude "
	 "(logic/README.md §8)",
	 anbn_formula, anbn_member, NULL, anbn_positive, NULL, NULL},
	{"anbncn", "abc", 0, "a^n b^n c^n, n >= 0 (COUNT(3)); depth 2",
	 COUNTING ", the COUNT(3) program as a formula",
	 anbncn_formula, anbncn_member, NULL, anbncn_positive, NULL, NULL},
	{"first-a", "ab", 0,
	 "the first letter is a; depth 2 (depth 1 cannot: abb vs bab)",
	 KNEE_DEEP " (witness pairs of the proof of theorem TLCl_depth)",
	 first_a_formula, first_a_member, NULL, first_a_positive, NULL,
	 NULL},
	{"subseq-ab", "ab", 0,
	 "ab is a scattered subsequence (Sigma* a Sigma* b Sigma*); depth 2",
	 KNEE_DEEP ", §6.3 subsequence tests",
	 subseq_ab_formula, subseq_ab_member, NULL, subseq_ab_positive, NULL,
	 NULL},
	{"d1", "ab", 0, "D_1 = (ab)*, bounded Dyck of depth 1; depth 2",
	 "Yang, Veseli, Barloy et al., arXiv 2608.13433, Def. 7",
	 d1_formula, d1_member, NULL, d1_positive, NULL, NULL},
	{"parity-twosided", "01", 0,
	 "PARITY (an odd number of 1s) in the two-sided logic TL[#<, #>]; "
	 "not definable with past counts only",
	 KNEE_DEEP " (two-sided logic; Lean ParityTwoSided)",
	 parity_formula, parity_member, NULL, parity_positive, NULL, NULL},
	{"histogram", "ab", 0,
	 "HISTOGRAM (sequence): at every position, how often its letter has "
	 "occurred so far (inclusive); depth 1",
	 "Weiss, Goldberg & Yahav 2021, Thinking Like Transformers (RASP), "
	 "arXiv 2106.06981",
	 histogram_formula, NULL, NULL, NULL, NULL, histogram_values},
	{"margin", "ab", 0,
	 "running majority margin (sequence): #a - #b at every position; "
	 "depth 1 (MAJORITY is margin > 0 at the last one)",
	 COUNTING " (the counts behind MAJORITY)",
	 margin_formula, NULL, NULL, NULL, NULL, margin_values},
	{"count-a", "ab", 0,
	 "running count (sequence): the number of a's up to every position; "
	 "depth 1",
	 COUNTING " (counting a letter, the basic C-RASP operation)",
	 count_a_formula, NULL, NULL, NULL, NULL, count_a_values},
};
const size_t family_count = sizeof family_table / sizeof family_table[0];

const Family *family_find(const char *name)
{
	for (size_t i = 0; i < family_count; i++)
		if (strcmp(family_table[i].name, name) == 0)
			return &family_table[i];
	return NULL;
}
