/* gen_depth1.c -- the depth-1 baseline (see gen_depth1.h). */
#include <config.h>

#include "gen/gen_depth1.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/intmath.h"
#include "base/mem.h"
#include "core/print.h"

/* One family of counted atoms: features off..off+nf of a word, its
 * groups read from cells[fam], the search's bounds. */
typedef struct {
	int fam;
	size_t off, nf, groups, support;
	int64_t bound;
} AtomFamily;

size_t depth1_features(size_t nl)
{
	return nl + 2 * nl + nl * nl;
}

void depth1_word(size_t nl, const uint32_t *w, size_t n, bool label,
		 uint32_t *feat, uint32_t *cells)
{
	memset(feat, 0, depth1_features(nl) * sizeof *feat);
	for (size_t i = 1; i <= n; i++) {
		uint32_t a = w[i - 1];
		feat[a]++;
		feat[nl + a * 2 + i % 2]++;
		if (i >= 2)
			feat[3 * nl + a * nl + w[i - 2]]++;
	}
	size_t last = n ? w[n - 1] : nl, prev = n >= 2 ? w[n - 2] : nl;
	cells[0] = (uint32_t)(last * 2 + label);
	cells[1] = (uint32_t)((last * 2 + n % 2) * 2 + label);
	cells[2] = (uint32_t)((last * (nl + 1) + prev) * 2 + label);
}

/* The families searched for an alphabet of nl letters.  Letters: every
 * letter's count when there are few (coefficients up to 4); MOD and Y:
 * two counts at most with coefficients up to 2, one count when there
 * are many, none past 64 features: a few thousand vectors at most. */
static size_t families(size_t nl, AtomFamily *out)
{
	size_t k = 0;
	out[k++] = (AtomFamily){0, 0, nl, nl + 1, nl <= 4 ? nl : 2,
			    nl <= 2 ? 4 : nl <= 3 ? 3 : 2};
	size_t nf[2] = {2 * nl, nl * nl}, off[2] = {nl, 3 * nl};
	size_t groups[2] = {(nl + 1) * 2, (nl + 1) * (nl + 1)};
	for (int f = 0; f < 2; f++)
		if (nf[f] <= 64)
			out[k++] = (AtomFamily){f + 1, off[f], nf[f], groups[f],
					    nf[f] <= 16 ? 2 : 1, 2};
	return k;
}

/* The best rule of one family. */
typedef struct {
	uint64_t right;
	int64_t *coef;
	bool eq;
	int64_t thr;
	uint8_t *out; /* groups x 2: the label when C is false, true */
	bool found;
} Rule;

typedef struct {
	const AtomFamily *fam;
	size_t stride, kept;
	const uint32_t *feat, *cells;
	size_t cells_n; /* groups x 2 */
	int64_t *v;     /* per kept word */
	uint64_t *hist; /* range x cells_n */
	uint64_t *tot, *side;
	Rule best;
	int64_t *coef;
} Search;

static uint32_t cell_of(const Search *s, size_t i)
{
	return s->cells[i * DEPTH1_FAMILIES + (size_t)s->fam->fam];
}

/* Correct guesses when each group's words with C true are labelled by
 * their majority, and those with C false by theirs. */
static uint64_t split_right(const Search *s, const uint64_t *in)
{
	uint64_t right = 0;
	for (size_t c = 0; c < s->cells_n; c += 2) {
		uint64_t i0 = in[c], i1 = in[c + 1];
		uint64_t o0 = s->tot[c] - i0, o1 = s->tot[c + 1] - i1;
		right += (i0 > i1 ? i0 : i1) + (o0 > o1 ? o0 : o1);
	}
	return right;
}

static void take(Search *s, uint64_t right, bool eq, int64_t thr,
		 const uint64_t *in)
{
	Rule *b = &s->best;
	if (b->found && right <= b->right)
		return;
	b->found = true;
	b->right = right;
	b->eq = eq;
	b->thr = thr;
	memcpy(b->coef, s->coef, s->fam->nf * sizeof *b->coef);
	for (size_t c = 0; c < s->cells_n; c += 2) {
		uint64_t i0 = in[c], i1 = in[c + 1];
		uint64_t o0 = s->tot[c] - i0, o1 = s->tot[c + 1] - i1;
		b->out[c + 1] = i1 > i0;
		b->out[c] = o1 > o0;
	}
}

