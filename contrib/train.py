#!/usr/bin/env python3
"""Knee-Deep's depth experiment, small: standard causal transformers
trained on L_k by depth (Yang, Cadilhac & Chiang 2025, section 5 and
figure 2), on data from the tally package (`import tally`, in-process).

Usage: train.py [--config=FILE] [--quick] [--out=DIR] [--family=F]
                [--k=3,4] [--task=prediction,recognition] [--depth=1,2]
                [--seed=1,2,3] [--lengths=TRAIN,TEST,...] [--init=I]
                [--loss=L] [--device=auto|cpu|cuda] [--threads=N]
       train.py --report [--out=DIR]     (tables and plots of a run)
       train.py --merge DIR... [--out=DIR]  (runs side by side, joined)
       train.py --plot=TSV --svg=FILE    (the accuracy plot alone)

The grid and the hyper-parameters come from a JSON config file
(default contrib/lk-depth.json; --quick: contrib/lk-depth-quick.json);
the options above override its keys (--k=4 --task=prediction --depth=2
--seed=1 is one cell).  A cell is (task, family, k, depth, seed).

Data, per (task, k, seed): ONE `tally gen` draw (tally.generate) with
--split=train:A..B:N,val:A..B:V,test:A..B:T,test_C_D:C..D:T,... where
A..B is the first range of --lengths and C..D the others: the splits
are disjoint by construction (gen never writes a word twice), and
checked here again (exit 70 on a shared word), as is every label (the
formula's value on every prefix, recomputed by tally's evaluator) and
every length.  --seed is gen's seed, torch's and the shuffling's.
  prediction   members of L_k only (--ratio=1:0); the label at every
               position says whether the prefix is in L_k: Knee-Deep's
               next-token task in one bit.  Depth k-2 suffices.
  recognition  members and gen's non-members, half and half at every
               length; the same per-position labels.  Needs depth k.

Model: an embedding of the letters and BOS, torch's
nn.TransformerEncoder (post-norm, ReLU, no dropout) under a causal mask,
no positional encoding, a linear read-out per position; --init=compiled
starts from `tally compile`'s model of the task's formula instead
(tally_torch in float32, read-out rescaled to logits 10 (o - 1/2)).
Training: Adam on the binary cross-entropy (--loss=hinge: max(0,
1 - y z)) of every position, at most max_steps batches; every
eval_every steps the validation split's sequence accuracy, and the
checkpoint with the best (accuracy, then lowest loss) is kept; training
stops after `patience` evaluations without a better accuracy.  The tests
are scored with that checkpoint (the chosen step is recorded).  A word
is right when every position is.

Writes in DIR: lk-depth.tsv (one row per cell; a cell run again
replaces its row), lk-depth.config.json (the configuration the cells
ran with, the datasets' gen options, torch's version, device, CPU
time), logs/CELL.jsonl (per step: training loss and accuracy of the
batch; per evaluation: the validation split's), checkpoints/CELL.pt,
lk-depth.md (mean +- sd over the seeds, beside the paper's figure),
lk-depth.svg (accuracy by depth) and lk-curves.svg (learning curves).
A configuration that differs from the one DIR's cells ran with is
refused (use another --out).
"""
import argparse
import json
import math
import os
import random
import shutil
import sys
import time

import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # tally_torch, for Model.to_torch (compiled)

try:
    import tally  # noqa: E402
except ImportError as e:  # the plots and tables need no tally
    tally, NO_TALLY = None, str(e)

# Knee-Deep, figure 2 (arXiv 2506.16055v2, HTML): prediction task,
# accuracy in % by depth 1..5 (as the issue quotes it).
PAPER = {3: [100.0, 100.0, 100.0, 100.0, 100.0],
         4: [21.7, 100.0, 100.0, 100.0, 100.0],
         5: [11.3, 50.64, 100.0, 100.0, 100.0]}
LEAST = {"prediction": lambda k: k - 2, "recognition": lambda k: k}
# the keys that select cells; the others are hyper-parameters, which
# every cell of one output directory must share
GRID = ("k", "task", "depth", "seed")
RUNTIME = ("threads", "device", "about")


