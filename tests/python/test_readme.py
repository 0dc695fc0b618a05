"""The README's "Python" section is real: its >>> examples run as a
doctest against the package."""

import doctest
import os

from conftest import TOP


def test_readme_python_section():
    text = open(os.path.join(TOP, "README.md"), encoding="utf-8").read()
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    section = section.replace("\n```", "\n\n```")  # a fence ends output
    test = doctest.DocTestParser().get_doctest(section, {}, "README", None, 0)
    assert test.examples, "no >>> examples in README's Python section"
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
