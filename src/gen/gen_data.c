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
#include "base/parallel.h"
#include "base/status.h"
#include "gen/gen_draw.h"
#include "gen/gen_label.h"
#include "gen/gen_report.h"
#include "gen/gen_states.h"
#include "gen/gen_write.h"
#include "base/mem.h"

typedef struct {
	const GenSpec *sp;
	GenStates *gs;
	GenLabeler *lab; /* one per thread; lab[0] also for the draws */
	unsigned jobs;
	Buf *task_out;   /* per task of a chunk: its records */
	size_t *task_fail; /* per task: the word it stopped at, or SIZE_MAX */
	size_t *rec_end; /* per word of a chunk: where its record ends */
	uint8_t *rec_label;
	fmpz *rec_vals;  /* per word of a chunk: its output's n + 1 values */
	size_t rec_vals_len;
	GenRng rng;
	GenDraw draw;
	GenOut *out;
	const GenSink *sink; /* the spec's, when it took the records */
	GenReport *rep;
	size_t nl, minlen, maxlen;
	uint64_t *units; /* nsplits x (maxlen + 1): ratio units per length */
	uint64_t planned, written;
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

/* The record of a word labelled by L, appended to b. */
static void format_record(Gen *g, const GenLabeler *L, Buf *b, size_t split,
			  const uint32_t *w, size_t n, bool label)
{
	const GenSpec *sp = g->sp;
	GenRecord r = {w, n, label,
		       sp->labels == GEN_LABELS_POSITION ? L->pos : NULL,
		       sp->labels == GEN_LABELS_PREDICTION ? L->pred : NULL,
		       sp->named_splits ? sp->splits[split].name : NULL,
		       sp->labels == GEN_LABELS_SEQUENCE ? L->vals + 1 : NULL,
		       sp->integer ? &L->vals[n] : NULL};
	gen_out_format(g->out, b, &r);
}

/* A word written: the report (with its output's values vals[0..n], or
 * NULL), the progress, the limits. */
static bool written(Gen *g, size_t split, const uint32_t *w, size_t n,
		    bool label, GenKind kind, const fmpz *vals)
{
	gen_report_word(g->rep, split, w, n, label, kind);
	if (vals)
		gen_report_values(g->rep, split, vals + 1, n, &vals[n]);
	g->written++;
	progress(g, n);
	return !gen_states_poll(g->gs, g->sp->limits);
}

/* A labeller's disagreement, reported on the word. */
static bool disagreed(Gen *g, const GenLabeler *L, const uint32_t *w)
{
	internal(g, w, L->why_n, "%s", L->why.data);
	return false;
}

static bool emit(Gen *g, size_t split, const uint32_t *w, size_t n,
		 int intended, GenKind kind)
{
	bool label;
	GenLabeler *L = &g->lab[0];
	if (!gen_label(L, w, n, intended, &label))
		return disagreed(g, L, w);
	if (g->sink) {
		g->sink->word(g->sink->ctx, split, w, n, label);
	} else {
		Buf *b = &g->task_out[0];
		b->len = 0;
		format_record(g, L, b, split, w, n, label);
		fwrite(b->data, 1, b->len, stdout);
	}
	return written(g, split, w, n, label, kind, L->vals);
}

/* Words per chunk at most: memory for one chunk of words, whatever the
 * dataset's size. */
enum { GEN_CHUNK = 1 << 14 };

/* The chunk being labelled: words order[0..k) of the batches. */
typedef struct {
	Gen *g;
	size_t split, n, k, ntask;
} Chunk;

static const uint32_t *chunk_word(const Gen *g, size_t i, int *c,
				  GenKind *kind)
{
	*c = (int)(g->order[i] % 2);
	const GenBatch *b = &g->draw.batch[*c];
	size_t at = g->order[i] / 2;
	*kind = (GenKind)b->kind[at];
	return gen_batch_word(b, at);
}

static size_t task_lo(const Chunk *ch, size_t t)
{
	return ch->k * t / ch->ntask;
}

/* Labels and formats the words of task t (on a thread: labeller
 * `worker`, the task's own buffer). */
static void label_task(void *ctx, unsigned worker, size_t t)
{
	Chunk *ch = ctx;
	Gen *g = ch->g;
	GenLabeler *L = &g->lab[worker];
	Buf *b = &g->task_out[t];
	b->len = 0;
	g->task_fail[t] = SIZE_MAX;
	for (size_t i = task_lo(ch, t); i < task_lo(ch, t + 1); i++) {
		int c;
		GenKind kind;
		const uint32_t *w = chunk_word(g, i, &c, &kind);
		bool label;
		if (!gen_label(L, w, ch->n, c, &label)) {
			g->task_fail[t] = i;
			return;
		}
		if (!g->sink)
			format_record(g, L, b, ch->split, w, ch->n, label);
		g->rec_end[i] = b->len;
		g->rec_label[i] = label;
		if (L->se)
			_fmpz_vec_set(g->rec_vals + i * (ch->n + 1), L->vals,
				      (slong)ch->n + 1);
	}
}

/* Tasks per chunk: several per thread, so that threads finish together. */
enum { GEN_TASKS_PER_JOB = 8 };

/* Room for a chunk's output values (each word's n + 1, kept for the
 * report, which takes them in the dataset's order). */
static void chunk_values(Gen *g, size_t need)
{
	if (need <= g->rec_vals_len)
		return;
	g->rec_vals = xrealloc(g->rec_vals, need * sizeof *g->rec_vals);
	/* a zero fmpz is an initialised one */
	memset(g->rec_vals + g->rec_vals_len, 0,
	       (need - g->rec_vals_len) * sizeof *g->rec_vals);
	g->rec_vals_len = need;
}

/* Writes u units of the batches (taken from the start) to split s,
 * members and non-members shuffled together: the words are labelled
 * and formatted by tasks on the threads, then written in order, so the
 * bytes are those of one thread. */
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
	if (g->lab[0].se)
		chunk_values(g, k * (n + 1));
	Chunk ch = {g, s, n, k, k < (size_t)g->jobs * GEN_TASKS_PER_JOB
				    ? (k ? k : 1) : (size_t)g->jobs * GEN_TASKS_PER_JOB};
	parallel_each(g->jobs, ch.ntask, label_task, &ch);
	for (size_t t = 0; t < ch.ntask; t++) {
		const Buf *b = &g->task_out[t];
		size_t at = 0;
		for (size_t i = task_lo(&ch, t); i < task_lo(&ch, t + 1); i++) {
			int c;
			GenKind kind;
			const uint32_t *w = chunk_word(g, i, &c, &kind);
			if (i == g->task_fail[t]) {
				/* again here, for the message */
				bool label;
				gen_label(&g->lab[0], w, n, c, &label);
				return disagreed(g, &g->lab[0], w);
			}
			if (g->sink)
				g->sink->word(g->sink->ctx, s, w, n,
					      g->rec_label[i]);
			else
				fwrite(b->data + at, 1, g->rec_end[i] - at,
				       stdout);
			at = g->rec_end[i];
			if (!written(g, s, w, n, g->rec_label[i], kind,
				     g->rec_vals ? g->rec_vals + i * (n + 1)
						 : NULL))
				return false;
		}
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
	size_t most = GEN_CHUNK + ratio_sum(sp);
	g->order = xmalloc(most * sizeof *g->order);
	g->rec_end = xmalloc(most * sizeof *g->rec_end);
	g->rec_label = xmalloc(most);
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
	g->jobs = sp->jobs ? sp->jobs : 1;
	g->out = gen_out_new(sp, stdout);
	g->rep = gen_report_new(sp);
	g->text = xmalloc(g->maxlen + 1);
	size_t ntask = (size_t)g->jobs * GEN_TASKS_PER_JOB;
	g->task_out = xcalloc(ntask, sizeof *g->task_out);
	g->task_fail = xmalloc(ntask * sizeof *g->task_fail);
	g->progress = !sp->quiet && isatty(STDERR_FILENO);
	g->next_progress = limit_now() + 0.25;
	g->status = EXIT_YES;
	const GenSink *k = sp->sink;
	if (k && sp->labels == GEN_LABELS_WORD && !sp->integer &&
	    k->begin(k->ctx, sp, g->maxlen))
		g->sink = k;
}

static void gen_free(Gen *g)
{
	gen_draw_free(&g->draw);
	for (unsigned j = 0; g->lab && j < g->jobs; j++)
		gen_labeler_free(&g->lab[j]);
	free(g->lab);
	for (size_t t = 0; t < (size_t)g->jobs * GEN_TASKS_PER_JOB; t++)
		buf_free(&g->task_out[t]);
	free(g->task_out);
	free(g->task_fail);
	free(g->rec_end);
	free(g->rec_label);
	if (g->rec_vals)
		_fmpz_vec_clear(g->rec_vals, (slong)g->rec_vals_len);
	gen_states_free(g->gs);
	gen_out_free(g->out);
	gen_report_free(g->rep);
	free(g->units);
	free(g->text);
	free(g->order);
}

int gen_data_run(const GenSpec *sp)
{
	Gen g;
	gen_init(&g, sp);
	limit_start(sp->limits);
	if (make_graph(&g)) {
		/* made here, after the graph the predictions read */
		g.lab = xmalloc(g.jobs * sizeof *g.lab);
		for (unsigned j = 0; j < g.jobs; j++)
			gen_labeler_init(&g.lab[j], sp, g.gs, g.maxlen);
		gen_draw_init(&g.draw, sp, g.gs, g.lab[0].ev, &g.rng, g.maxlen);
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