class DataError(Exception):
    """A dataset that breaks a promise (exit 70: a check disagreed)."""


def ranges(text):
    """'21..30,31..40' -> [(21, 30), (31, 40)]."""
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition("..")
        if not lo.isdigit() or not hi.isdigit() or int(lo) > int(hi):
            raise ValueError(f"--lengths: {part!r} is not N..M")
        out.append((int(lo), int(hi)))
    return out


def split_names(c):
    """(name, lo, hi, count) of every split of a dataset."""
    (lo, hi), *tests = ranges(c["lengths"])
    return ([("train", lo, hi, c["n_train"]), ("val", lo, hi, c["n_val"]),
             ("test", lo, hi, c["n_test"])] +
            [(f"test_{a}_{b}", a, b, c["n_test"]) for a, b in tests])


def gen_options(c, task, k, seed):
    """tally gen's options for the dataset of (task, k, seed), as
    keywords of tally.generate (the config records them)."""
    kw = dict(family=c["family"], k=k, labels="position", seed=seed,
              split=",".join(f"{n}:{lo}..{hi}:{m}"
                             for n, lo, hi, m in split_names(c)))
    if task == "prediction":
        kw["ratio"] = "1:0"
    return kw


def formula(family, k):
    return tally.parse(tally.run("gen", "--family=" + family,
                                 f"--k={k}")[1].strip())


def dataset(c, task, k, seed):
    """{split: (words, labels)} of one gen draw, checked: the splits
    pairwise disjoint, every length in its split's range, the counts,
    every label the formula's value on its prefix, members only for
    prediction."""
    d = tally.generate(**gen_options(c, task, k, seed))
    words = [w.decode() for w in d.words]
    out = {}
    for name, lo, hi, n in split_names(c):
        at = [i for i in range(len(words)) if d.split[i] == name]
        ws = [words[i] for i in at]
        labs = [[int(b) for b in d.positions[i][1:]] for i in at]
        if len(ws) != n:
            raise DataError(f"{name}: {len(ws)} words, not {n}")
        bad = [w for w in ws if not lo <= len(w) <= hi]
        if bad:
            raise DataError(f"{name}: {bad[0]!r} outside {lo}..{hi}")
        out[name] = (ws, labs)
    names = list(out)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            shared = set(out[a][0]) & set(out[b][0])
            if shared:
                raise DataError(f"{len(shared)} words in both {a} and {b}, "
                                f"e.g. {min(shared)!r}")
    f = formula(c["family"], k)
    for name, (ws, labs) in out.items():
        truth = f.positions(ws, alphabet="ab")
        for w, lab, t in zip(ws, labs, truth):
            if lab != [int(x) for x in t]:
                raise DataError(f"{name}: {w!r}: gen's labels {lab}, the "
                                f"evaluator's {[int(x) for x in t]}")
            if task == "prediction" and not lab[-1]:
                raise DataError(f"{name}: {w!r} is not a member")
    return out


def tensors(words, labels, device):
    """(ids, labels, mask), right-padded, letter ids a=0, b=1."""
    n = max(len(w) for w in words)
    ids = torch.zeros(len(words), n, dtype=torch.int64)
    lab = torch.zeros(len(words), n)
    mask = torch.zeros(len(words), n, dtype=torch.bool)
    for r, w in enumerate(words):
        ids[r, :len(w)] = torch.tensor(["ab".index(x) for x in w])
        lab[r, :len(w)] = torch.tensor(labels[r], dtype=torch.float)
        mask[r, :len(w)] = True
    return ids.to(device), lab.to(device), mask.to(device)


def rows_of(data, at):
    """The batch of rows `at`, cut to its longest word."""
    ids, lab, mask = data
    part = torch.as_tensor(at, device=ids.device)
    n = int(mask[part].sum(1).max())
    return ids[part, :n], lab[part, :n], mask[part, :n]


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
        x = torch.cat((torch.full((B, 1), 2, device=ids.device), ids), 1)
        pad = torch.cat((torch.zeros(B, 1, dtype=torch.bool,
                                     device=ids.device), ~mask), 1)
        causal = torch.triu(torch.full((n + 1, n + 1), float("-inf"),
                                       device=ids.device), 1)
        h = self.encoder(self.embed(x), mask=causal, src_key_padding_mask=pad)
        return self.out(h)[:, 1:, 0]


