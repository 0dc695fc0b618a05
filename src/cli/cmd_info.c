/* cmd_info.c -- `tally info`: depth, size, letters, fragment. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "core/cr.h"
#include "core/crasp.h"
#include "core/json.h"
#include "core/lower.h"

static const char intro[] =
	"Usage: tally info [OPTION]... (-f FORMULA | -F FILE | -P PROGRAM)...\n"
	"Describe formulas or programs: nesting depth of counts (= layers of\n"
	"the equivalent fixed-precision transformer), size, letters, fragment.\n"
	"With no input option, reads one formula per line from stdin.\n\n";

static const char outro[] =
	"\n"
	"Lines printed: depth (Knee-Deep's convention: Y and MOD add no\n"
	"layer); with Y (the .cr interpreter's #[pred]) also 'layers (pred as\n"
	"attention)', the depth when each chain of Y is one attention layer\n"
	"as in Huang et al.'s C-RASP[local]; size (nodes of the formula\n"
	"tree), dag-size (distinct subformulas), letters, fragment\n"
	"(past-only, two-sided with #>, positional with Y or MOD); then one\n"
	"line per layer L = 0..depth of the C-RASP program (tally print\n"
	"--to=crasp): its counting\n"
	"operations of depth L (the attention heads of transformer layer L)\n"
	"and its position-wise operations of depth L (layer 0: before any\n"
	"attention); finally core-dag-size, the DAG size of the formula in\n"
	"the core grammar (tally print --to=tl-core), to compare with\n"
	"dag-size.  A count-valued input (an integer term, a program of\n"
	"counts) has the same lines and 'output: count' after fragment;\n"
	"the core grammar has no integer outputs: core-dag-size says none.\n\n"
	"Examples:\n"
	"  tally info -f \"#['('] = #[')'] & #[#['('] < #[')']] = 0\"\n"
	"  tally info --json -f L_3\n"
	"  tally info -P dyck1.crasp\n"
	"  tally info -f histogram\n\n";

static const char *fragment_name(unsigned flags)
{
	bool future = flags & FLAG_FUTURE;
	bool positional = flags & (FLAG_PREV | FLAG_MOD);
	return future && positional ? "two-sided positional"
	       : future	   ? "two-sided"
	       : positional	   ? "positional"
				   : "past-only";
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The letters of n, sorted by name: a malloc'd array of borrowed names. */
static const char **sorted_letters(Store *s, Node n, size_t *count)
{
	Sym *syms = store_letters(s, n, count);
	const char **names = malloc((*count + 1) * sizeof *names);
	for (size_t i = 0; i < *count; i++)
		names[i] = sym_name(store_syms(s), syms[i]);
	qsort(names, *count, sizeof *names, compare_names);
	free(syms);
	return names;
}

/* The per-layer operation counts of the unit's C-RASP program. */
static void layers(Store *s, const Unit *u, size_t **counts,
		   size_t **pointwise)
{
	Sym *names = unit_name_map(u, s);
	CraspProgram prog;
	crasp_program(s, u->output, names, &prog);
	crasp_layers(s, &prog, counts, pointwise);
	crasp_program_free(&prog);
	free(names);
}

/* The DAG size of the core form; 0 when the lowering is too large or
 * the output is a count (the core grammar's outputs are formulas). */
static size_t core_dag_size(Store *s, Lowering *lw, Node n)
{
	if (!store_is_bool(s, n))
		return 0;
	char *err = NULL;
	Node core = lower_formula(lw, n, &err);
	free(err);
	return core == NODE_NONE ? 0 : store_dag_size(s, core);
}

