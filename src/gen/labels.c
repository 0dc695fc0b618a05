/* labels.c -- checking labelled words (see labels.h). */
#include <config.h>

#include "gen/labels.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/number.h"
#include "base/status.h"
#include "gen/gen_data.h"
#include "gen/gen_states.h"
#include "base/mem.h"
#include "base/vec.h"
#include "core/word.h"
#include "machine/seqeval.h"

/* Exact integers read from a record: the values of a sequence. */
typedef struct {
	fmpz *v;
	size_t len, cap;
} Ints;

typedef struct {
	Store *s;
	Node root;
	bool integer; /* root is an integer term (a count-valued program) */
	SeqEval *se;  /* root at every position */
	Ints out;     /* its values at positions 0..n (0: the empty word) */
	Alphabet alpha;
	Evaluator *ev;
	bool streams;
	WordReader chars, toks;
	VEC(Sym) w;
	uint32_t *index; /* Sym -> letter index */
	size_t nindex;
	uint8_t *pos;    /* the evaluator's verdicts on the prefixes */
	GenStates *gs;
	size_t gs_horizon;
	size_t line;
	uint64_t records, disagree;
	bool wrong, internal;
	/* the record */
	int label;
	VEC(uint8_t) plabels; /* position labels */
	VEC(uint8_t) rows;    /* prediction rows, nletters + 1 each */
	bool has_pos, has_pred;
	size_t horizon;
	bool pending;         /* .cr: a "// label=" line awaits its word */
	fmpz_t value;         /* a count-valued program's label */
	Ints vals;            /* "values": the sequence, positions 1..n */
	bool has_vals;
} Checker;

static fmpz *ints_next(Ints *x)
{
	if (x->len == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 16;
		x->v = xrealloc(x->v, cap * sizeof *x->v);
		for (size_t i = x->cap; i < cap; i++)
			fmpz_init(&x->v[i]);
		x->cap = cap;
	}
	return &x->v[x->len++];
}

static void ints_free(Ints *x)
{
	for (size_t i = 0; i < x->cap; i++)
		fmpz_clear(&x->v[i]);
	free(x->v);
}

/* ---- reading words ------------------------------------------------------ */

static void on_letters(void *ctx, const Sym *s, size_t n)
{
	Checker *c = ctx;
	for (size_t i = 0; i < n; i++)
		VEC_PUSH(c->w, s[i]);
}

static void on_restart(void *ctx)
{
	((Checker *)ctx)->w.len = 0;
}

static void on_text(void *ctx, const char *bytes, size_t n)
{
	(void)ctx;
	(void)bytes;
	(void)n;
}

static bool on_end(void *ctx)
{
	(void)ctx;
	return true;
}

static int bad_record(Checker *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad_record(Checker *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "tally: error: --check-labels: line %zu: ", c->line);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return EXIT_USAGE;
}

/* A word of a record, as tally gen writes it: its letters together, or
 * separated by spaces when some letter of the alphabet is longer than
 * one character (then a one-letter word "ab" is the letter ab). */
static int read_word(Checker *c, const char *text, size_t n, bool tokens)
{
	c->w.len = 0;
	return word_one(tokens ? &c->toks : &c->chars, text, n) ? EXIT_YES
								 : EXIT_USAGE;
}

/* The letter index of a name, or -1 (nl: the end of the word). */
static long letter_named(const Checker *c, const char *name, bool eos)
{
	if (eos && strcmp(name, GEN_EOS) == 0)
		return (long)c->alpha.n;
	for (size_t a = 0; a < c->alpha.n; a++)
		if (strcmp(sym_name(c->alpha.syms, c->alpha.letters[a]), name) ==
		    0)
			return (long)a;
	return -1;
}

/* ---- records ------------------------------------------------------------ */

static void clear_record(Checker *c)
{
	c->label = -1;
	c->plabels.len = c->rows.len = 0;
	c->has_pos = c->has_pred = c->has_vals = false;
	c->vals.len = 0;
	c->horizon = 0;
}

