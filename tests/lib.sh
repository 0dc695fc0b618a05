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
