/* cmd_compile.c -- `tally compile`: a formula to a rounded transformer. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "transformer/compile.h"
#include "transformer/exactness.h"
#include "transformer/fixed.h"
#include "core/json.h"
#include "transformer/sim.h"
#include "transformer/simcheck.h"
#include "core/print.h"
#include "core/alphabet.h"

static const char intro[] =
	"Usage: tally compile [OPTION]... (-f FORMULA | -F FILE | -P PROGRAM)\n"
	"Compile a past-only TL[#] formula or C-RASP program into a\n"
	"future-masked transformer with a BOS token and exactly depth(phi)\n"
	"layers (Yang, Cadilhac & Chiang 2025), written as one JSON object:\n"
	"architecture, precision and every weight as an exact dyadic rational.\n"
	"Each comparison of counts of depth l is one uniform attention head of\n"
	"layer l whose BOS value turns the comparison into the sign test of\n"
	"floor(-(L+1)/(i+1)); each Boolean of depth l is computed by the\n"
	"feed-forward block of layer l (depth 0: the embedding).  Sequence\n"
	"outputs: --per-position reads a formula at every position,\n"
	"--readout a count-valued term.\n\n";

static const char outro[] =
	"\n"
	"Examples:\n"
	"  tally compile -f dyck1 > dyck1.json\n"
	"  tally compile -f majority --report\n"
	"  tally compile -f \"#[Y Q_a] < #[Q_b]\" --pe=t5 --report\n"
	"  tally compile -f dyck1 | tally simulate --check-against-formula "
	"--max-length 12\n\n";

typedef struct {
	Semantics sem;
	int p, s;
	FfnKind ffn;
	CompileInfo info;
	size_t layers;
	PeKind pe;
	int rope_min_s; /* RoPE MOD heads: the smallest s at p = 32, or -1 */
	unsigned flags;  /* the formula's FLAG_PREV, FLAG_MOD */
	Exactness ex;
} Analysis;

/* The smallest s at which the RoPE MOD heads are exact (at p = 32). */
static int rope_min_s(Store *st, Node root, const Sym *l, size_t nl,
		      FfnKind ffn)
{
	for (int s = 0; s <= FIXED_MAX_P - 2; s++) {
		CompileOptions o = {.p = FIXED_MAX_P, .s = s, .ffn = ffn,
				    .pe = PE_ROPE};
		CompileInfo info;
		Model m;
		char *err = NULL;
		if (compile_formula(st, root, l, nl, NULL, &o, &m, &info, &err)) {
			model_free(&m);
			return s;
		}
		free(err);
	}
	return -1;
}

/* What the positional encoding does, one line. */
static void print_pe(const Analysis *a)
{
	switch (a->pe) {
	case PE_T5:
		if (a->flags & FLAG_PREV)
			printf("positional encoding: t5 (causal, 32 buckets, "
			       "max_distance 128): Y heads with bias 0 at bucket "
			       "1 (distance 1) and %g elsewhere, whose weight "
			       "rounds to 0 under kneedeep\n",
			       a->info.t5_bias);
		break;
	case PE_URPE:
		if (a->flags & FLAG_PREV)
			printf("positional encoding: urpe: Y heads times the "
			       "Toeplitz matrix with c(1) = 1, 0 elsewhere; the "
			       "sign of floor((2 psi(i-1) - 1)/(i+1)) is exact at "
			       "every length\n");
		break;
	case PE_SINUSOIDAL:
		if (a->flags & FLAG_MOD)
			printf("positional encoding: sinusoidal: %zu feature%s "
			       "cos(2 pi (i-r)/m) read by input gates x >= 1, "
			       "exact at every s under floor rounding; MOD costs "
			       "no layer\n",
			       a->info.features, a->info.features == 1 ? "" : "s");
		break;
	case PE_ROPE:
		if (a->flags & FLAG_MOD)
			printf("positional encoding: rope: MOD heads of layer 1 "
			       "with angle 2 pi/m and amplitude up to %g; smallest "
			       "s for them (at p = 32): %d\n",
			       a->info.rope_amplitude, a->rope_min_s);
		break;
	default: break;
	}
}

