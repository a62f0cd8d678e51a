"""The layering of the architecture: the core never includes Python.h and
the binding never reaches a backend's operations directly."""

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

pytestmark = pytest.mark.skipif(not SRC.is_dir(), reason="needs the source tree")


def sources(folder):
    return sorted((SRC / folder).rglob("*.[ch]"))


def test_core_and_backends_are_python_free():
    for path in sources("core") + sources("backends"):
        assert not re.search(r"#\s*include\s*[<\"]Python\.h", path.read_text()), path


def test_binding_calls_no_backend_or_driver():
    for path in sources("python"):
        text = path.read_text()
        assert "core/backend.h" not in text, path
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
        assert (SRC / "backends" / name / f"{name}.c").is_file(), name
    header = (SRC / "core" / "backend.h").read_text()
    assert not re.search(r"\bua_\w+_backend_ops\b", header)


def test_core_and_binding_name_no_backend():
    names = "|".join(backend_names())
    table = re.compile(r"\bua_\w+_backend_ops\b")
    compared = re.compile(rf'strn?cmp\s*\([^;]*"({names})"|"({names})"\s*[!=]=|[!=]=\s*"({names})"')
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


def test_core_errors_become_exceptions_in_errors_c_alone():
    for path in sources("python"):
        if path.name != "errors.c":
            assert "ua_error_message(" not in path.read_text(), path


def definition_file(name):
    """The binding file that defines the function `name`."""
    found = [
        p.name
        for p in sources("python")
        if re.search(r"^%s\(" % re.escape(name), p.read_text(), re.M)
    ]
    assert len(found) == 1, (name, found)
    return found[0]


def table_entries(text, table):
    """(Python name, C function) of a PyGetSetDef or PyMethodDef table."""
    body = text.split("%s[] = {" % table, 1)[1].split("\n};", 1)[0]
    entries = re.findall(r"\{\s*(\"[^\"]+\"|\w+),\s*(?:\(\w+\)\(void \(\*\)\(void\)\))?(\w+)", body)
    return [(n.strip('"'), f) for n, f in entries]


CONCEPT_FILES = {
    "array_views.c": {
        "T",
        "mT",
        "real",
        "imag",
        "reshape",
        "transpose",
        "mp_subscript",
        "mp_ass_subscript",
    },
    "array_copy.c": {"copy", "astype", "to_device", "fill"},
    "array_host.c": {"__array_interface__", "__array__", "bf_getbuffer", "bf_releasebuffer"},
    "suai.c": {"SUAI"},
    "cai.c": {"__cuda_array_interface__"},
    "dlpack_export.c": {"__dlpack__", "__dlpack_device__"},
}


def test_array_c_holds_the_type_and_each_concept_its_file():
    text = (SRC / "python" / "types" / "array.c").read_text()
    entries = table_entries(text, "array_getset") + table_entries(text, "array_methods")
    entries += [
        (m.group(1), m.group(2))
        for m in re.finditer(r"\{Py_(\w+), (\w+)\}", text.split("array_slots[]", 1)[1])
    ]
    where = {
        name: definition_file(func)
        for name, func in entries
        if not func.startswith("Py")
        and name not in ("tp_doc", "tp_getset", "tp_methods", "tp_members")
    }
    for path, names in CONCEPT_FILES.items():
        for name in names:
            assert where[name] == path, (name, where[name])
    # What array.c defines itself: the constructor, attributes and lifetime.
    own = {n for n, f in where.items() if f == "array.c"}
    assert own <= {
        "shape",
        "strides",
        "ndim",
        "size",
        "itemsize",
        "nbytes",
        "dtype",
        "usm_type",
        "queue",
        "device",
        "base",
        "flags",
        "_pointer",
        "_element_offset",
        "_byte_bounds",
        "tp_new",
        "tp_dealloc",
        "tp_traverse",
    }, own


def backend_capsule_names():
    """The capsule names of native handles that the backends' tables give."""
    names = set()
    for path in sources("backends"):
        names.update(re.findall(r'#define \w*CAPSULE\w* "(\w+)"', path.read_text()))
        names.update(re.findall(r'capsule_name = "(\w+)"', path.read_text()))
    return names


def test_core_and_binding_spell_no_capsule_name_of_a_backend():
    names = backend_capsule_names()
    assert names, "no backend defines capsule names: the check below would see nothing"
    for path in sources("core") + sources("python"):
        text = path.read_text()
        for name in names:
            assert f'"{name}"' not in text and f"'{name}'" not in text, (path, name)
