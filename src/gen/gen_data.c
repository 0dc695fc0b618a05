/* gen_data.c -- `tally gen`'s datasets (see gen_data.h): the plan, the
 * labels and the main loop over lengths. */
#include <config.h>

#include "gen/gen_data.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <flint/fmpz_vec.h>

#include "base/number.h"
#include "base/status.h"
#include "gen/gen_draw.h"
#include "gen/gen_report.h"
#include "gen/gen_states.h"
#include "gen/gen_write.h"
#include "base/mem.h"
#include "machine/seqeval.h"

typedef struct {
	const GenSpec *sp;
	GenStates *gs;
	Evaluator *ev;
	bool streams;
	SeqEval *se;  /* the output per position, or NULL */
	fmpz *vals;   /* its values at positions 0..n (0: the empty word) */
	long *fam;    /* a family's values at positions 1..n */
	GenRng rng;
	GenDraw draw;
	GenOut *out;
	GenReport *rep;
	size_t nl, minlen, maxlen;
	uint64_t *units; /* nsplits x (maxlen + 1): ratio units per length */
	uint64_t planned, written;
	uint8_t *pos, *pred;
	Sym *syms;
	char *text;
	size_t *order;
	int status;
	bool progress;
	double next_progress;
} Gen;

static uint64_t *units_of(Gen *g, size_t s)
{
	return g->units + s * (g->maxlen + 1);
}

static uint64_t ratio_sum(const GenSpec *sp)
{
	return (uint64_t)sp->ratio[0] + sp->ratio[1];
}

/* ---- the plan ----------------------------------------------------------- */

/* Words of class c at length n not yet promised to a split, in ratio
 * units (UINT64_MAX: unknown or plenty). */
static uint64_t spare(Gen *g, size_t n, int c, uint64_t used_units)
{
	unsigned r = g->sp->ratio[c];
	if (r == 0 || !g->gs)
		return UINT64_MAX;
	fmpz_t t;
	fmpz_init(t);
	gen_states_total(g->gs, n, c == 1, t);
	fmpz_fdiv_q_ui(t, t, r);
	uint64_t u = fmpz_cmp_ui(t, UINT64_MAX / 4) > 0 ? UINT64_MAX
							: fmpz_get_ui(t);
	fmpz_clear(t);
	return u == UINT64_MAX ? u : u > used_units ? u - used_units : 0;
}

/* Why length n cannot have both classes (NULL: it can, or unknown). */
static const char *missing(Gen *g, size_t n)
{
	const GenSpec *sp = g->sp;
	if (!g->gs)
		return NULL;
	for (int c = 1; c >= 0; c--) {
		if (!sp->ratio[c])
			continue;
		fmpz_t t;
		fmpz_init(t);
		gen_states_total(g->gs, n, c == 1, t);
		bool none = fmpz_is_zero(t);
		fmpz_clear(t);
		if (none)
			return c ? "no members" : "no non-members";
	}
	return NULL;
}

/* The words of each split: its own count or a share of --sample. */
static uint64_t split_words(const GenSpec *sp, size_t s)
{
	if (sp->splits[s].count)
		return sp->splits[s].count;
	uint64_t named = 0, unnamed = 0, rank = 0;
	for (size_t i = 0; i < sp->nsplits; i++) {
		named += sp->splits[i].count;
		unnamed += !sp->splits[i].count;
		rank += i < s && !sp->splits[i].count;
	}
	uint64_t rest = sp->sample > named ? sp->sample - named : 0;
	return rest / unnamed + (rank < rest % unnamed);
}

/* Shares u units over the lengths in random order, each at most its
 * spare capacity, refilling from the lengths with room; the units not
 * placed are returned. */
