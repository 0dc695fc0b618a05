/* check.c -- one case's verdicts against brute force (see check.h). */
#include <config.h>
#include "check.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "capture.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "decide/explore.h"
#include "machine/runeval.h"

/* report_methods[CHC_ROW] is chc, which refuses #> by a usage error. */
#define CHC_ROW 2

/* ---- words --------------------------------------------------------------- */

static char *word_text(const Problem *p, const Sym *w, size_t n)
{
	Buf b = {0};
	buf_puts(&b, "\"");
	for (size_t i = 0; i < n; i++)
		buf_puts(&b, sym_name(store_syms(p->s), w[i]));
	buf_puts(&b, "\"");
	return buf_take(&b);
}

static char *runs_text(const Problem *p, const Runs *w)
{
	char *t = runs_format(w, store_syms(p->s), 60);
	Buf b = {0};
	buf_printf(&b, "\"%s\"", t);
	free(t);
	return buf_take(&b);
}

static void runs_len(const Runs *w, fmpz_t len)
{
	fmpz_zero(len);
	for (size_t i = 0; i < w->n; i++)
		fmpz_add(len, len, w->count + i);
}

/* The truth behind a claim of equality up to length `upto` (SIZE_MAX:
 * every length): fails when brute force separates within it. */
static void check_equal(Case *c, const Problem *p, const Brute *b,
			size_t upto, const char *claim)
{
	if (!b->differs || b->first_len > upto)
		return;
	char *w = word_text(p, b->first, b->first_len);
	report_fail(c, upto == SIZE_MAX ? K_PROOF : K_BOUND,
		    "%s, but the sides differ on %s (length %zu; %s by the "
		    "reduced first side)", claim, w, b->first_len,
		    b->first_accepted ? "accepted" : "rejected");
	free(w);
}

/* A claimed separating word: it separates, its letters are in the
 * alphabet, and it is as short as claimed.  accepted_by: 0 or 1 as
 * claimed, -1 when nothing is claimed.  Returns its length when it
 * separates and is at most BRUTE_MAX_LEN long, else SIZE_MAX. */
static size_t check_witness(Case *c, const Problem *p, const Brute *b,
			    const Runs *w, bool shortest, int accepted_by)
{
	for (size_t i = 0; i < w->n; i++) {
		bool in = false;
		for (size_t j = 0; j < p->n; j++)
			in = in || p->sym[j] == w->letter[i];
		if (!in) {
			char *t = runs_text(p, w);
			report_fail(c, K_WITNESS, "the word %s has a letter "
				    "outside the alphabet", t);
			free(t);
			return SIZE_MAX;
		}
	}
	bool acc[2];
	char *why = NULL;
	if (!brute_word(p, w, acc, &why)) {
		c->run->unchecked++;
		free(why);
		return SIZE_MAX;
	}
	char *t = runs_text(p, w);
	size_t result = SIZE_MAX;
	fmpz_t len;
	fmpz_init(len);
	runs_len(w, len);
	if (acc[0] == acc[1]) {
		report_fail(c, K_WITNESS, "the sides agree on %s (both %s it)",
			    t, acc[0] ? "accept" : "reject");
	} else if (accepted_by >= 0 && acc[accepted_by] != true) {
		report_fail(c, K_WITNESS, "%s is said to be accepted by the %s "
			    "side, but it is accepted by the other", t,
			    accepted_by == 0 ? "first" : "second");
	} else if (shortest && b->differs &&
		   fmpz_cmp_ui(len, b->first_len) > 0) {
		char *s = word_text(p, b->first, b->first_len);
		report_fail(c, K_SHORTEST, "%s is said to be shortest, but %s "
			    "separates too", t, s);
		free(s);
	} else if (fmpz_cmp_ui(len, BRUTE_MAX_LEN) <= 0) {
		result = fmpz_get_ui(len);
	}
	fmpz_clear(len);
	free(t);
	return result;
}


/* ---- the input ----------------------------------------------------------- */

