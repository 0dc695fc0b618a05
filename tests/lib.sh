# tests/lib.sh -- sourced by every tests/cli/*.sh: a scratch directory and
# run EXPECTED-EXIT COMMAND... which fails the test on another exit status.
set -eu
LC_ALL=C
export LC_ALL
me=$(basename "$0" .sh)
case $top_srcdir in /*) ;; *) top_srcdir=$(cd "$top_srcdir" && pwd) ;; esac
rm -rf "$me.dir"
mkdir "$me.dir"
cd "$me.dir"
# make check-valgrind sets TALLY_VALGRIND: tally then runs under it, its
# reports going to valgrind/vg.PID.log (not into the outputs the test
# compares); any report fails the test when it ends.
if test -n "${TALLY_VALGRIND:-}"; then
	vgdir=$(pwd)/valgrind
	mkdir "$vgdir"
	printf '#!/bin/sh\nexec %s --log-file=%s/vg.%%p.log %s "$@"\n' \
		"$TALLY_VALGRIND" "$vgdir" "$TALLY" > "$vgdir/tally"
	chmod +x "$vgdir/tally"
	TALLY=$vgdir/tally
	valgrind_reports() {
		status=$?
		for f in "$vgdir"/vg.*.log; do
			if test -s "$f"; then
				echo "FAIL: valgrind report ($f):" >&2
				cat "$f" >&2
				status=1
			fi
		done
		exit "$status"
	}
	trap valgrind_reports EXIT
fi
fail() { echo "FAIL: $*" >&2; exit 1; }
run() {
	want=$1; shift
	got=0
	"$@" || got=$?
	test "$got" = "$want" || fail "exit $got, wanted $want: $*"
}
# expect_out EXPECTED-TEXT COMMAND...: stdout must equal the text.
expect_out() {
	want=$1; shift
	got=$("$@" 2>stderr.txt) || true
	test "$got" = "$want" || fail "$*: got [$got], wanted [$want]"
}
# try WANT-STATUS COMMAND...: bounded time, no crash, the wanted status.
# The bound (TRY_BOUND seconds, default 90) catches hangs, not slowness:
# sanitizer builds on a loaded 2-core machine take ten times longer than
# a normal build.
try() {
	want=$1; shift
	what=$(printf '%s' "$*" | cut -c1-200)
	status=0
	timeout "${TRY_BOUND:-90}" "$@" > out.txt 2> err.txt || status=$?
	test "$status" != 124 || fail "timed out: $what"
	test "$status" -lt 128 || fail "crashed with status $status: $what"
	if grep -q -e 'runtime error' -e 'Sanitizer' err.txt; then
		head -c 5000 err.txt >&2
		fail "sanitizer report: $what"
	fi
	test "$status" = "$want" || {
		head -c 2000 err.txt >&2
		fail "exit $status, wanted $want: $what"
	}
	if test "$want" = 2; then
		grep -q '^tally: .*error: ' err.txt || fail "no diagnostic: $what"
	fi
	if test "$want" = 4; then
		grep -q -e '^tally: limit: ' -e '^tally: .*error: ' err.txt ||
			fail "no message for the limit: $what"
	fi
}
# err_has TEXT: the last diagnostic contains TEXT.
err_has() {
	grep -qF -- "$1" err.txt || fail "diagnostic lacks [$1]: $(head -c 500 err.txt)"
}
# out_is TEXT: stdout is exactly TEXT.
out_is() {
	test "$(cat out.txt)" = "$1" ||
		fail "output [$(head -c 300 out.txt)], wanted [$(printf '%s' "$1" | cut -c1-300)]"
}
# repeat N TEXT: TEXT N times, no newline.
repeat() {
	awk -v n="$1" -v s="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'
}
# chromium_find: $browser is the command of a Chromium, or empty (the
# tests that render pages skip, 77, without one).
chromium_find() {
	browser=
	for b in chromium chromium-browser google-chrome; do
		if command -v "$b" > /dev/null 2>&1; then
			browser=$b
			return 0
		fi
	done
}
# chrome ARGS...: headless Chromium with a window of $CHROME_SIZE
# (default 900,700); as root it needs --no-sandbox; its profile stays in
# the test's directory; its stderr goes to chrome.err.
chrome() {
	HOME=$PWD timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$PWD/profile" --window-size="${CHROME_SIZE:-900,700}" \
		"$@" 2> chrome.err
}

# mpirun_setup: MPI_OPTS, the options $MPIRUN needs here, and the
# environment it wants (tests/cli/mpi.sh, the golden corpus).  Open MPI:
# -q keeps mpirun's own banners (a rank's non-zero exit) off stderr; as
# root it wants --allow-run-as-root and both variables; in a container
# without ptrace its single-copy transport fails, so it is turned off;
# more ranks than cores need oversubscription.
mpirun_setup() {
	MPI_OPTS=
	if "$MPIRUN" --version 2>&1 | grep -q 'Open MPI'; then
		MPI_OPTS="-q --oversubscribe"
		if test "$(id -u)" = 0; then
			MPI_OPTS="$MPI_OPTS --allow-run-as-root"
			OMPI_ALLOW_RUN_AS_ROOT=1
			OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
			export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
		fi
		: "${OMPI_MCA_btl_vader_single_copy_mechanism:=none}"
		export OMPI_MCA_btl_vader_single_copy_mechanism
	fi
}
