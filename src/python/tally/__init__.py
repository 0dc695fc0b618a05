"""tally in-process: TL[#] formulas and C-RASP programs from Python.

    import tally
    f = tally.parse("dyck1")          # a TL[#] formula (or prelude name)
    f.depth, f.size, f.alphabet       # 2 19 ('(', ')')
    f.eval(["(())", ")("])            # array([ True, False])
    f.positions(["(()"])              # [array([False, False, False])]
    f.lang(4), f.count(4)             # ['', '()', '(())', '()()'] [1, 0, 1, 0, 2]
    tally.equiv(f, tally.parse("#['('] = #[')']")).counterexample   # ')('
    f.check("sat").verdict            # 'satisfiable'
    d = tally.generate(f, sample=1000, max_length=20, seed=1)
    d.words, d.labels                 # NumPy arrays: the bytes of `tally gen`
    m = tally.compile(f); m.simulate(["()"]); m.to_torch()

Every call runs the engine of the matching `tally` command inside this
process (no subprocess; the C extension _tally), so the answers are the
CLI's: the same verdicts, words, datasets for the same seed and models.
Options a command takes are keyword arguments: ``max_length=8`` is
``--max-length=8``, ``quiet=True`` is ``--quiet``.  A failure raises a
subclass of tally.Error with tally's message and location.  Long calls
release the GIL; Ctrl-C stops them (KeyboardInterrupt).  See tally(1).
"""

import json

import numpy as np

import _tally
from ._errors import Error, InputError, LimitError, InternalError, from_status
from ._dataset import Dataset, generate
from ._model import Model, compile, simulate

__all__ = ["parse", "load", "program", "Formula", "Result", "equiv",
           "check", "generate", "Dataset", "compile", "Model", "simulate",
           "run", "Error", "InputError", "LimitError", "InternalError"]


def options(kw):
    """Keyword arguments as long options: a=1 -> --a=1, b_c=True -> --b-c;
    False and None are left out."""
    out = []
    for key, value in kw.items():
        name = "--" + key.replace("_", "-")
        if value is True:
            out.append(name)
        elif value is not None and value is not False:
            out.append("%s=%s" % (name, value))
    return out


def run(*args, input=None, ok=(0,), raw=False, arrays=False):
    """``tally ARGS`` in-process: (status, stdout, stderr) as str (stdout
    as the bytes tally wrote with raw=True); a status outside ok raises
    the matching tally.Error.  arrays=True (gen): gen's word records
    as arrays where it can (_tally.gen_arrays), appended to the tuple
    (None when they were written as text)."""
    data = input.encode() if isinstance(input, str) else input
    argv = [str(a) for a in args]
    if arrays:
        (status, out, err), got = _tally.gen_arrays(argv)
    else:
        status, out, err = _tally.run(argv, data)
    err = err.decode("utf-8", "replace")
    if status not in ok:
        raise from_status(err, status)
    res = status, out if raw else out.decode("utf-8", "replace"), err
    return res + (got,) if arrays else res


