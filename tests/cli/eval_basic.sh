# tests/cli/eval_basic.sh -- tally eval / tally lang end to end: the
# issue's done-when examples, exit statuses, word syntax, errors.
. "$top_srcdir/tests/lib.sh"
T=$TALLY
dyck="#['('] = #[')'] & #[#['('] < #[')']] = 0"
tab=$(printf '\t')

# Done-when 1: accept, reject, accept (the empty word), exit 1.
rc=0
printf '(()())\n)(\n\n' | "$T" eval -f "$dyck" > out.txt || rc=$?
printf '(()())\taccept\n)(\treject\n\taccept\n' > want.txt
cmp out.txt want.txt || fail "dyck verdicts: $(cat out.txt)"
test "$rc" = 1 || fail "dyck exit $rc, wanted 1"

# Done-when 2: the L_2 formula lists exactly these words.
expect_out "ab
aab
abb
aaab
aabb
abbb" "$T" lang -f "1 <= #[Q_b & 1 <= #[Q_a]] & !(1 <= #[Q_a & 1 <= #[Q_b]])" \
	--max-length 4 --alphabet=ab

# Exit statuses: all accepted 0, some rejected 1, errors 2.
run 0 "$T" eval -f majority -w aab -w a
run 1 "$T" eval -f majority -w aab -w ab
run 2 "$T" eval -f majority -w aaxb
"$T" eval -f majority -w aaxb 2> err.txt || true
grep -q "word 1: unknown letter 'x' at position 3" err.txt ||
	fail "unknown letter message: $(cat err.txt)"
run 2 "$T" eval -f majority -w ab --accept-at=middle
run 2 "$T" eval -f majority -w ab --trace-window=x..y
run 2 "$T" eval -F /nonexistent/file -w ab
run 2 "$T" eval -f "#[Q_a" -w ab
run 0 "$T" eval -f majority -w ca --alphabet=abc -w aac

# Tokens: explicit, and automatic when the line has whitespace.
expect_out "a b a${tab}accept" "$T" eval -f majority -w "a b a"
expect_out "open close${tab}reject" "$T" eval --tokens \
	-f "#[Q_open] > #[Q_close]" -w "open close"
expect_out "x${tab}reject" "$T" eval --alphabet=x,y -f "Q_y" -w x
printf 'ab\r\n' | "$T" eval -f majority > out.txt || true
printf 'ab\treject\n' > want.txt
cmp out.txt want.txt || fail "CRLF line: $(cat out.txt)"

# The end-marker convention: Q_b holds at the last position of "ab" but
# not at the end marker.
expect_out "ab${tab}accept" "$T" eval -f Q_b --alphabet=ab -w ab
expect_out "ab${tab}reject" "$T" eval -f Q_b --alphabet=ab -w ab --accept-at=eos

# Exact arithmetic with huge coefficients: 10^40 a > 10^40 b + 1.
big=10000000000000000000000000000000000000000
expect_out "ab${tab}reject
aab${tab}accept" "$T" eval -f "$big * #[Q_a] > $big * #[Q_b] + 1" -w ab -w aab

# Several formulas: one verdict column each, exit 1 if one rejects.
expect_out "aab${tab}accept${tab}reject" "$T" eval -f majority -f "Q_a" -w aab

# Future counts: PARITY (odd number of 1s) in the two-sided logic.
expect_out "1101${tab}accept
11${tab}reject" "$T" eval -f parity2 --alphabet=01 -w 1101 -w 11

# --json and --trace.
"$T" eval --json -f majority -w aab > out.txt
grep -q '"tally_version"' out.txt && grep -q '"accepted":true' out.txt ||
	fail "json: $(cat out.txt)"
"$T" eval --trace -f "$dyck" -w "(())" > out.txt
grep -q '^position  *1  *2  *3  *4$' out.txt || fail "trace header: $(cat out.txt)"
grep -q '^#\[#\[.(.\] < #\[.).\]\]  *0  *0  *0  *0$' out.txt ||
	fail "trace row: $(cat out.txt)"

# --count: words over {a,b} with more a's than b's, by length
# (0, 1, 1, 4, 5 for lengths 0..4).
expect_out "0${tab}0
1${tab}1
2${tab}1
3${tab}4
4${tab}5" "$T" lang -f majority --max-length 4 --count

# A long word through stdin streams: (^n )^n is balanced.
awk 'BEGIN { for (i = 0; i < 200; i++) { s = s "((((((((((" }
	for (i = 0; i < 500; i++) printf "%s", s;
	s = ""; for (i = 0; i < 200; i++) { s = s "))))))))))" }
	for (i = 0; i < 500; i++) printf "%s", s; printf "\n" }' |
	"$T" eval -f "$dyck" > out.txt || true
grep -q "${tab}accept\$" out.txt || fail "long word not accepted"
exit 0
