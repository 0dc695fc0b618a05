"""Shared by the package's tests: the CLI to compare with ($TALLY, as
`make check` sets it) and the corpus ($top_srcdir)."""

import os
import subprocess

import pytest

TALLY = os.environ.get("TALLY", "tally")
TOP = os.environ.get("top_srcdir",
                     os.path.join(os.path.dirname(__file__), "..", ".."))


def cli(*args, input=None):
    """The CLI's (status, stdout, stderr): the reference the package must
    equal."""
    p = subprocess.run([TALLY] + [str(a) for a in args], input=input,
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


@pytest.fixture
def top():
    return TOP