class Compiled(nn.Module):
    """tally compile's model of the task's formula (tally_torch, float32)
    with its read-out rescaled to logits 10 (o - 1/2): the verdicts of a
    Boolean output o unchanged."""

    def __init__(self, text, slope):
        super().__init__()
        self.m = tally.compile(text, alphabet="ab").to_torch(
            torch.float32, gate_slope=slope)
        with torch.no_grad():
            self.m.out.weight.mul_(10)
            self.m.out.bias.mul_(10).sub_(5)

    def forward(self, ids, mask):
        return self.m.scores(ids, mask)[:, 1:]


def hinge(logits, lab):
    """max(0, 1 - y z), y = +-1: zero, with a zero gradient, once every
    position is right by a margin of 1."""
    return torch.relu(1 - (2 * lab - 1) * logits)


LOSSES = {"bce": nn.BCEWithLogitsLoss(reduction="none"), "hinge": hinge}


def measure(model, data, loss_fn, size):
    """(mean loss per position, % of words right at every position)."""
    ids, lab, mask = data
    total, right = 0.0, 0
    with torch.no_grad():
        for at in range(0, len(ids), size):
            b = rows_of(data, range(at, min(at + size, len(ids))))
            z = model(b[0], b[2])
            total += float((loss_fn(z, b[1]) * b[2]).sum())
            right += int((((z > 0).float() == b[1]) | ~b[2]).all(1).sum())
    return total / float(mask.sum()), 100.0 * right / len(ids)


def train(model, data, c, seed, log):
    """Adam with validation-based early stopping; returns (chosen step,
    steps run); the model is left at the chosen checkpoint."""
    rng = random.Random(seed)
    opt = torch.optim.Adam(model.parameters(), c["lr"])
    loss_fn = LOSSES[c["loss"]]
    train_set, val = data["train"], data["val"]
    n = len(train_set[0])

    def validate(step):
        vl, va = measure(model, val, loss_fn, 4 * c["batch"])
        log.write(json.dumps(dict(step=step, split="val", loss=round(vl, 6),
                                  acc=va)) + "\n")
        return (va, -vl)

    best = validate(0)
    chosen, state, waited, step = 0, clone(model), 0, 0
    while step < c["max_steps"] and waited < c["patience"]:
        order = list(range(n))
        rng.shuffle(order)
        for at in range(0, n, c["batch"]):
            if step >= c["max_steps"] or waited >= c["patience"]:
                break
            ids, lab, mask = rows_of(train_set, order[at:at + c["batch"]])
            z = model(ids, mask)
            loss = (loss_fn(z, lab) * mask).sum() / mask.sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            acc = float((((z > 0).float() == lab) | ~mask).all(1)
                        .float().mean()) * 100
            log.write(json.dumps(dict(step=step, split="train",
                                      loss=round(float(loss), 6),
                                      acc=round(acc, 3))) + "\n")
            if step % c["eval_every"] and step != c["max_steps"]:
                continue
            got = validate(step)
            waited = 0 if got[0] > best[0] else waited + 1
            if got > best:
                best, chosen, state = got, step, clone(model)
    log.write(json.dumps(dict(step=chosen, split="chosen", loss=-best[1],
                              acc=best[0], steps_run=step)) + "\n")
    model.load_state_dict(state)
    return chosen, step


def clone(model):
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


def cell_name(task, family, k, depth, seed, init, loss):
    return f"{task}-{family}{k}-d{depth}-{init}-{loss}-s{seed}"


