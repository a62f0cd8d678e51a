"""The README's conformance table is what tools/conformance.py finds now."""
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("torch")  # the table has PyTorch's rows

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_readme_table_is_current():
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "conformance.py"), "--check"],
                         capture_output=True, text=True)
    assert out.returncode == 0, "README.md's conformance table is stale: rerun tools/conformance.py"
