/* z3api.c -- see z3api.h. */
#include <config.h>
#include "decide/z3api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Z3Api Z3;

static const char *load_error = "not loaded"; /* NULL once loaded */
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

/* TALLY_Z3_LIBRARY when set (and then only it), else the library
 * configure found (its directory and soname), then the soname wherever
 * the dynamic linker looks. */
static const char *chosen_library(void)
{
	const char *chosen = getenv("TALLY_Z3_LIBRARY");
	return chosen && *chosen ? chosen : NULL;
}

static void *open_library(void)
{
	const char *chosen = chosen_library();
	if (chosen)
		return dlopen(chosen, RTLD_NOW | RTLD_LOCAL);
	static const char *const names[] = { Z3_LIBRARY_PATH, Z3_SONAME };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
		if (h)
			return h;
	}
	return NULL;
}

static void load(void)
{
	void *h = open_library();
	if (!h) {
		static char why[600];
		snprintf(why, sizeof why, "the Z3 library %s cannot be loaded: %s",
			 chosen_library() ? "named by TALLY_Z3_LIBRARY"
						    : "(" Z3_SONAME ")",
			 dlerror());
		load_error = why;
		return;
	}
	/* dlsym returns void *; a function pointer is stored through
	 * memcpy, as POSIX allows */
#define Z3_API_RESOLVE(name)                                              \
	{                                                                 \
		void *f = dlsym(h, "Z3_" #name);                          \
		if (!f) {                                                 \
			load_error = "the Z3 library lacks Z3_" #name;    \
			return;                                           \
		}                                                         \
		memcpy(&Z3.name, &f, sizeof f);                           \
	}
	Z3_API_FUNCTIONS(Z3_API_RESOLVE)
#undef Z3_API_RESOLVE
	load_error = NULL;
}

bool z3api_load(const char **why)
{
	pthread_once(&load_once, load);
	if (load_error && why)
		*why = load_error;
	return load_error == NULL;
}