def run_cell(c, task, k, depth, seed, data, out, device):
    """Train and score one cell; its log and checkpoint go to OUT."""
    t0, c0 = time.time(), time.process_time()
    torch.manual_seed(seed)
    if c["init"] == "compiled":
        family = c["family"] + ("-predict" if task == "prediction" else "")
        model = Compiled(tally.run("gen", "--family=" + family,
                                   f"--k={k}")[1].strip(), c["gate_slope"])
        depth = len(model.m.layers)
    else:
        model = CausalTransformer(depth, c)
    model.to(device)
    name = cell_name(task, c["family"], k, depth, seed, c["init"], c["loss"])
    start = [p.detach().clone() for p in model.parameters()]
    tens = {s: tensors(*data[s], device) for s in data}
    loss_fn = LOSSES[c["loss"]]
    before = {s: measure(model, tens[s], loss_fn, 4 * c["batch"])[1]
              for s in data if s.startswith("test")}
    os.makedirs(os.path.join(out, "logs"), exist_ok=True)
    with open(os.path.join(out, "logs", name + ".jsonl"), "w") as log:
        chosen, steps = train(model, tens, c, seed, log)
    os.makedirs(os.path.join(out, "checkpoints"), exist_ok=True)
    torch.save(dict(state=model.state_dict(), step=chosen, cell=name,
                    config=c), os.path.join(out, "checkpoints", name + ".pt"))
    moved = max(float((p.detach() - q).abs().max())
                for p, q in zip(model.parameters(), start) if p.numel())
    accs = {s: measure(model, tens[s], loss_fn, 4 * c["batch"])[1]
            for s in data if s != "train"}
    row = dict(task=task, language=f"L_{k}", depth=depth, init=c["init"],
               loss=c["loss"], seed=seed, family=c["family"],
               parameters=sum(p.numel() for p in model.parameters()),
               chosen_step=chosen, steps_run=steps,
               val_acc=f"{accs.pop('val'):.1f}", max_weight_change=
               f"{moved:.3g}", wall_s=f"{time.time() - t0:.1f}",
               cpu_s=f"{time.process_time() - c0:.1f}")
    for s, (lo, hi) in zip(sorted(accs, key=test_order), test_ranges(c)):
        row[f"acc_{lo}_{hi}"] = f"{accs[s]:.1f}"
        row[f"before_{lo}_{hi}"] = f"{before[s]:.1f}" \
            if c["init"] == "compiled" else ""
    return row


def test_order(name):
    """'test' (the training lengths) first, then by length."""
    return (0, 0) if name == "test" else (1, int(name.split("_")[1]))


def test_ranges(c):
    r = ranges(c["lengths"])
    return [r[0]] + r[1:]


# ---- the table: one row per cell, rewritten after each ---------------------

KEY = ("task", "family", "language", "depth", "init", "loss", "seed")


def read_tsv(path):
    if not os.path.exists(path):
        return [], []
    with open(path) as f:
        head = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(head, line.rstrip("\n").split("\t"))) for line in f]
    return rows, [h for h in head if h.startswith("acc_")]


def write_tsv(path, rows):
    """The rows, a cell's row replacing an earlier one of the same cell;
    the columns in the order of the first row."""
    cols = list(rows[0])
    with open(path, "w") as f:
        f.write("\t".join(cols) + "\n")
        for r in rows:
            f.write("\t".join(str(r.get(k, "")) for k in cols) + "\n")


def merge(rows, row):
    key = tuple(str(row[k]) for k in KEY)
    return [r for r in rows if tuple(str(r[k]) for k in KEY) != key] + [row]


# ---- the configuration ----------------------------------------------------

def hyper(c):
    """The keys every cell of one directory must share."""
    return {k: v for k, v in c.items()
            if k not in GRID + RUNTIME + ("datasets", "cells", "torch",
                                          "cpu_s", "wall_s", "machine")}


