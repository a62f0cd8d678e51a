"""tools/array_api_xfails.py, which regenerates the expected failures of the
official Array API test suite: the reasons it reads from failures, the file's
format as the suite's parser reads it, and that the file in the tree names
a reason for every test."""

import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
xf = pytest.importorskip("array_api_xfails")

CHAPTERS = {"equal": "elementwise", "all": "utility", "isnan": "elementwise", "sum": "statistical",
            "add": "elementwise", "abs": "elementwise", "matmul": "linear_algebra"}  # fmt: skip
SPECIAL = "array_api_tests/test_special_cases.py::test_binary"


@pytest.mark.parametrize(
    "test_id, message, reason",
    [
        ("t", "AttributeError: module 'usmarray' has no attribute 'equal'",
         "needs usmarray.equal (issue: elementwise)"),
        ("t", "AssertionError: sum is not defined in usmarray", "needs usmarray.sum (issue: statistical)"),
        ("t", "AssertionError: usmarray is missing the elementwise function add()",
         "needs usmarray.add (issue: elementwise)"),
        ("t", "AssertionError: The usmarray array object is missing the method __matmul__()",
         "needs USMArray.__matmul__ (issue: linear_algebra)"),
        ("t", "TypeError: unsupported operand type(s) for +=: 'usmarray.USMArray' and 'int'",
         "needs USMArray.__iadd__ (issue: elementwise)"),
        ("t", "TypeError: unsupported operand type(s) for ** or pow(): 'usmarray.USMArray' and 'int'",
         "needs USMArray.__pow__"),
        ("t", "TypeError: bad operand type for abs(): 'usmarray.USMArray'", "needs USMArray.__abs__ (issue: elementwise)"),
        ("t", "TypeError: USMArray does not compare element-wise ('=='): it has no arithmetic",
         "needs USMArray.__eq__ (issue: elementwise)"),
        (SPECIAL + "[add(x1_i is NaN) -> NaN]", "TypeError: 'NoneType' object is not callable",
         "needs usmarray.add (issue: elementwise)"),
        ("t", "InvalidArgument: Array module usmarray does not have required attributes: all, isnan",
         "needs usmarray.all and usmarray.isnan (issue: utility, elementwise) to draw arrays "
         "(Hypothesis's array strategies)"),
        ("t", "AssertionError: 3 != 4\nmore", "fails: AssertionError: 3 != 4"),
    ],
)  # fmt: skip
def test_reasons_name_the_missing_function(test_id, message, reason):
    got = xf.reason_of(test_id, message, CHAPTERS)
    assert got.startswith(reason), got


def test_the_file_round_trips_and_the_suite_reads_its_ids(tmp_path):
    reasons = {
        "a/test_x.py::test_b[x(1, 2)]": "needs usmarray.x",
        "a/test_x.py::test_a": "fails: boom",
    }
    path = tmp_path / "xfails.txt"
    path.write_text(xf.render(reasons))
    assert xf.read_xfails(path) == reasons
    # The suite's parser: every line that is neither blank nor a comment is
    # an id, as it stands.
    ids = [
        line for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")
    ]
    assert sorted(ids) == sorted(reasons)


@pytest.mark.parametrize("name", ["xfails.txt", "xfails_devices.txt", "xfails_2024.txt"])
def test_the_expected_failures_file_gives_every_test_a_reason(name):
    path = ROOT / "tests" / "array_api" / name
    reasons = xf.read_xfails(path)
    # The host's file is empty: the whole suite passes there.
    assert reasons or name == "xfails.txt", f"tests/array_api/{name} lists no test"
    assert all(r and r != "no reason given" for r in reasons.values())
    assert all(t.startswith("array_api_tests/test_") and "::" in t for t in reasons)
    assert path.read_text() == xf.render(reasons), "regenerate it with tools/array_api_xfails.py"


def test_chapters_come_from_the_standards_stubs():
    suite = xf.SUITE
    if not (suite / "array-api").is_dir():
        pytest.skip("the pinned suite is not beside the project")
    chapters = xf.chapters(suite)
    assert chapters["equal"] == "elementwise" and chapters["matmul"] == "linear_algebra"
    assert chapters["astype"] == "data_type" and chapters["cholesky"] == "linalg extension"


def test_a_reason_naming_what_now_exists_is_read_again():
    assert xf.stale("needs usmarray.astype (issue: data_type)")
    assert not xf.stale("needs USMArray.__or__ (issue: elementwise)")
    assert not xf.stale("needs usmarray.no_such_function (issue: elementwise)")
    assert not xf.stale("written by hand: usmarray.astype rounds differently")
