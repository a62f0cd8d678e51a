"""The table of elementwise functions in docs/generated_tables.md is the
one the catalogue gives (tools/ew_functions_table.py's table())."""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
TABLES = ROOT / "docs" / "generated_tables.md"
sys.path.insert(0, str(ROOT / "tools"))

import ew_functions_table  # noqa: E402


def block(text):
    begin, end = ew_functions_table.BEGIN, ew_functions_table.END
    assert begin in text and end in text, f"{TABLES.name} lacks the {begin} ... {end} markers"
    return text.split(begin, 1)[1].split(end, 1)[0].strip("\n")


def test_functions_table_is_current():
    assert block(TABLES.read_text()) == ew_functions_table.table(), (
        "docs/generated_tables.md's table of elementwise functions differs from the "
        "catalogue's: write tools/ew_functions_table.py's table() between its markers"
    )


def test_table_names_every_catalogue_entry():
    text = block(TABLES.read_text())
    for name, *_ in ew_functions_table.entries():
        assert f"| `{name}(" in text, name
