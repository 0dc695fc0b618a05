# tests/cli/seq_equiv.sh -- equiv and check of sequence outputs (issue
# 32, logic/README.md §9.5): count-valued inputs and --per-position
# compared at every position of every word; check --nonneg and
# --bounded=K.  Every refutation's word, first position and values are
# checked against awk, written from the definitions: the position and
# values on the word, and that every word before it in shortlex order
# agrees everywhere (the word is the first shortest one).
. "$top_srcdir/tests/lib.sh"
T=$TALLY
# out_has REGEX: some line of stdout matches.
out_has() { grep -q -- "$1" out.txt || fail "output lacks [$1]: $(head -c 500 out.txt)"; }

# ---- the reference: each case's two sides at position i of w --------
# (i = 0 only for the empty word: letters false, counts 0; i = n + 1 the
# end marker under eos).  Booleans print as true/false, as tally does.
cat > ref.awk <<'AWK'
function cnt(w, i, c,   k, j) { k = 0
	for (j = 1; j <= i && j <= length(w); j++) k += substr(w, j, 1) == c
	return k }
function fut(w, i, c,   k, j) { k = 0
	for (j = (i < 1 ? 1 : i); j <= length(w); j++) k += substr(w, j, 1) == c
	return k }
function at(w, i) { return i >= 1 && i <= length(w) ? substr(w, i, 1) : "" }
function tf(b) { return b ? "true" : "false" }
function val(cs, side, w, i,   x, f) { x = at(w, i)
	if (cs == "hist_count_a")       # histogram / count_a
		return side == 1 ? (x == "a" ? cnt(w, i, "a") : cnt(w, i, "b")) \
				 : cnt(w, i, "a")
	if (cs == "hist_abc")           # the prelude's / a sum over letters
		return side == 1 ? (x == "a" ? cnt(w, i, "a") : cnt(w, i, "b")) \
				 : (x == "a" ? cnt(w, i, "a") : x == "b" ? cnt(w, i, "b") \
					     : x == "c" ? cnt(w, i, "c") - cnt(w, i, "c") : 0)
	if (cs == "future_min") {       # #>[Q_a] / min(#>[Q_a], 2)
		f = i == 0 ? 0 : fut(w, i, "a")
		return side == 1 ? f : (f < 2 ? f : 2) }
	if (cs == "future_bool") {      # #>[Q_a] >= 1 / Q_a | #>[Q_a] >= 2
		f = i == 0 ? 0 : fut(w, i, "a")
		return side == 1 ? tf(f >= 1) : tf(x == "a" || f >= 2) }
	if (cs == "eps")                # #[Q_a] / #[Q_a] + (Q_a | Q_b ? 0 : 1)
		return side == 1 ? cnt(w, i, "a") \
				 : cnt(w, i, "a") + (x == "a" || x == "b" ? 0 : 1)
	if (cs == "margin")             # #[Q_a] - #[Q_b]
		return cnt(w, i, "a") - cnt(w, i, "b")
	if (cs == "suffix_margin")      # #>[Q_a] - #>[Q_b] + 1
		return i == 0 ? 1 : fut(w, i, "a") - fut(w, i, "b") + 1
	if (cs == "future_a")           # #>[Q_a]
		return i == 0 ? 0 : fut(w, i, "a")
	return "?" }
# Does the case's property fail at position i of w?
function fails(cs, w, i,   v) {
	if (prop == "equal") return val(cs, 1, w, i) != val(cs, 2, w, i)
	v = val(cs, 1, w, i)
	if (prop == "nonneg") return v < 0
	if (prop == "bounded") return v > k || v < -k }
# The first failing position of w, or -1.
function first(cs, w,   i, lo, hi) {
	lo = length(w) == 0 && !eos ? 0 : 1; hi = length(w) + (eos ? 1 : 0)
	for (i = lo; i <= hi; i++) if (fails(cs, w, i)) return i
	return -1 }
