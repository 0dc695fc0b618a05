# tests/cli/search_counts.sh -- tally search of a count-valued target
# (issue 32 item 4): the least depth through the thresholds [t >= k],
# settled for the running count of a and for histogram (depth 1, known by
# hand: a depth-0 term is a function of the current letter, and neither
# is), left open with its bounds where the thresholds are shallower than
# the term as written, and refused where it is not searched.
. "$top_srcdir/tests/lib.sh"
T=$TALLY

try 0 "$T" search -f count_a --alphabet=ab
grep -q '^count-valued target: #\[Q_a\] (depth 1 as written)$' out.txt ||
	fail "header: $(head -1 out.txt)"
test "$(grep -c '^threshold t >= ' out.txt)" = 4 || fail "thresholds"
grep -q '^least depth of the count: 1 ' out.txt || fail "count_a: $(tail -1 out.txt)"
try 0 "$T" search -f histogram
grep -q '^least depth of the count: 1 ' out.txt || fail "histogram"
# #[true] + 1 written at depth 2: every threshold is depth 0 on words,
# the term depth 1 (found directly, search_terms.sh, and standing in for
# the target); the gap is said, exit 1
try 1 "$T" search -f '#[Q_a | #[Q_b] >= 0] + 1' --alphabet=ab --max-depth=2
grep -q '^depth of the count: between 0 and 1, not settled' out.txt ||
	fail "gap: $(tail -1 out.txt)"
try 2 "$T" search -f count_a --csv
grep -q 'no --csv' err.txt || fail "csv refused"
try 2 "$T" search -f '#>[Q_a]' --alphabet=ab
grep -q 'future' err.txt || fail "future refused"
exit 0
