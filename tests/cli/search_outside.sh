#!/bin/sh
# tests/cli/search_outside.sh -- search --family=parity|mod3|dyck2:
# targets outside the logic by their membership function.  No "least
# depth"; a certified pair per depth 0..6, each checked here again by
# awk: the in-word is in and the out-word out by a membership test
# written here, and the pair's lengths follow the unary law of the
# design note (separated exactly at depth ceil(log2(n+1)), so the least
# unary pair not separated at depth d has 2^d + 1 letters).
. "$top_srcdir/tests/lib.sh"

for f in parity mod3; do
	try 1 "$TALLY" search --family=$f --max-depth=6 --quiet
	grep -q '^least depth' out.txt && fail "$f: a least depth printed"
	n=$(grep -c '^depth [0-6]: within constants <= 1, 2 counts per comparison, no depth-<=[0-6] formula separates' out.txt)
	test "$n" = 7 || fail "$f: $n certified depths of 7"
	grep -q '^no least depth: no formula of depth <= 6 ' out.txt || fail "$f: summary"
	grep -q 'at any depth' out.txt && fail "$f: an any-depth claim without a fixpoint"
done

# parity: the in-word has an odd number of 1s, the out-word an even one;
# the unary pair of depth d is 1^(2^d+1) / 1^(2^d) (d >= 1)
try 1 "$TALLY" search --family=parity --max-depth=6 --quiet
awk '/^depth [1-6]: within/ {
	d = $2 + 0; sub(/:/, "", d)
	match($0, /separates "[^"]*"/); u = substr($0, RSTART + 11, RLENGTH - 12)
	match($0, /and "[^"]*" \(out\)/); v = substr($0, RSTART + 5, RLENGTH - 12)
	nu = (u ~ /\^/) ? substr(u, 3) + 0 : length(u)
	nv = (v ~ /\^/) ? substr(v, 3) + 0 : length(v)
	if (nu % 2 != 1 || nv % 2 != 0) { print "membership " $0; bad = 1 }
	if (nu != 2 ^ d + 1) { print "length " nu " at depth " d; bad = 1 }
} END { exit bad }' out.txt > bad.txt || fail "parity pairs: $(cat bad.txt)"

# mod3: a^(3n) in, a^(3n+1) out
try 1 "$TALLY" search --family=mod3 --max-depth=6 --quiet
awk '/^depth [0-6]: within/ {
	match($0, /separates "[^"]*"/); u = substr($0, RSTART + 11, RLENGTH - 12)
	match($0, /and "[^"]*" \(out\)/); v = substr($0, RSTART + 5, RLENGTH - 12)
	nu = (u ~ /\^/) ? substr(u, 3) + 0 : length(u)
	nv = (v ~ /\^/) ? substr(v, 3) + 0 : length(v)
	if (nu % 3 != 0 || nv != nu + 1) { print $0; bad = 1 }
} END { exit bad }' out.txt > bad.txt || fail "mod3 pairs: $(cat bad.txt)"

# Dyck-2: the shape tried is certified at depths 0 and 1 only, and says so
try 1 "$TALLY" search --family=dyck2 --max-depth=6 --quiet
grep -q '^depth 1: within ' out.txt || fail "dyck2: depth 1"
grep -q '^depth 2: no pair certified; tried shape 1 (.*): 20 sizes n = 2\.\.1048576 doubling (u up to [0-9]* letters), the largest separated at depth [0-2]; shape 2 (.*): 20 sizes .*; shape 3 (.*): 20 sizes .*, the largest separated at depth [0-2]$' out.txt ||
	fail "dyck2: depth 2: $(grep '^depth 2' out.txt)"
test "$(grep -c '^pairs' out.txt)" = 3 || fail "dyck2: the shapes are not listed"
grep -q 'no least depth' out.txt && fail "dyck2: a claim for every depth"

