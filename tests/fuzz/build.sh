#!/bin/sh
# build.sh -- `make fuzz`: the libFuzzer binaries tests/fuzz/fuzz_TARGET,
# built with clang and ASan+UBSan from the library's sources (compiled
# once into tests/fuzz/obj/).  The environment comes from the Makefile:
# FUZZ_CC, FUZZ_CFLAGS, FUZZ_CPPFLAGS, FUZZ_LIBS, FUZZ_SOURCES (library
# .c files, relative to srcdir), srcdir, FUZZ_TARGETS.
set -eu
obj=tests/fuzz/obj
mkdir -p "$obj"
objs=
for src in $FUZZ_SOURCES tests/unit/ref_eval.c tests/unit/word_log.c \
	tests/fuzz/common.c tests/fuzz/t_parse.c tests/fuzz/t_roundtrip.c \
	tests/fuzz/t_eval.c tests/fuzz/t_word.c tests/fuzz/t_repl.c \
	tests/fuzz/t_runs.c tests/fuzz/t_model.c; do
	o=$obj/$(echo "$src" | tr / _ | sed 's/\.c$/.o/')
	# rebuilt when its source or any header is newer (a header change
	# alters struct layouts: stale objects disagree on them)
	if test ! -f "$o" || test "$srcdir/$src" -nt "$o" ||
		test -n "$(find "$srcdir/src" "$srcdir/tests/unit" \
			"$srcdir/tests/fuzz" -name '*.h' -newer "$o" | head -n 1)"; then
		echo "  FUZZCC   $src"
		$FUZZ_CC $FUZZ_CFLAGS $FUZZ_CPPFLAGS -c -o "$o" "$srcdir/$src"
	fi
	objs="$objs $o"
done
for t in $FUZZ_TARGETS; do
	o=$obj/entry_$t.o
	echo "  FUZZLD   tests/fuzz/fuzz_$t"
	$FUZZ_CC $FUZZ_CFLAGS $FUZZ_CPPFLAGS -DFUZZ_NAME=$t -c -o "$o" \
		"$srcdir/tests/fuzz/entry.c"
	$FUZZ_CC $FUZZ_CFLAGS -o tests/fuzz/fuzz_$t "$o" $objs $FUZZ_LIBS
done
# The dictionary: every ASCII spelling of logic/ops.def (UTF-8 ones would
# need escapes; the seeds have them), and the words of statements.
{
	sed -n 's/^SPELLING([A-Z_]*, \(".*"\))$/\1/p' "$srcdir/logic/ops.def" |
		LC_ALL=C grep -v -e '[^ -~]' -e '[\\]'
	printf '"%s"\n' Q_ "Q('" let output ":=" "#import" pred pos_even \
		"\\x0a" "(i)" "#[j <= i]"
} > tests/fuzz/tally.dict
