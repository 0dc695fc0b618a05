"""The package's own behaviour: errors, types, interrupts, threads."""

import os
import signal
import threading
import time

import itertools

import numpy as np
import pytest

import tally


def test_readme_one_liner():
    f = tally.parse("dyck1")
    v = f.eval(["(())", ")("])
    assert f.depth == 2 and v.dtype == np.bool_ and list(v) == [True, False]


def test_syntax_error_has_location():
    with pytest.raises(tally.InputError) as e:
        tally.parse("#[Q_a] <\n")
    assert (e.value.line, e.value.column) == (1, 9)
    assert e.value.status == 2 and "expected" in e.value.message


def test_bad_word_is_an_input_error():
    with pytest.raises(tally.Error, match="unknown letter 'c'"):
        tally.parse("dyck1").eval(["(c)"])


def test_limit_error():
    with pytest.raises(tally.LimitError):
        tally.parse("L_5").lang(40, max_memory="1K")


def test_positions_shapes():
    f = tally.parse("dyck1")
    p = f.positions(["", "(", "()()", "())"])
    assert [len(a) for a in p] == [0, 1, 4, 3]
    assert list(p[2]) == [False, True, False, True]


def test_tokens_and_accept_at():
    f = tally.parse("#[Q_ab] = 1")
    assert list(f.eval(["ab cd", "cd ab ab"], alphabet="ab,cd")) == \
        [True, False]
    assert list(f.eval([["ab"]], alphabet="ab,cd", tokens=True)) == [True]
    g = tally.parse("Y(Q_a)")
    assert list(g.eval(["a", "ab"], "ab", accept_at="eos")) == [True, False]
    assert list(g.eval(["a", "ab"], "ab")) == [False, True]
    with pytest.raises(ValueError):
        g.eval(["a"], accept_at="first")


def test_ctrl_c_stops_a_long_call():
    f = tally.parse("L_5")
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        f.lang(200)
    assert time.monotonic() - start < 5
    assert f.count(2) == [0, 0, 0]  # the next call is unaffected


def test_gil_released():
    f = tally.parse("L_4")
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)
    t = threading.Thread(target=tick)
    t.start()
    f.lang(14)
    stop.set()
    t.join()
    assert len(ticks) > 5


def test_dataset_arrays():
    d = tally.generate("dyck1", sample=100, max_length=10, seed=3)
    assert d.labels.dtype == np.int8 and len(d) == 100
    ids = d.ids(["(", ")"])
    assert ids.shape[0] == 100 and ids.max() <= 1
    again = tally.generate("dyck1", sample=100, max_length=10, seed=3)
    assert (again.words == d.words).all()


def test_dataset_sequence():
    """A count-valued program's dataset: its values at every position,
    recounted here, and its value at the last position as the label."""
    d = tally.generate("histogram", labels="sequence", sample=60,
                       min_length=0, max_length=9, seed=4)
    assert d.report["output"] == "integer" and len(d) == 60
    assert d.labels.dtype == np.int64
    for w, vals, label in zip(d.words, d.values, d.labels):
        w = w.decode()
        want = [w[:i + 1].count(w[i]) for i in range(len(w))]
        assert list(vals) == want
        assert label == (want[-1] if want else 0)
    b = tally.generate("current_leads", labels="sequence", sample=20,
                       min_length=1, max_length=6, seed=4)
    assert b.labels.dtype == np.int8
    assert all(v[-1] == lab for v, lab in zip(b.values, b.labels))


def _words(n):
    return [""] + ["".join(t) for k in range(1, n + 1)
                   for t in itertools.product("ab", repeat=k)]


def test_counts():
    """A count is a Formula: its values at every position and at the last,
    recounted here (histogram: the current letter's occurrences so far;
    margin: #a - #b), for every word up to length 6."""
    h, m = tally.parse("histogram"), tally.parse("#[Q_a] - #[Q_b]")
    assert h.output_sort == "count" and h.depth == 1
    assert tally.parse("dyck1").output_sort == "formula"
    words = _words(6)
    for w, vals in zip(words, h.positions(words)):
        assert list(vals) == [w[:i + 1].count(w[i]) for i in range(len(w))]
    last = m.eval(words)
    assert last.dtype == np.int64
    assert list(last) == [w.count("a") - w.count("b") for w in words]
    big = tally.parse("#[Q_a] * 10000000000000000000").eval(["aa"])
    assert big[0] == 20000000000000000000


def test_text_parsed_first():
    """compile and generate parse text first: a bad formula fails with
    the parser's InputError, a count goes through with its readout."""
    with pytest.raises(tally.InputError):
        tally.compile("#[Q_a] >")
    with pytest.raises(tally.InputError):
        tally.generate("#[Q_a] >", sample=2)
    mod = tally.compile("histogram", readout="class:0:3")
    assert mod.readout == "class"
    got = mod.simulate(["abba", "aaaa"])
    assert [list(v) for v in got] == [[1, 1, 2, 2], [1, 2, 3, 3]]


def test_to_torch():
    torch = pytest.importorskip("torch")
    m = tally.compile("dyck1").to_torch()
    bits = m(torch.tensor([[0, 1, 1, 0]]))
    want = tally.parse("dyck1").positions(["())("])[0]
    assert [bool(b) for b in bits[0]] == list(want)
