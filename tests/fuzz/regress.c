/* regress.c -- the driver `make check` runs: every kept input of
 * tests/fuzz/regress/TARGET/ through its target, without libFuzzer (the
 * normal build, and under valgrind with `make check-valgrind`).  A failed
 * property aborts, which fails the test. */
#include <config.h>
#include "fuzz.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

static const struct {
	const char *name;
	int (*run)(const uint8_t *, size_t);
} targets[] = {
	{"tl", fuzz_tl},		 {"crasp", fuzz_crasp},
	{"word", fuzz_word},		 {"roundtrip", fuzz_roundtrip},
	{"eval", fuzz_eval},		 {"repl", fuzz_repl},
	{"runs", fuzz_runs},		 {"model", fuzz_model},
};

static bool read_all(const char *path, Buf *b)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	char chunk[4096];
	size_t n;
	b->len = 0;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_append(b, chunk, n);
	fclose(f);
	return true;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs the files of dir through run, in name order; -1 on no dir. */
static long run_dir(const char *dir, int (*run)(const uint8_t *, size_t))
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	char **names = NULL;
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, "README.md") == 0)
			continue;
		names = realloc(names, (n + 1) * sizeof *names);
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_names);
	Buf path = {0}, data = {0};
	for (size_t i = 0; i < n; i++) {
		path.len = 0;
		buf_printf(&path, "%s/%s", dir, names[i]);
		if (read_all(path.data, &data))
			run((const uint8_t *)(data.data ? data.data : ""),
			    data.len);
		free(names[i]);
	}
	free(names);
	buf_free(&path);
	buf_free(&data);
	return (long)n;
}

int main(int argc, char **argv)
{
	const char *top = getenv("top_srcdir");
	Buf root = {0};
	buf_printf(&root, "%s/tests/fuzz/regress",
		   argc > 1 ? argv[1] : top ? top : ".");
	Buf dir = {0};
	long total = 0;
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
		dir.len = 0;
		buf_printf(&dir, "%s/%s", root.data, targets[i].name);
		long n = run_dir(dir.data, targets[i].run);
		if (n < 0) {
			fprintf(stderr, "fuzz_regress: no directory %s\n",
				dir.data);
			return 1;
		}
		printf("%s: %ld inputs\n", targets[i].name, n);
		total += n;
	}
	printf("fuzz_regress: %ld inputs passed\n", total);
	buf_free(&root);
	buf_free(&dir);
	fuzz_cleanup();
	return 0;
}
