# tests/cli/portfolio.sh -- the decision methods of --method=auto run side
# by side (issue 29, item 3; decide/portfolio.h): a larger --timeout gives
# the same verdict as the default budget (the time it takes is a bench
# row, tests/bench/, never asserted here), a cancelled method leaves no
# process or temporary file behind, and a method's error in one arm does
# not lose another arm's answer.  The ground truth of every verdict is
# the evaluator (tally eval), not the engine under test.
. "$top_srcdir/tests/lib.sh"
T=$TALLY

# The reproducer of issue 29: explore finds the witness at once, chc
# works on it until its budget ends (chc had half the budget first).
F2="Q_a & #[#[Q_a] >= 200 & #[Q_b] >= 3] != 1"
W="$(printf 'a%.0s' $(seq 199))bbba"
# The evaluator separates the sides on the shortest witness.
run 0 "$T" eval --alphabet=ab -f Q_a -w "$W"
run 1 "$T" eval -f "$F2" -w "$W"

# Temporary files of the children go to a private TMPDIR, checked below;
# every tally of this test carries a mark in its environment, inherited
# by its children, so that a stray one can be found in /proc.
mkdir tmp
TMPDIR=$PWD/tmp
MARK=tally_portfolio_test_$$
export TMPDIR TALLY_TEST_MARK=$MARK

# strays: the pids of processes carrying the mark (none may outlive the
# tally that started them).
strays() {
	for e in /proc/[0-9]*/environ; do
		{ tr '\0' '\n' < "$e"; } 2> /dev/null | grep -qx "TALLY_TEST_MARK=$MARK" &&
			echo "${e%/environ}"
	done
	true
}

# The scan finds a process that carries the mark (so that "none" means
# something).
sleep 30 &
sleeper=$!
strays | grep -q "/proc/$sleeper$" || fail "the /proc scan misses a marked process"
kill "$sleeper"
wait "$sleeper" 2> /dev/null || true

for t in "" --timeout=60; do
	try 1 "$T" equiv -f Q_a -f "$F2" $t
	head -2 out.txt > verdict$t.txt
	grep -qx 'not equivalent' verdict$t.txt || fail "$t: $(cat out.txt)"
	grep -qx "counterexample: a^199 b^3 a (accepted by first)" verdict$t.txt ||
		fail "$t: $(cat out.txt)"
	s=$(strays)
	test -z "$s" || fail "$t: processes left behind: $s"
done
cmp verdict.txt verdict--timeout=60.txt ||
	fail "--timeout=60 and the default budget disagree"
# The same through check (F implies G asked as one question).
try 1 "$T" check --valid -f "Q_a -> ($F2)" --timeout=60
grep -qx 'not valid' out.txt || fail "check: $(cat out.txt)"
test -z "$(strays)" || fail "check: processes left behind"

# A method's error, or its death, in one arm: the other arm's answer
# stands (re-checked as always) and the error is said on stderr.
D1="#['('] = #[')'] & #[#['('] < #[')']] = 0"
D2="#['('] = #[')'] & !(#[#['('] + 1 = #[')']] >= 1)"
for f in explore explore:crash; do
	TALLY_INJECT_ARM_FAULT=$f try 0 "$T" equiv -f "$D1" -f "$D2" --timeout=60
	grep -qx equivalent out.txt || fail "$f: $(cat out.txt err.txt)"
	grep -q "warning: method explore.*the answer rests on method" err.txt ||
		fail "$f: no warning: $(cat err.txt)"
done
for f in chc chc:crash; do
	TALLY_INJECT_ARM_FAULT=$f try 1 "$T" equiv -f Q_a -f "$F2" --timeout=60
	grep -qx "counterexample: a^199 b^3 a (accepted by first)" out.txt ||
		fail "$f: $(cat out.txt err.txt)"
	grep -q "warning: method chc.*the answer rests on method explore" err.txt ||
		fail "$f: no warning: $(cat err.txt)"
done
# With nothing else to rest on, the error is the answer (exit 70): no
# complete method applies to the future count #> with a large threshold.
F3="Q_a | #>[Q_b & #[#[Q_a] >= 200] = 1] >= 1"
TALLY_INJECT_ARM_FAULT=explore try 70 "$T" equiv --max-length=4 -f Q_a -f "$F3"
grep -q "internal error: method explore: injected fault" err.txt ||
	fail "lone error: $(cat err.txt)"
test ! -s out.txt || fail "lone error printed $(cat out.txt)"
# --method forces one method, in this process: no arm, no fault hook.
TALLY_INJECT_ARM_FAULT=explore try 1 "$T" equiv --method=explore -f Q_a -f "$F2"
test ! -s err.txt || fail "--method=explore: $(cat err.txt)"

test -z "$(strays)" || fail "processes left behind"
test -z "$(ls tmp)" || fail "temporary files left behind: $(ls tmp)"

# search verifies with the same portfolio, chc included: Dyck-1 (the
# named family) ends with a proof, not a bound.
try 0 "$T" search -f dyck1 --quiet
grep -q '^verified: .*evidence: proof$' out.txt ||
	fail "search dyck1: $(grep verified out.txt)"