def load_config(a):
    path = a.config or os.path.join(
        HERE, "lk-depth-quick.json" if a.quick else "lk-depth.json")
    with open(path) as f:
        c = json.load(f)
    for key in ("k", "depth", "seed"):
        if getattr(a, key) is not None:
            c[key] = [int(x) for x in getattr(a, key).split(",")]
    for key in ("family", "lengths", "init", "loss", "device"):
        if getattr(a, key) is not None:
            c[key] = getattr(a, key)
    if a.task is not None:
        c["task"] = a.task.split(",")
    if a.threads is not None:
        c["threads"] = a.threads
    bad = [t for t in c["task"] if t not in LEAST]
    if bad or c["init"] not in ("random", "compiled") or \
            c["loss"] not in LOSSES or len(ranges(c["lengths"])) < 2:
        sys.exit(f"train.py: a bad task, init, loss or --lengths (a "
                 f"training range, then one or more test ranges): {c}")
    return c


def device_of(c):
    """cuda when present (device auto), else the CPU with `threads`
    threads (0: one per core)."""
    want = c["device"]
    if want == "auto":
        want = "cuda" if torch.cuda.is_available() else "cpu"
    if want == "cuda" and not torch.cuda.is_available():
        sys.exit("train.py: --device=cuda: torch sees no CUDA device")
    if want == "cpu":
        torch.set_num_threads(c["threads"] or os.cpu_count() or 1)
    return torch.device(want)


def record(out, c, done, dev, cpu, wall, threads=None):
    """OUT/lk-depth.config.json: the hyper-parameters, the grid the cells
    in the table ran (the union over runs), every dataset's gen options,
    the versions, device and cost."""
    path = os.path.join(out, "lk-depth.config.json")
    old = {}
    if os.path.exists(path):
        with open(path) as f:
            old = json.load(f)
    rec = dict(hyper(c))
    rec["datasets"] = dict(old.get("datasets", {}), **done)
    for key in GRID:
        rec[key] = sorted(set(old.get(key, [])) | set(c[key]))
    rec.update(torch=torch.__version__, device=str(dev),
               threads=threads or torch.get_num_threads(),
               cpu_s=round(old.get("cpu_s", 0) + cpu),
               wall_s=round(old.get("wall_s", 0) + wall),
               machine=f"{os.cpu_count()} cores")
    with open(path, "w") as f:
        json.dump(rec, f, indent=1)
        f.write("\n")


def merge_dirs(out, dirs):
    """--merge: the cells of other output directories (runs of one
    configuration side by side, e.g. one process per k) into OUT: their
    rows (replacing OUT's of the same cell), logs and checkpoints, their
    datasets and grids; CPU and wall seconds are summed."""
    os.makedirs(out, exist_ok=True)
    tsv = os.path.join(out, "lk-depth.tsv")
    rows = read_tsv(tsv)[0]
    for d in dirs:
        with open(os.path.join(d, "lk-depth.config.json")) as f:
            c = json.load(f)
        same_config(out, c)
        for row in read_tsv(os.path.join(d, "lk-depth.tsv"))[0]:
            rows = merge(rows, row)
        for sub in ("logs", "checkpoints"):
            if not os.path.isdir(os.path.join(d, sub)):
                continue
            os.makedirs(os.path.join(out, sub), exist_ok=True)
            for name in os.listdir(os.path.join(d, sub)):
                shutil.copyfile(os.path.join(d, sub, name),
                                os.path.join(out, sub, name))
        write_tsv(tsv, rows)
        record(out, c, c["datasets"], c["device"], c["cpu_s"], c["wall_s"],
               c["threads"])


def same_config(out, c):
    """Refuse to add cells of other hyper-parameters to a table."""
    path = os.path.join(out, "lk-depth.config.json")
    if not os.path.exists(path):
        return
    with open(path) as f:
        old = json.load(f)
    diff = sorted(k for k in set(hyper(c)) | set(hyper(old))
                  if hyper(c).get(k) != hyper(old).get(k))
    if diff:
        sys.exit(f"train.py: {out} holds cells of another configuration "
                 f"({', '.join(diff)} differ): give another --out")


