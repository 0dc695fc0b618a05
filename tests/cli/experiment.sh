# experiment.sh -- contrib/train.py, the depth experiment on the tally
# package (make experiment): the committed run's datasets, drawn again
# by the tally CLI from the gen options its configuration records, share
# no word between a training (or validation) split and a test split; the
# committed tables and plots are what train.py --report makes of the
# committed table, logs and configuration, and the table's mean and
# standard deviation are those of the seeds' values (Python's statistics
# module); the quick mode (contrib/lk-depth-quick.json, seconds of CPU)
# runs: three seeds per cell, a log and a checkpoint per run, the chosen
# step in the log and the table, --merge of it into an empty directory
# gives it again, a cell run again gives its row again, a
# configuration that differs is refused, a draw with a word in two splits
# is caught (exit 70); and the learning curves render in headless
# Chromium with each run's chosen step where its log puts it.
# The Python: $TALLY_PYTHON, else the first of /usr/bin/python3 and
# python3 that imports torch and numpy; none skips (77), except under CI
# (scripts/bootstrap installs them), where a missing one fails.  No
# extension (no python3 headers) or a sanitizer build skips.
. "$top_srcdir/tests/lib.sh"

missing() {
	test -z "${CI:-}" || fail "CI: $1 (scripts/bootstrap installs it)"
	echo "experiment.sh: $1, skipped"
	exit 77
}
test -z "${TALLY_SANITIZED:-}" || { echo "experiment.sh: sanitizer build, skipped"; exit 77; }
ext=$(dirname "$TALLY")/python/_tally.so
test -f "$ext" || { echo "experiment.sh: no $ext, skipped"; exit 77; }
py=$(for p in ${TALLY_PYTHON:-} /usr/bin/python3 python3; do
	"$p" -c 'import torch, numpy' 2> /dev/null && { echo "$p"; break; }
done) || true
test -n "$py" || missing "no python3 that imports torch and numpy"
PYTHONPATH=$(dirname "$ext"):$top_srcdir/src/python
export PYTHONPATH
EXP=$top_srcdir/corpora/experiments
TRAIN=$top_srcdir/contrib/train.py

# The committed run, through the CLI only: every dataset drawn again.
"$py" - "$TALLY" "$EXP" << 'EOF' || fail "the committed datasets (above)"
import json, subprocess, sys
tally, exp = sys.argv[1:]
with open(exp + "/lk-depth.config.json") as f:
    config = json.load(f)
with open(exp + "/lk-depth.tsv") as f:
    head = f.readline().rstrip("\n").split("\t")
    rows = [dict(zip(head, l.rstrip("\n").split("\t"))) for l in f]
bad = []
for name, kw in config["datasets"].items():
    args = [tally, "gen", "--words", "--format=jsonl", "-q"] + \
        [f"--{k}={v}" for k, v in kw.items()]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"{' '.join(args)}: {r.stderr}")
    words = {}
    for line in r.stdout.splitlines():
        rec = json.loads(line)
        words.setdefault(rec["split"], []).append(rec["word"])
    want = {s.split(":")[0]: int(s.split(":")[2])
            for s in kw["split"].split(",")}
    if {s: len(w) for s, w in words.items()} != want:
        bad.append(f"{name}: split sizes {[(s, len(w)) for s, w in words.items()]}")
    fit = set(words.get("train", [])) | set(words.get("val", []))
    for s, ws in words.items():
        if s.startswith("test") and fit & set(ws):
            bad.append(f"{name}: {len(fit & set(ws))} words of train/val "
                       f"in {s}, e.g. {min(fit & set(ws))}")
    if not fit or not any(s.startswith("test") for s in words):
        bad.append(f"{name}: no training or no test split")
for r in rows:  # every run's dataset is recorded
    key = f"{r['task']}-{r['family']}{r['language'][2:]}-s{r['seed']}"
    if key not in config["datasets"]:
        bad.append(f"run {key}: no dataset in the configuration")
seeds = {}
for r in rows:
    seeds.setdefault((r["task"], r["language"], r["depth"]), set()).add(r["seed"])
bad += [f"{c}: {len(s)} seeds" for c, s in seeds.items() if len(s) < 3]
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF

# The committed tables and plots are train.py --report's of the committed
# data, and the table's statistics are the seeds'.
mkdir committed
cp -r "$EXP/lk-depth.tsv" "$EXP/lk-depth.config.json" "$EXP/logs" committed/
"$py" "$TRAIN" --report --out=committed || fail "train.py --report failed"
for f in lk-depth.md lk-depth.svg lk-curves.svg; do
	cmp -s "$EXP/$f" "committed/$f" ||
		fail "corpora/experiments/$f is not what train.py --report writes"
