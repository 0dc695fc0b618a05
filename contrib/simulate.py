#!/usr/bin/env python3
"""Run a tally-transformer model (the JSON of `tally compile`) with NumPy.

Usage: simulate.py MODEL.json [WORD...]   (no WORD: one word per stdin line)
Prints WORD<TAB>accept|reject, like `tally simulate`; a model with a
sequence readout (output.readout per_position, class or ratio) prints
WORD<TAB>VALUES, its output at every position as tally simulate does.

Semantics: kneedeep only (Yang, Cadilhac & Chiang 2025): values are
mantissas m of F_{p,s} (value m / 2^s), every operation rounds toward -inf
and saturates, except the two attention sums, which are exact (Python
integers).  exp and cos are rounded from 60 significant digits (decimal),
which is exact for the logits and angles tally compile produces; it stops
with an error when it cannot decide a floor.  Positional encodings: all
of tally's (ALiBi slopes, T5 buckets, URPE diagonals, sinusoidal features
and the input block, RoPE rotations).
Letters are single characters, or whitespace-separated tokens.
"""
import decimal
import json
import sys
from fractions import Fraction


def atan_inv(x):
    """atan(1/x) for an integer x > 1, by its series, at the context's
    precision."""
    total, power, k = decimal.Decimal(0), decimal.Decimal(1) / x, 0
    eps = decimal.Decimal(10) ** -(decimal.getcontext().prec + 2)
    while power > eps:
        term = power / (2 * k + 1)
        total += -term if k % 2 else term
        power /= x * x
        k += 1
    return total


def cos_dec(x):
    """cos(x) for a Decimal x, reduced modulo 2 pi, by its series."""
    two_pi = 2 * (16 * atan_inv(5) - 4 * atan_inv(239))  # Machin
    x = x % two_pi
    total, term, k = decimal.Decimal(0), decimal.Decimal(1), 0
    eps = decimal.Decimal(10) ** -(decimal.getcontext().prec + 2)
    while abs(term) > eps:
        total += term
        term = -term * x * x / ((2 * k + 1) * (2 * k + 2))
        k += 1
    return total


