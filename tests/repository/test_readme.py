"""Every Python example of the README and of the documentation runs, with
the output it shows: blocks written as interactive sessions (>>>) are
doctests, other Python blocks must run without an exception (in the
documentation, the ``.. code-block:: python`` blocks of class ``test-runs``;
``test-compiles`` ones are compiled only)."""

import doctest
import os
import pathlib
import re
import textwrap
from unittest import mock

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def python_blocks(markdown):
    """(line number, code, kind) of each ```python block: "fragment" for a
    block fenced ```python fragment, which uses names from its context;
    "sycl" for one fenced ```python sycl, which needs dpctl, dpnp and a SYCL
    device; "" for the others."""
    return [
        (markdown[: m.start()].count("\n") + 2, m.group(2), (m.group(1) or "").strip())
        for m in re.finditer(r"^```python( fragment| sycl)?\n(.*?)^```", markdown, re.S | re.M)
    ]


def needs_sycl():
    """Skips without dpctl and dpnp; with them, a SYCL device must be there
    (as tests/backends/test_sycl.py has it): an empty list is how the runtime fails."""
    pytest.importorskip("dpctl")
    pytest.importorskip("dpnp")
    import usmarray as ua

    assert ua.get_devices(backend="sycl"), "dpctl is installed but there is no SYCL device"


README_BLOCKS = python_blocks((ROOT / "README.md").read_text())


def test_the_readme_has_examples():
    assert any(kind == "" for _, _, kind in README_BLOCKS), "README.md lost its tour"
    assert any(kind == "sycl" for _, _, kind in README_BLOCKS), "README.md lost its dpctl tour"


@pytest.mark.parametrize(
    "line, code, kind", README_BLOCKS, ids=[f"README.md:{line}" for line, _, _ in README_BLOCKS]
)
def test_readme_block_runs(line, code, kind):
    name = f"README.md:{line}"
    if kind == "sycl":
        needs_sycl()
    if kind == "fragment":
        compile(code, name, "exec")
    elif code.lstrip().startswith(">>>"):
        test = doctest.DocTestParser().get_doctest(code, {}, name, "README.md", line)
        runner = doctest.DocTestRunner(optionflags=FLAGS)
        runner.run(test)
        assert runner.failures == 0, f"{runner.failures} example(s) of {name} failed (output above)"
    else:
        exec(compile(code, name, "exec"), {"__name__": "readme"})


# extension.rst's session needs its example extension built:
# tests/interop/test_capi.py builds and runs it.
DOC_PAGES = sorted(p for p in (ROOT / "docs").glob("*.rst") if p.name != "extension.rst")


@pytest.mark.parametrize("page", DOC_PAGES, ids=[p.name for p in DOC_PAGES])
def test_documentation_examples(page):
    failures, _ = doctest.testfile(str(page), module_relative=False, optionflags=FLAGS)
    assert failures == 0, f"{failures} example(s) of docs/{page.name} failed (output above)"


def rst_python_blocks(rst):
    """(line number, code, classes) of each ``.. code-block:: python`` with a
    ``:class:`` option: ``test-runs`` runs, ``test-compiles`` is compiled
    only, ``needs-<module>`` skips without that module."""
    pattern = r"^( *)\.\. code-block:: python\n\1   :class: ([^\n]+)\n\n((?:\1   .*\n|\n)+)"
    return [
        (
            rst[: m.start()].count("\n") + 1,
            textwrap.dedent(m.group(3)).strip("\n") + "\n",
            m.group(2).split(),
        )
        for m in re.finditer(pattern, rst, re.M)
    ]


DOC_BLOCKS = [
    (page, line, code, classes)
    for page in sorted((ROOT / "docs").glob("*.rst"))
    for line, code, classes in rst_python_blocks(page.read_text())
    if {"test-runs", "test-compiles"} & set(classes)
]


def test_the_documentation_has_runnable_blocks():
    assert any("test-runs" in classes for *_, classes in DOC_BLOCKS)


@pytest.mark.parametrize(
    "page, line, code, classes",
    DOC_BLOCKS,
    ids=[f"docs/{page.name}:{line}" for page, line, _, _ in DOC_BLOCKS],
)
def test_documentation_block_runs(page, line, code, classes):
    name = f"docs/{page.name}:{line}"
    for c in classes:
        if c.startswith("needs-"):
            pytest.importorskip(c.removeprefix("needs-"))
    compiled = compile(code, name, "exec")
    if "test-runs" in classes:
        # A block may set variables of the environment (SCIPY_ARRAY_API):
        # not for the tests after it.
        with mock.patch.dict(os.environ):
            exec(compiled, {"__name__": "docs"})


def test_a_wrong_example_fails():
    # The runner above reports mismatches, not only exceptions.
    test = doctest.DocTestParser().get_doctest(">>> 1 + 1\n3\n", {}, "wrong", "wrong", 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test, out=lambda text: None)
    assert runner.failures == 1


def test_fuzzing_commands_write_outside_the_tracked_corpus():
    # libFuzzer writes new inputs into the first corpus directory it is
    # given: the developer guide's commands must not name the tracked seeds
    # first.
    text = (ROOT / "docs" / "developer.rst").read_text()
    runs = re.findall(r"build-\w+/fuzz/fuzz_\w+((?: +\S+)+)", text)
    assert runs, "docs/developer.rst lost its fuzzing command"
    for args in runs:
        corpora = [a for a in args.split() if not a.startswith("-")]
        assert corpora and not corpora[0].startswith("fuzz/corpus"), args


def test_the_readme_links_every_documentation_page():
    """The README's table of topics is where a reader finds the docs: every
    page but the index is linked from it."""
    readme = (ROOT / "README.md").read_text()
    pages = sorted(p.name for p in (ROOT / "docs").glob("*.rst") if p.name != "index.rst")
    assert pages and not [p for p in pages if f"](docs/{p})" not in readme]
