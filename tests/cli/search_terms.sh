# tests/cli/search_terms.sh -- count-valued targets searched directly in
# the term grammar (issue 32 item 4): tally search finds the smallest term
# of the least depth, verified, in text and JSON; tally enum --terms
# lists one term per behaviour.  Each term found is evaluated here and
# compared with awk's own count, so a wrong term fails whatever tally
# says of it.
. "$top_srcdir/tests/lib.sh"
T=$TALLY

# every word over {a, b} up to length 6, one per line ('' first)
: > words.txt
echo > words.txt
for n in 1 2 3 4 5 6; do
	awk -v n=$n 'BEGIN { for (i = 0; i < 2 ^ n; i++) { w = ""
		for (j = 0; j < n; j++) w = w (int(i / 2 ^ j) % 2 ? "b" : "a")
		print w } }' >> words.txt
done

# ref KIND: awk's values at every position of each word (tab, spaces)
ref() {
	awk -v kind="$1" '{ na = 0; nb = 0; out = ""
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1); if (c == "a") na++; else nb++
			if (kind == "hist") v = c == "a" ? na : nb
			else if (kind == "count_a") v = na
			else if (kind == "margin") v = na - nb
			out = out (i > 1 ? " " : "") v
		}
		print $0 "\t" out }' words.txt
}

# found TERM KIND: the printed term's values equal awk's
found() {
	"$T" eval -f "$1" --alphabet=ab --per-position < words.txt > got.txt ||
		fail "eval of the term found, $1"
	ref "$2" > want.txt
	cmp -s want.txt got.txt || fail "the term found, $1, is not $2"
}

# histogram spelled as a sum over letters: the guarded term, depth 1,
# proved equal at every position
try 0 "$T" search -f '(Q_a ? #[Q_a] : 0) + (Q_b ? #[Q_b] : 0)' --json --quiet
term=$(sed -n 's/.*"term":"\([^"]*\)".*/\1/p' out.txt)
test -n "$term" || fail "no term: $(cat out.txt)"
found "$term" hist
grep -q '"depth":1,' out.txt || fail "histogram depth: $(cat out.txt)"
grep -q '"evidence":"proof"' out.txt || fail "histogram evidence"

# a count written at depth 2 that is the running count of a (Q_a makes
# #[Q_a] >= 1): found at depth 1 in text, then the thresholds
try 0 "$T" search -f '#[Q_a & #[Q_a] >= 1]' --alphabet=ab
term=$(sed -n 's/^term: //p' out.txt)
found "$term" count_a
grep -q '^term depth: 1 ' out.txt || fail "count_a depth: $(cat out.txt)"
grep -q '^threshold t >= 2:' out.txt || fail "no thresholds after the term"

# the margin at depth 1
try 0 "$T" search -f margin --json --quiet
term=$(sed -n 's/.*"term":"\([^"]*\)".*/\1/p' out.txt)
found "$term" margin

# outside the grammar's constants: not found up to the depth written
try 1 "$T" search -f '#[Q_a] + 5' --alphabet=ab --json --quiet
grep -q '"found":false,"searched_up_to":1' out.txt || fail "not found: $(cat out.txt)"
try 1 "$T" search -f '#[Q_a] + 5' --alphabet=ab
grep -q '^term: not found up to depth 1 ' out.txt || fail "not found text"

# enum --terms: depth 0 over {a, b} with |c| <= 1 is a value at ε (and
# at letters other than the one tested) and one at each letter: the 3
# constants and, per letter x, (Q_x ? u : v) with u != v, 6 each: 15
# (by hand); --check recomputes every term's values with the evaluator
try 0 "$T" enum --terms --depth=0 --size=..4 --check --quiet
test "$(wc -l < out.txt)" = 15 || fail "depth-0 terms: $(wc -l < out.txt)"
try 0 "$T" enum --terms --depth=0..1 --size=..7 --check --quiet
grep -qx '(Q_a ? #\[Q_a\] : #\[Q_b\])' out.txt || fail "no histogram term"
test "$(sort out.txt | uniq -d | wc -l)" = 0 || fail "a term twice"
try 2 "$T" enum --terms --with-y
exit 0
