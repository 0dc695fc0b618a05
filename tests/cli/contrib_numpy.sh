# contrib/simulate.py (NumPy) against tally simulate on every word up to a
# length, for gate-table and ReLU models and every positional encoding.
# Skips (77) without numpy.
. "$top_srcdir/tests/lib.sh"

py=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import numpy' > /dev/null 2>&1; then
		py=$p
		break
	fi
done
test -n "$py" || { echo "contrib_numpy.sh: no python3 with numpy, skipped"; exit 77; }

# Every word over the alphabet up to length $2, one per line.
words() {
	"$py" -c '
import itertools, sys
alpha, n = sys.argv[1], int(sys.argv[2])
for k in range(n + 1):
    for w in itertools.product(alpha, repeat=k):
        print("".join(w))' "$1" "$2"
}

check() { # FORMULA ALPHABET LENGTH [compile options]
	f=$1 alpha=$2 len=$3
	shift 3
	"$TALLY" compile "$@" -f "$f" > model.json || fail "compile $f"
	words "$alpha" "$len" > words.txt
	"$TALLY" simulate model.json < words.txt > tally.txt || true
	"$py" "$top_srcdir/contrib/simulate.py" model.json < words.txt > numpy.txt ||
		fail "simulate.py failed on $f"
	cmp tally.txt numpy.txt || fail "$f $*: simulate.py differs from tally simulate"
	test "$(wc -l < numpy.txt)" -gt 10 || fail "$f: too few words"
}

check dyck1 "()" 8
check dyck1 "()" 6 --ffn=relu
check majority ab 7 --precision=10,4
check anbncn abc 5
check L_3 ab 7 --ffn=relu --precision=20,6

# A hand-made model with an ALiBi head (slope 1, s = 4): its logits are
# -(i-j), so both simulators take the general attention path.
"$TALLY" compile --precision=12,4 --pe=alibi -f majority |
	sed 's/"alibi_slope":"0"/"alibi_slope":"1"/' > alibi.json
words ab 6 > words.txt
"$TALLY" simulate alibi.json < words.txt > tally.txt || true
"$py" "$top_srcdir/contrib/simulate.py" alibi.json < words.txt > numpy.txt
cmp tally.txt numpy.txt || fail "ALiBi model: simulate.py differs"

# The positional encodings tally compile builds: Y through T5 buckets and
# URPE, MOD through sinusoidal features (input gates) and RoPE heads.
check factor_bb ab 7 --pe=t5 --alphabet=ab
check factor_bb ab 6 --pe=urpe --alphabet=ab --ffn=relu
check "#[Q_a & MOD(3, 1)] < #[Q_b]" ab 7 --pe=sinusoidal
check "#[Q_a & MOD(3, 1)] < #[Q_b]" ab 7 --pe=rope
check "MOD(4, 2) | Q_a" ab 6 --pe=rope --ffn=relu --alphabet=ab

# Hand-made variants that leave the constructions: a standard RoPE
# frequency (10000^(-2/8) rad, irrational) and T5 biases of -2, whose
# weights do not round to 0 (both simulators sum every key).
"$TALLY" compile --pe=rope -f "#[Q_a & MOD(3, 1)] < #[Q_b]" |
	sed 's|"rope":\["2/3"\]|"rope":[{"base":10000,"k":1,"d":8}]|' > std.json
grep -q '"base":10000' std.json || fail "no standard angle in std.json"
"$TALLY" compile --pe=t5 --alphabet=ab -f factor_bb | sed 's/"-6"/"-2"/g' > t5.json
words ab 7 > words.txt
for m in std.json t5.json; do
	"$TALLY" simulate $m < words.txt > tally.txt || true
	"$py" "$top_srcdir/contrib/simulate.py" $m < words.txt > numpy.txt
	cmp tally.txt numpy.txt || fail "$m: simulate.py differs"
done
exit 0
