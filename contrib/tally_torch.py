#!/usr/bin/env python3
"""A transformer compiled by `tally compile` as a PyTorch module.

    import tally_torch, torch
    m = tally_torch.load_model("m.json")          # tally compile -f dyck1
    m.alphabet                                      # ['(', ')']
    m(torch.tensor([[0, 1, 1, 0]]))                 # tensor([[0, 1, 0, 0]])

load_model(path_or_dict, dtype=torch.float64) builds a torch.nn.Module of
standard parts and loads the compiled weights into them:

  * an embedding (nn.Embedding) of BOS (row 0) and the letters;
  * with positional "sinusoidal", fixed sinusoidal features added to the
    embedding, then the model's input block;
  * per layer, causal multi-head softmax attention: query, key, value and
    output projections (nn.Linear), logits q.k (no 1/sqrt(d) scale: the
    compiled logits are unscaled), the future masked, softmax; a head
    with no query rows is uniform (softmax over equal scores); RoPE
    rotates query and key row pairs, ALiBi adds -slope (i-j), T5 adds a
    learned bias per relative-position bucket, URPE multiplies the
    attention row by a learned Toeplitz vector c(i-j) after the softmax
    (Luo et al. 2022);
  * per layer, a feed-forward part of residual ReLU blocks
    h += W2 ReLU(W1 h + b1) + b2 (nn.Linear, ReLU, nn.Linear): the
    model's own blocks under ffn "relu"; under ffn "table" each gate is
    written as such blocks (below);
  * a residual stream throughout, and a linear read-out (nn.Linear)
    whose sign is the verdict.

model(ids, mask=None) takes a LongTensor of letter ids (batch x length,
or one word of shape [length], answered in shape [length];
id t is alphabet[t]) and returns the acceptance bit of every prefix
(batch x length, 0 or 1): position i holds the verdict on the first i
letters, what `tally eval --trace` shows in its last row.  BOS is added
inside.  mask (bool, batch x length, True at letters) pads: padded
positions are neither attended to nor counted as positions (left or
right padding alike) and their bit is 0.  bos=True also returns the
verdict on the empty word (the BOS position) as column 0.

Sequence outputs (tally compile --per-position, --readout; the model's
output.readout): a per_position model returns the same bits, each the
formula's value at that position; a count readout returns, at every
position, its value instead of a bit: "class" the integer
min(max(t, lo), hi) (LongTensor; the gates and the read-out sum are
exact), "ratio" floor(t 2^s/(i+1))/2^s in float64 (the head's quotient
rounded down to the precision's grid: exact whenever |t| 2^s < 2^53 in
float64, 2^24 in float32, since a quotient t/(i+1) off the grid is at
least 1/((i+1) 2^s) away from it); padded positions hold 0.
model.readout names the readout ("accept" for a Boolean model).
model.scores(ids, mask) gives the read-out values (the logits to
fine-tune), model.streams(ids, mask) the residual stream after the
embedding and after every layer (for probes; components
0..d_model-1 are the compiled ones, model.components describes them).

Attention is softmax attention normalised at the end, the order
FlashAttention uses: weights exp(z - max z), their sum and the weighted
sum of the values each computed in one operation, then one division.
For the uniform heads of tally compile every weight is exactly 1, so
numerator and denominator are exact integers (up to 2^24 in float32)
and the sign of a head is exact, as in tally's semantics; a softmax
normalised first (weights 1/(i+1), then summed) would add rounding noise
to a head whose exact value is 0.

Gates (ffn "table") as ReLU blocks, on the values v of their inputs:
  ge0(v + b) = ReLU(1 - K s),  s = ReLU(-(v + b))  (two blocks: s is a
      scratch component of the stream appended after the compiled ones)
  not(v) = ReLU(1 - v)     and(v1..vk) = ReLU(v1 + ... + vk - (k-1))
  or(v1..vk) = 1 - ReLU(1 - v1 - ... - vk)
on Boolean (0/1) inputs; on other values (a T5 head that reads Y, say)
not(v) is ge0(-v) and an input v of and/or is first made Boolean as
[v > 0] = 1 - ReLU(1 - K ReLU(v)).  ge0 is the exact sign test whenever
v + b is 0 or at least 1/K away from it (for a uniform head, whose
value is an integer over i+1, at every position i < K); K (gate_slope;
model.gate_slopes lists them) is 2^30, or the largest power of two that
keeps K |v + b| finite in the format for the largest value v can take
(in float16, 2^12 when |v + b| <= 3).  K is only a weight: the stream
holds s, of the size of v, and the unit 1 - K s is 0 after its ReLU
unless s is 0, so fine-tuning sees no large activation and K gets no
gradient.  Gates are grouped into as few blocks as their
dependencies allow.

dtype (torch.float64, float32, bfloat16, float16, or a name "float64",
"fp32", "bf16", "fp16", ...) is the arithmetic: the weights are rounded
to it (to nearest) and the operations run in it, with PyTorch's kernels
(matrix products and sums accumulate as those do: in float32 for
bfloat16 where the CPU kernels do so, as oneDNN's on AVX-512 machines;
Debian's 1.13 with generic BLAS on an AVX2 machine adds matrix products
in bfloat16).  emulate=True instead runs every operation in
float64 and rounds its result to the format once (an affine map, a
matrix product, a sum, an exp): tally simulate's rule for its ieee
semantics; it is the default for float16 on a CPU, where torch 1.13 has
no float16 kernels.  in_order=True (with any dtype) sums attention as
`tally simulate --semantics=ieee=...` does: weights exp(z) without the
maximum subtracted, numerator and denominator accumulated key by key
from BOS, each addition rounded to the format, and a row whose weights
all round to 0 averaged instead; this reproduces tally-simulate(1)'s
breakdown lengths (majority in bfloat16: first wrong at b^256 a^256),
at the price of a loop over the keys.  Neither is PyTorch's softmax
rounding, so the constructions that need weights to round to 0 under
tally's floor rounding (the ALiBi and T5 windows, the RoPE MOD head)
compute here what they compute under tally's ieee semantics, not the
formula.

Requires Python 3 and PyTorch (tested with Debian's python3-torch
1.13.1).  The model format is MODEL FORMAT of tally-simulate(1); a
model that breaks a rule is refused with a ModelError naming the field,
every malformed file alike (a list, JSON nested too deeply).  With the
tally package importable (`import tally`, README "Python"), every check
of `tally simulate` is made by tally itself (formula fields parsed and
within the alphabet; without it, a warning says they were not), and a
model whose positional encoding is not NoPE, loaded in float32, bfloat16
or float16, is run by `tally simulate --check-against-formula` under that
format's ieee semantics on every word up to length 8: a wrong verdict
gives a warning (Python warnings) naming the encoding and the first
wrong length.  scores() are in the requested dtype.

Command line:
  tally_torch.py [--dtype=T] [--emulate] [--in-order] [--positions]
                 MODEL.json [WORD...]
prints WORD<TAB>accept|reject per word (stdin lines without WORD), like
`tally simulate`; --positions prints WORD<TAB>BITS instead, one 0/1 per
position (the empty word: an empty BITS), and so does a per_position
model; a count readout prints its values, space-separated (a ratio as an
exact fraction m/2^k).
"""
import json
import math
import re
import sys
import warnings
from fractions import Fraction

