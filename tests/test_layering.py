"""The layering of the architecture: the core never includes Python.h and
the binding never reaches a backend's operations directly."""
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

pytestmark = pytest.mark.skipif(not SRC.is_dir(), reason="needs the source tree")


def sources(folder):
    return sorted((SRC / folder).glob("*.[ch]"))


def test_core_and_backends_are_python_free():
    for path in sources("core") + sources("backends"):
        assert not re.search(r"#\s*include\s*[<\"]Python\.h", path.read_text()), path


def test_binding_calls_no_backend_or_driver():
    for path in sources("python"):
        text = path.read_text()
        assert "usmarray/backend.h" not in text, path
        assert "ua_backend_ops" not in text and "dlopen" not in text, path
        assert not re.search(r"\bcu[A-Z]\w*\(", text), path
