"""The README's conformance table is what tools/conformance.py finds now."""

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_readme_table_is_current():
    pytest.importorskip("torch")  # the table has PyTorch's rows
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "conformance.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, "README.md's conformance table is stale: rerun tools/conformance.py"


def test_readme_sycl_table_is_current():
    """dpctl's and dpnp's rows, where they are installed (CI's README step)."""
    pytest.importorskip("dpctl")
    pytest.importorskip("dpnp")
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "conformance.py"), "--sycl", "--check"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, (
        "README.md's dpctl/dpnp table is stale: rerun "
        f"tools/conformance.py --sycl\n{out.stdout}{out.stderr}"
    )