import torch
import torch.nn.functional as F
from torch import nn

__all__ = ["load_model", "ModelError", "CompiledTransformer", "DTYPES"]

DTYPES = {"float64": torch.float64, "fp64": torch.float64,
          "double": torch.float64, "float32": torch.float32,
          "fp32": torch.float32, "float": torch.float32,
          "bfloat16": torch.bfloat16, "bf16": torch.bfloat16,
          "float16": torch.float16, "fp16": torch.float16,
          "half": torch.float16}
GATE_SLOPE = 2.0 ** 30
MAX_PARAMS = 50_000_000


class ModelError(ValueError):
    """A model that breaks a rule of the format; the message names the
    field by its path (layers[0].heads[1].out: ...)."""


# ---- reading: the format of tally-simulate(1), MODEL FORMAT -------------

WEIGHT = re.compile(r"-?(0|[1-9][0-9]*)(/([1-9][0-9]*))?\Z")
RATIO = WEIGHT  # the same spelling; the reader checks the rest
ENCODINGS = ("nope", "alibi", "sinusoidal", "rope", "t5", "urpe")
READOUTS = ("accept", "per_position", "class", "ratio")
COMPONENT_KEYS = {"bos": {"kind", "layer"}, "hidden": {"kind", "layer"},
                  "bool": {"kind", "layer", "formula"},
                  "head": {"kind", "layer", "formula", "counts",
                           "constant"}}


def _shown(x):
    text = json.dumps(x)
    return text if len(text) <= 40 else text[:40] + "..."


def _kind(x):
    if isinstance(x, bool):
        return "a Boolean"
    if isinstance(x, (int, float)):
        return "the number " + _shown(x)
    if isinstance(x, str):
        return "the string " + _shown(x)
    return {dict: "an object", list: "an array"}.get(type(x), "null")


