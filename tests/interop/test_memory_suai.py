"""Wrapping objects that expose __sycl_usm_array_interface__ as Memory."""

import ctypes
import gc
import sys
import weakref

import pytest
import usmarray as ua
from conftest import KEEP_OUT, KINDS, Holder, suai


def test_as_usm_memory_finds_the_true_kind(kind):
    mem = KINDS[kind](256)
    wrapped = ua.as_usm_memory(Holder(mem.__sycl_usm_array_interface__, keep=mem))
    assert type(wrapped) is KINDS[kind]
    assert wrapped._pointer == mem._pointer and wrapped.nbytes == 256
    assert wrapped.get_usm_type() == kind
    assert wrapped.queue is mem.queue


def test_as_usm_memory_of_memory_is_identity():
    mem = ua.MemoryUSMShared(8)
    assert ua.as_usm_memory(mem) is mem


def test_wrapping_is_zero_copy_and_keeps_producer_alive(kind):
    mem = KINDS[kind](64)
    mem.memset(1)
    holder = Holder(mem.__sycl_usm_array_interface__, keep=mem)
    wrapped = KINDS[kind](holder)
    assert wrapped.reference_obj is holder
    ref = weakref.ref(holder)
    del holder, mem
    gc.collect()
    assert ref() is not None  # kept alive by the wrapper
    mem2 = wrapped.reference_obj.keep
    mem2.memset(9)
    assert wrapped.tobytes() == b"\x09" * 64  # the same bytes
    del wrapped, mem2
    gc.collect()
    assert ref() is None


def test_wrapping_memory_directly(kind):
    mem = KINDS[kind](32)
    wrapped = KINDS[kind](mem)
    assert wrapped.reference_obj is mem
    assert wrapped._pointer == mem._pointer
    before = sys.getrefcount(mem)
    del wrapped
    assert sys.getrefcount(mem) == before - 1


def test_sub_region_of_an_allocation():
    mem = ua.MemoryUSMShared(100)
    mem.copy_from_host(bytes(range(100)))
    iface = suai(mem, shape=(10,), typestr="|u1", offset=20)
    part = ua.as_usm_memory(Holder(iface, keep=mem))
    assert part._pointer == mem._pointer + 20 and part.nbytes == 10
    assert part.tobytes() == bytes(range(20, 30))


def test_strided_region_spans_reached_bytes():
    mem = ua.MemoryUSMShared(64)
    # f8, shape (4,), strides (-2,), offset 7: the document's example.
    iface = suai(mem, shape=(4,), typestr="<f8", strides=(-2,), offset=7)
    part = ua.as_usm_memory(Holder(iface))
    assert part._pointer == mem._pointer + 8 and part.nbytes == 56


def test_read_only_flag_is_kept():
    mem = ua.MemoryUSMShared(16)
    ro = ua.MemoryUSMShared(Holder(suai(mem, data=(mem._pointer, True))))
    assert ro.__sycl_usm_array_interface__["data"] == (mem._pointer, True)
    assert memoryview(ro).readonly
    with pytest.raises(BufferError, match="read-only"):
        request_writable_buffer(ro)
    for call in (
        lambda: ro.memset(1),
        lambda: ro.copy_from_host(b"x"),
        lambda: ro.copy_from_device(mem),
    ):
        with pytest.raises(ValueError, match="read-only"):
            call()
    assert "read-only" in repr(ro)


def request_writable_buffer(obj):
    """PyObject_GetBuffer(obj, &view, PyBUF_WRITABLE), releasing on success."""
    get = ctypes.pythonapi.PyObject_GetBuffer
    get.argtypes = [ctypes.py_object, ctypes.c_void_p, ctypes.c_int]
    release = ctypes.pythonapi.PyBuffer_Release
    release.argtypes = [ctypes.c_void_p]
    view = ctypes.create_string_buffer(256)  # larger than a Py_buffer
    get(obj, view, 1)
    release(view)


def test_kind_mismatch_needs_copy():
    dev = ua.MemoryUSMDevice(32)
    dev.copy_from_host(bytes(range(32)))
    with pytest.raises(ValueError, match="cannot wrap USM device memory as MemoryUSMShared"):
        ua.MemoryUSMShared(dev)
    copied = ua.MemoryUSMShared(dev, copy=True)
    assert copied.get_usm_type() == "shared"
    assert copied._pointer != dev._pointer
    assert copied.reference_obj is None
    assert copied.tobytes() == bytes(range(32))


def test_copy_true_keeps_zero_copy_when_possible():
    mem = ua.MemoryUSMHost(32)
    assert ua.MemoryUSMHost(mem, copy=True)._pointer == mem._pointer


