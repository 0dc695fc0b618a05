#!/bin/sh
# tests/cli/hierarchy.sh -- tally hierarchy: both staircases for small k,
# the staircase without the witness pairs, the class on the bounds line,
# limits and usage errors.  The expected depths
# come from the theory (logic.md §6), not from the program.
. "$top_srcdir/tests/lib.sh"

# columns 4 of the CSV (least depth, settled), 7 (theory) and 9
# (verified), per row
rows() { sed 1d | cut -d, -f2,4,7,9; }

# blocks_from_a N: every word over {a, b} of length 1..N that starts with
# a, and its number of alternating blocks (the membership tests below)
blocks_from_a() {
	awk -v N="$1" 'BEGIN {
		for (n = 1; n <= N; n++) for (v = 0; v < 2 ^ n; v++) {
			w = ""; x = v
			for (i = 0; i < n; i++) { w = w (x % 2 ? "b" : "a"); x = int(x / 2) }
			b = 1; for (i = 2; i <= n; i++) if (substr(w, i, 1) != substr(w, i - 1, 1)) b++
			if (substr(w, 1, 1) == "a") print w, b
		} }'
}

"$TALLY" hierarchy --k=1..4 --csv --quiet > rec.csv ||
	fail "recognition staircase k=1..4: exit $?"
printf '1,1,1,yes\n2,2,2,yes\n3,3,3,yes\n4,4,4,yes\n' > want.txt
rows < rec.csv > got.txt
cmp -s got.txt want.txt || { cat rec.csv; fail "recognition staircase"; }

"$TALLY" hierarchy --task=predict --k=3..6 --csv --quiet > pred.csv ||
	fail "prediction staircase m=3..6: exit $?"
printf '3,1,1,yes\n4,2,2,yes\n5,3,3,yes\n6,4,4,yes\n' > want.txt
rows < pred.csv > got.txt
cmp -s got.txt want.txt || { cat pred.csv; fail "prediction staircase"; }

# Every formula of the table is checked here again, independently of the
# command's own verification: tally eval on the words up to length 9
# against a membership test written in awk (k alternating blocks from a).
sed 1d rec.csv | while IFS=, read -r task k name least theory rest; do
	f=$(sed -n "s/^recognize,$k,[^\"]*\"\(.*\)\"\$/\1/p" rec.csv | sed 's/""/"/g')
	"$TALLY" lang -f "$f" --max-length 9 --alphabet=ab > lang.txt || true
	blocks_from_a 9 | awk -v k="$k" '$2 == k { print $1 }' | sort > want.txt
	sort lang.txt > got.txt
	cmp -s got.txt want.txt || fail "L_$k formula $f: language differs up to length 9"
done

# Rows above --search-depth are not searched: their upper bound is the
# theory's formula (L_k's own; Q_x & S(b a b ...) for prediction), and
# their lower bound still a certified pair.  Every formula is re-checked
# with tally lang against awk: L_k on all words up to 9, the prediction
# formula of L_m on the nonempty prefixes of members (first letter a, at
# most m blocks), where it must accept exactly the members.
"$TALLY" hierarchy --k=1..4 --search-depth=2 --quiet --no-time > sd.txt ||
	fail "--search-depth=2: exit $?"
test "$(grep -c '^[1-4] *L_[1-4] *least depth [1-4] (theory [1-4])' sd.txt)" = 4 ||
	fail "--search-depth=2: rows without 'least depth': $(cat sd.txt)"
test "$(grep -c '^  upper bound: not searched (depth [34] > --search-depth=2): the family.s own formula$' sd.txt)" = 2 ||
	fail "--search-depth=2: no upper-bound lines"
grep -q '^upper bounds: found by the search for L_1, L_2; not searched (depth > --search-depth=2), the family.s own formula, for L_3, L_4$' sd.txt ||
	fail "--search-depth=2: no upper-bounds line"
grep -q '^  verified: L_4 as defined (its own formula, the target itself); a count of runs agrees with it on all 32767 words of length <= 14; evidence: definition$' sd.txt ||
	fail "--search-depth=2: L_4's definition not checked"
"$TALLY" hierarchy --k=2..3 --search-depth=2 --json --quiet --no-time > sd.json
test "$(grep -o '"upper_bound": *"[a-z]*"' sd.json | tr -d ' ' | tr '\n' ' ')" = '"upper_bound":"search" "upper_bound":"definition" ' ||
	fail "json upper_bound: $(cat sd.json)"
"$TALLY" hierarchy --task=predict --k=3..6 --search-depth=2 --csv --quiet > psd.csv ||
	fail "predict --search-depth=2: exit $?"
