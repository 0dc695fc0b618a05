# tests/cli/compile_seq_torch.sh -- the PyTorch module (contrib/tally_torch.py)
# of sequence-output models (issue 32 item 5): histogram (class 0..10),
# margin (ratio) and current_leads (per position) return, at every
# position of every word up to length 10 over {a, b}, what tally eval
# --per-position gives (turned into the readout independently, in the
# Python below: clamp, floor(t 2^8/(i+1))/2^8), in right-padded batches
# of the command line's (shape [batch, length]) and word by word (shape [length]).  No
# python3 that imports torch: skipped (77) with a message, except under
# CI, where it fails (scripts/bootstrap installs python3-torch).
. "$top_srcdir/tests/lib.sh"
T=$TALLY
# a sanitizer build: this checks Python against tally, and ran in the
# normal build
if test -n "${TALLY_SANITIZED:-}"; then
	echo "compile_seq_torch.sh: sanitizer build, skipped (no C of ours)"
	exit 77
fi
py=$(for p in ${TALLY_PYTHON:-} python3 /usr/bin/python3; do
	"$p" -c 'import torch' 2> /dev/null && { echo "$p"; break; }
done) || true
if test -z "$py"; then
	test -z "${CI:-}" || fail "CI: no python3 that imports torch"
	echo "compile_seq_torch.sh: no python3 that imports torch, skipped"
	exit 77
fi
# tally_torch checks models with the tally package: this build's (as in
# contrib_torch.sh), not another installed one, which would not know the
# readouts; under ASan its extension cannot load, and none is used.
if test -z "${TALLY_SANITIZED:-}" && test -f "$(dirname "$T")/python/_tally.so"; then
	PYTHONPATH=$(dirname "$T")/python:$top_srcdir/src/python${PYTHONPATH:+:$PYTHONPATH}
	export PYTHONPATH
fi
awk 'BEGIN { print ""; n = 1; w[1] = "";
	for (len = 1; len <= 10; len++) { m = 0;
		for (i = 1; i <= n; i++) for (c = 0; c < 2; c++) {
			x = w[i] (c ? "b" : "a"); v[++m] = x; print x }
		n = m; for (i = 1; i <= n; i++) w[i] = v[i] } }' > words.txt
for spec in "histogram --readout=class:10" "margin --readout=ratio" \
	"current_leads --per-position"; do
	set -- $spec
	"$T" compile -f "$1" "$2" > "$1.json" || fail "compile $spec"
	"$T" eval -f "$1" --alphabet=ab --per-position < words.txt \
		> "$1.eval" || test $? = 1 || fail "eval $1"
done
cat > check.py <<'PY'
import sys
from fractions import Fraction
import torch
sys.path.insert(0, sys.argv[1])
import tally_torch

def readout(kind, i, t):          # the value at position i of count t
    if kind == "class":
        return min(max(t, 0), 10)
    if kind == "ratio":
        return Fraction((t * 256) // (i + 1), 256)
    return t

for name, kind in (("histogram", "class"), ("margin", "ratio"),
                   ("current_leads", "bool")):
    m = tally_torch.load_model(name + ".json")
    assert m.readout == {"bool": "per_position"}.get(kind, kind), m.readout
    rows = [line.rstrip("\n").split("\t") for line in open(name + ".eval")]
    words = [[m.alphabet.index(c) for c in w] for w, _ in rows]
    want = [[readout(kind, i + 1, int(v)) for i, v in enumerate(vs.split())]
            for _, vs in rows]
    got = [None] * len(words)
    for part, ids, mask in tally_torch._batches(m, words):  # right-padded
        with torch.no_grad():
            out = m(ids, mask)
        assert out.shape == ids.shape, (out.shape, ids.shape)
        for r, i in enumerate(part):
            got[i] = [Fraction(x) for x in out[r, :len(words[i])].tolist()]
    bad = 0
    for r, w in enumerate(words):
        if got[r] != want[r]:
            bad += 1
            if bad < 4:
                print(f"{name}: '{rows[r][0]}': torch {got[r]}, eval {want[r]}")
        if 0 < len(w) <= 3:  # one word alone: shape [length]
            with torch.no_grad():
                one = m(torch.tensor(w, dtype=torch.long))
            assert one.shape == (len(w),), one.shape
            assert [Fraction(x) for x in one.tolist()] == want[r], rows[r]
    if bad:
        sys.exit(f"{name}: {bad} words differ")
    print(f"{name}: {len(words)} words agree at every position")
PY
"$py" check.py "$top_srcdir/contrib" > out.txt 2>&1 || {
	cat out.txt >&2
	fail "torch against eval"
}
test "$(grep -c 'words agree at every position' out.txt)" = 3 ||
	fail "torch: $(cat out.txt)"
exit 0
