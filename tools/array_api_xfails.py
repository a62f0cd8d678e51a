"""Regenerates the expected-failures file of the Array API test suite,
tests/array_api/xfails.txt, from a run of the suite.

    python tools/array_api_xfails.py                    # run on the host, rewrite the file
    python tools/array_api_xfails.py --device opencl:cpu --xfails tests/array_api/xfails_devices.txt
    python tools/array_api_xfails.py --report run.json  # from a report already made
    python tools/array_api_xfails.py --check            # only say what would change

It runs the suite through tools/array_api_suite.sh without the file (so that
every failure shows its message), once per --device (USMARRAY_DEVICE), with
pytest-json-report; or it reads such reports (--report, repeatable; a junit
XML file, ``--junitxml``'s, also does).  The new file lists every test that
failed, under a ``#`` line with its reason.  A test already in the file keeps
the reason written there (edit reasons by hand at will); a new one gets a
reason read from its failure (and so does a test whose reason says it needs
a function that usmarray now has): the function or method it needs where the
message names one (``AttributeError: module 'usmarray' has no attribute
'equal'`` gives "needs usmarray.equal (issue: elementwise)", the issue being
the standard's chapter), else "fails: " and the first line of the message,
which someone must read.  Tests that now pass leave the file.

The suite's parser takes one test id a line and skips lines that start with
``#``; a reason cannot share the id's line, so it heads the group of ids it
explains.  With several devices, a test that fails on some and passes on
others cannot be in one file that strict xfails check on all of them: the
tool lists such tests and exits with status 2 without writing.
"""

import argparse
import ast
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parent.parent
XFAILS = ROOT / "tests" / "array_api" / "xfails.txt"
SUITE = pathlib.Path(
    os.environ.get("ARRAY_API_TESTS_DIR", ROOT.parent / "shared" / "array-api-tests")
)
# The standard's version the runs test (tools/array_api_suite.sh's default).
VERSION = os.environ.get("ARRAY_API_TESTS_VERSION", "2025.12")

HEADER = """\
# Expected failures of the official Array API test suite (array-api-tests,
# pinned in ../shared/array-api-tests) against usmarray, version 2025.12:
# xfails.txt on the host (.ci/run), xfails_devices.txt on the devices
# whose memory is not the host's: the SYCL OpenCL CPU device (.ci/run) and
# CUDA (tools/gpu_run.sh); xfails_2024.txt for version 2024.12 on the host
# and CUDA.  One test id a line, under a '#' line with its
# reason.  The runs use xfail_strict: a listed test that passes fails the
# run, so the file only shrinks.  Regenerate it with
# tools/array_api_xfails.py (--xfails for the devices' file), which keeps
# the reasons written here and reads new ones from the failures.
"""

# Array methods and the functions they stand for (in-place and reflected
# forms drop their 'i' or 'r').
DUNDER_FUNCTIONS = {
    "__abs__": "abs", "__add__": "add", "__and__": "bitwise_and", "__eq__": "equal",
    "__floordiv__": "floor_divide", "__ge__": "greater_equal", "__gt__": "greater",
    "__invert__": "bitwise_invert", "__le__": "less_equal", "__lshift__": "bitwise_left_shift",
    "__lt__": "less", "__matmul__": "matmul", "__mod__": "remainder", "__mul__": "multiply",
    "__ne__": "not_equal", "__neg__": "negative", "__or__": "bitwise_or", "__pos__": "positive",
    "__pow__": "pow", "__rshift__": "bitwise_right_shift", "__sub__": "subtract",
    "__truediv__": "divide", "__xor__": "bitwise_xor",
}  # fmt: skip
OPERATORS = {
    "+": "__add__", "-": "__sub__", "*": "__mul__", "/": "__truediv__", "//": "__floordiv__",
    "%": "__mod__", "** or pow()": "__pow__", "**": "__pow__", "@": "__matmul__",
    "&": "__and__", "|": "__or__", "^": "__xor__", "<<": "__lshift__", ">>": "__rshift__",
    "==": "__eq__", "!=": "__ne__", "<": "__lt__", "<=": "__le__", ">": "__gt__", ">=": "__ge__",
}  # fmt: skip
UNARY = {"-": "__neg__", "+": "__pos__", "~": "__invert__", "abs()": "__abs__"}


def chapters(suite):
    """{name: chapter} of the standard's functions, from its stubs: the
    file (elementwise_functions.py gives "elementwise"), or the extension."""
    stubs = suite / "array-api" / "src" / "array_api_stubs" / f"_{VERSION.replace('.', '_')}"
    found = {}
    # The core namespace's chapters first: matmul is linear_algebra's too.
    paths = sorted(stubs.glob("*.py"), key=lambda p: (p.stem in ("linalg", "fft"), p.stem))
    for path in paths:
        chapter = path.stem.removesuffix("_functions")
        if chapter in ("linalg", "fft"):
            chapter += " extension"
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
            ):
                for name in ast.literal_eval(node.value):
                    found.setdefault(name, chapter)
    return found


