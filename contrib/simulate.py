#!/usr/bin/env python3
"""Run a tally-transformer model (the JSON of `tally compile`) with NumPy.

Usage: simulate.py MODEL.json [WORD...]   (no WORD: one word per stdin line)
Prints WORD<TAB>accept|reject, like `tally simulate`.

Semantics: kneedeep only (Yang, Cadilhac & Chiang 2025): values are
mantissas m of F_{p,s} (value m / 2^s), every operation rounds toward -inf
and saturates, except the two attention sums, which are exact (Python
integers).  exp is rounded from 60 significant digits (decimal), which is
exact for the logits tally compile produces (all 0) and for ALiBi logits
of moderate size; it stops with an error when it cannot decide a floor.
Letters are single characters, or whitespace-separated tokens.
"""
import decimal
import json
import sys

import numpy as np


def dyadic(text, s):
    """The mantissa at scale 2^-s of "m" or "m/2^k"."""
    num, _, den = str(text).partition("/")
    num, den = int(num), int(den or 1)
    assert (num << s) % den == 0, f"{text} is not in the grid 2^-{s}"
    return (num << s) // den


class Model:
    def __init__(self, j):
        self.p, self.s = j["precision"]["p"], j["precision"]["s"]
        self.lo, self.hi = -(1 << (self.p - 1)), (1 << (self.p - 1)) - 1
        self.d = j["d_model"]
        self.letters = j["alphabet"]
        self.j = j
        w = lambda x: dyadic(x, self.s)
        self.w = w
        self.embed = np.array([[w(x) for x in row] for row in j["embedding"]],
                              dtype=object)

    def clip(self, x):
        return np.clip(x, self.lo, self.hi)

    def affine(self, wide):
        """Round a value at scale 2^-2s to the grid: floor, saturate."""
        return self.clip(wide // (1 << self.s))

    def dense(self, entries, rows, cols, one_row=False):
        m = np.zeros((rows, cols), dtype=object)
        for e in entries:
            r, c, x = (0, *e) if one_row else e
            m[r, c] = self.w(x)
        return m

    def exp_floor(self, z):
        """floor(exp(z / 2^s) * 2^s), saturated."""
        if z == 0:
            return self.clip(1 << self.s)
        with decimal.localcontext() as ctx:
            ctx.prec = 60
            y = (decimal.Decimal(z) / (1 << self.s)).exp() * (1 << self.s)
            f = int(y.to_integral_value(rounding=decimal.ROUND_FLOOR))
            assert abs(y - f) > decimal.Decimal(10) ** -40, "exp too close"
        return self.clip(f)

    def head(self, h, H):
        s, n = self.s, H.shape[0]
        wv = self.dense(h["value"]["weights"], 1, self.d, True)[0]
        v = self.affine(H.dot(wv) + (self.w(h["value"]["bias"]) << s))
        rows = h["query"]["rows"]
        slope = self.w(h["alibi_slope"])
        if rows == 0 and slope == 0:  # constant logits: running sums
            e = self.exp_floor(0)
            term = self.affine(np.array([e * x for x in v], dtype=object))
            num = np.cumsum(term)
            den = np.array([e * (i + 1) for i in range(n)], dtype=object)
            return self.clip((num << s) // den)
        q = self.affine(H.dot(self.dense(h["query"]["entries"], rows, self.d).T))
        k = self.affine(H.dot(self.dense(h["key"]["entries"], rows, self.d).T))
        out = np.zeros(n, dtype=object)
        for i in range(n):
            num = den = 0
            for jj in range(i + 1):
                qk = sum(a * b for a, b in zip(q[i], k[jj]))  # rows may be 0
                z = self.affine(qk - ((slope * (i - jj)) << s))
                e = self.exp_floor(int(z))
                num += self.affine(e * v[jj])
                den += e
            if den == 0:  # every weight rounded to 0: the plain average
                out[i] = self.clip(int(np.sum(v[:i + 1])) // (i + 1))
            else:
                out[i] = self.clip((num << s) // den)
        return out

    def ffn(self, f, H):
        for g in f.get("gates", []):
            x = H[:, g["in"]]
            bias = self.w(g.get("bias", 0))
            val = {"ge0": lambda: x[:, 0] + bias >= 0, "not": lambda: x[:, 0] <= 0,
                   "and": lambda: np.all(x > 0, axis=1),
                   "or": lambda: np.any(x > 0, axis=1)}[g["op"]]()
            H[:, g["out"]] = np.where(val, 1 << self.s, 0)
        for b in f.get("blocks", []):
            hid = b["hidden"]
            w1 = self.dense(b["w1"], hid, self.d)
            w2 = self.dense(b["w2"], self.d, hid)
            b1 = np.array([self.w(x) << self.s for x in b["b1"]], dtype=object)
            b2 = np.array([self.w(x) << self.s for x in b["b2"]], dtype=object)
            u = np.maximum(self.affine(H.dot(w1.T) + b1), 0)
            H = self.clip(H + self.affine(u.dot(w2.T) + b2))
        return H

    def accepts(self, tokens):
        H = self.embed[[0] + tokens].copy()
        for layer in self.j["layers"]:
            new = H.copy()
            for h in layer["heads"]:
                new[:, h["out"]] = self.clip(new[:, h["out"]] + self.head(h, H))
            H = self.ffn(layer["ffn"], new)
        wout = self.dense(self.j["output"]["weights"], 1, self.d, True)[0]
        bias = self.w(self.j["output"]["bias"]) << self.s
        return self.affine(H[-1].dot(wout) + bias) > 0


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        model = Model(json.load(f))
    words = sys.argv[2:] or [line.rstrip("\n") for line in sys.stdin]
    index = {a: t + 1 for t, a in enumerate(model.letters)}
    for word in words:
        letters = word.split() if any(c.isspace() for c in word) else list(word)
        if any(a not in index for a in letters):
            sys.exit(f"simulate.py: a letter of '{word}' is not in the alphabet")
        ok = model.accepts([index[a] for a in letters])
        print(f"{word}\t{'accept' if ok else 'reject'}")


if __name__ == "__main__":
    main()