static int json_word(Checker *c, json_t *w)
{
	if (json_is_string(w))
		return read_word(c, json_string_value(w), json_string_length(w),
				 alphabet_spaced(&c->alpha));
	if (!json_is_array(w))
		return bad_record(c, "\"word\" is neither a string nor a list");
	c->w.len = 0;
	size_t i;
	json_t *tok;
	json_array_foreach(w, i, tok) {
		long a = json_is_string(tok)
				 ? letter_named(c, json_string_value(tok), false)
				 : -1;
		if (a < 0)
			return bad_record(c, "letter %zu of the word is not a "
					  "letter of the alphabet", i + 1);
		VEC_PUSH(c->w, c->alpha.letters[a]);
	}
	return EXIT_YES;
}

/* A label value: true/false or the integer 0 or 1; -1 otherwise. */
static int bit_value(const json_t *x)
{
	if (json_is_boolean(x))
		return json_is_true(x);
	if (json_is_integer(x) && (json_integer_value(x) == 0 ||
				   json_integer_value(x) == 1))
		return (int)json_integer_value(x);
	return -1;
}

/* "labels": a list of 0/1 (positions) or of lists of letters. */
static int json_labels(Checker *c, json_t *l)
{
	size_t i, nl = c->alpha.n;
	json_t *x;
	json_array_foreach(l, i, x) {
		if (json_is_integer(x) || json_is_boolean(x)) {
			if (bit_value(x) < 0)
				return bad_record(c, "label %zu is %" JSON_INTEGER_FORMAT
						  ", not 0 or 1", i,
						  json_integer_value(x));
			c->has_pos = true;
			VEC_PUSH(c->plabels, (uint8_t)bit_value(x));
			continue;
		}
		if (!json_is_array(x))
			return bad_record(c, "label %zu is neither 0/1 nor a "
					  "list of letters", i);
		c->has_pred = true;
		size_t base = c->rows.len, j;
		for (size_t a = 0; a <= nl; a++)
			VEC_PUSH(c->rows, 0);
		json_t *name;
		json_array_foreach(x, j, name) {
			long a = json_is_string(name)
					 ? letter_named(c, json_string_value(name),
							true)
					 : -1;
			if (a < 0)
				return bad_record(c, "label %zu names no letter "
						  "(nor %s)", i, GEN_EOS);
			c->rows.data[base + (size_t)a] = 1;
		}
	}
	if (c->has_pos && c->has_pred)
		return bad_record(c, "mixed position and prediction labels");
	return EXIT_YES;
}

/* A label or value of the record: an integer for a count-valued program
 * (into x), else 0/1 or true/false. */
static int json_value(Checker *c, const json_t *v, const char *what,
		      fmpz_t x)
{
	if (x) {
		if (!json_is_integer(v))
			return bad_record(c, "%s is not an integer (a count-valued "
					  "program)", what);
		fmpz_set_si(x, (slong)json_integer_value(v));
		return EXIT_YES;
	}
	if (bit_value(v) >= 0)
		return EXIT_YES;
	if (json_is_integer(v))
		return bad_record(c, "%s is %" JSON_INTEGER_FORMAT ", not 0 or 1",
				  what, json_integer_value(v));
	return bad_record(c, "%s is not 0 or 1 (a Boolean output)", what);
}

/* "values": the output at every position. */
static int json_values(Checker *c, const json_t *vs)
{
	if (!json_is_array(vs))
		return bad_record(c, "\"values\" is not a list");
	c->has_vals = true;
	size_t i;
	json_t *x;
	json_array_foreach(vs, i, x) {
		char what[48];
		snprintf(what, sizeof what, "value %zu", i + 1);
		fmpz *v = ints_next(&c->vals);
		int st = json_value(c, x, what, c->integer ? v : NULL);
		if (st != EXIT_YES)
			return st;
		if (!c->integer)
			fmpz_set_si(v, bit_value(x));
	}
	return EXIT_YES;
}