def method_function(name):
    """The namespace function an array method stands for, or None."""
    if name in DUNDER_FUNCTIONS:
        return DUNDER_FUNCTIONS[name]
    if re.fullmatch(r"__[ir]\w+__", name):
        return DUNDER_FUNCTIONS.get("__" + name[3:])
    return None


def needs(names, chapter_of):
    """The reason of a test that stops at missing names (usmarray.x or
    USMArray.__x__)."""
    issues = []
    for n in names:
        if n in ("usmarray.linalg", "usmarray.fft"):
            issues.append(n.split(".")[1] + " extension")
            continue
        base = n.split(".")[-1]
        fn = method_function(base) if n.startswith("USMArray.") else base
        issue = chapter_of.get(fn or "", "array object" if n.startswith("USMArray.") else None)
        if issue and issue not in issues:
            issues.append(issue)
    text = ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1]
    return f"needs {text}" + (f" (issue: {', '.join(issues)})" if issues else "")


def reason_of(test_id, message, chapter_of):
    """A reason read from a failure's message (and, for the special-case
    tests, which call the function named in their id, from the id)."""
    m = re.search(r"does not have required attributes: ([\w, ]+)", message)
    if m:
        names = [f"usmarray.{a.strip()}" for a in m.group(1).split(",")]
        return needs(names, chapter_of) + " to draw arrays (Hypothesis's array strategies)"
    patterns = [
        (r"module 'usmarray' has no attribute '(\w+)'", "usmarray.{}"),
        (r"(\w+) is not defined in usmarray", "usmarray.{}"),
        (r"(\w+) not found in array module", "usmarray.{}"),
        (r"usmarray is missing the \w+ function (\w+)\(\)", "usmarray.{}"),
        (r"array object is missing the method (\w+)\(\)", "USMArray.{}"),
        (r"(\w+) not found in array object", "USMArray.{}"),
        (r"'USMArray' object has no attribute '(\w+)'", "USMArray.{}"),
    ]
    for pattern, form in patterns:
        m = re.search(pattern, message)
        if m:
            return needs([form.format(m.group(1))], chapter_of)
    m = re.search(r"unsupported operand type\(s\) for (.+?)=?: '(?:usmarray\.)?USMArray'", message)
    if m and m.group(1) in OPERATORS:
        inplace = message[m.start(1) + len(m.group(1))] == "="
        dunder = OPERATORS[m.group(1)]
        return needs([f"USMArray.{'__i' + dunder[2:] if inplace else dunder}"], chapter_of)
    m = re.search(r"bad operand type for (unary [-+~]|abs\(\))", message)
    if m:
        return needs([f"USMArray.{UNARY[m.group(1).removeprefix('unary ')]}"], chapter_of)
    m = re.search(r"does not compare element-wise \('([=!<>]+)'\)", message)
    if m and m.group(1) in OPERATORS:
        return needs([f"USMArray.{OPERATORS[m.group(1)]}"], chapter_of)
    if "'NoneType' object is not callable" in message:
        m = re.search(r"\[(\w+)\(", test_id)
        if m:
            name = m.group(1)
            return needs(
                [f"USMArray.{name}" if name.startswith("__") else f"usmarray.{name}"], chapter_of
            )
    first = next((line.strip() for line in message.splitlines() if line.strip()), "no message")
    return "fails: " + (first if len(first) <= 160 else first[:157] + "...")


def stale(reason):
    """Whether a reason says a test needs a function that usmarray now has: the
    test fails for another reason, to be read again from its failure.
    Other reasons, those written by hand included, are kept."""
    if not reason.startswith("needs "):
        return False
    try:
        import usmarray
    except ImportError:
        return False
    # Functions only: USMArray has __eq__ and the like before they compute
    # (they raise), and a class has __or__ for unions.
    return any(hasattr(usmarray, n) for n in re.findall(r"\busmarray\.(\w+)", reason))


# ---------------------------------------------------------------- reports


def read_json(path):
    """{test id: failure message or None where it passed or skipped}."""
    report = json.loads(pathlib.Path(path).read_text())
    broken = [c["nodeid"] for c in report.get("collectors", []) if c.get("outcome") == "failed"]
    if broken:
        sys.exit(f"{path}: the suite could not collect {', '.join(broken)}; fix that first")
    results = {}
    for t in report["tests"]:
        if t["outcome"] in ("failed", "error"):
            stage = next(
                (
                    t[s]
                    for s in ("setup", "call", "teardown")
                    if t.get(s, {}).get("outcome") == "failed"
                ),
                {},
            )
            crash = stage.get("crash", {}).get("message", "")
            results[t["nodeid"]] = crash + "\n" + str(stage.get("longrepr", ""))
        elif t["outcome"] in ("xfailed", "xpassed"):
            sys.exit(f"{path}: {t['nodeid']} is {t['outcome']}: run without --xfails-file")
        else:
            results[t["nodeid"]] = None
    return results


