"""One source for every public name: the runtime's ``usmarray.__all__`` comes
from what the extension registers (``_usmarray.__all__``); the parts of the
stubs, the API reference and the table of functions that the elementwise
catalogue gives are what tools/gen_public_api.py generates from it; and the
stubs' ``__all__`` are the runtime's."""

import ast
import pathlib
import sys

import pytest
import usmarray as ua

ROOT = pathlib.Path(__file__).resolve().parents[2]
STUBS = ROOT / "python" / "usmarray"
sys.path.insert(0, str(ROOT / "tools"))
# The generator reads the source tree's catalogue, stubs and docs.
gen_public_api = pytest.importorskip("gen_public_api", reason="needs the source tree")


def stub_all(path):
    """The list a stub assigns to __all__."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return ast.literal_eval(node.value)
    raise AssertionError(f"{path.name} assigns no __all__")


def test_generated_parts_are_current():
    stale = [str(p.relative_to(ROOT)) for p in gen_public_api.stale()]
    assert not stale, f"run python tools/gen_public_api.py: {', '.join(stale)} differ"


@pytest.mark.parametrize(
    ("stub", "module"), [("__init__.pyi", ua), ("linalg.pyi", ua.linalg), ("fft.pyi", ua.fft)]
)
def test_stub_all_is_the_runtimes(stub, module):
    names = stub_all(STUBS / stub)
    assert len(set(names)) == len(names), f"{stub}'s __all__ repeats a name"
    assert len(set(module.__all__)) == len(module.__all__)
    assert set(names) == set(module.__all__), (
        f"only in {stub}: {sorted(set(names) - set(module.__all__))}; "
        f"only at run time: {sorted(set(module.__all__) - set(names))}"
    )


def test_the_package_names_what_the_extension_exports():
    ext = ua._usmarray
    assert isinstance(ext.__all__, tuple) and isinstance(ua.__all__, list)
    assert ua.__all__[: len(ext.__all__)] == list(ext.__all__)
    for name in ext.__all__:
        assert getattr(ua, name) is getattr(ext, name), name
    # Private helpers and the submodules stay out.
    assert not [n for n in ext.__all__ if n.startswith("_") and not n.endswith("__")]
    assert "linalg" not in ext.__all__ and "fft" not in ext.__all__
    assert "_C_API" in vars(ext) and "_rebuild_memory" in vars(ext)
    # usmarray/__init__.py lists no function of the extension by hand.
    init = (STUBS / "__init__.py").read_text()
    listed = [n for n in ext.__all__ if f'"{n}"' in init or f"    {n},\n" in init]
    assert not listed, f"__init__.py names {listed}: they come from _usmarray.__all__"


def test_every_catalogue_function_is_public_and_documented():
    api = (ROOT / "docs" / "api.rst").read_text()
    for name, _ in gen_public_api.functions():
        assert name in ua._usmarray.__all__, name
        assert f".. autofunction:: {name}\n" in api, name


def test_public_names_of_a_stub():
    text = (
        "import builtins\n"
        "x: int\n_y: int\n__version__: str\n"
        "class A: ...\nclass _B: ...\nclass __info__: ...\n"
        "def f() -> None: ...\ndef _g() -> None: ...\n"
    )
    assert gen_public_api.public_names(text) == ["x", "A", "__info__", "f"]
