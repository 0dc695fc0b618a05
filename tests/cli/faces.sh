# tests/cli/faces.sh -- one concept, one spelling, at every face (issue
# 29): a word is written the same way by every command and read back by
# the rules it was written with.
. "$top_srcdir/tests/lib.sh"
T=$TALLY

# A word over one-character letters is written without spaces, whether
# the characters are ASCII or not: gen's JSONL "word" is a string, and
# lang writes what eval reads.
"$T" gen -f "#['é'] > #['ü']" --sample=8 --max-length=6 --seed=2 \
	--format=jsonl -q > g.jsonl
! grep -q '"word": \[' g.jsonl || fail "a word of one-character letters as a list: $(head -2 g.jsonl)"
grep -q '"word": "é"' g.jsonl || fail "no word é: $(cat g.jsonl)"
run 0 "$T" eval --check-labels -f "#['é'] > #['ü']" < g.jsonl
"$T" lang -f "#['α'] = 2" --max-length=2 > l.txt
test "$(cat l.txt)" = "αα" || fail "lang writes '$(cat l.txt)' for the word αα"
run 0 "$T" eval -f "#['α'] = 2" -w "$(cat l.txt)"
"$T" lang -f "#['α'] = 2" --max-length=2 --json > l.json
grep -q '"word":"αα"' l.json || fail "lang --json: $(cat l.json)"

# Letters longer than one character: spaces between letters, a string
# in JSON too, and a one-letter word is that letter when read back.
"$T" gen -f "#['ab'] >= 1" --alphabet=ab,c --max-length=3 --sample=12 \
	--seed=1 --format=jsonl -q > m.jsonl
grep -q '"word": "ab"' m.jsonl || fail "no one-letter word ab: $(cat m.jsonl)"
grep -q '"word": "[a-c]* [a-c ]*"' m.jsonl || fail "no spaced word: $(cat m.jsonl)"
! grep -q '"word": \[' m.jsonl || fail "a word as a list: $(cat m.jsonl)"
run 0 "$T" eval --check-labels -f "#['ab'] >= 1" --alphabet=ab,c < m.jsonl
"$T" gen -f "#['ab'] >= 1" --alphabet=ab,c --max-length=3 --sample=12 \
	--seed=1 -q > m.tsv
grep -q '^ab	1$' m.tsv || fail "no one-letter word ab: $(cat m.tsv)"
run 0 "$T" eval --check-labels -f "#['ab'] >= 1" --alphabet=ab,c < m.tsv
# A list of letters (what gen wrote before) still reads.
printf '{"word": ["ab", "c"], "label": 1, "length": 2}\n' > old.jsonl
run 0 "$T" eval --check-labels -f "#['ab'] >= 1" --alphabet=ab,c < old.jsonl

# ε alone is the empty word: a letter named ε (or one with ^, a blank
# or a quote) is quoted in words, and reads back quoted.
"$T" equiv -f "'ε'" -f "!'ε'" > e.txt || true
grep -q '^counterexample: ε (accepted by second)$' e.txt || fail "empty word: $(cat e.txt)"
"$T" equiv -f "#['ε'] >= 2" -f "#['ε'] >= 1" > e.txt || true
grep -q "^counterexample: 'ε' (accepted by second)$" e.txt ||
	fail "the letter ε is not quoted: $(cat e.txt)"
"$T" eval -f "'ε'" -w "'ε'" -w "" > e.txt || true
printf "'ε'\taccept\n\treject\n" > want.txt
cmp -s e.txt want.txt || fail "reading 'ε' back: $(cat e.txt)"
"$T" check --sat -f "#['x^y'] = 2" > e.txt || true
grep -q "^witness: 'x^y' 'x^y'$" e.txt || fail "a letter with ^: $(cat e.txt)"
run 0 "$T" eval -f "#['x^y'] = 2" -w "'x^y' 'x^y'"
"$T" eval -f "'ε' | Q_a" --alphabet=a -w a --json > e.json
grep -q '"alphabet":\["ε","a"\]\|"alphabet":\["a","ε"\]' e.json || fail "alphabet in JSON: $(cat e.json)"

# Whose limit ended the run: a solver stopped at the budget handed down
# from --timeout is the user's --timeout, not "Spacer gave up".
status=0
"$T" equiv --method=chc --timeout=2 -f Q_a \
	-f "Q_a & #[#[Q_a] >= 200 & #[Q_b] >= 3] != 1" > l.txt 2> l.err || status=$?
if test "$status" = 4; then
	grep -q '^tally: limit: --timeout=2 reached; method chc' l.err ||
		fail "the limit line does not name --timeout: $(cat l.err)"
	! grep -q 'gave up (ok)' l.txt l.err || fail "'gave up (ok)' at the user's time-out: $(cat l.txt l.err)"
fi

