/* check_main.c -- runs every unit suite; CK_RUN_SUITE=NAME runs one, and
 * TALLY_SKIP_SUITES="NAME NAME..." leaves some out (the valgrind stage of
 * .ci/run skips the long random suites, which the normal and sanitizer
 * stages run). */
#include <config.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"

static const struct {
	const char *name;
	Suite *(*make)(void);
} suites[] = {
	{"store", store_suite},       {"parse", parse_suite},
	{"print", print_suite},       {"roundtrip", roundtrip_suite},
	{"eval", eval_suite},         {"crasp", crasp_suite},
	{"methods", methods_suite},   {"search", search_suite},
	{"compile", compile_suite},   {"decide", decide_suite},
	{"families", families_suite}, {"repl", repl_suite},
	{"cr", cr_suite},
	{"pe", pe_suite},
	{"passes", passes_suite},
	{"word", word_suite},
	{"trace", trace_suite},
	{"gen", gen_suite},
	{"exactness", exactness_suite},
	{"rowset", rowset_suite},
	{"seq", seq_suite},
	{"blockref", blockref_suite},
	{"twosided", twosided_suite},
};

/* Whether NAME is a word of the space-separated list. */
static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

int main(void)
{
	const char *skip = getenv("TALLY_SKIP_SUITES");
	SRunner *sr = NULL;
	for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++) {
		if (skip && listed(skip, suites[i].name))
			continue;
		if (!sr)
			sr = srunner_create(suites[i].make());
		else
			srunner_add_suite(sr, suites[i].make());
	}
	if (!sr)
		return EXIT_SUCCESS;
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
