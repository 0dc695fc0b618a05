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

# An open-ended count names its bound when a value passes it (it said
# "out of range 0.."); a reversed range is empty, not malformed.
usage_error "--seed: 99999999999999999999999 is out of range 0..18446744073709551615" \
	search --seed=99999999999999999999999 -f a
usage_error "--max-size: 0 is out of range 1.." print -f a --max-size=0
usage_error "--depth: 3..1 is empty" enum --depth=3..1
usage_error "--trace-window: 5..2 is empty" eval -f a -w a --trace-window=5..2
# A property given twice is two tasks, refused as before.
usage_error "check needs exactly one of --sat, --valid, --implies=G, --nonneg, --bounded=K" \
	check --sat --sat -f a

# Every command on a table: a count, a range and a choice (where it has
# them), out of range and malformed, in the one wording.
usage_error "--max-length: 100000001 is out of range 0..100000000" \
	lang -f a --max-length=100000001
usage_error "--max-length: expected a count 0..100000000, not 'x'" \
	lang -f a --max-length=x
usage_error "--accept-at: expected last or eos, not 'z'" lang -f a --accept-at=z
usage_error "--trace-window: expected a range (N, N..M, ..M or N..), not 'x'" \
	eval -f a -w a --trace-window=x
usage_error "--word-format: expected lines or cr, not 'z'" \
	eval -f a -w a --word-format=z
usage_error "--max-size: expected a positive count, not 'x'" print -f a --max-size=x
usage_error "--to: expected tl, utf8, latex, sexpr, json, tl-core, crasp, crasp-paper, cr or dot, not 'z'" \
	print -f a --to=z
usage_error "--ffn: expected table or relu, not 'z'" compile -f a --ffn=z
usage_error "--random: 1000001 is out of range 0..1000000" simulate --random=1000001
usage_error "--max-length: expected a count 0..100000000, not 'x'" \
	simulate --max-length=x
usage_error "--periodicity: 0 is out of range 1..1099511627776" \
	simulate --periodicity=0 --dim=2
usage_error "--semantics: expected kneedeep, rounded-sums or ieee=fp32|bf16|fp16, not 'z'" \
	simulate --semantics=z
usage_error "--max-length: 100000001 is out of range 0..100000000" \
	gen -f a --max-length=100000001
usage_error "--random: 101 is out of range 0..100" gen -f a --max-length=3 --random=101
usage_error "--k: 1..300 is out of range 0..256" gen --family=lk --k=1..300
usage_error "--k: 3..1 is empty" gen --family=lk --k=3..1
usage_error "--labels: expected word, position, prediction or sequence, not 'z'" \
	gen -f a --max-length=3 --labels=z
usage_error "--timeout: expected a number of seconds greater than 0, not '0'" \
	repl --timeout=0
usage_error "demo takes no arguments" demo --bogus
# eval --batch, which its --help has always listed, is taken.
printf 'Q_a\nQ_b\n' > batch.txt
run 1 "$TALLY" eval --batch=batch.txt -w a > out.txt
test "$(cat out.txt)" = "a	accept	reject" || fail "eval --batch: $(cat out.txt)"

# The values in range still work.
run 0 "$TALLY" enum --max-coeff=16 --depth=0 --size=..1 > out.txt
run 0 "$TALLY" enum --max-formulas=2 --depth=0 > out.txt
test "$(wc -l < out.txt)" = 2 || fail "--max-formulas=2 printed $(wc -l < out.txt) lines"

# --list-options: one line per option --help prints, and no other.
for cmd in check equiv enum search hierarchy compile demo eval gen info lang \
	print repl simulate; do
	run 0 "$TALLY" $cmd --list-options > list.txt
	cut -d' ' -f1 list.txt | sed 's/=$//' | sort > listed.txt
	"$TALLY" $cmd --help | grep -o -e '^\(  -[a-zA-Z], \|      \)--[a-z][a-z0-9-]*' |
		sed 's/.*--/--/' | sort -u > helped.txt
	cmp -s listed.txt helped.txt ||
		fail "$cmd --list-options differs from --help: $(diff listed.txt helped.txt | tr '\n' ' ')"
done
"$TALLY" check --list-options | grep -qx -e '--method= - choice METHOD auto explore presburger chc mona unary' ||
	fail "check --list-options: no --method values"
"$TALLY" enum --list-options | grep -qx -e '--max-coeff= - count M 1..16' ||
	fail "enum --list-options: no --max-coeff bounds"
