"""A property: on random formulas and words, the package's verdicts and
per-position values equal `tally eval --trace`'s last row.  Derandomized
and bounded (a fixed set of examples every run)."""

from hypothesis import given, settings, strategies as st

import tally
from conftest import cli

LETTERS = "ab"


def formulas():
    atom = st.sampled_from(["Q_a", "Q_b", "true", "Y(Q_a)", "MOD(2, 1)",
                            "MOD(3, 0)"])

    def grow(sub):
        count = sub.map(lambda f: "#[%s]" % f)
        return st.one_of(
            sub.map(lambda f: "!(%s)" % f),
            st.tuples(sub, sub).map(lambda p: "(%s) & (%s)" % p),
            st.tuples(sub, sub).map(lambda p: "(%s) | (%s)" % p),
            st.tuples(count, count).map(lambda p: "%s < %s" % p),
            st.tuples(count, st.integers(0, 3)).map(
                lambda p: "%s = %d" % p),
            sub.map(lambda f: "Y(%s)" % f))
    return st.recursive(atom, grow, max_leaves=6)


WORDS = st.lists(st.text(LETTERS, max_size=9), min_size=1, max_size=6)


def last_row(formula, word):
    """The formula's values at positions 1..n from the CLI's trace."""
    out = cli("eval", "--trace", "--alphabet=ab", "-f", formula, "-w",
              word)[1]
    rows = [r for r in out.splitlines() if r.strip()]
    return [int(v) for v in rows[-1].split()[-len(word):]]


@settings(max_examples=60, derandomize=True, deadline=None)
@given(formulas(), WORDS)
def test_eval_agrees_with_cli(formula, words):
    f = tally.parse(formula)
    status, out, _ = cli("eval", "--no-echo", "--alphabet=ab", "-f",
                         formula, input="\n".join(words) + "\n")
    want = [v == "accept" for v in out.split()]
    assert list(f.eval(words, alphabet="ab")) == want
    for word, got in zip(words, f.positions(words, alphabet="ab")):
        if word:
            assert [int(v) for v in got] == last_row(formula, word)
