# tally compile --pe and the positional encodings of tally simulate: Y
# through T5 buckets and URPE, MOD through sinusoidal features and RoPE,
# each against the formula on every word up to length 12 and on long
# random words; the IEEE thresholds derived by hand; the RoPE periodicity
# check; refusals and malformed models.
. "$top_srcdir/tests/lib.sh"

agree() { # WANT-SUFFIX FORMULA [compile options]: all words up to 12
	want=$1 f=$2
	shift 2
	out=$("$TALLY" compile "$@" -f "$f" |
		"$TALLY" simulate --check-against-formula --max-length 12)
	test "$out" = "agreement: all words up to length 12 (8191 compared; semantics kneedeep, $want)" ||
		fail "$f $*: $out"
}

# Y costs a layer (factor_bb has depth 1); MOD through sinusoidal
# features costs none, through RoPE one under a count.
agree "2 layers, 2 heads" factor_bb --pe=t5 --alphabet=ab
agree "2 layers, 2 heads" factor_bb --pe=urpe --alphabet=ab
agree "2 layers, 2 heads" factor_bb --pe=urpe --alphabet=ab --ffn=relu
agree "3 layers, 4 heads" "#[Y Y Q_a] < #[Y Q_b]" --pe=t5
agree "1 layer, 1 head" "#[Q_a & MOD(3, 1)] < #[Q_b | MOD(2, 0)]" --pe=sinusoidal
agree "1 layer, 1 head" "#[Q_a & MOD(3, 1)] < #[Q_b | MOD(2, 0)]" --pe=sinusoidal --ffn=relu
agree "2 layers, 3 heads" "#[Q_a & MOD(3, 1)] < #[Q_b | MOD(2, 0)]" --pe=rope
agree "1 layer, 2 heads" "MOD(4, 3) & #[Q_a] < #[Q_b]" --pe=rope
agree "0 layers, 0 heads" "MOD(5, 0) | Q_b" --pe=sinusoidal --alphabet=ab

# Long random words, every prefix.
for pe in t5 urpe; do
	"$TALLY" compile --pe=$pe -f "#[Y Q_a] < #[Q_b]" > y.json
	run 0 "$TALLY" simulate y.json --check-against-formula --max-length 2 \
		--random 2 --random-length 10000
done
"$TALLY" compile --pe=sinusoidal -f "#[Q_a & MOD(7, 3)] < #[Q_b]" > mod.json
run 0 "$TALLY" simulate mod.json --check-against-formula --max-length 2 \
	--random 2 --random-length 10000
"$TALLY" compile --pe=rope -f "#[Q_a & MOD(7, 3)] < #[Q_b]" > rope.json
run 0 "$TALLY" simulate rope.json --check-against-formula --max-length 2 \
	--random 1 --random-length 2000

# IEEE rounds to nearest: cos(2 pi/m) becomes 1 once 1 - cos(2 pi/m) =
# 2 pi^2/m^2 is below half an ulp under 1 (2^-9 in bf16, 2^-12 in fp16),
# i.e. from m = 101 (bf16) and m = 285 (fp16) on, and MOD(m, 0) then
# holds at position 1.
for c in "bf16 100 0" "bf16 101 1" "fp16 284 0" "fp16 285 1"; do
	set -- $c
	"$TALLY" compile --pe=sinusoidal --alphabet=a -f "MOD($2, 0)" > m.json
	run $3 "$TALLY" simulate m.json --semantics=ieee=$1 \
		--check-against-formula --max-length 3
done
# T5's -6 gives weight 0 under floor rounding only: fp32 keeps e^-6 and
# Y a fails at once.  URPE needs only the sign: it holds in fp32.
"$TALLY" compile --pe=t5 --alphabet=ab -f factor_bb > t5.json
expect_out "disagreement at length 1: b: transformer accepts, formula rejects (semantics ieee=fp32; all words up to length 6)" \
	"$TALLY" simulate t5.json --semantics=ieee=fp32 --check-against-formula \
	--max-length 6
"$TALLY" compile --pe=urpe --alphabet=ab -f factor_bb > urpe.json
run 0 "$TALLY" simulate urpe.json --semantics=ieee=fp32 \
	--check-against-formula --max-length 10

# Reports.
"$TALLY" compile --pe=t5 -f factor_bb --report > report.txt
grep -q "^layers: 2 (depth 1; each Y costs a layer)" report.txt ||
	fail "t5 report: $(cat report.txt)"
grep -q "and -6 elsewhere" report.txt || fail "t5 report: $(cat report.txt)"
"$TALLY" compile --pe=sinusoidal -f "#[MOD(3, 1)] < #[Q_a]" --report > report.txt
grep -q "^layers: 1 (depth 1)" report.txt || fail "sin report: $(cat report.txt)"
"$TALLY" compile --pe=rope -f "#[MOD(3, 1)] < #[Q_a]" --report > report.txt
grep -q "^layers: 2 (depth 1; the RoPE MOD heads are in layer 1" report.txt ||
	fail "rope report: $(cat report.txt)"
grep -q "amplitude" report.txt || fail "rope report: $(cat report.txt)"

# The RoPE periodicity check.  The compiled angles 2 pi/7 repeat after 7
# and 14 positions; after 5 the sine of 0 (0) and of 10 pi/7 differ.
# Standard RoPE: cos(710) = 1 - 1.8e-9 floors to 255/256 at s = 8 while
# cos(0) = 1, so the best period of 1 rad breaks at position 0.
run 0 "$TALLY" simulate rope.json --periodicity=7 --max-length=100
run 0 "$TALLY" simulate mod.json --periodicity=14 --semantics=ieee=bf16
"$TALLY" simulate rope.json --periodicity=5 > per.txt && fail "period 5"
grep -q "^first break at position 0" per.txt || fail "period 5: $(cat per.txt)"
"$TALLY" simulate --periodicity=710 --dim=2 --max-length=50 > per.txt &&
	fail "standard RoPE periodic"
grep -q "^  10000^(-2\*0/2) rad: first break at position 0" per.txt ||
	fail "standard: $(cat per.txt)"

# Refusals and malformed models.
run 2 "$TALLY" compile -f factor_bb --pe=sinusoidal
run 2 "$TALLY" compile -f "MOD(2, 1)" --pe=urpe
run 2 "$TALLY" compile -f "MOD(40, 1)" --pe=rope
run 2 "$TALLY" compile -f factor_bb --pe=t5 --precision=16,14
run 2 "$TALLY" simulate --periodicity=0 --dim=2
run 2 "$TALLY" simulate --periodicity=7 --dim=1
bad() { # MODEL SED-SCRIPT: the edited model is refused
	sed "$2" "$1" > bad.json
	cmp -s "$1" bad.json && fail "sed '$2' changed nothing in $1"
	run 2 "$TALLY" simulate bad.json -w ab
}
bad t5.json 's/"num_buckets":32/"num_buckets":1/'
bad t5.json 's/"max_distance":128/"max_distance":16/'
bad urpe.json 's/"beyond":"0"/"beyond":"1\/3"/'
bad rope.json 's|"rope":\["2/7"\]|"rope":["2/x"]|'
bad rope.json 's|"rope":\["2/7"\]|"rope":["2/7","1/2"]|'
bad mod.json 's|"features":\[{"out":[0-9]*|"features":[{"out":99|'
exit 0
