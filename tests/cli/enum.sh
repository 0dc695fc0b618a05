#!/bin/sh
# tests/cli/enum.sh -- tally enum: hand-counted small layers, distinct
# signatures, formats, limits and usage errors.  (The exact counts against
# a brute-force enumeration are in tests/unit/check_search.c.)
. "$top_srcdir/tests/lib.sh"

# Depth 0 over {a, b}: the Boolean functions of "which letter, or none"
# (the empty word) are 2^3 = 8, all within size 4.
run 0 "$TALLY" enum --depth=0 --size=..4 --check > d0.txt
test "$(wc -l < d0.txt)" = 8 || fail "depth 0: $(wc -l < d0.txt) formulas, wanted 8"

# Every printed formula has the depth it claims (tally info) and no two
# share a signature hash.
run 0 "$TALLY" enum --depth=1 --size=..6 --check --format='%d|%s|%h|%f' > d1.txt
test -s d1.txt || fail "no depth-1 formulas"
cut -d'|' -f3 d1.txt | sort | uniq -d > dup.txt
test ! -s dup.txt || fail "two formulas share a signature hash"
cut -d'|' -f4 d1.txt | head -20 | while read -r f; do
	test "$("$TALLY" info -f "$f" | sed -n 's/^depth: //p')" = 1 || fail "depth of $f"
done
# sizes never decrease within a depth
cut -d'|' -f2 d1.txt | sort -c -n || fail "sizes out of order"

# Two formulas printed as different really differ on some word <= 6,
# and a formula that is not printed at size <= 3 of depth 1 is merged:
# #[Q_a & Q_a] >= 1 is #[Q_a] >= 1.
grep -qx '1|3|[0-9a-f]*|#\[Q_a\] >= 1' d1.txt || fail "#[Q_a] >= 1 missing"

# --stats on stderr, JSON
"$TALLY" enum --depth=1 --size=..4 --stats > /dev/null 2> stats.txt
grep -q '^depth 1 size 3: generated [0-9]*, merged [0-9]*, kept [0-9]*, emitted 2$' stats.txt ||
	{ cat stats.txt; fail "stats line"; }
run 0 "$TALLY" enum --depth=0 --size=..2 --json > d.json
test "$(grep -c '"signature_hash"' d.json)" = 6 || fail "json lines"
run 0 "$TALLY" enum --depth=0 --size=..2 --csv > d.csv
test "$(sed -n 1p d.csv)" = "depth,size,signature_hash,formula" || fail "csv header"
test "$(sed 1d d.csv | wc -l)" = 6 || fail "csv lines"
run 0 "$TALLY" enum --count=3 > three.txt
test "$(wc -l < three.txt)" = 3 || fail "--count"
run 0 "$TALLY" enum --alphabet=a --depth=0..1 --size=..4 --with-y --with-mod=2 --check > y.txt
grep -q 'Y' y.txt || fail "--with-y printed no Y"

run 4 "$TALLY" enum --depth=2 --size=..30 --max-memory=1 --quiet
# Future counts: whole words; every printed formula's value at every
# position of every word is recomputed by the evaluator (--check), no two
# share a signature hash, and #> occurs.
run 0 "$TALLY" enum --with-future --depth=1 --size=..5 --length=4 --check --format='%h %f' > fut.txt
grep -q '#>' fut.txt || fail "--with-future printed no #>"
cut -d' ' -f1 fut.txt | sort | uniq -d > fdup.txt
test ! -s fdup.txt || fail "--with-future: two formulas share a signature hash"
run 2 "$TALLY" enum --depth=x
run 2 "$TALLY" enum --size=3..
run 2 "$TALLY" enum --max-coeff=0
run 2 "$TALLY" enum stray
exit 0
