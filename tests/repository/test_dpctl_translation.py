"""The translated dpctl tests of tests/dpctl_compat are the output of
tools/translate_dpctl_tests.py, byte for byte (nobody edits them by hand),
and excluded.txt names only tests that exist."""

import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FOLDER = ROOT / "tests" / "dpctl_compat"
sys.path.insert(0, str(ROOT / "tools"))

import translate_dpctl_tests as tool  # noqa: E402


def test_the_translated_files_are_the_tools_output():
    git_dir = tool.find_git_dir(None)
    if git_dir is None:
        pytest.skip("needs a clone of dpctl with its 0.21.1 tag: set DPCTL_GIT_DIR")
    files = tool.generate(git_dir)
    committed = {p.name for p in FOLDER.glob("test_dpctl_*.py")}
    assert committed == set(files), "run tools/translate_dpctl_tests.py: the files differ"
    stale = [name for name, text in files.items() if (FOLDER / name).read_text() != text]
    assert not stale, f"run tools/translate_dpctl_tests.py (not a hand edit): {stale}"


def test_the_excluded_list_names_tests_that_exist():
    names = {}
    for path in FOLDER.glob("test_dpctl_*.py"):
        names[path.name] = set(re.findall(r"^(?:    )?def (test\w*)", path.read_text(), re.M))
    for line in (FOLDER / "excluded.txt").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        key, reason = line.split("  ", 1)
        assert re.match(r"(missing|behaviour|untranslatable): ", reason), line
        node = key.split(" ")[-1]
        file, _, test = node.partition("::")
        test = re.sub(r"\[.*\]$", "", test).split("::")[-1]
        assert test in names.get(file, ()), f"excluded.txt names {node}, which does not exist"