def run(c, out):
    dev = device_of(c)
    same_config(out, c)
    os.makedirs(out, exist_ok=True)
    tsv = os.path.join(out, "lk-depth.tsv")
    rows = read_tsv(tsv)[0]
    done = {}
    t0, c0 = time.time(), time.process_time()
    for task in c["task"]:
        for k in c["k"]:
            for seed in c["seed"]:
                try:
                    data = dataset(c, task, k, seed)
                except DataError as e:
                    print(f"train.py: {task} L_{k} seed {seed}: {e}",
                          file=sys.stderr)
                    sys.exit(70)
                done[f"{task}-{c['family']}{k}-s{seed}"] = \
                    gen_options(c, task, k, seed)
                depths = [None] if c["init"] == "compiled" else c["depth"]
                for depth in depths:
                    row = run_cell(c, task, k, depth, seed, data, out, dev)
                    rows = merge(rows, row)
                    write_tsv(tsv, rows)
                    print_row(row)
    record(out, c, done, dev, time.process_time() - c0, time.time() - t0)


def print_row(r):
    accs = " ".join(f"{r[k]:>5}" for k in r if k.startswith("acc_"))
    print(f"{r['task']:11} {r['language']} depth {r['depth']} {r['init']} "
          f"{r['loss']} seed {r['seed']}: val {r['val_acc']}, tests {accs} "
          f"(step {r['chosen_step']} of {r['steps_run']}; {r['cpu_s']} s "
          "CPU)", flush=True)


# ---- the report: mean +- sd over the seeds, beside the paper -------------

def stats(values):
    """(mean, sample standard deviation) of the values."""
    m = sum(values) / len(values)
    if len(values) < 2:
        return m, float("nan")
    return m, math.sqrt(sum((v - m) ** 2 for v in values) /
                        (len(values) - 1))


def cell_text(values):
    m, s = stats(values)
    sd = "" if math.isnan(s) else f" ± {s:.1f}"
    return f"{m:.1f}{sd} ({'/'.join(f'{v:g}' for v in values)})"


def groups(rows):
    """{(task, language, depth, init, loss): [rows by seed]}."""
    out = {}
    for r in rows:
        out.setdefault((r["task"], r["language"], int(r["depth"]),
                        r["init"], r["loss"]), []).append(r)
    for g in out.values():
        g.sort(key=lambda r: int(r["seed"]))
    return out


def write_md(path, rows, bins, c):
    lines = [f"Sequence accuracy (%, a word is right when every position "
             f"is) by test bin: mean ± sample standard deviation over the "
             f"seeds, then each seed's value (seeds "
             f"{', '.join(map(str, c['seed']))}); trained on "
             f"{bins[0][4:].replace('_', '..')} letters, the checkpoint "
             "chosen on the validation split (same lengths).", ""]
    for task in sorted({r["task"] for r in rows},
                       key=lambda t: t != "prediction"):
        paper = task == "prediction" and c["family"] == "lk"
        lines += [f"### {task}", "",
                  "| language | depth | start | " +
                  " | ".join(b[4:].replace("_", "..") for b in bins) +
                  " | chosen step |" + (" Knee-Deep fig. 2 |" if paper
                                        else ""),
                  "|---" * (len(bins) + 4 + paper) + "|"]
        for (t, lang, depth, init, loss), g in sorted(groups(rows).items()):
            if t != task:
                continue
            k = int(lang[2:])
            d = f"**{depth}**" if depth == LEAST[task](k) else str(depth)
            start = "random" if init == "random" else f"compiled, {loss}"
            cells = [cell_text([float(r[b]) for r in g]) for b in bins]
            steps = "/".join(r["chosen_step"] for r in g)
            p = PAPER.get(k, [])
            ref = (f"{p[depth - 1]:g}" if depth <= len(p) else "-") \
                if paper else None
            lines.append(f"| {lang} | {d} | {start} | " + " | ".join(cells)
                         + f" | {steps} |" + (f" {ref} |" if paper else ""))
        lines.append("")
    cpu = sum(float(r["cpu_s"]) for r in rows)
    lines.append(f"Bold: the least depth the theory allows (prediction "
                 f"k-2, recognition k).  {len(rows)} runs, "
                 f"{cpu / 60:.1f} min of CPU in training and scoring.")
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


# ---- the learning curves: SVG written by hand ------------------------------

