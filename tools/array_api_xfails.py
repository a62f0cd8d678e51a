"""Runs the pinned array-api-tests suite against usmarray and writes its
expected-failures file: each failing test with a comment line above it
that says why, naming the missing function where the failure does.

    python tools/array_api_xfails.py [--device host] [--max-examples 20]
        [--out tests/array_api_xfails.txt] [--check]

Reasons already in the file are kept for tests that still fail; --check
only reports the tests whose status differs from the file's (a test that
now passes must leave the file, which only shrinks).
"""

import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SUITE = ROOT.parent / "shared" / "array-api-tests"
DEFAULT_OUT = ROOT / "tests" / "array_api_xfails.txt"

# What a failure's message says, and the reason it gives.
PATTERNS = [
    (r"does not have required attributes: ([\w, ]+)", "needs usmarray.{}"),
    (r"(\w+) is not defined in usmarray", "needs usmarray.{}"),
    (r"has no attribute '(\w+)'", "needs usmarray.{}"),
    (r"does not compare element-wise \('(.+?)'\)", "needs the {} operator (elementwise, part 2)"),
    (r"unsupported operand type\(s\) for (\S+)", "needs the {} operator (elementwise, part 2)"),
    (r"bad operand type for unary (\S+)", "needs the unary {} operator (elementwise, part 2)"),
]
# Functions of the later parts whose tests fail on their absence alone.
LATER = re.compile(r"test_(func|array_method)_signature\[(\w+)\]|::test_(\w+)")


def reason_for(message, nodeid, names):
    for pattern, text in PATTERNS:
        m = re.search(pattern, message)
        if m:
            return text.format(m.group(1).strip())
    m = re.search(r"\[(\w+)\]$", nodeid)
    if "test_signatures" in nodeid and m and m.group(1) not in names:
        return f"needs usmarray.{m.group(1)}"
    return "fails: " + message.strip()[:160]


def run_suite(device, max_examples, xfails):
    env = dict(os.environ, ARRAY_API_TESTS_MODULE="usmarray", ARRAY_API_TESTS_VERSION="2024.12")
    if device:
        env["USMARRAY_DEVICE"] = device
    with tempfile.TemporaryDirectory() as work:
        cmd = [
            sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rfEX",
            f"--rootdir={SUITE}", "-c", str(SUITE / "pytest.ini"), str(SUITE / "array_api_tests"),
            f"--max-examples={max_examples}", "--disable-deadline", "--derandomize",
            "-o", "xfail_strict=true",
        ]  # fmt: skip
        if xfails:
            cmd += ["--xfails-file", str(xfails)]
        out = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True)
    return out.stdout + out.stderr


def failures(log):
    """nodeid -> message of each failed test, and the xpassed ones."""
    failed, xpassed = {}, set()
    for line in log.splitlines():
        m = re.match(r"(FAILED|ERROR) (\S+?)(?: - (.*))?$", line)
        if m:
            nodeid = m.group(2)
            nodeid = nodeid[nodeid.index("array_api_tests/") :]
            failed[nodeid] = m.group(3) or ""
        m = re.match(r"XPASS (\S+)", line)
        if m:
            xpassed.add(m.group(1)[m.group(1).index("array_api_tests/") :])
    return failed, xpassed


def read_file(path):
    """nodeid -> reason of an expected-failures file."""
    entries, reason = {}, ""
    if path.exists():
        for line in path.read_text().splitlines():
            if line.startswith("# "):
                reason = line[2:]
            elif line.strip() and not line.startswith("#"):
                entries[line.strip()] = reason
    return entries


def write_file(path, entries, device):
    lines = [
        "# Tests of the pinned array-api-tests suite that fail against usmarray,",
        f"# run on the {device or 'default'} device by tools/array_api_xfails.py; the",
        "# comment above each test says why.  xfail_strict makes a test that passes",
        "# fail the run until it leaves this file, which only shrinks.",
        "",
    ]
    for nodeid in sorted(entries):
        lines += [f"# {entries[nodeid]}", nodeid]
    path.write_text("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="host")
    parser.add_argument("--max-examples", type=int, default=20)
    parser.add_argument("--out", type=pathlib.Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    import usmarray

    names = set(dir(usmarray))
    old = read_file(args.out)
    failed, _ = failures(run_suite(args.device, args.max_examples, None))
    entries = {
        nodeid: old.get(nodeid) or reason_for(message, nodeid, names)
        for nodeid, message in failed.items()
    }
    write_file(args.out, entries, args.device)
    print(f"{len(entries)} expected failures written to {args.out}")


if __name__ == "__main__":
    main()
