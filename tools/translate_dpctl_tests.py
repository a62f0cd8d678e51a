"""Translate dpctl.tensor's compute tests into usmarray's test suite.

dpctl 0.21.1 is the last release with ``dpctl.tensor``, whose
``usm_ndarray`` usmarray's ``USMArray`` follows.  This tool reads the compute
tests of that tag (elementwise functions, reductions, statistics, sorting,
searching, accumulation, manipulation, indexing, sets, linear algebra,
clip, utility functions, top_k, operators, dtype routines, diff, sum) from
a git clone of dpctl and writes ``tests/dpctl_compat/test_dpctl_<name>.py``,
mechanically:

* ``dpctl.tensor`` (``dpt``) becomes ``usmarray`` (``ua``), ``usm_ndarray``
  ``USMArray``, ``dpt.dtype`` ``np.dtype``, ``from_numpy``/``to_numpy``
  ``asarray``/``asnumpy``;
* ``dpctl.SyclQueue``/``SyclDevice``/``SyclContext`` become ``ua.Queue``,
  ``ua.Device`` and ``ua.Context``, their creation errors ``ValueError``, an
  array's ``.sycl_queue``/``.sycl_device`` its ``.queue``/``.device``
  (keywords ``sycl_queue=`` stay: usmarray takes them);
* dpctl's test helpers (``get_queue_or_skip``, ``skip_if_dtype_not_supported``,
  the dtype lists of ``elementwise/utils.py``) and the few pure functions the
  tests call (``_can_cast``, ``get_coerced_usm_type``...) come from
  ``tests/dpctl_compat/dpctl_helpers.py``;
* a test that still needs a name of dpctl without a counterpart (its
  kernels' modules ``_tensor_impl``, ``_copy_utils``, ``dpctl.utils``'s
  order managers, device selection by aspects) is marked ``skip`` with the
  names it needs.

Every other name is kept: a function usmarray lacks fails the test, and
``tests/dpctl_compat/excluded.txt`` lists it (see ``--excluded``).
The generated files are committed; ``tests/repository/test_dpctl_translation.py``
holds them to this tool's output (they are not to be edited by hand).

    python tools/translate_dpctl_tests.py --git-dir PATH [--check]
    python tools/translate_dpctl_tests.py --excluded host_cpu.xml opencl_cpu.xml

``--git-dir`` (or ``DPCTL_GIT_DIR``) names a clone of dpctl holding the tag.
``--excluded`` rewrites ``excluded.txt`` from JUnit XML reports of runs of
the folder with the list turned off (``USMARRAY_DPCTL_EXCLUDED=off``), one
report a device, each named by the device's key (``host_cpu.xml``,
``opencl_cpu.xml``, ``cuda_gpu.xml``: dpctl_excluded.device_key()); reasons
already written stay, and so do the lines of devices no report names (a
run on a GPU machine leaves its ``@cuda_gpu`` lines to the next run there).
"""

import argparse
import ast
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "dpctl_compat"
TAG = "0.21.1"

# The compute tests of dpctl.tensor, by path in the tag.
ELEMENTWISE_SKIPPED = {
    "__init__.py",
    "utils.py",
    # dpctl.tensor's private classes and type-promotion internals.
    "test_elementwise_classes.py",
    "test_type_utils.py",
}
TOP_LEVEL = [
    "test_tensor_accumulation.py",
    "test_tensor_clip.py",
    "test_tensor_diff.py",
    "test_tensor_dtype_routines.py",
    "test_tensor_isin.py",
    "test_tensor_statistical_functions.py",
    "test_tensor_sum.py",
    "test_usm_ndarray_indexing.py",
    "test_usm_ndarray_linalg.py",
    "test_usm_ndarray_manipulation.py",
    "test_usm_ndarray_operators.py",
    "test_usm_ndarray_reductions.py",
    "test_usm_ndarray_search_functions.py",
    "test_usm_ndarray_searchsorted.py",
    "test_usm_ndarray_sorting.py",
    "test_usm_ndarray_top_k.py",
    "test_usm_ndarray_unique.py",
    "test_usm_ndarray_utility_functions.py",
]

HELPERS = "dpctl_helpers"