# The words before w in shortlex order agree everywhere; w's first
# failing position and the values there, as tally prints them.
BEGIN { n = 0; words[n++] = ""
	for (j = 0; j < n && words[j] != w; j++) {
		if (first(cs, words[j]) >= 0) { print "earlier: " words[j]; exit }
		if (length(words[j]) < length(w))
			for (c = 1; c <= length(sigma); c++)
				words[n++] = words[j] substr(sigma, c, 1) }
	p = first(cs, w)
	if (p < 0) { print "no failing position"; exit }
	if (prop == "equal")
		printf "position %d: first %s, second %s\n", p, val(cs, 1, w, p),
			val(cs, 2, w, p)
	else
		printf "position %d: value %s\n", p, val(cs, 1, w, p) }
AWK

# refuted CASE PROPERTY SIGMA EOS K TALLY-ARGS...: tally exits 1 with a
# counterexample whose note is awk's for the first shortest word.
refuted() {
	cs=$1 prop=$2 sigma=$3 eos=$4 k=$5
	shift 5
	try 1 "$T" "$@"
	line=$(grep '^counterexample: ' out.txt) || fail "$cs: no counterexample: $(cat out.txt)"
	word=${line#counterexample: }
	note=${word#* (}
	note=${note%)}
	word=${word%% (*}
	test "$word" = "ε" && word=
	want=$(awk -v cs="$cs" -v prop="$prop" -v sigma="$sigma" -v eos="$eos" \
		-v k="$k" -v w="$word" -f ref.awk)
	test "$note" = "$want" || fail "$cs: tally says '$line', awk '$want'"
}

# ---- equiv: two spellings of histogram proved equal ----------------
# (--timeout=60: a proof within the default 3 s would race the machine)
for h2 in '(Q_a ? #[Q_a] : 0) + (Q_b ? #[Q_b] : 0)' \
	  '#[Q_a] + #[Q_b] - (Q_a ? #[Q_b] : #[Q_a])'; do
	try 0 "$T" equiv --timeout=60 -f histogram -f "$h2"
	out_has '^equivalent$'
done
# a .crasp program of counts, the sum over letters as definitions
printf 'ha := Q_a ? #[Q_a] : 0\nhb := Q_b ? #[Q_b] : 0\nh := ha + hb\n' > h.crasp
try 0 "$T" equiv --timeout=60 -f histogram -P h.crasp
out_has '^equivalent$'
# bounded checks say so (exit 3)
try 3 "$T" equiv --method=explore --max-length=8 -f histogram -P h.crasp
out_is "equivalent up to length 8
method: explore (45 states visited, every word up to length 8 checked)
alphabet: a b"

# ---- equiv: refutations, first position and values against awk ------
refuted hist_count_a equal ab 0 0 equiv -f histogram -f count_a
# the sum over letters gives 0 at a c; the prelude's histogram the b's
refuted hist_abc equal abc 0 0 equiv -f histogram -P h.crasp --alphabet=abc
# future counts: the first difference is not at the last position
refuted future_min equal ab 0 0 equiv -f '#>[Q_a]' -f 'min(#>[Q_a], 2)' \
	--alphabet=ab
out_has '^counterexample: aaa (position 1: first 3, second 2)$'
# position 0 of the empty word counts under last, the end marker under eos
refuted eps equal ab 0 0 equiv -f '#[Q_a]' -f '#[Q_a] + (Q_a | Q_b ? 0 : 1)' \
	--alphabet=ab
refuted eps equal ab 1 0 equiv -f '#[Q_a]' -f '#[Q_a] + (Q_a | Q_b ? 0 : 1)' \
	--alphabet=ab --accept-at=eos
# --per-position Booleans: the same languages, not the same sequences
try 0 "$T" equiv -f '#>[Q_a] >= 1' -f 'Q_a | #>[Q_a] >= 2' --alphabet=ab
refuted future_bool equal ab 0 0 equiv --per-position -f '#>[Q_a] >= 1' \
	-f 'Q_a | #>[Q_a] >= 2' --alphabet=ab
# a trace of both sides goes with it
try 1 "$T" equiv -f histogram -f count_a --trace
grep -q '^(Q_a ? #\[Q_a\] : #\[Q_b\])  *1$' out.txt || fail "trace: $(cat out.txt)"

# JSON: the position and both values
try 1 "$T" equiv --json -f '#>[Q_a]' -f 'min(#>[Q_a], 2)' --alphabet=ab
grep -q '"per_position":true' out.txt || fail "json per_position: $(cat out.txt)"
grep -q '"position":1,"at_position":\[{"input":"first","value":3},{"input":"second","value":2}\]' \
	out.txt || fail "json position: $(cat out.txt)"
grep -q '"accepted_by"' out.txt && fail "json accepted_by on counts"
cp out.txt seq-equiv.json

# ---- check: --nonneg, --bounded=K, --per-position --------------------
try 0 "$T" check --timeout=60 --nonneg -f histogram
out_has '^valid$'
refuted margin nonneg ab 0 0 check --nonneg -f margin
refuted suffix_margin nonneg ab 0 0 check --nonneg -f '#>[Q_a] - #>[Q_b] + 1'
try 0 "$T" check --timeout=60 --bounded=1 -f 'min(max(margin, -1), 1)'
out_has '^valid$'
refuted margin bounded ab 0 2 check --bounded=2 -f margin
refuted future_a bounded ab 0 1 check --bounded=1 -f '#>[Q_a]' --alphabet=ab
try 3 "$T" check --method=explore --max-length=6 --bounded=6 -f margin
out_has '^valid up to length 6$'
try 1 "$T" check --json --bounded=2 -f margin
grep -q '"command":"check --bounded".*"bounded_by":2' out.txt ||
	fail "json bounded: $(cat out.txt)"
grep -q '"position":3,"at_position":\[{"input":"input","value":3}\]' out.txt ||
	fail "json bounded position: $(cat out.txt)"
cp out.txt seq-check.json
# per-position implication: Q_a implies "an a from here on", not "two"
try 0 "$T" check --per-position --implies='#>[Q_a] >= 1' -f Q_a --alphabet=ab
try 1 "$T" check --per-position --implies='#>[Q_a] >= 2' -f Q_a --alphabet=ab
out_has '^counterexample: a (position 1: input true, implies false)$'
try 0 "$T" check --per-position --sat -f '#>[Q_a] >= 3'
out_has '^witness: aaa (position 1: value true)$'

# ---- bad input: clear errors, exit 2 -------------------------------
try 2 "$T" equiv -f histogram -f majority
err_has "equiv compares two formulas or two count-valued inputs"
try 2 "$T" check --sat -f histogram
err_has "check --sat: the input is count-valued (an integer term); it needs a formula"
try 2 "$T" check --nonneg -f majority
err_has "check --nonneg: the input is a formula; it needs a count-valued input"
try 2 "$T" check --per-position --implies=count_a -f Q_a
err_has "the --implies formula is count-valued"
try 2 "$T" check --nonneg --bounded=2 -f margin
err_has "check needs exactly one of"
try 2 "$T" check --bounded=-1 -f margin

# ---- many questions: equiv --pairs and check --batch take counts too --
printf 'histogram\tcount_a\t\tnot-equivalent\tb\n' > pairs.tsv
try 0 "$T" equiv --pairs=pairs.tsv --timeout=60
out_has '^1	not equivalent	counterexample: b (position 1: first 1, second 0)	'
printf '#[Q_a] - #[Q_b]\n;;\nhistogram\n' > batch.txt
try 1 "$T" check --nonneg --batch=batch.txt --timeout=60
out_is "1	not valid	counterexample: b (position 1: value -1)	method: presburger
2	valid	method: presburger"

# ---- long counterexamples, false proofs ------------------------------
# a counterexample of 10^20 letters: no position is claimed
try 1 "$T" equiv --timeout=60 -f 'min(#[Q_a], 100000000000000000000)' -f '#[Q_a]'
out_has '^counterexample: a^100000000000000000001 (position not computed: longer than 1048576 letters)$'
try 1 "$T" equiv --timeout=60 -f 'min(#[Q_a], 100000)' -f '#[Q_a]'
out_has '^counterexample: a^100001 (position 100001: first 100000, second 100001)$'
# a false proof of a sequence question never passes
status=0
TALLY_INJECT_PROOF=1 "$T" equiv --timeout=60 -f histogram -f count_a > out.txt 2> err.txt ||
	status=$?
test "$status" = 70 || fail "an injected false proof: exit $status"
err_has "internal error"
test ! -s out.txt || fail "a verdict after a false proof: $(cat out.txt)"
