# eval_edge.sh -- tally eval and tally lang at the edges: the empty word,
# one-letter words, the end-marker switch, huge constants, tokens, unknown
# letters, a word of 10^7 symbols on stdin, and the labelled corpora.
# Every expected answer is derived by hand from the definitions (or taken
# from corpora/languages, whose labels cite their sources).
. "$top_srcdir/tests/lib.sh"
T=$(printf '\t')
dyck="#['('] = #[')'] & #[#['('] < #[')']] = 0"

# Issue 3, "done when": the empty word is balanced; a reject gives exit 1.
printf '(()())\n)(\n\n' > words
run 1 "$TALLY" eval -f "$dyck" < words > out
printf '(()())\taccept\n)(\treject\n\taccept\n' > want
cmp -s out want || fail "dyck1 on stdin: got [$(cat out)]"
expect_out "$(printf '(()())\taccept')" "$TALLY" eval -f "$dyck" -w '(()())'
run 0 "$TALLY" eval -f "$dyck" -w '(()())' -w '' -w '()' > /dev/null

# The empty word is judged at position 0: no letter, all counts 0.
expect_out "$(printf '\taccept')" "$TALLY" eval -f '!Q_a & #[true] = 0' -w ''
expect_out "$(printf '\treject')" "$TALLY" eval -f 'Q_a | #[true] > 0' -w ''
expect_out "$(printf '\treject')" "$TALLY" eval -f anbn -w ''
expect_out "$(printf '\taccept')" "$TALLY" eval -f anbncn -w ''

# One-letter words: Y is false at position 1, MOD counts from 1.
expect_out "$(printf 'a\taccept')" "$TALLY" eval -f 'Q_a & !Y true & MOD(2, 1)' -w a
expect_out "$(printf 'b\treject')" "$TALLY" eval -f L_1 -w b

# The end-marker switch: Q_b accepts "ab" at the last position, but no
# letter test holds at the appended marker.
expect_out "$(printf 'ab\taccept')" "$TALLY" eval -f Q_b --alphabet=ab -w ab
expect_out "$(printf 'ab\taccept')" "$TALLY" eval -f Q_b --alphabet=ab --accept-at=last -w ab
expect_out "$(printf 'ab\treject')" "$TALLY" eval -f Q_b --alphabet=ab --accept-at=eos -w ab
expect_out "$(printf 'ab\taccept')" "$TALLY" eval -f 'Y Q_b' --alphabet=ab --accept-at=eos -w ab
expect_out "$(printf '\taccept')" "$TALLY" eval -f '#[true] = 1' --accept-at=eos -w ''
run 2 "$TALLY" eval -f Q_b --alphabet=ab --accept-at=middle -w ab > /dev/null 2> err

# Huge constants: 10^40 * (#a - #b) > 1 iff #a > #b, exactly.
big=10000000000000000000000000000000000000000
printf 'aab\nab\nabb\n\naaaaabbbb\n' > words
"$TALLY" eval -f "$big * #[Q_a] > $big * #[Q_b] + 1" < words > out || true
printf 'aab\taccept\nab\treject\nabb\treject\n\treject\naaaaabbbb\taccept\n' > want
cmp -s out want || fail "10^40 comparison: got [$(cat out)]"
# (10^40 - 1) #b is 10^40 #b - #b: floats would lose the difference.
expect_out "$(printf 'ab\taccept')" "$TALLY" eval \
	-f "$big * #[Q_a] - 9999999999999999999999999999999999999999 * #[Q_b] > 0" -w ab
# Coefficients near 2^63.
expect_out "$(printf 'aab\taccept')" "$TALLY" eval \
	-f '9223372036854775807 * #[Q_a] > 9223372036854775807 * #[Q_b]' -w aab
expect_out "$(printf 'a\treject')" "$TALLY" eval \
	-f 'max(9223372036854775807 * #[Q_a], 9223372036854775807) + 9223372036854775807 < 0' -w a

# Words as tokens: --tokens, or any line with whitespace.
tdyck='#[Q_open] = #[Q_close] & #[#[Q_open] < #[Q_close]] = 0'
printf 'open open close close\nclose open\n' > words
"$TALLY" eval --tokens -f "$tdyck" < words | cut -f2 > out || true
printf 'accept\nreject\n' > want
cmp -s out want || fail "tokens on stdin: got [$(cat out)]"
"$TALLY" eval -f "$tdyck" < words | cut -f2 > out || true
cmp -s out want || fail "lines with spaces as tokens: got [$(cat out)]"
run 0 "$TALLY" eval --tokens -f "$tdyck" -w 'open  close' > /dev/null
run 0 "$TALLY" eval -f majority -w 'a b a' > /dev/null
run 1 "$TALLY" eval -f majority -w 'a b b' > /dev/null

