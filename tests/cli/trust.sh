# tests/cli/trust.sh -- verdicts never claim more than is true (issue 18):
# the reproducers of the false proofs, each against the evaluator's
# ground truth; a false proof injected into the decision engine never reaches the
# output; bounded questions end; mona's fragment limits.
. "$top_srcdir/tests/lib.sh"
T=$TALLY

# truth WORD FORMULA ACCEPT: 1 when tally eval accepts, else 0.
truth() {
	if "$T" eval --accept-at="$3" -f "$2" -w "$1" > /dev/null; then
		echo 1
	else
		echo 0
	fi
}

# 1. The end marker counts in chc's letter-driven slots under eos.
f1="#[#[true] > #[Q_a]] >= 1"
test "$(truth '' "$f1" eos)" = 1 || fail "eval: $f1 rejects the empty word"
for m in auto chc explore; do
	"$T" check --sat --method=$m --accept-at=eos -f "$f1" > out.txt 2>&1 || true
	! grep -q '^unsatisfiable' out.txt ||
		fail "--method=$m proves $f1 unsatisfiable: $(cat out.txt)"
done
f2="#[!Q_a] >= 1"
test "$(truth '' "$f2" eos)" = 1 || fail "eval: $f2 rejects the empty word"
for m in auto chc presburger mona explore; do
	"$T" equiv --method=$m --accept-at=eos -f "$f2" -f false > out.txt 2>&1 || true
	! grep -q '^equivalent' out.txt ||
		fail "--method=$m proves $f2 equivalent to false: $(cat out.txt)"
done
run 1 "$T" equiv --accept-at=eos -f "$f2" -f false

# 2. The alphabet holds the letters a program spells, whatever
# simplification removed (.crasp and .cr alike, as tally eval reads it).
printf 'X := Q_b | !Q_b; Ca := #Q_a; Ct := #X; O := Ca = Ct\n' > p.crasp
printf 'X = "b" || !"b"\nCa = #"a"\nCt = #X\nO = Ca == Ct\n' > p.cr
for p in p.crasp p.cr; do
	run 1 "$T" eval -P $p -w b
	for m in auto presburger chc explore; do
		"$T" check --valid --method=$m -P $p > out.txt 2>&1 || true
		! grep -q '^valid' out.txt ||
			fail "$p --method=$m: valid: $(cat out.txt)"
	done
	"$T" check --valid -P $p > out.txt || true
	grep -q '^counterexample: b$' out.txt || fail "$p: $(cat out.txt)"
done

# 3. A false proof never reaches the output: decision.c replaces the
# method's answer by a proof (TALLY_INJECT_PROOF, a test hook), and the
# evaluator's check stops it with exit 70 and the separating word.
for m in auto explore presburger; do
	status=0
	TALLY_INJECT_PROOF=1 "$T" equiv --method=$m -f "#[Q_a] >= 2" \
		-f "#[Q_a] >= 1" > out.txt 2> err.txt || status=$?
	test "$status" = 70 || fail "injected proof, $m: exit $status"
	test ! -s out.txt || fail "injected proof, $m: printed $(cat out.txt)"
	grep -q "internal error: .*separates them on the word 'a'" err.txt ||
		fail "injected proof, $m: $(cat err.txt)"
done
# ... and a true one passes the same check.
TALLY_INJECT_PROOF=1 "$T" equiv -f "#[Q_a] >= 2" -f "#[Q_a] > 1" > out.txt
grep -q '^equivalent$' out.txt || fail "true proof: $(cat out.txt)"

# 4. A bounded question ends without --timeout: the complete methods get
# a few seconds, explore answers the bound (it used to run for ever in
# chc).
try 3 "$T" equiv --max-length 5 \
	-f "#[100000000000000000001*#[Q_a] > 100000000000000000000*#[true]] >= 1" \
	-f "#[Q_a & #[Q_b] = 0] >= 1"
grep -q '^equivalent up to length 5$' out.txt || fail "bounded: $(cat out.txt)"

# 5. mona's fragment as tally-equiv(1) states it: thresholds up to 12
# ("at least 12"), MOD periods up to 12; beyond, not applicable at once.
if command -v mona > /dev/null; then
	# (in the fragment: a proof, or MONA's time running out under load,
	# never the refusal)
	"$T" equiv --method=mona --timeout=60 -f "#[Q_a] >= 12" \
		-f "#[Q_a] > 11" > out.txt 2>&1 || true
	! grep -q 'too large' out.txt || fail "mona refuses 12: $(cat out.txt)"
	"$T" equiv --method=mona -f "#[Q_a] = 12" -f "#[Q_a] > 11" > out.txt || true
	grep -q 'too large' out.txt || fail "mona takes = 12: $(cat out.txt)"
	try 3 "$T" equiv --method=mona -f "MOD(20,5) & Q_a" \
		-f "MOD(20,5) & Q_a & Q_b"
	grep -q 'MOD(m, r) with m above 12' out.txt ||
		fail "mona MOD(20,5): $(cat out.txt)"
	run 1 "$T" equiv --method=mona -f "MOD(12,5) & Q_a" -f "MOD(12,5) & Q_a & Q_b"
fi