def angle_value(a):
    """An angle as (Fraction times pi) or a Decimal in radians."""
    if isinstance(a, dict):
        e = decimal.Decimal(-2 * a["k"]) / a["d"]
        return (decimal.Decimal(a["base"]).ln() * e).exp()
    return Fraction(a)

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

    def cos_floor(self, angle, phase, pos):
        """floor(cos(pos angle + phase pi) * 2^s), saturated."""
        a = angle_value(angle)
        if isinstance(a, Fraction) or pos == 0:  # Niven: 0, +-1/2, +-1
            t = ((a * pos if isinstance(a, Fraction) else 0) + phase) % 2
            twice = {0: 2, 2: 1, 3: 0, 4: -1, 6: -2, 8: -1, 9: 0, 10: 1}
            if (6 * t).denominator == 1 and int(6 * t) in twice:
                return self.clip((twice[int(6 * t)] << self.s) // 2)
        with decimal.localcontext() as ctx:
            ctx.prec = 60
            pi = 4 * (4 * atan_inv(5) - atan_inv(239))
            x = (a * pos if not isinstance(a, Fraction)
                 else decimal.Decimal(a.numerator) * pos / a.denominator * pi)
            x += decimal.Decimal(phase.numerator) / phase.denominator * pi
            y = cos_dec(x) * (1 << self.s)
            f = int(y.to_integral_value(rounding=decimal.ROUND_FLOOR))
            assert abs(y - f) > decimal.Decimal(10) ** -40, "cos too close"
        return self.clip(f)

    def rotate(self, x, angles, pos):
        """Rows 2k, 2k+1 of x rotated by pos times angle k (rounded)."""
        x = list(x)
        for k, a in enumerate(angles):
            c = self.cos_floor(a, Fraction(0), pos)
            sn = self.cos_floor(a, Fraction(-1, 2), pos)
            x0, x1 = x[2 * k], x[2 * k + 1]
            x[2 * k] = self.affine(c * x0 - sn * x1)
            x[2 * k + 1] = self.affine(sn * x0 + c * x1)
        return x

    def bucket(self, t5, n):
        """T5's bucket of distance n: the largest k with n^A e^k >=
        max^k e^A, found by trying k = 0, 1, ..."""
        nb = t5["num_buckets"] // (2 if t5.get("bidirectional") else 1)
        e, md = nb // 2, t5["max_distance"]
        if n < e:
            return n
        a, k = nb - e, 0
        while k + 1 < a and n ** a * e ** (k + 1) >= md ** (k + 1) * e ** a:
            k += 1
        return e + k

    def head(self, h, H):
        s, n = self.s, H.shape[0]
        wv = self.dense(h["value"]["weights"], 1, self.d, True)[0]
        v = self.affine(H.dot(wv) + (self.w(h["value"]["bias"]) << s))
        rows = h["query"]["rows"]
        slope = self.w(h["alibi_slope"])
        t5, urpe, rope = h.get("t5"), h.get("urpe"), h.get("rope", [])
        if rows == 0 and slope == 0 and not t5 and not urpe:  # running sums
            e = self.exp_floor(0)
            term = self.affine(np.array([e * x for x in v], dtype=object))
            num = np.cumsum(term)
            den = np.array([e * (i + 1) for i in range(n)], dtype=object)
            return self.clip((num << s) // den)
        q = self.affine(H.dot(self.dense(h["query"]["entries"], rows, self.d).T))
        k = self.affine(H.dot(self.dense(h["key"]["entries"], rows, self.d).T))
        q = [self.rotate(q[i], rope, i) for i in range(n)]
        k = [self.rotate(k[i], rope, i) for i in range(n)]

        def c(d):  # URPE's Toeplitz entry, 1 without URPE
            if not urpe:
                return 1 << s
            dg = urpe["diagonals"]
            return self.w(dg[d] if d < len(dg) else urpe["beyond"])

        def term(e, d, x):  # round(round(e c(d)) v)
            return self.affine(self.affine(e * c(d)) * x if urpe else e * x)
        out = np.zeros(n, dtype=object)
        for i in range(n):
            num = den = 0
            for jj in range(i + 1):
                wide = sum(a * b for a, b in zip(q[i], k[jj]))  # rows may be 0
                wide -= (slope * (i - jj)) << s
                if t5:
                    wide += self.w(t5["bias"][self.bucket(t5, i - jj)]) << s
                e = self.exp_floor(int(self.affine(wide)))
                num += term(e, i - jj, v[jj])
                den += e
            if den == 0:  # every weight rounded to 0: a uniform row, then C
                num = sum(term(1 << s, i - jj, v[jj]) for jj in range(i + 1))
                den = (i + 1) << s
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
        return self.outputs(tokens)[-1] > 0

    def outputs(self, tokens):
        """The output mantissa at every position, BOS first."""
        H = self.embed[[0] + tokens].copy()
        for f in self.j.get("features", []):
            phase = Fraction(f.get("phase", "0"))
            for pos in range(H.shape[0]):
                x = self.cos_floor(f["angle"], phase, pos)
                H[pos, f["out"]] = self.clip(H[pos, f["out"]] + x)
        if "input_ffn" in self.j:
            H = self.ffn(self.j["input_ffn"], H)
        for layer in self.j["layers"]:
            new = H.copy()
            for h in layer["heads"]:
                new[:, h["out"]] = self.clip(new[:, h["out"]] + self.head(h, H))
            H = self.ffn(layer["ffn"], new)
        wout = self.dense(self.j["output"]["weights"], 1, self.d, True)[0]
        bias = self.w(self.j["output"]["bias"]) << self.s
        return [self.affine(h.dot(wout) + bias) for h in H]

    def sequence(self, tokens):
        """A sequence readout's values at positions 1..n as tally
        simulate prints them: 0/1, the class's integer, the ratio's
        exact fraction."""
        kind = self.j["output"].get("readout")
        vals = [Fraction(m, 1 << self.s) for m in self.outputs(tokens)[1:]]
        return " ".join(str(v) if kind == "ratio" else
                        str(int(v > 0)) if kind == "per_position" else
                        str(int(v)) for v in vals)


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
        tokens = [index[a] for a in letters]
        if model.j["output"].get("readout", "accept") != "accept":
            print(f"{word}\t{model.sequence(tokens)}")
            continue
        ok = model.accepts(tokens)
        print(f"{word}\t{'accept' if ok else 'reject'}")


if __name__ == "__main__":
    main()