enum { DEPTH1_MAX_RANGE = 1 << 16 };

/* Every threshold of one coefficient vector. */
static void try_coef(Search *s)
{
	size_t nf = s->fam->nf;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	for (size_t i = 0; i < s->kept; i++) {
		const uint32_t *f = s->feat + i * s->stride + s->fam->off;
		int64_t v = 0;
		for (size_t a = 0; a < nf; a++)
			v += s->coef[a] * (int64_t)f[a];
		s->v[i] = v;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (s->kept == 0 || hi - lo >= DEPTH1_MAX_RANGE)
		return;
	size_t range = (size_t)(hi - lo) + 1, C = s->cells_n;
	s->hist = xrealloc(s->hist, range * C * sizeof *s->hist);
	memset(s->hist, 0, range * C * sizeof *s->hist);
	for (size_t i = 0; i < s->kept; i++)
		s->hist[(size_t)(s->v[i] - lo) * C + cell_of(s, i)]++;
	memset(s->side, 0, C * sizeof *s->side);
	for (size_t t = range; t-- > 0;) {
		const uint64_t *row = s->hist + t * C;
		bool any = false;
		for (size_t c = 0; c < C; c++) {
			s->side[c] += row[c];
			any |= row[c] != 0;
		}
		if (!any)
			continue;
		take(s, split_right(s, s->side), false, lo + (int64_t)t,
		     s->side);
		take(s, split_right(s, row), true, lo + (int64_t)t, row);
	}
}

/* Coefficient vectors with at most `support` nonzero entries in
 * [-bound, bound], the first nonzero positive, coprime: each comparison
 * up to sign once. */
static void each_coef(Search *s, size_t a, size_t support, bool seen,
		      int64_t g)
{
	if (a == s->fam->nf) {
		if (seen && g == 1)
			try_coef(s);
		return;
	}
	int64_t bound = s->fam->bound;
	for (int64_t c = seen ? -bound : 0; c <= bound; c++) {
		if (c != 0 && support == 0)
			continue;
		s->coef[a] = c;
		each_coef(s, a + 1, support - (c != 0), seen || c != 0,
			  c ? int64_gcd(g, c) : g);
	}
	s->coef[a] = 0;
}

static Rule search(const AtomFamily *fam, size_t stride, const uint32_t *feat,
		   const uint32_t *cells, size_t kept)
{
	Search s = {.fam = fam, .stride = stride, .kept = kept,
		    .feat = feat, .cells = cells,
		    .cells_n = fam->groups * 2};
	s.v = xmalloc((kept + 1) * sizeof *s.v);
	s.tot = xcalloc(s.cells_n, sizeof *s.tot);
	s.side = xcalloc(s.cells_n, sizeof *s.side);
	s.coef = xcalloc(fam->nf, sizeof *s.coef);
	s.best.coef = xcalloc(fam->nf, sizeof *s.best.coef);
	s.best.out = xcalloc(s.cells_n, 1);
	for (size_t i = 0; i < kept; i++)
		s.tot[cell_of(&s, i)]++;
	each_coef(&s, 0, fam->support, false, 0);
	free(s.v);
	free(s.hist);
	free(s.tot);
	free(s.side);
	free(s.coef);
	return s.best;
}

/* ---- the rule as TL ------------------------------------------------------ */

static void put_letter(const GenSpec *sp, Buf *b, size_t a)
{
	tl_print_letter(b, sp->store, sp->alpha->letters[a], SYNTAX_TL);
}

/* Feature j of the family, counted: "#[Q_a & MOD(2, 1)]". */
static void put_count(const GenSpec *sp, const AtomFamily *fam, Buf *b,
		      size_t j)
{
	size_t nl = sp->alpha->n;
	buf_puts(b, "#[");
	if (fam->fam == 0) {
		put_letter(sp, b, j);
	} else if (fam->fam == 1) {
		put_letter(sp, b, j / 2);
		buf_printf(b, " & MOD(2, %zu)", j % 2);
	} else {
		put_letter(sp, b, j / nl);
		buf_puts(b, " & Y ");
		put_letter(sp, b, j % nl);
	}
	buf_putc(b, ']');
}

/* The comparison: "#[Q_a] - 2 * #[Q_b] >= 3". */
static void put_comparison(const GenSpec *sp, const AtomFamily *fam, Buf *b,
			   const Rule *d)
{
	bool first = true;
	for (size_t a = 0; a < fam->nf; a++) {
		int64_t c = d->coef[a];
		if (!c)
			continue;
		if (!first)
			buf_puts(b, c < 0 ? " - " : " + ");
		int64_t m = c < 0 && !first ? -c : c;
		if (m != 1)
			buf_printf(b, "%lld * ", (long long)m);
		put_count(sp, fam, b, a);
		first = false;
	}
	const char *rel = d->eq ? "=" : ">=";
	if (d->thr < 0)
		buf_printf(b, " + %lld %s 0", -(long long)d->thr, rel);
	else
		buf_printf(b, " %s %lld", rel, (long long)d->thr);
}

/* Group g's atoms at the last position ("Q_a & Y Q_b"); false for the
 * empty word's group. */
static bool put_group(const GenSpec *sp, const AtomFamily *fam, Buf *b,
		      size_t g)
{
	size_t nl = sp->alpha->n;
	size_t last = fam->fam == 0 ? g : fam->fam == 1 ? g / 2 : g / (nl + 1);
	if (last == nl)
		return false;
	put_letter(sp, b, last);
	if (fam->fam == 1) {
		buf_printf(b, " & MOD(2, %zu)", g % 2);
	} else if (fam->fam == 2) {
		size_t prev = g % (nl + 1);
		buf_puts(b, " & ");
		if (prev == nl) {
			buf_puts(b, "!(Y true)");
		} else {
			buf_puts(b, "Y ");
			put_letter(sp, b, prev);
		}
	}
	return true;
}

static char *rule_formula(const GenSpec *sp, const AtomFamily *fam,
			  const Rule *d)
{
	Buf cmp = {0}, b = {0}, grp = {0};
	put_comparison(sp, fam, &cmp, d);
	buf_puts(&b, "");
	for (size_t g = 0; g < fam->groups; g++) {
		bool if_true = d->out[g * 2 + 1], if_false = d->out[g * 2];
		grp.len = 0;
		buf_puts(&grp, "");
		if (!put_group(sp, fam, &grp, g)) {
			/* the empty word: every count is 0 */
			bool holds = d->eq ? d->thr == 0 : 0 >= d->thr;
			if (holds ? if_true : if_false)
				buf_puts(&b, b.len ? " | #[true] < 1"
						   : "#[true] < 1");
			continue;
		}
		if (!if_true && !if_false)
			continue;
		buf_printf(&b, "%s(%s", b.len ? " | " : "", grp.data);
		if (if_true != if_false)
			buf_printf(&b, " & %s(%s)", if_true ? "" : "!",
				   cmp.data);
		buf_putc(&b, ')');
	}
	if (b.len == 0)
		buf_puts(&b, "false");
	buf_free(&cmp);
	buf_free(&grp);
	return buf_take(&b);
}

void depth1_best(const GenSpec *sp, const uint32_t *feat,
		 const uint32_t *cells, size_t kept, Depth1Result *out)
{
	size_t nl = sp->alpha->n;
	AtomFamily fam[DEPTH1_FAMILIES];
	size_t nfam = families(nl, fam);
	*out = (Depth1Result){0};
	for (size_t f = 0; f < nfam; f++) {
		Rule r = search(&fam[f], depth1_features(nl), feat, cells,
				kept);
		if (r.found && (!out->found || r.right > out->right)) {
			free(out->formula);
			out->found = true;
			out->right = r.right;
			out->formula = rule_formula(sp, &fam[f], &r);
		}
		free(r.coef);
		free(r.out);
	}
}

void depth1_result_free(Depth1Result *r)
{
	free(r->formula);
	r->formula = NULL;
}