static uint64_t share_out(Gen *g, size_t s, size_t *len, size_t nlen,
			  uint64_t u)
{
	uint64_t *mine = units_of(g, s), *cap = xmalloc(nlen * sizeof *cap);
	for (size_t i = 0; i < nlen; i++) {
		uint64_t used = 0;
		for (size_t t = 0; t < s; t++)
			used += units_of(g, t)[len[i]];
		uint64_t a = spare(g, len[i], 1, used), b = spare(g, len[i], 0, used);
		cap[i] = a < b ? a : b;
	}
	while (u > 0) {
		size_t open = 0;
		for (size_t i = 0; i < nlen; i++)
			open += mine[len[i]] < cap[i];
		if (open == 0)
			break;
		uint64_t each = u / open, extra = u % open, given = 0;
		for (size_t i = 0, k = 0; i < nlen; i++) {
			if (mine[len[i]] >= cap[i])
				continue;
			uint64_t want = each + (k++ < extra);
			uint64_t room = cap[i] - mine[len[i]];
			uint64_t give = want < room ? want : room;
			mine[len[i]] += give;
			given += give;
		}
		u -= given;
	}
	free(cap);
	return u;
}

/* False (after the message) when the split gets no word at all: no
 * length of it has both classes (never 0 words and exit 0). */
static bool plan_split(Gen *g, size_t s)
{
	const GenSpec *sp = g->sp;
	const GenSplit *x = &sp->splits[s];
	uint64_t words = split_words(sp, s), u = words / ratio_sum(sp);
	if (words % ratio_sum(sp))
		gen_report_note(g->rep, "split %s: %llu words is not a multiple "
			"of %llu (the ratio): %llu words", x->name,
			(unsigned long long)words,
			(unsigned long long)ratio_sum(sp),
			(unsigned long long)(u * ratio_sum(sp)));
	size_t *len = xmalloc((x->hi - x->lo + 1) * sizeof *len), nlen = 0;
	for (size_t n = x->lo; n <= x->hi; n++) {
		const char *why = missing(g, n);
		if (why)
			gen_report_left_out(g->rep, s, n, why);
		else
			len[nlen++] = n;
	}
	/* which lengths get one unit more: a random order */
	for (size_t i = nlen; i > 1; i--) {
		size_t j = gen_rng_below(&g->rng, i), t = len[i - 1];
		len[i - 1] = len[j];
		len[j] = t;
	}
	uint64_t left = nlen ? share_out(g, s, len, nlen, u) : u;
	if (left)
		gen_report_note(g->rep, "split %s: only %llu of %llu words "
			"exist (distinct, balanced) at its lengths", x->name,
			(unsigned long long)((u - left) * ratio_sum(sp)),
			(unsigned long long)(u * ratio_sum(sp)));
	uint64_t planned = 0;
	for (size_t n = x->lo; n <= x->hi; n++)
		planned += units_of(g, s)[n] * ratio_sum(sp);
	g->planned += planned;
	free(len);
	if (planned || !u)
		return true;
	char *letters = alphabet_describe(sp->alpha);
	g->status = status_usage_error("split %s: no length of %zu..%zu has "
		"both members and non-members over the alphabet %s "
		"(--alphabet adds letters, --ratio drops a class)", x->name,
		x->lo, x->hi, letters);
	free(letters);
	return false;
}

/* ---- labels ------------------------------------------------------------- */

static int internal(Gen *g, const uint32_t *w, size_t n, const char *fmt,
		    ...) __attribute__((format(printf, 4, 5)));

static int internal(Gen *g, const uint32_t *w, size_t n, const char *fmt,
		    ...)
{
	char *word = gen_out_word(g->out, w, n);
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "tally: internal error: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, " on the word '%s'\n", word);
	va_end(ap);
	free(word);
	return g->status = EXIT_INTERNAL;
}

/* The evaluator's verdict on every prefix (pos[0..n]) or on the word;
 * *dom: the word is in the domain. */