def test_alignment_of_wrapped_memory():
    mem = ua.MemoryUSMShared(64, alignment=64)
    part = Holder(suai(mem, shape=(8,), offset=8))
    assert ua.MemoryUSMShared(part, alignment=8)._pointer == mem._pointer + 8
    with pytest.raises(ValueError, match="not aligned as asked"):
        ua.MemoryUSMShared(part, alignment=64)
    realigned = ua.MemoryUSMShared(part, alignment=64, copy=True)
    assert realigned._pointer % 64 == 0


def test_explicit_queue_of_the_same_context():
    mem = ua.MemoryUSMDevice(8, queue="host")
    assert ua.MemoryUSMDevice(mem, queue="host").queue is ua.Queue("host")


@pytest.mark.parametrize(
    "syclobj",
    [
        lambda: ua.Queue("host"),
        lambda: ua.Context("host"),
        lambda: "host",
        lambda: "host:cpu:0",
        lambda: ua.Device("host"),
    ],
)
def test_accepted_syclobj_forms(syclobj):
    mem = ua.MemoryUSMShared(8, queue="host")
    wrapped = ua.as_usm_memory(Holder(suai(mem, syclobj=syclobj())))
    assert wrapped.queue is ua.Queue("host")


class CapsuleProvider:
    def __init__(self, capsule):
        self.capsule = capsule

    def _get_capsule(self):
        return self.capsule


def _capsule(name):
    import ctypes

    make = ctypes.pythonapi.PyCapsule_New
    make.restype = ctypes.py_object
    make.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return make(ctypes.c_void_p(16), name, None)


SYCL_CAPSULE_NAMES = [b"SyclQueueRef", b"SyclContextRef"]


SYCL_AVAILABLE = bool(ua.get_devices(backend="sycl"))


# With a SYCL runtime the capsules are read (tests/backends/test_sycl.py): a made-up
# handle would then be dereferenced.
@pytest.mark.skipif(SYCL_AVAILABLE, reason="the SYCL backend reads such capsules")
@pytest.mark.parametrize("name", SYCL_CAPSULE_NAMES)
def test_sycl_capsules_are_refused_with_reason(name):
    mem = ua.MemoryUSMShared(8)
    cap = _capsule(name)
    with pytest.raises(ValueError, match="no available backend of usmarray can interpret it"):
        ua.as_usm_memory(Holder(suai(mem, syclobj=cap)))
    with pytest.raises(ValueError, match=r"from _get_capsule\(\)"):
        ua.as_usm_memory(Holder(suai(mem, syclobj=CapsuleProvider(cap))))


def test_other_capsules_and_objects_are_type_errors():
    mem = ua.MemoryUSMShared(8)
    with pytest.raises(TypeError, match="capsule named 'other'"):
        ua.as_usm_memory(Holder(suai(mem, syclobj=_capsule(b"other"))))
    with pytest.raises(TypeError, match="_get_capsule\\(\\) returned int"):
        ua.as_usm_memory(Holder(suai(mem, syclobj=CapsuleProvider(5))))
    with pytest.raises(TypeError, match="syclobj'\\] must be"):
        ua.as_usm_memory(Holder(suai(mem, syclobj=4.5)))


