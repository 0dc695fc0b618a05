"""Compiled transformers: `tally compile` and `tally simulate`
in-process, and the PyTorch module of contrib/tally_torch.py."""

import json
from fractions import Fraction

import numpy as np


class Model:
    """A transformer written by `tally compile`: json is its object
    (weights as exact dyadic rationals), text the bytes tally wrote."""

    def __init__(self, text):
        self.text = text
        self.json = json.loads(text)
        self.alphabet = tuple(self.json["alphabet"])
        self.n_layers = self.json["n_layers"]
        # "accept", or a sequence readout: per_position, class, ratio
        self.readout = self.json["output"].get("readout", "accept")

    def simulate(self, words, semantics=None, **kw):
        """The verdicts of `tally simulate` (bit-exact, semantics=
        'kneedeep', 'rounded-sums' or 'ieee=fp32|bf16|fp16') on the
        words, a NumPy bool array; for a sequence readout a list of
        NumPy arrays, one per word, of its values at positions 1..n
        (int64; float64 for a ratio, whose values are exact dyadic
        rationals)."""
        return simulate(self, words, semantics=semantics, **kw)

    def to_torch(self, dtype=None, **kw):
        """The nn.Module of tally_torch.load_model (needs torch)."""
        try:
            from . import tally_torch
        except ImportError:
            import tally_torch
        if dtype is not None:
            kw["dtype"] = dtype
        return tally_torch.load_model(self.json, **kw)


def compile(formula, **kw):
    """`tally compile`: the model of a past-only formula or program
    (options as keywords: precision=, positional=, ffn=, ...;
    per_position=True, readout='class:LO:HI' or 'ratio' for sequence
    outputs, man/tally-compile.1)."""
    from . import options, run, _formula
    # text is parsed first, as everywhere: a count is a Formula too
    return Model(run("compile", *options(kw), *_formula(formula).args())[1])


def simulate(model, words, **kw):
    """`tally simulate --json` of the model on the words."""
    from . import options, run
    if isinstance(words, str):
        raise TypeError("words: a list of words, not one string")
    args = [a for w in words for a in ("-w", w if w else "")]
    out = run("simulate", "--json", *options(kw), *args,
              input=model.text, ok=(0, 1))[1]
    recs = [json.loads(line) for line in out.splitlines()]
    if model.readout == "accept":
        return np.array([r["accepted"] for r in recs], dtype=bool)
    if model.readout == "ratio":
        return [np.array([float(Fraction(v)) for v in r["values"]],
                         dtype=np.float64) for r in recs]
    return [np.array(r["values"], dtype=np.int64) for r in recs]
