# tests/cli/equiv.sh -- tally equiv / tally check end to end: verdict
# lines and exit statuses of cli.md, shortest counterexamples, the
# alphabet, limits, JSON and traces, input errors naming the side, and
# tally eval --runs.  Exact methods (presburger, chc, ...) may turn the
# bounded answers below into proofs; the tests that must stay bounded
# pin --method=explore.  A test that expects a proof gives a --timeout
# far above what the proof takes ($PROOF): the default 3-second budget
# would make it a race with the machine's load.
. "$top_srcdir/tests/lib.sh"
T=$TALLY
PROOF=--timeout=100
dyck_a="#['('] = #[')'] & #[#['('] < #[')']] = 0"
dyck_b="#['('] = #[')'] & #[')' & #[')'] = #['('] + 1] = 0"

# L_2 against L_3: a shortest counterexample, exit 1.
run 1 "$T" equiv -f L_2 -f L_3
"$T" equiv -f L_2 -f L_3 > out.txt || true
sed -n 1,2p out.txt > head.txt
printf 'not equivalent\ncounterexample: ab (accepted by first)\n' > want.txt
cmp head.txt want.txt || fail "L_2/L_3: $(cat out.txt)"
grep -q '^method: ' out.txt || fail "no method line: $(cat out.txt)"
# Shortest for every k the prelude has: abab... of length k.
for k in 1 2 3 4; do
	w=$(printf 'abab' | cut -c1-$k)
	"$T" equiv -f L_$k -f L_$((k + 1)) > out.txt || true
	grep -q "^counterexample: $w (accepted by first)\$" out.txt ||
		fail "L_$k/L_$((k + 1)): $(cat out.txt)"
done
# The sides swapped: accepted by second.
"$T" equiv -f L_3 -f L_2 > out.txt || true
grep -q '^counterexample: ab (accepted by second)$' out.txt ||
	fail "swapped: $(cat out.txt)"

# The Dyck-1 pair, explored to length 40: bounded, exit 3.
run 3 "$T" equiv --method=explore --max-length 40 -f "$dyck_a" -f "$dyck_b"
expect_out "equivalent up to length 40" sh -c \
	'"$1" equiv --method=explore --max-length 40 -f "$2" -f "$3" | head -n 1' \
	sh "$T" "$dyck_a" "$dyck_b"
# Against balance alone: )( is the shortest word that dips below 0.
"$T" equiv -f "$dyck_a" -f "#['('] = #[')']" > out.txt || true
grep -q '^counterexample: )( (accepted by second)$' out.txt ||
	fail "dyck vs balance: $(cat out.txt)"

# A program against a formula (the same language, normalised alike).
run 0 "$T" equiv -P "$top_srcdir/corpora/programs/dyck1.crasp" -f dyck1
run 3 "$T" equiv --method=explore --max-length 12 \
	-P "$top_srcdir/corpora/programs/dyck1.crasp" -f "$dyck_b"

# Depth 1, equal on every word: never "not equivalent".
run 3 "$T" equiv --method=explore --max-length 100 -f "#[Q_b] < #[Q_a]" \
	-f "2*#[Q_a] > #[true]"
rc=0
"$T" equiv --quiet -f "#[Q_b] < #[Q_a]" -f "2*#[Q_a] > #[true]" > out.txt || rc=$?
case $rc in 0 | 3) ;; *) fail "majority pair: exit $rc: $(cat out.txt)" ;; esac
grep -q '^equivalent' out.txt || fail "majority pair: $(cat out.txt)"

# Finitely many states: explore proves equivalence for every length.
run 0 "$T" equiv $PROOF -f "Y Q_a & MOD(3, 1)" -f "Y Q_a & MOD(3, 1) & (Q_a | Q_b)"
"$T" equiv $PROOF --certificate -f "Y Q_a" -f "Y Q_a & (Q_a | Q_b)" > out.txt
grep -q '^certificate:' out.txt || fail "certificate: $(cat out.txt)"

# The alphabet: letters the sources spell count even when simplified away.
run 0 "$T" equiv $PROOF -f "#[Q_a] = #[true]" -f true
run 1 "$T" equiv -f "#[Q_a] = #[true] & (Q_b | !Q_b)" -f true
run 1 "$T" equiv --alphabet=ab -f "#[Q_a] = #[true]" -f true
"$T" equiv --alphabet=ab -f "#[Q_a] = #[true]" -f true > out.txt || true
grep -q '^counterexample: b (accepted by second)$' out.txt ||
	fail "alphabet: $(cat out.txt)"

