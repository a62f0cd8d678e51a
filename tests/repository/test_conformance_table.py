"""The conformance tables of docs/generated_tables.md are what
tools/conformance.py finds now."""

import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TABLES = ROOT / "docs" / "generated_tables.md"
sys.path.insert(0, str(ROOT / "tools"))


def test_table_is_current():
    pytest.importorskip("torch")  # the table has PyTorch's rows
    import conformance

    found = conformance.readme_block(TABLES.read_text(), conformance.BEGIN, conformance.END)
    assert found == conformance.table(), (
        "docs/generated_tables.md's conformance table is stale: "
        "write the output of tools/conformance.py there"
    )


def test_sycl_table_is_current():
    """dpctl's and dpnp's rows, where they are installed (CI's README step)."""
    pytest.importorskip("dpctl")
    pytest.importorskip("dpnp")
    import conformance

    text = TABLES.read_text()
    found = conformance.readme_block(text, conformance.SYCL_BEGIN, conformance.SYCL_END)
    current = conformance.sycl_table()
    assert found == current, (
        "docs/generated_tables.md's dpctl/dpnp table is stale: write the output of "
        f"tools/conformance.py --sycl there\n{current}"
    )
