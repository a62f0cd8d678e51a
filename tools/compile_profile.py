"""Where a one-process GPU test run spends its time: NVRTC or the tests.

Three uses, from the repository root:

  ... | python3 tools/compile_profile.py stamp > LOG
      prefixes each line of a run with the seconds since its start
  PYTHONPATH=tools:$PYTHONPATH USMARRAY_TEST_SAMPLE=8 \
      python3 -m pytest -p compile_profile ...
      runs every 8th test of the collection (a sample of the whole suite
      in the time of an eighth)
  python3 tools/compile_profile.py summary LOG
      from a stamped `pytest -v -s` log run with USMARRAY_TRACE_COMPILE=1:
      the tests run, the wall time, the compiles that the calling thread
      waited for (fast-level and untiered NVRTC compiles, disk-cache reads)
      and those that ran beside it (full compiles after a fast one), and
      the test files that took longest with their waited compiles.
"""

import collections
import os
import re
import sys
import time

_STAMP = re.compile(r"^(\d+\.\d+) (.*)$")
_COMPILE = re.compile(
    r"usmarray: (.+?): (NVRTC fast level|NVRTC|disk cache) "
    r"([\d.]+) ms \((\d+) bytes of source\)"
)
# the trace's name of a full compile that runs beside the calls, after a
# first call's compile at the fast level (cuda_program.c)
_BESIDE = ", in full beside"
# a test's line under -v -s: its id, then what it writes, then its outcome
_TEST = re.compile(r"^(tests/[^:]+)::")


def pytest_collection_modifyitems(config, items):
    """Keeps every k-th test where USMARRAY_TEST_SAMPLE=k."""
    every = int(os.environ.get("USMARRAY_TEST_SAMPLE", "1") or 1)
    if every > 1:
        items[:] = items[::every]


def stamp():
    start = time.monotonic()
    for line in sys.stdin:
        sys.stdout.write(f"{time.monotonic() - start:.3f} {line}")
        sys.stdout.flush()


class _Profile:
    def __init__(self):
        self.tests = 0
        self.wall = 0.0
        self.waited = collections.Counter()  # kind -> ms
        self.counts = collections.Counter()  # kind -> programs
        self.beside_ms = 0.0
        self.beside = 0
        self.by_file = collections.defaultdict(lambda: [0, 0.0, 0.0])
        self.families = collections.Counter()

    def compile_line(self, what, kind, ms, file):
        if what.endswith(_BESIDE):
            self.beside_ms += ms
            self.beside += 1
            return
        self.waited[kind] += ms
        self.counts[kind] += 1
        if kind != "disk cache":
            self.families[what.split()[0]] += ms
        if file is not None:
            self.by_file[file][2] += ms


def _read(path):
    """Each test owns the time and the compiles from its line to the next."""
    prof = _Profile()
    file, since = None, 0.0
    for raw in open(path, errors="replace"):
        m = _STAMP.match(raw.rstrip("\n"))
        if not m:
            continue
        t, line = float(m.group(1)), m.group(2)
        prof.wall = t
        r = _TEST.match(line)
        if r:
            if file is not None:
                prof.by_file[file][1] += t - since
            file, since = r.group(1), t
            prof.tests += 1
            prof.by_file[file][0] += 1
        c = _COMPILE.search(line)
        if c:
            prof.compile_line(c.group(1), c.group(2), float(c.group(3)), file)
    if file is not None:
        prof.by_file[file][1] += prof.wall - since
    return prof


def summary(path):
    p = _read(path)
    waited = sum(p.waited.values()) / 1e3
    print(f"tests: {p.tests} in {p.wall:.1f} s ({1e3 * p.wall / max(p.tests, 1):.1f} ms a test)")
    print(
        f"compiles waited for: {waited:.1f} s ({100 * waited / max(p.wall, 1e-9):.0f}% of the wall)"
    )
    for kind in sorted(p.waited):
        print(f"  {kind}: {p.counts[kind]} programs, {p.waited[kind] / 1e3:.1f} s")
    print(f"full compiles beside the tests: {p.beside}, {p.beside_ms / 1e3:.1f} s of threads")
    print("NVRTC waited for, by kind of program (s):")
    for fam, ms in p.families.most_common(12):
        print(f"  {fam}: {ms / 1e3:.1f}")
    print("test files, longest first: tests, s, s of compiles waited for")
    rows = sorted(p.by_file.items(), key=lambda kv: -kv[1][1])
    for file, (n, s, ms) in rows[:20]:
        print(f"  {file}: {n}, {s:.1f}, {ms / 1e3:.1f}")


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "stamp":
        stamp()
    elif len(sys.argv) == 3 and sys.argv[1] == "summary":
        summary(sys.argv[2])
    else:
        sys.exit(__doc__)