/* With Y heads: the smallest s at which an ALiBi slope reads Y. */
static int alibi_min_s(const Analysis *a)
{
	for (int s = 0; s <= a->p - 2; s++)
		if (compile_alibi_slope(a->p, s) != 0)
			return s;
	return -1;
}

static json_t *length_or_null(bool known, size_t n)
{
	return known ? json_integer((json_int_t)n) : json_null();
}

/* What the report's exactness lines say, as fields of the analysis. */
static void exactness_json(json_t *o, const Exactness *e)
{
	size_t len;
	bool all, any = exactness_length(e, &len, &all);
	json_object_set_new(o, "all_lengths", json_boolean(all));
	json_object_set_new(o, "exact_up_to_length",
			    length_or_null(any && !all, len));
	json_object_set_new(o, "exact_basis",
			    !any ? json_null()
			    : e->proved && (!e->searched ||
					    e->proved_len >= e->confirmed_len)
				    ? json_string("proved")
				    : json_string("search"));
	json_object_set_new(o, "proved_up_to_length",
			    length_or_null(e->proved && !all, e->proved_len));
	json_object_set_new(o, "confirmed_up_to_length",
			    length_or_null(e->searched, e->confirmed_len));
	json_object_set_new(o, "first_disagreement_length",
			    length_or_null(e->found, e->found_len));
}

static json_t *analysis_json(const Analysis *a)
{
	json_t *o = json_object();
	json_object_set_new(o, "depth", json_integer(a->info.depth));
	json_object_set_new(o, "layers", json_integer((json_int_t)a->layers));
	json_object_set_new(o, "heads", json_integer((json_int_t)a->info.heads));
	json_object_set_new(o, "value_range", json_real(a->info.range));
	json_object_set_new(o, "semantics", json_string(semantics_name(&a->sem)));
	json_object_set_new(o, "positional", json_string(pe_kind_name(a->pe)));
	if (a->info.t5_bias != 0)
		json_object_set_new(o, "t5_bias", json_real(a->info.t5_bias));
	if (a->info.rope_amplitude != 0)
		json_object_set_new(o, "rope_amplitude",
				    json_real(a->info.rope_amplitude));
	if (a->info.slope != 0) {
		json_object_set_new(o, "alibi_slope", json_real(a->info.slope));
		json_object_set_new(o, "alibi_window",
				    json_integer((json_int_t)a->info.window));
		json_object_set_new(o, "alibi_smallest_s",
				    json_integer(alibi_min_s(a)));
	}
	if (a->sem.kind == SEM_KNEEDEEP) {
		json_object_set_new(o, "smallest_s",
				    json_integer(a->info.slope != 0 ? alibi_min_s(a)
						 : a->rope_min_s >= 0 ? a->rope_min_s
								      : 0));
		json_object_set_new(o, "smallest_p_at_s",
				    json_integer(compile_min_p(&a->info, a->ffn,
							       a->s)));
	} else {
		json_object_set_new(o, "smallest_s", json_null());
	}
	exactness_json(o, &a->ex);
	return o;
}

/* The smallest precision: kneedeep only (the other semantics have
 * none that holds at every length once counts grow). */
static void print_smallest(const Analysis *a)
{
	if (a->sem.kind != SEM_KNEEDEEP) {
		if (a->info.heads != 0)
			printf("smallest s: none (the attention sums are %s, so "
			       "no precision keeps every count exact at all "
			       "lengths)\n",
			       a->sem.kind == SEM_IEEE ? "IEEE sums"
						       : "rounded and saturate");
		return;
	}
	if (a->info.slope != 0)
		printf("smallest s: %d (the ALiBi heads; the counting heads "
		       "need none)\n", alibi_min_s(a));
	else if (a->rope_min_s >= 0)
		printf("smallest s: %d (the RoPE MOD heads, at p = 32; the "
		       "counting heads need none)\n", a->rope_min_s);
	else
		printf("smallest s: 0 (correct for all lengths at every s >= 0: "
		       "the sign of a floor-rounded average is exact)\n");
	printf("smallest p at s=%d: %d\n", a->s,
	       compile_min_p(&a->info, a->ffn, a->s));
}

/* The exactness lines (exactness.h): the length and its basis, the
 * shortest word decided wrongly, the proof, the search, the spot check. */