static bool verdicts(Gen *g, const uint32_t *w, size_t n, uint8_t *pos,
		     bool *dom)
{
	bool acc[2] = {false, true};
	bool two = g->sp->domain != NODE_NONE;
	for (size_t i = 0; i < n; i++)
		g->syms[i] = g->sp->alpha->letters[w[i]];
	if (!g->streams) {
		for (size_t i = 0; pos && i < n; i++) {
			eval_word(g->ev, g->syms, i, acc);
			pos[i] = acc[0];
		}
		eval_word(g->ev, g->syms, n, acc);
	} else {
		eval_reset(g->ev);
		for (size_t i = 0; pos && i < n; i++) {
			pos[i] = eval_accepts(g->ev, 0);
			eval_push(g->ev, g->syms[i]);
		}
		if (!pos) /* in blocks: the fast path of long words */
			eval_push_many(g->ev, g->syms, n);
		acc[0] = eval_accepts(g->ev, 0);
		if (two)
			acc[1] = eval_accepts(g->ev, 1);
	}
	if (pos)
		pos[n] = acc[0];
	*dom = acc[1];
	return acc[0];
}

/* Prediction rows from the state graph; the end of the word must agree
 * with the evaluator's verdicts on the prefixes (pos). */
static bool predictions(Gen *g, const uint32_t *w, size_t n,
			const uint8_t *pos)
{
	size_t nl = g->nl, h = g->sp->horizon;
	uint32_t s = gen_states_start(g->gs);
	for (size_t i = 0; i <= n; i++) {
		uint8_t *row = g->pred + i * (nl + 1);
		for (size_t a = 0; a < nl; a++)
			row[a] = i < h && gen_states_can_finish(
				g->gs, gen_states_next(g->gs, s, a));
		unsigned c = gen_states_class(g->gs, s);
		row[nl] = c == (GEN_IN | GEN_DOMAIN);
		if (row[nl] != (pos[i] && (c & GEN_DOMAIN))) {
			internal(g, w, i, "the state graph and the evaluator "
				 "disagree");
			return false;
		}
		if (i < n)
			s = gen_states_next(g->gs, s, w[i]);
	}
	return true;
}

static void on_value(void *ctx, const SeqEval *se, size_t pos)
{
	Gen *g = ctx;
	seqeval_value(se, 0, &g->vals[pos]);
}

/* The output at every position of the word in g->syms into
 * g->vals[1..n] (g->vals[0] when n = 0): vals[n] is the judged value. */
static void sequence(Gen *g, size_t n)
{
	if (!seqeval_streams(g->se)) {
		seqeval_word(g->se, g->syms, n);
		return;
	}
	seqeval_reset(g->se);
	for (size_t i = 0; i < n; i++)
		seqeval_push(g->se, g->syms[i]);
	seqeval_end(g->se);
}

/* The second paths of the values: a Boolean output's last value is the
 * evaluator's verdict (label), and a past-only one's value at i its
 * verdict on the prefix of length i (g->pos); a family's value function
 * gives every value. */
static bool check_values(Gen *g, const uint32_t *w, size_t n, bool label)
{
	const GenSpec *sp = g->sp;
	if (!sp->integer) {
		size_t bad = fmpz_is_zero(&g->vals[n]) == label ? n : SIZE_MAX;
		for (size_t i = 1; bad == SIZE_MAX && seqeval_streams(g->se) &&
				   i <= n; i++)
			if (fmpz_is_zero(&g->vals[i]) == g->pos[i])
				bad = i;
		if (bad != SIZE_MAX) {
			internal(g, w, n, "the output sequence and the "
				 "evaluator's verdict disagree at position %zu",
				 bad);
			return false;
		}
	}
	if (!sp->family || !sp->family->values)
		return true;
	sp->family->values(g->text, n, sp->k, g->fam);
	for (size_t i = 1; i <= n; i++)
		if (fmpz_cmp_si(&g->vals[i], g->fam[i - 1]) != 0) {
			internal(g, w, n, "family %s: the program and the value "
				 "function disagree at position %zu",
				 sp->family->name, i);
			return false;
		}
	return true;
}

/* The labels of a word, checked against the class it was drawn for
 * (intended: 0 or 1, -1 none) and the family's membership function. */
