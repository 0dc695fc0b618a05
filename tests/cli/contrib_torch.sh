# contrib/tally_torch.py (PyTorch) against tally: the issue's one-liner on
# Dyck-1, then, on every compiled model of the corpus below, the per-
# position verdicts against tally eval (float64: every word up to a
# length and random words of 1000 letters, every prefix) and against
# tally simulate --semantics=ieee=fp32|bf16|fp16 (float32, bfloat16,
# float16), the Boolean components of the residual stream against
# tally simulate --trace, bfloat16's breakdown length, padding, the
# refusal of broken models, and the SVG plot of contrib/train.py in
# headless Chromium (the committed plot of corpora/experiments/ and one
# of a made-up table).  Ground truth always comes from tally.
# The Python: $TALLY_PYTHON, else the first of python3 and
# /usr/bin/python3 that imports torch (a pyenv shim on PATH may lack
# it); none skips (77), except under CI (scripts/bootstrap installs
# python3-torch and chromium there), where a missing one fails.  A
# sanitizer build runs the one-liner only: the rest checks Python
# against tally, and ran in the normal build.
. "$top_srcdir/tests/lib.sh"

missing() {
	test -z "${CI:-}" || fail "CI: $1 (scripts/bootstrap installs it)"
	echo "contrib_torch.sh: $1, skipped"
	exit 77
}
py=$(for p in ${TALLY_PYTHON:-} python3 /usr/bin/python3; do
	"$p" -c 'import torch' 2> /dev/null && { echo "$p"; break; }
done) || true
test -n "$py" || missing "no python3 that imports torch"
chromium_find
# The tally package (when built, not under ASan: its extension cannot be
# loaded into python3): tally_torch makes tally simulate's checks with it.
if test -z "${TALLY_SANITIZED:-}" && test -f "$(dirname "$TALLY")/python/_tally.so"; then
	PYTHONPATH=$(dirname "$TALLY")/python:$top_srcdir/src/python${PYTHONPATH:+:$PYTHONPATH}
	export PYTHONPATH
fi
test -n "$browser" || missing "no Chromium"

# The issue's "done when", verbatim: the verdicts tally eval --trace gives
# in its last row.
"$TALLY" compile -f dyck1 > m.json
ln -s "$top_srcdir/contrib" contrib
got=$("$py" -c "import sys; sys.path.insert(0,'contrib'); import tally_torch, torch; m = tally_torch.load_model('m.json'); print(m(torch.tensor([[0,1,1,0]])))")
row=$("$TALLY" eval -f dyck1 --trace -w '())(' | sed '/^$/d' | tail -n 1 |
	awk '{ print $(NF-3) ", " $(NF-2) ", " $(NF-1) ", " $NF }')
test "$got" = "tensor([[$row]])" ||
	fail "dyck1 one-liner: got $got, trace $row"
if test -n "${TALLY_SANITIZED:-}"; then
	echo "contrib_torch.sh: sanitizer build, the one-liner only"
	exit 0
fi

# The same over the corpus, and the rest, in one process (importing torch
# costs seconds).
status=0
"$py" - "$TALLY" "$top_srcdir" << 'EOF' || status=$?
import itertools
import json
import random
import subprocess
import sys
from fractions import Fraction

TALLY, TOP = sys.argv[1], sys.argv[2]
sys.path.insert(0, TOP + "/contrib")
import tally_torch  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(1)
failed = []
SEM = {"float32": "ieee=fp32", "bfloat16": "ieee=bf16", "float16": "ieee=fp16"}


def check(ok, what):
    if not ok:
        print("FAIL:", what)
        failed.append(what)


