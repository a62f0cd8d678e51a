"""The C API as an extension author meets it: a C extension (tests/interop/capi/
capi_c.c) and a Cython one (capi_cython.pyx), compiled with the system's C
compiler against the usmarray package being tested, found through
``python -m usmarray --includes`` and Cython's search of sys.path, with no
other build tool.  Both expose the same functions, so one set of tests runs
on each: every function of the table, round trips with Python, bad
arguments, and import_usmarray()'s refusals."""

import ctypes
import gc
import importlib.util
import shlex
import shutil
import subprocess
import sys
import sysconfig
import weakref
from pathlib import Path

import numpy as np
import pytest
import usmarray as ua

SOURCES = Path(__file__).parent / "capi"
EXAMPLES = Path(__file__).parents[2] / "docs" / "examples"
EXT_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")
# Warnings an author of an extension would turn on: the header must pass.
STRICT = ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror"]
F8 = 12  # NumPy's type number of float64


def c_compiler():
    cc = shlex.split(sysconfig.get_config_var("CC") or "cc")
    if shutil.which(cc[0]) is None:
        cc = ["cc"]
    if shutil.which(cc[0]) is None:
        pytest.skip("no C compiler here")
    return cc


def include_flags():
    result = subprocess.run(
        [sys.executable, "-m", "usmarray", "--includes"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def run(cmd):
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{shlex.join(cmd)}\n{result.stdout}{result.stderr}"


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(name, sources, outdir, flags):
    target = outdir / (name + EXT_SUFFIX)
    run(
        [
            *c_compiler(),
            "-shared",
            "-fPIC",
            "-O1",
            *flags,
            *include_flags(),
            *map(str, sources),
            "-o",
            str(target),
        ]
    )
    return load(name, target)


@pytest.fixture(scope="module")
def capi_c(tmp_path_factory):
    return build(
        "capi_c",
        [SOURCES / "capi_c.c", SOURCES / "capi_c_queue.c"],
        tmp_path_factory.mktemp("capi_c"),
        STRICT,
    )


@pytest.fixture(scope="module")
def capi_cython(tmp_path_factory):
    pytest.importorskip("Cython", reason="Cython (the test extra) is not installed")
    pxd = Path(ua.__file__).with_name("usmarray_api.pxd")
    if not pxd.exists():
        pytest.skip(
            f"{pxd} is absent: a development copy of the package without "
            "it (an installed package has it)"
        )
    out = tmp_path_factory.mktemp("capi_cython")
    generated = out / "capi_cython.c"
    run(
        [
            sys.executable,
            "-m",
            "cython",
            "-3",
            # The directory that holds the package: an installed one is on
            # sys.path, where Cython looks anyway, but an editable install's
            # source tree is reached by an import hook Cython does not ask.
            "-I",
            str(Path(ua.__file__).resolve().parent.parent),
            str(SOURCES / "capi_cython.pyx"),
            "-o",
            str(generated),
        ]
    )
    # Cython's own output is not held to the strict warnings.
    return build("capi_cython", [generated], out, [])


@pytest.fixture(params=["c", "cython"])
def ext(request):
    return request.getfixturevalue("capi_" + request.param)


def view_numpy(x):
    return np.asarray(x)


@pytest.fixture(scope="module", params=["c", "cython"])
def guide_example(request, tmp_path_factory):
    """The complete example of docs/extension.rst, built as it says."""
    out = tmp_path_factory.mktemp("example")
    if request.param == "c":
        return build("scale", [EXAMPLES / "scale.c"], out, STRICT)
    request.getfixturevalue("capi_cython")  # skips where Cython cannot run
    run(
        [
            sys.executable,
            "-m",
            "cython",
            "-3",
            # The directory that holds the package: an installed one is on
            # sys.path, where Cython looks anyway, but an editable install's
            # source tree is reached by an import hook Cython does not ask.
            "-I",
            str(Path(ua.__file__).resolve().parent.parent),
            str(EXAMPLES / "scale_cy.pyx"),
            "-o",
            str(out / "scale_cy.c"),
        ]
    )
    return build("scale_cy", [out / "scale_cy.c"], out, [])


# ------------------------------------------------------------- includes


def test_includes_name_the_api_header_and_python_h():
    dirs = [Path(f[2:]) for f in include_flags()]
    assert all(f.startswith("-I") for f in include_flags())
    assert any((d / "usmarray" / "usmarray_api.h").is_file() for d in dirs)
    assert any((d / "Python.h").is_file() for d in dirs)
    assert Path(ua.get_include()) in dirs


def test_only_the_api_header_is_shipped():
    headers = sorted(p.name for p in Path(ua.get_include()).rglob("*.h"))
    assert headers == ["usmarray_api.h"]


def test_the_header_compiles_as_cpp(tmp_path):
    cxx = shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")
    if cxx is None:
        pytest.skip("no C++ compiler here")
    source = tmp_path / "use.cpp"
    source.write_text(
        "#include <usmarray/usmarray_api.h>\n"
        "int f(PyObject *o) { return import_usmarray() < 0 ? -1 :"
        " UsmArray_GetNDim(o); }\n"
    )
    run(
        [
            cxx,
            "-std=c++11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-fsyntax-only",
            *include_flags(),
            str(source),
        ]
    )


# --------------------------------------------------------------- arrays


def test_checks_tell_the_types_apart(ext):
    x = ua.zeros(3)
    assert ext.checks(x) == (True, False, False)
    assert ext.checks(x.base) == (False, True, False)
    assert ext.checks(x.queue) == (False, False, True)
    assert ext.checks(np.zeros(3)) == (False, False, False)


@pytest.mark.parametrize("index", [(), (slice(None, None, -1), slice(1, None, 2))])
def test_accessors_and_the_struct_agree_with_python(ext, index):
    x = ua.asarray(np.arange(24.0).reshape(4, 6), usm_type="shared")[index]
    d = ext.describe(x)
    assert d["struct_agrees"]
    assert d["nd"] == x.ndim and d["shape"] == x.shape and d["strides"] == x.strides
    assert d["data"] == x._pointer and d["typenum"] == x.dtype.num == F8
    assert d["base"] is x.base and d["queue"] is x.queue
    flags = (x.flags.c_contiguous * 1) | (x.flags.f_contiguous * 2) | (x.flags.writable * 4)
    assert d["flags"] == flags


def test_new_allocates_in_c_order_by_default(ext):
    x = ext.new((2, 3), F8, None, "shared", None)
    assert type(x) is ua.USMArray
    assert x.shape == (2, 3) and x.strides == (3, 1) and x.dtype == np.float64
    assert x.usm_type == "shared" and x.flags.writable
    assert x.device == ua.Device()
    d = ext.new((5,), np.dtype("i4").num, None, None, None)
    assert d.usm_type == "device" and d.dtype == np.int32
    assert ext.new((), F8, None, "host", ua.Queue("host")).shape == ()
    many = ext.new((2, 1, 1, 1, 1, 1, 1, 3), F8, None, "shared", None)
    assert ext.describe(many)["strides"] == (3, 3, 3, 3, 3, 3, 3, 1)
    assert ext.new((0, 4), F8, None, None, None).size == 0


def test_new_with_negative_strides_starts_the_allocation_at_the_lowest(ext):
    x = ext.new((3, 2), F8, (-2, 1), "host", ua.Queue("host"))
    assert x.strides == (-2, 1) and x.base.nbytes == 6 * 8
    assert x._pointer == x.base._pointer + 4 * 8
    ext.fill_iota(x)
    np.testing.assert_array_equal(ua.asnumpy(x), np.arange(6.0).reshape(3, 2))


def test_native_writes_through_data_and_strides_reach_python(ext):
    x = ua.zeros((4, 6), usm_type="shared")
    view = x[::-2, 1::2]
    ext.fill_iota(view)
    expected = np.zeros((4, 6))
    expected[::-2, 1::2] = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(ua.asnumpy(x), expected)
    with pytest.raises(TypeError, match="needs host-accessible float64"):
        ext.fill_iota(ua.zeros(3, usm_type="device"))


def test_from_memory_lays_out_a_view_that_keeps_the_memory(ext):
    mem = ua.MemoryUSMShared(8 * 8)
    x = ext.from_memory(mem, (2, 3), F8, (1, 2), 1)
    assert x.base is mem and x.strides == (1, 2) and x.flags.f_contiguous
    assert x._pointer == mem._pointer + 8
    ref = weakref.ref(mem)
    del mem
    gc.collect()
    assert ref() is not None
    ext.fill_iota(x)
    flat = np.frombuffer(x.base, dtype="f8")
    np.testing.assert_array_equal(flat[1:7], [0, 3, 1, 4, 2, 5])
    c = ext.from_memory(x.base, (4,), F8, None, 2)
    np.testing.assert_array_equal(ua.asnumpy(c), [3, 1, 4, 2])


def test_from_memory_refuses_layouts_outside_the_memory(ext):
    mem = ua.MemoryUSMDevice(64)
    with pytest.raises(
        ValueError, match="UsmArray_FromMemory: shape, strides and offset reach bytes"
    ):
        ext.from_memory(mem, (3, 3), F8, None, 0)
    with pytest.raises(ValueError, match="reach bytes"):
        ext.from_memory(mem, (2,), F8, (-1,), 0)
    with pytest.raises(TypeError, match="typenum 17 is not a type usmarray supports"):
        ext.from_memory(mem, (2,), 17, None, 0)


def test_copy_into_broadcasts_casts_and_finishes(ext):
    dst = ua.empty((3, 4), dtype="f4", usm_type="device")
    src = ua.asarray(np.arange(4, dtype="i8"))
    ext.copy_into(dst, src)
    np.testing.assert_array_equal(ua.asnumpy(dst), np.tile(np.arange(4.0), (3, 1)))
    ext.copy_into(dst[:, ::-1], ua.asarray(np.ones((3, 4)) * 7))
    assert (ua.asnumpy(dst) == 7).all()
    with pytest.raises(ValueError, match="UsmArray_CopyInto: .*broadcast"):
        ext.copy_into(dst, ua.zeros(3))
    with pytest.raises(ValueError, match="UsmArray_CopyInto: assignment destination is read-only"):
        ext.copy_into(_read_only_array(), src[:2])


def _read_only_array():
    mem = ua.MemoryUSMShared(16)
    iface = dict(mem.__sycl_usm_array_interface__)
    iface.update(data=(mem._pointer, True), shape=(2,), typestr="<f8")

    class Holder:
        __sycl_usm_array_interface__ = iface
        keep = mem

    return ua.asarray(Holder())


# --------------------------------------------------------------- memory


@pytest.mark.parametrize("kind", ["device", "shared", "host"])
def test_memory_new_and_its_accessors(ext, kind):
    mem = ext.memory_new(100, kind, ua.Queue("host"))
    assert type(mem).__name__ == "MemoryUSM" + kind.capitalize()
    assert mem.nbytes == 100 and mem.queue == ua.Queue("host")
    assert ext.memory_info(mem) == (mem._pointer, 100, kind)
    assert mem.get_usm_type() == kind


def test_memory_from_a_pointer_inside_a_usm_allocation(ext):
    mem = ua.MemoryUSMDevice(128)
    part = ext.wrap_pointer(mem._pointer + 32, 64, None, mem)
    assert type(part) is ua.MemoryUSMDevice
    assert part._pointer == mem._pointer + 32 and part.nbytes == 64
    assert part.reference_obj is mem and part.queue is mem.queue
    same = ext.wrap_pointer(mem._pointer, 128, mem.queue, None)
    assert same.reference_obj is None
    with pytest.raises(ValueError, match="UsmMemory_FromPointer: the 129 bytes at .* cross"):
        ext.wrap_pointer(mem._pointer, 129, None, mem)


def test_memory_from_malloc_is_borrowed_and_its_owner_released_once(ext):
    before = ext.freed_count()
    x = ext.host_array(6)
    assert x.usm_type == "host" and x.shape == (6,)
    assert ua.get_pointer_type(x._pointer, x.queue) == "host"
    ext.fill_iota(x)
    np.testing.assert_array_equal(view_numpy(x), np.arange(6.0))
    y = x[::2]
    del x
    gc.collect()
    assert ext.freed_count() == before
    np.testing.assert_array_equal(ua.asnumpy(y), [0.0, 2.0, 4.0])
    pointer = y._pointer
    del y
    gc.collect()
    assert ext.freed_count() == before + 1
    assert ua.get_pointer_type(pointer, ua.Queue("host")) == "unknown"


# --------------------------------------------------------------- queues


def test_queue_backend_device_and_native_handle_on_the_host(ext):
    q = ua.Queue("host")
    assert ext.queue_info(q) == ("host", None, q.device)
    assert ext.queue_info(ua.zeros(2).queue)[2] is ua.Device()
    ext.queue_wait(q)


@pytest.mark.gpu
def test_a_cuda_queue_gives_the_stream_of_its_cai(ext):
    cuda = ua.get_devices(backend="cuda")
    if not cuda:
        pytest.skip("no CUDA device here")
    x = ua.zeros(4, queue=ua.Queue(cuda[0]))
    backend, handle, device = ext.queue_info(x.queue)
    assert backend == "cuda" and device == cuda[0]
    assert handle is not None and handle == x.__cuda_array_interface__["stream"]
    ext.queue_wait(x.queue)


# ------------------------------------------------------- the guide example


@pytest.mark.parametrize("usm_type", ["device", "shared", "host"])
def test_the_guide_example_scales_a_strided_view(guide_example, usm_type):
    x = ua.asarray(np.arange(12.0).reshape(3, 4), usm_type=usm_type)
    guide_example.scale(x[:, ::-2], 10.0)
    expected = np.arange(12.0).reshape(3, 4)
    expected[:, ::-2] *= 10
    np.testing.assert_array_equal(ua.asnumpy(x), expected)
    with pytest.raises(TypeError, match="needs a float64 USMArray"):
        guide_example.scale(ua.zeros(2, dtype="f4"), 2.0)
    with pytest.raises(ValueError, match="needs a writable array"):
        guide_example.scale(_read_only_array(), 2.0)


def test_the_guide_example_lends_its_own_memory(guide_example):
    x = guide_example.host_range(5, ua.Queue("host"))
    assert x.usm_type == "host" and x.flags.writable
    np.testing.assert_array_equal(np.asarray(x), np.arange(5.0))
    guide_example.scale(x, -1.0)
    np.testing.assert_array_equal(np.asarray(x), -np.arange(5.0))


# --------------------------------------------------------- bad arguments


@pytest.mark.parametrize(
    "call, args, message",
    [
        ("describe", (3,), "UsmArray_GetNDim: arr must be a usmarray.USMArray, not int"),
        (
            "memory_info",
            (np.zeros(2),),
            "UsmMemory_GetPointer: mem must be a usmarray.Memory, not numpy.ndarray",
        ),
        ("queue_info", ("host",), "UsmQueue_GetBackend: queue must be a usmarray.Queue, not str"),
        ("queue_wait", (None,), "UsmQueue_Wait: queue must be a usmarray.Queue, not NoneType"),
        (
            "from_memory",
            (b"1234", (1,), F8, None, 0),
            "UsmArray_FromMemory: memory must be a usmarray.Memory, not bytes",
        ),
        (
            "copy_into",
            (np.zeros(2), ua.zeros(2)),
            "UsmArray_CopyInto: dst must be a usmarray.USMArray, not numpy.ndarray",
        ),
        (
            "new",
            ((2,), F8, None, "pinned", None),
            'UsmArray_New: usm_type must be "device", "shared" or "host", not "pinned"',
        ),
        (
            "new",
            ((2,), F8, None, None, "host"),
            "UsmArray_New: queue must be a usmarray.Queue, not str",
        ),
        ("new", ((2, -1), F8, None, None, None), r"UsmArray_New: shape\[1\] is negative"),
        ("new", ((2,), 99, None, None, None), "UsmArray_New: typenum 99"),
        ("memory_new", (0, "device", None), r"UsmMemory_New: nbytes must be in \[1"),
        ("memory_new", (8, "", None), "UsmMemory_New: usm_type must be"),
        ("wrap_pointer", (0, 8, None, None), "UsmMemory_FromPointer: ptr is NULL"),
    ],
)
def test_bad_arguments_raise_naming_the_function(ext, call, args, message):
    with pytest.raises((TypeError, ValueError), match=message):
        getattr(ext, call)(*args)


def test_device_memory_of_a_gpu_cannot_be_borrowed(ext):
    gpus = [d for d in ua.get_devices() if d.device_type != "cpu"]
    buf = np.zeros(4)
    if not gpus:
        # On the host device malloc'd memory is borrowed instead.
        mem = ext.wrap_pointer(buf.ctypes.data, buf.nbytes, ua.Queue("host"), buf)
        assert type(mem) is ua.MemoryUSMHost and mem.reference_obj is buf
        return
    with pytest.raises(ValueError, match="cannot borrow host memory"):
        ext.wrap_pointer(buf.ctypes.data, buf.nbytes, ua.Queue(gpus[0]), buf)


def test_arguments_only_c_can_pass(capi_c):
    rows = capi_c.bad_calls(ua.zeros(2))
    assert len(rows) == 23
    for call, kind, exc in rows:
        fn = call.split("(")[0]
        assert kind in (TypeError, ValueError), call
        assert str(exc).startswith(fn + ": "), (call, exc)
    messages = {call: str(exc) for call, _, exc in rows}
    assert "not NULL" in messages["UsmArray_GetNDim(NULL)"]
    assert (
        "nd must be in [0, 64], not 65" in messages["UsmArray_New(65, shape, 12, NULL, NULL, NULL)"]
    )
    assert "shape is NULL" in messages["UsmArray_New(1, NULL, 12, NULL, NULL, NULL)"]
    assert "src is NULL" in messages["UsmArray_CopyInto(arr, NULL)"]
    assert "owner is NULL" in messages["UsmMemory_FromPointer(&byte, 1, NULL, NULL)"]
    assert "18446744073709551615" in messages["UsmMemory_New(SIZE_MAX, NULL, NULL)"]


def test_use_before_import_raises_runtime_error(capi_c):
    capi_c.forget()
    try:
        with pytest.raises(RuntimeError, match="before import_usmarray"):
            capi_c.describe(ua.zeros(1))
        with pytest.raises(RuntimeError, match="before import_usmarray"):
            capi_c.checks(ua.zeros(1))
    finally:
        capi_c.reimport()
    assert capi_c.describe(ua.zeros(1))["nd"] == 1


# -------------------------------------------------------------- import

PyCapsule_New = ctypes.pythonapi.PyCapsule_New
PyCapsule_New.restype = ctypes.py_object
PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
PyCapsule_GetPointer = ctypes.pythonapi.PyCapsule_GetPointer
PyCapsule_GetPointer.restype = ctypes.c_void_p
PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
CAPSULE = b"usmarray._usmarray._C_API"


def table_with_version(capi_c, major, minor):
    """A copy of the table with another version, in a capsule of the right
    name; the buffer must outlive the capsule."""
    size = capi_c.table_size()
    buf = ctypes.create_string_buffer(size)
    ctypes.memmove(buf, PyCapsule_GetPointer(ua._usmarray._C_API, CAPSULE), size)
    version = (ctypes.c_uint * 2).from_buffer(buf)
    version[0], version[1] = major, minor
    return buf, PyCapsule_New(ctypes.addressof(buf), CAPSULE, None)


@pytest.mark.parametrize("major, minor", [(2, 0), (0, 7)])
def test_import_refuses_another_major_version(capi_c, monkeypatch, major, minor):
    buf, capsule = table_with_version(capi_c, major, minor)
    monkeypatch.setattr(ua._usmarray, "_C_API", capsule)
    with pytest.raises(
        ImportError,
        match=f"usmarray C API version {major}.{minor} cannot serve "
        "an extension compiled against version 1.0: "
        "rebuild the extension",
    ):
        capi_c.reimport()
    monkeypatch.undo()
    assert capi_c.describe(ua.zeros(2))["shape"] == (2,)  # the old table is kept


def test_import_takes_a_newer_minor_version(ext, capi_c, monkeypatch):
    buf, capsule = table_with_version(capi_c, 1, 9)
    monkeypatch.setattr(ua._usmarray, "_C_API", capsule)
    try:
        ext.reimport()
        assert ext.describe(ua.zeros(3))["shape"] == (3,)
    finally:
        monkeypatch.undo()
        ext.reimport()


def test_import_refuses_a_missing_or_foreign_capsule(ext, monkeypatch):
    monkeypatch.delattr(ua._usmarray, "_C_API")
    with pytest.raises(ImportError, match="usmarray._usmarray._C_API is not a capsule named"):
        ext.reimport()
    monkeypatch.setattr(ua._usmarray, "_C_API", ua.zeros(2).__dlpack__(), raising=False)
    with pytest.raises(ImportError, match="not a capsule named 'usmarray._usmarray._C_API'"):
        ext.reimport()


def test_import_without_the_module_raises_import_error(ext, monkeypatch):
    monkeypatch.setitem(sys.modules, "usmarray._usmarray", None)
    with pytest.raises(ImportError, match="usmarray._usmarray"):
        ext.reimport()
