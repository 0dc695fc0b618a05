/* gen_report.c -- the leakage report (see gen_report.h). */
#include <config.h>

#include "gen/gen_report.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "gen/gen_rng.h"
#include "core/json.h"
#include "base/mem.h"
#include "core/print.h"
#include "base/share.h"
#include "base/vec.h"
#include "gen/gen_values.h"

typedef struct {
	size_t n;
	const char *why;
} LeftOut;

typedef struct {
	uint64_t *len_cls; /* (hi + 1) x 2 */
	uint64_t cls[2];
	uint64_t kinds[GEN_KINDS];
	uint64_t parity[2][2];
	uint64_t *last;    /* (nl + 1) x 2; nl: the empty word */
	VEC(LeftOut) left;
	/* the words the depth-1 search sees: a reservoir */
	uint32_t *feat;    /* keep x nl letter counts */
	uint32_t *cell;    /* keep: last letter * 2 + label */
	size_t nkept;
	uint64_t seen;
	GenRng rng;
	/* a sequence output: its values at the judged position, at all */
	GenValues last_values, all_values;
} Split;

struct GenReport {
	const GenSpec *sp;
	size_t nl, keep;
	Split *split;
	uint64_t duplicates;
	VEC(char *) notes;
};

GenReport *gen_report_new(const GenSpec *sp)
{
	GenReport *r = xcalloc(1, sizeof *r);
	r->sp = sp;
	r->nl = sp->alpha->n;
	r->keep = ((size_t)1 << 25) / (r->nl * 4 + 4);
	if (r->keep > GEN_REPORT_KEEP)
		r->keep = GEN_REPORT_KEEP;
	r->split = xcalloc(sp->nsplits, sizeof *r->split);
	for (size_t s = 0; s < sp->nsplits; s++) {
		Split *x = &r->split[s];
		x->len_cls = xcalloc((sp->splits[s].hi + 1) * 2,
				     sizeof *x->len_cls);
		x->last = xcalloc((r->nl + 1) * 2, sizeof *x->last);
		x->rng.state = sp->seed ^ 0x5bd1e9955bd1e995u ^ s;
		gen_values_init(&x->last_values);
		gen_values_init(&x->all_values);
	}
	return r;
}

void gen_report_free(GenReport *r)
{
	if (!r)
		return;
	for (size_t s = 0; s < r->sp->nsplits; s++) {
		Split *x = &r->split[s];
		free(x->len_cls);
		free(x->last);
		free(x->feat);
		free(x->cell);
		VEC_FREE(x->left);
		gen_values_free(&x->last_values);
		gen_values_free(&x->all_values);
	}
	for (size_t i = 0; i < r->notes.len; i++)
		free(r->notes.data[i]);
	VEC_FREE(r->notes);
	free(r->split);
	free(r);
}

/* Keeps the word's features in the reservoir (Algorithm R, own seed). */
static void keep_word(GenReport *r, Split *x, const uint32_t *w, size_t n,
		      uint32_t cell)
{
	size_t slot = x->nkept;
	x->seen++;
	if (x->nkept == r->keep) {
		uint64_t j = gen_rng_below(&x->rng, x->seen);
		if (j >= r->keep)
			return;
		slot = (size_t)j;
	} else {
		if (!x->feat) {
			x->feat = xmalloc(r->keep * r->nl * sizeof *x->feat);
			x->cell = xmalloc(r->keep * sizeof *x->cell);
		}
		x->nkept++;
	}
	uint32_t *f = x->feat + slot * r->nl;
	memset(f, 0, r->nl * sizeof *f);
	for (size_t i = 0; i < n; i++)
		f[w[i]]++;
	x->cell[slot] = cell;
}

void gen_report_word(GenReport *r, size_t split, const uint32_t *w,
		     size_t n, bool label, GenKind kind)
{
	Split *x = &r->split[split];
	x->len_cls[n * 2 + label]++;
	x->cls[label]++;
	x->kinds[kind]++;
	x->parity[n % 2][label]++;
	size_t last = n ? w[n - 1] : r->nl;
	x->last[last * 2 + label]++;
	keep_word(r, x, w, n, (uint32_t)(last * 2 + label));
}

