#!/bin/sh
# tests/cli/options.sh -- the option tables (src/cli/options.c): every
# number is checked against its bounds with one message, choices name
# the values, --list-options lists what --help shows.
. "$top_srcdir/tests/lib.sh"

# usage_error WANT-STDERR ARGS...: exit 2, that one line on stderr.
usage_error() {
	expected=$1; shift
	run 2 "$TALLY" "$@" > out.txt 2> err.txt
	test ! -s out.txt || fail "$*: printed on stdout"
	test "$(cat err.txt)" = "tally: error: $expected" ||
		fail "$*: stderr '$(cat err.txt)', wanted 'tally: error: $expected'"
}

# A count above its bound is refused, not wrapped (4294967297 was 1).
usage_error "--max-coeff: 4294967297 is out of range 1..16" \
	enum --max-coeff=4294967297
usage_error "--max-coeff: 0 is out of range 1..16" enum --max-coeff=0
usage_error "--max-coeff: expected a count 1..16, not '2x'" enum --max-coeff=2x
# A negative count is not a count (it was taken as 2^64 - 1).
usage_error "--max-formulas: expected a count, not '-1'" enum --max-formulas=-1
usage_error "--with-mod: 1 is out of range 2..16" enum --with-mod=1
usage_error "--depth: 0..9 is out of range 0..6" enum --depth=0..9
usage_error "--depth: 2.. needs an upper bound" enum --depth=2..
usage_error "--depth: expected a range (N, N..M, ..M or N..) within 0..6, not 'x'" \
	enum --depth=x
usage_error "--separate: 6 is out of range 0..5" search --separate=6
usage_error "--max-depth: expected a count 0..8, not '-2'" search --max-depth=-2 -f first_a
usage_error "--max-formulas: 100001 is out of range 1..100000" \
	search --separate=1 --max-formulas=100001
usage_error "--pairs: 4097 is out of range 0..4096" hierarchy --pairs=4097
usage_error "--max-states: expected a positive count, not '0x'" \
	check --sat -f a --max-states=0x
usage_error "--timeout: expected a number of seconds greater than 0, not '-1'" \
	equiv -f a -f b --timeout=-1
usage_error "--method: expected auto, explore, presburger, chc, mona or unary, not 'explor'; did you mean 'explore'?" \
	check --sat -f a --method=explor
usage_error "--family: expected lk or dk, not 'kk'" hierarchy --family=kk

# The values in range still work.
run 0 "$TALLY" enum --max-coeff=16 --depth=0 --size=..1 > out.txt
run 0 "$TALLY" enum --max-formulas=2 --depth=0 > out.txt
test "$(wc -l < out.txt)" = 2 || fail "--max-formulas=2 printed $(wc -l < out.txt) lines"

# --list-options: one line per option --help prints, and no other.
for cmd in check equiv enum search hierarchy; do
	run 0 "$TALLY" $cmd --list-options > list.txt
	cut -d' ' -f1 list.txt | sed 's/=$//' | sort > listed.txt
	"$TALLY" $cmd --help | grep -o -e '^\(  -[a-zA-Z], \|      \)--[a-z][a-z0-9-]*' |
		sed 's/.*--/--/' | sort > helped.txt
	cmp -s listed.txt helped.txt ||
		fail "$cmd --list-options differs from --help: $(diff listed.txt helped.txt | tr '\n' ' ')"
done
"$TALLY" check --list-options | grep -qx -e '--method= - choice METHOD auto explore presburger chc mona unary' ||
	fail "check --list-options: no --method values"
"$TALLY" enum --list-options | grep -qx -e '--max-coeff= - count M 1..16' ||
	fail "enum --list-options: no --max-coeff bounds"