class Formula:
    """A loaded formula or program: what -f, -F or -P gives a command."""

    def __init__(self, flag, text, syntax=None, output=None):
        self.flag, self.text = flag, text
        self.syntax, self.output = syntax, output
        info = json.loads(run("info", "--json", *self.args())[1])
        self.info = info
        self.depth = info["depth"]
        self.size = info["size"]
        self.dag_size = info["dag_size"]
        self.alphabet = tuple(info["letters"])
        self.fragment = info["fragment"]
        # "formula", or "count" for an integer output (logic/README.md
        # §2.7): values are then integers at every position
        self.output_sort = info.get("output", "formula").split()[0]

    def args(self):
        """The input options that load this formula."""
        return ["-" + self.flag, self.text] + options(
            {"syntax": self.syntax, "output": self.output})

    def __repr__(self):
        return "tally.%s(%r)" % ({"f": "parse", "F": "load", "P": "program"}
                                 [self.flag], self.text)

    def print(self, to="tl", expand=False):
        """The text of `tally print --to=TO`."""
        return run("print", "--to=" + to, *options({"expand": expand}),
                   *self.args())[1]

    ascii = property(lambda self: self.print("tl").rstrip("\n"))
    unicode = property(lambda self: self.print("utf8").rstrip("\n"))
    latex = property(lambda self: self.print("latex").rstrip("\n"))
    crasp = property(lambda self: self.print("crasp"))

    def _evaluate(self, words, alphabet, accept_at, tokens):
        if isinstance(words, str):
            raise TypeError("words: a list of words, not one string")
        if accept_at not in ("last", "eos"):
            raise ValueError("accept_at: 'last' or 'eos'")
        words = [" ".join(w) if isinstance(w, (list, tuple)) else w
                 for w in words]
        res, verdicts, lengths, values = _tally.evaluate(
            self.flag, self.text, words, syntax=self.syntax,
            output=self.output, alphabet=alphabet,
            eos=accept_at == "eos", tokens=tokens)
        if res[0] != 0:
            raise from_status(res[2].decode("utf-8", "replace"), res[0])
        return (np.frombuffer(verdicts, np.bool_),
                np.frombuffer(lengths, np.int64),
                np.frombuffer(values, np.bool_))

    def _values(self, words, alphabet, accept_at, tokens, per_position):
        """A count's values through `tally eval --json` (exact integers:
        int64 arrays, object arrays of Python ints past 64 bits)."""
        if isinstance(words, str):
            raise TypeError("words: a list of words, not one string")
        args = [a for w in words for a in
                ("-w", " ".join(w) if isinstance(w, (list, tuple)) else w)]
        if not args:
            return []
        out = run("eval", "--json", "--accept-at=" + accept_at,
                  *options({"alphabet": alphabet, "tokens": tokens,
                            "per_position": per_position}),
                  *self.args(), *args)[1]
        recs = [json.loads(line) for line in out.splitlines()]
        key = "values" if per_position else "value"
        return [_int_array(r[key]) if per_position else int(r[key])
                for r in recs]

    def eval(self, words, alphabet=None, accept_at="last", tokens=False):
        """The verdicts on the words (a NumPy bool array), as `tally eval`;
        for a count (output_sort "count") its values at the judged
        position (int64, or Python ints past 64 bits).  A word is a
        string of one-character letters, a string of whitespace-separated
        tokens, or a list of letters."""
        if self.output_sort == "count":
            return _int_array(self._values(words, alphabet, accept_at,
                                           tokens, False))
        return self._evaluate(words, alphabet, accept_at, tokens)[0]

    def positions(self, words, alphabet=None, accept_at="last",
                  tokens=False):
        """The output's value at positions 1..n of each word (one NumPy
        bool array per word, int64 for a count): the last row of `tally
        eval --trace`, `tally eval --per-position`."""
        if self.output_sort == "count":
            return self._values(words, alphabet, accept_at, tokens, True)
        _, lengths, values = self._evaluate(words, alphabet, accept_at,
                                            tokens)
        return np.split(values, np.cumsum(lengths)[:-1]) if len(lengths) \
            else []

    def lang(self, max_length, **kw):
        """The accepted words up to max_length (`tally lang`), shortlex."""
        out = run("lang", "--max-length=%d" % max_length, *options(kw),
                  *self.args())[1]
        return out.split("\n")[:-1]

    def count(self, max_length, **kw):
        """The number of accepted words of each length 0..max_length
        (`tally lang --count`), exact Python ints."""
        out = run("lang", "--count", "--json", "--max-length=%d" % max_length,
                  *options(kw), *self.args())[1]
        return json.loads(out)["counts"]

    def equiv(self, other, **kw):
        return equiv(self, other, **kw)

    def check(self, task="sat", **kw):
        return check(self, task, **kw)


def parse(text, syntax=None, output=None):
    """A TL[#] formula (or C-RASP with syntax="crasp") from text, as -f."""
    return Formula("f", text, syntax, output)


def load(path, syntax=None, output=None):
    """A file of definitions and formulas, as -F."""
    return Formula("F", str(path), syntax, output)


def program(path, syntax=None, output=None):
    """A C-RASP program file (.crasp or .cr), as -P."""
    return Formula("P", str(path), syntax, output)


def _int_array(values):
    """Exact integers as int64, or as Python ints when one does not fit
    (JSON writes those as decimal strings)."""
    values = [int(v) for v in values]
    if all(-2**63 <= v < 2**63 for v in values):
        return np.array(values, dtype=np.int64)
    return np.array(values, dtype=object)


def _formula(x):
    return x if isinstance(x, Formula) else parse(x)


class Result:
    """The answer of equiv or check: verdict ('equivalent', 'not
    equivalent', 'satisfiable', 'valid up to length 8', 'unknown', ...),
    outcome ('proved', 'refuted', 'bounded', 'unknown'), method, the
    counterexample or witness word (None without one), the certificate
    (certificate=True; None otherwise), status (the CLI's exit status)
    and json (everything `--json` printed)."""

    def __init__(self, status, j):
        self.status, self.json = status, j
        self.verdict = j.get("verdict")
        self.outcome = j.get("outcome")
        self.method = j.get("method")
        self.bound = j.get("bound")
        word = j.get("counterexample") or j.get("witness")
        self.counterexample = word["word"] if isinstance(word, dict) \
            else word
        self.certificate = j.get("certificate")

    def __bool__(self):
        return self.status == 0

    def __repr__(self):
        return "<tally.Result %s%s>" % (
            self.verdict, "" if self.counterexample is None
            else ": %r" % self.counterexample)


def _decide(command, inputs, kw, extra=()):
    args = [a for f in inputs for a in f.args()]
    status, out, _ = run(command, "--json", "--quiet", *extra, *options(kw),
                         *args, ok=(0, 1, 3))
    return Result(status, json.loads(out))


def equiv(first, second, **kw):
    """`tally equiv`: whether the two define the same language.  Options:
    method=, timeout=, max_length=, alphabet=, certificate=True, ..."""
    return _decide("equiv", [_formula(first), _formula(second)], kw)


def check(formula, task="sat", implies=None, **kw):
    """`tally check`: task 'sat', 'valid', or 'implies' with implies=G
    (a Formula or TL text)."""
    if task == "implies":
        g = implies.text if isinstance(implies, Formula) else implies
        extra = ["--implies=" + g]
    elif task in ("sat", "valid"):
        extra = ["--" + task]
    else:
        raise ValueError("task: 'sat', 'valid' or 'implies'")
    return _decide("check", [_formula(formula)], kw, extra)
