#!/usr/bin/env python3
"""Knee-Deep's depth experiment, small: standard causal transformers of
depth 1..5 trained on L_k (Yang, Cadilhac & Chiang 2025, section 5 and
figure 2), and the same tasks started from tally compile's weights.

Usage: train.py [--tally=PATH] [--out=DIR] [--quick] [--seeds=1,2]
       train.py --report [--out=DIR]       (tables and plot of a run)
       train.py --plot=TSV --svg=FILE      (the plot alone)

Tasks, for k = 3, 4, 5, on words over a, b (L_k: k alternating blocks
a+ b+ a+ ..., starting with a):
  prediction   the words are members of L_k; the label at every
               position is whether the prefix is in L_k.  This is
               Knee-Deep's next-token task: on a prefix of a member the
               letters that may follow are the current one and either
               the other letter (the prefix is not in L_k) or the end
               (it is), so one bit says which.  A C-RASP program of
               depth k-2 solves it.
  recognition  the words are members and non-members, half and half at
               every length (tally gen's sample: nine in ten are
               members with letters swapped, the same length and where
               possible the same letter counts and last letter); the
               label at every position is whether the prefix is in L_k.
               Needs depth k.
Words and labels come from `tally gen --family=lk --k=K --words
--sample=N --labels=position` (the verdict of L_k's formula on every
prefix; --ratio=1:0 for members only), checked again by `tally eval
--check-labels`, never from the models.

Models: torch's nn.TransformerEncoder (post-norm layers, ReLU, no
dropout) of depth 1..5 under a causal mask, no positional encoding
(NoPE, as in the paper), a BOS token, a linear read-out per position;
trained with Adam on the binary cross-entropy of every position; a word
is right when every position is (the paper's measure).  Also, per task,
the model `tally compile` builds for the task's formula, loaded with
contrib/tally_torch.py in float32 (gate slope 2^9, enough for 160
letters; read-out rescaled to logits 10 (o - 1/2), the same verdicts):
accuracy before and after the same training, and after the same
training on the hinge loss max(0, 1 - y z) instead of cross-entropy
(zero, with a zero gradient, at the compiled weights).

Writes, in DIR: lk-depth.tsv (one row per run), lk-depth.config.json
(the configuration, seeds, CPU and wall time), lk-depth.md (the tables
beside the paper's figures) and lk-depth.svg (the plot); --report
rewrites the last two from the first two.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import time

import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tally_torch  # noqa: E402

CONFIG = dict(d_model=32, heads=2, ff=64, lr=1e-3, batch=32, epochs=12,
              n_train=1600, n_test=200, train=(10, 40),
              tests=[(10, 40), (41, 80), (81, 160)], langs=[3, 4, 5],
              depths=[1, 2, 3, 4, 5], tasks=["prediction", "recognition"],
              seeds=[1], threads=1, gate_slope=512)
QUICK = dict(CONFIG, n_train=96, n_test=24, epochs=1, depths=[1, 2],
             langs=[3], tests=[(10, 40), (41, 60)])
# Knee-Deep, figure 2 (arXiv 2506.16055v2, HTML): prediction task,
# accuracy in % by depth (from depth 3 on, 100 for all three).
PAPER = {3: [100.0, 100.0, 100.0, 100.0, 100.0],
         4: [21.7, 100.0, 100.0, 100.0, 100.0],
         5: [11.3, 50.64, 100.0, 100.0, 100.0]}
LEAST = {"prediction": lambda k: k - 2, "recognition": lambda k: k}
BOS = 2


class Tally:
    def __init__(self, path):
        self.path = path

    def run(self, args, lines=()):
        r = subprocess.run([self.path] + args, capture_output=True, text=True,
                           input="".join(w + "\n" for w in lines))
        if r.returncode not in (0, 1):
            sys.exit(f"train.py: tally {' '.join(args)}: {r.stderr.strip()}")
        return r.stdout

    def formula(self, family, k):
        return self.run(["gen", "--family=" + family, f"--k={k}"]).strip()

    def sample(self, k, lo, hi, n, seed, members):
        """n words of L_k's sample (members only, or half near misses)
        and the verdict of L_k's formula on every nonempty prefix, both
        from tally gen; the labels checked again by tally eval."""
        out = self.run(["gen", "--family=lk", f"--k={k}", "--words",
                        f"--sample={n}", f"--min-length={lo}",
                        f"--max-length={hi}", f"--seed={seed}",
                        "--labels=position", "--format=jsonl", "-q"] +
                       (["--ratio=1:0"] if members else []))
        self.check_labels(self.formula("lk", k), out)
        rows = [json.loads(line) for line in out.splitlines()]
        if len(rows) != n:
            sys.exit(f"train.py: tally gen gave {len(rows)} words, not {n}")
        return [r["word"] for r in rows], [r["labels"][1:] for r in rows]

    def check_labels(self, formula, jsonl):
        r = subprocess.run([self.path, "eval", "--check-labels", "-f",
                            formula], input=jsonl, capture_output=True,
                           text=True)
        if r.returncode:
            sys.exit(f"train.py: tally eval --check-labels: {r.stdout}"
                     f"{r.stderr}")


def dataset(tally, task, k, lo, hi, n, seed):
    """n words and their per-position labels (lists of 0/1): members of
    L_k for the prediction task, members and near misses (half and
    half at every length) for recognition."""
    return tally.sample(k, max(lo, k), hi, n, seed, task == "prediction")


def batches(words, labels, size, shuffle=None):
    """(ids, labels, mask) tensors, right-padded: letter ids a=0, b=1."""
    order = list(range(len(words)))
    if shuffle:
        shuffle.shuffle(order)
    for at in range(0, len(order), size):
        part = order[at:at + size]
        n = max(len(words[i]) for i in part)
        ids = torch.zeros(len(part), n, dtype=torch.int64)
        lab = torch.zeros(len(part), n)
        mask = torch.zeros(len(part), n, dtype=torch.bool)
        for r, i in enumerate(part):
            m = len(words[i])
            ids[r, :m] = torch.tensor(["ab".index(c) for c in words[i]])
            lab[r, :m] = torch.tensor(labels[i], dtype=torch.float)
            mask[r, :m] = True
        yield ids, lab, mask


class CausalTransformer(nn.Module):
    """Embedding of a, b and BOS; nn.TransformerEncoder under a causal
    mask, no positional encoding; a logit per position."""

    def __init__(self, depth, c):
        super().__init__()
        self.embed = nn.Embedding(3, c["d_model"])
        layer = nn.TransformerEncoderLayer(c["d_model"], c["heads"], c["ff"],
                                           dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, depth,
                                             enable_nested_tensor=False)
        self.out = nn.Linear(c["d_model"], 1)

    def forward(self, ids, mask):
        B, n = ids.shape
        x = torch.cat((torch.full((B, 1), BOS), ids), 1)
        pad = torch.cat((torch.zeros(B, 1, dtype=torch.bool), ~mask), 1)
        causal = torch.triu(torch.full((n + 1, n + 1), float("-inf")), 1)
        h = self.encoder(self.embed(x), mask=causal, src_key_padding_mask=pad)
        return self.out(h)[:, 1:, 0]


class Compiled(nn.Module):
    """A tally_torch model with its read-out rescaled to logits
    10 (o - 1/2): the verdicts of a Boolean output o unchanged."""

    def __init__(self, path, slope=None):
        super().__init__()
        self.m = tally_torch.load_model(path, torch.float32,
                                        gate_slope=slope)
        if self.m.alphabet != ["a", "b"]:
            sys.exit(f"train.py: {path}: alphabet {self.m.alphabet}")
        with torch.no_grad():
            self.m.out.weight.mul_(10)
            self.m.out.bias.mul_(10).sub_(5)

    def forward(self, ids, mask):
        return self.m.scores(ids, mask)[:, 1:]


def accuracy(model, words, labels, c):
    """The share of words right at every position, in %."""
    right = 0
    with torch.no_grad():
        for ids, lab, mask in batches(words, labels, 4 * c["batch"]):
            bits = (model(ids, mask) > 0).float()
            right += int(((bits == lab) | ~mask).all(1).sum())
    return 100.0 * right / len(words)


def hinge(logits, lab):
    """max(0, 1 - y z), y = +-1: zero, with a zero gradient, once every
    position is right by a margin of 1."""
    return torch.relu(1 - (2 * lab - 1) * logits)


LOSSES = {"bce": nn.BCEWithLogitsLoss(reduction="none"), "hinge": hinge}


def train(model, data, c, seed, loss="bce"):
    rng = random.Random(seed)
    opt = torch.optim.Adam(model.parameters(), c["lr"])
    loss_fn = LOSSES[loss]
    last = torch.tensor(0.0)
    for _ in range(c["epochs"]):
        for ids, lab, mask in batches(*data, c["batch"], rng):
            logits = model(ids, mask)
            last = (loss_fn(logits, lab) * mask).sum() / mask.sum()
            opt.zero_grad()
            last.backward()
            opt.step()
    return float(last)


def run(tally, c, out):
    """Every run of the configuration; the TSV is rewritten after each, so
    that a run cut short keeps what it finished."""
    torch.set_num_threads(c["threads"])
    rows = []
    tsv = os.path.join(out, "lk-depth.tsv")
    for task in c["tasks"]:
        for k in c["langs"]:
            for seed in c["seeds"]:
                train_set = dataset(tally, task, k, *c["train"],
                                    c["n_train"], 1000 * seed + 1)
                tests = [dataset(tally, task, k, lo, hi, c["n_test"],
                                 1000 * seed + 2 + i)
                         for i, (lo, hi) in enumerate(c["tests"])]
                for depth in c["depths"]:
                    torch.manual_seed(seed)
                    rows.append(one(CausalTransformer(depth, c), "random",
                                    task, k, depth, seed, train_set, tests,
                                    c))
                    print_row(rows[-1], c)
                    write_tsv(rows, c, tsv)
                formula = tally.formula("lk-predict" if task == "prediction"
                                        else "lk", k)
                path = os.path.join(out, f".lk{k}-{task}.json")
                with open(path, "w") as f:
                    f.write(tally.run(["compile", "-f", formula,
                                       "--alphabet=ab"]))
                for loss in ("bce", "hinge"):
                    model = Compiled(path, c["gate_slope"])
                    before = [accuracy(model, *t, c) for t in tests]
                    rows.append(one(model, "compiled", task, k,
                                    len(model.m.layers), seed, train_set,
                                    tests, c, before, loss))
                    print_row(rows[-1], c)
                    write_tsv(rows, c, tsv)
                os.remove(path)
    return rows


def one(model, init, task, k, depth, seed, train_set, tests, c, before=None,
        loss="bce"):
    t0, c0 = time.time(), time.process_time()
    start = [p.detach().clone() for p in model.parameters()]
    final = train(model, train_set, c, seed, loss)
    moved = max(float((p.detach() - q).abs().max())
                for p, q in zip(model.parameters(), start) if p.numel())
    return dict(task=task, k=k, depth=depth, init=init, seed=seed,
                loss_fn=loss, params=sum(p.numel() for p in
                                         model.parameters()),
                loss=final, moved=moved,
                acc=[accuracy(model, *t, c) for t in tests],
                before=before, wall=time.time() - t0,
                cpu=time.process_time() - c0)


def print_row(r, c):
    accs = " ".join(f"{a:5.1f}" for a in r["acc"])
    print(f"{r['task']:11} L_{r['k']} depth {r['depth']} {r['init']:8} "
          f"{r['loss_fn']:5} seed {r['seed']}: {accs}  (weights moved "
          f"{r['moved']:.3g}; {r['cpu']:.0f} s CPU)", flush=True)


COLUMNS = ["task", "language", "depth", "init", "loss", "seed",
           "parameters", "final_loss", "max_weight_change", "wall_s",
           "cpu_s"]


def write_tsv(rows, c, path):
    bins = [f"acc_{lo}_{hi}" for lo, hi in c["tests"]]
    with open(path, "w") as f:
        f.write("\t".join(COLUMNS + bins + ["before_" + b for b in bins])
                + "\n")
        for r in rows:
            cells = [r["task"], f"L_{r['k']}", r["depth"], r["init"],
                     r["loss_fn"], r["seed"], r["params"], f"{r['loss']:.4g}",
                     f"{r['moved']:.3g}", f"{r['wall']:.1f}",
                     f"{r['cpu']:.1f}"]
            cells += [f"{a:.1f}" for a in r["acc"]]
            cells += [f"{a:.1f}" for a in r["before"]] if r["before"] \
                else ["" for _ in bins]
            f.write("\t".join(map(str, cells)) + "\n")


def read_tsv(path):
    with open(path) as f:
        head = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(head, line.rstrip("\n").split("\t"))) for line in f]
    bins = [h for h in head if h.startswith("acc_")]
    return rows, bins


def write_md(path, tsv, c, total):
    rows, bins = read_tsv(tsv)
    last = bins[-1]
    lines = [f"Sequence accuracy (%, every position right) on the longest "
             f"test words ({last[4:].replace('_', '..')} letters; trained "
             f"on {c['train'][0]}..{c['train'][1]}), by depth; seed(s) "
             f"{', '.join(map(str, c['seeds']))}.", ""]
    for task in c["tasks"]:
        lines += [f"### {task}", "",
                  "| language | " + " | ".join(f"depth {d}" for d in
                                               c["depths"]) +
                  " | tally compile, depth: before → after training "
                  "(cross-entropy; hinge) |",
                  "|---" * (len(c["depths"]) + 2) + "|"]
        for k in c["langs"]:
            cells = []
            for d in c["depths"]:
                got = [float(r[last]) for r in rows if r["task"] == task and
                       r["language"] == f"L_{k}" and r["init"] == "random"
                       and int(r["depth"]) == d]
                cell = "/".join(f"{g:.1f}" for g in got) or "-"
                if task == "prediction" and k in PAPER:
                    cell += f" ({PAPER[k][d - 1]:g})"
                if d == LEAST[task](k):
                    cell = f"**{cell}**"
                cells.append(cell)
            comp = [r for r in rows if r["task"] == task and
                    r["language"] == f"L_{k}" and r["init"] == "compiled"]
            cc = "; ".join(f"{r['before_' + last]} → {r[last]}"
                           for r in comp) or "-"
            if comp:
                cc = f"{comp[0]['depth']}: {cc}"
            lines.append(f"| L_{k} | " + " | ".join(cells) + f" | {cc} |")
        lines.append("")
    lines.append("In parentheses: Knee-Deep's figure 2 (prediction task); "
                 "in bold: the least depth the theory allows.  Total "
                 f"{total / 60:.0f} min of CPU.")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


# ---- the plot: SVG written by hand (no plotting library) -------------------

COLOURS = {3: "#1b6ca8", 4: "#d1495b", 5: "#2e8540"}


def svg_plot(tsv, path):
    """Accuracy on the longest test words against depth, one panel per
    task, one line per language; the paper's figure-2 points hollow;
    the compiled model a star at its depth; the theory's least depth a
    dashed mark."""
    rows, bins = read_tsv(tsv)
    last = bins[-1]
    tasks = sorted({r["task"] for r in rows}, key=lambda t: t != "prediction")
    depths = sorted({int(r["depth"]) for r in rows if r["init"] == "random"})
    langs = sorted({int(r["language"][2:]) for r in rows})
    W, H, pw, ph, left, top = 900, 460, 360, 270, 70, 64
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" '
           f'height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" '
           'font-size="13">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="24" text-anchor="middle" font-size="16" '
           f'font-weight="bold">L_k: accuracy on words of '
           f'{last[4:].replace("_", "..")} letters by depth (trained on '
           f'shorter words)</text>']
    dmax = max(depths + [5])
    for p, task in enumerate(tasks):
        x0 = left + p * (pw + 90)
        X = lambda d: x0 + (d - 0.5) / dmax * pw  # noqa: E731
        Y = lambda a: top + ph - a / 100 * ph  # noqa: E731
        out.append(f'<g class="panel" data-task="{task}">')
        out.append(f'<text x="{x0 + pw / 2}" y="{top - 12}" '
                   f'text-anchor="middle" font-weight="bold">{task}</text>')
        out.append(f'<rect x="{x0}" y="{top}" width="{pw}" height="{ph}" '
                   'fill="none" stroke="#444"/>')
        for a in range(0, 101, 25):
            out.append(f'<line x1="{x0}" x2="{x0 + pw}" y1="{Y(a)}" '
                       f'y2="{Y(a)}" stroke="#ddd"/>')
            out.append(f'<text x="{x0 - 6}" y="{Y(a) + 4}" '
                       f'text-anchor="end">{a}%</text>')
        for d in depths:
            out.append(f'<text x="{X(d)}" y="{top + ph + 18}" '
                       f'text-anchor="middle">{d}</text>')
        out.append(f'<text x="{x0 + pw / 2}" y="{top + ph + 38}" '
                   'text-anchor="middle">depth (layers)</text>')
        for j, k in enumerate(langs):
            col = COLOURS.get(k, "#555")
            off = (j - (len(langs) - 1) / 2) * 7  # languages side by side
            X = lambda d: x0 + (d - 0.5) / dmax * pw + off  # noqa: E731,E306
            least = LEAST[task](k)
            if 1 <= least <= dmax:
                out.append(f'<line class="least" x1="{X(least)}" '
                           f'x2="{X(least)}" y1="{top}" y2="{top + ph}" '
                           f'stroke="{col}" stroke-dasharray="4 4" '
                           'opacity="0.6"/>')
            pts = []
            for d in depths:
                got = [float(r[last]) for r in rows if r["task"] == task and
                       int(r["language"][2:]) == k and
                       r["init"] == "random" and int(r["depth"]) == d]
                if got:
                    pts.append((X(d), Y(sum(got) / len(got))))
                for g in got:  # each seed
                    out.append(f'<circle class="point" data-language="L_{k}"'
                               f' data-depth="{d}" cx="{X(d):.1f}" '
                               f'cy="{Y(g):.1f}" r="3.5" fill="{col}"/>')
            if pts:  # the mean over the seeds
                out.append('<polyline fill="none" stroke="{}" '
                           'stroke-width="2" points="{}"/>'.format(
                               col, " ".join(f"{x:.1f},{y:.1f}"
                                             for x, y in pts)))
            if task == "prediction" and k in PAPER:
                for d in depths:
                    if d <= len(PAPER[k]):
                        out.append(f'<circle class="paper" data-language='
                                   f'"L_{k}" data-depth="{d}" '
                                   f'cx="{X(d):.1f}" '
                                   f'cy="{Y(PAPER[k][d - 1]):.1f}" r="7" '
                                   f'fill="none" stroke="{col}"/>')
            for r in rows:
                if r["task"] == task and int(r["language"][2:]) == k and \
                        r["init"] == "compiled":
                    out.append(compiled_mark(r, X(int(r["depth"])),
                                             Y(float(r[last])), col,
                                             x0 + pw))
        out.append("</g>")
    ly = H - 44
    x = left
    for k in langs:
        col = COLOURS.get(k, "#555")
        out.append(f'<line x1="{x}" x2="{x + 22}" y1="{ly - 4}" '
                   f'y2="{ly - 4}" stroke="{col}" stroke-width="2"/>')
        out.append(f'<text x="{x + 28}" y="{ly}">L_{k}</text>')
        x += 70
    out.append(f'<text x="{x}" y="{ly}">&#9679; trained from random '
               '(one per seed; line: their mean) &#160; &#9675; Knee-Deep '
               'fig. 2</text>')
    out.append(f'<text x="{left}" y="{ly + 20}">tally compile\'s weights '
               'trained: &#9733; hinge loss, &#9734; cross-entropy &#160; '
               'dashed: least depth in theory (k-2; k)</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def compiled_mark(r, x, y, col, right):
    """A run from tally compile's weights: a star right of its depth's
    points (left of them at the frame's edge), filled after the hinge
    loss, hollow and further out after cross-entropy."""
    hinge = r.get("loss", "bce") == "hinge"
    off = 14 if hinge else 28
    x = x + off if x + off + 12 <= right else x - off  # inside the frame
    star = "&#9733;" if hinge else "&#9734;"
    return (f'<text class="compiled" data-language="{r["language"]}" '
            f'data-depth="{r["depth"]}" data-loss="{r.get("loss", "bce")}" '
            f'x="{x:.1f}" y="{y + 6:.1f}" fill="{col}" '
            f'text-anchor="middle" font-size="16">{star}</text>')


def report(out):
    """lk-depth.md and lk-depth.svg from a run's TSV and configuration."""
    with open(os.path.join(out, "lk-depth.config.json")) as f:
        c = json.load(f)
    c["tests"] = [tuple(t) for t in c["tests"]]
    tsv = os.path.join(out, "lk-depth.tsv")
    write_md(os.path.join(out, "lk-depth.md"), tsv, c, c["cpu_s"])
    svg_plot(tsv, os.path.join(out, "lk-depth.svg"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tally", default=os.environ.get("TALLY", "tally"))
    ap.add_argument("--out", default="corpora/experiments")
    ap.add_argument("--quick", action="store_true",
                    help="a smoke run: tiny data, depths 1-2, L_3")
    ap.add_argument("--seeds", default=None)
    ap.add_argument("--report", action="store_true",
                    help="only rewrite lk-depth.md and lk-depth.svg from "
                    "the run in --out")
    ap.add_argument("--plot", metavar="TSV")
    ap.add_argument("--svg", metavar="FILE")
    a = ap.parse_args()
    if a.plot:
        svg_plot(a.plot, a.svg or os.path.splitext(a.plot)[0] + ".svg")
        return
    if a.report:
        report(a.out)
        return
    c = dict(QUICK if a.quick else CONFIG)
    if a.seeds:
        c["seeds"] = [int(s) for s in a.seeds.split(",")]
    os.makedirs(a.out, exist_ok=True)
    t0, w0 = time.process_time(), time.time()
    run(Tally(a.tally), c, a.out)
    with open(os.path.join(a.out, "lk-depth.config.json"), "w") as f:
        json.dump(dict(c, torch=torch.__version__,
                       cpu_s=round(time.process_time() - t0),
                       wall_s=round(time.time() - w0),
                       machine=f"{os.cpu_count()} cores, "
                       f"{c['threads']} torch thread(s)"), f, indent=1)
        f.write("\n")
    report(a.out)


if __name__ == "__main__":
    main()