# Unknown letters: exit 2 and a message naming the letter and position.
run 2 "$TALLY" eval -f majority -w aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaz > /dev/null 2> err
grep -q z err || fail "unknown letter not named: $(cat err)"
grep -q 37 err || fail "position 37 of the unknown letter not given: $(cat err)"
printf 'ab\nabx\n' | run 2 "$TALLY" eval -f majority > /dev/null 2> err
grep -q x err || fail "unknown letter on stdin not named: $(cat err)"
run 2 "$TALLY" eval --tokens -f "$tdyck" -w 'open shut close' > /dev/null 2> err
grep -q shut err || fail "unknown token not named: $(cat err)"
grep -q 2 err || fail "position 2 of the unknown token not given: $(cat err)"
# ... unless --alphabet admits them: they are letters no test matches.
expect_out "$(printf 'abx\treject')" "$TALLY" eval -f majority --alphabet=abx -w abx
expect_out "$(printf 'aax\taccept')" "$TALLY" eval -f majority --alphabet=a,b,x -w aax

# A word of 10^7 symbols on stdin: (^5000000 )^5000000 is balanced; one
# more ')' is not; a^5000001 b^4999999 has a majority of a's.
m=5000000
gen() { head -c "$2" /dev/zero | tr '\0' "$1"; }
{ gen '(' $m; gen ')' $m; echo; gen '(' $m; gen ')' $m; echo ')'; } |
	"$TALLY" eval -f dyck1 | cut -f2 > out || true
printf 'accept\nreject\n' > want
cmp -s out want || fail "10^7-symbol Dyck words: got [$(cat out)]"
{ gen a $((m + 1)); gen b $((m - 1)); echo; } |
	"$TALLY" eval -f majority | cut -f2 > out || true
test "$(cat out)" = accept || fail "10^7-symbol majority word: got [$(cat out)]"
# Future counts need the whole word: parity2 on 9999999 ones (odd).
{ gen 1 9999999; echo; gen 1 9999998; echo; } |
	"$TALLY" eval -f parity2 | cut -f2 > out || true
printf 'accept\nreject\n' > want
cmp -s out want || fail "10^7-symbol parity words: got [$(cat out)]"

# The labelled corpora.
for f in "$top_srcdir"/corpora/languages/*.tsv; do
	name=$(basename "$f" .tsv)
	cut -f1 "$f" | "$TALLY" eval -f "$name" > out || true
	cmp -s out "$f" || fail "$name: got [$(cat out)], wanted [$(cat "$f")]"
done

# tally lang: issue 3's L_2 example, and the Catalan numbers.
l2='1 <= #[Q_b & 1 <= #[Q_a]] & !(1 <= #[Q_a & 1 <= #[Q_b]])'
"$TALLY" lang -f "$l2" --max-length 4 --alphabet=ab > out
printf 'ab\naab\nabb\naaab\naabb\nabbb\n' > want
cmp -s out want || fail "lang L_2: got [$(cat out)]"
"$TALLY" lang -f dyck1 --max-length 12 --alphabet='()' --count > out
# the last number on each line is the count for the next length
awk '{print $NF}' out | tr '\n' ' ' > got
test "$(cat got)" = "1 0 1 0 2 0 5 0 14 0 42 0 132 " ||
	fail "lang dyck1 --count is not Catalan: [$(cat out)]"
"$TALLY" lang -f dyck1 --max-length 4 --alphabet='()' > out
printf '\n()\n(())\n()()\n' > want
cmp -s out want || fail "lang dyck1: got [$(cat out)]"

# -w ε is the empty word (as tally prints it), unless ε is a letter.
test "$("$TALLY" eval -f '#[Q_a] = 0' -w ε)" = "$(printf '\taccept')" || fail "-w ε"
test "$("$TALLY" eval -f 'Q_a' -w ε 2>&1)" = "$(printf '\treject')" || fail "-w ε rejected"
test "$("$TALLY" eval -f "Q('ε')" -w ε 2>&1)" = "$(printf 'ε\taccept')" || fail "-w ε as a letter"
