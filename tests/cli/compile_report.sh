# tally compile --report: the length up to which a model is exact under a
# semantics is printed only where it is proved or confirmed (issue 18,
# item 5).  Every length a report claims is checked here with tally
# simulate (the breakdown search, every word, or adversarial words
# against tally eval), capped where the check would be long.
. "$top_srcdir/tests/lib.sh"

# The length of "exact up to length:": a number, "all" or "unknown"
# (nothing when the line is missing).
claimed() {
	sed -n -e 's/^exact up to length: \([0-9][0-9]*\) .*/\1/p' \
		-e 's/^exact up to length: all lengths.*/all/p' \
		-e 's/^exact up to length: unknown.*/unknown/p' "$1"
}

# capped N CAP: the length to check.
capped() {
	if test "$1" = all || test "$1" -gt "$2"; then echo "$2"; else echo "$1"; fi
}

# report NAME COMPILE-ARGS...: NAME.txt (the report), NAME.json (the
# model, which --semantics does not change: its analysis is kneedeep's,
# the quick one); $len is the claimed length, which must be there.
report() {
	name=$1; shift
	"$TALLY" compile "$@" --report > "$name.txt" ||
		fail "$name: compile --report exits $?"
	len=$(claimed "$name.txt")
	case $len in
	"" | unknown) fail "$name: no length claimed: $(cat "$name.txt")" ;;
	esac
	"$TALLY" compile "$@" --semantics=kneedeep > "$name.json" ||
		fail "$name: compile exits $?"
}

# no_breakdown NAME SEM CAP: no disagreement up to the claimed length.
no_breakdown() {
	n=$(capped "$len" "$3")
	"$TALLY" simulate -m "$1.json" --semantics="$2" --find-breakdown \
		--max-length "$n" --max-states 3000000 > "$1.bd" 2>&1 ||
		fail "$1: claims $len, but: $(cat "$1.bd")"
}

# every_word NAME SEM CAP: every word up to the claimed length, and
# random words of that length at every prefix, agree with the formula.
every_word() {
	n=$(capped "$len" "$3")
	"$TALLY" simulate -m "$1.json" --semantics="$2" \
		--check-against-formula --max-length "$n" --random 2 \
		--length "$(capped "$len" 400)" > "$1.ck" 2>&1 ||
		fail "$1: claims $len, but: $(cat "$1.ck")"
}

# The reproducers of the issue.  Majority with ReLU blocks under fp32:
# the ReLU gadget needs head outputs on the 2^-s grid, which round to
# nearest leaves once i+1 > 2^8 (a^128 b^128 was accepted).
report maj_relu -f majority --ffn=relu --semantics=ieee=fp32
no_breakdown maj_relu ieee=fp32 300
# The report's first disagreement is a real one: simulate finds the same
# length, and tally eval disagrees with the model on the word.
want=$(sed -n 's/^first disagreement: .* (length \([0-9]*\)).*/\1/p' maj_relu.txt)
"$TALLY" simulate -m maj_relu.json --semantics=ieee=fp32 --find-breakdown \
	--max-length 300 > bd.txt 2>&1 || true
grep -q "^first disagreement at length $want: " bd.txt ||
	fail "maj_relu: the report says $want, simulate: $(cat bd.txt)"
w=$(awk 'BEGIN { for (i = 0; i < 128; i++) printf "a"; for (i = 0; i < 128; i++) printf "b"; print "" }')
test "$("$TALLY" simulate -m maj_relu.json --semantics=ieee=fp32 -w "$w" | cut -f2)" = accept ||
	fail "maj_relu: a^128 b^128 should be accepted under fp32"
run 1 "$TALLY" eval -f majority -w "$w" > /dev/null

# Dyck-1 with ReLU blocks under fp32 (()^143 was rejected): ()^k and
# (^k )^k for every k up to the claimed length (capped at 320) against
# tally eval.
report dyck_relu -f dyck1 --ffn=relu --semantics=ieee=fp32
n=$(capped "$len" 320)
awk -v n="$n" 'BEGIN { for (k = 1; 2 * k <= n; k++) {
	w = ""; v = ""
	for (i = 0; i < k; i++) { w = w "()"; v = "(" v ")" }
	print w; print v } }' > dyck_words.txt