# Imports: a whole line of dpctl's becomes one of ours (None: dropped).
IMPORTS = [
    (r"import dpctl\.tensor as dpt", "import usmarray as ua"),
    (r"import dpctl", None),
    (r"from (?:dpctl\.tests\.helper|\.helper|\.\.helper) import ", f"from {HELPERS} import "),
    (r"from \.utils import ", f"from {HELPERS} import "),
    (
        r"from dpctl\.utils import ExecutionPlacementError",
        f"from {HELPERS} import ExecutionPlacementError",
    ),
    (
        r"from dpctl\.tensor\._numpy_helper import AxisError",
        "from numpy.exceptions import AxisError",
    ),
]
# dpctl's functions that the helpers provide, by name.
PROVIDED = {"_can_cast", "_to_device_supported_dtype"}
# An import of dpctl's own: the names it binds stand for DpctlOnly objects.
DPCTL_ONLY_IMPORT = re.compile(
    r"^(\s*)(?:import (dpctl[\w.]*) as (\w+)|from (dpctl[\w.]*) import \(?([\w, ]+)\)?)\s*$"
)

# Names in the code, in order.
RENAMES = [
    (r"\bdpctl\.tensor\.usm_ndarray\b", "ua.USMArray"),
    (r"\bdpctl\.tensor\.", "ua."),
    (r"\bdpt\.usm_ndarray\b", "ua.USMArray"),
    (r"\bdpt\.dtype\b", "np.dtype"),
    (r"\bdpt\.from_numpy\(", "ua.asarray("),
    (r"\bdpt\.to_numpy\(", "ua.asnumpy("),
    (r"\bdpt\.", "ua."),
    (r"\bdpctl\.SyclQueue\b", "ua.Queue"),
    (r"\bdpctl\.SyclDevice\b", "ua.Device"),
    (r"\bdpctl\.SyclContext\b", "ua.Context"),
    (r"\bdpctl\.Sycl(?:Queue|Device|Context)CreationError\b", "ValueError"),
    (r"\bdpctl\.select_default_device\(\)", "ua.Device()"),
    (r"\bdpctl\.get_devices\(", "ua.get_devices("),
    (r"\bdpctl\.utils\.get_coerced_usm_type\b", "get_coerced_usm_type"),
    (r"\bdpctl\.utils\.ExecutionPlacementError\b", "ExecutionPlacementError"),
    (r"\.device\.sycl_queue\b", ".queue"),
    (r"\.sycl_queue\b", ".queue"),
    (r"\.sycl_device\b", ".device"),
    (r"\bdpt\b", "ua"),
    # finfo's resolution is NumPy's (the standard's finfo has none): the
    # tests take it for their tolerances.
    (r"\bua\.finfo\(((?:[^()]|\([^()]*\))*)\)\.resolution\b", r"np.finfo(\1).resolution"),
    # dpctl.tensor.allclose, a testing utility outside the standard, is
    # the tests' comparison: NumPy's on the arrays' copies.
    (r"\bua\.allclose\(", "allclose("),
]
# Names the renames make that need an import of the helpers.
HELPER_NAMES = ("get_coerced_usm_type", "ExecutionPlacementError", "allclose")

HEADER_NOTE = (
    "#\n"
    "# Translated from dpctl {tag}, {path}, by tools/translate_dpctl_tests.py:\n"
    "# generated, not to be edited; change the tool and run it again.\n"
)


def out_name(path):
    return "test_dpctl_" + pathlib.PurePosixPath(path).name.removeprefix("test_")


def sources(git_dir):
    """{dpctl path: text} of the compute tests at the tag."""

    def git(*args):
        return subprocess.run(
            ["git", "-C", str(git_dir), *args], check=True, capture_output=True, text=True
        ).stdout

    paths = [
        p
        for p in git("ls-tree", "--name-only", TAG, "dpctl/tests/elementwise/").split()
        if pathlib.PurePosixPath(p).name not in ELEMENTWISE_SKIPPED
    ]
    paths += [f"dpctl/tests/{name}" for name in TOP_LEVEL]
    return {p: git("show", f"{TAG}:{p}") for p in paths}


def split_header(text):
    """The license comment at the top, and the rest."""
    lines = text.splitlines(keepends=True)
    n = 0
    while n < len(lines) and lines[n].startswith("#"):
        n += 1
    return "".join(lines[:n]), "".join(lines[n:])