static void print_exactness(const Analysis *a)
{
	const Exactness *e = &a->ex;
	char *head = exactness_headline(e, &a->sem);
	printf("exact up to length: %s\n", head);
	free(head);
	if (e->found)
		printf("first disagreement: %s (length %zu): transformer %s, "
		       "formula %s (found by %s)\n",
		       e->found_word, e->found_len,
		       e->found_accepts ? "accepts" : "rejects",
		       e->found_accepts ? "rejects" : "accepts",
		       e->every_word ? "checking every word"
				     : "the breakdown search");
	printf("proof: %s\n", e->argument);
	if (e->searched && !e->found && e->every_word)
		printf("search: every word up to length %zu agrees with the "
		       "formula (%zu compared; stopped by %s)\n",
		       e->confirmed_len, e->visited, e->search_note);
	else if (e->searched && !e->found)
		printf("search: no disagreement with kneedeep up to length %zu "
		       "(the breakdown search, %zu states; stopped by %s)\n",
		       e->confirmed_len, e->visited, e->search_note);
	else if (!e->searched && !e->found && !e->proved_all)
		printf("search: none (%s)\n",
		       e->search_note ? e->search_note : "not run");
	if (e->proved && e->spot_words)
		printf("spot check: %zu word%s of length %zu, every prefix, "
		       "agree with tally's evaluator%s\n",
		       e->spot_words, e->spot_words == 1 ? "" : "s", e->spot_len,
		       e->spot_len < e->spot_target
			       ? " (the simulator cannot hold longer words of "
				 "this model)"
			       : "");
	else if (e->proved)
		printf("spot check: the empty word (the only word) agrees with "
		       "tally's evaluator\n");
}

/* The report as one JSON object: the analysis of the model file plus
 * what only the text report says (the proof's argument, the first
 * disagreement's word, the search, the spot check). */
static void report_json(const Analysis *a, const Unit *u)
{
	const Exactness *e = &a->ex;
	json_t *o = json_envelope();
	json_set_input(o, 1, u->src);
	json_t *an = analysis_json(a);
	json_object_update(o, an);
	json_decref(an);
	json_object_set_new(o, "precision_p", json_integer(a->p));
	json_object_set_new(o, "precision_s", json_integer(a->s));
	json_object_set_new(o, "proof", json_string(e->argument));
	if (e->found) {
		json_t *d = json_object();
		json_object_set_new(d, "word", json_string(e->found_word));
		json_object_set_new(d, "transformer_accepts",
				    json_boolean(e->found_accepts));
		json_object_set_new(d, "found_by",
				    json_string(e->every_word ? "every word"
							      : "breakdown search"));
		json_object_set_new(o, "first_disagreement", d);
	}
	json_object_set_new(o, "search_note", e->search_note
						      ? json_string(e->search_note)
						      : json_null());
	json_object_set_new(o, "spot_check_words", json_size(e->spot_words));
	json_object_set_new(o, "spot_check_length", json_size(e->spot_len));
	json_emit(o);
}

static void print_report(const Analysis *a)
{
	printf("layers: %zu (depth %u%s)\n", a->layers, a->info.depth,
	       a->layers <= a->info.depth ? ""
	       : a->flags & FLAG_PREV      ? "; each Y costs a layer"
					   : "; the RoPE MOD heads are in layer 1");
	print_pe(a);
	printf("heads: %zu\n", a->info.heads);
	printf("value range: %g\n", a->info.range);
	printf("precision: p=%d s=%d\n", a->p, a->s);
	printf("semantics: %s\n", semantics_name(&a->sem));
	if (a->info.slope != 0) {
		Semantics sem = a->sem;
		sem.p = a->p;
		sem.s = a->s;
		size_t w = sim_alibi_window(&sem, a->info.slope);
		printf("alibi slope: %g (Y heads)\n", a->info.slope);
		printf("alibi window: %zu under %s (round(exp(-slope*d)) = 0 for "
		       "d >= %zu%s)\n",
		       w, semantics_name(&sem), w,
		       w == 2 ? ": a Y head reads positions i-1 and i only"
			      : ": the Y reading needs 2");
		printf("smallest s for the ALiBi heads at p=%d: %d\n", a->p,
		       alibi_min_s(a));
	}
	print_smallest(a);
	print_exactness(a);
}