void cmd_info_unit(Store *s, Lowering *lw, const Unit *u, bool json,
		   size_t index)
{
	Node n = u->output;
	size_t nletters;
	const char **letters = sorted_letters(s, n, &nletters);
	unsigned flags = store_flags(s, n);
	size_t *counts, *pointwise;
	layers(s, u, &counts, &pointwise);
	uint32_t depth = store_depth(s, n);
	size_t core = core_dag_size(s, lw, n);
	bool counts_out = !store_is_bool(s, n);
	if (json) {
		json_t *o = json_envelope();
		if (index)
			json_set_input(o, index, u->src);
		json_object_set_new(o, "depth", json_integer(depth));
		if (flags & FLAG_PREV)
			json_object_set_new(o, "layers_pred_as_attention",
					    json_integer(cr_local_layers(s, n)));
		/* above 2^53 a string, as constants (JSON readers use
		 * doubles); a saturated size as ">18446744073709551614" */
		json_object_set_new(o, "size", json_size(store_size(s, n)));
		json_object_set_new(o, "dag_size",
				    json_integer((json_int_t)store_dag_size(s, n)));
		json_t *arr = json_array();
		for (size_t i = 0; i < nletters; i++)
			json_array_append_new(arr, json_string(letters[i]));
		json_object_set_new(o, "letters", arr);
		json_object_set_new(o, "fragment",
				    json_string(fragment_name(flags)));
		if (counts_out)
			json_object_set_new(o, "output", json_string("count"));
		json_t *ls = json_array();
		for (uint32_t d = 0; d <= depth; d++) {
			json_t *l = json_object();
			json_object_set_new(l, "layer", json_integer(d));
			json_object_set_new(l, "counts",
					    json_integer((json_int_t)counts[d]));
			json_object_set_new(l, "position_wise",
					    json_integer((json_int_t)pointwise[d]));
			json_array_append_new(ls, l);
		}
		json_object_set_new(o, "layers", ls);
		if (!counts_out)
			json_object_set_new(o, "core_dag_size",
					    core ? json_integer((json_int_t)core)
						 : json_null());
		json_emit(o);
	} else {
		printf("depth: %u\n", depth);
		if (flags & FLAG_PREV)
			printf("layers (pred as attention): %u\n",
			       cr_local_layers(s, n));
		if (store_size(s, n) == UINT64_MAX)
			printf("size: more than %llu\n",
			       (unsigned long long)UINT64_MAX - 1);
		else
			printf("size: %llu\n",
			       (unsigned long long)store_size(s, n));
		printf("dag-size: %zu\n", store_dag_size(s, n));
		fputs("letters:", stdout);
		for (size_t i = 0; i < nletters; i++)
			printf(" %s", letters[i]);
		printf("\nfragment: %s\n", fragment_name(flags));
		if (counts_out)
			puts("output: count (an integer at every position)");
		for (uint32_t d = 0; d <= depth; d++)
			printf("layer %u: %zu count%s, %zu position-wise\n", d,
			       counts[d], counts[d] == 1 ? "" : "s",
			       pointwise[d]);
		if (counts_out)
			puts("core-dag-size: none (the core grammar's outputs "
			     "are formulas)");
		else if (core)
			printf("core-dag-size: %zu\n", core);
		else
			printf("core-dag-size: too large (over %d pieces for "
			       "a term or %d in total)\n",
			       LOWER_MAX_PIECES, LOWER_MAX_WORK);
	}
	free(counts);
	free(pointwise);
	free(letters);
}

typedef struct {
	Lowering *lw;
	bool json;
	size_t done; /* units described so far */
} InfoJob;

static void on_unit(Inputs *in, const Unit *u)
{
	InfoJob *job = in->ctx;
	if (job->done++ > 0 && !job->json)
		putchar('\n');
	cmd_info_unit(in->store, job->lw, u, job->json, in->nunits);
}

int cmd_info(int argc, char **argv)
{
	Inputs in;
	inputs_init(&in);
	bool json = false;
	const Option rows[] = {
		CLI_INPUT_ROWS(&in),
		CLI_BATCH_ROW(&in),
		OPTION_TEXT_ROW("Output:\n"),
		OPTION_FLAG_ROW(0, "json", &json, "one JSON object per input"),
		OPTION_HELP_ROW,
	};
	const OptionTable table = OPTION_TABLE(intro, rows, outro);
	int status = options_parse(&table, argc, argv);
	if (status != EXIT_YES) {
		status = status == OPTIONS_DONE ? EXIT_YES : status;
		goto done;
	}
	InfoJob job = {lower_new(in.store), json, 0};
	in.terms = true; /* count-valued programs have a depth too */
	in.on_unit = on_unit;
	in.ctx = &job;
	status = cli_load_inputs(&in, argc, argv, true);
	lower_free(job.lw);
done:
	inputs_free(&in);
	return status;
}