"$TALLY" simulate -m dyck_relu.json --semantics=ieee=fp32 < dyck_words.txt \
	> dyck_sim.txt || true
"$TALLY" eval -f dyck1 < dyck_words.txt > dyck_eval.txt || true
cmp -s dyck_sim.txt dyck_eval.txt ||
	fail "dyck_relu: claims $len, but fp32 and eval differ: $(diff dyck_sim.txt dyck_eval.txt | head -4)"
no_breakdown dyck_relu ieee=fp32 40

# MOD through RoPE under fp32: exp(-A) does not round to 0 (ab was
# accepted).
report rope -f "#[Q_a & MOD(3, 1)] < #[Q_b]" --pe=rope --semantics=ieee=fp32
every_word rope ieee=fp32 8

# Y through T5 and ALiBi under IEEE (the weights kneedeep drops survive),
# MOD(101, 0) through sinusoidal features under bf16 (cos(2 pi/101)
# rounds to 1), URPE, and rounded sums.
report t5 -f "#[Y Q_a] < #[Q_b]" --pe=t5 --semantics=ieee=bf16
every_word t5 ieee=bf16 10
report alibi -f factor_bb --pe=alibi --alphabet=ab --semantics=ieee=fp16
every_word alibi ieee=fp16 10
report sin101 -f "MOD(101, 0)" --pe=sinusoidal --alphabet=a --semantics=ieee=bf16
every_word sin101 ieee=bf16 10
report urpe -f "#[Y Q_a] < #[Q_b]" --pe=urpe --semantics=ieee=fp16
every_word urpe ieee=fp16 10
report maj_rs --precision=10,4 -f majority --semantics=rounded-sums
no_breakdown maj_rs rounded-sums 200

# The analysis in the model says what the report says.
"$TALLY" compile --precision=10,4 -f majority --semantics=rounded-sums |
	sed 's/.*"exact_up_to_length":\([0-9a-z]*\).*/\1/' > json_len.txt
test "$(cat json_len.txt)" = "$(claimed maj_rs.txt)" ||
	fail "maj_rs: the JSON analysis says $(cat json_len.txt)"

# Under kneedeep every length is claimed; the RoPE heads are checked on
# two periods, so MOD(150, 140) (wrong at position 140) is refused or
# exact.
report kd -f majority
test "$len" = all || fail "kneedeep: $len"
status=0
"$TALLY" compile -f "MOD(150, 140)" --pe=rope --alphabet=ab \
	--precision=32,8 > rope150.json 2> rope150.err || status=$?
case $status in
0) run 0 "$TALLY" simulate -m rope150.json --check-against-formula \
	--max-length 2 --random 2 --length 320 ;;
2) grep -q "not exact" rope150.err || fail "rope150: $(cat rope150.err)" ;;
*) fail "rope150: exit $status" ;;
esac
run 2 "$TALLY" compile -f "MOD(2049, 0)" --pe=rope --alphabet=a \
	--precision=32,0

# make check-heavy: prelude formulas at several precisions, both feed-
# forward kinds, every semantics, each claimed length checked by the
# breakdown search up to 300.
if test "${TALLY_TEST_MULTIPLIER:-1}" -ge 10; then
	for f in majority dyck1 anbn first_a contains_ab parity2 \
		"#[Q_a] >= 2*#[Q_b]" "#[#[Q_a] < #[Q_b]] = #[Q_b] - 1"; do
		for prec in 16,8 10,4 12,3 20,12; do
			for ffn in table relu; do
				for sem in rounded-sums ieee=bf16 ieee=fp16 ieee=fp32; do
					"$TALLY" compile -f "$f" --precision=$prec \
						--ffn=$ffn > heavy.json 2>/dev/null ||
						continue # too small a precision
					"$TALLY" compile -f "$f" --precision=$prec \
						--ffn=$ffn --semantics=$sem \
						--report > heavy.txt ||
						fail "heavy: $f $prec $ffn $sem"
					len=$(claimed heavy.txt)
					test "$len" != unknown || continue
					no_breakdown heavy $sem 300
				done
			done
		done
	done
fi