void check_meaning(Run *run, const Input *in, const Problem *p,
		   const Brute *b)
{
	if (!b->misread)
		return;
	Case c = {.run = run, .in = in, .accept = p->accept};
	char *w = word_text(p, b->misread_word, b->misread_len);
	report_fail(&c, K_MEANING, "side %zu: tally's nodes %s %s, the "
		    "text's meaning %s it; the text: %s", b->misread_side + 1,
		    b->misread_by_node ? "accept" : "reject", w,
		    b->misread_by_node ? "rejects" : "accepts",
		    in->side[b->misread_side].text);
	free(w);
}

/* ---- one method's MethodResult ------------------------------------------- */

static const char *status_name(MethodStatus s)
{
	static const char *const n[] = {"MR_EQUIVALENT", "MR_DIFFERENT",
					 "MR_BOUNDED", "MR_UNKNOWN", "MR_LIMIT",
					 "MR_NOT_APPLICABLE"};
	return n[s];
}

void check_method(Case *c, const Problem *p, const Brute *b)
{
	const MethodRow *m = &report_methods[c->mi];
	Query q = {.store = p->s, .alphabet = p->sym, .nletters = p->n,
		   .accept = p->accept, .timeout = c->run->budget,
		   .max_length = p->method_len,
		   .want_certificate = c->in->id % 2 == 0};
	q.root[0] = p->root[0];
	q.root[1] = p->root[1];
	MethodResult r;
	method_result_init(&r);
	m->fn(&q, &r);
	char claim[64];
	switch (r.status) {
	case MR_EQUIVALENT:
		report_outcome(c, O_PROOF);
		check_equal(c, p, b, SIZE_MAX, "MR_EQUIVALENT");
		break;
	case MR_BOUNDED:
		report_outcome(c, O_BOUNDED);
		snprintf(claim, sizeof claim, "MR_BOUNDED up to length %zu",
			 r.bound);
		check_equal(c, p, b, r.bound, claim);
		break;
	case MR_DIFFERENT:
		report_outcome(c, O_COUNTEREXAMPLE);
		check_witness(c, p, b, &r.witness, r.witness_shortest, -1);
		break;
	case MR_LIMIT:
		/* explore says how far it got: every word up to .bound. */
		if (m->fn == explore_decide) {
			snprintf(claim, sizeof claim, "MR_LIMIT after every "
				 "word up to length %zu", r.bound);
			check_equal(c, p, b, r.bound, claim);
		}
		report_outcome(c, O_UNKNOWN);
		break;
	default:
		report_outcome(c, O_UNKNOWN);
		break;
	}
	if (c->run->only >= 0)
		fprintf(capture_report(), "  %-10s %-4s raw      %s%s%s\n",
			m->name, eval_accept_name(p->accept),
			status_name(r.status), r.reason ? ": " : "",
			r.reason ? r.reason : "");
	method_result_free(&r);
}


/* ---- the command --------------------------------------------------------- */

typedef enum { V_EQUAL, V_DIFFERENT, V_BOUNDED, V_UNKNOWN, V_BAD } Verdict;

/* The verdict line's meaning; *bound for "... up to length N". */
static Verdict parse_verdict(DecideTask t, const char *v, size_t *bound)
{
	static const char *const words[][2] = {
		[TASK_EQUIV] = {"equivalent", "not equivalent"},
		[TASK_SAT] = {"unsatisfiable", "satisfiable"},
		[TASK_VALID] = {"valid", "not valid"},
		[TASK_IMPLIES] = {"valid", "not valid"},
	};
	if (strcmp(v, "unknown") == 0)
		return V_UNKNOWN;
	if (strcmp(v, words[t][0]) == 0)
		return V_EQUAL;
	if (strcmp(v, words[t][1]) == 0)
		return V_DIFFERENT;
	size_t n = strlen(words[t][0]);
	unsigned long long b;
	char tail;
	if (strncmp(v, words[t][0], n) == 0 &&
	    sscanf(v + n, " up to length %llu%c", &b, &tail) == 1) {
		*bound = (size_t)b;
		return V_BOUNDED;
	}
	return V_BAD;
}

