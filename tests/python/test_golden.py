"""Golden examples both ways: every prelude formula and corpus program
through the package and through the `tally` binary, answers equal."""

import glob
import json
import os

import numpy as np
import pytest

import tally
from conftest import TOP, cli

NAMES = cli("gen", "--prelude")[1].split()


def is_formula(name):
    """Whether `tally info` describes name as a formula (a count-valued
    entry has "output": "count")."""
    status, out, _ = cli("info", "--json", "-f", name)
    return status == 0 and json.loads(out).get("output") != "count"


# The prelude's count-valued entries (histogram, margin, ...) are terms,
# not languages: the package's formulas are the Boolean ones.
PRELUDE = [n for n in NAMES if is_formula(n)]
COUNTS = [n for n in NAMES if n not in PRELUDE]
PROGRAMS = sorted(glob.glob(os.path.join(TOP, "corpora", "programs", "*.cr*")))


def load(spec):
    return tally.program(spec) if os.sep in spec else tally.parse(spec)


def flag(spec):
    return ["-P", spec] if os.sep in spec else ["-f", spec]


def words_upto(alphabet, n):
    out = [""]
    layer = [""]
    for _ in range(n):
        layer = [w + a for w in layer for a in alphabet]
        out += layer
    return out


def test_prelude_is_listed():
    assert "dyck1" in PRELUDE and len(PRELUDE) > 20


def test_count_valued_prelude_are_terms():
    assert "histogram" in COUNTS
    for name in COUNTS:
        assert cli("info", "-f", name + " >= 0")[0] == 0, name


@pytest.mark.parametrize("spec", PRELUDE + PROGRAMS)
def test_info_and_printers(spec):
    f = load(spec)
    info = json.loads(cli("info", "--json", *flag(spec))[1])
    assert (f.depth, f.size, list(f.alphabet)) == \
        (info["depth"], info["size"], info["letters"])
    for to, text in (("tl", f.ascii), ("utf8", f.unicode),
                     ("latex", f.latex)):
        assert text + "\n" == cli("print", "--to=" + to, *flag(spec))[1]
    status, out, err = cli("print", "--to=crasp", *flag(spec))
    if status == 0:
        assert f.crasp == out
    else:  # the same refusal, as an exception
        with pytest.raises(tally.Error) as e:
            f.crasp
        assert e.value.status == status and e.value.message in err


@pytest.mark.parametrize("spec", PRELUDE + PROGRAMS)
def test_eval_and_lang(spec):
    f = load(spec)
    letters = [a for a in f.alphabet if len(a) == 1][:3]
    words = words_upto(letters, 6 if len(letters) < 3 else 4)
    status, out, _ = cli("eval", "--no-echo", *flag(spec),
                         input="\n".join(words) + "\n")
    assert status in (0, 1)
    want = np.array([line == "accept" for line in out.split()])
    assert (f.eval(words) == want).all()
    # the value at the last position is the verdict (accept-at last)
    ends = [p[-1] for p in f.positions(words[1:])]
    assert (np.array(ends) == want[1:]).all()
    listed = cli("lang", "--max-length=5", *flag(spec))[1]
    assert f.lang(5) == listed.split("\n")[:-1]
    counted = json.loads(cli("lang", "--count", "--json", "--max-length=7",
                             *flag(spec))[1])["counts"]
    assert f.count(7) == counted


@pytest.mark.parametrize("spec", ["dyck1", "L_2", "majority", "first_a",
                                  "parity2"])
def test_equiv_and_check(spec):
    f = load(spec)
    other = "dyck1" if spec != "dyck1" else "L_1"
    r = tally.equiv(f, other, max_length=6)
    status, out, _ = cli("equiv", "--json", "--quiet", "--max-length=6",
                         "-f", spec, "-f", other)
    j = json.loads(out)
    assert (r.status, r.verdict, r.outcome, r.method) == \
        (status, j["verdict"], j["outcome"], j["method"])
    assert r.counterexample == (j.get("counterexample") or {}).get("word")
    s = tally.check(f, "sat", max_length=6)
    j = json.loads(cli("check", "--sat", "--json", "--quiet",
                       "--max-length=6", "-f", spec)[1])
    assert (s.verdict, s.counterexample) == (j["verdict"],
                                             j["witness"]["word"])


