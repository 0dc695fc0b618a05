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

#include "parse.h"

/* One input parsed into a fresh Store with the prelude; messages are
 * captured.  ok: it parsed and has an output formula. */
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

#endif