class _Reader:
    """Checks a model field by field; every error names the path."""

    def __init__(self, j):
        self.j = j

    def fail(self, path, want, got):
        raise ModelError(f"{path}: expected {want}, found {_kind(got)}")

    def obj(self, x, path, allowed, required=()):
        if not isinstance(x, dict):
            self.fail(path, "an object", x)
        for k in x:
            if k not in allowed:
                raise ModelError(f"{path}.{k}: unknown field" if path
                                 else f"{k}: unknown field")
        for k in required:
            if k not in x:
                raise ModelError(f"{path}.{k}: missing (a required field)"
                                 if path else
                                 f"{k}: missing (a required field)")
        return x

    def arr(self, x, path, n=None):
        if not isinstance(x, list):
            self.fail(path, "an array", x)
        if n is not None and len(x) != n:
            raise ModelError(f"{path}: expected {n} entries, found "
                             f"{len(x)}")
        return x

    def int_(self, x, path, lo, hi):
        if not isinstance(x, int) or isinstance(x, bool) or \
                not lo <= x <= hi:
            self.fail(path, f"an integer in {lo}..{hi}", x)
        return x

    def weight(self, x, path):
        """A dyadic rational in its one spelling, in F_{p,s}."""
        if not isinstance(x, str) or not WEIGHT.match(x) or x == "-0":
            self.fail(path, 'a weight "m" or "m/D"', x)
        num, _, den = x.partition("/")
        q = Fraction(int(num), int(den or 1))
        d = int(den or 1)
        if den and (d < 2 or d & (d - 1) or int(num) % 2 == 0):
            self.fail(path, 'a weight "m/D" in lowest terms, D a power '
                      'of two', x)
        m = q * (1 << self.s)
        if m.denominator != 1 or not -(1 << (self.p - 1)) <= m < \
                (1 << (self.p - 1)):
            raise ModelError(f"{path}: {x} is not in F_{{{self.p},"
                             f"{self.s}}}")
        return q

    def ratio(self, x, path, what):
        """A rational "a" or "a/b" in lowest terms (times pi)."""
        if not isinstance(x, str) or not RATIO.match(x) or x == "-0":
            self.fail(path, what, x)
        num, _, den = x.partition("/")
        a, b = int(num), int(den or 1)
        if (den and (b < 2 or math.gcd(a, b) != 1)) or \
                abs(a) > 1 << 40 or b > 1 << 40:
            self.fail(path, what + " in lowest terms, |a|, b <= 2^40", x)
        return Fraction(a, b)

    def angle(self, x, path):
        if isinstance(x, dict):
            self.obj(x, path, {"base", "k", "d"}, ("base", "k", "d"))
            base = self.int_(x["base"], path + ".base", 2, 1 << 30)
            d = self.int_(x["d"], path + ".d", 1, 1 << 20)
            k = self.int_(x["k"], path + ".k", 0, (d - 1) // 2)
            return ("freq", base, k, d)
        return ("pi", self.ratio(x, path, 'an angle "a/b" or {"base", '
                                 '"k", "d"}'))

    def index(self, x, path, n, what="the components"):
        if not isinstance(x, int) or isinstance(x, bool) or \
                not 0 <= x < n:
            self.fail(path, f"an index into {what} (0..{n - 1})", x)
        return x

    def entries(self, x, path, rows, cols, one_row=False,
                cols_are="the components"):
        """Sparse [[r, c, w], ...] ([[c, w], ...] when one_row)."""
        out, seen = {}, set()
        for i, e in enumerate(self.arr(x, path)):
            p = f"{path}[{i}]"
            self.arr(e, p, 2 if one_row else 3)
            r = 0 if one_row else self.index(e[0], p + "[0]", rows,
                                             f"the {rows} rows")
            c = self.index(e[-2], f"{p}[{len(e) - 2}]", cols, cols_are)
            if (r, c) in seen:
                raise ModelError(f"{p}: entry ({r}, {c}) given twice")
            seen.add((r, c))
            w = self.weight(e[-1], f"{p}[{len(e) - 1}]")
            if w:
                out[r, c] = w
        return out

    def read(self):
        j = self.obj(self.j, "", {"format", "format_version",
                                  "tally_version", "precision",
                                  "positional", "ffn", "formula",
                                  "alphabet", "d_model", "n_layers",
                                  "components", "embedding", "features",
                                  "input_ffn", "layers", "output",
                                  "analysis"},
                     ("format", "format_version", "precision", "positional",
                      "ffn", "alphabet", "d_model", "n_layers",
                      "components", "embedding", "layers", "output"))
        if j["format"] != "tally-transformer":
            self.fail("format", '"tally-transformer"', j["format"])
        if j["format_version"] != 1 or isinstance(j["format_version"], bool):
            self.fail("format_version", "1", j["format_version"])
        pr = self.obj(j["precision"], "precision", {"p", "s", "rounding"},
                      ("p", "s", "rounding"))
        self.p = self.int_(pr["p"], "precision.p", 2, 32)
        self.s = self.int_(pr["s"], "precision.s", 0, self.p - 2)
        if pr["rounding"] != "floor, saturating":
            self.fail("precision.rounding", '"floor, saturating"',
                      pr["rounding"])
        if j["positional"] not in ENCODINGS:
            self.fail("positional", ", ".join(f'"{e}"' for e in ENCODINGS),
                      j["positional"])
        self.pe = j["positional"]
        if j["ffn"] not in ("table", "relu"):
            self.fail("ffn", '"table" or "relu"', j["ffn"])
        self.table = j["ffn"] == "table"
        if "formula" in j and not isinstance(j["formula"], str):
            self.fail("formula", "a string", j["formula"])
        alpha = self.arr(j["alphabet"], "alphabet")
        for i, a in enumerate(alpha):
            if not isinstance(a, str) or not a:
                self.fail(f"alphabet[{i}]", "a nonempty string", a)
        for i, a in enumerate(alpha):
            if alpha.index(a) != i:
                raise ModelError(f"alphabet[{i}]: the letter \"{a}\" again "
                                 f"(it is alphabet[{alpha.index(a)}])")
        d = self.d = self.int_(j["d_model"], "d_model", 1, 1 << 20)
        nl = self.int_(j["n_layers"], "n_layers", 0, 1 << 20)
        comps = [self.component(c, f"components[{i}]", nl)
                 for i, c in enumerate(self.arr(j["components"],
                                                "components", d))]
        emb = self.arr(j["embedding"], "embedding", len(alpha) + 1)
        embed = [[self.weight(w, f"embedding[{t}][{c}]")
                  for c, w in enumerate(self.arr(row, f"embedding[{t}]", d))]
                 for t, row in enumerate(emb)]
        feats = []
        if "features" in j:
            self.uses("features", "sinusoidal")
            for i, f in enumerate(self.arr(j["features"], "features")):
                p = f"features[{i}]"
                self.obj(f, p, {"out", "angle", "phase"},
                         ("out", "angle", "phase"))
                feats.append((self.index(f["out"], p + ".out", d),
                              self.angle(f["angle"], p + ".angle"),
                              self.ratio(f["phase"], p + ".phase",
                                         'a phase "a/b"')))
        infn = self.ffn(j["input_ffn"], "input_ffn") if "input_ffn" in j \
            else []
        if isinstance(j["layers"], list) and len(j["layers"]) != nl:
            raise ModelError(f"n_layers: {nl}, but \"layers\" has "
                             f"{len(j['layers'])} entries")
        layers = [self.layer(x, f"layers[{i}]")
                  for i, x in enumerate(self.arr(j["layers"], "layers", nl))]
        o = self.obj(j["output"], "output", {"weights", "bias", "readout",
                                             "min", "max"},
                     ("weights", "bias"))
        wout = self.entries(o["weights"], "output.weights", 1, d, True)
        bout = self.weight(o["bias"], "output.bias")
        readout = self.readout(o)
        return dict(alphabet=list(alpha), d=d, p=self.p, s=self.s,
                    pe=self.pe, ffn=j["ffn"], formula=j.get("formula"),
                    components=comps, embed=embed, features=feats,
                    input=infn, layers=layers, wout=wout, bout=bout,
                    readout=readout)

    def readout(self, o):
        """output.readout (absent: accept); min and max of a class."""
        r = o.get("readout", "accept")
        if r not in READOUTS:
            self.fail("output.readout", " or ".join(f'"{x}"' for x in
                                                    READOUTS), r)
        if r != "class":
            for k in ("min", "max"):
                if k in o:
                    raise ModelError(f"output.{k}: only a \"class\" "
                                     f"readout has bounds")
            return (r, None, None)
        lo = self.int_(o.get("min"), "output.min", -2 ** 40, 2 ** 40)
        hi = self.int_(o.get("max"), "output.max", lo, 2 ** 40)
        return (r, lo, hi)

    def uses(self, path, encoding):
        if self.pe != encoding:
            raise ModelError(f"{path}: allowed only when \"positional\" is "
                             f"\"{encoding}\", not \"{self.pe}\"")

    def component(self, c, path, nl):
        self.obj(c, path, {"kind", "layer", "formula", "counts", "constant"},
                 ("kind", "layer"))
        if c["kind"] not in COMPONENT_KEYS:
            self.fail(path + ".kind", '"bos", "bool", "head" or "hidden"',
                      c["kind"])
        self.obj(c, path, COMPONENT_KEYS[c["kind"]])
        self.int_(c["layer"], path + ".layer", 0, nl)
        if ("counts" in c) != ("constant" in c):
            raise ModelError(f"{path}: \"counts\" and \"constant\" go "
                             "together")
        if "formula" in c and not isinstance(c["formula"], str):
            self.fail(path + ".formula", "a string", c["formula"])
        if "counts" in c:
            for i, t in enumerate(self.arr(c["counts"], path + ".counts")):
                p = f"{path}.counts[{i}]"
                self.obj(t, p, {"coef", "formula"}, ("coef", "formula"))
                self.weight(t["coef"], p + ".coef")
                if not isinstance(t["formula"], str):
                    self.fail(p + ".formula", "a string", t["formula"])
            self.weight(c["constant"], path + ".constant")
        return {k: c[k] for k in ("kind", "layer", "formula") if k in c}

    def layer(self, x, path):
        self.obj(x, path, {"heads", "ffn"}, ("heads", "ffn"))
        heads = [self.head(h, f"{path}.heads[{i}]")
                 for i, h in enumerate(self.arr(x["heads"], path + ".heads"))]
        return dict(heads=heads, ffn=self.ffn(x["ffn"], path + ".ffn"))

    def head(self, h, path):
        d = self.d
        self.obj(h, path, {"query", "key", "value", "alibi_slope", "out",
                           "rope", "t5", "urpe"},
                 ("query", "key", "value", "alibi_slope", "out"))
        mats = []
        for name in ("query", "key"):
            m = self.obj(h[name], f"{path}.{name}", {"rows", "entries"},
                         ("rows", "entries"))
            rows = self.int_(m["rows"], f"{path}.{name}.rows", 0, 1 << 20)
            mats.append((rows, self.entries(m["entries"],
                                            f"{path}.{name}.entries",
                                            rows, d)))
        if mats[0][0] != mats[1][0]:
            raise ModelError(f"{path}.key.rows: expected {mats[0][0]} like "
                             f"the query, found {mats[1][0]}")
        v = self.obj(h["value"], path + ".value", {"weights", "bias"},
                     ("weights", "bias"))
        out = dict(rows=mats[0][0], wq=mats[0][1], wk=mats[1][1],
                   wv=self.entries(v["weights"], path + ".value.weights",
                                   1, d, True),
                   bv=self.weight(v["bias"], path + ".value.bias"),
                   slope=self.weight(h["alibi_slope"],
                                     path + ".alibi_slope"),
                   out=self.index(h["out"], path + ".out", d),
                   rope=[], t5=None, urpe=None)
        if out["slope"] < 0:
            raise ModelError(f"{path}.alibi_slope: expected a weight >= 0")
        if out["slope"]:
            self.uses(path + ".alibi_slope", "alibi")
        if "rope" in h:
            self.uses(path + ".rope", "rope")
            a = self.arr(h["rope"], path + ".rope")
            if 2 * len(a) > out["rows"]:
                raise ModelError(f"{path}.rope: {len(a)} angles for "
                                 f"{out['rows']} rows")
            out["rope"] = [self.angle(x, f"{path}.rope[{i}]")
                           for i, x in enumerate(a)]
        if "t5" in h:
            out["t5"] = self.t5(h["t5"], path + ".t5")
        if "urpe" in h:
            p = path + ".urpe"
            self.uses(p, "urpe")
            u = self.obj(h["urpe"], p, {"diagonals", "beyond"},
                         ("diagonals", "beyond"))
            dg = self.arr(u["diagonals"], p + ".diagonals")
            if len(dg) > 1 << 20:
                raise ModelError(f"{p}.diagonals: more than 2^20 weights")
            out["urpe"] = [self.weight(x, f"{p}.diagonals[{i}]")
                           for i, x in enumerate(dg)] + \
                [self.weight(u["beyond"], p + ".beyond")]
        return out

    def t5(self, t, path):
        self.uses(path, "t5")
        self.obj(t, path, {"bidirectional", "num_buckets", "max_distance",
                           "bias"},
                 ("bidirectional", "num_buckets", "max_distance", "bias"))
        two = t["bidirectional"]
        if not isinstance(two, bool):
            self.fail(path + ".bidirectional", "true or false", two)
        nb = self.int_(t["num_buckets"], path + ".num_buckets",
                       4 if two else 2, 4096)
        exact = (nb // 2 if two else nb) // 2
        md = self.int_(t["max_distance"], path + ".max_distance",
                       exact + 1, 1 << 30)
        bias = [self.weight(x, f"{path}.bias[{i}]") for i, x in
                enumerate(self.arr(t["bias"], path + ".bias", nb))]
        return dict(bidirectional=two, buckets=nb, max_distance=md,
                    bias=bias)

    def ffn(self, f, path):
        """A list of ("gate", op, ins, out, bias, path) or ("block", ...)."""
        key = "gates" if self.table else "blocks"
        other = "blocks" if self.table else "gates"
        if isinstance(f, dict) and other in f:
            raise ModelError(f"{path}.{other}: the model's ffn is "
                             f"\"{'table' if self.table else 'relu'}\", its "
                             f"blocks are \"{key}\"")
        self.obj(f, path, {key}, (key,))
        items = self.arr(f[key], f"{path}.{key}")
        if self.table:
            return [self.gate(g, f"{path}.gates[{i}]")
                    for i, g in enumerate(items)]
        return [self.block(b, f"{path}.blocks[{i}]")
                for i, b in enumerate(items)]

    def gate(self, g, path):
        self.obj(g, path, {"op", "in", "out", "bias"}, ("op", "in", "out"))
        op = g["op"]
        if op not in ("ge0", "not", "and", "or"):
            self.fail(path + ".op", '"ge0", "not", "and" or "or"', op)
        ins = [self.index(c, f"{path}.in[{i}]", self.d)
               for i, c in enumerate(self.arr(g["in"], path + ".in"))]
        if op in ("ge0", "not") and len(ins) != 1:
            raise ModelError(f"{path}.in: a {op} gate takes one input, not "
                             f"{len(ins)}")
        if not ins:
            raise ModelError(f"{path}.in: an {op} gate needs at least one "
                             "input")
        if "bias" in g and op != "ge0":
            raise ModelError(f"{path}.bias: only a ge0 gate has a bias")
        bias = self.weight(g["bias"], path + ".bias") if "bias" in g \
            else Fraction(0)
        return ("gate", op, ins, self.index(g["out"], path + ".out", self.d),
                bias, path)

    def block(self, b, path):
        self.obj(b, path, {"hidden", "w1", "b1", "w2", "b2"},
                 ("hidden", "w1", "b1", "w2", "b2"))
        h = self.int_(b["hidden"], path + ".hidden", 0, 1 << 20)
        return ("block", h, self.entries(b["w1"], path + ".w1", h, self.d),
                [self.weight(x, f"{path}.b1[{i}]") for i, x in
                 enumerate(self.arr(b["b1"], path + ".b1", h))],
                self.entries(b["w2"], path + ".w2", self.d, h,
                             cols_are="the hidden units"),
                [self.weight(x, f"{path}.b2[{i}]") for i, x in
                 enumerate(self.arr(b["b2"], path + ".b2", self.d))])


def _no_repeats(pairs):
    keys = [k for k, _ in pairs]
    for k in keys:
        if keys.count(k) > 1:
            raise ModelError(f"the key \"{k}\" occurs twice in an object")
    return dict(pairs)


def _tally():
    """The tally package (tally's engines in-process), or None."""
    try:
        import tally
        return tally
    except ImportError:
        return None


def _simulate_checks(text):
    """Every check `tally simulate` makes of a model (the formula fields
    parsed and within the alphabet, ...), made by tally itself through
    the package; without it, a warning that they were not made."""
    tally = _tally()
    if tally is None:
        warnings.warn("tally_torch: the tally package is not importable: "
                      "the checks of tally simulate (formula fields) were "
                      "not made", stacklevel=3)
        return
    try:
        tally.run("simulate", "-w", "", input=text, ok=(0, 1))
    except tally.Error as e:
        raise ModelError(e.message.split("stdin: ", 1)[-1]) from None


def read_model(path_or_dict):
    """The model as plain Python values (weights as Fractions).  Every
    malformed model raises ModelError (a list, nesting too deep for
    Python, a field tally simulate refuses)."""
    try:
        if isinstance(path_or_dict, (dict, list)):
            text = json.dumps(path_or_dict)
        else:
            with open(path_or_dict, encoding="utf-8") as f:
                text = f.read()
        try:
            j = json.loads(text, object_pairs_hook=_no_repeats)
        except json.JSONDecodeError as e:
            raise ModelError(f"not valid JSON: {e}") from None
        if not isinstance(j, dict):
            raise ModelError(f"expected a model (a JSON object), found "
                             f"{_kind(j)}")
        model = _Reader(j).read()
    except RecursionError:
        raise ModelError("the JSON is nested too deeply") from None
    _simulate_checks(text)
    model["json"] = text
    return model


# ---- positions: cosines rounded from exact angles --------------------------

def _cos_pi(t):
    """cos(pi t) for a Fraction t, exact at the values where it is
    rational (0, +-1/2, +-1)."""
    t %= 2
    exact = {Fraction(0): 1.0, Fraction(1, 3): 0.5, Fraction(1, 2): 0.0,
             Fraction(2, 3): -0.5, Fraction(1): -1.0, Fraction(4, 3): -0.5,
             Fraction(3, 2): 0.0, Fraction(5, 3): 0.5}
    if t in exact:
        return exact[t]
    return math.cos(math.pi * float(t)) if t.denominator < 1 << 50 else \
        math.cos(math.pi * (t.numerator / t.denominator))


def _cos_at(angle, phase, pos):
    """cos(pos angle + phase pi), the angle reduced exactly when it is a
    rational multiple of pi."""
    if angle[0] == "pi":
        return _cos_pi(angle[1] * pos + phase)
    _, base, k, d = angle
    theta = base ** (-2.0 * k / d)
    return math.cos(pos * theta + math.pi * float(phase))


def _t5_bucket(n, t5):
    """T5's bucket of a distance n >= 0 (keys at or before the query):
    e + floor(A ln(n/e) / ln(md/e)), capped, decided in integers as the
    number of k in 1..A-1 with n^A e^k >= md^k e^A."""
    nb = t5["buckets"] // (2 if t5["bidirectional"] else 1)
    e, md = nb // 2, t5["max_distance"]
    if n < e:
        return n
    a = nb - e
    return e + sum(n ** a * e ** k >= md ** k * e ** a for k in range(1, a))


# ---- the network ----------------------------------------------------------

class _Arith:
    """The arithmetic of one format.  Natively, every operation runs in
    the format (PyTorch's kernels: matrix products accumulate as they
    do, float32 for bfloat16 on a CPU).  Emulated (emulate=True, and
    float16 on a CPU, where torch 1.13 has no float16 kernels), every
    operation runs in float64 and its result is rounded to the format
    once: an affine map, a product of matrices, a softmax sum, an exp
    (tally's rule for its ieee semantics)."""

    def __init__(self, fmt, device, emulate):
        self.fmt = fmt
        if emulate is None:
            try:
                F.linear(torch.ones(1, 1, dtype=fmt, device=device),
                         torch.ones(1, 1, dtype=fmt, device=device))
                torch.exp(torch.ones(1, 2, dtype=fmt, device=device))
                emulate = False
            except RuntimeError:
                emulate = True
        self.emulated = bool(emulate) and fmt != torch.float64
        self.compute = torch.float64 if self.emulated else fmt
        self.in_order = False

    def r(self, x):
        if self.compute == self.fmt:
            return x
        return x.to(self.fmt).to(self.compute)

    def cast(self, x):
        """Values computed in float64, rounded to the format."""
        return x.to(self.fmt).to(self.compute)

    def w(self, p):
        return p if p is None or p.dtype == self.compute else \
            p.to(self.compute)


class ResidualMLP(nn.Module):
    """h += W2 ReLU(W1 h + b1) + b2: a feed-forward block."""

    def __init__(self, d, hidden):
        super().__init__()
        self.lin1 = nn.Linear(d, hidden)
        self.lin2 = nn.Linear(hidden, d)

    def forward(self, h, ar):
        u = torch.relu(ar.r(F.linear(h, ar.w(self.lin1.weight),
                                     ar.w(self.lin1.bias))))
        y = ar.r(F.linear(u, ar.w(self.lin2.weight), ar.w(self.lin2.bias)))
        return ar.r(h + y)


class CausalSelfAttention(nn.Module):
    """Multi-head causal softmax attention with one value dimension per
    head (a compiled head outputs a number), unscaled logits, and the
    positional terms of the model's encoding."""

    def __init__(self, d, heads, pe):
        super().__init__()
        self.H = len(heads)
        self.dk = max([h["rows"] for h in heads] + [0])
        self.q = nn.Linear(d, self.H * self.dk, bias=False)
        self.k = nn.Linear(d, self.H * self.dk, bias=False)
        self.v = nn.Linear(d, self.H)
        self.o = nn.Linear(self.H, d, bias=False)
        self.alibi = nn.Parameter(torch.zeros(self.H)) if pe == "alibi" \
            else None
        self.t5 = nn.ParameterDict()
        self.t5_config = {}
        self.urpe = nn.ParameterDict()
        self.rope = [h["rope"] for h in heads]
        for i, h in enumerate(heads):
            if h["t5"]:
                self.t5[str(i)] = nn.Parameter(torch.zeros(h["t5"]["buckets"]))
                self.t5_config[i] = {k: v for k, v in h["t5"].items()
                                     if k != "bias"}
            if h["urpe"]:
                self.urpe[str(i)] = nn.Parameter(torch.zeros(len(h["urpe"])))

    def rotation(self, pos, ar):
        """cos and sin of pos times each RoPE angle: (B, H, T, pairs)."""
        npairs = max(len(a) for a in self.rope)
        top = int(pos.max()) + 1
        c = torch.ones(self.H, npairs, top, dtype=torch.float64)
        s = torch.zeros(self.H, npairs, top, dtype=torch.float64)
        for h, angles in enumerate(self.rope):
            for k, a in enumerate(angles):
                c[h, k] = torch.tensor([_cos_at(a, Fraction(0), i)
                                        for i in range(top)])
                s[h, k] = torch.tensor([_cos_at(a, Fraction(-1, 2), i)
                                        for i in range(top)])
        c = ar.cast(c.to(pos.device))[:, :, pos].permute(2, 0, 3, 1)
        s = ar.cast(s.to(pos.device))[:, :, pos].permute(2, 0, 3, 1)
        return c, s

    @staticmethod
    def rotate(x, c, s, ar):
        """Rows 2k, 2k+1 of x: (x, y) -> (c x - s y, s x + c y)."""
        n = c.shape[-1]
        ev, od = x[..., 0:2 * n:2], x[..., 1:2 * n:2]
        rot = torch.stack((ar.r(c * ev - s * od), ar.r(s * ev + c * od)), -1)
        return torch.cat((rot.flatten(-2), x[..., 2 * n:]), -1)

    def forward(self, x, pos, keys, ar):
        B, T, _ = x.shape
        H, dk = self.H, self.dk
        q = ar.r(F.linear(x, ar.w(self.q.weight))).view(B, T, H, dk)
        k = ar.r(F.linear(x, ar.w(self.k.weight))).view(B, T, H, dk)
        q, k = q.transpose(1, 2), k.transpose(1, 2)
        if any(self.rope):
            c, s = self.rotation(pos, ar)
            q, k = self.rotate(q, c, s, ar), self.rotate(k, c, s, ar)
        z = q @ k.transpose(-1, -2)                      # (B, H, T, T)
        dist = (pos[:, :, None] - pos[:, None, :]).clamp(min=0)
        if self.alibi is not None:   # the logit is one affine map, rounded
            slope = ar.w(self.alibi)[None, :, None, None]
            z = z - slope * dist[:, None].to(ar.compute)
        if len(self.t5):
            z = z + self.relative(dist, self.t5, self.t5_bucket, ar)
        z = ar.r(z)
        seen = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        seen = (seen[None] & keys[:, None, :])[:, None]
        c = self.relative(dist, self.urpe, self.urpe_index, ar, 1.0) \
            if len(self.urpe) else None
        v = ar.r(F.linear(x, ar.w(self.v.weight), ar.w(self.v.bias)))
        v = v.transpose(1, 2)                            # (B, H, T)
        if ar.in_order:
            out = self.in_order(z, seen, c, v, ar)
        else:
            # softmax, normalised at the end as FlashAttention does:
            # weights exp(z - max z), numerator and denominator summed,
            # one division
            z = z.masked_fill(~seen, float("-inf"))
            e = ar.r(torch.exp(ar.r(z - z.amax(-1, keepdim=True))))
            den = ar.r(e.sum(-1))
            if c is not None:
                e = ar.r(e * c)
            out = ar.r(ar.r((e @ v[..., None])[..., 0]) / den)
        return ar.r(F.linear(out.transpose(1, 2), ar.w(self.o.weight)))

    @staticmethod
    def in_order(z, seen, c, v, ar):
        """tally simulate's order: weights e = exp(z) (no maximum
        subtracted), N and D summed key by key from BOS, each addition
        rounded; a row whose weights all round to 0 averages its values
        (times c) instead."""
        e = ar.r(torch.exp(z.masked_fill(~seen, float("-inf"))))
        ones = seen.to(e.dtype).expand_as(e)

        def sums(e):
            num = torch.zeros_like(e[..., 0])
            den = torch.zeros_like(e[..., 0])
            for j in range(e.shape[-1]):
                w = e[..., j] if c is None else ar.r(e[..., j] * c[..., j])
                num = ar.r(num + ar.r(w * v[..., j:j + 1]))
                den = ar.r(den + e[..., j])
            return num, den
        num, den = sums(e)
        zero = den == 0
        if zero.any():
            num1, den1 = sums(ones)
            num, den = torch.where(zero, num1, num), torch.where(zero, den1,
                                                                  den)
        return ar.r(num / den)

    def t5_bucket(self, i, n):
        return _t5_bucket(n, self.t5_config[i])

    def urpe_index(self, i, n):
        return min(n, len(self.urpe[str(i)]) - 1)

    def relative(self, dist, params, index, ar, default=0.0):
        """A per-head table of the distance, (B, H, T, T); heads without
        one get default."""
        top = int(dist.max()) + 1
        rows = []
        for h in range(self.H):
            if str(h) not in params:
                rows.append(torch.full((top,), default, dtype=ar.compute,
                                       device=dist.device))
                continue
            idx = torch.tensor([index(h, n) for n in range(top)],
                               device=dist.device)
            rows.append(ar.w(params[str(h)])[idx])
        return torch.stack(rows)[:, dist].transpose(0, 1)


class Layer(nn.Module):
    """Attention, then the feed-forward blocks, on the residual stream."""

    def __init__(self, d, heads, pe, blocks):
        super().__init__()
        self.attn = CausalSelfAttention(d, heads, pe) if heads else None
        self.ffn = nn.ModuleList(ResidualMLP(d, n) for n in blocks)

    def forward(self, h, pos, keys, ar):
        if self.attn is not None:
            h = ar.r(h + self.attn(h, pos, keys, ar))
        for block in self.ffn:
            h = block(h, ar)
        return h


class CompiledTransformer(nn.Module):
    """See the module's documentation; build it with load_model()."""

    def __init__(self, m, dtype, gate_slope, device, emulate=None,
                 in_order=False):
        super().__init__()
        self.alphabet = list(m["alphabet"])
        self.components = m["components"]
        self.formula = m["formula"]
        self.positional = m["pe"]
        self.precision = (m["p"], m["s"])
        self.readout = m["readout"][0]
        self.dtype = dtype
        plan = _Plan(m, dtype, gate_slope)
        self.d_model = plan.width
        self.gate_slopes = plan.slopes
        D = self.d_model
        self.features = m["features"]
        with warnings.catch_warnings():  # heads with no query rows
            warnings.filterwarnings("ignore", "Initializing zero-element")
            self.embed = nn.Embedding(len(self.alphabet) + 1, D)
            self.input = nn.ModuleList(ResidualMLP(D, len(st["units"]))
                                       for st in plan.input)
            self.layers = nn.ModuleList(
                Layer(D, ly["heads"], m["pe"], [len(st["units"]) for st in
                                                plan.layers[i]])
                for i, ly in enumerate(m["layers"]))
            self.out = nn.Linear(D, 1)
        self.to(torch.float64)  # every compiled weight is exact in it
        self._load(m, plan)
        self.to(device=device, dtype=dtype)
        self.ar = _Arith(dtype, device, emulate)
        self.ar.in_order = in_order

    def _load(self, m, plan):
        nparams = sum(p.numel() for p in self.parameters())
        if nparams > MAX_PARAMS:
            raise ModelError(f"the model needs {nparams} dense parameters, "
                             f"more than tally_torch's limit {MAX_PARAMS}")
        with torch.no_grad():
            for p in self.parameters():
                p.zero_()
            for t, row in enumerate(m["embed"]):
                for c, w in enumerate(row):
                    self.embed.weight[t, c] = float(w)
            for mlp, st in zip(self.input, plan.input):
                _load_stage(mlp, st)
            for layer, ly, stages in zip(self.layers, m["layers"],
                                         plan.layers):
                if layer.attn is not None:
                    _load_heads(layer.attn, ly["heads"])
                for mlp, st in zip(layer.ffn, stages):
                    _load_stage(mlp, st)
            for (_, c), w in m["wout"].items():
                self.out.weight[0, c] = float(w)
            self.out.bias[0] = float(m["bout"])

    def _inputs(self, ids, mask):
        ids = torch.as_tensor(ids)
        if ids.dim() == 1:
            ids = ids[None]
            mask = None if mask is None else torch.as_tensor(mask)[None]
        if ids.dim() != 2 or ids.dtype not in (torch.int64, torch.int32,
                                               torch.int16, torch.uint8):
            raise ValueError("ids: expected a LongTensor batch x length")
        dev = self.embed.weight.device
        ids = ids.to(device=dev, dtype=torch.int64)
        mask = torch.ones_like(ids, dtype=torch.bool) if mask is None else \
            torch.as_tensor(mask, device=dev).to(torch.bool)
        if mask.shape != ids.shape:
            raise ValueError("mask: expected the shape of ids")
        bad = mask & ((ids < 0) | (ids >= len(self.alphabet)))
        if bad.any():
            raise ValueError(f"ids: a letter id outside 0.."
                             f"{len(self.alphabet) - 1}: "
                             f"{int(ids[bad][0])}")
        first = torch.ones(ids.shape[0], 1, dtype=torch.bool, device=dev)
        keys = torch.cat((first, mask), 1)  # BOS, then the letters
        tokens = torch.cat((torch.zeros_like(first, dtype=torch.int64),
                            torch.where(mask, ids + 1, 0)), 1)
        pos = keys.long().cumsum(1) - 1
        return tokens, keys, pos

    def streams(self, ids, mask=None):
        """The residual stream after the embedding (and input block) and
        after each layer: a list of (batch, length + 1, width) tensors,
        position 0 being BOS."""
        ar = self.ar
        tokens, keys, pos = self._inputs(ids, mask)
        h = ar.w(self.embed.weight)[tokens]
        for out, angle, phase in self.features:  # in order, each rounded
            h = ar.r(h + self._feature(out, angle, phase, pos, ar))
        for block in self.input:
            h = block(h, ar)
        out = [h]
        for layer in self.layers:
            h = layer(h, pos, keys, ar)
            out.append(h)
        return out

    def _feature(self, out, angle, phase, pos, ar):
        """cos(i angle + phase pi) at component out of position i, rounded
        to the format: (batch, length + 1, width)."""
        top = int(pos.max()) + 1
        col = torch.tensor([_cos_at(angle, phase, i) for i in range(top)],
                           dtype=torch.float64, device=pos.device)
        one = torch.zeros(self.d_model, dtype=ar.compute, device=pos.device)
        one[out] = 1
        return ar.cast(col)[pos][..., None] * one

    def scores(self, ids, mask=None):
        """The read-out w.h + b at every position, BOS first: (batch,
        length + 1); a prefix is accepted iff its score is > 0."""
        ar = self.ar
        h = self.streams(ids, mask)[-1]
        return ar.r(F.linear(h, ar.w(self.out.weight),
                             ar.w(self.out.bias)))[..., 0].to(self.dtype)

    def forward(self, ids, mask=None, bos=False):
        if ids.dim() == 1:  # one word: shape [length] in and out
            return self.forward(ids[None], None if mask is None else
                                mask[None], bos)[0]
        tokens, keys, _ = self._inputs(ids, mask)
        if self.readout in ("class", "ratio"):
            out = self.values(ids, mask)
        else:
            out = ((self.scores(ids, mask) > 0) & keys).long()
        return out if bos else out[:, 1:]

    def values(self, ids, mask=None):
        """A count readout's value at every position, BOS first (see
        the module's documentation): class as integers, ratio on the
        grid of 2^-s in float64."""
        _, keys, _ = self._inputs(ids, mask)
        v = self.scores(ids, mask).to(torch.float64)
        if self.readout == "ratio":
            grid = 2.0 ** self.precision[1]
            return torch.where(keys, torch.floor(v * grid) / grid,
                               torch.zeros_like(v))
        return torch.where(keys, torch.round(v), torch.zeros_like(v)).long()

    def encode(self, word):
        """Letter ids of a word: single characters, or whitespace-separated
        tokens when it contains whitespace."""
        letters = word.split() if any(c.isspace() for c in word) \
            else list(word)
        index = {a: t for t, a in enumerate(self.alphabet)}
        for a in letters:
            if a not in index:
                raise ValueError(f"'{a}' is not a letter of the alphabet "
                                 f"{self.alphabet}")
        return [index[a] for a in letters]


# ---- translating the feed-forward gates -----------------------------------

class _Plan:
    """Where every gate goes: the ReLU blocks (stages) of each
    feed-forward part, the scratch components they add, and the bound on
    every component's magnitude that keeps ge0's slope finite."""

    def __init__(self, m, dtype, gate_slope):
        d = m["d"]
        self.width = d
        self.dtype = dtype
        self.gate_slope = gate_slope
        self.slopes = []
        cols = list(zip(*m["embed"]))
        self.bound = [float(max(abs(w) for w in col)) for col in cols]
        self.boolean = [all(w in (0, 1) for w in col) for col in cols]
        self.nonzero = [any(w != 0 for w in col) for col in cols]
        for out, _, _ in m["features"]:
            self.bound[out] += 1.0
            self.boolean[out] = False
            self.nonzero[out] = True
        self.input = self.ffn(m["input"])
        self.layers = []
        for ly in m["layers"]:
            self.heads(ly["heads"])
            self.layers.append(self.ffn(ly["ffn"]))

    def scratch(self, bound):
        self.bound.append(bound)
        self.boolean.append(False)
        self.nonzero.append(True)
        self.width += 1
        return self.width - 1

    def heads(self, heads):
        add = []
        for h in heads:
            v = float(abs(h["bv"])) + sum(float(abs(w)) * self.bound[c]
                                          for (_, c), w in h["wv"].items())
            c = max(float(abs(x)) for x in h["urpe"]) if h["urpe"] else 1.0
            add.append((h["out"], v * c))
        for out, b in add:
            self.bound[out] += b
            self.boolean[out] = False
            self.nonzero[out] = True

    def ffn(self, items):
        if items and items[0][0] == "block":
            return [self.block(b) for b in items]
        return _schedule(self, items)

    def block(self, b):
        _, h, w1, b1, w2, b2 = b
        hb = [float(abs(b1[r])) for r in range(h)]
        for (r, c), w in w1.items():
            hb[r] += float(abs(w)) * self.bound[c]
        add = [float(abs(x)) for x in b2]
        for (c, r), w in w2.items():
            add[c] += float(abs(w)) * hb[r]
        for c in range(len(b2)):
            if add[c] or any(cc == c for cc, _ in w2):
                self.bound[c] += add[c]
                self.boolean[c] = False
                self.nonzero[c] = True
        units = [dict(w1={c: w for (r2, c), w in w1.items() if r2 == r},
                      b1=b1[r],
                      w2={c: w for (c, r2), w in w2.items() if r2 == r})
                 for r in range(h)]
        return dict(units=units, b2={c: x for c, x in enumerate(b2) if x})

    def slope(self, bound, path):
        """K for a gate whose argument is at most bound in magnitude: the
        hidden unit 1 - K s must stay finite."""
        if self.gate_slope is not None:
            k = float(self.gate_slope)
        else:
            room = torch.finfo(self.dtype).max / (4.0 * max(bound, 1.0))
            k = min(GATE_SLOPE, 2.0 ** math.floor(math.log2(room)))
        self.slopes.append((path, k))
        return k


def _schedule(plan, gates):
    """Stages (ReLU blocks) for a list of gates in order: a gate reads
    the stream as the gates before it left it, so it goes after the
    stages that write its inputs; ge0 takes two stages."""
    stages = []
    ready, lastread = {}, {}

    def stage(i):
        while len(stages) <= i:
            stages.append(dict(units=[], b2={}))
        return stages[i]

    for _, op, ins, out, bias, path in gates:
        general = op == "ge0" or (op == "not" and not plan.boolean[ins[0]])
        if op in ("and", "or"):
            ins = [c if plan.boolean[c] else
                   _positive(plan, stage, ready, lastread, c, path)
                   for c in ins]
        first = max([ready.get(c, 0) for c in ins] + [0])
        write = max(first + general, ready.get(out, 0), lastread.get(out, 0))
        first = write - general
        for c in ins:
            lastread[c] = max(lastread.get(c, 0), first)
        if general:  # s = ReLU(-(v + b)) in a scratch component, then
            # ReLU(1 - K s): stream values stay as large as v, K only
            # a weight
            sign = 1 if op == "ge0" else -1
            b = bias if op == "ge0" else Fraction(0)
            size = plan.bound[ins[0]] + float(abs(b))
            k = plan.slope(size, path)
            t = plan.scratch(size)
            stage(first)["units"].append(
                dict(w1={ins[0]: -sign}, b1=-b, w2={t: 1}))
            gate_units = [dict(w1={t: -k}, b1=1, w2={out: 1})]
            b2 = 0
        elif op == "not":
            gate_units = [dict(w1={ins[0]: -1}, b1=1, w2={out: 1})]
            b2 = 0
        elif op == "and":
            w1 = {}
            for c in ins:
                w1[c] = w1.get(c, 0) + 1
            gate_units = [dict(w1=w1, b1=-(len(ins) - 1), w2={out: 1})]
            b2 = 0
        else:  # or = 1 - ReLU(1 - sum)
            w1 = {}
            for c in ins:
                w1[c] = w1.get(c, 0) - 1
            gate_units = [dict(w1=w1, b1=1, w2={out: -1})]
            b2 = 1
        st = stage(write)
        if plan.nonzero[out]:  # the gate sets its output: cancel the old
            st["units"].append(dict(w1={out: 1}, b1=0, w2={out: -1}))
            if not plan.boolean[out]:
                st["units"].append(dict(w1={out: -1}, b1=0, w2={out: 1}))
        st["units"].extend(gate_units)
        if b2:
            st["b2"][out] = st["b2"].get(out, 0) + b2
        ready[out] = write + 1
        plan.bound[out] = 1.0
        plan.boolean[out] = True
        plan.nonzero[out] = True
    return stages


def _positive(plan, stage, ready, lastread, c, path):
    """A Boolean scratch component holding [v > 0] for the value v of
    component c, in two stages: s = ReLU(v), then 1 - ReLU(1 - K s)."""
    first = ready.get(c, 0)
    lastread[c] = max(lastread.get(c, 0), first)
    k = plan.slope(plan.bound[c], path)
    t = plan.scratch(plan.bound[c])
    stage(first)["units"].append(dict(w1={c: 1}, b1=0, w2={t: 1}))
    b = plan.scratch(1.0)
    plan.boolean[b] = True
    st = stage(first + 1)
    st["units"].append(dict(w1={t: -k}, b1=1, w2={b: -1}))
    st["b2"][b] = 1
    ready[b] = first + 2
    return b


def _load_stage(mlp, st):
    for r, u in enumerate(st["units"]):
        for c, w in u["w1"].items():
            mlp.lin1.weight[r, c] = float(w)
        mlp.lin1.bias[r] = float(u["b1"])
        for c, w in u["w2"].items():
            mlp.lin2.weight[c, r] = float(w)
    for c, x in st["b2"].items():
        mlp.lin2.bias[c] = float(x)


def _load_heads(attn, heads):
    dk = attn.dk
    for i, h in enumerate(heads):
        for (r, c), w in h["wq"].items():
            attn.q.weight[i * dk + r, c] = float(w)
        for (r, c), w in h["wk"].items():
            attn.k.weight[i * dk + r, c] = float(w)
        for (_, c), w in h["wv"].items():
            attn.v.weight[i, c] = float(w)
        attn.v.bias[i] = float(h["bv"])
        attn.o.weight[h["out"], i] = 1.0
        if attn.alibi is not None:
            attn.alibi[i] = float(h["slope"])
        if h["t5"]:
            attn.t5[str(i)].copy_(torch.tensor([float(x) for x in
                                                h["t5"]["bias"]]))
        if h["urpe"]:
            attn.urpe[str(i)].copy_(torch.tensor([float(x) for x in
                                                  h["urpe"]]))


def load_model(path_or_dict, dtype=torch.float64, gate_slope=None,
               device="cpu", emulate=None, in_order=False):
    """The model of `tally compile` (a file name or the parsed JSON) as a
    CompiledTransformer in the arithmetic dtype."""
    if isinstance(dtype, str):
        if dtype not in DTYPES:
            raise ValueError(f"dtype: expected one of {', '.join(DTYPES)}, "
                             f"found '{dtype}'")
        dtype = DTYPES[dtype]
    if dtype not in (torch.float64, torch.float32, torch.bfloat16,
                     torch.float16):
        raise ValueError(f"dtype: expected float64, float32, bfloat16 or "
                         f"float16, found {dtype}")
    model = read_model(path_or_dict)
    _warn_if_inexact(model, dtype)
    return CompiledTransformer(model, dtype, gate_slope, device, emulate,
                               in_order)


IEEE = {torch.float32: "fp32", torch.bfloat16: "bf16", torch.float16: "fp16"}


def _warn_if_inexact(model, dtype):
    """A positional encoding other than NoPE can round to wrong verdicts
    in an IEEE format: tally simulate --check-against-formula (every word
    up to length 8) under that format's semantics finds the first wrong
    length, and a warning names it.  float64 has no such semantics in
    tally: not checked."""
    tally = _tally()
    if model["pe"] == "nope" or dtype not in IEEE or tally is None or \
            model["formula"] is None:
        return
    sem = "ieee=" + IEEE[dtype]
    _, out, _ = tally.run("simulate", "--check-against-formula",
                          "--semantics=" + sem, "--max-length=8", "--json",
                          input=model["json"], ok=(0, 1))
    r = json.loads(out.splitlines()[-1])
    if r.get("result") == "disagreement":
        warnings.warn(f"tally_torch: positional encoding "
                      f"\"{model['pe']}\" is inexact in {dtype}: the first "
                      f"wrong verdict is at length {r['length']} (word "
                      f"'{r['word']}'; tally simulate "
                      f"--check-against-formula --semantics={sem})",
                      stacklevel=3)


# ---- command line ---------------------------------------------------------

def _batches(model, words, size=512):
    """The words' ids in batches of similar lengths, right-padded."""
    order = sorted(range(len(words)), key=lambda i: len(words[i]))
    for at in range(0, len(order), size):
        part = order[at:at + size]
        n = max(len(words[i]) for i in part)
        ids = torch.zeros(len(part), n, dtype=torch.int64)
        mask = torch.zeros(len(part), n, dtype=torch.bool)
        for r, i in enumerate(part):
            ids[r, :len(words[i])] = torch.tensor(words[i], dtype=torch.int64)
            mask[r, :len(words[i])] = True
        yield part, ids, mask


def _line(model, row, positions):
    """What the command line prints for a word's row (BOS first)."""
    if model.readout == "ratio":
        return " ".join(str(Fraction(v)) for v in row[1:])
    if model.readout == "class":
        return " ".join(map(str, row[1:]))
    if positions or model.readout == "per_position":
        return "".join(map(str, row[1:]))
    return "accept" if row[-1] else "reject"


def main(argv):
    dtype, positions, emulate, in_order, args = "float64", False, None, \
        False, []
    for a in argv:
        if a.startswith("--dtype="):
            dtype = a[len("--dtype="):]
        elif a == "--emulate":
            emulate = True
        elif a == "--in-order":
            in_order = True
        elif a == "--positions":
            positions = True
        elif a.startswith("--") or a in ("-h",):
            sys.exit(__doc__)
        else:
            args.append(a)
    if not args:
        sys.exit(__doc__)
    try:
        model = load_model(args[0], dtype, emulate=emulate,
                           in_order=in_order)
    except (ModelError, OSError, ValueError) as e:
        sys.exit(f"tally_torch.py: {args[0]}: {e}")
    texts = args[1:] or [line.rstrip("\n") for line in sys.stdin]
    try:
        words = [model.encode(w) for w in texts]
    except ValueError as e:
        sys.exit(f"tally_torch.py: {e}")
    lines = [None] * len(texts)
    with torch.no_grad():
        for part, ids, mask in _batches(model, words):
            bits = model(ids, mask, bos=True)
            for r, i in enumerate(part):
                row = bits[r, :len(words[i]) + 1].tolist()
                lines[i] = _line(model, row, positions)
    for text, line in zip(texts, lines):
        print(f"{text}\t{line}")


if __name__ == "__main__":
    main(sys.argv[1:])