def translate_imports(body):
    """Rewrite the import lines; returns the body and the names bound to
    dpctl's own modules and functions."""
    out, only = [], {}
    lines = body.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        line = lines[i]
        # join a parenthesised import onto one line
        if re.match(r"\s*from [\w.]+ import \($", line.rstrip()):
            j = i
            while ")" not in lines[j]:
                j += 1
            names = " ".join(x.strip() for x in lines[i + 1 : j])
            line = line.rstrip()[:-1] + names.rstrip(",") + "\n"
            i = j
        stripped, indent = line.strip(), line[: len(line) - len(line.lstrip())]
        for pattern, repl in IMPORTS:
            if re.fullmatch(pattern + ".*" if pattern.endswith(" ") else pattern, stripped):
                if repl is not None:
                    out.append(indent + re.sub(pattern, repl, stripped, count=1) + "\n")
                break
        else:
            m = DPCTL_ONLY_IMPORT.match(line.rstrip("\n"))
            if m and (m.group(2) or m.group(4)):
                module = m.group(2) or m.group(4)
                names = (
                    [m.group(3)]
                    if m.group(3)
                    else [n.strip() for n in m.group(5).split(",") if n.strip()]
                )
                ours = [n for n in names if n in PROVIDED and not m.group(3)]
                if ours:
                    out.append(f"{indent}from {HELPERS} import {', '.join(ours)}\n")
                for name in names:
                    if name in ours:
                        continue
                    only[name] = module if m.group(3) else f"{module}.{name}"
                    out.append(f'{indent}{name} = DpctlOnly("{only[name]}")\n')
            else:
                out.append(line)
        i += 1
    return "".join(out), only


def rename(body):
    """The renames, on every line but those that name dpctl's own."""
    lines = body.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if "DpctlOnly(" not in line:
            for pattern, repl in RENAMES:
                line = re.sub(pattern, repl, line)
            lines[i] = line
    return "".join(lines)


def mark_dpctl_only(body, only):
    """Mark skip each test that names one of dpctl's own (the names in only,
    or dpctl itself)."""
    tree = ast.parse(body)
    lines = body.splitlines(keepends=True)
    inserts = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.ClassDef):
            continue
        if not node.name.startswith(("test", "Test")):
            continue
        used = sorted(
            {
                n.id
                for n in ast.walk(node)
                if isinstance(n, ast.Name) and (n.id in only or n.id == "dpctl")
            }
        )
        if used:
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            what = ", ".join(only.get(n, "dpctl") for n in used)
            inserts.append((first - 1, f'@pytest.mark.skip(reason="dpctl-only: {what}")\n'))
    for index, text in sorted(inserts, reverse=True):
        lines.insert(index, text)
    return "".join(lines)


def translate(path, text):
    header, body = split_header(text)
    body, only = translate_imports(body)
    body = rename(body)
    needs = [n for n in HELPER_NAMES if re.search(rf"\b{n}\b", body)]
    names_dpctl = any(
        isinstance(n, ast.Name) and n.id == "dpctl" for n in ast.walk(ast.parse(body))
    )
    needs += ["DpctlOnly"] if only or names_dpctl else []
    if names_dpctl:
        only = dict(only, dpctl="dpctl")
    prelude = ""
    if needs:
        prelude += f"from {HELPERS} import {', '.join(needs)}\n"
    if "dpctl" in only:
        prelude += 'dpctl = DpctlOnly("dpctl")\n'
    if not re.search(r"^import numpy as np$", body, re.M) and re.search(r"\bnp\.", body):
        prelude += "import numpy as np\n"
    if not re.search(r"^import pytest$", body, re.M) and ("pytest." in body or only):
        prelude += "import pytest\n"
    if not re.search(r"^import usmarray as ua$", body, re.M) and re.search(r"\bua\.", body):
        prelude += "import usmarray as ua\n"
    if prelude:
        # after the module's docstring and __future__ imports, before the rest
        lines = body.splitlines(keepends=True)
        at = 0
        tree = ast.parse(body)
        for node in tree.body:
            if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)) or (
                isinstance(node, ast.ImportFrom) and node.module == "__future__"
            ):
                at = node.end_lineno
            else:
                break
        body = "".join(lines[:at]) + "\n" + prelude + "".join(lines[at:])
    body = mark_dpctl_only(body, only)
    note = HEADER_NOTE.format(tag=TAG, path=path)
    return header + note + body