done
check_stats() {
	"$py" - "$1" << 'EOF' || fail "$1: the table's statistics (above)"
import re, statistics, sys
out = sys.argv[1]
with open(out + "/lk-depth.tsv") as f:
    head = f.readline().rstrip("\n").split("\t")
    rows = [dict(zip(head, l.rstrip("\n").split("\t"))) for l in f]
bins = [h for h in head if h.startswith("acc_")]
task, n, bad = None, 0, []
for line in open(out + "/lk-depth.md"):
    if line.startswith("### "):
        task = line[4:].strip()
    m = re.match(r"\| (L_\d+) \| \**(\d+)\** \| random \| (.*) \|", line)
    if not m:
        continue
    cells = m.group(3).split(" | ")[:len(bins)]
    for b, cell in zip(bins, cells):
        vals = [float(r[b]) for r in sorted(rows, key=lambda r: int(r["seed"]))
                if r["task"] == task and r["language"] == m.group(1)
                and r["depth"] == m.group(2) and r["init"] == "random"]
        want = "%.1f ± %.1f (%s)" % (statistics.mean(vals),
                                     statistics.stdev(vals),
                                     "/".join("%g" % v for v in vals))
        n += 1
        if cell != want:
            bad.append(f"{task} {m.group(1)} depth {m.group(2)} {b}: "
                       f"{cell!r}, the seeds give {want!r}")
print("\n".join(bad))
sys.exit(1 if bad or n == 0 else 0)
EOF
}
check_stats "$EXP"

# The quick mode, as make experiment EXPERIMENT_FLAGS=--quick runs it.
"$py" "$TRAIN" --quick --out=q --device=cpu > q.log 2>&1 ||
	fail "train.py --quick: $(tail -5 q.log)"
check_stats q
"$py" - << 'EOF' || fail "the quick run (above)"
import json, os, sys, torch
rows = [l.rstrip("\n").split("\t") for l in open("q/lk-depth.tsv")]
head, rows = rows[0], [dict(zip(rows[0], r)) for r in rows[1:]]
config = json.load(open("q/lk-depth.config.json"))
bad = []
if len(rows) != 12 or config["seed"] != [1, 2, 3]:
    bad.append(f"{len(rows)} runs, seeds {config['seed']}")
if config["n_train"] != 64 or config["max_steps"] != 12:
    bad.append("the configuration written is not lk-depth-quick.json's")
for r in rows:
    name = (f"{r['task']}-{r['family']}{r['language'][2:]}-d{r['depth']}-"
            f"{r['init']}-{r['loss']}-s{r['seed']}")
    log = [json.loads(l) for l in open(f"q/logs/{name}.jsonl")]
    steps = [e["step"] for e in log if e["split"] == "train"]
    vals = [e for e in log if e["split"] == "val"]
    chosen = [e for e in log if e["split"] == "chosen"]
    if steps != list(range(1, len(steps) + 1)) or not steps:
        bad.append(f"{name}: training steps {steps}")
    if len(chosen) != 1 or str(chosen[0]["step"]) != r["chosen_step"] or \
            chosen[0]["step"] not in [e["step"] for e in vals]:
        bad.append(f"{name}: chosen {chosen}, table {r['chosen_step']}")
    elif chosen[0]["acc"] != max(e["acc"] for e in vals) or \
            abs(float(r["val_acc"]) - chosen[0]["acc"]) > 0.0501:
        bad.append(f"{name}: the chosen step's validation accuracy "
                   f"{chosen[0]['acc']} is not the best, or not the table's")
    ck = torch.load(f"q/checkpoints/{name}.pt")
    if ck["step"] != chosen[0]["step"] or not ck["state"]:
        bad.append(f"{name}: checkpoint of step {ck['step']}")
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF

# --merge (runs side by side joined, as the committed run was): the
# quick run merged into an empty directory is the same table,
# configuration, logs and report.
"$py" "$TRAIN" --merge q --out=m > merge.log 2>&1 ||
	fail "--merge: $(tail -3 merge.log)"
for f in lk-depth.tsv lk-depth.config.json lk-depth.md lk-curves.svg; do
	cmp -s "q/$f" "m/$f" || fail "--merge: m/$f differs from q/$f"
done
diff -r q/logs m/logs > /dev/null || fail "--merge: the logs differ"

# One cell again (the per-cell options): its row comes back the same.
cp q/lk-depth.tsv q.tsv
"$py" "$TRAIN" --quick --out=q --device=cpu --k=3 --task=recognition \
	--depth=2 --seed=2 > cell.log 2>&1 || fail "one cell: $(tail -3 cell.log)"
"$py" - << 'EOF' || fail "the cell run again differs (above)"
import sys
def rows(p):
    lines = [l.rstrip("\n").split("\t") for l in open(p)]
    keep = [i for i, h in enumerate(lines[0]) if not h.endswith("_s")]
    return sorted(tuple(r[i] for i in keep) for r in lines[1:])
a, b = rows("q.tsv"), rows("q/lk-depth.tsv")
if a != b:
    print("before:", sorted(set(a) - set(b)), "after:", sorted(set(b) - set(a)))
    sys.exit(1)
EOF
# Another configuration into the same directory is refused.
! "$py" "$TRAIN" --quick --out=q --lengths=10..15,16..20 > other.log 2>&1 ||
	fail "cells of other lengths were added to the table"
grep -q 'holds cells of another configuration (lengths differ)' other.log ||
	fail "the refusal: $(cat other.log)"

