"""The C API is written once, in USMARRAY_API_FUNCTIONS of the installed
header: the Cython declarations and the documentation's list are made from
it (tools/capi_gen.py), and the extension's table from the same list."""

import importlib.util
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
GEN = ROOT / "tools" / "capi_gen.py"

pytestmark = pytest.mark.skipif(not GEN.is_file(), reason="needs the source tree")


def load_generator():
    spec = importlib.util.spec_from_file_location("capi_gen", GEN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pxd_and_docs_are_what_the_list_makes(capsys):
    assert load_generator().main(["--check"]) == 0, capsys.readouterr().out


def test_the_list_holds_every_function_of_the_design():
    gen = load_generator()
    names = [f["name"] for f in gen.functions(gen.HEADER.read_text())]
    design = {
        "UsmArray_Check", "UsmArray_GetNDim", "UsmArray_GetData", "UsmArray_GetShape",
        "UsmArray_GetStrides", "UsmArray_GetTypeNum", "UsmArray_GetFlags", "UsmArray_GetBase",
        "UsmArray_GetQueue", "UsmArray_New", "UsmArray_FromMemory", "UsmArray_CopyInto",
        "UsmMemory_Check", "UsmMemory_New", "UsmMemory_FromPointer", "UsmMemory_GetPointer",
        "UsmMemory_GetSize", "UsmMemory_GetUsmType", "UsmQueue_Check", "UsmQueue_GetBackend",
        "UsmQueue_GetNativeHandle", "UsmQueue_Wait",
    }  # fmt: skip
    assert design <= set(names) and len(names) == len(set(names))
    # The table's order is the ABI: version 1.0's functions come first, in
    # the order extensions compiled against it index them.
    assert names[:3] == ["UsmArray_Check", "UsmArray_GetNDim", "UsmArray_GetData"]
    assert names[-1] == "UsmQueue_GetDevice"


def test_every_entry_is_implemented_and_declared_for_cython():
    gen = load_generator()
    funcs = gen.functions(gen.HEADER.read_text())
    capi = (ROOT / "src" / "python" / "capi.c").read_text()
    pxd = gen.PXD.read_text()
    for f in funcs:
        assert re.search(rf"^capi_{f['member']}\(", capi, re.M), f["member"]
        assert f["cython"] in pxd and f["name"] in f["cython"], f["name"]


def test_a_stale_pxd_is_reported(tmp_path, monkeypatch, capsys):
    gen = load_generator()
    stale = tmp_path / "usmarray_api.pxd"
    stale.write_text(gen.PXD.read_text().replace("bint UsmQueue_Check(object obj)\n", ""))
    monkeypatch.setattr(gen, "PXD", stale)
    assert gen.main(["--check"]) == 1
    assert "UsmQueue_Check" in capsys.readouterr().out


def test_an_entry_missing_a_field_is_refused():
    gen = load_generator()
    header = "#define USMARRAY_API_FUNCTIONS(X) \\\n    X(int, UsmArray_Check, Array_Check)\n"
    with pytest.raises(SystemExit, match="3 fields"):
        gen.functions(header)