static bool label_word(Gen *g, const uint32_t *w, size_t n, int intended,
		       bool *label)
{
	const GenSpec *sp = g->sp;
	bool want_pos = sp->labels != GEN_LABELS_WORD && !sp->integer, dom;
	*label = verdicts(g, w, n, want_pos ? g->pos : NULL, &dom);
	if (intended >= 0 && (*label != intended || !dom)) {
		internal(g, w, n, "the sampler meant a %s, the evaluator says "
			 "%s", intended ? "member" : "non-member",
			 !dom ? "outside the domain" : *label ? "member"
							     : "non-member");
		return false;
	}
	if (sp->family)
		for (size_t i = 0; i < n; i++)
			g->text[i] = sym_name(sp->alpha->syms,
					      sp->alpha->letters[w[i]])[0];
	if (g->se) {
		sequence(g, n);
		if (!check_values(g, w, n, *label))
			return false;
	}
	if (sp->family && sp->family->member) {
		if (sp->family->member(g->text, n, sp->k) != *label) {
			internal(g, w, n, "family %s: the formula and the "
				 "membership function disagree",
				 sp->family->name);
			return false;
		}
	}
	if (sp->labels == GEN_LABELS_PREDICTION)
		return predictions(g, w, n, g->pos);
	return true;
}

/* ---- writing ------------------------------------------------------------ */

static void progress(Gen *g, size_t n)
{
	if (!g->progress)
		return;
	double now = limit_now();
	if (now < g->next_progress)
		return;
	g->next_progress = now + 0.25;
	fprintf(stderr, "\rgen: %llu of %llu words (%.0f%%), length %zu ",
		(unsigned long long)g->written,
		(unsigned long long)g->planned,
		g->planned ? 100.0 * (double)g->written / (double)g->planned
			   : 100.0, n);
}

static bool emit(Gen *g, size_t split, const uint32_t *w, size_t n,
		 int intended, GenKind kind)
{
	bool label;
	if (!label_word(g, w, n, intended, &label))
		return false;
	const GenSpec *sp = g->sp;
	GenRecord r = {w, n, label,
		       sp->labels == GEN_LABELS_POSITION ? g->pos : NULL,
		       sp->labels == GEN_LABELS_PREDICTION ? g->pred : NULL,
		       sp->named_splits ? sp->splits[split].name : NULL,
		       sp->labels == GEN_LABELS_SEQUENCE ? g->vals + 1 : NULL,
		       sp->integer ? &g->vals[n] : NULL};
	gen_out_record(g->out, &r);
	gen_report_word(g->rep, split, w, n, label, kind);
	if (g->se)
		gen_report_values(g->rep, split, g->vals + 1, n, &g->vals[n]);
	g->written++;
	progress(g, n);
	return !gen_states_poll(g->gs, sp->limits);
}

/* Words per chunk at most: memory for one chunk of words, whatever the
 * dataset's size. */
enum { GEN_CHUNK = 1 << 14 };

/* Writes u units of the batches (taken from the start) to split s,
 * members and non-members shuffled together. */
static bool emit_chunk(Gen *g, size_t s, size_t n, uint64_t u)
{
	const GenSpec *sp = g->sp;
	size_t k = 0, take[2] = {u * sp->ratio[0], u * sp->ratio[1]};
	for (int c = 0; c < 2; c++)
		for (size_t i = 0; i < take[c]; i++)
			g->order[k++] = i * 2 + (size_t)c;
	for (size_t i = k; i > 1; i--) {
		size_t j = gen_rng_below(&g->rng, i), t = g->order[i - 1];
		g->order[i - 1] = g->order[j];
		g->order[j] = t;
	}
	for (size_t i = 0; i < k; i++) {
		int c = (int)(g->order[i] % 2);
		const GenBatch *b = &g->draw.batch[c];
		size_t at = g->order[i] / 2;
		if (!emit(g, s, gen_batch_word(b, at), n, c, (GenKind)b->kind[at]))
			return false;
	}
	return true;
}

/* The units of length n for split s, chunk by chunk; a chunk that
 * cannot be filled (rejection sampling ran out) ends the length for it. */