static const char *const ffn_kinds[] = {"table", "relu", NULL};
static const char *const pe_kinds[] = {"nope", "alibi", "sinusoidal", "rope",
				       "t5", "urpe", NULL};

static int pe_row(const Option *row, const char *arg)
{
	return pe_kind_parse(arg, row->ctx) ? EXIT_YES
					    : options_bad_choice(row, arg);
}

static int semantics_row(const Option *row, const char *arg)
{
	return simcheck_semantics_option(arg, row->ctx) ? EXIT_YES : EXIT_USAGE;
}

/* An integer bound of --readout=class: false when it is not one. */
static bool class_bound(const char *text, char **end, int64_t *out)
{
	errno = 0;
	long long v = strtoll(text, end, 10);
	if (*end == text || errno || v < -((int64_t)1 << 40) ||
	    v > ((int64_t)1 << 40))
		return false;
	*out = v;
	return true;
}

/* --readout=ratio | class:HI | class:LO:HI (LO defaults to 0). */
static int readout_row(const Option *row, const char *arg)
{
	CompileOptions *co = row->ctx;
	char *end = NULL;
	if (strcmp(arg, "ratio") == 0) {
		co->readout = READOUT_RATIO;
		return EXIT_YES;
	}
	int64_t a, b = 0;
	if (strncmp(arg, "class:", 6) == 0 && class_bound(arg + 6, &end, &a)) {
		bool two = *end == ':';
		if (two && !class_bound(end + 1, &end, &b))
			end = NULL;
		co->lo = two ? a : 0;
		co->hi = two ? b : a;
		if (end && *end == '\0' && co->lo <= co->hi) {
			co->readout = READOUT_CLASS;
			return EXIT_YES;
		}
	}
	return status_usage_error("--readout: expected ratio, class:HI or "
				  "class:LO:HI (integers, LO <= HI, at most "
				  "2^40 in magnitude), not '%s'", arg);
}

