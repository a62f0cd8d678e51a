"""README.md's performance tables are the ones the benchmarks' JSON in
benchmarks/results gives (tools/perf_tables.py)."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_readme_performance_tables_come_from_the_json():
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "perf_tables.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, (
        "README.md's performance tables differ from benchmarks/results/*.json: "
        "rerun tools/perf_tables.py" + out.stderr
    )