def tally(args, lines=()):
    r = subprocess.run([TALLY] + args, input="".join(w + "\n" for w in lines),
                       capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit(f"tally {' '.join(args)}: exit {r.returncode}: {r.stderr}")
    return r.stdout


def verdicts(out):
    return [int(line.rsplit("\t", 1)[1] == "accept")
            for line in out.splitlines()]


def text(model, word):
    sep = " " if any(len(a) > 1 for a in model.alphabet) else ""
    return sep.join(model.alphabet[t] for t in word)


def truth(model, mfile, words, sem):
    """tally's verdict on each word: eval of the model's formula, or
    simulate under the semantics."""
    lines = [text(model, w) for w in words]
    if sem == "eval":
        alpha = ",".join(model.alphabet)
        return verdicts(tally(["eval", "-f", model.formula,
                               "--alphabet=" + alpha], lines))
    return verdicts(tally(["simulate", mfile, "--semantics=" + sem], lines))


def bits(model, words):
    """The torch module's verdict at every position of every word (right
    padding, one batch)."""
    n = max(len(w) for w in words)
    ids = torch.zeros(len(words), n, dtype=torch.int64)
    mask = torch.zeros(len(words), n, dtype=torch.bool)
    for r, w in enumerate(words):
        ids[r, :len(w)] = torch.tensor(w, dtype=torch.int64)
        mask[r, :len(w)] = True
    with torch.no_grad():
        out = model(ids, mask, bos=True)
    return [out[r, :len(w) + 1].tolist() for r, w in enumerate(words)]


def random_words(k, seed, n=1000):
    """Two words of n letters: uniform letters, and runs of 1..60."""
    rng = random.Random(seed)
    uni = [rng.randrange(k) for _ in range(n)]
    runs = []
    while len(runs) < n:
        runs += [rng.randrange(k)] * rng.randint(1, 60)
    return [uni, runs[:n]]


def trace_rows(model, lines):
    """The model rows of tally simulate --trace by component (the rows
    come in component order, one per bool or head component), each the
    printed values at BOS, 1, 2, ..."""
    rows = [lines[i + 1].split()[1:] for i, line in enumerate(lines)
            if line.startswith("L") and line.split()[1] in ("bool", "head")]
    comps = [c for c, comp in enumerate(model.components)
             if comp["kind"] in ("bool", "head")]
    check(len(rows) == len(comps), f"{len(rows)} trace rows for "
          f"{len(comps)} components")
    return dict(zip(comps, rows))


def traced(model, mfile, word, sem):
    """tally's verdict at every position of one word, from one traced run:
    the last row of eval's trace, or the output w.h + b > 0 computed from
    the rows of simulate's trace (the output of a compiled model reads
    Boolean components, printed exactly)."""
    if sem == "eval":
        out = tally(["eval", "-f", model.formula, "--alphabet=" +
                     ",".join(model.alphabet), "--trace", "-w",
                     text(model, word)])
        return [int(x) for x in out.strip().splitlines()[-1].split()
                [-len(word):]]
    lines = tally(["simulate", mfile, "--semantics=" + sem, "--trace", "-w",
                   text(model, word)]).splitlines()
    rows = trace_rows(model, lines)
    with open(mfile) as f:
        out = json.load(f)["output"]
    bias = float(Fraction(out["bias"]))
    return [int(sum(float(Fraction(w)) * float(rows[c][i])
                    for c, w in out["weights"]) + bias > 0)
            for i in range(1, len(word) + 1)]


def agree(name, model, mfile, sem, maxlen, long_words=()):
    """Every word up to maxlen (the verdict at its last position covers
    every prefix), then every position of the long words."""
    k = len(model.alphabet)
    short = [list(w) for n in range(maxlen + 1)
             for w in itertools.product(range(k), repeat=n)]
    got = [b[-1] for b in bits(model, short)]
    want = truth(model, mfile, short, sem)
    bad = [text(model, w) for w, g, t in zip(short, got, want) if g != t]
    check(not bad, f"{name} vs {sem}: {len(bad)} of {len(short)} words up "
          f"to {maxlen} differ, the first '{bad[0] if bad else ''}'")
    for w in long_words:
        got = bits(model, [w])[0][1:]
        want = traced(model, mfile, w, sem)
        first = next((i + 1 for i, (g, t) in enumerate(zip(got, want))
                      if g != t), None)
        check(first is None, f"{name} vs {sem}: a random word of {len(w)} "
              f"letters differs first at position {first}")


def compile_model(name, args):
    mfile = name + ".json"
    r = subprocess.run([TALLY, "compile"] + args, capture_output=True,
                       text=True)
    if r.returncode:
        sys.exit(f"tally compile {' '.join(args)}: {r.stderr}")
    with open(mfile, "w") as f:
        f.write(r.stdout)
    return mfile


# name, compile options, longest word of the exhaustive checks, and how
# the construction fares in IEEE arithmetic: "exact" (NoPE, URPE and
# sinusoidal features: the formula at every length checked), "short"
# (ReLU gadgets: exact while the values they test are at least 2^-s, so
# the formula on short words only) or "ieee" (ALiBi, T5 and RoPE need
# weights that round to 0: under IEEE they compute what tally simulate
# --semantics=ieee=... computes, not the formula).
CORPUS = [
    ("dyck1", ["-f", "dyck1"], 10, "exact"),
    ("majority", ["-f", "majority"], 10, "exact"),
    ("anbncn", ["-f", "anbncn"], 7, "exact"),
    ("L_3", ["-f", "L_3"], 10, "exact"),
    ("L_4", ["-f", "L_4"], 10, "exact"),
    ("first_a", ["-f", "first_a"], 10, "exact"),
    ("dyck1-relu", ["-f", "dyck1", "--ffn=relu"], 10, "short"),
    ("L_3-relu", ["-f", "L_3", "--ffn=relu", "--precision=20,6"], 10,
     "short"),
    ("bb-t5", ["-f", "factor_bb", "--pe=t5", "--alphabet=ab"], 9, "ieee"),
    ("bb-urpe", ["-f", "factor_bb", "--pe=urpe", "--alphabet=ab"], 10,
     "exact"),
    ("bb-urpe-relu", ["-f", "factor_bb", "--pe=urpe", "--alphabet=ab",
                      "--ffn=relu"], 8, "short"),
    ("bb-alibi", ["-f", "factor_bb", "--pe=alibi", "--alphabet=ab"], 9,
     "ieee"),
    ("mod-sin", ["-f", "#[Q_a & MOD(3, 1)] < #[Q_b]", "--pe=sinusoidal"], 10,
     "exact"),
    ("mod-rope", ["-f", "#[Q_a & MOD(3, 1)] < #[Q_b]", "--pe=rope"], 9,
     "ieee"),
    ("mod-rope-relu", ["-f", "MOD(4, 2) | Q_a", "--pe=rope", "--ffn=relu",
                       "--alphabet=ab"], 8, "ieee"),
]
for prog in ("anbn.cr", "count3.crasp", "d1.cr", "l2.cr", "subseq_ab.cr"):
    CORPUS.append((prog, ["-P", f"{TOP}/corpora/programs/{prog}"],
                   6 if prog.startswith("count3") else 9, "exact"))

for seed, (name, args, maxlen, mode) in enumerate(CORPUS):
    mfile = compile_model(name, args)
    m64 = tally_torch.load_model(mfile)
    k = len(m64.alphabet)
    long_words = random_words(k, seed)
    if mode != "ieee":
        # the one-liner over the corpus: print(m(ids)) is the trace's
        # last row; then float64 against the formula
        word = long_words[1][:12]
        want = traced(m64, mfile, word, "eval")
        printed = str(m64(torch.tensor([word])))
        check(printed == f"tensor([[{', '.join(map(str, want))}]])",
              f"{name}: print(m(ids)) gives {printed}, the trace {want}")
        # a batch without a mask: batch x length verdicts, row by row
        # the words' own; the letters in the file's order
        other = long_words[0][:12]
        out = m64(torch.tensor([other, word]))
        check(tuple(out.shape) == (2, 12) and out[1].tolist() == want and
              out[0].tolist() == traced(m64, mfile, other, "eval"),
              f"{name}: a batch of two words gives {out.tolist()}")
        with open(mfile) as f:
            check(m64.alphabet == json.load(f)["alphabet"],
                  f"{name}: model.alphabet is {m64.alphabet}")
        agree(name + " float64", m64, mfile, "eval", maxlen,
              long_words if mode == "exact" else ())
    # the formats against tally simulate: in tally's order of sums always;
    # with PyTorch's own sums where the construction is exact in IEEE
    for dt, sem in SEM.items():
        m = tally_torch.load_model(mfile, dt, in_order=True)
        agree(f"{name} {dt} in order", m, mfile, sem, min(maxlen, 6),
              [long_words[1][:300]])
        if mode == "exact":
            m = tally_torch.load_model(mfile, dt)
            agree(f"{name} {dt}", m, mfile, sem, min(maxlen, 6),
                  [long_words[1][:300]])

# The residual stream: every Boolean component (0 or 1, exact in every
# format) at every position, against the model rows of tally simulate
# --trace.
for name, sem, dt in [("dyck1", "kneedeep", "float64"),
                      ("mod-sin", "kneedeep", "float64"),
                      ("bb-t5", "ieee=fp32", "float32"),
                      ("mod-rope", "ieee=bf16", "bfloat16")]:
    m = tally_torch.load_model(name + ".json", dt, in_order=dt == "bfloat16")
    word = random_words(len(m.alphabet), 99, 40)[1]
    rows = trace_rows(m, tally(["simulate", name + ".json", "--semantics=" +
                                sem, "--trace", "-w", text(m, word)])
                      .splitlines())
    streams = m.streams(torch.tensor([word]))
    for c, row in rows.items():
        comp = m.components[c]
        if comp["kind"] != "bool":
            continue
        got = [format(float(x), "g") for x in streams[comp["layer"]][0, :, c]]
        check(got == row, f"{name} {dt}: component {c} ({comp.get('formula')})"
              f" is {got}, tally simulate --trace says {row}")

# Breakdown: tally-simulate(1) measures majority's first disagreement in
# bfloat16 at b^256 a^256 (length 512).  In tally's order of sums the
# module agrees with tally simulate on every prefix, so it breaks there
# too; with PyTorch's sums (float32 accumulators) it does not break.
maj = tally_torch.load_model("majority.json", "bf16", in_order=True)
w = [1] * 256 + [0] * 256
prefixes = [w[:i] for i in range(1, 513)]
got = bits(maj, [w])[0][1:]
check(got == truth(maj, "majority.json", prefixes, "ieee=bf16"),
      "majority bfloat16 in order: b^256 a^256 differs from tally simulate")
formula = truth(maj, "majority.json", prefixes, "eval")
check([i + 1 for i in range(512) if got[i] != formula[i]] == [512],
      "majority bfloat16 in order: b^256 a^256 is not wrong at 512 only")
# Whether PyTorch accumulates bfloat16 matrix products in float32 is its
# kernels' choice (it does with oneDNN on AVX-512 machines; Debian's
# 1.13 with generic BLAS on an AVX2 machine adds in bfloat16, where
# 256 + 1 is 256).  The claim is checked where the kernels make it.
ones = torch.ones(1, 1, 512, dtype=torch.bfloat16)   # attention's shapes
if (ones[:, :, None, :] @ ones[..., None]).item() == 512:
    maj = tally_torch.load_model("majority.json", "bf16")
    check(bits(maj, [w])[0][1:] == formula,
          "majority bfloat16: PyTorch's sums differ from the formula on "
          "b^256 a^256")
else:
    print("note: this PyTorch adds bfloat16 matrix products in bfloat16; "
          "the float32-accumulator check is skipped")

# Padding: left, right and none give the same bits, on models whose
# positions matter (sinusoidal features, T5 distances) and Dyck-1.
for name in ("dyck1", "mod-sin", "bb-t5"):
    m = tally_torch.load_model(name + ".json")
    ws = [[0, 1, 0, 1, 1], [0, 0, 1], [], [1, 0, 0, 1, 1, 0, 0, 1, 0, 1]]
    alone = [bits(m, [w])[0] for w in ws]
    check(bits(m, ws) == alone, f"{name}: right padding changes a verdict")
    n = max(map(len, ws))
    ids = torch.tensor([[0] * (n - len(w)) + w for w in ws])
    mask = torch.tensor([[False] * (n - len(w)) + [True] * len(w)
                         for w in ws])
    left = m(ids, mask, bos=True).tolist()
    check([row[:1] + row[n - len(w) + 1:] for row, w in zip(left, ws)] ==
          alone and not any(any(row[1:n - len(w) + 1])
                            for row, w in zip(left, ws)),
          f"{name}: left padding changes a verdict")

# Broken models (edits of the Dyck-1 model) are refused: tally simulate
# exits 2 and tally_torch raises a ModelError, both naming the same field.
with open("dyck1.json") as f:
    good = f.read()
EDITS = [('"out":3}', '"out":3,"ropes":[]}'), ('"alibi_slope":"0",', ''),
         ('["0","1","0"', '["0","+1","0"'),
         ('["0","1","0"', '["0","1/512","0"'),
         ('"d_model":12', '"d_model":13'), ('[[1,"-1"]', '[[12,"-1"]'),
         ('"in":[3]', '"in":[3,1]'),
         ('"positional":"nope"', '"positional":"NoPE"'),
         ('"n_layers":2', '"n_layers":3'), ('"s":8', '"s":15'),
         ('"op":"not"', '"op":"nand"'),
         ('"format_version":1', '"format_version":2'),
         ('"alphabet":["(",")"]', '"alphabet":["(","("]'),
         ('"rows":0,"entries":[]', '"rows":0,"entries":[[0,1,"1"]]')]
for old, new in EDITS:
    bad = good.replace(old, new, 1)
    check(bad != good, f"the edit {old} -> {new} changed nothing")
    with open("bad.json", "w") as f:
        f.write(bad)
    r = subprocess.run([TALLY, "simulate", "bad.json", "-w", "()"],
                       capture_output=True, text=True)
    field = r.stderr.split("bad.json: ", 1)[-1].split(": ", 1)[0]
    try:
        tally_torch.load_model("bad.json")
        mine = "(read)"
    except tally_torch.ModelError as e:
        mine = str(e).split(": ", 1)[0]
    check(r.returncode == 2 and mine == field,
          f"edit {new}: tally exits {r.returncode} naming {field}, "
          f"tally_torch names {mine}")
with open("bad.json", "w") as f:
    f.write(good.replace('"d_model":12,', '"d_model":12,"d_model":12,'))
try:
    tally_torch.load_model("bad.json")
    check(False, "a repeated key was read")
except tally_torch.ModelError as e:
    check("d_model" in str(e), f"a repeated key: {e}")

# The plots of contrib/train.py: the committed one must be what train.py
# draws from the committed table; a made-up table (0 % below the least
# depth, 100 % from it) gives a second one.  For each, what the browser
# must measure below (want-NAME.js), read from the table here: every
# run's accuracy on the longest words, the paper's figure-2 values of
# the prediction task (copied from the paper independently of train.py).
import train  # noqa: E402
EXP = TOP + "/corpora/experiments/lk-depth"
head = ["task", "language", "depth", "init", "loss", "seed", "acc_81_160"]
with open("made-up.tsv", "w") as f:
    f.write("\t".join(head) + "\n")
    for task, least in (("prediction", -2), ("recognition", 0)):
        for k in (3, 4, 5):
            for d in range(1, 6):
                acc = 100 if d >= k + least else 0
                f.write(f"{task}\tL_{k}\t{d}\trandom\tbce\t1\t{acc}\n")
            for loss in ("bce", "hinge"):
                f.write(f"{task}\tL_{k}\t{k + least}\tcompiled\t{loss}\t1"
                        "\t100\n")
train.svg_plot("made-up.tsv", "made-up.svg")
train.svg_plot(EXP + ".tsv", "fresh.svg")
with open(EXP + ".svg") as f, open("fresh.svg") as g:
    check(f.read() == g.read(), "corpora/experiments/lk-depth.svg is not "
          "what train.py --report draws from lk-depth.tsv")
PAPER = {"L_3": [100, 100, 100, 100, 100], "L_4": [21.7, 100, 100, 100, 100],
         "L_5": [11.3, 50.6, 100, 100, 100]}
for name, tsv in (("made-up", "made-up.tsv"), ("committed", EXP + ".tsv")):
    with open(tsv) as f:
        cols = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(cols, line.rstrip("\n").split("\t"))) for line in f]
    last = [c for c in cols if c.startswith("acc_")][-1]
    points = [[r["task"], r["language"], int(r["depth"]), float(r[last])]
              for r in rows if r["init"] == "random"]
    ran = {(p[1], p[2]) for p in points}  # the paper's beside the runs
    paper = [["prediction", k, d + 1, a] for k, accs in PAPER.items()
             for d, a in enumerate(accs) if (k, d + 1) in ran]
    want = dict(points=points, paper=paper,
                compiled=sum(r["init"] == "compiled" for r in rows))
    with open(f"want-{name}.js", "w") as f:
        f.write(f"var want = {json.dumps(want)};\n")
    with open(f"want-{name}.txt", "w") as f:
        f.write(f"panels=2 points={len(points)}/{len(points)} "
                f"paper={len(paper)}/{len(paper)} "
                f"compiled={want['compiled']} order=true texts=true\n")