void gen_report_values(GenReport *r, size_t split, const fmpz *vals,
		       size_t n, const fmpz_t last)
{
	Split *x = &r->split[split];
	gen_values_add(&x->last_values, last);
	for (size_t i = 0; i < n; i++)
		gen_values_add(&x->all_values, &vals[i]);
}

void gen_report_left_out(GenReport *r, size_t split, size_t n,
			 const char *why)
{
	LeftOut l = {n, why};
	VEC_PUSH(r->split[split].left, l);
}

void gen_report_duplicates(GenReport *r, uint64_t k)
{
	r->duplicates += k;
}

void gen_report_note(GenReport *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = xmalloc((size_t)(len > 0 ? len : 0) + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)(len > 0 ? len : 0) + 1, fmt, ap);
	va_end(ap);
	VEC_PUSH(r->notes, s);
}

/* ---- the trivial baselines --------------------------------------------- */

/* Correct guesses of the best rule "label = f(group)" over a table of
 * groups x 2 labels. */
static uint64_t best_by_group(const uint64_t *t, size_t groups)
{
	uint64_t right = 0;
	for (size_t g = 0; g < groups; g++)
		right += t[2 * g] > t[2 * g + 1] ? t[2 * g] : t[2 * g + 1];
	return right;
}

/* The best depth-1 rule: a comparison C = (sum coef[a] * #a REL thr),
 * REL >= or =, and per last letter the label for C true and C false. */
typedef struct {
	uint64_t right;
	int64_t *coef;
	bool eq;
	int64_t thr;
	uint8_t *out; /* (nl + 1) x 2: label when C is false, true */
	bool found;
} Depth1;

typedef struct {
	const GenReport *r;
	const Split *x;
	size_t cells;
	int64_t *v;       /* per kept word */
	uint64_t *hist;   /* range x cells */
	uint64_t *tot, *side;
	Depth1 best;
	int64_t *coef;
} Search;

/* Correct guesses when each cell's words with C true are labelled by
 * their majority, and those with C false by theirs. */
static uint64_t split_right(const Search *s, const uint64_t *in)
{
	uint64_t right = 0;
	for (size_t c = 0; c < s->cells; c += 2) {
		uint64_t i0 = in[c], i1 = in[c + 1];
		uint64_t o0 = s->tot[c] - i0, o1 = s->tot[c + 1] - i1;
		right += (i0 > i1 ? i0 : i1) + (o0 > o1 ? o0 : o1);
	}
	return right;
}

