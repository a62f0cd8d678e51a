"""README.md's table of elementwise functions is the one the catalogue
gives (tools/ew_functions_table.py)."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_readme_functions_table_is_current():
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "ew_functions_table.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, (
        "README.md's table of elementwise functions differs from the catalogue's: "
        "rerun tools/ew_functions_table.py" + out.stderr
    )


def test_table_names_every_catalogue_entry():
    sys.path.insert(0, str(ROOT / "tools"))
    import ew_functions_table

    readme = (ROOT / "README.md").read_text()
    for name, *_ in ew_functions_table.entries():
        assert f"| `{name}(" in readme, name