# Long counterexamples print in run-length form.
"$T" check --sat -f "#[Q_a] >= 250" > out.txt || true
printf 'satisfiable\nwitness: a^250\n' > want.txt
sed -n 1,2p out.txt > head.txt
cmp head.txt want.txt || fail "run-length witness: $(cat out.txt)"

# check: the vocabulary and exit statuses.
"$T" check --sat -f "majority & Q_b" > out.txt
printf 'satisfiable\nwitness: aab\n' > want.txt
sed -n 1,2p out.txt > head.txt
cmp head.txt want.txt || fail "sat: $(cat out.txt)"
run 3 "$T" check --sat --method=explore --max-length 30 \
	-f "#[Q_a] > #[Q_b] & #[Q_b] > #[Q_a]"
expect_out "unsatisfiable up to length 30" sh -c \
	'"$1" check --sat --method=explore --max-length 30 -f "$2" | head -n 1' \
	sh "$T" "#[Q_a] > #[Q_b] & #[Q_b] > #[Q_a]"
run 1 "$T" check --sat -f "Q_a & !Q_a | false"
run 0 "$T" check $PROOF --valid -f "#[Q_a] + #[Q_b] = #[true]"
run 1 "$T" check --valid -f majority
"$T" check --valid -f majority > out.txt || true
grep -q '^counterexample: ε$' out.txt || fail "not valid: $(cat out.txt)"
run 1 "$T" check --implies="#[Q_b] = 0" -f majority
"$T" check --implies="#[Q_b] = 0" -f majority > out.txt || true
grep -q '^counterexample: aab$' out.txt || fail "implies: $(cat out.txt)"
run 3 "$T" check --implies="#[Q_a] >= 1" --method=explore --max-length 10 \
	-f majority
# The end marker: Y Q_a & !Q_a holds at the marker after a.
"$T" check --sat --accept-at=eos -f "Y Q_a & !Q_a" > out.txt
grep -q '^witness: a$' out.txt || fail "eos: $(cat out.txt)"

# Future counts: whole words, never a proof.
# (the first: the last b is at position 2)
"$T" equiv --max-length 6 --alphabet=ab -f "#[#>[Q_b] >= 1] = 2" \
	-f "#[true] = 2 & Q_b" > out.txt || true
grep -q '^counterexample: aba (accepted by first)$' out.txt ||
	fail "future: $(cat out.txt)"
run 3 "$T" equiv --method=explore --max-length 6 -f "#>[Q_a] >= 0" \
	-f "#[Q_a] >= 0"
"$T" equiv --method=explore --max-length 6 -f "#>[Q_a] >= 0" \
	-f "#[Q_a] >= 0" > out.txt || true
grep -q '#>' out.txt || fail "future method line: $(cat out.txt)"

# Limits: unknown, exit 4.
run 4 "$T" equiv --method=explore --max-states 100 -f majority -f "2*#[Q_a] > #[true]"
run 4 "$T" equiv --method=explore --timeout=0.2 -f majority -f "2*#[Q_a] > #[true]"
expect_out "unknown" sh -c \
	'"$1" equiv --method=explore --max-states 100 -f majority -f "2*#[Q_a] > #[true]" | head -n 1' \
	sh "$T"
run 4 "$T" equiv --method=explore --max-memory=64K -f majority -f "2*#[Q_a] > #[true]"

# JSON and traces.
"$T" equiv --json -f L_2 -f L_3 > out.json || true
for key in '"verdict":"not equivalent"' '"method":"' \
	'"accepted_by":"first"' '"word":"ab"' '"values":' '"tally_version"'; do
	grep -q "$key" out.json || fail "json lacks $key: $(cat out.json)"
done
"$T" equiv --trace -f majority -f "#[Q_a] >= #[Q_b]" > out.txt || true
grep -q '^first:$' out.txt && grep -q '^second:$' out.txt ||
	fail "trace: $(cat out.txt)"
grep -q '^position' out.txt || fail "trace table: $(cat out.txt)"