static void take(Search *s, uint64_t right, bool eq, int64_t thr,
		 const uint64_t *in)
{
	Depth1 *b = &s->best;
	size_t nl = s->r->nl;
	if (b->found && right <= b->right)
		return;
	b->found = true;
	b->right = right;
	b->eq = eq;
	b->thr = thr;
	memcpy(b->coef, s->coef, nl * sizeof *b->coef);
	for (size_t c = 0; c < s->cells; c += 2) {
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
	const Split *x = s->x;
	size_t nl = s->r->nl;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	for (size_t i = 0; i < x->nkept; i++) {
		int64_t v = 0;
		for (size_t a = 0; a < nl; a++)
			v += s->coef[a] * (int64_t)x->feat[i * nl + a];
		s->v[i] = v;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (x->nkept == 0 || hi - lo >= DEPTH1_MAX_RANGE)
		return;
	size_t range = (size_t)(hi - lo) + 1, C = s->cells;
	s->hist = xrealloc(s->hist, range * C * sizeof *s->hist);
	memset(s->hist, 0, range * C * sizeof *s->hist);
	for (size_t i = 0; i < x->nkept; i++)
		s->hist[(size_t)(s->v[i] - lo) * C + x->cell[i]]++;
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

static int64_t gcd(int64_t a, int64_t b)
{
	a = a < 0 ? -a : a;
	b = b < 0 ? -b : b;
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* Coefficient vectors with at most `support` nonzero entries in
 * [-bound, bound], the first nonzero positive, coprime: each comparison
 * up to sign once. */
static void each_coef(Search *s, size_t a, size_t support, int64_t bound,
		      bool seen_nonzero, int64_t g)
{
	size_t nl = s->r->nl;
	if (a == nl) {
		if (seen_nonzero && g == 1)
			try_coef(s);
		return;
	}
	for (int64_t c = seen_nonzero ? -bound : 0; c <= bound; c++) {
		if (c != 0 && support == 0)
			continue;
		s->coef[a] = c;
		each_coef(s, a + 1, support - (c != 0), bound,
			  seen_nonzero || c != 0, c ? gcd(g, c) : g);
	}
	s->coef[a] = 0;
}

static void depth1_search(const GenReport *r, const Split *x, Depth1 *out)
{
	size_t nl = r->nl;
	Search s = {.r = r, .x = x, .cells = (nl + 1) * 2};
	s.v = xmalloc((x->nkept + 1) * sizeof *s.v);
	s.tot = xcalloc(s.cells, sizeof *s.tot);
	s.side = xcalloc(s.cells, sizeof *s.side);
	s.coef = xcalloc(nl, sizeof *s.coef);
	s.best.coef = xcalloc(nl, sizeof *s.best.coef);
	s.best.out = xcalloc(s.cells, 1);
	for (size_t i = 0; i < x->nkept; i++)
		s.tot[x->cell[i]]++;
	/* small bounds for large alphabets keep it to a few thousand
	 * vectors */
	size_t support = nl <= 4 ? nl : 2;
	int64_t bound = nl <= 2 ? 4 : nl <= 3 ? 3 : 2;
	each_coef(&s, 0, support, bound, false, 0);
	*out = s.best;
	free(s.v);
	free(s.hist);
	free(s.tot);
	free(s.side);
	free(s.coef);
}

/* The comparison as TL: "#[Q_a] - 2 * #[Q_b] >= 3". */
static void put_comparison(const GenReport *r, Buf *b, const Depth1 *d)
{
	const Alphabet *al = r->sp->alpha;
	bool first = true;
	for (size_t a = 0; a < r->nl; a++) {
		int64_t c = d->coef[a];
		if (!c)
			continue;
		if (!first)
			buf_puts(b, c < 0 ? " - " : " + ");
		int64_t m = c < 0 && !first ? -c : c;
		if (m != 1)
			buf_printf(b, "%lld * ", (long long)m);
		buf_puts(b, "#[");
		tl_print_letter(b, r->sp->store, al->letters[a], SYNTAX_TL);
		buf_putc(b, ']');
		first = false;
	}
	const char *rel = d->eq ? "=" : ">=";
	if (d->thr < 0)
		buf_printf(b, " + %lld %s 0", -(long long)d->thr, rel);
	else
		buf_printf(b, " %s %lld", rel, (long long)d->thr);
}

/* The rule as a TL formula that tally eval can check. */
static char *depth1_formula(const GenReport *r, const Depth1 *d)
{
	Buf cmp = {0}, b = {0};
	put_comparison(r, &cmp, d);
	buf_puts(&b, "");
	const Alphabet *al = r->sp->alpha;
	for (size_t a = 0; a <= r->nl; a++) {
		bool if_true = d->out[a * 2 + 1], if_false = d->out[a * 2];
		if (a == r->nl) { /* the empty word: every count is 0 */
			bool holds = d->eq ? d->thr == 0 : 0 >= d->thr;
			if (holds ? if_true : if_false)
				buf_puts(&b, b.len ? " | #[true] < 1"
						   : "#[true] < 1");
			continue;
		}
		if (!if_true && !if_false)
			continue;
		buf_puts(&b, b.len ? " | (" : "(");
		tl_print_letter(&b, r->sp->store, al->letters[a], SYNTAX_TL);
		if (if_true != if_false)
			buf_printf(&b, " & %s(%s)", if_true ? "" : "!", cmp.data);
		buf_putc(&b, ')');
	}
	if (b.len == 0)
		buf_puts(&b, "false");
	buf_free(&cmp);
	return buf_take(&b);
}

/* ---- the summary and the file ------------------------------------------ */

static double pct(uint64_t right, uint64_t total)
{
	return total ? 100.0 * (double)right / (double)total : 0.0;
}

typedef struct {
	uint64_t total, majority, parity, last;
	Depth1 d1;
	char *formula;
} Baselines;

static void baselines(const GenReport *r, const Split *x, Baselines *b)
{
	b->total = x->cls[0] + x->cls[1];
	b->majority = x->cls[0] > x->cls[1] ? x->cls[0] : x->cls[1];
	b->parity = best_by_group(&x->parity[0][0], 2);
	b->last = best_by_group(x->last, r->nl + 1);
	depth1_search(r, x, &b->d1);
	b->formula = b->d1.found ? depth1_formula(r, &b->d1) : NULL;
}

static void baselines_free(Baselines *b)
{
	free(b->d1.coef);
	free(b->d1.out);
	free(b->formula);
}

/* Lengths of the split with words, and whether each is balanced. */
static void balance(const GenReport *r, size_t s, size_t *lengths,
		    bool *exact)
{
	const GenSpec *sp = r->sp;
	const Split *x = &r->split[s];
	*lengths = 0;
	*exact = true;
	for (size_t n = sp->splits[s].lo; n <= sp->splits[s].hi; n++) {
		uint64_t m = x->len_cls[n * 2 + 1], o = x->len_cls[n * 2];
		if (!m && !o)
			continue;
		++*lengths;
		*exact &= m * sp->ratio[0] == o * sp->ratio[1];
	}
}

static void print_left_out(FILE *f, const Split *x)
{
	for (size_t i = 0; i < x->left.len;) {
		const char *why = x->left.data[i].why;
		size_t j = i;
		while (j < x->left.len && strcmp(x->left.data[j].why, why) == 0)
			j++;
		fprintf(f, "gen:   left out %zu length%s (%s):", j - i,
			j - i == 1 ? "" : "s", why);
		for (size_t k = i; k < j && k < i + 8; k++)
			fprintf(f, " %zu", x->left.data[k].n);
		fprintf(f, "%s\n", j - i > 8 ? " ..." : "");
		i = j;
	}
}

/* A count-valued output's split: no classes, the values instead, and
 * the baseline of always answering the most frequent final value. */
static void print_values_split(const GenReport *r, size_t s, size_t lengths,
			       FILE *f)
{
	const GenSplit *sp = &r->sp->splits[s];
	const Split *x = &r->split[s];
	fprintf(f, "gen: split %s (lengths %zu..%zu): %llu words (a count-"
		   "valued output: no classes)", sp->name, sp->lo, sp->hi,
		(unsigned long long)x->last_values.total);
	if (r->sp->every_word)
		fprintf(f, " (every word)\n");
	else
		fprintf(f, "; uniform at each of %zu lengths\n", lengths);
	print_left_out(f, x);
	gen_values_print(&x->last_values, "values at the last position", f);
	gen_values_print(&x->all_values, "values at every position", f);
	long mode = 0;
	uint64_t m = gen_values_mode(&x->last_values, &mode);
	fprintf(f, "gen:   baseline: the most frequent last value (%ld) %.1f%%\n",
		mode, pct(m, x->last_values.total));
}

static void print_split(const GenReport *r, size_t s, const Baselines *b,
			FILE *f)
{
	const GenSplit *sp = &r->sp->splits[s];
	const Split *x = &r->split[s];
	size_t lengths;
	bool exact;
	balance(r, s, &lengths, &exact);
	if (r->sp->integer) {
		print_values_split(r, s, lengths, f);
		return;
	}
	fprintf(f, "gen: split %s (lengths %zu..%zu): %llu words, %llu members,"
		   " %llu non-members", sp->name, sp->lo, sp->hi,
		(unsigned long long)b->total, (unsigned long long)x->cls[1],
		(unsigned long long)x->cls[0]);
	if (r->sp->every_word)
		fprintf(f, " (every word)\n");
	else
		fprintf(f, "; ratio %s at each of %zu lengths\n",
			exact ? "exact" : "NOT exact", lengths);
	print_left_out(f, x);
	uint64_t mut = x->kinds[GEN_KIND_SWAP] + x->kinds[GEN_KIND_CHANGE] +
		       x->kinds[GEN_KIND_ANY];
	if (mut + x->kinds[GEN_KIND_RANDOM])
		fprintf(f, "gen:   non-members: %llu mutated members (%llu "
			   "swaps, %llu changes before the last letter, %llu "
			   "other), %llu uniformly random\n",
			(unsigned long long)mut,
			(unsigned long long)x->kinds[GEN_KIND_SWAP],
			(unsigned long long)x->kinds[GEN_KIND_CHANGE],
			(unsigned long long)x->kinds[GEN_KIND_ANY],
			(unsigned long long)x->kinds[GEN_KIND_RANDOM]);
	fprintf(f, "gen:   baselines: majority %.1f%%, length parity %.1f%%, "
		   "last letter %.1f%%",
		pct(b->majority, b->total), pct(b->parity, b->total),
		pct(b->last, b->total));
	if (b->formula)
		fprintf(f, ", depth 1 %.1f%%%s: %s",
			pct(b->d1.right, x->nkept),
			x->nkept < b->total ? " (on a sample)" : "", b->formula);
	fputc('\n', f);
	if (r->sp->output != NODE_NONE)
		gen_values_print(&x->all_values, "values at every position", f);
}

static json_t *split_json(const GenReport *r, size_t s, const Baselines *b)
{
	const GenSplit *sp = &r->sp->splits[s];
	const Split *x = &r->split[s];
	json_t *o = json_object(), *per = json_array(), *left = json_array();
	json_object_set_new(o, "name", json_string(sp->name));
	json_object_set_new(o, "min_length", json_size(sp->lo));
	json_object_set_new(o, "max_length", json_size(sp->hi));
	bool integer = r->sp->integer;
	json_object_set_new(o, "words", json_size(b->total));
	if (!integer) {
		json_object_set_new(o, "members", json_size(x->cls[1]));
		json_object_set_new(o, "non_members", json_size(x->cls[0]));
	}
	for (size_t n = sp->lo; n <= sp->hi; n++) {
		uint64_t m = x->len_cls[n * 2 + 1], q = x->len_cls[n * 2];
		if (!m && !q)
			continue;
		json_t *l = json_object();
		json_object_set_new(l, "length", json_size(n));
		if (integer) {
			json_object_set_new(l, "words", json_size(m + q));
		} else {
			json_object_set_new(l, "members", json_size(m));
			json_object_set_new(l, "non_members", json_size(q));
		}
		json_array_append_new(per, l);
	}
	if (r->sp->output != NODE_NONE) {
		json_object_set_new(o, "last_values",
				    gen_values_json(&x->last_values));
		json_object_set_new(o, "position_values",
				    gen_values_json(&x->all_values));
	}
	json_object_set_new(o, "per_length", per);
	for (size_t i = 0; i < x->left.len; i++) {
		json_t *l = json_object();
		json_object_set_new(l, "length", json_size(x->left.data[i].n));
		json_object_set_new(l, "reason", json_string(x->left.data[i].why));
		json_array_append_new(left, l);
	}
	json_object_set_new(o, "left_out", left);
	static const char *const kind_names[GEN_KINDS] = {
		"members", "swap", "change", "any", "random", "listed"};
	json_t *kinds = json_object();
	for (int k = 0; k < GEN_KINDS; k++)
		json_object_set_new(kinds, kind_names[k], json_size(x->kinds[k]));
	json_object_set_new(o, "origin", kinds);
	if (integer) {
		long mode = 0;
		uint64_t m = gen_values_mode(&x->last_values, &mode);
		json_t *base = json_object(), *d = json_object();
		json_object_set_new(d, "value", json_integer(mode));
		json_object_set_new(d, "accuracy",
				    json_real(pct(m, x->last_values.total) / 100));
		json_object_set_new(base, "most_frequent_value", d);
		json_object_set_new(o, "baselines", base);
		return o;
	}
	json_t *base = json_object();
	json_object_set_new(base, "majority",
			    json_real(pct(b->majority, b->total) / 100));
	json_object_set_new(base, "length_parity",
			    json_real(pct(b->parity, b->total) / 100));
	json_object_set_new(base, "last_letter",
			    json_real(pct(b->last, b->total) / 100));
	if (b->formula) {
		json_t *d = json_object();
		json_object_set_new(d, "accuracy",
				    json_real(pct(b->d1.right, x->nkept) / 100));
		json_object_set_new(d, "words", json_size(x->nkept));
		json_object_set_new(d, "formula", json_string(b->formula));
		json_object_set_new(base, "depth1", d);
	}
	json_object_set_new(o, "baselines", base);
	return o;
}

static json_t *head_json(const GenReport *r)
{
	const GenSpec *sp = r->sp;
	json_t *o = json_envelope(), *al = json_array(), *notes = json_array();
	if (sp->source)
		json_object_set_new(o, "formula", json_string(sp->source));
	for (size_t i = 0; i < r->nl; i++)
		json_array_append_new(al, json_string(sym_name(
			sp->alpha->syms, sp->alpha->letters[i])));
	json_object_set_new(o, "alphabet", al);
	json_object_set_new(o, "seed", json_size(sp->seed));
	json_object_set_new(o, "ratio_members", json_integer(sp->ratio[1]));
	json_object_set_new(o, "ratio_non_members", json_integer(sp->ratio[0]));
	json_object_set_new(o, "random_non_members_percent",
			    json_integer(sp->random_pct));
	static const char *const lab[] = {"word", "position", "prediction",
					  "sequence"};
	json_object_set_new(o, "labels", json_string(lab[sp->labels]));
	json_object_set_new(o, "output", json_string(sp->integer ? "integer"
								 : "boolean"));
	if (sp->labels == GEN_LABELS_PREDICTION)
		json_object_set_new(o, "horizon", json_size(sp->horizon));
	json_object_set_new(o, "duplicates_removed", json_size(r->duplicates));
	for (size_t i = 0; i < r->notes.len; i++)
		json_array_append_new(notes, json_string(r->notes.data[i]));
	json_object_set_new(o, "notes", notes);
	return o;
}

bool gen_report_finish(GenReport *r, FILE *f, const char *path)
{
	json_t *o = head_json(r), *splits = json_array();
	for (size_t i = 0; f && i < r->notes.len; i++)
		fprintf(f, "gen: %s\n", r->notes.data[i]);
	if (f && r->duplicates)
		fprintf(f, "gen: %llu duplicate draws removed\n",
			(unsigned long long)r->duplicates);
	for (size_t s = 0; s < r->sp->nsplits; s++) {
		Baselines b;
		baselines(r, &r->split[s], &b);
		if (f)
			print_split(r, s, &b, f);
		json_array_append_new(splits, split_json(r, s, &b));
		baselines_free(&b);
	}
	json_object_set_new(o, "splits", splits);
	bool ok = true;
	/* in a job every rank reaches here alike; rank 0 writes the file */
	if (path && (!share_job || share_job->rank == 0)) {
		FILE *out = fopen(path, "w");
		ok = out && json_dumpf(o, out, JSON_INDENT(2)) == 0 &&
		     fputc('\n', out) != EOF;
		if (out && fclose(out) != 0)
			ok = false;
		if (!ok)
			fprintf(stderr, "tally: error: cannot write the report "
					"'%s': %s\n", path, strerror(errno));
	}
	json_decref(o);
	return ok;
}