if failed:
    sys.exit(f"{len(failed)} checks failed")
EOF
test "$status" = 0 || fail "tally_torch disagrees with tally (above)"

# The plots render in headless Chromium (a screenshot larger than a
# blank page's), and the browser measures them: two panels; each run's
# point inside its panel at the height of its accuracy (within 1 %,
# matched by language and depth), the paper's points likewise, the
# points of a language left to right by depth (a depth's seeds one above
# the other); a star per run from
# tally compile's weights, in its panel; every text inside the picture.
CHROME_SIZE=900,460 # chrome (tests/lib.sh)
printf '<svg xmlns="http://www.w3.org/2000/svg" %s/>\n' \
	'width="900" height="460"' > blank.svg
chrome --screenshot="$PWD/blank.png" "file://$PWD/blank.svg" > /dev/null ||
	fail "chromium failed on a blank picture"
cp "$top_srcdir/corpora/experiments/lk-depth.svg" committed.svg
for name in made-up committed; do
	rm -f plot.png
	chrome --screenshot="$PWD/plot.png" "file://$PWD/$name.svg" \
		> /dev/null || fail "chromium failed: $(tail -3 chrome.err)"
	test -s plot.png &&
		test "$(wc -c < plot.png)" -gt "$(($(wc -c < blank.png) * 4))" ||
		fail "$name.svg renders like a blank picture"
	{
		printf '<!DOCTYPE html><html><body style="margin:0">\n'
		cat "$name.svg"
		printf '<script>\n'
		cat "want-$name.js"
		cat << 'EOF'
(function () {
  var svg = document.querySelector('svg').getBoundingClientRect();
  var inside = function (r, b) {
    return r.left >= b.left - 0.5 && r.right <= b.right + 0.5 &&
      r.top >= b.top - 0.5 && r.bottom <= b.bottom + 0.5;
  };
  // every wanted (task, language, depth, value) is used once, by a mark
  // whose height in its panel's frame is within 1 % of the value
  var match = function (list, task, mark, frame) {
    var r = mark.getBoundingClientRect(), cy = (r.top + r.bottom) / 2;
    var got = (frame.bottom - cy) / frame.height * 100;
    var lang = mark.getAttribute('data-language');
    var depth = +mark.getAttribute('data-depth');
    if (r.left < frame.left || r.right > frame.right)
      return false;
    for (var i = 0; i < list.length; i++) {
      var w = list[i];
      if (!w.used && w[0] === task && w[1] === lang && w[2] === depth &&
          Math.abs(w[3] - got) < 1)
        return (w.used = true);
    }
    return false;
  };
  var panels = document.querySelectorAll('g.panel');
  var pts = 0, paper = 0, compiled = 0, order = true, n = 0, m = 0;
  for (var i = 0; i < panels.length; i++) {
    var task = panels[i].getAttribute('data-task');
    var frame = panels[i].querySelector('rect').getBoundingClientRect();
    var marks = panels[i].querySelectorAll('circle.point');
    var x = {};  // language -> depth -> left edge (the seeds share it)
    for (var j = 0; j < marks.length; j++, n++) {
      pts += match(want.points, task, marks[j], frame);
      var lang = marks[j].getAttribute('data-language');
      var d = +marks[j].getAttribute('data-depth');
      var r = marks[j].getBoundingClientRect();
      x[lang] = x[lang] || {};
      if (d in x[lang])
        order = order && Math.abs(x[lang][d] - r.left) < 0.5;
      else
        x[lang][d] = r.left;
    }
    for (var l in x) {
      var ds = Object.keys(x[l]).map(Number).sort(function (a, b) { return a - b; });
      for (var q = 1; q < ds.length; q++)
        order = order && x[l][ds[q]] > x[l][ds[q - 1]];
    }
    marks = panels[i].querySelectorAll('circle.paper');
    for (j = 0; j < marks.length; j++, m++)
      paper += match(want.paper, task, marks[j], frame);
    marks = panels[i].querySelectorAll('text.compiled');
    for (j = 0; j < marks.length; j++) {  // its centre, give or take 10px
      r = marks[j].getBoundingClientRect();
      var cy = (r.top + r.bottom) / 2;
      compiled += r.left >= frame.left && r.right <= frame.right &&
        cy >= frame.top - 10 && cy <= frame.bottom + 10;
    }
  }
  var texts = document.querySelectorAll('text'), fits = true;
  for (var k = 0; k < texts.length; k++)
    fits = fits && inside(texts[k].getBoundingClientRect(), svg);
  var p = document.createElement('pre');
  p.textContent = 'RESULT panels=' + panels.length + ' points=' + pts +
    '/' + n + ' paper=' + paper + '/' + m + ' compiled=' + compiled +
    ' order=' + order + ' texts=' + fits + ' END';
  document.body.appendChild(p);
})();
</script>
</body></html>
EOF
	} > "$name.html"
	chrome --dump-dom "file://$PWD/$name.html" > dom.txt ||
		fail "chromium failed: $(tail -3 chrome.err)"
	got=$(sed -n 's/.*<pre>RESULT \(.*\) END<\/pre>.*/\1/p' dom.txt)
	test "$got" = "$(cat "want-$name.txt")" ||
		fail "rendered $name.svg: [$got], wanted [$(cat "want-$name.txt")]"
done

# The command line names the field too.
sed 's/"out":3}/"out":3,"ropes":[]}/' m.json > bad.json
! "$py" "$top_srcdir/contrib/tally_torch.py" bad.json '()' > out.txt \
	2> err.txt || fail "tally_torch.py read bad.json"
want='tally_torch.py: bad.json: layers[0].heads[0].ropes: unknown field'
test "$(cat err.txt)" = "$want" || fail "bad.json: $(cat err.txt)"
exit 0
