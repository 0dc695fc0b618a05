/* check_main.c -- runs every unit suite; CK_RUN_SUITE=NAME runs one. */
#include <config.h>

#include <stdlib.h>

#include "suites.h"

int main(void)
{
	SRunner *sr = srunner_create(store_suite());
	srunner_add_suite(sr, parse_suite());
	srunner_add_suite(sr, print_suite());
	srunner_add_suite(sr, roundtrip_suite());
	srunner_add_suite(sr, eval_suite());
	srunner_add_suite(sr, crasp_suite());
	srunner_add_suite(sr, methods_suite());
	srunner_add_suite(sr, search_suite());
	srunner_add_suite(sr, compile_suite());
	srunner_add_suite(sr, decide_suite());
	srunner_add_suite(sr, families_suite());
	srunner_add_suite(sr, repl_suite());
	srunner_add_suite(sr, cr_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