def generate(git_dir):
    """{file name under tests/dpctl_compat: text}."""
    return {out_name(p): translate(p, t) for p, t in sources(git_dir).items()}


def find_git_dir(given):
    for candidate in (given, os.environ.get("DPCTL_GIT_DIR"), ROOT.parent / "shared" / "dpctl"):
        if candidate and pathlib.Path(candidate).exists():
            return pathlib.Path(candidate)
    return None


# --- the list of tests that do not pass -------------------------------------

EXCLUDED = OUT / "excluded.txt"


def classify(message):
    """The reason class of a failure, from its message."""
    first = next((ln for ln in message.splitlines() if ln.startswith("E ")), "")
    text = message
    m = re.search(r"module 'usmarray' has no attribute '(\w+)'", text)
    if m:
        return f"missing: usmarray.{m.group(1)}"
    m = re.search(r"'usmarray\.USMArray' object has no attribute '(\w+)'", text)
    if m:
        return f"missing: USMArray.{m.group(1)}"
    m = re.search(r"got an unexpected keyword argument '(\w+)'", text)
    if m:
        return f"missing: {m.group(1)}="
    m = re.search(r"DID NOT RAISE (<class '[\w.]+'>|\(.*?\))", text)
    if m:
        return f"behaviour: exception type: does not raise {m.group(1)}"
    first = first[2:].strip()[:150]
    if "takes no keyword arguments" in first:
        return "missing: keywords of dpctl's elementwise functions (out=, order=)"
    if re.search(r"not (c_\w+|numpy\.\w+)$", first):
        return f"behaviour: scalar operand: {first}"
    if re.search(r"accept an array of dtype complex", first):
        return f"behaviour: complex ordering: {first}"
    if re.fullmatch(
        r"AssertionError: assert '(device|shared|host)' == '(device|shared|host)'", first
    ):
        return f"behaviour: usm_type: {first}"
    if "usm_type" in text and "usm_type" in first:
        return f"behaviour: usm_type: {first}"
    return f"behaviour: {first}" if first else "behaviour: fails"


def read_report(path):
    """{node id relative to the folder: reason} of a JUnit XML report's
    failures and errors, and the set of ids that passed."""
    import xml.etree.ElementTree as ET

    failed, passed = {}, set()
    for case in ET.parse(path).iter("testcase"):
        parts = case.get("classname", "").split(".")
        at = next(i for i, p in enumerate(parts) if p.startswith("test_dpctl_"))
        node = "::".join([parts[at] + ".py", *parts[at + 1 :], case.get("name")])
        bad = case.find("failure")
        if bad is None:
            bad = case.find("error")
        if bad is not None:
            failed[node] = classify((bad.get("message") or "") + "\n" + (bad.text or ""))
        elif case.find("skipped") is None:
            passed.add(node)
    return failed, passed


def write_excluded(reports):
    """Rewrite excluded.txt from one JUnit report a device (<device>.xml)."""
    runs = {pathlib.Path(r).stem: read_report(r) for r in reports}
    old = {}
    if EXCLUDED.exists():
        for line in EXCLUDED.read_text().splitlines():
            if line and not line.startswith("#"):
                key, reason = line.split("  ", 1)
                old[key] = reason
    lines = {}
    for key, reason in old.items():
        if key.startswith("@") and not set(key[1:].split(" ", 1)[0].split(",")) & set(runs):
            lines[key] = reason
    every = set().union(*(f.keys() for f, _ in runs.values()))
    for node in sorted(every):
        devices = [d for d, (f, _) in runs.items() if node in f]
        reason = runs[devices[0]][0][node]
        if len(devices) == len(runs):
            key = node
        else:
            key = "@" + ",".join(devices) + " " + node
        lines[key] = old.get(key, reason)
    lines = dict(sorted(lines.items(), key=lambda row: row[0].split(" ")[-1]))
    # a test all of whose instances fail, for one reason, on the same devices
    grouped = {}
    for key, reason in lines.items():
        base = re.sub(r"\[.*\]$", "", key)
        grouped.setdefault(base, []).append((key, reason))
    out = []
    for base, entries in grouped.items():
        node = base.split(" ")[-1]
        dev = base.split(" ")[0] if base.startswith("@") else None
        total = {n for _, p in runs.values() for n in p} | every
        instances = [n for n in total if re.sub(r"\[.*\]$", "", n) == node]
        reasons = {r for _, r in entries}
        if len(entries) == len(instances) and len(reasons) == 1 and len(entries) > 1:
            if dev is None or all(
                n not in runs[d][0] for n in instances for d in runs if d not in dev[1:].split(",")
            ):
                out.append(f"{base}[*]  {reasons.pop()}")
                continue
        out.extend(f"{k}  {r}" for k, r in entries)
    head = (
        "# The translated dpctl tests that do not pass, one a line: a node id\n"
        "# (a [*] ending: every instance of the test), two spaces, its reason class\n"
        "# (missing: a function or keyword usmarray lacks; behaviour: what differs).\n"
        "# '@host_cpu,opencl_cpu ' before an id: only on those devices.  conftest.py\n"
        "# marks them xfail(strict=True): a test that passes fails the run, and the\n"
        "# list only shrinks.  Rewritten by tools/translate_dpctl_tests.py --excluded.\n"
    )
    EXCLUDED.write_text(head + "".join(line + "\n" for line in out))
    print(f"{EXCLUDED.relative_to(ROOT)}: {len(out)} lines")


