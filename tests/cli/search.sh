#!/bin/sh
# tests/cli/search.sh -- tally search: least depths of known languages,
# --separate with its depth-1 certificate, labelled words, usage errors.
# Found formulas are re-checked here with tally eval / tally lang.
. "$top_srcdir/tests/lib.sh"

field() { sed -n "s/^$1: //p" "$2"; }

# first letter a: depth 2 (logic.md §10); depth 1 is refuted with a pair
run 0 "$TALLY" search -f first_a --quiet > first.txt
test "$(field 'least depth' first.txt)" = 2 || fail "first_a: least depth"
grep -q '^depth 1: no Boolean combination' first.txt || fail "first_a: no refutation"
f=$(field formula first.txt)
"$TALLY" lang -f "$f" --max-length 8 --alphabet=ab > got.txt
"$TALLY" lang -f first_a --max-length 8 --alphabet=ab > want.txt
cmp -s got.txt want.txt || fail "first_a: found formula differs up to length 8"

run 0 "$TALLY" search --family=lk --k=3 --csv --quiet > l3.csv
test "$(sed 1d l3.csv | cut -d, -f2,4)" = "3,yes" || fail "L_3 via search"
run 0 "$TALLY" search --family=lk-predict --k=4 --csv --quiet > p4.csv
test "$(sed 1d p4.csv | cut -d, -f2,4)" = "2,yes" || fail "prediction L_4 via search"

# a family of tally gen with a neutral letter: E_2 needs depth 2
run 0 "$TALLY" search --family=ek --k=2 --length=7 --csv --quiet > e2.csv
test "$(sed 1d e2.csv | cut -d, -f2,4)" = "2,yes" || fail "E_2 via --family=ek"
run 2 "$TALLY" search --family=ek

# --separate=1: among the first three results a depth-2 formula with a
# certificate pair; the pair is checked here: same last letter, same
# Parikh vector, and the formula separates it (tally eval).
run 0 "$TALLY" search --separate=1 --alphabet=ab --count=3 --csv --quiet > sep.csv
line=$(sed -n 2p sep.csv)
w1=$(echo "$line" | cut -d, -f6 | tr -d '"')
w2=$(echo "$line" | cut -d, -f7 | tr -d '"')
f=$(echo "$line" | cut -d, -f8- | sed 's/^"//; s/"$//; s/""/"/g')
test -n "$w1" && test -n "$w2" || fail "no certificate among the first results"
parikh() { echo "$1" | awk '{ print gsub(/a/, "a"), gsub(/b/, "b"), substr($0, length($0)) }'; }
test "$(parikh "$w1")" = "$(parikh "$w2")" || fail "certificate $w1/$w2: Parikh or last letter differ"
run 0 "$TALLY" eval -f "$f" --alphabet=ab -w "$w1"
run 1 "$TALLY" eval -f "$f" --alphabet=ab -w "$w2"
test "$("$TALLY" info -f "$f" | sed -n 's/^depth: //p')" = 2 || fail "separating formula depth"

# --separate=2: the first result separates a witness pair with u in L_2
# (same last letter, same Parikh vector; the formula separates it).
run 0 "$TALLY" search --separate=2 --count=1 --quiet > sep2.txt
grep -q '^   witness pair: it accepts' sep2.txt || fail "separate=2: no witness pair"
w1=$(sed -n 's/^   witness pair: it accepts "\([ab]*\)" and rejects "\([ab]*\)".*/\1/p' sep2.txt)
w2=$(sed -n 's/^   witness pair: it accepts "\([ab]*\)" and rejects "\([ab]*\)".*/\2/p' sep2.txt)
test "$(parikh "$w1")" = "$(parikh "$w2")" || fail "witness pair $w1/$w2"
f=$(sed -n 's/^1\. \(.*\)  (depth 3, .*/\1/p' sep2.txt)
run 0 "$TALLY" eval -f "$f" --alphabet=ab -w "$w1"
run 1 "$TALLY" eval -f "$f" --alphabet=ab -w "$w2"

# Labelled words of a depth-2 language (a^n b^n): a depth-2 formula that
# agrees with every label (checked with tally eval).
"$TALLY" lang -f anbn --max-length 12 --alphabet=ab > pos.txt
"$TALLY" lang -f '!anbn' --max-length 7 --alphabet=ab > neg.txt
run 0 "$TALLY" search --positive=pos.txt --negative=neg.txt --quiet > lab.txt
test "$(field 'least depth' lab.txt)" = 2 || fail "anbn labels: least depth"
f=$(field formula lab.txt)
run 0 "$TALLY" eval -f "$f" --alphabet=ab < pos.txt > /dev/null
"$TALLY" eval -f "$f" --alphabet=ab < neg.txt > negv.txt || true
grep -q 'accept$' negv.txt && fail "anbn labels: a negative word is accepted"

# a depth-1 language from labels
"$TALLY" lang -f majority --max-length 8 --alphabet=ab > mpos.txt
"$TALLY" lang -f '!majority' --max-length 8 --alphabet=ab > mneg.txt
run 0 "$TALLY" search --positive=mpos.txt --negative=mneg.txt --quiet > maj.txt
test "$(field 'least depth' maj.txt)" = 1 || fail "majority labels: least depth"

# JSON
run 0 "$TALLY" search -f 'Q_a & #[Q_b] >= 1' --json --quiet > one.json
grep -q '"least_depth": *1' one.json || fail "json least depth"

# limits
run 4 "$TALLY" search --family=lk --k=4 --max-signatures=50 --quiet

# usage errors
echo ab > p.txt
run 2 "$TALLY" search --positive=p.txt
run 2 "$TALLY" search --positive=p.txt --negative=p.txt
run 2 "$TALLY" search --positive=missing.txt --negative=p.txt
run 2 "$TALLY" search --family=lk
run 2 "$TALLY" search -f 'Q_a & #>[Q_b] >= 1'
run 2 "$TALLY" search
run 2 "$TALLY" search -f Q_a stray
run 2 "$TALLY" search --separate=9
exit 0
