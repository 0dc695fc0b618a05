# tests/cli/compile_seq.sh -- transformers with sequence outputs (issue 32
# item 5): tally compile --per-position and --readout=class|ratio, checked
# at every position of every word up to length 10 over {a, b}:
#  - tally simulate's values against tally eval --per-position turned
#    into the readout by awk (clamp; floor(t 256/(i+1)) as a reduced
#    fraction), an independent path from the model;
#  - simulate --check-against-formula (seqref against the simulator);
#  - contrib/simulate.py (NumPy, kneedeep in Python integers) where
#    NumPy is installed, on the words up to length 5;
# a tampered model is caught (the checks can fail), and the outputs that
# cannot be read out are refused with the reason.  The PyTorch module:
# compile_seq_torch.sh.
. "$top_srcdir/tests/lib.sh"
T=$TALLY

# every word over {a, b} up to length 10 (the empty word first)
awk 'BEGIN { print ""; n = 1; w[1] = "";
	for (len = 1; len <= 10; len++) { m = 0;
		for (i = 1; i <= n; i++) for (c = 0; c < 2; c++) {
			x = w[i] (c ? "b" : "a"); v[++m] = x; print x }
		n = m; for (i = 1; i <= n; i++) w[i] = v[i] } }' > words.txt
test "$(wc -l < words.txt)" = 2047 || fail "word list"

# want KIND LO HI: eval's per-position values -> the readout's text
want() {
	awk -F '\t' -v kind="$1" -v lo="${2:-0}" -v hi="${3:-0}" '
	function gcd(a, b) { while (b) { t = b; b = a % b; a = t } return a }
	function fl(x) { return x == int(x) || x > 0 ? int(x) : int(x) - 1 }
	{ n = split($2, v, " "); out = ""
	  for (i = 1; i <= n; i++) {
		t = v[i]
		if (kind == "class") x = t < lo ? lo : t > hi ? hi : t
		else if (kind == "ratio") {
			m = fl(t * 256 / (i + 1)); g = gcd(m < 0 ? -m : m, 256)
			x = m == 0 ? "0" : g == 256 ? m / 256 : (m / g) "/" (256 / g)
		} else x = t
		out = out (i > 1 ? " " : "") x }
	  print $1 "\t" out }'
}

# a Python with NumPy for contrib/simulate.py, if any
npy=$(for p in ${TALLY_PYTHON:-} python3 /usr/bin/python3; do
	"$p" -c 'import numpy' 2> /dev/null && { echo "$p"; break; }
done) || true
test -n "$npy" || echo "compile_seq.sh: no python3 with NumPy: contrib/simulate.py not checked"

# check NAME FORMULA KIND LO HI [compile options]
check() {
	name=$1 f=$2 kind=$3 lo=$4 hi=$5; shift 5
	try 0 "$T" compile -f "$f" "$@"
	mv out.txt "$name.json"
	"$T" eval -f "$f" --alphabet=ab --per-position < words.txt > eval.txt ||
		test $? = 1 || fail "eval $f"
	want "$kind" "$lo" "$hi" < eval.txt > "$name.want"
	try 0 "$T" simulate "$name.json" < words.txt
	cmp -s out.txt "$name.want" || {
		diff out.txt "$name.want" | head -5 >&2
		fail "$name: simulate differs from eval"
	}
	try 0 "$T" simulate "$name.json" --check-against-formula --max-length 10
	grep -q '^agreement: all words up to length 10 (2047 compared' out.txt ||
		fail "$name: check: $(cat out.txt)"
	# simulate.py is slow (Python integers): the 63 words up to length 5
	if test -n "$npy"; then
		head -n 63 words.txt > short.txt
		head -n 63 "$name.want" > short.want
		"$npy" "$top_srcdir/contrib/simulate.py" "$name.json" \
			< short.txt > numpy.txt || fail "$name: simulate.py"
		cmp -s numpy.txt short.want || fail "$name: simulate.py differs"
	fi
}