DEPTH_COLOURS = ["#1b6ca8", "#d1495b", "#2e8540", "#8e44ad", "#e67e22"]


def read_log(path):
    """(validation [(step, acc)], training [(step, loss)], chosen step)."""
    val, tr, chosen = [], [], None
    with open(path) as f:
        for line in f:
            e = json.loads(line)
            if e["split"] == "val":
                val.append((e["step"], e["acc"]))
            elif e["split"] == "train":
                tr.append((e["step"], e["loss"]))
            else:
                chosen = e["step"]
    return val, tr, chosen


def smooth(points, width=10):
    """The mean of each `width` consecutive points (noise of one batch)."""
    return [(sum(p[0] for p in points[i:i + width]) /
             len(points[i:i + width]),
             sum(p[1] for p in points[i:i + width]) /
             len(points[i:i + width]))
            for i in range(0, len(points), width)]


def curves_plot(out, rows, c, path):
    """Per (task, language) two panels: the validation split's sequence
    accuracy against the step (a line per depth and seed, a dot at the
    chosen step), and the training loss (mean of 10 steps)."""
    panels = sorted({(r["task"], r["language"]) for r in rows},
                    key=lambda p: (p[0] != "prediction", p[1]))
    langs = sorted({p[1] for p in panels})
    tasks = sorted({p[0] for p in panels}, key=lambda t: t != "prediction")
    pw, ph, left, top, gapx, gapy = 280, 130, 60, 60, 50, 60
    W = max(left + len(langs) * (pw + gapx), 720)
    H = top + len(tasks) * 2 * (ph + gapy) + 40
    steps = max(c["max_steps"], 1)
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" '
           f'height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" '
           'font-size="12">', f'<rect width="{W}" height="{H}" '
           'fill="white"/>', f'<text x="{W / 2}" y="22" '
           'text-anchor="middle" font-size="15" font-weight="bold">'
           'Learning curves: validation accuracy and training loss by '
           'step</text>']
    for task, lang in panels:
        col = langs.index(lang)
        row = tasks.index(task) * 2
        runs = [r for r in rows if r["task"] == task and
                r["language"] == lang]
        logs = {}
        for r in runs:
            name = cell_name(r["task"], r["family"], r["language"][2:],
                             r["depth"], r["seed"], r["init"], r["loss"])
            logs[name] = (r, read_log(os.path.join(out, "logs",
                                                   name + ".jsonl")))
        lmax = max([p[1] for _, (_, tr, _) in logs.values()
                    for p in smooth(tr)] + [0.1])
        lmax = math.ceil(lmax * 10) / 10
        for kind, at in (("val-acc", row), ("train-loss", row + 1)):
            x0 = left + col * (pw + gapx)
            y0 = top + at * (ph + gapy)
            top_v = 100 if kind == "val-acc" else lmax
            X = lambda s: x0 + s / steps * pw  # noqa: E731
            Y = lambda v: y0 + ph - v / top_v * ph  # noqa: E731
            svg.append(f'<g class="panel" data-task="{task}" data-language='
                       f'"{lang}" data-kind="{kind}" data-top="{top_v:g}" '
                       f'data-steps="{steps}">')
            svg.append(f'<rect x="{x0}" y="{y0}" width="{pw}" height="{ph}"'
                       ' fill="none" stroke="#444"/>')
            label = "validation accuracy %" if kind == "val-acc" \
                else "training loss"
            svg.append(f'<text x="{x0 + pw / 2}" y="{y0 - 8}" '
                       f'text-anchor="middle">{task}, {lang}: {label}'
                       '</text>')
            for frac in (0, 0.5, 1):
                v = frac * top_v
                svg.append(f'<text x="{x0 - 5}" y="{Y(v) + 4:.1f}" '
                           f'text-anchor="end">{v:g}</text>')
                svg.append(f'<text x="{X(frac * steps):.1f}" y="{y0 + ph + 15}'
                           f'" text-anchor="middle">{frac * steps:g}</text>')
            for name, (r, (val, tr, chosen)) in sorted(logs.items()):
                d = int(r["depth"])
                colour = DEPTH_COLOURS[(d - 1) % len(DEPTH_COLOURS)]
                pts = val if kind == "val-acc" else smooth(tr)
                svg.append(f'<polyline class="curve" data-depth="{d}" '
                           f'data-seed="{r["seed"]}" fill="none" '
                           f'stroke="{colour}" stroke-width="1.2" '
                           'opacity="0.8" points="' +
                           " ".join(f"{X(s):.1f},{Y(v):.1f}" for s, v in pts)
                           + '"/>')
                if kind == "val-acc" and chosen is not None:
                    acc = dict(val)[chosen]
                    svg.append(f'<circle class="chosen" data-depth="{d}" '
                               f'data-seed="{r["seed"]}" cx="{X(chosen):.1f}"'
                               f' cy="{Y(acc):.1f}" r="3" fill="{colour}"/>')
            svg.append("</g>")
    x = left
    ly = H - 16
    for d in sorted({int(r["depth"]) for r in rows}):
        colour = DEPTH_COLOURS[(d - 1) % len(DEPTH_COLOURS)]
        svg.append(f'<line x1="{x}" x2="{x + 20}" y1="{ly - 4}" y2="{ly - 4}"'
                   f' stroke="{colour}" stroke-width="2"/>')
        svg.append(f'<text x="{x + 25}" y="{ly}">depth {d}</text>')
        x += 80
    svg.append(f'<text x="{x}" y="{ly}">one line per seed; &#9679; the '
               'chosen step</text>')
    svg.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(svg) + "\n")


