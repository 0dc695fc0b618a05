/* fuzz -- the fuzz targets of tests/fuzz/ (see README.md there).
 *
 * Each target is a function fuzz_NAME(data, size) defined with
 * FUZZ_TARGET(NAME).  `make fuzz` links each with entry.c (clang,
 * libFuzzer, ASan+UBSan) into tests/fuzz/fuzz_NAME; the normal build
 * links all of them into tests/fuzz/fuzz_regress, the driver that `make
 * check` runs on the kept inputs of tests/fuzz/regress/NAME/.
 * A target aborts (assert) when a property fails: sanitizers and the
 * fuzzer report crashes, and so does the driver.
 *
 * Speed and independence: the prelude is parsed once, into one shared
 * Store (fuzz_store); each input gets its own Scope over it and the
 * store is rolled back to the prelude afterwards (store_rollback), so
 * the work per input is proportional to the input, and an input sees
 * exactly what it would see alone (the same ids, no earlier input's
 * nodes or names): a finding reproduces from its single input.
 *
 * Ownership: a target frees everything it makes before returning.
 */
#ifndef TALLY_FUZZ_H
#define TALLY_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* Defines the target fuzz_NAME; entry.c turns one of them into the
 * LLVMFuzzerTestOneInput of a libFuzzer binary. */
#define FUZZ_TARGET(name) int fuzz_##name(const uint8_t *data, size_t size)

/* A property that must hold: prints what failed and aborts. */
#define FUZZ_CHECK(cond)                                                      \
	do {                                                                  \
		if (!(cond))                                                  \
			fuzz_fail(#cond, __FILE__, __LINE__);                 \
	} while (0)

void fuzz_fail(const char *what, const char *file, int line)
	__attribute__((noreturn));

#include "core/parse.h"

/* The shared Store, holding the prelude and nothing else between
 * inputs; made on the first call. */
Store *fuzz_store(void);
/* A fresh user scope over the shared prelude (scope_free it). */
Scope *fuzz_scope(void);
/* Back to the prelude alone: every node and name made since is gone. */
void fuzz_rollback(void);
/* Frees the shared store (the regression driver, at exit). */
void fuzz_cleanup(void);

/* One input parsed into the shared Store over the prelude; messages are
 * captured.  ok: it parsed and has an output formula.  fuzz_parse_free
 * also rolls the store back. */
typedef struct {
	Store *s;
	Scope *sc;
	Source *src;
	Buf diag;
	Unit u;
	bool ok;
} FuzzParse;

void fuzz_parse(FuzzParse *fp, const uint8_t *data, size_t size, Flavor f);
void fuzz_parse_free(FuzzParse *fp);

int fuzz_tl(const uint8_t *data, size_t size);
int fuzz_crasp(const uint8_t *data, size_t size);
int fuzz_word(const uint8_t *data, size_t size);
int fuzz_roundtrip(const uint8_t *data, size_t size);
int fuzz_eval(const uint8_t *data, size_t size);
int fuzz_repl(const uint8_t *data, size_t size);
int fuzz_runs(const uint8_t *data, size_t size);
int fuzz_model(const uint8_t *data, size_t size);

#endif