static bool status_matches(DecideTask t, Verdict v, int status)
{
	bool sat = t == TASK_SAT;
	switch (v) {
	case V_EQUAL: return status == (sat ? EXIT_NO : EXIT_YES);
	case V_DIFFERENT: return status == (sat ? EXIT_YES : EXIT_NO);
	case V_BOUNDED: return status == EXIT_UNKNOWN;
	case V_UNKNOWN: return status == EXIT_UNKNOWN || status == EXIT_LIMIT;
	default: return false;
	}
}

/* The counterexample's word: letters written together, or run-length
 * items "a^N" separated by blanks (the form of tally-equiv(1)). */
static bool parse_word(const Problem *p, const char *text, Runs *out)
{
	SymTab *syms = store_syms(p->s);
	bool runs = strchr(text, '^') || strchr(text, ' ');
	for (const char *s = text; *s;) {
		if (*s == ' ') {
			s++;
			continue;
		}
		Sym l = sym_lookup(syms, s, 1);
		if (l == SYM_NONE)
			l = sym_intern(syms, s, 1);
		s++;
		fmpz_t k;
		fmpz_init_set_ui(k, 1);
		if (runs && *s == '^') {
			const char *d = ++s;
			while (*s >= '0' && *s <= '9')
				s++;
			char *digits = strndup(d, (size_t)(s - d));
			bool ok = *digits && fmpz_set_str(k, digits, 10) == 0 &&
				  fmpz_sgn(k) > 0;
			free(digits);
			if (!ok) {
				fmpz_clear(k);
				return false;
			}
		}
		runs_push(out, l, k);
		fmpz_clear(k);
	}
	return true;
}

/* The alphabet of the JSON output: the same letters as the problem's;
 * their order into order[]. */
static bool check_alphabet(Case *c, const Problem *p, json_t *alpha,
			   Sym *order)
{
	size_t n = json_array_size(alpha);
	bool same = json_is_array(alpha) && n == p->n;
	for (size_t i = 0; same && i < n; i++) {
		const char *name = json_string_value(json_array_get(alpha, i));
		Sym l = name ? sym_lookup(store_syms(p->s), name, strlen(name))
			     : SYM_NONE;
		bool in = false;
		for (size_t j = 0; j < p->n; j++)
			in = in || p->sym[j] == l;
		same = in;
		order[i] = l;
	}
	if (!same) {
		char *got = json_dumps(alpha, JSON_COMPACT);
		Buf want = {0};
		buf_puts(&want, "");
		for (size_t j = 0; j < p->n; j++)
			buf_printf(&want, "%s%s", j ? " " : "",
				   sym_name(store_syms(p->s), p->sym[j]));
		report_fail(c, K_ALPHABET, "the alphabet is %s, the inputs "
			    "spell %s", got ? got : "?", want.data);
		free(got);
		buf_free(&want);
	}
	return same;
}

static void check_counterexample(Case *c, const Problem *p, const Brute *b,
				 json_t *o, const Sym *order, bool ordered)
{
	json_t *ce = json_object_get(o, c->in->task == TASK_SAT ? "witness"
							      : "counterexample");
	const char *word = json_string_value(json_object_get(ce, "word"));
	const char *by = json_string_value(json_object_get(ce, "accepted_by"));
	if (!word || !by) {
		report_fail(c, K_OUTPUT, "no counterexample word with "
			    "accepted_by");
		return;
	}
	Runs w;
	runs_init(&w);
	if (!parse_word(p, word, &w)) {
		report_fail(c, K_OUTPUT, "cannot read the word \"%s\"",
			    word);
		runs_clear(&w);
		return;
	}
	bool shortest = json_is_true(json_object_get(ce, "shortest"));
	size_t len = check_witness(c, p, b, &w, shortest,
				   strcmp(by, "first") == 0 ? 0 : 1);
	const char *line = json_string_value(json_object_get(o, "method_line"));
	/* Every counterexample is made the first of its length in
	 * shortlex order, unless that search stopped (the method line
	 * says so). */
	if (len != SIZE_MAX && len <= p->maxlen && ordered && shortest &&
	    !(line && strstr(line, "stopped at a limit"))) {
		Sym first[BRUTE_MAX_LEN];
		if (brute_first_of_length(p, order, p->n, len, first)) {
			size_t n;
			Sym *got = runs_expand(&w, BRUTE_MAX_LEN, &n);
			if (memcmp(got, first, n * sizeof *got) != 0) {
				char *t = word_text(p, first, len);
				report_fail(c, K_ORDER, "printed \"%s\", "
					    "but %s comes first", word, t);
				free(t);
			}
			free(got);
		}
	}
	runs_clear(&w);
}