def table(report):
    """Per file of a JUnit report: instances, passed, failed, errors,
    skipped, xfailed and the reason classes of its failures."""
    import collections
    import xml.etree.ElementTree as ET

    rows = collections.defaultdict(collections.Counter)
    reasons = collections.defaultdict(collections.Counter)
    for case in ET.parse(report).iter("testcase"):
        parts = case.get("classname", "").split(".")
        name = next(p for p in parts if p.startswith("test_dpctl_"))
        row = rows[name]
        row["instances"] += 1
        skipped = case.find("skipped")
        bad = case.find("failure")
        err = case.find("error")
        if bad is not None or err is not None:
            row["failed" if bad is not None else "errors"] += 1
            b = bad if bad is not None else err
            reason = classify((b.get("message") or "") + "\n" + (b.text or ""))
            reasons[name][re.sub(r"(missing: [^:]*|behaviour: [\w ]+?:).*", r"\1", reason)] += 1
        elif skipped is not None:
            message = (skipped.get("message") or "") + (skipped.text or "")
            if (skipped.get("type") or "").endswith("xfail"):
                row["xfailed"] += 1
            elif "dpctl-only" in message or "untranslatable" in message:
                row["dpctl-only"] += 1
            else:
                row["skipped"] += 1
        else:
            row["passed"] += 1
    keys = ("instances", "passed", "failed", "errors", "dpctl-only", "skipped", "xfailed")
    print("| file | " + " | ".join(keys) + " | failures by class |")
    print("|" + "---|" * (len(keys) + 2))
    total = collections.Counter()
    for name in sorted(rows):
        total.update(rows[name])
        top = ", ".join(f"{r} ({n})" for r, n in reasons[name].most_common(4))
        print(f"| {name} | " + " | ".join(str(rows[name][k]) for k in keys) + f" | {top} |")
    print("| total | " + " | ".join(str(total[k]) for k in keys) + " | |")
    rate = total["passed"] / max(1, total["instances"] - total["dpctl-only"])
    print(
        f"pass rate: {total['passed']} / ({total['instances']} - {total['dpctl-only']}) = {rate:.1%}"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--git-dir", help="a clone of dpctl holding the tag")
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--excluded", nargs="+", metavar="REPORT", help="JUnit XML reports")
    parser.add_argument("--table", metavar="REPORT", help="per-file table of a JUnit report")
    args = parser.parse_args(argv)
    if args.table:
        table(args.table)
        return 0
    if args.excluded:
        write_excluded(args.excluded)
        return 0
    git_dir = find_git_dir(args.git_dir)
    if git_dir is None:
        parser.error("name a clone of dpctl: --git-dir or DPCTL_GIT_DIR")
    files = generate(git_dir)
    stale = [n for n, t in files.items() if not (OUT / n).exists() or (OUT / n).read_text() != t]
    if args.check:
        for name in stale:
            print(f"tests/dpctl_compat/{name} differs from the tool's output")
        return 1 if stale else 0
    for name in stale:
        (OUT / name).write_text(files[name])
    print(f"{len(files)} files, {len(stale)} written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