printf '3,1,1,yes\n4,2,2,yes\n5,3,3,yes\n6,4,4,yes\n' > want.txt
rows < psd.csv > got.txt
cmp -s got.txt want.txt || { cat psd.csv; fail "predict --search-depth=2 staircase"; }
sed 1d psd.csv | while IFS=, read -r task m rest; do
	f=$(sed -n "s/^predict,$m,[^\"]*\"\(.*\)\"\$/\1/p" psd.csv | sed 's/""/"/g')
	"$TALLY" lang -f "$f" --max-length 9 --alphabet=ab > lang.txt || true
	blocks_from_a 9 | awk -v m="$m" '$2 <= m { print $1, ($2 == m) }' > judged.txt
	awk 'NR == FNR { acc[$1] = 1; next } { if ((($1 in acc) ? 1 : 0) != $2) { print "P_'"$m"' differs on " $1; exit 1 } }' \
		lang.txt judged.txt || fail "P_$m formula $f"
done
"$TALLY" hierarchy --task=predict --k=3..6 --search-depth=2 --quiet --no-time > psd.txt ||
	fail "predict --search-depth=2 (text): exit $?"
test "$(grep -c '^[3-6] *P_[3-6] *least depth [1-4] (theory [1-4])' psd.txt)" = 4 ||
	fail "predict rows without 'least depth': $(cat psd.txt)"
grep -q '^lower bounds: least depth certified by a pair for P_3, P_4, P_5, P_6; resting on the search'"'"'s own comparisons for no row$' psd.txt ||
	fail "predict: lower bounds not all certified"

# two_sided_holds CSV LINE K N: the two-sided formula of a --family=dk
# --csv row has a future count and its language up to length N is D_K's
# (2K - 1 blocks from a, by the awk count above).
two_sided_holds() {
	f=$(sed -n "$2p" "$1" | sed 's/^[^"]*"[^"]*","//; s/"$//')
	case $f in *'#>'*) ;; *) fail "D_$3 two-sided formula without #>: $f" ;; esac
	"$TALLY" lang -f "$f" --max-length "$4" --alphabet=ab > dkgot.txt || true
	blocks_from_a "$4" | awk -v m=$((2 * $3 - 1)) '$2 == m { print $1 }' |
		sort > dkwant.txt
	sort dkgot.txt | cmp -s - dkwant.txt ||
		fail "D_$3 two-sided formula $f: language differs up to length $4"
}

# --family=dk: D_k = L_(2k-1) past-only beside two-sided.  The depths the
# engine finds are printed, not the theory's; here each formula is
# re-checked with tally lang against the awk membership test, and
# the two-sided one has a future count.
"$TALLY" hierarchy --family=dk --k=1..2 --csv --quiet > dk.csv ||
	fail "dk table: exit $?"
test "$(sed 1d dk.csv | cut -d, -f2,4,5,6,7)" = "$(printf '1,1,yes,1,yes\n2,3,yes,2,yes')" ||
	fail "dk table: $(cat dk.csv)"
two_sided_holds dk.csv 3 2 9
run 2 "$TALLY" hierarchy --family=dk --task=predict

# A D_k row whose past-only depth 2k - 1 exceeds --search-depth is built,
# not searched: L_(2k-1)'s own formula beside the two-sided construction
# of depth k, whose language is re-checked here against the awk count of
# blocks; both parts still get their certified pairs.
"$TALLY" hierarchy --family=dk --k=3 --search-depth=4 --csv --quiet > dkb.csv ||
	fail "built dk row: exit $?"
test "$(sed 1d dkb.csv | cut -d, -f2,4,5,6,7)" = "3,5,yes,3,yes" ||
	fail "built dk row: $(cat dkb.csv)"
two_sided_holds dkb.csv 2 3 10
"$TALLY" hierarchy --family=dk --k=3 --search-depth=4 --quiet --no-time > dkb.txt ||
	fail "built dk row (text): exit $?"
grep -q "^  two-sided upper bound: not searched (the row's past-only depth 5 > --search-depth=4): the theory's two-sided formula" dkb.txt ||
	fail "built dk row: no upper-bound line"
grep -q '^lower bounds: least depth certified by a pair for D_3 past-only, D_3 two-sided; resting on the search'"'"'s own comparisons for no row$' dkb.txt ||
	fail "built dk row: not both parts certified"
"$TALLY" hierarchy --family=dk --k=3 --search-depth=4 --json --quiet > dkb.json ||
	fail "built dk row (JSON): exit $?"
grep -q '"two_sided":{[^}]*"upper_bound":"construction"' dkb.json ||
	fail "built dk row: JSON upper_bound"