static bool sample_split(Gen *g, size_t s, size_t n)
{
	const GenSpec *sp = g->sp;
	uint64_t left = units_of(g, s)[n];
	uint64_t per = GEN_CHUNK / ratio_sum(sp) ? GEN_CHUNK / ratio_sum(sp) : 1;
	while (left) {
		uint64_t u = left < per ? left : per, need[2], got = UINT64_MAX;
		for (int c = 0; c < 2; c++)
			need[c] = u * sp->ratio[c];
		gen_draw_chunk(&g->draw, need, s);
		if (g->draw.stopped)
			return false;
		for (int c = 0; c < 2; c++)
			if (sp->ratio[c] && g->draw.batch[c].count / sp->ratio[c] < got)
				got = g->draw.batch[c].count / sp->ratio[c];
		if (!emit_chunk(g, s, n, got < u ? got : u))
			return false;
		if (got < u) {
			gen_report_left_out(g->rep, s, n, got || left > u
				? "fewer words found than planned (rejection "
				  "sampling)"
				: "no words found (rejection sampling)");
			g->planned -= (left - got) * ratio_sum(sp);
			break;
		}
		left -= u;
	}
	return true;
}

static bool sample_all(Gen *g)
{
	const GenSpec *sp = g->sp;
	for (size_t s = 0; s < sp->nsplits; s++)
		if (!plan_split(g, s))
			return false;
	g->order = xmalloc((GEN_CHUNK + ratio_sum(sp)) * sizeof *g->order);
	for (size_t n = g->minlen; n <= g->maxlen; n++) {
		uint64_t total[2] = {0, 0}, units = 0;
		for (size_t s = 0; s < sp->nsplits; s++)
			units += units_of(g, s)[n];
		if (!units)
			continue;
		for (int c = 0; c < 2; c++)
			total[c] = units * sp->ratio[c];
		gen_draw_length(&g->draw, n, total);
		for (size_t s = 0; s < sp->nsplits; s++)
			if (!sample_split(g, s, n))
				return false;
	}
	gen_report_duplicates(g->rep, g->draw.duplicates);
	return true;
}

/* Every word of the lengths, in shortlex order, one split. */
static bool every_word(Gen *g)
{
	const GenSpec *sp = g->sp;
	uint32_t *w = xcalloc(g->maxlen + 1, sizeof *w);
	bool ok = true;
	for (size_t n = g->minlen; n <= g->maxlen && ok; n++) {
		memset(w, 0, n * sizeof *w);
		for (;;) {
			bool in = true;
			if (sp->family && sp->family->in_domain) {
				for (size_t i = 0; i < n; i++)
					g->text[i] = sym_name(sp->alpha->syms,
						sp->alpha->letters[w[i]])[0];
				in = sp->family->in_domain(g->text, n, sp->k);
			}
			if (in && !(ok = emit(g, 0, w, n, -1, GEN_KIND_LISTED)))
				break;
			size_t i = n;
			while (i > 0 && ++w[i - 1] == g->nl)
				w[--i] = 0;
			if (i == 0)
				break;
		}
	}
	free(w);
	return ok;
}

/* ---- set-up ------------------------------------------------------------- */

/* The state graph when sampling or prediction labels need it; false
 * after a message when it is required and cannot be had. */
static bool make_graph(Gen *g)
{
	const GenSpec *sp = g->sp;
	bool predict = sp->labels == GEN_LABELS_PREDICTION;
	if (sp->every_word && !predict)
		return true;
	Node roots[2] = {sp->root, sp->domain};
	size_t levels = predict && sp->horizon > g->maxlen ? sp->horizon
							   : g->maxlen;
	char *why = NULL;
	g->gs = gen_states_build(sp->store, roots,
				 sp->domain != NODE_NONE ? 2 : 1, sp->alpha,
				 levels, sp->max_states, sp->limits, &why);
	if (g->gs) {
		size_t c = gen_states_clamped(g->gs);
		gen_report_note(g->rep, "words drawn uniformly per length and "
			"class from exact counts over %zu merged states (%zu "
			"count%s clamped)", gen_states_size(g->gs), c,
			c == 1 ? "" : "s");
		if (predict)
			gen_states_horizon(g->gs, sp->horizon);
		return true;
	}
	if (sp->limits && sp->limits->hit) {
		g->status = limit_report(sp->limits, "no word was written");
	} else if (predict) {
		g->status = status_usage_error("--labels=prediction needs the "
			"graph of the formula's states: %s", why);
	} else {
		gen_report_note(g->rep, "no exact counts (%s): words found by "
			"rejection sampling, up to %d tries per word; members are "
			"not uniform and a length without words found is not "
			"known to have none", why, 4096);
		free(why);
		return true;
	}
	free(why);
	return false;
}

