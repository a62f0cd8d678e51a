"""Every Python example of the README and of the documentation runs, with
the output it shows: blocks written as interactive sessions (>>>) are
doctests, other Python blocks must run without an exception."""

import doctest
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def python_blocks(markdown):
    """(line number, code, is a fragment) of each ```python block; a block
    fenced ```python fragment uses names from its context."""
    return [
        (markdown[: m.start()].count("\n") + 2, m.group(2), bool(m.group(1)))
        for m in re.finditer(r"^```python( fragment)?\n(.*?)^```", markdown, re.S | re.M)
    ]


README_BLOCKS = python_blocks((ROOT / "README.md").read_text())


def test_the_readme_has_examples():
    assert any(not fragment for _, _, fragment in README_BLOCKS), "README.md lost its tour"


@pytest.mark.parametrize(
    "line, code, fragment", README_BLOCKS, ids=[f"README.md:{line}" for line, _, _ in README_BLOCKS]
)
def test_readme_block_runs(line, code, fragment):
    name = f"README.md:{line}"
    if fragment:
        compile(code, name, "exec")
    elif code.lstrip().startswith(">>>"):
        test = doctest.DocTestParser().get_doctest(code, {}, name, "README.md", line)
        runner = doctest.DocTestRunner(optionflags=FLAGS)
        runner.run(test)
        assert runner.failures == 0, f"{runner.failures} example(s) of {name} failed (output above)"
    else:
        exec(compile(code, name, "exec"), {"__name__": "readme"})


# extension.rst's session needs its example extension built:
# tests/test_capi.py builds and runs it.
DOC_PAGES = sorted(p for p in (ROOT / "docs").glob("*.rst") if p.name != "extension.rst")


@pytest.mark.parametrize("page", DOC_PAGES, ids=[p.name for p in DOC_PAGES])
def test_documentation_examples(page):
    failures, _ = doctest.testfile(str(page), module_relative=False, optionflags=FLAGS)
    assert failures == 0, f"{failures} example(s) of docs/{page.name} failed (output above)"


def test_a_wrong_example_fails():
    # The runner above reports mismatches, not only exceptions.
    test = doctest.DocTestParser().get_doctest(">>> 1 + 1\n3\n", {}, "wrong", "wrong", 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test, out=lambda text: None)
    assert runner.failures == 1