# The same from labelled words: PARITY's unary words 1^1..1^69 and the
# words over {0, 1} up to length 4, labelled here by awk; a pair among
# them certified at every depth 0..6 (no least depth), and a unary pair
# of depth d is no shorter than the unary law allows (2^d + 1 letters
# for d >= 1: a shorter unary pair is separated at depth d).
awk 'BEGIN {
	for (n = 1; n < 70; n++) { w = ""; for (i = 0; i < n; i++) w = w "1"
		print w > (n % 2 ? "pos.txt" : "neg.txt") }
	for (n = 1; n <= 4; n++) for (v = 0; v < 2 ^ n; v++) {
		w = ""; x = v; ones = 0
		for (i = 0; i < n; i++) { w = w (x % 2); ones += x % 2; x = int(x / 2) }
		if (w !~ /^1+$/) print w > (ones % 2 ? "pos.txt" : "neg.txt") } }'
try 1 "$TALLY" search --positive=pos.txt --negative=neg.txt --max-depth=6 \
	--max-length=2 --holdout=0 --quiet
grep -q '^least depth' out.txt && fail "labelled parity: a least depth printed"
awk '/^lower bound from the labelled words: within/ {
	match($0, /depth-<=[0-9]+/); d = substr($0, RSTART + 8, RLENGTH - 8) + 0
	match($0, /: [0-9]+ and [0-9]+ letters/); split(substr($0, RSTART + 2), f, " ")
	seen[d] = 1
	match($0, /separates "[^"]*" \(in\) and "[^"]*"/); p = substr($0, RSTART, RLENGTH)
	unary = p ~ /^separates "1(\^[0-9]+|1*)" \(in\) and "1(\^[0-9]+|1*)"$/
	if (unary && d >= 1 && f[1] < 2 ^ d + 1 && f[3] < 2 ^ d + 1) { print $0; bad = 1 }
} END { for (d = 0; d <= 6; d++) if (!seen[d]) { print "no depth " d; bad = 1 }
	exit bad }' out.txt > bad.txt || fail "labelled parity: $(cat bad.txt)"

try 2 "$TALLY" search --family=parity --csv
# The names as a user types them: -f parity, -f MOD3, -f Dyck-2 reach the
# same path (no parse error), and --json says the same as the text: no
# least depth, a pair per depth, and for Dyck-2 what every shape tried.
try 1 "$TALLY" search -f MOD3 --max-depth=1 --quiet
grep -q '^target: MOD3' out.txt || fail "-f MOD3: $(cat out.txt err.txt)"
try 1 "$TALLY" search -f parity --max-depth=3 --json --quiet
grep -q '"family":"parity"' out.txt || fail "-f parity --json: $(cat out.txt)"
grep -q '"least_depth":null' out.txt || fail "parity json least_depth"
grep -q '"certified_depth":3,"every_depth":true' out.txt || fail "parity json certified"
grep -q '{"depth":3,"certified":true,"pair":\["1^9","1^8"\],"lengths":\[9,8\]' out.txt ||
	fail "parity json depth 3: $(cat out.txt)"
try 1 "$TALLY" search -f Dyck-2 --max-depth=2 --json --quiet
grep -q '"certified_depth":1,"every_depth":false' out.txt || fail "dyck2 json: $(cat out.txt)"
grep -q '{"depth":2,"certified":false,"tried":\[{"shape":1,"sizes":20,"n_min":2,"n_max":1048576,' out.txt ||
	fail "dyck2 json tried: $(cat out.txt)"
try 2 "$TALLY" search -f parity --csv
# --two-sided: the pairs are checked in the two-sided class, where
# #[#[true] = #>[true]] >= 1 (a middle position: an odd length) has
# depth 2, so the unary pairs are certified at depths 0 and 1 only.
try 1 "$TALLY" search --family=parity --two-sided --max-depth=4 --quiet
n=$(grep -c '^depth [01]: within constants <= 1, 2 counts per comparison (#\[ \] or #>\[ \]), no depth' out.txt)
test "$n" = 2 || fail "two-sided parity: $n certified depths of 2"
grep -q '^depth 2: no pair certified' out.txt ||
	fail "two-sided parity: depth 2 certified"
grep -q '^no least depth' out.txt && fail "two-sided parity: a claim past depth 1"
exit 0
