"""record.py -- the Python C-RASP interpreter's outputs for the .cr
programs of this folder (run once, by hand; tests/cli/seq_cr_interp.sh
compares tally with the files it writes).

    PYTHONPATH=/path/to/c-rasp python3 record.py

For every word over {a, b} of length 1..7 (the interpreter skips empty
lines, so the empty word is not asked), each PROGRAM.cr gets a line of
PROGRAM.out: the tokens, a tab, and the value of the program's last
statement at every position as the interpreter's trace gives it
(Booleans written 1/0, as tally eval --per-position prints them)."""

import glob
import itertools
import os

from parser import parse_file
from tracing import Trace


class Last(Trace):
    """Keeps the values of the last statement traced."""

    def accept_tokens(self, tokens):
        self.value = None

    def accept(self, variable, value):
        self.value = value

    def accept_result(self, result):
        pass


here = os.path.dirname(os.path.abspath(__file__))
for path in sorted(glob.glob(os.path.join(here, "*.cr"))):
    program = parse_file(path)
    with open(path[:-3] + ".out", "w") as out:
        for n in range(1, 8):
            for word in itertools.product("ab", repeat=n):
                tr = Last()
                program.execute(list(word), tracing=tr)
                vals = [str(int(v)) if isinstance(v, bool) else str(v)
                        for v in tr.value]
                out.write(" ".join(word) + "\t" + " ".join(vals) + "\n")