@pytest.mark.parametrize("seed", [1, 7])
def test_gen_same_words_same_seed(tmp_path, seed):
    args = ["--sample=200", "--split=train:1..10,test:11..20",
            "--seed=%d" % seed]
    out = cli("gen", "-q", "-f", "L_3", *args)[1]
    d = tally.generate("L_3", sample=200, split="train:1..10,test:11..20",
                       seed=seed)
    rows = [line.split("\t") for line in out.splitlines()]
    assert [w.decode() for w in d.words] == [r[0] for r in rows]
    assert list(d.labels) == [int(r[1]) for r in rows]
    assert list(d.split) == [r[2] for r in rows]
    assert d.report["splits"] if "splits" in d.report else d.report


def test_gen_position_labels():
    out = cli("gen", "-q", "-f", "dyck1", "--sample=50", "--max-length=12",
              "--labels=position")[1]
    d = tally.generate("dyck1", sample=50, max_length=12, labels="position")
    for (w, lab), bits, line in zip(d, d.positions, out.splitlines()):
        assert line.split("\t") == [w, str(lab),
                                    "".join(map(str, bits))]
    pred = tally.generate("dyck1", sample=10, max_length=6,
                          labels="prediction")
    out = cli("gen", "-q", "-f", "dyck1", "--sample=10", "--max-length=6",
              "--labels=prediction", "--format=jsonl")[1]
    assert pred.rows == [json.loads(line) for line in out.splitlines()]


def test_compile_and_simulate():
    m = tally.compile("dyck1")
    assert m.text == cli("compile", "-f", "dyck1")[1]
    words = words_upto("()", 6)
    for sem in ("kneedeep", "ieee=fp16"):
        status, out, _ = cli("simulate", "--json", "--semantics=" + sem,
                             *[a for w in words for a in ("-w", w)],
                             input=m.text)
        want = [json.loads(line)["accepted"] for line in out.splitlines()]
        assert list(m.simulate(words, semantics=sem)) == want


@pytest.mark.parametrize("lengths", [(12, 12), (0, 9)])
def test_gen_word_labels_read_back(lengths):
    """Both readers of WORD<TAB>LABEL: one length (a byte matrix) and
    many."""
    lo, hi = lengths
    out = cli("gen", "-q", "-f", "majority", "--sample=300",
              "--min-length=%d" % lo, "--max-length=%d" % hi)[1]
    d = tally.generate("majority", sample=300, min_length=lo, max_length=hi)
    rows = [line.split("\t") for line in out.splitlines()]
    assert [(w.decode(), int(lab)) for w, lab in zip(d.words, d.labels)] \
        == [(r[0], int(r[1])) for r in rows]


@pytest.mark.parametrize("spec,arrays", [
    ("L_3", True),                      # one-byte letters: arrays
    ("#[Q_open] > #[Q_close]", False),  # tokens: gen's text, read back
    ("histogram", False),               # a count-valued program: text
])
def test_gen_arrays_or_text(spec, arrays):
    """generate() takes word records as arrays (never text) where the
    letters are bytes and the output Boolean, else reads gen's text;
    either way the rows are the CLI's, splits and all."""
    args = ["--sample=60", "--split=a:0..4,b:5..7", "--seed=5",
            "--labels=word"]
    out = cli("gen", "-q", "-f", spec, *args)[1]
    from tally import _tally
    got = _tally.gen_arrays(["gen", "-q", "-f", spec, *args])
    assert (got[1] is not None) == arrays
    assert (got[0][1] == b"") == arrays
    d = tally.generate(spec, sample=60, split="a:0..4,b:5..7", seed=5)
    rows = [line.split("\t") for line in out.splitlines()]
    assert [[w.decode(), str(lab), s] for w, lab, s in
            zip(d.words, d.labels, d.split)] == rows