# histogram clamped at 10 never clamps here (it is exact on these words),
# at 3 it does; margin's ratio and count_a's class with a negative lo;
# the per-position comparison current_leads.
check hist10 histogram class 0 10 --readout=class:10
check hist3 histogram class 0 3 --readout=class:0:3
check margin margin ratio 0 0 --readout=ratio
check margin_cls margin class -2 3 --readout=class:-2:3
check leads current_leads bool 0 0 --per-position

# the model file says how it is read
grep -q '"readout":"class","min":0,"max":10' hist10.json ||
	fail "hist10: readout field: $(grep -o '"output".*' hist10.json)"
grep -q '"readout":"ratio"' margin.json || fail "ratio field"
# --json: "values" (a ratio as exact text), no "accepted" for counts
try 0 "$T" simulate margin.json --json -w aab
grep -q '"values":\["1/2","85/128","1/4"\]' out.txt || fail "json ratio"
grep -q '"accepted"' out.txt && fail "json accepted on a count readout"
try 0 "$T" simulate leads.json --json -w aab
grep -q '"accepted":false,"values":\[1,1,0\]' out.txt || fail "json bool"
# --report: the kneedeep argument and the words checked
try 0 "$T" compile -f histogram --readout=class:10 --report
grep -q '^exact up to length: all lengths (proved)' out.txt || fail "report"
grep -q '^search: every word up to length 11 agrees' out.txt ||
	fail "report search: $(cat out.txt)"
try 0 "$T" compile -f margin --readout=ratio --report --json
grep -q '"all_lengths":true,.*"exact_basis":"proved"' out.txt ||
	fail "report json: $(cat out.txt)"
# no claim under another semantics
try 0 "$T" compile -f margin --readout=ratio --report --semantics=ieee=fp16
grep -q '^proof: none: a count readout is analysed under kneedeep only' \
	out.txt || fail "report fp16: $(cat out.txt)"

# A tampered model is caught: the class bias one higher.
sed 's/"bias":"0","readout":"class"/"bias":"1","readout":"class"/' \
	hist10.json > bad.json
cmp -s bad.json hist10.json && fail "tampering did not change the model"
try 1 "$T" simulate bad.json --check-against-formula --max-length 3
grep -q 'disagreement at length 0: ε: at position 0 the transformer outputs 1, the formula.s class readout is 0' out.txt ||
	fail "tampered: $(cat out.txt)"

# What cannot be read out, and why.
try 2 "$T" compile -f histogram
grep -q 'needs a readout: --readout=class:LO:HI' err.txt || fail "no readout"
try 2 "$T" compile -f histogram --readout=ratio
grep -q 'needs a linear term' err.txt || fail "ratio of a conditional"
try 2 "$T" compile -f majority --readout=ratio
grep -q 'reads an integer term, and the output is a formula' err.txt ||
	fail "ratio of a formula"
try 2 "$T" compile -f count_a --per-position --readout=class:3
try 2 "$T" compile -f count_a --readout=class:3:1
try 2 "$T" compile -f count_a --readout=class:0:5000
grep -q 'at most 1024' err.txt || fail "too many classes"
try 2 "$T" compile -f '#>[Q_a]' --readout=ratio
grep -q 'future' err.txt || fail "future count"
try 2 "$T" simulate hist10.json --find-breakdown --max-length 5
grep -q 'check its values with --check-against-formula' err.txt ||
	fail "breakdown of a count readout"
# a model file with a bad readout is refused by its field
sed 's/"readout":"class"/"readout":"klass"/' hist10.json > bad2.json
try 2 "$T" simulate bad2.json -w a
grep -q 'output.readout' err.txt || fail "bad readout field: $(cat err.txt)"
sed 's/"readout":"ratio"/"readout":"ratio","min":0/' margin.json > bad3.json
try 2 "$T" simulate bad3.json -w a
grep -q 'output.min: only a "class" readout has bounds' err.txt ||
	fail "bounds on a ratio: $(cat err.txt)"
exit 0
