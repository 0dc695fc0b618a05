/* entry.c -- libFuzzer's entry point for the target FUZZ_NAME (given with
 * -DFUZZ_NAME=tl etc. by build.sh). */
#include <config.h>
#include "fuzz.h"

#define FUZZ_CAT(a, b) a##b
#define FUZZ_FN(name) FUZZ_CAT(fuzz_, name)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return FUZZ_FN(FUZZ_NAME)(data, size);
}
