# tests/cli/pairs.sh -- equiv --pairs: every pair of a file in one
# process, numbered, checked against its expected verdict; a broken line
# is reported and the rest go on; the empty word prints as ε.
. "$top_srcdir/tests/lib.sh"
T=$TALLY
pairs=$top_srcdir/corpora/equiv/pairs.tsv
n=$(grep -c . "$pairs")

# The corpus: one line per pair, numbered 1..n, none against its verdict.
status=0
"$T" equiv --pairs="$pairs" > out.txt || status=$?
test "$status" = 0 -o "$status" = 3 || fail "corpus: exit $status: $(cat out.txt)"
test "$(grep -c '^[0-9]' out.txt)" = "$n" || fail "corpus: not $n lines"
test "$(cut -f1 out.txt | grep '^[0-9]' | tr '\n' ' ')" = "$(seq 1 "$n" | tr '\n' ' ')" ||
	fail "corpus: numbering"
! grep -q 'NOT AS EXPECTED.*\(not equivalent\|^[0-9]*.equivalent.method\)' out.txt ||
	fail "corpus: a verdict against the expected one: $(grep 'NOT AS' out.txt)"
grep -q "^pairs: $n records, $n with an expected verdict: .* 0 against it" out.txt ||
	fail "corpus summary: $(tail -n 1 out.txt)"
# Each verdict line agrees with the file's field 4 (checked here, not by
# tally): equivalent lines expect equivalent, etc.
awk -F '\t' 'NR == FNR { want[NR] = $4; next }
	/^[0-9]/ { v = ""
		   if ($2 == "equivalent") v = "equivalent"
		   if ($2 == "not equivalent") v = "not-equivalent"
		   if (v != "" && v != want[$1]) { print "pair " $1; bad = 1 } }
	END { exit bad }' "$pairs" out.txt || fail "a verdict differs from pairs.tsv"
# The empty word is ε, in the counterexample of pair 1.
grep -q '^1	not equivalent	counterexample: ε (accepted by second)' out.txt ||
	fail "pair 1: $(grep '^1	' out.txt)"

# A wrong expectation is caught (exit 1), a broken line reported, the
# rest go on (exit: the worst, 2).
printf '#[Q_a] >= 1\t#[Q_a] > 0\tab\tnot-equivalent\ta\n' > p.tsv
run 1 "$T" equiv --pairs=p.tsv
printf '#[Q_a >= 1\tQ_a\n#[Q_a] >= 2\t#[Q_a] > 1\tab\tequivalent\n' > p.tsv
status=0
"$T" equiv --pairs=p.tsv > out.txt 2> err.txt || status=$?
test "$status" = 2 || fail "broken line: exit $status"
grep -q '^1	error: p.tsv:1: the first input does not load' out.txt ||
	fail "broken line: $(cat out.txt)"
grep -q '^2	equivalent	.*ok$' out.txt || fail "after a broken line: $(cat out.txt)"
# JSON: one object per pair with index and source, then the summary.
"$T" equiv --pairs=p.tsv --json > out.json 2> /dev/null || true
grep -q '"input":2' out.json || fail "json index: $(cat out.json)"
grep -q '"input":1,"source":"p.tsv:1","error"' out.json || fail "json error: $(cat out.json)"
grep -q '"source":"p.tsv:2"' out.json || fail "json source: $(cat out.json)"
grep -q '"as_expected":true' out.json || fail "json: $(cat out.json)"
# The empty word in ordinary output: ε; in JSON: "".
"$T" check --sat -f '!Q_a' > out.txt || true
grep -q '^witness: ε$' out.txt || fail "witness: $(cat out.txt)"
"$T" check --sat --json -f '!Q_a' > out.json || true
grep -q '"word":""' out.json || fail "json witness: $(cat out.json)"

# Batches and pairs exit with the worst record's status, each record's
# being what the command alone exits with (issue 29): one unsatisfiable
# record under --sat is 1, as `check --sat` on it alone.
printf '#[Q_a] > #[Q_b] & #[Q_b] > #[Q_a]\n' > b.tl
run 1 "$T" check --sat -f '#[Q_a] > #[Q_b] & #[Q_b] > #[Q_a]'
run 1 "$T" check --sat --batch=b.tl
printf '#[Q_a] >= 1\n#[Q_a] > #[Q_b] & #[Q_b] > #[Q_a]\n' > b.tl
run 1 "$T" check --sat --batch=b.tl
# A pair without an expected verdict that is not equivalent: 1, as equiv.
printf 'Q_a\tQ_b\n' > p.tsv
run 1 "$T" equiv --pairs=p.tsv
# A pair the method refuses is an error in its place, counted (exit 2),
# in text and JSON; so is a batch record.
printf 'Q_a\t#>[Q_a] >= 1\nQ_a\tQ_a\n' > p.tsv
status=0
"$T" equiv --pairs=p.tsv --method=chc > out.txt 2> err.txt || status=$?
test "$status" = 2 || fail "refused pair: exit $status"
grep -q '^1	error: p.tsv:1: the second input uses future counts' out.txt ||
	fail "refused pair not reported in its place: $(cat out.txt)"
grep -q '^2	equivalent' out.txt || fail "after a refused pair: $(cat out.txt)"
grep -q '; 1 errors$' out.txt || fail "refused pair not counted: $(cat out.txt)"
"$T" equiv --pairs=p.tsv --method=chc --json > out.json 2> /dev/null || true
grep -q '"input":1,"source":"p.tsv:1","error":"the second input uses future' out.json ||
	fail "refused pair in JSON: $(cat out.json)"
grep -q '"errors":1' out.json || fail "refused pair not counted in JSON: $(cat out.json)"
printf 'Q_a\tQ_b\tab\tequivalent\nQ_a\n' > p.tsv
"$T" equiv --pairs=p.tsv --json > out.json 2> /dev/null || true
test "$(grep -c '"error"' out.json)" = 1 || fail "a broken line in JSON is not JSON: $(cat out.json)"
! grep -v '^{' out.json > /dev/null || fail "a line of --json output is not JSON: $(cat out.json)"
printf '#>[Q_a] >= 1\n#[Q_a] >= 1\n' > b.tl
status=0
"$T" check --sat --method=chc --batch=b.tl > out.txt 2> err.txt || status=$?
test "$status" = 2 || fail "refused record: exit $status"
grep -q '^1	error: b.tl:1: the input uses future counts' out.txt ||
	fail "refused record not reported in its place: $(cat out.txt)"