def read_junit(path):
    results = {}
    for tc in ET.parse(path).iter("testcase"):
        parts = tc.get("classname").split(".")
        k = next(i for i, p in enumerate(parts) if p.startswith("test_"))
        test_id = "/".join(parts[: k + 1]) + ".py::" + "::".join(parts[k + 1 :] + [tc.get("name")])
        bad = tc.find("failure") if tc.find("failure") is not None else tc.find("error")
        if tc.find("skipped") is not None and tc.find("skipped").get("type") == "pytest.xfail":
            sys.exit(f"{path}: {test_id} is xfailed: run without --xfails-file")
        results[test_id] = (
            None if bad is None else (bad.get("message") or "") + "\n" + (bad.text or "")
        )
    return results


def read_report(path):
    return read_junit(path) if str(path).endswith(".xml") else read_json(path)


def run_suite(device, suite, extra):
    """Runs the suite on a device without the file; its json report."""
    out = pathlib.Path(tempfile.mkdtemp()) / "report.json"
    env = dict(os.environ, USMARRAY_DEVICE=device, ARRAY_API_XFAILS="",
               ARRAY_API_TESTS_DIR=str(suite), PYTHON=sys.executable)  # fmt: skip
    cmd = ["bash", str(ROOT / "tools" / "array_api_suite.sh"), "-q", "--json-report",
           f"--json-report-file={out}", *extra]  # fmt: skip
    print(f"== the suite on {device}: {' '.join(cmd)}", file=sys.stderr)
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL)
    if not out.is_file():
        sys.exit(f"the suite on {device} wrote no report; run tools/array_api_suite.sh to see why")
    return read_json(out)


# ------------------------------------------------------- the file itself


def read_xfails(path):
    """{test id: reason} of an expected-failures file: a run of '#' lines
    right above a group of ids is their reason (the header, followed by a
    blank line, is no one's)."""
    reasons, comment = {}, []
    if not path.is_file():
        return reasons
    for line in path.read_text().splitlines():
        if not line.strip():
            comment = []
        elif line.startswith("#"):
            comment.append(line.lstrip("#").strip())
        else:
            reasons[line] = " ".join(comment) or "no reason given"
    return reasons


def render(reasons):
    """The file's text: the header, then the ids grouped by reason, the
    reasons and the ids of each in order."""
    groups = {}
    for test_id, reason in reasons.items():
        groups.setdefault(reason, []).append(test_id)
    out = [HEADER]
    for reason in sorted(groups, key=lambda r: (r.startswith("fails"), r)):
        out.append(f"# {reason}\n" + "".join(f"{t}\n" for t in sorted(groups[reason])))
    return "\n".join(out)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--device", action="append", help="USMARRAY_DEVICE of a run (default: host)")
    p.add_argument(
        "--report", action="append", type=pathlib.Path, help="a report to read instead of running"
    )
    p.add_argument("--xfails", type=pathlib.Path, default=XFAILS)
    p.add_argument("--suite", type=pathlib.Path, default=SUITE)
    p.add_argument(
        "--check", action="store_true", help="write nothing; status 1 if the file would change"
    )
    p.add_argument(
        "pytest_args", nargs="*", help="more arguments for the suite's pytest (after --)"
    )
    a = p.parse_args(argv)
    if a.report:
        runs = {str(r): read_report(r) for r in a.report}
    else:
        runs = {d: run_suite(d, a.suite.resolve(), a.pytest_args) for d in a.device or ["host"]}
    failing = [{t for t, msg in r.items() if msg is not None} for r in runs.values()]
    common = set.intersection(*failing)
    ran = set.intersection(*(set(r) for r in runs.values()))
    split = {t for t in set.union(*failing) - common if t in ran}
    if split:
        print(
            f"{len(split)} tests fail on some runs and pass on others; one file cannot hold them:"
        )
        for t in sorted(split):
            print(
                "   ", t, "fails on", ", ".join(n for n, r in runs.items() if r.get(t) is not None)
            )
        print("give each run its own file (ARRAY_API_XFAILS), or fix them")
        return 2
    old = read_xfails(a.xfails)
    chapter_of = chapters(a.suite.resolve())
    first = next(iter(runs.values()))
    new = {
        t: old[t] if t in old and not stale(old[t]) else reason_of(t, first[t], chapter_of)
        for t in common
    }
    gone, added = sorted(set(old) - set(new)), sorted(set(new) - set(old))
    for t in gone:
        print("passes now:", t)
    for t in added:
        print("fails now: ", t, "#", new[t])
    by_reason = {}
    for reason in new.values():
        by_reason[reason] = by_reason.get(reason, 0) + 1
    print(
        f"{len(new)} expected failures ({len(added)} new, {len(gone)} gone), {len(by_reason)} reasons"
    )
    text = render(new)
    if a.check:
        return int(not a.xfails.is_file() or a.xfails.read_text() != text)
    a.xfails.parent.mkdir(parents=True, exist_ok=True)
    a.xfails.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