# Input errors: exit 2, the message names the side.
run 2 "$T" equiv -f majority
"$T" equiv -f majority 2> err.txt || true
grep -q 'two inputs' err.txt || fail "one input: $(cat err.txt)"
run 2 "$T" equiv -f majority -f L_2 -f L_3
run 2 "$T" equiv -f majority -f "#[Q_a"
"$T" equiv -f majority -f "#[Q_a" 2> err.txt || true
grep -q 'second input' err.txt || fail "syntax error side: $(cat err.txt)"
"$T" equiv -f "#[Q_a" -f majority 2> err.txt || true
grep -q 'first input' err.txt || fail "syntax error side: $(cat err.txt)"
run 2 "$T" equiv --method=chc -f majority -f "#>[Q_a] > 0"
"$T" equiv --method=chc -f majority -f "#>[Q_a] > 0" 2> err.txt || true
grep -q 'second input.*#>' err.txt || fail "chc and #>: $(cat err.txt)"
run 2 "$T" equiv --method=bogus -f majority -f L_2
run 2 "$T" equiv --max-length=x -f majority -f L_2
run 2 "$T" equiv --timeout=-1 -f majority -f L_2
run 2 "$T" equiv -F /nonexistent -f L_2
for m in presburger chc mona unary; do
	rc=0
	"$T" equiv --method=$m --timeout=2 -f majority -f L_2 > out.txt 2> err.txt || rc=$?
	if test $rc = 2; then
		grep -q 'not built' err.txt || fail "$m: $(cat err.txt)"
	fi
done
run 2 "$T" check -f majority
run 2 "$T" check --sat --valid -f majority
run 2 "$T" check --sat -f majority -f L_2
run 2 "$T" check --implies="#[Q_a" -f majority
"$T" check --implies="#[Q_a" -f majority 2> err.txt || true
grep -q 'implies' err.txt || fail "implies syntax: $(cat err.txt)"

# tally eval --runs: run-length words, any run length.
tab=$(printf '\t')
n=100000000000000000000
expect_out "(^$n )^$n${tab}accept" "$T" eval --runs -f dyck1 -w "(^$n )^$n"
run 1 "$T" eval --runs -f dyck1 -w "(^$n )^$n (" -w "()"
big="100000000000000000001*#[Q_a] > 100000000000000000000*#[true]"
printf 'a^100000000000000000001 b\na^100000000000000000000 b\n' |
	"$T" eval --runs --alphabet=ab -f "$big" > out.txt || true
printf 'a^100000000000000000001 b\taccept\na^100000000000000000000 b\treject\n' > want.txt
cmp out.txt want.txt || fail "runs: $(cat out.txt)"
expect_out "ab^2 a${tab}accept" "$T" eval --runs -f L_3 -w "ab^2 a"
run 2 "$T" eval --runs -f dyck1 -w "(^0"
run 2 "$T" eval --runs -f dyck1 -w "x^3"
run 2 "$T" eval --runs --trace -f dyck1 -w "(^3"
expect_out "a^100000000000${tab}accept" "$T" eval --runs --alphabet=a \
	-f "#[MOD(2, 0)] = 50000000000" -w "a^100000000000"
run 2 "$T" eval --runs --alphabet=a -f "#[MOD(1031, 0) & MOD(1033, 0)] > 1" \
	-w "a^100000000000"

# Z3 is loaded only by presburger and chc: without it they answer
# unknown with the reason, and auto still decides with the others.
TALLY_Z3_LIBRARY=/nonexistent/libz3.so "$T" equiv --method=presburger \
	-f "#[Q_b] < #[Q_a]" -f "2*#[Q_a] > #[true]" > out.txt && rc=0 || rc=$?
test "$rc" = 3 || fail "presburger without Z3: exit $rc: $(cat out.txt)"
grep -q '^unknown$' out.txt &&
	grep -q 'TALLY_Z3_LIBRARY cannot be loaded: /nonexistent/libz3.so' out.txt ||
	fail "presburger without Z3: $(cat out.txt)"
TALLY_Z3_LIBRARY=/nonexistent/libz3.so "$T" equiv --method=chc \
	-f "$dyck_a" -f "$dyck_b" > out.txt && rc=0 || rc=$?
test "$rc" = 3 && grep -q 'cannot be loaded' out.txt ||
	fail "chc without Z3: exit $rc: $(cat out.txt)"
TALLY_Z3_LIBRARY=/nonexistent/libz3.so "$T" equiv -f L_2 -f L_3 > out.txt || true
grep -q '^counterexample: ab (accepted by first)$' out.txt ||
	fail "auto without Z3: $(cat out.txt)"
# ... and with it, the same formulas are proved by presburger
"$T" equiv $PROOF --method=presburger -f "#[Q_b] < #[Q_a]" -f "2*#[Q_a] > #[true]" > out.txt ||
	fail "presburger: $(cat out.txt)"