static void check_json(Case *c, const Problem *p, const Brute *b,
		       const Captured *cap)
{
	json_error_t err;
	json_t *o = json_loads(cap->out, 0, &err);
	const char *v = json_string_value(json_object_get(o, "verdict"));
	if (!v) {
		report_fail(c, K_OUTPUT, "exit %d, no verdict in \"%.200s\"; "
			    "stderr: %.300s", cap->status, cap->out, cap->err);
		json_decref(o);
		return;
	}
	size_t bound = 0;
	Verdict verdict = parse_verdict(c->in->task, v, &bound);
	if (!status_matches(c->in->task, verdict, cap->status))
		report_fail(c, K_STATUS, "\"%s\" with exit status %d", v,
			    cap->status);
	Sym order[BRUTE_MAX_LETTERS];
	bool ordered = check_alphabet(c, p, json_object_get(o, "alphabet"),
				      order);
	char claim[96];
	snprintf(claim, sizeof claim, "printed \"%s\"", v);
	switch (verdict) {
	case V_EQUAL:
		report_outcome(c, O_PROOF);
		check_equal(c, p, b, SIZE_MAX, claim);
		break;
	case V_BOUNDED:
		report_outcome(c, O_BOUNDED);
		check_equal(c, p, b, bound, claim);
		break;
	case V_DIFFERENT:
		report_outcome(c, O_COUNTEREXAMPLE);
		check_counterexample(c, p, b, o, order, ordered);
		break;
	case V_UNKNOWN: {
		/* A limit stopped explore: it says up to where it got. */
		json_t *jb = json_object_get(o, "bound");
		const char *m = json_string_value(json_object_get(o, "method"));
		if (json_is_integer(jb) && m && strcmp(m, "explore") == 0) {
			snprintf(claim, sizeof claim, "printed \"unknown\" "
				 "after every word up to length %lld",
				 (long long)json_integer_value(jb));
			check_equal(c, p, b, (size_t)json_integer_value(jb),
				    claim);
		}
		report_outcome(c, O_UNKNOWN);
		break;
	}
	default:
		report_fail(c, K_OUTPUT, "the verdict \"%s\" is none of the "
			    "documented ones", v);
	}
	if (c->run->only >= 0)
		fprintf(capture_report(),
			"  %-10s %-4s command  %s (exit %d)\n",
			report_methods[c->mi].name, eval_accept_name(p->accept),
			v, cap->status);
	json_decref(o);
}

void check_command(Case *c, const Problem *p, const Brute *b)
{
	Argv *a = (Argv *)c->cmd;
	Captured cap;
	capture_run(c->in->task == TASK_EQUIV ? cmd_equiv : cmd_check, a->n,
		    a->arg, &cap);
	bool future = false;
	for (size_t i = 0; i < p->nsides; i++)
		future = future ||
			 (store_flags(p->s, p->side[i]) & FLAG_FUTURE);
	if (cap.status == EXIT_USAGE && c->mi == CHC_ROW &&
	    future && strstr(cap.err, "needs past-only formulas")) {
		/* Documented: chc refuses #>. */
		report_outcome(c, O_UNKNOWN);
	} else if (cap.status == EXIT_INTERNAL || cap.status == EXIT_USAGE) {
		report_fail(c, K_INTERNAL, "exit status %d; stderr: %.300s",
			    cap.status, cap.err);
	} else {
		check_json(c, p, b, &cap);
	}
	captured_free(&cap);
}

