# tally compile and tally simulate: the Dyck-1 pipeline of issue 13, the
# C-RASP programs of the corpus, verdicts against tally eval, the
# rounded-sums breakdown, and clear refusals of bad input.
. "$top_srcdir/tests/lib.sh"

# The "done when" of the issue: 2 layers, full agreement up to 12.
out=$("$TALLY" compile -f "#['('] = #[')'] & #[#['('] < #[')']] = 0" |
	"$TALLY" simulate --check-against-formula --max-length 12)
case $out in
"agreement: all words up to length 12 (8191 compared; semantics kneedeep, 2 layers, 3 heads)") ;;
*) fail "dyck1 pipeline: $out" ;;
esac

# Long random words (every prefix), and the ReLU feed-forward blocks.
"$TALLY" compile -f dyck1 > dyck1.json
run 0 "$TALLY" simulate dyck1.json --check-against-formula --max-length 4 \
	--random 2 --random-length 10000
"$TALLY" compile --ffn=relu -f dyck1 > dyck1-relu.json
run 0 "$TALLY" simulate -m dyck1-relu.json --check-against-formula \
	--max-length 10

# Every C-RASP program of the corpus compiles with layers = depth and
# agrees with its formula.
for p in "$top_srcdir"/corpora/programs/*.cr "$top_srcdir"/corpora/programs/*.crasp; do
	"$TALLY" compile -P "$p" > prog.json || fail "compile -P $p"
	depth=$("$TALLY" info -P "$p" | sed -n 's/^depth: //p')
	layers=$(sed 's/.*"n_layers":\([0-9]*\).*/\1/' prog.json)
	test "$depth" = "$layers" || fail "$p: depth $depth, $layers layers"
	run 0 "$TALLY" simulate prog.json --check-against-formula --max-length 6
done

# Verdicts on given words equal tally eval's (stdin words, file model).
printf '(()())\n)(\n\n(()\n' > words.txt
"$TALLY" simulate dyck1.json < words.txt > sim.txt || true
"$TALLY" eval -f dyck1 < words.txt > eval.txt || true
cmp sim.txt eval.txt || fail "simulate and eval differ on words.txt"
run 1 "$TALLY" simulate dyck1.json -w "(()" -w "()"
"$TALLY" simulate dyck1.json --trace -w "()" > trace.txt
grep -q "^L2 bool" trace.txt || fail "no layer-2 row in the trace"
grep -q "^  logic" trace.txt || fail "no logic row in the trace"

# rounded-sums: F_{10,4} saturates at -32; majority breaks at b^32 a^32.
"$TALLY" compile --precision=10,4 -f majority > maj.json
expect_out "first disagreement at length 64: b^32 a^32: transformer accepts, formula rejects (semantics rounded-sums; 15009 states; confirmed by the evaluator)" \
	"$TALLY" simulate maj.json --semantics=rounded-sums --find-breakdown \
	--max-length 100
run 1 "$TALLY" simulate maj.json --semantics=rounded-sums --find-breakdown \
	--max-length 100
run 0 "$TALLY" simulate maj.json --semantics=kneedeep --find-breakdown \
	--max-length 100
run 4 "$TALLY" simulate maj.json --semantics=rounded-sums --find-breakdown \
	--max-length 100 --max-states 100

# The report: smallest s under kneedeep; none under rounded-sums.
"$TALLY" compile -f majority --report > report.txt
grep -q "^smallest s: 0" report.txt || fail "report: $(cat report.txt)"
"$TALLY" compile -f majority --report --semantics=rounded-sums > report.txt
grep -q "^smallest s: none" report.txt || fail "report: $(cat report.txt)"

# Y through ALiBi heads: 2 layers for depth 1, the window is 2 under
# kneedeep, wider under IEEE (the weights do not round to 0).
"$TALLY" compile -f factor_bb --pe=alibi --alphabet=ab > fbb.json
run 0 "$TALLY" simulate fbb.json --check-against-formula --max-length 12
run 1 "$TALLY" simulate fbb.json --semantics=ieee=fp32 \
	--check-against-formula --max-length 6
"$TALLY" compile -f factor_bb --pe=alibi --report > report.txt
grep -q "^layers: 2 (depth 1" report.txt || fail "alibi: $(cat report.txt)"
grep -q "^alibi window: 2 under kneedeep" report.txt ||
	fail "alibi: $(cat report.txt)"
grep -q "^smallest s: 3" report.txt || fail "alibi: $(cat report.txt)"
run 2 "$TALLY" compile -f factor_bb --pe=alibi --precision=16,2
run 2 "$TALLY" compile -f "MOD(2, 1)" --pe=alibi

# Refusals: future counts, Y, bad options, too little precision.
run 2 "$TALLY" compile -f parity2
run 2 "$TALLY" compile -f factor_bb
run 2 "$TALLY" compile -f "MOD(2, 1)" --pe=t5
run 2 "$TALLY" compile -f factor_bb --pe=rope
run 2 "$TALLY" compile -f majority --pe=relative
run 2 "$TALLY" compile -f majority --precision=40,2
run 2 "$TALLY" compile -f majority --precision=8,7
run 2 "$TALLY" compile -f "#[Q_a] < 1000*#[Q_b]" --precision=8,0
run 2 "$TALLY" compile -f majority --ffn=lut
run 2 "$TALLY" compile -f majority -f dyck1
"$TALLY" compile -f parity2 2> err.txt || true
grep -q "future counts" err.txt || fail "parity2: $(cat err.txt)"
# Weights beyond 40 bits are refused as such (they were "internal" errors).
"$TALLY" compile -f '#[Q_a] * 99999999999999999999 > #[Q_b]' 2> err.txt && fail "a 67-bit coefficient compiled"
grep -q "a coefficient of 67 bits: the compiler takes at most 40" err.txt || fail "coefficient: $(cat err.txt)"
"$TALLY" compile -f '#[Q_a] > 99999999999999999999' 2> err.txt && fail "a 67-bit constant compiled"
grep -q "a constant of 67 bits" err.txt || fail "constant: $(cat err.txt)"

# A chain of 4000 definitions (2000 layers): component labels name the
# components below them, so the model grows linearly (it was 70 MB).
awk 'BEGIN { print "X0 := Q_a"
	for (i = 1; i < 4000; i++)
		if (i % 2) printf "X%d := #X%d\n", i, i - 1
		else printf "X%d := X%d > 0\n", i, i - 1 }' > chain.crasp
run 0 "$TALLY" compile -P chain.crasp > chain.json
test "$(wc -c < chain.json)" -lt 4000000 || fail "chain model: $(wc -c < chain.json) bytes"
grep -q '"formula":"#\[c[0-9]*\] < 1"' chain.json || fail "chain labels do not name components"
run 0 "$TALLY" simulate chain.json --check-against-formula --max-length 6

# Bad models and words.
echo '{"format": "tally-transformer"}' > bad.json
run 2 "$TALLY" simulate bad.json -w a
echo 'not json' > bad.json
run 2 "$TALLY" simulate bad.json -w a
sed 's/"1\/256"/"1\/3"/' dyck1-relu.json > bad.json
run 2 "$TALLY" simulate bad.json -w "()"
run 2 "$TALLY" simulate dyck1.json -w "(x)"
run 2 "$TALLY" simulate dyck1.json --semantics=fp64 -w "()"
run 2 "$TALLY" simulate dyck1.json --max-length=x --check-against-formula
run 2 "$TALLY" simulate dyck1.json --max-length=40 --check-against-formula
: | run 2 "$TALLY" simulate
exit 0
