/* suites -- one Check suite per module, collected by check_main.c. */
#ifndef TALLY_SUITES_H
#define TALLY_SUITES_H

#include <check.h>

Suite *store_suite(void);
Suite *parse_suite(void);
Suite *print_suite(void);
Suite *roundtrip_suite(void);
Suite *eval_suite(void);
Suite *crasp_suite(void);
Suite *methods_suite(void);
Suite *search_suite(void);
Suite *compile_suite(void);
Suite *decide_suite(void);
Suite *families_suite(void);
Suite *repl_suite(void);
Suite *cr_suite(void);
Suite *pe_suite(void);
Suite *passes_suite(void);
Suite *word_suite(void);
Suite *trace_suite(void);
Suite *gen_suite(void);
Suite *exactness_suite(void);
Suite *rowset_suite(void);
Suite *seq_suite(void);
Suite *blockref_suite(void);
Suite *twosided_suite(void);

#endif
