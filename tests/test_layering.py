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


def backend_names():
    """The backends of src/backends/list.c, the one place that names them."""
    text = (SRC / "backends" / "list.c").read_text()
    body = text.split("#define UA_BACKENDS(X)", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"\bX\((\w+)\)", body)


def test_backends_are_listed_once_with_a_file_each():
    names = backend_names()
    assert "host" in names and len(names) == len(set(names))
    for name in names:
        assert (SRC / "backends" / f"{name}.c").is_file(), name
    header = (ROOT / "include" / "usmarray" / "backend.h").read_text()
    assert not re.search(r"\bua_\w+_backend_ops\b", header)


def test_core_and_binding_name_no_backend():
    names = "|".join(backend_names())
    table = re.compile(r"\bua_\w+_backend_ops\b")
    compared = re.compile(
        rf'strn?cmp\s*\([^;]*"({names})"|"({names})"\s*[!=]=|[!=]=\s*"({names})"')
    for path in sources("core") + sources("python"):
        text = path.read_text()
        assert not table.search(text), (path, table.search(text).group(0))
        found = compared.search(text)
        assert not found, (path, found.group(0))


def test_layering_checks_can_fail():
    # The patterns above must catch what they are for.
    names = "|".join(backend_names())
    compared = re.compile(rf'strn?cmp\s*\([^;]*"({names})"')
    assert compared.search('strcmp(ua_backend_name(b), "cuda") == 0')
    assert re.search(r"\bua_\w+_backend_ops\b", "ops == &ua_host_backend_ops")