# Malformed dictionaries: (name, changes to a valid dict over 64 shared bytes,
# exception, message fragment).  Pointer values are given relative to the
# allocation by the `ptr` marker.
PTR = object()
BAD_SUAI = [
    ("no shape", {"shape": KEEP_OUT}, ValueError, "no required key 'shape'"),
    ("no typestr", {"typestr": KEEP_OUT}, ValueError, "no required key 'typestr'"),
    ("no data", {"data": KEEP_OUT}, ValueError, "no required key 'data'"),
    ("no version", {"version": KEEP_OUT}, ValueError, "no required key 'version'"),
    ("no syclobj", {"syclobj": KEEP_OUT}, ValueError, "no required key 'syclobj'"),
    ("shape str", {"shape": "64"}, TypeError, "['shape'] must be a tuple"),
    ("shape float", {"shape": (64.0,)}, TypeError, "['shape'][0] must be an integer"),
    ("shape bool", {"shape": (True,)}, TypeError, "['shape'][0] must be an integer"),
    ("shape negative", {"shape": (-1,)}, ValueError, "['shape'][0] is negative"),
    ("shape too long", {"shape": (1,) * 65}, ValueError, "at most 64 dimensions"),
    ("typestr bytes", {"typestr": b"|u1"}, TypeError, "['typestr'] must be a str"),
    ("typestr object", {"typestr": "|O8"}, ValueError, "unsupported kind 'O'"),
    ("typestr size", {"typestr": "<f3"}, ValueError, "names no supported data type"),
    ("typestr swapped", {"typestr": ">f8", "shape": (8,)}, ValueError, "not in native byte order"),
    ("data list", {"data": [PTR, False]}, TypeError, "['data'] must be a 2-tuple"),
    ("data short", {"data": (PTR,)}, ValueError, "['data'] must be a 2-tuple"),
    ("data empty", {"data": ()}, ValueError, "not a tuple of 0"),
    (
        "data float ptr",
        {"data": (1.0, False)},
        TypeError,
        "['data'][0] (the pointer) must be an int",
    ),
    ("data negative", {"data": (-1, False)}, ValueError, "is not a pointer value"),
    ("data huge", {"data": (2**65, False)}, ValueError, "is not a pointer value"),
    ("data flag int", {"data": (PTR, 0)}, TypeError, "read-only flag) must be a bool"),
    ("data flag None", {"data": (PTR, None)}, TypeError, "read-only flag) must be a bool"),
    ("strides str", {"strides": "1"}, TypeError, "['strides'] must be a tuple"),
    (
        "strides length",
        {"strides": (1, 1)},
        ValueError,
        "['strides'] has 2 entries but 'shape' has 1",
    ),
    ("strides float", {"strides": (1.5,)}, TypeError, "['strides'][0] must be an integer"),
    ("offset float", {"offset": 1.0}, TypeError, "['offset'] must be an integer"),
    ("version 2", {"version": 2}, ValueError, "only version 1 is supported"),
    ("version 0", {"version": 0}, ValueError, "only version 1 is supported"),
    ("version str", {"version": "1"}, TypeError, "['version'] must be an integer"),
    ("past the end", {"shape": (65,)}, ValueError, "outside the 64-byte allocation"),
    (
        "offset past end",
        {"shape": (8,), "offset": 57},
        ValueError,
        "outside the 64-byte allocation",
    ),
    (
        "offset before start",
        {"shape": (8,), "offset": -1},
        ValueError,
        "outside the 64-byte allocation",
    ),
    (
        "stride past end",
        {"shape": (2,), "strides": (64,)},
        ValueError,
        "outside the 64-byte allocation",
    ),
    (
        "negative stride before start",
        {"shape": (2,), "strides": (-1,)},
        ValueError,
        "outside the 64-byte allocation",
    ),
    (
        "wide type past end",
        {"shape": (9,), "typestr": "<f8"},
        ValueError,
        "outside the 64-byte allocation",
    ),
    ("unknown pointer", {"data": (16, False)}, ValueError, "not inside any USM allocation"),
    ("null pointer", {"data": (0, False)}, ValueError, "not inside any USM allocation"),
    (
        "overflowing strides",
        {"shape": (3,), "strides": (2**62,)},
        ValueError,
        "beyond addressable memory",
    ),
    ("syclobj int", {"syclobj": 0}, TypeError, "['syclobj'] must be"),
    (
        "syclobj bad filter",
        {"syclobj": "gpu:7"},
        ValueError,
        "no device matches filter string 'gpu:7'",
    ),
]


@pytest.mark.parametrize(
    "changes, exc, fragment", [c[1:] for c in BAD_SUAI], ids=[c[0] for c in BAD_SUAI]
)
def test_malformed_suai_is_refused(changes, exc, fragment):
    mem = ua.MemoryUSMShared(64)
    fixed = {}
    for key, value in changes.items():
        if value is PTR:
            value = mem._pointer
        elif isinstance(value, (tuple, list)) and PTR in value:
            value = type(value)(mem._pointer if v is PTR else v for v in value)
        fixed[key] = value
    holder = Holder(suai(mem, **fixed))
    for convert in (ua.as_usm_memory, ua.MemoryUSMShared):
        with pytest.raises(exc) as info:
            convert(holder)
        assert fragment in str(info.value)


def test_interface_must_be_a_dict():
    with pytest.raises(TypeError, match="must be a dict, not list"):
        ua.as_usm_memory(Holder([("shape", (1,))]))


def test_objects_without_interface():
    for obj in (object(), b"bytes", bytearray(4), [1, 2]):
        with pytest.raises(TypeError, match="does not expose __sycl_usm_array_interface__"):
            ua.as_usm_memory(obj)


def test_interface_getter_errors_propagate():
    class Broken:
        @property
        def __sycl_usm_array_interface__(self):
            raise RuntimeError("producer failed")

    with pytest.raises(RuntimeError, match="producer failed"):
        ua.as_usm_memory(Broken())
    with pytest.raises(RuntimeError, match="producer failed"):
        ua.MemoryUSMShared(Broken())


def test_empty_region_is_wrapped():
    mem = ua.MemoryUSMDevice(16)
    empty = ua.as_usm_memory(Holder(suai(mem, shape=(0,), offset=16)))
    assert empty.nbytes == 0 and empty._pointer == mem._pointer + 16
    assert empty.tobytes() == b""
    with pytest.raises(ValueError, match="cannot copy an empty region"):
        ua.MemoryUSMShared(empty, copy=True)