def report(out):
    """lk-depth.md, lk-depth.svg and lk-curves.svg from the table, the
    configuration and the logs in OUT."""
    with open(os.path.join(out, "lk-depth.config.json")) as f:
        c = json.load(f)
    tsv = os.path.join(out, "lk-depth.tsv")
    rows, bins = read_tsv(tsv)
    write_md(os.path.join(out, "lk-depth.md"), rows, bins, c)
    svg_plot(tsv, os.path.join(out, "lk-depth.svg"))
    curves_plot(out, rows, c, os.path.join(out, "lk-curves.svg"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", help="the JSON grid and hyper-parameters "
                    "(default contrib/lk-depth.json)")
    ap.add_argument("--quick", action="store_true",
                    help="contrib/lk-depth-quick.json: a smoke run")
    ap.add_argument("--out", default="corpora/experiments")
    ap.add_argument("--family", help="a tally gen family with --k")
    ap.add_argument("--k", help="k values, comma-separated")
    ap.add_argument("--task", help="prediction, recognition or both")
    ap.add_argument("--depth", help="depths, comma-separated")
    ap.add_argument("--seed", help="seeds, comma-separated (gen's, torch's "
                    "and the shuffling's)")
    ap.add_argument("--lengths", help="TRAIN,TEST,...: N..M ranges; the "
                    "first gives train, val and test, each other a test")
    ap.add_argument("--init", help="random or compiled (tally compile)")
    ap.add_argument("--loss", help="bce or hinge")
    ap.add_argument("--device", help="auto (cuda when present), cpu, cuda")
    ap.add_argument("--threads", type=int,
                    help="CPU threads (0: one per core)")
    ap.add_argument("--report", action="store_true",
                    help="only rewrite the tables and plots of --out")
    ap.add_argument("--merge", nargs="+", metavar="DIR",
                    help="add the cells of other --out directories (of the "
                    "same configuration) to --out, then the report")
    ap.add_argument("--plot", metavar="TSV")
    ap.add_argument("--svg", metavar="FILE")
    a = ap.parse_args()
    if a.plot:
        svg_plot(a.plot, a.svg or os.path.splitext(a.plot)[0] + ".svg")
        return
    if a.merge:
        merge_dirs(a.out, a.merge)
    elif not a.report:
        if tally is None:
            sys.exit(f"train.py: the tally package is needed ({NO_TALLY}): "
                     "make install-python, or PYTHONPATH=BUILD/src/python:"
                     "SRC/src/python")
        run(load_config(a), a.out)
    report(a.out)


if __name__ == "__main__":
    main()