# the theorem's depths: 2k - 1 = 5 past-only, k = 3 two-sided
grep -q '"past":{[^}]*"theory_depth":5' dkb.json &&
	grep -q '"two_sided":{[^}]*"theory_depth":3' dkb.json ||
	fail "built dk row: JSON theory_depth"

# Without the witness pairs: all words up to length 10 and the rounds of
# counterexamples (the words where a candidate differs join the sample).
run 0 "$TALLY" hierarchy --k=4 --pairs=0 --csv --quiet > nopairs.csv
test "$(sed 1d nopairs.csv | cut -d, -f4,9)" = "4,yes" || fail "L_4 without pairs: $(cat nopairs.csv)"
"$TALLY" hierarchy --k=4 --pairs=0 --quiet --no-time > nopairs.txt || fail "L_4 without pairs"
grep -q '^staircase: reproduced' nopairs.txt || fail "the table does not say the staircase was reproduced"

# Lower bounds by pairs the engine builds (block words, two exact checks
# that share no code): every row of L_1..L_4 says "least depth" and has
# its pair; without them (--lower-bounds=0) a row claims a least depth
# only from the sample's certified pairs (search/claim.h), and the
# staircase line does not say "reproduced" when one rests on the search.
"$TALLY" hierarchy --k=1..4 --quiet --no-time > lb.txt || fail "lower bounds: exit $?"
test "$(grep -c '^[1-4] *L_[1-4] *least depth [1-4] (theory [1-4])' lb.txt)" = 4 ||
	fail "rows without 'least depth': $(cat lb.txt)"
for k in 1 2 3 4; do
	grep -q "^  lower bound: within constants <= 1, 2 counts per comparison, no formula of depth <= $((k - 1)) separates \".*\" (in) and \".*\" (out): [0-9]* letters each, candidate [0-9]*; shown by two exact checks" lb.txt ||
		fail "no certified pair for L_$k"
done
grep -q '^lower bounds: least depth certified by a pair for L_1, L_2, L_3, L_4; resting on the search.s own comparisons for no row$' lb.txt ||
	fail "no lower-bounds line"
"$TALLY" hierarchy --k=4 --quiet --no-time --lower-bounds=0 --pairs=0 \
	--certify=0 --max-length=8 --decide-length=0 > nolb.txt ||
	fail "--lower-bounds=0: exit $?"
grep -q 'least depth 4' nolb.txt && fail "--lower-bounds=0: depth 3 rests on the bank"
grep -q '^4 *L_4 *depth <= 4 found; lower bound certified to depth 2' nolb.txt ||
	fail "--lower-bounds=0: $(cat nolb.txt)"
grep -q "^staircase: depths found as the theory's, every formula verified; not every row's lower bound is certified" nolb.txt ||
	fail "--lower-bounds=0 staircase: $(grep staircase nolb.txt)"
grep -q "^lower bounds: least depth certified by a pair for no row; resting on the search's own comparisons for L_4 (certified to depth 2)$" nolb.txt ||
	fail "--lower-bounds=0 rows: $(grep '^lower' nolb.txt)"
"$TALLY" hierarchy --k=3 --json --quiet --no-time > lb.json
grep -q '"certified_depth": *2' lb.json || fail "json certified_depth"

# Negative evidence names its class and sample; depth 1 of L_2 has a pair
# with the same Parikh vector.
"$TALLY" hierarchy --k=2 --quiet > two.txt
grep -q '^bounds: C = 1, T = 2: coefficients and constants within \[-1, 1\], at most 2 counts per comparison, relations < <= = != >= >, inner formulas of any size' two.txt ||
	fail "no class on the bounds line"
grep -q '^sample: all 2047 words of length <= 10' two.txt || fail "no sample line"
grep -q '^  depth 1: within constants <= 1, 2 counts per comparison, no depth-<=1 formula separates ".*" (in) and ".*" (out).*same last letter and Parikh vector' two.txt ||
	fail "no refutation at depth 1"

# --no-time: no time anywhere, in every format (the CSV keeps an empty
# time_s column, so the two tables compare byte for byte).
"$TALLY" hierarchy --k=1..2 --csv --quiet --no-time > t1.csv
sed 1d t1.csv | cut -d, -f11 | grep -v '^$' && fail "--csv --no-time printed a time"
"$TALLY" hierarchy --k=1..2 --csv --quiet --no-time > t2.csv
cmp -s t1.csv t2.csv || fail "--csv --no-time: two runs differ"
"$TALLY" hierarchy --k=1..2 --json --quiet --no-time > t.json
grep -q time_s t.json && fail "--json --no-time printed time_s"
"$TALLY" hierarchy --k=1..2 --quiet --no-time > t.txt
grep -E '[0-9]s\b|[0-9] MB' t.txt && fail "--no-time printed a time: $(cat t.txt)"

