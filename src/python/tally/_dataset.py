"""Labelled datasets: `tally gen` in-process, as NumPy arrays.

The words, labels and splits are those `tally gen` writes for the
same options and seed (the same engine runs).  Word labels over
one-byte letters come from the engine as arrays, never as text
(_tally.gen_arrays: 10^6 words in less CPU than `tally gen` writing
them to a file); other records are gen's text, read into arrays here."""

import json
import os
import tempfile

import numpy as np


class Dataset:
    """The words of one `tally gen` run.

    words      NumPy bytes array (dtype S: UTF-8, padded with NULs)
    labels     int8 array: each word's verdict (0/1); for a count-valued
               program (report["output"] == "integer") an int64 array of
               its values at the last position
    positions  labels="position": a uint8 array per word, the verdict of
               every prefix from the empty one on; else None
    values     labels="sequence": an int64 array per word, the output at
               every position 1..n (Booleans as 0/1); else None
    rows       labels="prediction": gen's JSON objects, one per word
    split      the split name of each word (a str array), or None
    report     the leakage report (`--report`), a dict
    Iterating yields (word, label) or (word, label, split).
    """

    def __init__(self, out, kind, report, arrays=None):
        self.kind, self.report = kind, report
        self.positions = self.rows = self.values = None
        if arrays is not None:
            self._arrays(*arrays)
            return
        integer = bool(report) and report.get("output") == "integer"
        if kind == "prediction":
            self.rows = [json.loads(line) for line in out.splitlines()]
            cols = [(r["word"].encode(), b"%d" % r["label"])
                    + ((r["split"].encode(),) if "split" in r else ())
                    for r in self.rows]
        elif kind == "word" and not integer and \
                b"\t" not in out[:out.find(b"\n")][:-2]:
            self._word_label(out)  # WORD<TAB>LABEL: the fast path
            return
        else:
            cols = [line.split(b"\t") for line in out.split(b"\n")[:-1]]
        if kind == "position":
            self.positions = [np.frombuffer(c[2], np.uint8) - 48
                              for c in cols]
            cols = [c[:2] + c[3:] for c in cols]
        if kind == "sequence":  # V1,...,Vn (empty for the empty word)
            self.values = [np.array(c[2].split(b",") if c[2] else [],
                                    dtype=np.int64) for c in cols]
            cols = [c[:2] + c[3:] for c in cols]
        self.words = np.array([c[0] for c in cols], dtype=bytes)
        if integer:
            self.labels = np.array([int(c[1]) for c in cols], dtype=np.int64)
        else:
            self.labels = (np.array([c[1] for c in cols], dtype=bytes)
                           == b"1").astype(np.int8)
        self.split = np.array([c[2].decode() for c in cols]) \
            if cols and len(cols[0]) > 2 else None

    def _arrays(self, words, width, labels, splits, names):
        """gen's records as the extension's arrays (no text): a byte row
        per word, a label byte per word, the index of its split."""
        rows = len(labels)
        self.words = np.frombuffer(words, "S%d" % max(width, 1)) \
            if width else np.zeros(rows, "S1")
        self.labels = np.frombuffer(labels, np.int8)
        self.split = None if names is None else \
            np.array(names)[np.frombuffer(splits, np.uint8)]

    def _word_label(self, out):
        """Lines WORD<TAB>L with a one-character L, without a line loop
        in Python: the labels are the bytes before the newlines."""
        raw = np.frombuffer(out, np.uint8)
        ends = np.flatnonzero(raw == 10)
        self.labels = (raw[ends - 1] - 48).astype(np.int8)
        self.split = None
        width = int(ends[0]) + 1 if len(ends) else 0
        if width > 3 and width * len(ends) == len(raw) and \
                (np.diff(ends) == width).all():
            # one length: the words are a column of a byte matrix
            rows = raw.reshape(len(ends), width)[:, :width - 3]
            self.words = np.ascontiguousarray(rows).view(
                "S%d" % (width - 3)).ravel()
            return
        lines = out.split(b"\n")[:-1]
        self.words = np.array([line[:-2] for line in lines], dtype=bytes)

    def __len__(self):
        return len(self.words)

    def __iter__(self):
        for i, w in enumerate(self.words):
            row = (w.decode(), self.labels[i])
            yield row + (self.split[i],) if self.split is not None else row

    def ids(self, alphabet):
        """The words as letter ids (alphabet[t] is letter t), an array of
        the smallest signed integers that hold them, padded with -1
        (one-byte letters only)."""
        table = np.full(256, -2, np.int8 if len(alphabet) < 127
                        else np.int16 if len(alphabet) < 32767 else np.int32)
        table[0] = -1
        for t, letter in enumerate(alphabet):
            b = letter.encode()
            if len(b) != 1:
                raise ValueError("ids: one-byte letters only, not %r" % letter)
            table[b[0]] = t
        width = max(self.words.dtype.itemsize, 1)
        codes = table[self.words.view(np.uint8)
                      .reshape(len(self.words), width)] \
            if len(self.words) else np.zeros((0, 0), table.dtype)
        if (codes == -2).any():
            raise ValueError("ids: a letter outside the alphabet")
        return codes


def generate(formula=None, labels="word", **kw):
    """`tally gen` words: formula is a tally.Formula or TL text, or give
    family= (and k=).  Other keywords are gen's options: sample=,
    min_length=, max_length=, split="train:1..50,test:51..100", ratio=,
    random=, seed=, alphabet=, horizon=, max_states=."""
    from . import options, run, _formula
    # text is parsed first (a bad formula fails here, with info's
    # message), counts included: info describes them
    args = _formula(formula).args() if formula is not None else ["--words"]
    if labels == "prediction":
        args.append("--format=jsonl")
    fd, path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        out, _, arrays = run("gen", "--quiet", "--labels=" + labels,
                             "--report=" + path, *options(kw), *args,
                             raw=True, arrays=True)[1:]
        with open(path) as r:
            text = r.read()
        report = json.loads(text) if text.strip() else None
    finally:
        os.unlink(path)
    return Dataset(out, labels, report, arrays)