int cmd_compile(int argc, char **argv)
{
	Inputs in;
	inputs_init(&in);
	Analysis an = {.sem = {.kind = SEM_KNEEDEEP}, .p = 16, .s = 8,
		       .ffn = FFN_TABLE};
	const char *alphabet = NULL;
	bool report = false, json = false, per_position = false;
	int ffn = FFN_TABLE; /* the index of ffn_kinds */
	CompileOptions co = {0};
	in.terms = true; /* a count-valued output needs --readout: say so */
	const Option rows[] = {
		CLI_INPUT_ROWS(&in),
		OPTION_TEXT_ROW("Model:\n"),
		CLI_PRECISION_ROW(&an.p, &an.s, "total and fractional bits of "
				  "F_{P,S}\n(default 16,8; P <= 32)"),
		OPTION_CHOICE_INDEX_ROW("ffn", "KIND", ffn_kinds, &ffn,
					"table (gates ge0/not/and/or, default) "
					"or relu\n(residual ReLU blocks)"),
		{.name = "pe", .kind = OPTION_CALL, .meta = "ENCODING",
		 .call = pe_row, .ctx = &an.pe, .choices = pe_kinds,
		 .help = "positional encoding: nope (default; Y and\n"
			 "MOD refused); for Y (a head in the layer\n"
			 "after psi's): alibi (slope with window 2),\n"
			 "t5 (bias 0 at distance 1, -C elsewhere) or\n"
			 "urpe (Toeplitz c(1) = 1); for MOD(m, r):\n"
			 "sinusoidal (feature cos(2 pi (i-r)/m) read\n"
			 "by an input gate, no layer) or rope (a head\n"
			 "of layer 1 with angle 2 pi/m)"},
		OPTION_STRING_ROW(0, "alphabet", "LETTERS", &alphabet,
				  "letters besides the formula's (a,b,c or abc)"),
		{.name = "semantics", .kind = OPTION_CALL, .meta = "SEM",
		 .call = semantics_row, .ctx = &an.sem, .choices = cli_semantics,
		 .help = "the semantics the report is about: kneedeep\n"
			 "(default), rounded-sums, ieee=fp32|bf16|fp16"},
		OPTION_FLAG_ROW(0, "per-position", &per_position,
				"the model's output is the formula's value at\n"
				"every position, not only the verdict at the\n"
				"last (the same model; simulate and the\n"
				"PyTorch module return the sequence)"),
		OPTION_CALL_ROW(0, "readout", "KIND", readout_row, &co,
				"a count-valued output (an integer term t)\n"
				"at every position: class:LO:HI (or class:HI,\n"
				"LO = 0) the integer min(max(t, LO), HI),\n"
				"exact at every length; ratio the number\n"
				"floor(t/(i+1)) at precision s, for a linear\n"
				"t (t itself while i+1 <= 2^s)"),
		OPTION_TEXT_ROW("Output:\n"),
		OPTION_FLAG_ROW(0, "report", &report,
				"print the analysis (layers, heads, smallest\n"
				"precision, and the length up to which the\n"
				"model is exact under --semantics: proved,\n"
				"confirmed by a search, or unknown) as text\n"
				"instead of the model"),
		OPTION_FLAG_ROW(0, "json", &json,
				"with --report: the analysis as one JSON\n"
				"object (the model itself is JSON already)"),
		OPTION_HELP_ROW,
	};
	const OptionTable table = OPTION_TABLE(intro, rows, outro);
	int status = options_parse(&table, argc, argv);
	an.ffn = (FfnKind)ffn;
	if (status != EXIT_YES) {
		status = status == OPTIONS_DONE ? EXIT_YES : status;
		goto done;
	}
	if (in.nspecs == 0) {
		status = status_usage_error("no formula: give -f FORMULA, -F FILE "
					 "or -P PROGRAM");
		goto done;
	}
	if ((status = cli_load_inputs(&in, argc, argv, false)) != EXIT_YES)
		goto done;
	if (in.nunits != 1 || in.units[0].output == NODE_NONE) {
		status = status_usage_error("give exactly one formula to compile");
		goto done;
	}
	const Unit *u = &in.units[0];
	Alphabet alpha;
	alphabet_init(&alpha, in.store, &u->output, 1, alphabet);
	char *source = tl_print_unit(in.store, u, SYNTAX_TL);
	size_t len = strlen(source);
	while (len && source[len - 1] == '\n')
		source[--len] = '\0';
	co.p = an.p;
	co.s = an.s;
	co.ffn = an.ffn;
	co.pe = an.pe;
	if (per_position && co.readout != READOUT_ACCEPT) {
		free(source);
		alphabet_free(&alpha);
		status = status_usage_error("--per-position reads a formula, "
					    "--readout an integer term: give one "
					    "of them");
		goto done;
	}
	if (per_position)
		co.readout = READOUT_PER_POSITION;
	an.flags = store_flags(in.store, u->output);
	an.rope_min_s = an.pe == PE_ROPE && (an.flags & FLAG_MOD)
				? rope_min_s(in.store, u->output, alpha.letters,
					     alpha.n, an.ffn)
				: -1;
	Model m;
	char *err = NULL;
	bool ok = compile_formula(in.store, u->output, alpha.letters, alpha.n,
				  source, &co, &m, &an.info, &err);
	free(source);
	if (!ok) {
		alphabet_free(&alpha);
		status = status_usage_error("%s", err);
		free(err);
		goto done;
	}
	an.layers = m.nlayers;
	ExactInput ei = {&m, &an.info, in.store, u->output, alpha.letters,
			 alpha.n, an.sem, 0};
	exactness_analyse(&ei, &an.ex);
	alphabet_free(&alpha);
	if (an.ex.contradiction) {
		fprintf(stderr, "tally: internal error: the model is not exact "
				"where the analysis claims it: %s\n",
			an.ex.contradiction);
		status = EXIT_INTERNAL;
	} else if (report && json) {
		report_json(&an, u);
	} else if (report) {
		print_report(&an);
	} else {
		json_t *j = model_to_json(&m);
		json_object_set_new(j, "analysis", analysis_json(&an));
		json_emit(j);
	}
	exactness_free(&an.ex);
	model_free(&m);
done:
	inputs_free(&in);
	return status;
}