static void gen_init(Gen *g, const GenSpec *sp)
{
	memset(g, 0, sizeof *g);
	g->sp = sp;
	g->nl = sp->alpha->n;
	g->rng.state = sp->seed;
	g->minlen = SIZE_MAX;
	for (size_t s = 0; s < sp->nsplits; s++) {
		if (sp->splits[s].lo < g->minlen)
			g->minlen = sp->splits[s].lo;
		if (sp->splits[s].hi > g->maxlen)
			g->maxlen = sp->splits[s].hi;
	}
	g->units = xcalloc(sp->nsplits * (g->maxlen + 1), sizeof *g->units);
	Node roots[2] = {sp->root, sp->domain};
	g->ev = eval_new(sp->store, roots, sp->domain != NODE_NONE ? 2 : 1,
			 ACCEPT_LAST);
	g->streams = eval_streams(g->ev);
	if (sp->output != NODE_NONE) {
		g->se = seqeval_new(sp->store, &sp->output, 1, ACCEPT_LAST,
				    on_value, g);
		g->vals = _fmpz_vec_init((slong)g->maxlen + 1);
		g->fam = xmalloc((g->maxlen + 1) * sizeof *g->fam);
	}
	g->out = gen_out_new(sp, stdout);
	g->rep = gen_report_new(sp);
	g->pos = xmalloc(g->maxlen + 1);
	if (sp->labels == GEN_LABELS_PREDICTION)
		g->pred = xmalloc((g->maxlen + 1) * (g->nl + 1));
	g->syms = xmalloc((g->maxlen + 1) * sizeof *g->syms);
	g->text = xmalloc(g->maxlen + 1);
	g->progress = !sp->quiet && isatty(STDERR_FILENO);
	g->next_progress = limit_now() + 0.25;
	g->status = EXIT_YES;
}

static void gen_free(Gen *g)
{
	gen_draw_free(&g->draw);
	gen_states_free(g->gs);
	eval_free(g->ev);
	seqeval_free(g->se);
	if (g->vals)
		_fmpz_vec_clear(g->vals, (slong)g->maxlen + 1);
	free(g->fam);
	gen_out_free(g->out);
	gen_report_free(g->rep);
	free(g->units);
	free(g->pos);
	free(g->pred);
	free(g->syms);
	free(g->text);
	free(g->order);
}

int gen_data_run(const GenSpec *sp)
{
	Gen g;
	gen_init(&g, sp);
	limit_start(sp->limits);
	if (make_graph(&g)) {
		gen_draw_init(&g.draw, sp, g.gs, g.ev, &g.rng, g.maxlen);
		if (sp->every_word) {
			g.planned = 0;
			every_word(&g);
		} else {
			sample_all(&g);
		}
		fflush(stdout);
		if (g.progress)
			fputs("\r\033[K", stderr);
		if (g.status == EXIT_YES &&
		    !gen_report_finish(g.rep, sp->quiet ? NULL : stderr,
				       sp->report))
			g.status = EXIT_USAGE;
		if (g.status == EXIT_YES && sp->limits && sp->limits->hit) {
			char what[96];
			snprintf(what, sizeof what, "%llu words were written",
				 (unsigned long long)g.written);
			g.status = limit_report(sp->limits, what);
		}
	}
	int status = g.status;
	gen_free(&g);
	return status;
}