/* "length": the number of letters of the word just read. */
static int json_length(Checker *c, const json_t *len)
{
	if (!json_is_integer(len) || json_integer_value(len) < 0 ||
	    (size_t)json_integer_value(len) != c->w.len)
		return json_is_integer(len)
			? bad_record(c, "\"length\" is %" JSON_INTEGER_FORMAT
				     ", the word has %zu letters",
				     json_integer_value(len), c->w.len)
			: bad_record(c, "\"length\" is not a number");
	return EXIT_YES;
}

static int json_record(Checker *c, const char *line)
{
	json_error_t err;
	json_t *o = json_loads(line, 0, &err);
	if (!o || !json_is_object(o)) {
		json_decref(o);
		return bad_record(c, "not a JSON object: %s", err.text);
	}
	json_t *w = json_object_get(o, "word"), *l = json_object_get(o, "label");
	json_t *ls = json_object_get(o, "labels");
	json_t *h = json_object_get(o, "horizon");
	int st = EXIT_YES;
	json_t *len = json_object_get(o, "length");
	json_t *vs = json_object_get(o, "values");
	if (!w || !l)
		st = bad_record(c, "a record needs \"word\" and \"label\"");
	else
		st = json_value(c, l, "the label", c->integer ? c->value : NULL);
	if (st == EXIT_YES && (st = json_word(c, w)) == EXIT_YES && len)
		st = json_length(c, len);
	if (st == EXIT_YES && ls)
		st = c->integer ? bad_record(c, "\"labels\" of a count-valued "
					     "program (its sequence is "
					     "\"values\")")
			: json_is_array(ls) ? json_labels(c, ls)
				       : bad_record(c, "\"labels\" is not a list");
	if (st == EXIT_YES && vs)
		st = json_values(c, vs);
	if (st == EXIT_YES) {
		c->label = c->integer ? 1 : bit_value(l);
		if (h && json_is_integer(h) && json_integer_value(h) >= 0)
			c->horizon = (size_t)json_integer_value(h);
		if (c->has_pred && !c->horizon)
			st = bad_record(c, "prediction labels need \"horizon\"");
	}
	json_decref(o);
	return st;
}

/* An integer in decimal, s[0..n): an optional '-' and digits. */
static bool read_int(const char *s, size_t n, fmpz_t x)
{
	size_t sign = n && *s == '-';
	if (n == sign || n - sign > 4096 ||
	    strspn(s + sign, "0123456789") < n - sign)
		return false;
	char *t = xmalloc(n + 1);
	memcpy(t, s, n);
	t[n] = '\0';
	bool ok = fmpz_set_str(x, t, 10) == 0;
	free(t);
	return ok;
}

/* "0"/"1", or a count-valued program's integer. */
static int parse_label(Checker *c, const char *s, size_t n)
{
	if (c->integer) {
		if (!read_int(s, n, c->value))
			return bad_record(c, "the label is '%.*s', not an integer "
					  "(a count-valued program)", (int)n, s);
		c->label = 1;
		return EXIT_YES;
	}
	if (n != 1 || (*s != '0' && *s != '1'))
		return bad_record(c, "the label is '%.*s', not 0 or 1", (int)n, s);
	c->label = *s == '1';
	return EXIT_YES;
}

/* Comma-separated values, s[0..n) (empty: none). */
static int parse_values(Checker *c, const char *s, size_t n)
{
	c->has_vals = true;
	for (size_t i = 0, at = 0; at < n; i++) {
		const char *comma = memchr(s + at, ',', n - at);
		size_t len = comma ? (size_t)(comma - s) - at : n - at;
		fmpz *v = ints_next(&c->vals);
		if (!read_int(s + at, len, v) ||
		    (!c->integer && (fmpz_sgn(v) < 0 || fmpz_cmp_ui(v, 1) > 0)))
			return bad_record(c, "value %zu is '%.*s', not %s", i + 1,
					  (int)len, s + at,
					  c->integer ? "an integer" : "0 or 1");
		at += len + 1;
		if (comma && at == n)
			return bad_record(c, "the values end in a comma");
	}
	return EXIT_YES;
}