# A draw in which a test word is also a training word is caught.
"$py" - "$TRAIN" << 'EOF' || fail "a shared word was not caught"
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("train", sys.argv[1])
train = importlib.util.module_from_spec(spec)
spec.loader.exec_module(train)
c = json.load(open(train.HERE + "/lk-depth-quick.json"))
real = train.tally.generate
def leaky(**kw):
    d = real(**kw)
    i = list(d.split).index("train")
    j = list(d.split).index("test")
    d.words[j], d.positions[j] = d.words[i], d.positions[i]
    return d
train.dataset(c, "prediction", 3, 1)  # the real draw passes
train.tally.generate = leaky
try:
    train.dataset(c, "prediction", 3, 1)
except train.DataError as e:
    sys.exit(0 if "in both train and test" in str(e) else f"said: {e}")
sys.exit("the leaky draw passed")
EOF

# The learning curves in the browser: two panels per (task, language);
# each run's chosen step a dot at (step, validation accuracy) of its log
# within 1 % of the axes; every curve inside its panel; every text inside
# the picture.
chromium_find
test -n "$browser" || missing "no Chromium"
for out in q "$EXP"; do
	"$py" - "$out" << 'EOF' > want.js || fail "$out: the logs"
import json, os, sys
out = sys.argv[1]
lines = [l.rstrip("\n").split("\t") for l in open(out + "/lk-depth.tsv")]
rows = [dict(zip(lines[0], r)) for r in lines[1:]]
want = []
for r in rows:
    name = (f"{r['task']}-{r['family']}{r['language'][2:]}-d{r['depth']}-"
            f"{r['init']}-{r['loss']}-s{r['seed']}")
    log = [json.loads(l) for l in open(f"{out}/logs/{name}.jsonl")]
    ch = [e for e in log if e["split"] == "chosen"][0]
    want.append([r["task"], r["language"], r["depth"], r["seed"],
                 ch["step"], ch["acc"]])
print("var want = %s;" % json.dumps(want))
print("var panels = %d;" % (2 * len({(r['task'], r['language']) for r in rows})))
EOF
	{
		printf '<!DOCTYPE html><html><body style="margin:0">\n'
		cat "$out/lk-curves.svg"
		printf '<script>\n'
		cat want.js
		cat << 'EOF'
(function () {
  var inside = function (r, b) {
    return r.left >= b.left - 1 && r.right <= b.right + 1 &&
      r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
  };
  var svg = document.querySelector('svg').getBoundingClientRect();
  var gs = document.querySelectorAll('g.panel'), dots = 0, curves = 0;
  var fits = true, runs = 0;
  for (var i = 0; i < gs.length; i++) {
    var g = gs[i], frame = g.querySelector('rect').getBoundingClientRect();
    var steps = +g.getAttribute('data-steps');
    var lines = g.querySelectorAll('polyline.curve');
    for (var j = 0; j < lines.length; j++, curves++)
      fits = fits && inside(lines[j].getBoundingClientRect(), frame);
    var cs = g.querySelectorAll('circle.chosen');
    for (j = 0; j < cs.length; j++) {
      var r = cs[j].getBoundingClientRect();
      var step = ((r.left + r.right) / 2 - frame.left) / frame.width * steps;
      var acc = (frame.bottom - (r.top + r.bottom) / 2) / frame.height * 100;
      for (var k = 0; k < want.length; k++) {
        var w = want[k];
        if (!w.used && w[0] === g.getAttribute('data-task') &&
            w[1] === g.getAttribute('data-language') &&
            w[2] === cs[j].getAttribute('data-depth') &&
            w[3] === cs[j].getAttribute('data-seed') &&
            Math.abs(w[4] - step) <= steps / 100 && Math.abs(w[5] - acc) <= 1) {
          w.used = true;
          dots++;
          break;
        }
      }
    }
  }
  var texts = document.querySelectorAll('text');
  for (k = 0; k < texts.length; k++)
    fits = fits && inside(texts[k].getBoundingClientRect(), svg);
  var p = document.createElement('pre');
  p.textContent = 'RESULT panels=' + gs.length + ' dots=' + dots +
    ' curves=' + curves + ' fits=' + fits + ' END';
  document.body.appendChild(p);
})();
</script></body></html>
EOF
	} > curves.html
	n=$(grep -c . "$out/lk-depth.tsv")
	n=$((n - 1))
	panels=$(sed -n 's/var panels = \(.*\);/\1/p' want.js)
	CHROME_SIZE=1400,1400 chrome --dump-dom "file://$PWD/curves.html" > dom.txt ||
		fail "chromium failed: $(tail -3 chrome.err)"
	got=$(sed -n 's/.*<pre>RESULT \(.*\) END<\/pre>.*/\1/p' dom.txt)
	test "$got" = "panels=$panels dots=$n curves=$((2 * n)) fits=true" ||
		fail "$out/lk-curves.svg rendered: [$got], wanted [panels=$panels dots=$n curves=$((2 * n)) fits=true]"
done
exit 0