# JSON: one object per row, with the evidence kind.
"$TALLY" hierarchy --k=1..2 --json --quiet > rows.json
test "$(grep -c '"least_depth"' rows.json)" = 2 || fail "json rows"
# the decision engine proves it (presburger, mona) or bounds it (explore,
# when mona is not installed)
grep -q -E '"evidence": *"(proof|bound)"' rows.json || fail "json evidence"
grep -q -E 'tally equiv \((presburger|mona)\) proves it equivalent|tally equiv \(explore\): equal on every word up to length 16' two.txt ||
	fail "no decision-engine verdict"

# Limits end in exit 4 with the finished rows.
run 4 "$TALLY" hierarchy --k=1..4 --max-signatures=500 --quiet
run 4 "$TALLY" hierarchy --k=1..4 --max-memory=1 --quiet

# check-heavy (TALLY_TEST_MULTIPLIER >= 10): depth 5 both ways, L_1..L_5
# without the witness pairs, and depth 6 behind a signature cap (an
# honest partial table, exit 4, is allowed).
if test "${TALLY_TEST_MULTIPLIER:-1}" -ge 10; then
	"$TALLY" hierarchy --k=5 --csv --quiet > five.csv || fail "L_5: exit $?"
	test "$(sed 1d five.csv | cut -d, -f4,9)" = "5,yes" || fail "L_5 row"
	"$TALLY" hierarchy --task=predict --k=7 --csv --quiet > p7.csv || fail "P_7: exit $?"
	test "$(sed 1d p7.csv | cut -d, -f4,9)" = "5,yes" || fail "P_7 row"
	"$TALLY" hierarchy --k=1..5 --pairs=0 --quiet --no-time > np5.txt ||
		fail "L_1..L_5 without pairs: exit $?"
	grep -q '^staircase: reproduced' np5.txt || fail "L_1..L_5 without pairs"
	grep -q '^lower bounds: least depth certified by a pair for L_1, L_2, L_3, L_4, L_5; resting on the search'"'"'s own comparisons for no row$' np5.txt ||
		fail "L_1..L_5 without pairs: lower bounds not all certified"
	"$TALLY" hierarchy --k=1..4 --max-const=2 --counts=3 --quiet --no-time > c2.txt ||
		fail "C = 2, T = 3: exit $?"
	grep -q '^lower bounds: least depth certified by a pair for L_1, L_2, L_3, L_4; resting' c2.txt ||
		fail "C = 2, T = 3: not every row certified"
	"$TALLY" hierarchy --family=dk --k=3 --csv --quiet > dk3.csv || fail "D_3: exit $?"
	test "$(sed 1d dk3.csv | cut -d, -f4,5,6,7)" = "5,yes,3,yes" || fail "D_3 row: $(cat dk3.csv)"
	# L_8: built above --search-depth, its depth-7 pair (1084581 letters)
	# certified by both checks
	"$TALLY" hierarchy --k=8 --csv --quiet > eight.csv || fail "L_8: exit $?"
	test "$(sed 1d eight.csv | cut -d, -f4,5,6,7,9)" = "8,8,7,8,yes" ||
		fail "L_8 row: $(cat eight.csv)"
	# D_1..D_4 with both parts of every row certified (D_4 built)
	"$TALLY" hierarchy --family=dk --k=1..4 --quiet --no-time > dk4.txt ||
		fail "D_1..D_4: exit $?"
	grep -q '^4   D_4 = L_7 *past-only: least depth 7 (definition) *two-sided: least depth 4 (proof)' dk4.txt ||
		fail "D_4 row: $(grep '^4 ' dk4.txt)"
	grep -q '^lower bounds: least depth certified by a pair for D_1 past-only, D_1 two-sided, D_2 past-only, D_2 two-sided, D_3 past-only, D_3 two-sided, D_4 past-only, D_4 two-sided; resting on the search'"'"'s own comparisons for no row$' dk4.txt ||
		fail "D_1..D_4: not every part certified"
	st=0
	"$TALLY" hierarchy --k=6 --csv --quiet --max-signatures=3000000 \
		--max-memory=3500M > six.csv || st=$?
	case $st in
	0) test "$(sed 1d six.csv | cut -d, -f4,9)" = "6,yes" || fail "L_6 row" ;;
	4) ;;
	*) fail "L_6: exit $st" ;;
	esac
fi

# Usage errors.
run 2 "$TALLY" hierarchy --family=dyck
run 2 "$TALLY" hierarchy --k=x
run 2 "$TALLY" hierarchy --task=guess
run 2 "$TALLY" hierarchy --k=2..99
run 2 "$TALLY" hierarchy --max-const=0
run 2 "$TALLY" hierarchy stray
exit 0