static void bit_labels(Checker *c, const char *s, size_t n)
{
	c->has_pos = true;
	for (size_t i = 0; i < n; i++)
		VEC_PUSH(c->plabels, (uint8_t)(s[i] == '1'));
}

static bool all_bits(const char *s, size_t n)
{
	return n && strspn(s, "01") >= n;
}

/* WORD<TAB>LABEL[<TAB>POSITION-LABELS][<TAB>SPLIT] */
static int tsv_record(Checker *c, const char *line, size_t n)
{
	const char *f[4];
	size_t len[4], k = 0;
	for (const char *p = line; k < 4;) {
		const char *tab = memchr(p, '\t', (size_t)(line + n - p));
		f[k] = p;
		len[k++] = (tab ? (size_t)(tab - p) : (size_t)(line + n - p));
		if (!tab)
			break;
		p = tab + 1;
	}
	if (k < 2)
		return bad_record(c, "expected WORD<TAB>LABEL");
	int st = parse_label(c, f[1], len[1]);
	if (st == EXIT_YES)
		st = read_word(c, f[0], len[0], alphabet_spaced(&c->alpha));
	/* a split's name starts with a letter; the labels do not */
	if (st != EXIT_YES || k < 3 || (len[2] && !strchr("-0123456789", *f[2])))
		return st;
	/* n + 1 bits without commas are a formula's prefix verdicts; else
	 * the output sequence, n values separated by commas */
	if (!c->integer && len[2] == c->w.len + 1 && all_bits(f[2], len[2]))
		bit_labels(c, f[2], len[2]);
	else
		st = parse_values(c, f[2], len[2]);
	return st;
}

/* A .cr comment "// label=L length=N [split=S] [labels=BITS]
 * [values=V,...]". */
static int cr_comment(Checker *c, const char *line)
{
	const char *l = strstr(line, " label="), *b = strstr(line, " labels=");
	const char *v = strstr(line, " values=");
	if (!l)
		return EXIT_YES; /* another comment */
	int st = parse_label(c, l + 7, strcspn(l + 7, " \r"));
	if (st == EXIT_YES && b)
		bit_labels(c, b + 8, strcspn(b + 8, " \r"));
	if (st == EXIT_YES && v)
		st = parse_values(c, v + 8, strcspn(v + 8, " \r"));
	c->pending = st == EXIT_YES;
	return st;
}

/* ---- checking ----------------------------------------------------------- */

static char *word_text(const Checker *c, const Sym *w, size_t n)
{
	Buf b = {0};
	buf_puts(&b, "");
	for (size_t i = 0; i < n; i++) {
		if (i && c->alpha.maxlen > 1)
			buf_putc(&b, ' ');
		buf_puts(&b, sym_name(c->alpha.syms, w[i]));
	}
	return buf_take(&b);
}

