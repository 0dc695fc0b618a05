# tests/cli/trace.sh -- every definition's trace row shows the values of
# its own node (issue 18), in text, --json, --html, equiv --trace and the
# REPL: definitions the store merges into a larger & or + and
# definitions no output uses.  The expected rows are derived by hand
# from the definitions (tests/unit/check_trace.c checks the rest against
# the reference evaluator).
. "$top_srcdir/tests/lib.sh"

X='let X = #[Q_a] >= 1 & #[Q_b] >= 1; let Z = X & Q_a; Z'
ST='let S = #[Q_a] + #[Q_b]; let T = S + #[Q_a]; T > 2'

# 1. X is flattened into Z's &: on "ba", X = (#a >= 1 & #b >= 1) is 0 at
# b (no a yet) and 1 at a; Z = X & Q_a is the same there.
run 0 "$TALLY" eval --trace -f "$X" -w ba > x.txt
printf 'ba\taccept\nposition 1 2\nletter   b a\nX        0 1\nZ        0 1\n\n' \
	> x.want
diff -u x.want x.txt || fail "X & Q_a: text trace"

# 2. S and T are flattened into 2*#a + #b: on "ba", S = #a + #b is 1, 2
# and T = S + #a is 1, 3; the output 2*#a + #b > 2 is 0, 1.
run 0 "$TALLY" eval --trace -f "$ST" -w ba > st.txt
cat > st.want <<'EOF'
ba	accept
position              1 2
letter                b a
S                     1 2
T                     1 3
2*#[Q_a] + #[Q_b] > 2 0 1

EOF
diff -u st.want st.txt || fail "S + #a: text trace"

# 3. count3 on aabbcc: same_counts = (#a = #b) && (#b = #c) holds at 6
# only (at 4, #a = #b = 2 but #c = 0); the program accepts there, and so
# does --output=same_counts.
run 0 "$TALLY" eval --trace -P "$top_srcdir/corpora/programs/count3.cr" \
	-w aabbcc > c3.txt
grep -q '^same_counts 0 0 0 0 0 1$' c3.txt ||
	fail "count3: same_counts row: $(grep same_counts c3.txt)"
grep -q '^count3      0 0 0 0 0 1$' c3.txt || fail "count3: count3 row"
run 0 "$TALLY" eval --output=same_counts \
	-P "$top_srcdir/corpora/programs/count3.cr" -w aabbcc

# 4. A definition no output uses: U = #c >= 1 on "ac" is 0, 1.
run 1 "$TALLY" eval --trace -f 'let U = #[Q_c] >= 1; Q_a' -w ac > u.txt
grep -q '^U        0 1$' u.txt || fail "unused U: $(cat u.txt)"

# 5. --json: the same rows and values.
run 0 "$TALLY" eval --trace --json -f "$X" -w ba > x.json
grep -q '"rows":\[{"label":"X","sort":"bool","input":1,"values":\[0,1\]},{"label":"Z","sort":"bool","input":1,"values":\[0,1\]}\]' x.json ||
	fail "X & Q_a: JSON trace: $(cat x.json)"
run 0 "$TALLY" eval --trace --json -f "$ST" -w ba > st.json
grep -q '{"label":"S","sort":"int","input":1,"values":\[1,2\]},{"label":"T","sort":"int","input":1,"values":\[1,3\]}' st.json ||
	fail "S + #a: JSON trace: $(cat st.json)"

# 6. --html: the same rows (a true cell is marked).
run 0 "$TALLY" eval --trace --html -f "$X" -w ba > x.html
grep -q '^<tr><th>X</th><td class="f">0</td><td class="t">&#10003; 1</td></tr>$' x.html ||
	fail "X & Q_a: HTML trace: $(grep '<th>X' x.html)"
run 0 "$TALLY" eval --trace --html -f "$ST" -w ba > st.html
grep -q '^<tr><th>T</th><td class="n">1</td><td class="n">3</td></tr>$' st.html ||
	fail "S + #a: HTML trace: $(grep '<th>T' st.html)"

# 7. The REPL's :trace: the table of tally eval --trace, line for line,
# for the same definitions typed one per line.
printf 'let X = #[Q_a] >= 1 & #[Q_b] >= 1\nlet Z = X & Q_a\nZ\n:trace ba\n' |
	"$TALLY" repl > repl_x.out
sed -n '/^ba/,$p' repl_x.out > repl_x.txt
diff -u x.want repl_x.txt || fail "X & Q_a: the REPL's :trace"
printf '%s\n:trace ba\n' "$ST" | "$TALLY" repl > repl_st.out
sed -n '/^ba/,$p' repl_st.out > repl_st.txt
diff -u st.want repl_st.txt || fail "S + #a: the REPL's :trace"

# 8. The REPL's values on the example word: C = 3 is 3 everywhere.
printf ':word ab\nlet C = 3\nlet S = 2*#[Q_a] + 2*#[Q_b]\n' |
	"$TALLY" repl > repl_c.out
grep -q '^C("ab") = \[3\]\*2  int, depth 0$' repl_c.out ||
	fail "REPL example values: $(cat repl_c.out)"
grep -q '^S("ab") = \[2, 4\]  int, depth 1$' repl_c.out ||
	fail "REPL example values: $(cat repl_c.out)"

# 9. equiv --trace: the counterexample's rows, the same way.
run 1 "$TALLY" equiv --trace -f "$X" -f false > eq.txt
grep -q '^X        0 1$' eq.txt || fail "equiv --trace: $(cat eq.txt)"

# 10. Several inputs: a label line "-- input N: SOURCE" before each
# input's rows, every input with all of its rows (#[Q_a] is in two) and
# its output row even when that is a letter; JSON rows carry "input"
# and the trace the inputs' labels; HTML a header row per input.
tab=$(printf '\t')
run 1 "$TALLY" eval --trace -f '#[Q_a] > 0' -f majority -f Q_a -w ab > multi.txt
cat > multi.want <<MULTI
ab${tab}accept${tab}reject${tab}reject
position        1 2
letter          a b
-- input 1: -f #[Q_a] > 0
#[Q_a]          1 1
#[Q_a] > 0      1 1
-- input 2: -f majority
#[Q_a]          1 1
#[Q_b]          0 1
#[Q_b] < #[Q_a] 1 0
-- input 3: -f Q_a
Q_a             1 0

MULTI
diff -u multi.want multi.txt || fail "several inputs: text trace"
run 1 "$TALLY" eval --trace --json -f '#[Q_a] > 0' -f majority -w ab > multi.json
grep -q '"inputs":\["-f #\[Q_a\] > 0","-f majority"\]' multi.json &&
	grep -q '{"label":"#\[Q_b\] < #\[Q_a\]","sort":"bool","input":2,' multi.json &&
	grep -q '{"label":"#\[Q_a\]","sort":"int","input":1,' multi.json ||
	fail "several inputs: JSON trace $(cat multi.json)"
run 1 "$TALLY" eval --trace --html -f '#[Q_a] > 0' -f majority -w ab > multi.html
test "$(grep -c '<th class="i" colspan="3">input [12]: -f ' multi.html)" = 2 ||
	fail "several inputs: HTML trace"
# one input: no label line
run 0 "$TALLY" eval --trace -f '#[Q_a] > 0' -w aa > one.txt
! grep -q '^-- input' one.txt || fail "one input: a label line"