# One alphabet per question: every command and every REPL command asked
# the same question over {a, b} -- a formula that mentions only a ("the
# first letter is a") -- uses b too, and says so: one "alphabet: a b"
# line in text (equiv, check, search, the REPL; lang on stderr, so that
# its stdout stays a list of words), "alphabet" in JSON.
# Over {a} alone the formula would be the same as Q_a.
F='#[Q_a & #[true] = 1] >= 1'
expect_out "b	reject
ab	accept" "$T" eval -f "$F" --alphabet=ab -w b -w ab
expect_out "a
aa
ab" "$T" lang -f "$F" --alphabet=ab --max-length=2
"$T" lang -f "$F" --alphabet=ab --max-length=2 2> l.err > /dev/null
test "$(cat l.err)" = "alphabet: a b" || fail "lang's alphabet: $(cat l.err)"
expect_out "0	0
1	1
2	2" "$T" lang -f "$F" --alphabet=ab --max-length=2 --count
"$T" lang -f "$F" --alphabet=ab --max-length=2 --count 2> l.err > /dev/null
test "$(cat l.err)" = "alphabet: a b" || fail "lang --count's alphabet: $(cat l.err)"
"$T" lang -f "$F" --alphabet=ab --max-length=1 --json > q.json
grep -q '"word":"a","alphabet":\["a","b"\]' q.json || fail "lang --json: $(cat q.json)"
# equiv and check, text and JSON, the default portfolio and one method
for m in "" --method=explore; do
	"$T" equiv -f "$F" -f Q_a --alphabet=ab $m --max-length=4 --json > q.json || true
	grep -q '"alphabet":\["a","b"\],.*"verdict":"not equivalent"' q.json || fail "equiv $m: $(cat q.json)"
	"$T" check --valid -f "!($F) | Q_a" --alphabet=ab $m --max-length=4 --json > q.json || true
	grep -q '"alphabet":\["a","b"\],.*"verdict":"not valid"' q.json || fail "check $m: $(cat q.json)"
	"$T" equiv -f "$F" -f Q_a --alphabet=ab $m --max-length=4 > q.txt || true
	grep -q '^not equivalent$' q.txt || fail "equiv $m: $(cat q.txt)"
	test "$(grep -c '^alphabet: ' q.txt)" = 1 && grep -q '^alphabet: a b$' q.txt ||
		fail "equiv $m: one alphabet line: $(cat q.txt)"
	"$T" check --sat -f "$F & !Q_a" --alphabet=ab $m --max-length=4 > q.txt || true
	grep -q '^satisfiable$' q.txt || fail "check --sat $m: $(cat q.txt)"
	test "$(grep -c '^alphabet: ' q.txt)" = 1 && grep -q '^alphabet: a b$' q.txt ||
		fail "check $m: one alphabet line: $(cat q.txt)"
done
"$T" search -f "$F" --alphabet=ab --decide-length=0 > q.txt || fail "search: $(cat q.txt)"
grep -q '^alphabet: a b$' q.txt || fail "search does not print its alphabet: $(cat q.txt)"
grep -q '^least depth: 2$' q.txt || fail "search over {a, b}: $(cat q.txt)"
printf ':alphabet ab\nfa := %s\n:eval b\n:lang 2\n:equiv fa Q_a\n:check --sat fa & !Q_a\n:search --decide-length=0\n:info\n' "$F" |
	"$T" repl > r.txt 2>&1 || true
grep -q '^b	reject$' r.txt || fail ":eval: $(cat r.txt)"
grep -q '^ab$' r.txt || fail ":lang: $(cat r.txt)"
grep -q '^not equivalent$' r.txt || fail ":equiv: $(cat r.txt)"
grep -q '^satisfiable$' r.txt || fail ":check: $(cat r.txt)"
grep -q '^least depth: 2$' r.txt || fail ":search ignores the session's alphabet: $(cat r.txt)"
# :alphabet, :lang, :equiv, :check, :search and :info: six lines, one
# alphabet
test "$(grep -c '^alphabet: a b$' r.txt)" = 6 ||
	fail "the REPL's commands print the session's alphabet: $(cat r.txt)"
test "$(grep -c '^alphabet: ' r.txt)" = 6 ||
	fail "another alphabet in the REPL: $(grep '^alphabet' r.txt)"

# One vocabulary between commands and the REPL: :trace NAME, :search
# NAME, :check --sat as tally check spells it, enum --max-depth as
# search's.
printf 'g := #[Q_a] >= 2\nf := #[Q_b] = 1\n:trace g ab\n:check --sat f\n:search g --decide-length=0\n' |
	"$T" repl > v.txt 2>&1 || true
grep -q '^ab	reject$' v.txt || fail ":trace NAME WORD: $(cat v.txt)"
! grep -q 'takes one word' v.txt || fail ":trace NAME read as a word: $(cat v.txt)"
grep -q '^satisfiable$' v.txt || fail ":check --sat: $(cat v.txt)"
grep -q '^target: #\[Q_a\] >= 2$' v.txt || fail ":search NAME: $(cat v.txt)"
"$T" enum --max-depth=1 --size=..3 > e1.txt
"$T" enum --depth=0..1 --size=..3 > e2.txt
cmp -s e1.txt e2.txt || fail "enum --max-depth=1 is not --depth=0..1"
run 2 "$T" enum --max-depth=9