static void disagree(Checker *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void disagree(Checker *c, const char *fmt, ...)
{
	if (!c->wrong) {
		char *t = word_text(c, c->w.data, c->w.len);
		printf("line %zu: '%s':", c->line, t);
		free(t);
	}
	c->wrong = true;
	va_list ap;
	va_start(ap, fmt);
	putchar(' ');
	vprintf(fmt, ap);
	va_end(ap);
}

/* The evaluator's verdict on every prefix into c->pos[0..n]. */
static void prefix_verdicts(Checker *c)
{
	size_t n = c->w.len;
	bool acc;
	c->pos = xrealloc(c->pos, n + 1);
	if (!c->streams) {
		for (size_t i = 0; i <= n; i++) {
			eval_word(c->ev, c->w.data, i, &acc);
			c->pos[i] = acc;
		}
		return;
	}
	eval_reset(c->ev);
	for (size_t i = 0; i < n; i++) {
		c->pos[i] = eval_accepts(c->ev, 0);
		eval_push(c->ev, c->w.data[i]);
	}
	c->pos[n] = eval_accepts(c->ev, 0);
}

static int internal(Checker *c, const Sym *w, size_t n, const char *what)
{
	char *t = word_text(c, w, n);
	fprintf(stderr, "tally: internal error: --check-labels: %s on '%s'\n",
		what, t);
	free(t);
	c->internal = true;
	return EXIT_INTERNAL;
}

/* The state graph up to the record's horizon. */
static int graph(Checker *c)
{
	if (c->gs && c->gs_horizon == c->horizon)
		return EXIT_YES;
	gen_states_free(c->gs);
	char *why = NULL;
	c->gs = gen_states_build(c->s, &c->root, 1, &c->alpha, c->horizon,
				 4000000, NULL, &why);
	c->gs_horizon = c->horizon;
	if (!c->gs) {
		int st = bad_record(c, "prediction labels cannot be checked: "
				    "%s", why);
		free(why);
		return st;
	}
	gen_states_horizon(c->gs, c->horizon);
	return EXIT_YES;
}

/* The letter a may follow the first i letters: the graph says so, and
 * a completion it gives is a member by the evaluator. */
static int possible(Checker *c, uint32_t s, size_t i, size_t a, bool *yes)
{
	*yes = i < c->horizon &&
	       gen_states_can_finish(c->gs, gen_states_next(c->gs, s, a));
	if (!*yes)
		return EXIT_YES;
	uint32_t t = gen_states_next(c->gs, s, a);
	uint32_t *tail = xmalloc((c->horizon + 1) * sizeof *tail);
	size_t k = gen_states_witness(c->gs, t, tail);
	Sym *w = xmalloc((i + 1 + k + 1) * sizeof *w);
	memcpy(w, c->w.data, i * sizeof *w);
	w[i] = c->alpha.letters[a];
	for (size_t j = 0; j < k; j++)
		w[i + 1 + j] = c->alpha.letters[tail[j]];
	bool acc;
	eval_word(c->ev, w, i + 1 + k, &acc);
	int st = acc ? EXIT_YES
		     : internal(c, w, i + 1 + k, "the state graph's member "
				"is rejected by the evaluator");
	free(w);
	free(tail);
	return st;
}

static void put_row(const Checker *c, const uint8_t *row, Buf *b)
{
	buf_putc(b, '{');
	bool any = false;
	for (size_t a = 0; a <= c->alpha.n; a++)
		if (row[a]) {
			buf_puts(b, any ? ", " : "");
			buf_puts(b, a < c->alpha.n ? sym_name(c->alpha.syms,
							      c->alpha.letters[a])
						   : GEN_EOS);
			any = true;
		}
	buf_putc(b, '}');
}

static int check_predictions(Checker *c)
{
	size_t n = c->w.len, nl = c->alpha.n;
	if (c->rows.len != (n + 1) * (nl + 1))
		return bad_record(c, "%zu prediction labels for a word of length "
				  "%zu (expected %zu)", c->rows.len / (nl + 1),
				  n, n + 1);
	if (n > c->horizon)
		return bad_record(c, "the word is longer than the horizon");
	int st = graph(c);
	uint32_t s = gen_states_start(c->gs);
	uint8_t *row = xmalloc(nl + 1);
	for (size_t i = 0; i <= n && st == EXIT_YES; i++) {
		for (size_t a = 0; a < nl && st == EXIT_YES; a++) {
			bool yes;
			st = possible(c, s, i, a, &yes);
			row[a] = yes;
		}
		row[nl] = c->pos[i];
		if (st == EXIT_YES &&
		    (gen_states_class(c->gs, s) == (GEN_IN | GEN_DOMAIN)) !=
			    c->pos[i])
			st = internal(c, c->w.data, i, "the state graph and the "
				      "evaluator disagree");
		const uint8_t *want = c->rows.data + i * (nl + 1);
		if (st == EXIT_YES && memcmp(row, want, nl + 1) != 0) {
			Buf b = {0};
			put_row(c, want, &b);
			buf_puts(&b, ", the formula allows ");
			put_row(c, row, &b);
			disagree(c, "after %zu letter%s: the label says %s", i,
				 i == 1 ? "" : "s", b.data);
			buf_free(&b);
			break;
		}
		if (i < n)
			s = gen_states_next(c->gs, s, c->index[c->w.data[i]]);
	}
	free(row);
	return st;
}

static void on_out(void *ctx, const SeqEval *se, size_t pos)
{
	Checker *c = ctx;
	seqeval_value(se, 0, &c->out.v[pos]);
}

/* The program's output at every position into c->out.v[0..n]; a
 * Boolean one's last value must be the evaluator's verdict (c->pos). */
static int output_sequence(Checker *c)
{
	size_t n = c->w.len;
	c->out.len = 0;
	for (size_t i = 0; i <= n; i++)
		ints_next(&c->out);
	seqeval_word(c->se, c->w.data, n);
	if (!c->integer && fmpz_is_zero(&c->out.v[n]) == c->pos[n])
		return internal(c, c->w.data, n, "the output sequence and the "
				"evaluator disagree at the last position");
	return EXIT_YES;
}

/* "WHAT WANT, the program says GOT". */
static void disagree_ints(Checker *c, const char *what, const fmpz_t want,
			  const fmpz_t got)
{
	Buf b = {0};
	buf_printf(&b, "%s ", what);
	seqeval_put(&b, want);
	buf_puts(&b, ", the program says ");
	seqeval_put(&b, got);
	disagree(c, "%s", b.data);
	buf_free(&b);
}

/* The first position whose value is wrong. */
static int check_values(Checker *c)
{
	size_t n = c->w.len;
	if (c->vals.len != n)
		return bad_record(c, "%zu values for a word of length %zu",
				  c->vals.len, n);
	for (size_t i = 0; i < n; i++) {
		const fmpz *want = &c->vals.v[i], *got = &c->out.v[i + 1];
		if (fmpz_equal(want, got))
			continue;
		char where[48];
		snprintf(where, sizeof where, "position %zu: value", i + 1);
		disagree_ints(c, where, want, got);
		break;
	}
	return EXIT_YES;
}

/* The label of the word: the verdict, or a count-valued program's value
 * at the judged position. */
static void check_label(Checker *c)
{
	size_t n = c->w.len;
	if (!c->integer) {
		if (c->label != c->pos[n])
			disagree(c, "label %d, the formula says %d", c->label,
				 c->pos[n]);
		return;
	}
	if (fmpz_equal(c->value, &c->out.v[n]))
		return;
	disagree_ints(c, "label", c->value, &c->out.v[n]);
}

static int check_record(Checker *c)
{
	size_t n = c->w.len;
	c->records++;
	c->wrong = false;
	if (!c->integer)
		prefix_verdicts(c);
	int st = c->integer || c->has_vals ? output_sequence(c) : EXIT_YES;
	if (st != EXIT_YES)
		return st;
	check_label(c);
	if (c->has_vals && (st = check_values(c)) != EXIT_YES)
		return st;
	if (c->has_pos) {
		if (c->plabels.len != n + 1)
			return bad_record(c, "%zu position labels for a word of "
					  "length %zu (expected %zu)",
					  c->plabels.len, n, n + 1);
		for (size_t i = 0; i <= n; i++)
			if (c->plabels.data[i] != c->pos[i]) {
				disagree(c, "after %zu letter%s: label %d, the "
					 "formula says %d", i, i == 1 ? "" : "s",
					 c->plabels.data[i], c->pos[i]);
				break;
			}
	}
	st = c->has_pred ? check_predictions(c) : EXIT_YES;
	if (c->wrong) {
		putchar('\n');
		c->disagree++;
	}
	return st;
}

/* One line of input. */
static int line(Checker *c, char *text, size_t n)
{
	while (n && (text[n - 1] == '\n' || text[n - 1] == '\r'))
		text[--n] = '\0';
	if (c->pending) { /* the word of a .cr record */
		if (n == 0 || strncmp(text, "//", 2) == 0)
			return n ? cr_comment(c, text) : EXIT_YES;
		c->pending = false;
		int st = read_word(c, text, n, true);
		return st == EXIT_YES ? check_record(c) : st;
	}
	clear_record(c);
	int st;
	if (n == 0)
		return EXIT_YES; /* blank line (.cr files) */
	if (strncmp(text, "//", 2) == 0)
		return cr_comment(c, text);
	if (text[0] == '{')
		st = json_record(c, text);
	else
		st = tsv_record(c, text, n);
	return st == EXIT_YES ? check_record(c) : st;
}

/* ---- set-up ------------------------------------------------------------- */

static void checker_init(Checker *c, Store *s, const Unit *u,
			 const char *alphabet, AcceptAt accept, Diag *d)
{
	memset(c, 0, sizeof *c);
	c->s = s;
	c->root = u->output;
	c->integer = !store_is_bool(s, c->root);
	alphabet_init_units(&c->alpha, s, &c->root, 1, u, 1, alphabet);
	if (!c->integer) {
		c->ev = eval_new(s, &c->root, 1, accept);
		c->streams = eval_streams(c->ev);
	}
	c->se = seqeval_new(s, &c->root, 1, accept, on_out, c);
	fmpz_init(c->value);
	WordSink sink = {c, on_letters, on_restart, on_text, on_end};
	word_reader_init(&c->chars, &c->alpha, false, &sink, d);
	word_reader_init(&c->toks, &c->alpha, true, &sink, d);
	for (size_t a = 0; a < c->alpha.n; a++)
		if (c->alpha.letters[a] >= c->nindex)
			c->nindex = c->alpha.letters[a] + 1;
	c->index = xcalloc(c->nindex + 1, sizeof *c->index);
	for (size_t a = 0; a < c->alpha.n; a++)
		c->index[c->alpha.letters[a]] = (uint32_t)a;
}

static void checker_free(Checker *c)
{
	word_reader_free(&c->chars);
	word_reader_free(&c->toks);
	eval_free(c->ev);
	seqeval_free(c->se);
	ints_free(&c->out);
	ints_free(&c->vals);
	fmpz_clear(c->value);
	gen_states_free(c->gs);
	alphabet_free(&c->alpha);
	VEC_FREE(c->w);
	VEC_FREE(c->plabels);
	VEC_FREE(c->rows);
	free(c->index);
	free(c->pos);
}

int labels_check(Store *s, const Unit *units, size_t nunits,
		 const char *alphabet, AcceptAt accept, FILE *in, Diag *d)
{
	if (nunits != 1)
		return status_usage_error("--check-labels takes one formula or "
				       "program, not %zu", nunits);
	if (accept != ACCEPT_LAST)
		return status_usage_error("--check-labels: labels are judged at "
				       "the last position (no --accept-at)");
	Checker c;
	checker_init(&c, s, &units[0], alphabet, accept, d);
	char *text = NULL;
	size_t cap = 0;
	ssize_t got;
	int st = EXIT_YES;
	while (st == EXIT_YES && (got = getline(&text, &cap, in)) >= 0) {
		c.line++;
		st = line(&c, text, (size_t)got);
		fflush(stdout);
	}
	free(text);
	if (st == EXIT_YES && c.pending)
		st = bad_record(&c, "a label line without its word");
	if (st == EXIT_YES) {
		fprintf(stderr, "tally: check-labels: %llu words, %llu with a "
			"wrong label\n", (unsigned long long)c.records,
			(unsigned long long)c.disagree);
		st = c.disagree ? EXIT_NO : EXIT_YES;
	}
	checker_free(&c);
	return st;
}
