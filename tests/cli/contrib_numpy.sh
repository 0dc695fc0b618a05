# contrib/simulate.py (NumPy) against tally simulate on every word up to a
# length, for gate-table and ReLU models.  Skips (77) without numpy.
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
"$TALLY" compile --precision=12,4 -f majority |
	sed 's/"alibi_slope":"0"/"alibi_slope":"1"/' > alibi.json
words ab 6 > words.txt
"$TALLY" simulate alibi.json < words.txt > tally.txt || true
"$py" "$top_srcdir/contrib/simulate.py" alibi.json < words.txt > numpy.txt
cmp tally.txt numpy.txt || fail "ALiBi model: simulate.py differs"
exit 0
