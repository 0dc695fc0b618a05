# future.sh -- formulas with future counts #> on long words read from
# stdin (issue 12: the word is kept as packed letter codes and evaluated
# by passes).  Each #> formula has a past-only twin with the same verdict
# on every word; both run on words of 10^6 symbols, and the verdicts are
# also computed independently here (letter counts by tr/wc, the last
# letter by tail).
. "$top_srcdir/tests/lib.sh"

N=1000000
H=$((N / 2))
# Four words of N symbols: random, a tie ending in b, one more a than b,
# a tie ending in a.
awk -v n=$N 'BEGIN { srand(12); for (i = 0; i < n; i++)
	printf "%s", rand() < 0.5 ? "a" : "b"; print "" }' > words.txt
{ repeat $H ab; echo; repeat $((H + 1)) a; repeat $((H - 1)) b; echo
  repeat $H ba; echo; } >> words.txt
test "$(wc -l < words.txt)" = 4 || fail "words.txt: $(wc -l < words.txt) lines"

# Independent verdicts (awk counts the letters): majority (more a than
# b), and "does not end in a", each for a #> formula and its twin.
awk -v n=$N '{ na = gsub(/a/, "a"); nb = gsub(/b/, "b")
	if (na + nb != n) { print "a word of " na + nb " symbols"; exit 1 }
	maj = na > nb ? "accept" : "reject"
	end = substr($0, n) == "a" ? "reject" : "accept"
	print maj "\t" maj "\t" end "\t" end }' words.txt > want.txt ||
	fail "$(cat want.txt)"

# Majority as a future count at position 1 (the letter counts give the
# totals: one pass), and "every a has a b at or after it" with nested #>
# (two passes), beside their twins; then a pair whose innermost #> count
# more than letters (two passes, the first one for the totals): at
# position 1 the future counts are the past counts at the last position.
maj_future='#[#[true] = 1 & #>[Q_b] < #>[Q_a]] = 1'
end_future='#[#[true] = 1 & #>[Q_a & #>[Q_b] >= 1] = #>[Q_a]] = 1'
end_past='!Q_a & #[true] >= 1'
ab_future='#[#[true] = 1 & #>[Q_a & #[Q_b] >= 1] > #>[Q_b & #[Q_a] >= 2]] = 1'
ab_past='#[Q_a & #[Q_b] >= 1] > #[Q_b & #[Q_a] >= 2]'
try 1 "$TALLY" eval --no-echo -f "$maj_future" -f majority -f "$end_future" \
	-f "$end_past" -f "$ab_future" -f "$ab_past" < words.txt
cut -f1-4 out.txt | cmp -s - want.txt ||
	fail "verdicts: $(tr '\t\n' ' ;' < out.txt), wanted $(tr '\t\n' ' ;' < want.txt)"
cut -f5 out.txt > f5.txt
cut -f6 out.txt | cmp -s - f5.txt || fail "twins differ: $(tr '\t\n' ' ;' < out.txt)"
sort -u f5.txt | wc -l | grep -q 2 || fail "the last pair is constant: $(tr '\n' ' ' < f5.txt)"

# With the echo: each line is the word, then the verdicts.
try 1 "$TALLY" eval -f "$end_future" < words.txt
cut -f1 out.txt | cmp -s - words.txt || fail "the echo differs from the words"
cut -f2 out.txt > got.txt
cut -f3 want.txt | cmp -s - got.txt ||
	fail "echoed verdicts: $(tr '\n' ' ' < got.txt)"

# Under --accept-at=eos the marker is one more position where no letter
# holds: the future majority at position 1 still sees the whole word.
try 1 "$TALLY" eval --no-echo --accept-at=eos -f "$maj_future" < words.txt
test "$(tr '\n' ' ' < out.txt)" = "$(cut -f1 want.txt | tr '\n' ' ')" ||
	fail "eos: $(tr '\n' ' ' < out.txt)"

# Memory: the packed word is a quarter byte per symbol here; the old
# column evaluator needed over 100 bytes per symbol (800 MB for these
# 6 x 10^6 symbols).  Under a real limit (not on sanitizer builds, which
# reserve terabytes of address space) the run must still succeed.
if (ulimit -v 300000 && "$TALLY" --version) > /dev/null 2>&1; then
	head -n 3 words.txt > three.txt
	cat three.txt three.txt | tr -d '\n' > long.txt
	echo >> long.txt
	status=0
	(ulimit -v 300000; exec "$TALLY" eval --no-echo -f "$end_future" \
		< long.txt > out.txt 2> err.txt) || status=$?
	test "$status" = 0 || fail "6 x 10^6 symbols under ulimit -v 300000: exit $status: $(head -c 300 err.txt)"
	test "$(cat out.txt)" = accept || fail "6 x 10^6 symbols: $(cat out.txt)"
fi
