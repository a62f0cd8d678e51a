"""The bad-input catalogue: malformed inputs to every public entry point,
each with the exception a user can catch and a fragment of its message.

Every case runs in a fresh call; none may crash, leak or corrupt memory.
The ASan build of CI runs this file with the extension instrumented."""

import ctypes
import operator
import os
import sys

import numpy as np
import pytest
import usmarray as ua
from conftest import KEEP_OUT, Holder, suai
from dlpack_ctypes import Tensor, plain_capsule
from hostile_objects import Clearing, DtypeAttr, emptied_list, null_name_capsule

# Producers that must outlive the calls reading their structs.
_KEEP = []


def host(shape=(4,), dtype="f8"):
    """USM host memory of the host backend, whose DLPack export is kDLCPU."""
    return ua.arange(int(np.prod(shape)), dtype=dtype, usm_type="host", queue="host").reshape(shape)


def dev(shape=(4,), dtype="f8"):
    return ua.zeros(shape, dtype=dtype, usm_type="device")


def device_only(shape=(4,)):
    """Device memory the host cannot reach: the host backend's is the
    process's own, which NumPy shares."""
    x = dev(shape)
    if x.device.backend == "host":
        pytest.skip("the host backend's device memory is host memory")
    return x


def readonly(shape=(4,)):
    x = host(shape)
    x.flags.writable = False
    return x


def shared_mem(n=64):
    return ua.MemoryUSMShared(n)


def import_suai(**changes):
    mem = shared_mem()
    return ua.asarray(Holder(suai(mem, **changes), keep=mem))


def import_suai_dict(iface):
    return ua.asarray(Holder(iface))


def import_cai(**over):
    mem = ua.MemoryUSMShared(64, queue="host")  # no CUDA device's memory
    d = {"shape": (4,), "typestr": "<f8", "data": (mem._pointer, False), "version": 3}
    d.update(over)
    d = {k: v for k, v in d.items() if v is not KEEP_OUT}
    return ua.asarray(type("C", (), {"__cuda_array_interface__": d})())


def capsule(**kw):
    t = Tensor(np.arange(4.0), **kw)
    _KEEP.append(t)
    return t.capsule()


def producer(dlpack=None, device=(1, 0)):
    """An object with __dlpack__ and __dlpack_device__ returning given values."""

    class P:
        def __dlpack__(self, **kw):
            return dlpack(**kw) if callable(dlpack) else dlpack

        def __dlpack_device__(self):
            return device

    return P()


def used_capsule():
    c = capsule()
    ua.from_dlpack(c)
    return ua.from_dlpack(c)


def with_env(name, value, call):
    old = os.environ.get(name)
    os.environ[name] = value
    try:
        return call()
    finally:
        if old is None:
            del os.environ[name]
        else:
            os.environ[name] = old


def writable_buffer(obj):
    """Requests a writable buffer, as C code filling obj would."""
    return (ctypes.c_char * 8).from_buffer(obj)


def setflag(x, key, value):
    x.flags[key] = value


def setattr_(obj, name, value):
    setattr(obj, name, value)


class Raises:
    """Raises from every protocol attribute a reader might touch."""

    @property
    def __sycl_usm_array_interface__(self):
        raise RuntimeError("producer failed")


class BadIndex:
    def __index__(self):
        raise RuntimeError("index failed")


class BadLen:
    """A sequence whose second item raises."""

    def __len__(self):
        return 3

    def __getitem__(self, i):
        if i >= 1:
            raise RuntimeError("item failed")
        return 1


BIG = 2**70


def refusing(values):
    """A list whose first item empties it and then refuses __index__."""
    return emptied_list(values, error=TypeError("refused"))


def dtype_changed_to(second):
    """A dtype-like used once, then given another dtype attribute."""
    obj = DtypeAttr(np.dtype("f4"))
    ua.empty(1, dtype=obj)
    obj.dtype = second
    return ua.empty(1, dtype=obj)


def write_through_readonly_lender():
    x = readonly()
    ua.USMArray((4,), buffer=x)[0] = 1.0


def suai_cleared_by(key, value):
    """A SUAI import whose `key` item empties the dictionary being read."""
    mem = shared_mem()
    iface = suai(mem, shape=(8,), typestr="|u1")
    iface[key] = value(iface)
    return ua.asarray(Holder(iface, keep=mem))


class RaisingDtype:
    """An object whose dtype property raises."""

    @property
    def dtype(self):
        raise RuntimeError("dtype getter")


class DtypeIs:
    """An object whose dtype attribute is whatever it was given."""

    def __init__(self, dtype):
        self.dtype = dtype


def _vec():
    return ua.asarray(np.arange(6.0), device="host")


def _mat():
    return ua.reshape(_vec(), (2, 3))


def _cplx():
    return ua.asarray(np.ones(3, complex), device="host")


def _none():
    return ua.asarray(np.zeros(0), device="host")


def _scalar():
    return ua.asarray(np.array(1.0), device="host")


def _imatmul_reshaping():
    m = ua.ones((2, 3), device="host")
    m @= ua.ones((3, 2), device="host")


C = pytest.param

CASES = [
    # ---- devices and filter strings ----
    C(lambda: ua.Device(""), ValueError, "1 to 127 characters", id="device-empty"),
    C(lambda: ua.Device("nosuch:gpu:0"), ValueError, "nosuch", id="device-unknown-backend"),
    C(lambda: ua.Device("host:gpu:0"), ValueError, "host:gpu:0", id="device-no-such-type"),
    C(lambda: ua.Device("host:cpu:99"), ValueError, "host:cpu:99", id="device-number-too-large"),
    C(lambda: ua.Device("host:cpu:-1"), ValueError, "host:cpu:-1", id="device-negative-number"),
    C(lambda: ua.Device("host:cpu:x"), ValueError, "host:cpu:x", id="device-number-not-digits"),
    C(
        lambda: ua.Device("host:cpu:0\0:1"),
        ValueError,
        "null character",
        id="device-null-after-number",
    ),
    C(lambda: ua.Device("host:cpu:0:1"), ValueError, "host:cpu:0:1", id="device-too-many-parts"),
    C(lambda: ua.Device(":::"), ValueError, ":::", id="device-only-colons"),
    C(lambda: ua.Device("host::0"), ValueError, "host::0", id="device-empty-part"),
    C(lambda: ua.Device("host:cpu:" + "9" * 30), ValueError, "9999", id="device-number-overflow"),
    C(lambda: ua.Device("host\0cpu"), ValueError, "null character", id="device-embedded-null"),
    C(lambda: ua.Device("fpga"), ValueError, "fpga", id="device-unknown-word"),
    C(lambda: ua.Device(5), TypeError, "int", id="device-int"),
    C(lambda: ua.Device(b"host"), TypeError, "bytes", id="device-bytes"),
    C(lambda: ua.Device("host", "cpu"), TypeError, "argument", id="device-two-args"),
    C(
        lambda: ua.Device("\udcff"),
        (ValueError, UnicodeError),
        "surrogates not allowed",
        id="device-lone-surrogate",
    ),
    C(lambda: ua.get_devices(backend=5), TypeError, "backend", id="get-devices-backend-int"),
    C(lambda: ua.get_devices(device_type="fpga"), ValueError, "fpga", id="get-devices-bad-type"),
    C(lambda: ua.get_devices(device_type=3), TypeError, "device_type", id="get-devices-type-int"),
    C(lambda: ua.get_devices(bogus=1), TypeError, "bogus", id="get-devices-bad-keyword"),
    C(lambda: ua.Context(5), TypeError, "int", id="context-int"),
    C(lambda: ua.Context("nosuch"), ValueError, "nosuch", id="context-bad-filter"),
    C(lambda: ua.Queue(5), TypeError, "int", id="queue-int"),
    C(lambda: ua.Queue("nosuch"), ValueError, "nosuch", id="queue-bad-filter"),
    C(lambda: ua.Queue("host", context=5), TypeError, "context", id="queue-context-int"),
    C(lambda: ua.Queue(bogus=1), TypeError, "bogus", id="queue-bad-keyword"),
    C(
        lambda: with_env("USMARRAY_DEVICE", "nowhere:9", lambda: ua.empty(1)),
        ValueError,
        "USMARRAY_DEVICE",
        id="env-default-device-bad",
    ),
    C(
        lambda: with_env("USMARRAY_DEVICE", "host:gpu:0", lambda: ua.empty(1)),
        ValueError,
        "USMARRAY_DEVICE",
        id="env-default-device-no-such-device",
    ),
    # ---- memory ----
    C(lambda: ua.MemoryUSMShared(-1), ValueError, "must be positive", id="memory-negative"),
    C(lambda: ua.MemoryUSMShared(2**63 - 1), ua.USMAllocationError, "bytes", id="memory-too-large"),
    C(
        lambda: ua.MemoryUSMShared(BIG),
        (OverflowError, ValueError),
        "nbytes is too large",
        id="memory-huge-int",
    ),
    C(lambda: ua.MemoryUSMShared(1.5), TypeError, "float", id="memory-float"),
    C(lambda: ua.MemoryUSMShared("10"), TypeError, "str", id="memory-str"),
    C(lambda: ua.MemoryUSMShared(None), TypeError, "NoneType", id="memory-none"),
    C(lambda: ua.MemoryUSMShared(object()), TypeError, "object", id="memory-object"),
    C(
        lambda: ua.MemoryUSMShared(BadIndex()),
        RuntimeError,
        "index failed",
        id="memory-index-raises",
    ),
    C(lambda: ua.MemoryUSMShared(8, alignment=3), ValueError, "power of two", id="memory-align-3"),
    C(
        lambda: ua.MemoryUSMShared(8, alignment=-8),
        ValueError,
        "alignment",
        id="memory-align-negative",
    ),
    C(lambda: ua.MemoryUSMShared(8, alignment="8"), TypeError, "alignment", id="memory-align-str"),
    C(
        lambda: ua.MemoryUSMShared(8, alignment=2**62),
        (ValueError, ua.USMAllocationError),
        "aligned to",
        id="memory-align-huge",
    ),
    C(lambda: ua.MemoryUSMShared(8, queue=5), TypeError, "queue", id="memory-queue-int"),
    C(lambda: ua.MemoryUSMShared(8, queue="nosuch"), ValueError, "nosuch", id="memory-queue-bad"),
    C(lambda: ua.MemoryUSMShared(8, bogus=1), TypeError, "bogus", id="memory-bad-keyword"),
    C(lambda: ua.MemoryUSMShared(8, 8), TypeError, "positional", id="memory-two-positional"),
    C(lambda: ua.MemoryUSMShared(), TypeError, "nbytes", id="memory-no-size"),
    C(lambda: ua.MemoryUSMShared(np.ones(3)), TypeError, "ndarray", id="memory-from-ndarray"),
    C(
        lambda: ua.MemoryUSMShared(Raises()),
        RuntimeError,
        "producer failed",
        id="memory-producer-raises",
    ),
    C(lambda: ua.MemoryUSMShared(Holder(5)), TypeError, "dict", id="memory-suai-not-dict"),
    C(
        lambda: ua.MemoryUSMHost(ua.MemoryUSMDevice(8)),
        ValueError,
        "its USM kind differs",
        id="memory-kind-mismatch",
    ),
    C(
        lambda: shared_mem(8).copy_from_host(b"x" * 9),
        ValueError,
        "9",
        id="mem-copy-from-host-too-long",
    ),
    C(lambda: shared_mem(8).copy_from_host(5), TypeError, "int", id="mem-copy-from-host-int"),
    C(
        lambda: shared_mem(8).copy_from_host(np.ones((2, 2))[:, 0]),
        (BufferError, ValueError),
        "contiguous",
        id="mem-copy-from-host-strided",
    ),
    C(
        lambda: shared_mem(8).copy_to_host(bytearray(3)),
        ValueError,
        "3",
        id="mem-copy-to-host-short",
    ),
    C(
        lambda: shared_mem(8).copy_to_host(b"readonly"),
        (BufferError, TypeError),
        "not writable",
        id="mem-copy-to-host-readonly",
    ),
    C(lambda: shared_mem(8).copy_to_host(5), TypeError, "int", id="mem-copy-to-host-int"),
    C(
        lambda: shared_mem(8).copy_from_device(object()),
        TypeError,
        "object",
        id="mem-copy-from-device-object",
    ),
    C(
        lambda: shared_mem(8).copy_from_device(shared_mem(16)),
        ValueError,
        "16",
        id="mem-copy-from-device-too-long",
    ),
    C(lambda: shared_mem(8).memset(256), ValueError, "[0, 255]", id="mem-memset-256"),
    C(lambda: shared_mem(8).memset(-1), ValueError, "[0, 255]", id="mem-memset-negative"),
    C(lambda: shared_mem(8).memset("a"), TypeError, "value", id="mem-memset-str"),
    C(
        lambda: shared_mem(8).memset(BIG),
        (OverflowError, ValueError),
        "value is too large",
        id="mem-memset-huge",
    ),
    C(lambda: shared_mem(8).get_usm_type(5), TypeError, "int", id="mem-usm-type-syclobj-int"),
    C(
        lambda: shared_mem(8).get_usm_type("nosuch"),
        ValueError,
        "nosuch",
        id="mem-usm-type-syclobj-bad",
    ),
    C(lambda: memoryview(ua.MemoryUSMDevice(8)), BufferError, "device", id="mem-buffer-device"),
    C(lambda: setattr_(shared_mem(8), "nbytes", 3), AttributeError, "nbytes", id="mem-set-nbytes"),
    C(lambda: ua.as_usm_memory(5), TypeError, "int", id="as-usm-memory-int"),
    C(lambda: ua.as_usm_memory(np.ones(3)), TypeError, "ndarray", id="as-usm-memory-ndarray"),
    C(lambda: ua.as_usm_memory(Holder({})), ValueError, "version", id="as-usm-memory-empty-dict"),
    C(lambda: ua.get_pointer_type("x"), TypeError, "str", id="pointer-type-str"),
    C(lambda: ua.get_pointer_type(-1), ValueError, "pointer", id="pointer-type-negative"),
    C(
        lambda: ua.get_pointer_type(2**64),
        (ValueError, OverflowError),
        "ptr 18446744073709551616 is not a pointer value",
        id="pointer-type-huge",
    ),
    C(lambda: ua.get_pointer_type(0, 5), TypeError, "int", id="pointer-type-syclobj-int"),
    C(
        lambda: ua.get_pointer_type(0, "nosuch"),
        ValueError,
        "nosuch",
        id="pointer-type-syclobj-bad",
    ),
    C(lambda: ua.Context("host").release_pool(1), TypeError, "argument", id="release-pool-arg"),
    # ---- the array constructor ----
    C(lambda: ua.USMArray(-1), ValueError, "negative", id="array-negative"),
    C(lambda: ua.USMArray((2, -1)), ValueError, "negative", id="array-negative-second"),
    C(lambda: ua.USMArray((2**62, 2**62)), ValueError, "too many elements", id="array-too-large"),
    C(lambda: ua.USMArray("3"), TypeError, "shape", id="array-shape-str"),
    C(lambda: ua.USMArray((1.5,)), TypeError, "shape", id="array-shape-float"),
    C(lambda: ua.USMArray((1,) * 65), ValueError, "64", id="array-65-dims"),
    C(
        lambda: ua.USMArray((BIG,)),
        (OverflowError, ValueError),
        "shape[0] is too large",
        id="array-huge-dim",
    ),
    C(lambda: ua.USMArray(BadLen()), RuntimeError, "item failed", id="array-shape-bad-sequence"),
    C(
        lambda: ua.USMArray((BadIndex(),)),
        RuntimeError,
        "index failed",
        id="array-shape-index-raises",
    ),
    C(lambda: ua.USMArray(3, dtype="x"), TypeError, "x", id="array-dtype-unknown"),
    C(lambda: ua.USMArray(3, dtype="V8"), TypeError, "V", id="array-dtype-void"),
    C(lambda: ua.USMArray(3, dtype=object), TypeError, "O", id="array-dtype-object"),
    C(lambda: ua.USMArray(3, dtype="<U4"), TypeError, "U", id="array-dtype-unicode"),
    C(lambda: ua.USMArray(3, dtype="M8[s]"), TypeError, "M", id="array-dtype-datetime"),
    C(lambda: ua.USMArray(3, dtype=5), TypeError, "5", id="array-dtype-int"),
    C(
        lambda: ua.USMArray(3, dtype=np.dtype([("a", "f4")])),
        TypeError,
        "is not supported",
        id="array-dtype-structured",
    ),
    C(lambda: ua.USMArray(3, buffer="gpu"), ValueError, "gpu", id="array-buffer-word"),
    C(lambda: ua.USMArray(3, buffer=5), ValueError, "buffer must be", id="array-buffer-int"),
    C(lambda: ua.USMArray(3, buffer={}), ValueError, "not dict", id="array-buffer-dict"),
    C(lambda: ua.USMArray(3, buffer=b"gpu"), ValueError, "b'gpu'", id="array-buffer-bytes-word"),
    C(lambda: ua.USMArray(3, buffer=shared_mem(8)), ValueError, "bytes", id="array-buffer-short"),
    C(
        lambda: ua.USMArray(5, buffer=host((4,))),
        ValueError,
        "shape, strides and offset reach bytes [0, 40) of",
        id="array-buffer-array-short",
    ),
    C(lambda: ua.USMArray(3, strides=(1, 1)), ValueError, "strides", id="array-strides-length"),
    C(lambda: ua.USMArray(3, strides=("a",)), TypeError, "strides", id="array-strides-str"),
    C(lambda: ua.USMArray(3, strides=5), ValueError, "strides must be", id="array-strides-int"),
    C(lambda: ua.USMArray(1, strides={"a": 1}), ValueError, "not dict", id="array-strides-dict"),
    C(
        lambda: ua.USMArray(3, buffer=shared_mem(24), strides=(2,)),
        ValueError,
        "of a buffer of 24 bytes",
        id="array-strides-past-end",
    ),
    C(
        lambda: ua.USMArray(3, buffer=shared_mem(24), strides=(-1,)),
        ValueError,
        "of a buffer of 24 bytes",
        id="array-strides-before-start",
    ),
    C(
        lambda: ua.USMArray(3, buffer=shared_mem(24), strides=(2**62,)),
        ValueError,
        "strides and shape reach beyond addressable memor",
        id="array-strides-overflow",
    ),
    C(
        lambda: ua.USMArray(3, offset=-1, buffer=shared_mem(24)),
        ValueError,
        "must not be negative",
        id="array-offset-negative",
    ),
    C(
        lambda: ua.USMArray(3, offset=1, buffer=shared_mem(24)),
        ValueError,
        "of a buffer of 24 bytes",
        id="array-offset-past-end",
    ),
    C(lambda: ua.USMArray(3, offset="x"), TypeError, "offset", id="array-offset-str"),
    C(
        lambda: ua.USMArray(3, offset=BIG),
        (OverflowError, ValueError),
        "offset is too large",
        id="array-offset-huge",
    ),
    C(lambda: ua.USMArray(3, order="X"), ValueError, "order", id="array-order-bad"),
    C(lambda: ua.USMArray(3, order=5), TypeError, "order", id="array-order-int"),
    C(
        lambda: ua.USMArray(3, buffer_ctor_kwargs=5),
        TypeError,
        "buffer_ctor_kwargs",
        id="array-ctor-kwargs-int",
    ),
    C(
        lambda: ua.USMArray(3, buffer_ctor_kwargs={"bogus": 1}),
        TypeError,
        "bogus",
        id="array-ctor-kwargs-unknown",
    ),
    C(
        lambda: ua.USMArray(3, buffer_ctor_kwargs={1: 1}),
        TypeError,
        "buffer_ctor_kwargs has unknown key 1",
        id="array-ctor-kwargs-int-key",
    ),
    C(lambda: ua.USMArray(), TypeError, "shape", id="array-no-shape"),
    C(lambda: ua.USMArray(3, bogus=1), TypeError, "bogus", id="array-bad-keyword"),
    C(
        lambda: ua.USMArray(3, "f8", "device", None, 0, "C", None, 1),
        TypeError,
        "at most",
        id="array-too-many-positional",
    ),
    # ---- creation functions ----
    C(lambda: ua.empty(-1), ValueError, "negative", id="empty-negative"),
    C(lambda: ua.empty((2, -3)), ValueError, "negative", id="empty-negative-second"),
    C(lambda: ua.empty("x"), TypeError, "shape", id="empty-shape-str"),
    C(lambda: ua.empty(2, dtype="nope"), TypeError, "nope", id="empty-dtype-bad"),
    C(lambda: ua.empty(2, order="K"), ValueError, "order", id="empty-order-k"),
    C(lambda: ua.empty(2, usm_type="gpu"), ValueError, "gpu", id="empty-usm-type-bad"),
    C(lambda: ua.empty(2, usm_type=5), TypeError, "usm_type", id="empty-usm-type-int"),
    C(lambda: ua.empty(2, device=5), TypeError, "device", id="empty-device-int"),
    C(lambda: ua.empty(2, device="nosuch"), ValueError, "nosuch", id="empty-device-bad"),
    C(
        lambda: ua.empty(2, device="host", queue="nosuch"),
        ValueError,
        "nosuch",
        id="empty-queue-bad",
    ),
    C(
        lambda: ua.empty(2**61, dtype="f8"),
        (ua.USMAllocationError, ValueError),
        "the array needs more bytes than can be addressed",
        id="empty-too-large",
    ),
    C(lambda: ua.empty(2**62, dtype="f8"), ValueError, "addressed", id="empty-overflow"),
    C(lambda: ua.empty(2, bogus=1), TypeError, "bogus", id="empty-bad-keyword"),
    C(lambda: ua.empty(), TypeError, "shape", id="empty-no-shape"),
    C(lambda: ua.zeros(2, dtype=object), TypeError, "O", id="zeros-object"),
    C(lambda: ua.ones(-2), ValueError, "negative", id="ones-negative"),
    C(lambda: ua.full(2), TypeError, "fill_value", id="full-no-value"),
    C(
        lambda: ua.full(2, "x"),
        TypeError,
        "fill_value must be a number or an array, not str",
        id="full-str",
    ),
    C(lambda: ua.full(2, object()), TypeError, "is not supported by usmarray", id="full-object"),
    C(
        lambda: ua.full(2, [1, 2, 3]),
        ValueError,
        "could not broadcast input array from shape (3,)",
        id="full-wrong-shape",
    ),
    C(
        lambda: ua.full(2, BIG, dtype="i8"),
        (OverflowError, ValueError),
        "Python integer 1180591620717411303424 out of bou",
        id="full-overflow",
    ),
    C(lambda: ua.full(2, 1.0, dtype="x"), TypeError, "x", id="full-dtype-bad"),
    C(
        lambda: ua.empty_like(5),
        TypeError,
        "a *_like function expects a USMArray, not int",
        id="empty-like-int",
    ),
    C(lambda: ua.empty_like(host(), dtype="nope"), TypeError, "nope", id="empty-like-dtype"),
    C(lambda: ua.empty_like(host(), order="Z"), ValueError, "order", id="empty-like-order"),
    C(lambda: ua.empty_like(host(), usm_type="gpu"), ValueError, "gpu", id="empty-like-usm-type"),
    C(
        lambda: ua.zeros_like(object()),
        TypeError,
        "a *_like function expects a USMArray, not object",
        id="zeros-like-object",
    ),
    C(
        lambda: ua.full_like(host(), "0"),
        TypeError,
        "fill_value must be a number or an array, not str",
        id="full-like-str",
    ),
    C(lambda: ua.full_like(host()), TypeError, "fill_value", id="full-like-no-value"),
    C(lambda: ua.arange(), TypeError, "missing required argument", id="arange-no-args"),
    C(
        lambda: ua.arange("a"),
        TypeError,
        "arange takes integers or real numbers, not str",
        id="arange-str",
    ),
    C(lambda: ua.arange(0, 10, 0.0), ValueError, "must not be zero", id="arange-step-zero-float"),
    C(lambda: ua.arange(0, 10, 0), ValueError, "step", id="arange-step-zero"),
    C(
        lambda: ua.arange(0, BIG),
        (OverflowError, ValueError),
        "Maximum allowed size exceeded",
        id="arange-huge",
    ),
    C(
        lambda: ua.arange(0, 1e30, 1e-30),
        ValueError,
        "Maximum allowed size exceeded",
        id="arange-too-many",
    ),
    C(lambda: ua.arange(1, dtype="nope"), TypeError, "nope", id="arange-dtype-bad"),
    C(
        lambda: ua.arange(float("nan")),
        ValueError,
        "arange: cannot compute length",
        id="arange-nan",
    ),
    C(
        lambda: ua.arange(0, float("inf")),
        (ValueError, OverflowError),
        "Maximum allowed size exceeded",
        id="arange-inf",
    ),
    C(lambda: ua.reshape(host((4,)), (5,)), ValueError, "5", id="reshape-wrong-size"),
    C(lambda: ua.reshape(host((4,)), (-1, -1)), ValueError, "-1", id="reshape-two-unknown"),
    C(lambda: ua.reshape(host((4,)), (-2, 2)), ValueError, "shape[0] is -2", id="reshape-negative"),
    C(
        lambda: ua.reshape(host((4,)), (3, -1)),
        ValueError,
        "cannot reshape an array of size 4: the other axe",
        id="reshape-unknown-not-integral",
    ),
    C(
        lambda: ua.reshape(host((4,)), "a"),
        TypeError,
        "shape must be an integer or a sequence of intege",
        id="reshape-shape-str",
    ),
    C(
        lambda: ua.reshape(5, (1,)),
        TypeError,
        "reshape expects a USMArray, not int",
        id="reshape-not-array",
    ),
    C(lambda: ua.reshape(host((4,)), (2, 2), order="K"), ValueError, "order", id="reshape-order-k"),
    C(
        lambda: ua.reshape(host((4, 4)).T, (16,), copy=False),
        ValueError,
        "copy",
        id="reshape-no-copy-impossible",
    ),
    C(
        lambda: ua.permute_dims(host((2, 2)), (0, 0)),
        ValueError,
        "axes repeat axis 0",
        id="permute-repeated",
    ),
    C(
        lambda: ua.permute_dims(host((2, 2)), (0,)),
        ValueError,
        "axes has 1 entries but the array has 2 dimension",
        id="permute-too-few",
    ),
    C(
        lambda: ua.permute_dims(host((2, 2)), (0, 5)),
        (ValueError, IndexError),
        "axis 5 is out of bounds for an array of 2 dimens",
        id="permute-out-of-range",
    ),
    C(
        lambda: ua.permute_dims(host((2, 2)), "ab"),
        TypeError,
        "axes must be an integer or a sequence of integer",
        id="permute-str",
    ),
    C(
        lambda: ua.permute_dims(np.ones((2, 2)), (1, 0)),
        TypeError,
        "permute_dims expects a USMArray, not numpy.ndarr",
        id="permute-not-array",
    ),
    # ---- asarray, asnumpy ----
    C(lambda: ua.asarray(object()), TypeError, "is not supported", id="asarray-object"),
    C(
        lambda: ua.asarray([1, "a"]),
        (TypeError, ValueError),
        "is not supported by usmarray",
        id="asarray-mixed-list",
    ),
    C(
        lambda: ua.asarray([[1], [1, 2]]),
        ValueError,
        "setting an array element with a sequence. The re",
        id="asarray-ragged",
    ),
    C(lambda: ua.asarray(1, dtype="nope"), TypeError, "nope", id="asarray-dtype-bad"),
    C(
        lambda: ua.asarray(host(), dtype="f4", copy=False),
        ValueError,
        "copy",
        id="asarray-cast-no-copy",
    ),
    C(lambda: ua.asarray([1], usm_type="gpu"), ValueError, "gpu", id="asarray-usm-type-bad"),
    C(lambda: ua.asarray(1, order="Q"), ValueError, "order", id="asarray-order-bad"),
    C(lambda: ua.asarray([1.0], copy=False), ValueError, "copy", id="asarray-list-no-copy"),
    C(lambda: ua.asarray(np.array(["a"])), TypeError, "U", id="asarray-unicode"),
    C(lambda: ua.asarray(np.array([1], dtype=object)), TypeError, "O", id="asarray-object-dtype"),
    C(lambda: ua.asarray(np.zeros(3, dtype="M8[s]")), TypeError, "M", id="asarray-datetime"),
    C(
        lambda: ua.asarray(np.zeros(3, dtype=[("a", "f4")])),
        TypeError,
        "is not supported by usmarray",
        id="asarray-structured",
    ),
    C(lambda: ua.asarray(host(), queue=5), TypeError, "queue", id="asarray-queue-int"),
    C(lambda: ua.asarray(host(), queue="nosuch"), ValueError, "nosuch", id="asarray-queue-bad"),
    C(
        lambda: ua.asarray(host(), copy="x"),
        TypeError,
        "copy must be None or a bool, not str",
        id="asarray-copy-str",
    ),
    C(lambda: ua.asarray(Raises()), RuntimeError, "producer failed", id="asarray-producer-raises"),
    C(lambda: ua.asarray(), TypeError, "obj", id="asarray-no-args"),
    C(lambda: ua.asnumpy(Raises()), RuntimeError, "producer failed", id="asnumpy-producer-raises"),
    C(
        lambda: ua.asnumpy(),
        TypeError,
        "asnumpy() missing required argument 'x'",
        id="asnumpy-no-args",
    ),
    # ---- array attributes and methods ----
    C(lambda: host().reshape(5), ValueError, "5", id="method-reshape-size"),
    C(lambda: host().reshape((2, 2), order="Z"), ValueError, "order", id="method-reshape-order"),
    C(
        lambda: host().reshape(2, "a"),
        TypeError,
        "shape[1] must be an integer, not str",
        id="method-reshape-str",
    ),
    C(lambda: host().reshape(), ValueError, "size 4", id="method-reshape-nothing"),
    C(
        lambda: host((2, 2)).transpose(0, 0),
        ValueError,
        "axes repeat axis 0",
        id="method-transpose-repeated",
    ),
    C(
        lambda: host((2, 2)).transpose(5, 0),
        (ValueError, IndexError),
        "axis 5 is out of bounds for an array of 2 dimens",
        id="method-transpose-range",
    ),
    C(
        lambda: host().transpose(0, 1),
        ValueError,
        "axes has 2 entries but the array has 1 dimension",
        id="method-transpose-too-many",
    ),
    C(
        lambda: host((2, 2)).transpose("a", "b"),
        TypeError,
        "axes[0] must be an integer, not str",
        id="method-transpose-str",
    ),
    C(lambda: host().copy(order="Z"), ValueError, "order", id="method-copy-order"),
    C(lambda: host().copy(order=5), TypeError, "order", id="method-copy-order-int"),
    C(lambda: host().astype("nope"), TypeError, "nope", id="method-astype-dtype"),
    C(lambda: host().astype("f4", order="Z"), ValueError, "order", id="method-astype-order"),
    C(lambda: host().astype(object), TypeError, "O", id="method-astype-object"),
    C(lambda: host().astype(), TypeError, "dtype", id="method-astype-nothing"),
    C(
        lambda: host().to_device(5),
        TypeError,
        "device must be a usmarray.Device, Queue or Context, a dpctl SyclDevice",
        id="method-to-device-int",
    ),
    C(lambda: host().to_device("nosuch"), ValueError, "nosuch", id="method-to-device-bad"),
    C(
        lambda: ua.Queue("host", in_order="no"),
        TypeError,
        "in_order must be a bool or None, not str",
        id="queue-in-order-str",
    ),
    C(
        lambda: ua.Queue("host", in_order=[0]),
        TypeError,
        "in_order must be a bool or None, not list",
        id="queue-in-order-list",
    ),
    C(
        lambda: ua.Queue("host", in_order=1),
        TypeError,
        "in_order must be a bool or None, not int",
        id="queue-in-order-int",
    ),
    C(
        lambda: ua.zeros(2, queue="host", sycl_queue="host"),
        TypeError,
        "zeros() got multiple values for argument 'queue'",
        id="zeros-queue-and-sycl-queue",
    ),
    C(
        lambda: host().fill("a"),
        (TypeError, ValueError),
        "could not convert string to float",
        id="method-fill-str",
    ),
    C(
        lambda: host().fill(object()),
        TypeError,
        "float() argument must be a string or a real numb",
        id="method-fill-object",
    ),
    C(
        lambda: host().fill([1, 2]),
        (TypeError, ValueError),
        "could not broadcast input array from shape (2,)",
        id="method-fill-list",
    ),
    C(
        lambda: host(dtype="i4").fill(BIG),
        (OverflowError, ValueError),
        "Python integer 1180591620717411303424 out of bou",
        id="method-fill-overflow",
    ),
    C(lambda: readonly().fill(1), ValueError, "read-only", id="method-fill-readonly"),
    C(lambda: len(ua.empty(())), TypeError, "unsized", id="len-0d"),
    C(lambda: host().flags["bogus"], KeyError, "bogus", id="flags-unknown"),
    C(lambda: host().flags[5], KeyError, "5", id="flags-int-key"),
    C(
        lambda: setflag(host(), "C", True),
        (KeyError, ValueError, AttributeError),
        "flag 'C' cannot be set",
        id="flags-set-contiguous",
    ),
    C(lambda: setflag(host(), "bogus", True), KeyError, "bogus", id="flags-set-unknown"),
    C(
        lambda: setflag(import_suai(data=(shared_mem()._pointer, True)), "W", True),
        (ValueError, KeyError),
        "cannot make the array writable: its memory is re",
        id="flags-writable-on-readonly-import",
    ),
    C(
        lambda: setattr_(ua.zeros((4, 4), queue="host")[::2, ::2], "shape", (4,)),
        AttributeError,
        "incompatible shape for in-place modification",
        id="set-shape",
    ),
    C(lambda: setattr_(host(), "shape", "ab"), TypeError, "shape must be", id="set-shape-str"),
    C(lambda: setattr_(host(), "shape", (5, 7)), ValueError, "cannot reshape", id="set-shape-size"),
    C(lambda: delattr(host(), "shape"), AttributeError, "cannot delete", id="del-shape"),
    C(
        lambda: ua.asnumpy(host(), order="Z"),
        ValueError,
        "order must be one of",
        id="asnumpy-order",
    ),
    C(
        lambda: ua.asnumpy(host(), oder="C"),
        TypeError,
        "asnumpy() got an unexpected",
        id="asnumpy-kw",
    ),
    C(lambda: setattr_(host(), "dtype", "f4"), AttributeError, "is not writable", id="set-dtype"),
    C(
        lambda: device_only().__array_interface__,
        AttributeError,
        "device",
        id="device-array-interface",
    ),
    C(
        lambda: np.asarray(device_only()),
        (TypeError, ValueError, BufferError),
        "USM device memory cannot be converted to a NumPy",
        id="numpy-of-device",
    ),
    C(lambda: host().__array__(dtype="nope"), TypeError, "nope", id="dunder-array-dtype"),
    C(lambda: host().__array__("f8", copy="x"), ValueError, "copy", id="dunder-array-copy-str"),
    C(lambda: memoryview(device_only()), BufferError, "device", id="buffer-device-array"),
    C(
        lambda: writable_buffer(host((4, 4)).T),
        (BufferError, TypeError, ValueError),
        "contiguous",
        id="buffer-contiguous-of-transpose",
    ),
    C(
        lambda: writable_buffer(readonly()),
        (BufferError, TypeError),
        "underlying buffer is not writable",
        id="buffer-writable-readonly",
    ),
    C(
        lambda: writable_buffer(import_suai(data=(shared_mem()._pointer, True))),
        (BufferError, TypeError),
        "underlying buffer is not writable",
        id="buffer-writable-readonly-import",
    ),
    C(
        lambda: host() + object(),
        TypeError,
        "unsupported operand type(s) for +",
        id="elementwise-unknown-operand",
    ),
    C(lambda: host() + np.ones(4), TypeError, "ua.asarray", id="elementwise-numpy-operand"),
    C(lambda: np.ones(4) == host(), TypeError, "ua.asarray", id="elementwise-numpy-left-operand"),
    C(
        lambda: ua.add(host(), "a"),
        TypeError,
        "add() takes USMArrays and Python scalars",
        id="elementwise-str",
    ),
    C(lambda: ua.add(1, 2), TypeError, "at least one USMArray", id="elementwise-no-array"),
    C(lambda: ua.exp(), TypeError, "exp", id="elementwise-no-operand"),
    C(lambda: ua.sin(host(), host()), TypeError, "sin", id="elementwise-extra-operand"),
    C(lambda: ua.bitwise_and(host(), host()), TypeError, "dtype float64", id="elementwise-kind"),
    C(lambda: ua.add(host(), host((3,))), ValueError, "broadcast", id="elementwise-broadcast"),
    C(
        lambda: ua.add(host(dtype="i1"), 300),
        OverflowError,
        "Python integer 300 out of bounds for int8",
        id="elementwise-int-scalar-range",
    ),
    C(
        lambda: ua.add(host(dtype="i8"), 2**70),
        OverflowError,
        "Python integer out of bounds for int64",
        id="elementwise-int-scalar-huge",
    ),
    C(lambda: ua.clip(host(), mx=1), TypeError, "mx", id="clip-unknown-keyword"),
    # ---- each class of elementwise function (its type rule), operators ----
    C(lambda: ua.add(host(), "a"), TypeError, "Python scalars, not str", id="ew-same-str"),
    C(lambda: ua.exp(np.ones(3)), TypeError, "ua.asarray", id="ew-to-float-numpy"),
    C(lambda: ua.sin("x"), TypeError, "sin() takes USMArrays", id="ew-to-float-str"),
    C(
        lambda: ua.less(host(dtype="c16"), host(dtype="c16")),
        TypeError,
        "less() does not accept an array of dtype complex128",
        id="ew-predicate-complex",
    ),
    C(
        lambda: ua.isnan(host(), host()),
        TypeError,
        "1 positional argument",
        id="ew-predicate-arity",
    ),
    C(lambda: ua.imag("x"), TypeError, "imag() takes USMArrays", id="ew-to-real-str"),
    C(
        lambda: ua.floor(host(dtype="c8")),
        TypeError,
        "floor() does not accept an array of dtype complex64",
        id="ew-rounding-complex",
    ),
    C(
        lambda: ua.bitwise_left_shift(host(), 1),
        TypeError,
        "does not accept an array of dtype float64",
        id="ew-integral-float",
    ),
    C(
        lambda: ua.bitwise_and(host(dtype="i8"), host(dtype="u8")),
        TypeError,
        "they promote to float64",
        id="ew-bitwise-promotes-to-float",
    ),
    C(lambda: ua.where(host() > 1, "a", host()), TypeError, "not str", id="ew-select-str"),
    C(
        lambda: ua.clip(host(dtype="c8"), 0, 1),
        TypeError,
        "clip() does not accept an array of dtype complex64",
        id="ew-like-first-complex",
    ),
    C(lambda: ua.logical_and(host(), None), TypeError, "not NoneType", id="ew-logical-none"),
    C(lambda: host() + np.ones(4), TypeError, "ua.asarray", id="operator-numpy-right"),
    C(lambda: np.ones(4) + host(), TypeError, "ua.asarray", id="operator-numpy-left"),
    C(lambda: pow(host(), 2, 3), TypeError, "unsupported operand", id="operator-pow-modulus"),
    C(lambda: host(dtype="c16") % 2, TypeError, "remainder()", id="operator-mod-complex"),
    C(
        lambda: operator.iadd(host(dtype="i4"), 1.5),
        TypeError,
        "the left operand's dtype int32 cannot hold",
        id="operator-in-place-dtype",
    ),
    C(
        lambda: operator.iadd(host((1,)), host((3,))),
        ValueError,
        "broadcasting may not grow it",
        id="operator-in-place-grow",
    ),
    C(
        lambda: operator.iadd(readonly(), 1),
        ValueError,
        "read-only",
        id="operator-in-place-read-only",
    ),
    C(
        lambda: ua.where(host() > 1, host(), host((3,))),
        ValueError,
        "broadcast",
        id="where-broadcast",
    ),
    C(lambda: hash(dev()), TypeError, "unhashable type", id="array-unhashable"),
    C(lambda: {dev(): 1}, TypeError, "unhashable type", id="array-not-a-dict-key"),
    C(lambda: iter(ua.zeros(())), TypeError, "iteration over a 0-d array", id="iter-0d"),
    # NumPy 2: TypeError for int(), float(), complex() and index() of any
    # array that is not 0-d; only bool() names .any()/.all().
    C(lambda: int(dev()), TypeError, "only 0-dimensional arrays can be converted", id="int-of-4"),
    C(
        lambda: float(ua.ones(2)),
        TypeError,
        "only 0-dimensional arrays can be converted to Python scalars",
        id="float-of-2",
    ),
    C(lambda: bool(ua.ones(2)), ValueError, "usmarray.any(x) or usmarray.all(x)", id="bool-of-2"),
    C(
        lambda: int(dev((1,))),
        TypeError,
        "only 0-dimensional arrays can be converted",
        id="int-of-1d",
    ),
    C(lambda: int(dev((0,))), TypeError, "only 0-dimensional", id="int-of-empty"),
    C(lambda: bool(dev((1, 1))), TypeError, "this one has 2 dimensions", id="bool-of-1x1"),
    C(lambda: operator.index(dev((1,), "i8")), TypeError, "only 0-dimensional", id="index-of-1d"),
    C(lambda: operator.index(dev((2,), "i8")), TypeError, "has 1 dimension and 2", id="index-of-2"),
    C(
        lambda: float(ua.zeros((1,), usm_type="shared")),
        TypeError,
        "only 0-dimensional arrays",
        id="float-of-1d-shared",
    ),
    C(lambda: int(ua.asarray(1j)), TypeError, "not 'complex'", id="int-of-complex"),
    C(lambda: float(ua.asarray(1j)), TypeError, "not 'complex'", id="float-of-complex"),
    C(lambda: complex(dev((1,))), TypeError, "only 0-dimensional arrays", id="complex-of-1d"),
    C(
        lambda: [0][ua.asarray(0.0)],
        TypeError,
        "only integer scalar arrays can be converted to a scalar index",
        id="index-of-float",
    ),
    C(lambda: [0][ua.asarray(True)], TypeError, "only integer scalar arrays", id="index-of-bool"),
    C(lambda: bool(dev()), ValueError, "more than one element (it has 4)", id="bool-of-several"),
    C(
        lambda: dev().item(),
        ValueError,
        "can only convert an array of size 1 to a Python scalar",
        id="item-of-several",
    ),
    C(lambda: dev().item(4), IndexError, "index 4 is out of bounds for size 4", id="item-past-end"),
    C(lambda: dev().item("a"), TypeError, "item() index must be an integer", id="item-str"),
    C(
        lambda: dev((2, 2)).item(1, 2, 3),
        ValueError,
        "item() needs 2 indices",
        id="item-too-many-indices",
    ),
    C(
        lambda: dev((2, 2)).item(0, slice(None)),
        IndexError,
        "integer indices only",
        id="item-slice",
    ),
    C(
        lambda: format(dev(), ".2f"),
        TypeError,
        "unsupported format string '.2f'",
        id="format-nd-with-spec",
    ),
    C(
        lambda: np.asarray(ua.MemoryUSMDevice(8)),
        TypeError,
        "USM device memory cannot be converted to a NumPy",
        id="numpy-of-device-memory",
    ),
    C(
        lambda: ua.MemoryUSMDevice(8).__array__(dtype="f8"),
        TypeError,
        "copy_to_host()",
        id="numpy-of-device-memory-dtype",
    ),
    C(
        lambda: dev().to_device("host", stream=1),
        ValueError,
        "the host backend has no streams",
        id="to-device-stream-on-host",
    ),
    C(
        lambda: dev().to_device("host", stream="s"),
        TypeError,
        "stream must be None, a usmarray.Queue",
        id="to-device-stream-str",
    ),
    C(
        lambda: dev().to_device("host", stream=-5),
        ValueError,
        "stream -5 is not a stream handle",
        id="to-device-stream-negative",
    ),
    C(
        lambda: ua.asarray([1], device=2.5),
        TypeError,
        "device must be a usmarray.Device",
        id="asarray-device-float",
    ),
    C(
        lambda: ua.asarray([1], device="nosuch"),
        ValueError,
        "filter string 'nosuch'",
        id="asarray-device-unknown",
    ),
    C(
        lambda: host().astype("f4", copy="no"),
        TypeError,
        "copy must be None or a bool",
        id="method-astype-copy-str",
    ),
    C(lambda: bool(host()), ValueError, "ambiguous", id="bool-ambiguous"),
    # ---- indexing ----
    C(lambda: host()[4], IndexError, "4", id="index-past-end"),
    C(lambda: host()[-5], IndexError, "-5", id="index-before-start"),
    C(
        lambda: host()[0, 0],
        IndexError,
        "too many indices for array: array is 1-dimension",
        id="index-too-many",
    ),
    C(
        lambda: host()["a"],
        IndexError,
        "only integers, slices (`:`), ellipsis (`...`), N",
        id="index-str",
    ),
    C(
        lambda: host()[1.5],
        IndexError,
        "only integers, slices (`:`), ellipsis (`...`), N",
        id="index-float",
    ),
    C(lambda: host()[..., ...], IndexError, "only have a single ellipsis", id="index-two-ellipsis"),
    C(
        lambda: host()[[0.5, 1]],
        IndexError,
        "only integers, slices (`:`), ellipsis (`...`), None, and integer or boolean arrays",
        id="index-float-list",
    ),
    C(
        lambda: host()[[0, 4]],
        IndexError,
        "index 4 is out of bounds for axis 0 with size 4",
        id="index-array-past-end",
    ),
    C(lambda: host()[[-5]], IndexError, "index -5 is out of bounds", id="index-array-before-start"),
    C(
        lambda: host()[np.array([True, False, True])],
        IndexError,
        "boolean index did not match",
        id="index-mask-shape",
    ),
    C(
        lambda: host()[[[0, 1]], [[0], [1], [2]]],
        IndexError,
        "too many indices",
        id="index-arrays-too-many",
    ),
    C(
        lambda: host((2, 3))[[0, 1], [0, 1, 2]],
        IndexError,
        "could not be broadcast",
        id="index-arrays-mismatch",
    ),
    C(
        lambda: host()[ua.asarray([1.0], device="host")],
        IndexError,
        "not an array of float64",
        id="index-float-array",
    ),
    C(lambda: ua.take(host(), [9]), IndexError, "index 9 is out of bounds", id="take-past-end"),
    C(
        lambda: ua.take(host((2, 2)), [0]),
        ValueError,
        "axis may be omitted only",
        id="take-no-axis",
    ),
    C(
        lambda: ua.take(host((2, 2)), [0], axis=2),
        IndexError,
        "axis 2 is out of bounds",
        id="take-bad-axis",
    ),
    C(lambda: ua.take(host(), [True]), IndexError, "takes integer indices", id="take-bool"),
    C(lambda: ua.take([1, 2], [0]), TypeError, "take expects a USMArray", id="take-not-array"),
    C(
        lambda: ua.take_along_axis(host((2, 2)), ua.asarray([0], device="host")),
        ValueError,
        "must have the array's 2 dimensions",
        id="take-along-ndim",
    ),
    C(
        lambda: ua.take_along_axis(host((2, 2)), ua.asarray([[0, 2]], device="host")),
        IndexError,
        "index 2 is out of bounds for axis 1",
        id="take-along-bounds",
    ),
    C(
        lambda: ua.take_along_axis(host((2, 2)), ua.asarray([[0]] * 3, device="host"), axis=1),
        ValueError,
        "do not broadcast",
        id="take-along-broadcast",
    ),
    C(
        lambda: ua.take(host((1,) * 64), host((1, 1), "i8"), axis=0),
        ValueError,
        "take: the result would have 65 dimensions; at most 64",
        id="take-too-many-dims",
    ),
    C(
        lambda: host((1,) * 64)[host((1, 1), "i8")],
        IndexError,
        "an index adds axes beyond 64",
        id="index-array-too-many-dims",
    ),
    C(
        lambda: ua.linspace(0, 1, -1),
        ValueError,
        "num must be non-negative",
        id="linspace-negative",
    ),
    C(
        lambda: ua.linspace(0j, 1, 3, dtype="i4"),
        TypeError,
        "complex bounds need a complex dtype, not int32",
        id="linspace-complex-bounds-int-dtype",
    ),
    C(
        lambda: ua.linspace(0, 1j, 3, dtype="f4"),
        TypeError,
        "complex bounds need a complex dtype",
        id="linspace-complex-real",
    ),
    C(
        lambda: ua.linspace("a", 1, 3),
        TypeError,
        "start must be a real or complex number",
        id="linspace-str",
    ),
    C(lambda: ua.eye(-1), ValueError, "negative dimensions", id="eye-negative"),
    C(lambda: ua.eye(2.5), TypeError, "n_rows", id="eye-float"),
    C(lambda: ua.tril(host()), ValueError, "at least 2 dimensions", id="tril-1d"),
    C(lambda: ua.triu(host((2, 2)), k=0.5), TypeError, "k", id="triu-float-k"),
    C(
        lambda: ua.meshgrid(host(), indexing="yx"),
        ValueError,
        "'xy' or 'ij'",
        id="meshgrid-indexing",
    ),
    C(lambda: ua.meshgrid(host((2, 2))), ValueError, "one-dimensional", id="meshgrid-2d"),
    C(
        lambda: ua.meshgrid(host(), ua.ones(3, dtype="f4", device="host")),
        ValueError,
        "must have one dtype: argument 0 is float64, argument 1 float32",
        id="meshgrid-dtypes",
    ),
    C(
        lambda: ua.meshgrid(host(), [1]),
        TypeError,
        "meshgrid expects a USMArray",
        id="meshgrid-list",
    ),
    C(
        lambda: ua.meshgrid(*[host((1,))] * 65),
        ValueError,
        "meshgrid: the result would have 65 dimensions; at most 64",
        id="meshgrid-too-many-dims",
    ),
    C(lambda: ua.arange(0, 3, dtype="bool"), TypeError, "boolean", id="arange-bool"),
    C(lambda: host()[::0], ValueError, "step", id="index-step-zero"),
    C(lambda: host()[BIG], IndexError, "is out of bounds: no axis is that long", id="index-huge"),
    C(
        lambda: host()[object()],
        IndexError,
        "only integers, slices (`:`), ellipsis (`...`), N",
        id="index-object",
    ),
    C(
        lambda: host()[slice(0, 1, "a")],
        TypeError,
        "slice indices must be integers or None or have a",
        id="index-slice-str-step",
    ),
    C(
        lambda: host()[slice("a", 1)],
        TypeError,
        "slice indices must be integers or None or have a",
        id="index-slice-str-start",
    ),
    C(lambda: host()[BadIndex()], RuntimeError, "index failed", id="index-raises"),
    C(lambda: host((2, 3))[0, 5], IndexError, "5", id="index-2d-second-past-end"),
    C(
        lambda: host((2, 3))[:, :, 0],
        IndexError,
        "too many indices for array: array is 2-dimension",
        id="index-2d-too-many",
    ),
    C(
        lambda: host((2, 3))[None, None, 0, 0, 0],
        IndexError,
        "too many indices for array: array is 2-dimension",
        id="index-newaxis-too-many",
    ),
    C(
        lambda: ua.empty(())[0],
        IndexError,
        "too many indices for array: array is 0-dimension",
        id="index-0d",
    ),
    C(
        lambda: ua.empty((0,))[0],
        IndexError,
        "index 0 is out of bounds for axis 0 with size 0",
        id="index-empty",
    ),
    C(
        lambda: bool(ua.empty((0,))),
        ValueError,
        "an empty array has no value to convert to a Python scalar",
        id="bool-empty",
    ),
    C(
        lambda: ua.MemoryUSMShared(8, copy="yes"),
        TypeError,
        "copy must be None or a bool",
        id="memory-copy-str",
    ),
    C(
        lambda: ua.from_dlpack(capsule(), copy=1),
        TypeError,
        "copy must be None or a bool",
        id="dlpack-copy-int",
    ),
    C(
        lambda: host().__setitem__(0, "a"),
        (TypeError, ValueError),
        "could not convert string to float",
        id="setitem-str",
    ),
    C(
        lambda: host().__setitem__(slice(None), np.ones(5)),
        ValueError,
        "could not broadcast input array from shape (5,)",
        id="setitem-shape",
    ),
    C(
        lambda: host().__setitem__(slice(None), object()),
        TypeError,
        "float() argument must be a string or a real numb",
        id="setitem-object",
    ),
    C(lambda: host().__setitem__(10, 1), IndexError, "10", id="setitem-past-end"),
    C(
        lambda: host().__setitem__(slice(None), [[1, 2], [3, 4]]),
        ValueError,
        "could not broadcast input array from shape (2, 2",
        id="setitem-too-many-dims",
    ),
    C(
        lambda: host().__setitem__(slice(0, 2), host((3,))),
        ValueError,
        "could not broadcast input array from shape (3,)",
        id="setitem-array-shape",
    ),
    C(
        lambda: host().__setitem__(slice(None), np.array(["a"] * 4)),
        ValueError,
        "could not convert",
        id="setitem-unicode-array",
    ),
    C(lambda: readonly().__setitem__(0, 1), ValueError, "read-only", id="setitem-readonly"),
    C(
        lambda: host(dtype="i8").__setitem__(..., BIG),
        (OverflowError, ValueError),
        "Python integer 1180591620717411303424 out of bou",
        id="setitem-overflow",
    ),
    C(
        lambda: host().__delitem__(0),
        (TypeError, ValueError),
        "cannot delete array elements",
        id="delitem",
    ),
    # ---- SUAI import ----
    C(lambda: import_suai(shape=KEEP_OUT), ValueError, "shape", id="suai-no-shape"),
    C(lambda: import_suai(typestr=KEEP_OUT), ValueError, "typestr", id="suai-no-typestr"),
    C(lambda: import_suai(data=KEEP_OUT), ValueError, "data", id="suai-no-data"),
    C(lambda: import_suai(version=KEEP_OUT), ValueError, "version", id="suai-no-version"),
    C(lambda: import_suai(syclobj=KEEP_OUT), ValueError, "syclobj", id="suai-no-syclobj"),
    C(lambda: import_suai(shape=(-1,)), ValueError, "negative", id="suai-negative-shape"),
    C(
        lambda: import_suai(shape=(BIG,)),
        (OverflowError, ValueError),
        "['shape'][0] is too large",
        id="suai-huge-shape",
    ),
    C(lambda: import_suai(shape="64"), TypeError, "shape", id="suai-shape-str"),
    C(lambda: import_suai(shape=(1,) * 65), ValueError, "64", id="suai-65-dims"),
    C(lambda: import_suai(shape=(65,)), ValueError, "outside", id="suai-past-end"),
    C(lambda: import_suai(typestr="<f3"), ValueError, "typestr", id="suai-typestr-size"),
    C(lambda: import_suai(typestr=""), ValueError, "typestr", id="suai-typestr-empty"),
    C(lambda: import_suai(typestr="|u1" * 100), ValueError, "typestr", id="suai-typestr-long"),
    C(lambda: import_suai(typestr="<f8\0"), ValueError, "typestr", id="suai-typestr-null"),
    C(lambda: import_suai(typestr=b"|u1"), TypeError, "typestr", id="suai-typestr-bytes"),
    C(lambda: import_suai(typestr="<M8"), ValueError, "M", id="suai-typestr-datetime"),
    C(lambda: import_suai(data=(0, False), shape=(1,)), ValueError, "0x0", id="suai-null-data"),
    C(lambda: import_suai(data=(8,)), ValueError, "not a tuple of 1", id="suai-data-1-tuple"),
    C(lambda: import_suai(data=[0, False]), TypeError, "data", id="suai-data-list"),
    C(lambda: import_suai(data=(-1, False)), ValueError, "pointer", id="suai-data-negative"),
    C(lambda: import_suai(data=(16, False)), ValueError, "not inside", id="suai-data-unknown"),
    C(
        lambda: import_suai(data=(shared_mem()._pointer, "no")),
        TypeError,
        "bool",
        id="suai-data-flag-str",
    ),
    C(lambda: import_suai(strides=(1, 1)), ValueError, "strides", id="suai-strides-length"),
    C(
        lambda: import_suai(strides=(BIG,)),
        (OverflowError, ValueError),
        "['strides'][0] is too large",
        id="suai-strides-huge",
    ),
    C(
        lambda: import_suai(strides=(2**62,), shape=(3,)),
        ValueError,
        "__sycl_usm_array_interface__: strides and shape",
        id="suai-strides-overflow",
    ),
    C(lambda: import_suai(offset=-1), ValueError, "outside", id="suai-offset-negative"),
    C(lambda: import_suai(offset=64), ValueError, "outside", id="suai-offset-past-end"),
    C(lambda: import_suai(offset="0"), TypeError, "offset", id="suai-offset-str"),
    C(lambda: import_suai(version=2), ValueError, "version", id="suai-version-2"),
    C(lambda: import_suai(version="1"), TypeError, "version", id="suai-version-str"),
    C(lambda: import_suai(syclobj=5), TypeError, "syclobj", id="suai-syclobj-int"),
    C(lambda: import_suai(syclobj="nosuch"), ValueError, "nosuch", id="suai-syclobj-bad"),
    C(lambda: import_suai_dict(5), TypeError, "dict", id="suai-not-dict"),
    C(lambda: import_suai_dict({}), ValueError, "version", id="suai-empty-dict"),
    # ---- CAI import ----
    C(lambda: import_cai(version=KEEP_OUT), ValueError, "version", id="cai-no-version"),
    C(lambda: import_cai(version=9), ValueError, "version", id="cai-version-9"),
    C(lambda: import_cai(shape=(1.0,)), TypeError, "shape", id="cai-shape-float"),
    C(lambda: import_cai(typestr="<f16"), ValueError, "typestr", id="cai-typestr-bad"),
    C(lambda: import_cai(data=(1.0, False)), TypeError, "pointer", id="cai-data-float"),
    C(lambda: import_cai(data=(0, False)), ValueError, "NULL", id="cai-data-null"),
    C(lambda: import_cai(strides=(3,)), ValueError, "multiple", id="cai-strides-not-multiple"),
    C(lambda: import_cai(stream=0), ValueError, "stream", id="cai-stream-zero"),
    C(lambda: import_cai(stream="s"), TypeError, "stream", id="cai-stream-str"),
    C(lambda: import_cai(mask=np.ones(4, bool)), ValueError, "mask", id="cai-mask"),
    C(lambda: import_cai(), ValueError, "CUDA", id="cai-host-memory"),
    C(lambda: import_cai(data=(16, False)), ValueError, "not inside", id="cai-unknown-pointer"),
    # ---- DLPack import ----
    C(lambda: ua.from_dlpack(5), TypeError, "int", id="dlpack-int"),
    C(lambda: ua.from_dlpack(object()), TypeError, "__dlpack__", id="dlpack-object"),
    C(lambda: ua.from_dlpack(), TypeError, "missing required argument", id="dlpack-no-args"),
    C(lambda: ua.from_dlpack(capsule(), device=5), TypeError, "device", id="dlpack-device-int"),
    C(
        lambda: ua.from_dlpack(capsule(), device="nosuch"),
        ValueError,
        "nosuch",
        id="dlpack-device-bad",
    ),
    C(lambda: ua.from_dlpack(capsule(), copy="x"), TypeError, "copy", id="dlpack-copy-str"),
    C(
        lambda: ua.from_dlpack(plain_capsule(b"other")),
        (TypeError, ValueError, BufferError),
        "other",
        id="dlpack-wrong-capsule-name",
    ),
    C(
        lambda: ua.from_dlpack(plain_capsule(b"used_dltensor")),
        (TypeError, ValueError, BufferError),
        "consumed",
        id="dlpack-used-name",
    ),
    C(used_capsule, (TypeError, ValueError, BufferError), "consumed", id="dlpack-capsule-twice"),
    C(
        lambda: ua.from_dlpack(capsule(version=(2, 0))),
        BufferError,
        "version",
        id="dlpack-newer-major",
    ),
    C(lambda: ua.from_dlpack(capsule(device=(2, 0))), BufferError, "cuda", id="dlpack-cuda-device"),
    C(
        lambda: ua.from_dlpack(capsule(device=(99, 0))),
        BufferError,
        "99",
        id="dlpack-unknown-device",
    ),
    C(
        lambda: ua.from_dlpack(capsule(dtype=(4, 16, 1))),
        BufferError,
        "DLPack dtype bfloat16 is not supported by usmarr",
        id="dlpack-bfloat16",
    ),
    C(lambda: ua.from_dlpack(capsule(dtype=(2, 64, 2))), BufferError, "lanes", id="dlpack-lanes"),
    C(
        lambda: ua.from_dlpack(capsule(dtype=(2, 24, 1))),
        BufferError,
        "DLPack dtype (code 2, 24 bits) is not supported",
        id="dlpack-float24",
    ),
    C(
        lambda: ua.from_dlpack(capsule(dtype=(9, 8, 1))),
        BufferError,
        "DLPack dtype (code 9, 8 bits) is not supported b",
        id="dlpack-unknown-code",
    ),
    C(lambda: ua.from_dlpack(capsule(ndim=-1)), BufferError, "ndim", id="dlpack-negative-ndim"),
    C(lambda: ua.from_dlpack(capsule(ndim=100)), BufferError, "ndim", id="dlpack-ndim-100"),
    C(
        lambda: ua.from_dlpack(capsule(shape=(-4,))),
        BufferError,
        "shape",
        id="dlpack-negative-shape",
    ),
    C(
        lambda: ua.from_dlpack(capsule(strides=(2**62,), shape=(4,))),
        BufferError,
        "DLPack tensor: strides and shape reach beyond ad",
        id="dlpack-stride-overflow",
    ),
    C(lambda: ua.from_dlpack(capsule(data=0)), BufferError, "NULL", id="dlpack-null-data"),
    C(
        lambda: ua.from_dlpack(capsule(byte_offset=-8)),
        BufferError,
        "DLPack tensor byte_offset 18446744073709551608 o",
        id="dlpack-negative-offset",
    ),
    C(lambda: ua.from_dlpack(producer(5)), TypeError, "capsule", id="dlpack-producer-returns-int"),
    C(
        lambda: ua.from_dlpack(producer(None)),
        TypeError,
        "capsule",
        id="dlpack-producer-returns-none",
    ),
    C(
        lambda: ua.from_dlpack(producer(lambda **kw: 1 / 0)),
        ZeroDivisionError,
        "division by zero",
        id="dlpack-producer-raises",
    ),
    C(
        lambda: ua.asarray(producer(capsule(), device=5)),
        TypeError,
        "__dlpack_device__",
        id="dlpack-device-not-tuple",
    ),
    C(
        lambda: ua.asarray(producer(capsule(), device=(1,))),
        TypeError,
        "__dlpack_device__",
        id="dlpack-device-1-tuple",
    ),
    C(
        lambda: ua.asarray(producer(capsule(), device=("a", 0))),
        TypeError,
        "__dlpack_device__",
        id="dlpack-device-str",
    ),
    C(
        lambda: ua.from_dlpack(producer(capsule(), device=5)),
        TypeError,
        "__dlpack_device__",
        id="from-dlpack-device-not-tuple",
    ),
    C(
        lambda: ua.from_dlpack(producer(capsule(), device=(1, BIG))),
        ValueError,
        "names no device",
        id="from-dlpack-device-huge-id",
    ),
    C(
        lambda: ua.asarray(producer(capsule(), device=(-1, 0))),
        ValueError,
        "names no device",
        id="dlpack-device-negative",
    ),
    C(
        lambda: ua.asarray(producer(capsule(), device=(1, BIG))),
        ValueError,
        "names no device",
        id="dlpack-device-huge-id",
    ),
    # ---- 1. sequences emptied by their items' __index__ ----
    C(
        lambda: ua.empty(refusing([2, 3])),
        TypeError,
        "shape[0] must be an integer",
        id="hook-empty-shape",
    ),
    C(
        lambda: ua.zeros(refusing([2, 3])),
        TypeError,
        "shape[0] must be an integer",
        id="hook-zeros-shape",
    ),
    C(
        lambda: ua.ones(refusing([2, 3])),
        TypeError,
        "shape[0] must be an integer",
        id="hook-ones-shape",
    ),
    C(
        lambda: ua.full(refusing([2, 3]), 1.0),
        TypeError,
        "shape[0] must be an integer",
        id="hook-full-shape",
    ),
    C(
        lambda: ua.USMArray(refusing([2, 3])),
        TypeError,
        "shape[0] must be an integer",
        id="hook-ctor-shape",
    ),
    C(
        lambda: ua.USMArray((2, 3), buffer="host", strides=refusing([3, 1])),
        TypeError,
        "strides[0] must be an integer",
        id="hook-ctor-strides",
    ),
    C(
        lambda: host((6,)).reshape(refusing([2, 3])),
        TypeError,
        "shape[0] must be an integer",
        id="hook-reshape-method",
    ),
    C(
        lambda: ua.reshape(host((6,)), refusing([2, 3])),
        TypeError,
        "shape[0] must be an integer",
        id="hook-reshape-function",
    ),
    C(
        lambda: host((2, 3)).transpose(refusing([1, 0])),
        TypeError,
        "axes[0] must be an integer",
        id="hook-transpose-axes",
    ),
    C(
        lambda: ua.permute_dims(host((2, 3)), refusing([1, 0])),
        TypeError,
        "axes[0] must be an integer",
        id="hook-permute-axes",
    ),
    C(
        lambda: import_suai(shape=refusing([8])),
        TypeError,
        "['shape'][0] must be an integer",
        id="hook-suai-shape",
    ),
    C(
        lambda: import_suai(shape=[2, 4], typestr="<f8", strides=refusing([4, 1])),
        TypeError,
        "['strides'][0] must be an integer",
        id="hook-suai-strides",
    ),
    C(
        lambda: import_cai(shape=refusing([4])),
        TypeError,
        "['shape'][0] must be an integer",
        id="hook-cai-shape",
    ),
    C(
        lambda: import_cai(strides=refusing([8])),
        TypeError,
        "['strides'][0] must be an integer",
        id="hook-cai-strides",
    ),
    # ---- 2. interface values whose hooks drop them from the dictionary ----
    C(
        lambda: suai_cleared_by("shape", lambda d: [Clearing(4, d), 2]),
        ValueError,
        "no required key 'typestr'",
        id="hook-suai-shape-drops-dict",
    ),
    C(
        lambda: suai_cleared_by("offset", lambda d: Clearing(0, d, error=TypeError())),
        TypeError,
        "['offset'] must be an integer, not Clearing",
        id="hook-suai-offset-drops-dict",
    ),
    C(
        lambda: suai_cleared_by("version", lambda d: Clearing(1, d, error=TypeError())),
        TypeError,
        "['version'] must be an integer, not Clearing",
        id="hook-suai-version-drops-dict",
    ),
    # ---- 3. capsules without a name ----
    C(
        lambda: ua.empty(1, queue=null_name_capsule()),
        TypeError,
        "capsule without a name",
        id="null-capsule-queue",
    ),
    C(
        lambda: ua.empty(1, device=null_name_capsule()),
        TypeError,
        "capsule without a name",
        id="null-capsule-device",
    ),
    C(
        lambda: ua.MemoryUSMShared(8, queue=null_name_capsule()),
        TypeError,
        "capsule without a name",
        id="null-capsule-memory-queue",
    ),
    C(
        lambda: ua.get_pointer_type(0, null_name_capsule()),
        TypeError,
        "capsule without a name",
        id="null-capsule-get-pointer-type",
    ),
    C(
        lambda: import_suai(syclobj=null_name_capsule()),
        TypeError,
        "capsule without a name",
        id="null-capsule-syclobj",
    ),
    C(
        lambda: ua.Queue(null_name_capsule()),
        TypeError,
        "capsule without a name",
        id="null-capsule-queue-ctor",
    ),
    C(
        lambda: ua.Context(null_name_capsule()),
        TypeError,
        "PyCapsule",
        id="null-capsule-context-ctor",
    ),
    C(
        lambda: ua.from_dlpack(null_name_capsule()),
        TypeError,
        "capsule without a name",
        id="null-capsule-from-dlpack",
    ),
    # ---- 4. element and byte counts beyond intp, zero strides or zero extents ----
    C(
        lambda: ua.USMArray((2**62, 4), buffer=shared_mem(), strides=(0, 0)),
        ValueError,
        "too many elements",
        id="overflow-ctor-zero-strides",
    ),
    C(
        lambda: ua.USMArray((2**32, 2**32), "u1", buffer=shared_mem(), strides=(0, 0)),
        ValueError,
        "too many elements",
        id="overflow-ctor-wraps-to-zero",
    ),
    C(
        lambda: ua.USMArray((2**61,), "f8", buffer=shared_mem(), strides=(0,)),
        ValueError,
        "more bytes than can be addressed",
        id="overflow-ctor-bytes",
    ),
    C(
        lambda: ua.empty((0, 2**62, 4)),
        ValueError,
        "too many elements",
        id="overflow-empty-zero-extent",
    ),
    C(
        lambda: ua.zeros((2**62, 4, 0)),
        ValueError,
        "too many elements",
        id="overflow-zeros-zero-extent",
    ),
    C(
        lambda: ua.full((0, 2**61, 2), 1.0),
        ValueError,
        "more bytes",
        id="overflow-full-zero-extent",
    ),
    C(
        lambda: ua.empty(0).reshape(0, 2**62, 4),
        ValueError,
        "too many elements",
        id="overflow-reshape-zero-extent",
    ),
    C(
        lambda: import_suai(shape=(2**62, 4), strides=(0, 0), typestr="|u1"),
        ValueError,
        "too many elements",
        id="overflow-suai-zero-strides",
    ),
    C(
        lambda: import_cai(shape=(2**62, 4), strides=(0, 0)),
        ValueError,
        "too many elements",
        id="overflow-cai-zero-strides",
    ),
    C(
        lambda: ua.from_dlpack(capsule(ndim=2, shape=(2**62, 4), strides=(0, 0))),
        BufferError,
        "too many elements",
        id="overflow-dlpack-zero-strides",
    ),
    # ---- 6. memory the library knows is not borrowed as another kind ----
    # (On the host backend, the only one that borrows host data.)
    C(
        lambda: ua.asarray(
            np.asarray(ua.zeros(4, usm_type="shared", queue="host")),
            usm_type="host",
            copy=False,
            queue="host",
        ),
        ValueError,
        "the data is USM shared memory",
        id="borrow-shared-as-host-no-copy",
    ),
    C(
        lambda: ua.asarray(
            np.from_dlpack(ua.zeros(4, usm_type="device", queue="host")),
            usm_type="host",
            copy=False,
            queue="host",
        ),
        ValueError,
        "the data is USM device memory",
        id="borrow-device-as-host-no-copy",
    ),
    # ---- 7. dtype-likes are resolved as they are now, not as first seen ----
    C(
        lambda: dtype_changed_to(np.dtype("U3")),
        TypeError,
        "is not supported",
        id="dtype-attr-changed-unsupported",
    ),
    C(
        lambda: dtype_changed_to(np.dtype(">f8")),
        ValueError,
        "native byte order",
        id="dtype-attr-changed-byte-order",
    ),
    # ---- 9. flags that must not be dropped ----
    C(write_through_readonly_lender, ValueError, "read-only", id="ctor-buffer-readonly-array"),
    # ---- DLPack export ----
    C(
        lambda: host().__dlpack__(stream=1),
        ValueError,
        "stream must be None",
        id="export-stream-on-cpu",
    ),
    C(
        lambda: host().__dlpack__(stream="s"),
        (TypeError, ValueError),
        "stream",
        id="export-stream-str",
    ),
    C(
        lambda: host().__dlpack__(max_version=5),
        TypeError,
        "max_version",
        id="export-max-version-int",
    ),
    C(
        lambda: host().__dlpack__(max_version=(1,)),
        (TypeError, ValueError),
        "max_version",
        id="export-max-version-short",
    ),
    C(
        lambda: host().__dlpack__(max_version=("a", 0)),
        TypeError,
        "max_version must be None or a tuple (major, mino",
        id="export-max-version-str",
    ),
    C(
        lambda: host().__dlpack__(dl_device=(2, 0)),
        BufferError,
        "cannot export to dl_device (2, 0)",
        id="export-dl-device-cuda",
    ),
    C(lambda: host().__dlpack__(dl_device=5), TypeError, "dl_device", id="export-dl-device-int"),
    C(lambda: host().__dlpack__(copy="x"), TypeError, "copy", id="export-copy-str"),
    C(
        lambda: host().__dlpack__(1),
        TypeError,
        "__dlpack__() takes at most 0 positional argument",
        id="export-positional",
    ),
    C(lambda: host().__dlpack__(bogus=1), TypeError, "bogus", id="export-bad-keyword"),
    # Keyword names are compared byte by byte: near misses, non-ASCII, empty.
    C(
        lambda: host().__dlpack__(**{"max_versio": None}),
        TypeError,
        "max_versio",
        id="export-keyword-prefix",
    ),
    C(
        lambda: host().__dlpack__(**{"max_versión": None}),
        TypeError,
        "max_versi",
        id="export-keyword-non-ascii",
    ),
    C(
        lambda: host().__dlpack__(**{"": None}),
        TypeError,
        "unexpected keyword",
        id="export-keyword-empty",
    ),
    C(
        lambda: ua.from_dlpack(x=host(), **{"copy\0": None}),
        TypeError,
        "unexpected keyword",
        id="dlpack-keyword-nul",
    ),
    C(lambda: readonly().__dlpack__(), BufferError, "read-only", id="export-legacy-readonly"),
    C(
        lambda: host().__dlpack_device__(1),
        TypeError,
        "USMArray.__dlpack_device__() takes no arguments",
        id="export-device-arg",
    ),
    # ---- manipulation functions ----
    C(
        lambda: ua.broadcast_to(host((3,)), (4,)),
        ValueError,
        "shape (3,) cannot be broadcast to shape (4,)",
        id="broadcast-to-incompatible",
    ),
    C(
        lambda: ua.broadcast_to(host((1,)), (2, -1)),
        ValueError,
        "shape[1] is negative",
        id="broadcast-to-negative",
    ),
    C(
        lambda: ua.broadcast_to(host((1,)), (2**40, 2**40)),
        ValueError,
        "too many elements",
        id="broadcast-to-too-many-elements",
    ),
    C(
        lambda: ua.broadcast_to(host((1,)), (BIG,)),
        ValueError,
        "too large",
        id="broadcast-to-huge-extent",
    ),
    C(
        lambda: ua.broadcast_to([1, 2], (2,)),
        TypeError,
        "broadcast_to expects a USMArray, not list",
        id="broadcast-to-not-array",
    ),
    C(
        lambda: ua.broadcast_to(host(), "ab"),
        TypeError,
        "shape must be an integer or a sequence of integers",
        id="broadcast-to-shape-str",
    ),
    C(
        lambda: ua.broadcast_to(x=host(), shape=(4,)),
        TypeError,
        "positional-only arguments passed as keyword arguments: 'x'",
        id="broadcast-to-x-by-keyword",
    ),
    C(
        lambda: ua.broadcast_arrays(host((2, 3)), host((4,))),
        ValueError,
        "shapes (2, 3) (arrays[0]) and (4,) (arrays[1]) cannot be broadcast together",
        id="broadcast-arrays-incompatible",
    ),
    C(
        lambda: ua.broadcast_arrays(host(), np.ones(4)),
        TypeError,
        "broadcast_arrays expects a USMArray, not numpy.ndarray",
        id="broadcast-arrays-not-array",
    ),
    C(
        lambda: ua.broadcast_arrays(x=host()),
        TypeError,
        "keyword arguments",
        id="broadcast-arrays-keyword",
    ),
    C(lambda: ua.concat([]), ValueError, "concat needs at least one array", id="concat-empty"),
    C(
        lambda: ua.concat(host()),
        TypeError,
        "tuple or list of USMArrays, not usmarray.USMArray",
        id="concat-array",
    ),
    C(lambda: ua.concat(5), TypeError, "tuple or list of USMArrays, not int", id="concat-int"),
    C(lambda: ua.concat("ab"), TypeError, "not str", id="concat-str"),
    C(
        lambda: ua.concat([host(), [1.0]]),
        TypeError,
        "arrays[1] is a list, not a USMArray",
        id="concat-item-list",
    ),
    C(
        lambda: ua.concat([host((2, 3)), host((2, 4))]),
        ValueError,
        "arrays[0] has shape (2, 3) but arrays[1] has shape (2, 4)",
        id="concat-shapes-differ",
    ),
    C(
        lambda: ua.concat([host((2, 3)), host((6,))]),
        ValueError,
        "arrays[0] has 2 dimensions but arrays[1] has 1",
        id="concat-ndim-differ",
    ),
    C(
        lambda: ua.concat([host(()), host(())]),
        ValueError,
        "0-dimensional arrays cannot",
        id="concat-0d",
    ),
    C(
        lambda: ua.concat([host((2, 3))], axis=2),
        np.exceptions.AxisError,
        "concat: axis 2 is out of bounds for an array of 2 dimensions",
        id="concat-axis-out-of-range",
    ),
    C(
        lambda: ua.concat([host()], axis=1.0),
        TypeError,
        "axis must be an integer",
        id="concat-axis-float",
    ),
    C(
        lambda: ua.concat([host()], axis=BIG),
        ValueError,
        "axis is too large",
        id="concat-axis-huge",
    ),
    C(
        lambda: ua.concat([host(), ua.zeros(4, queue=ua.Queue("host", in_order=False))]),
        ValueError,
        "arrays[0] is on <usmarray.Queue on host:cpu:0> but arrays[1] is on",
        id="concat-queues-differ",
    ),
    C(
        lambda: ua.concat(arrays=[host()]),
        TypeError,
        "positional-only arguments passed as keyword arguments: 'arrays'",
        id="concat-arrays-by-keyword",
    ),
    C(
        lambda: ua.stack([host((2, 3)), host((3, 2))]),
        ValueError,
        "stack needs arrays of one shape",
        id="stack-shapes-differ",
    ),
    C(lambda: ua.stack([host((1,) * 64)]), ValueError, "65 dimensions", id="stack-too-many-dims"),
    C(
        lambda: ua.stack([host()], axis=None),
        TypeError,
        "axis must be an integer",
        id="stack-axis-none",
    ),
    C(
        lambda: ua.stack([host()], axis=-3),
        np.exceptions.AxisError,
        "axis -3",
        id="stack-axis-out-of-range",
    ),
    C(lambda: ua.stack(()), ValueError, "stack needs at least one array", id="stack-empty"),
    C(
        lambda: ua.expand_dims(host(), axis=2),
        np.exceptions.AxisError,
        "axis 2",
        id="expand-dims-out-of-range",
    ),
    C(
        lambda: ua.expand_dims(host(), axis=(0, 0)),
        ValueError,
        "axis 0 is repeated",
        id="expand-dims-repeated",
    ),
    C(
        lambda: ua.expand_dims(host((1,) * 64)),
        ValueError,
        "65 dimensions",
        id="expand-dims-too-many",
    ),
    C(
        lambda: ua.expand_dims(host(), axis="0"),
        TypeError,
        "axis must be an integer",
        id="expand-dims-axis-str",
    ),
    C(
        lambda: ua.flip(host(), axis=1),
        np.exceptions.AxisError,
        "flip: axis 1",
        id="flip-out-of-range",
    ),
    C(
        lambda: ua.flip(host((2, 2)), axis=(0, -2)),
        ValueError,
        "axis 0 is repeated",
        id="flip-repeated",
    ),
    C(lambda: ua.flip(host(), axis=[0] * 65), ValueError, "at most 64", id="flip-axes-too-many"),
    C(
        lambda: ua.flip(host(), 0),
        TypeError,
        "at most 1 positional argument",
        id="flip-axis-by-position",
    ),
    C(
        lambda: ua.moveaxis(host((2, 3)), (0, 1), 0),
        ValueError,
        "source has 2 axes but destination has 1",
        id="moveaxis-count-mismatch",
    ),
    C(
        lambda: ua.moveaxis(host((2, 3)), 0),
        TypeError,
        "3 positional arguments",
        id="moveaxis-two-args",
    ),
    C(
        lambda: ua.moveaxis(host((2, 3)), 0, 2),
        np.exceptions.AxisError,
        "axis 2",
        id="moveaxis-out-of-range",
    ),
    C(
        lambda: ua.squeeze(host((1, 2)), 1),
        ValueError,
        "axis 1 has length 2; only axes of length 1",
        id="squeeze-not-length-one",
    ),
    C(
        lambda: ua.squeeze(host((1, 2))),
        TypeError,
        "missing required argument 'axis'",
        id="squeeze-no-axis",
    ),
    C(
        lambda: ua.squeeze(host((1, 2)), None),
        TypeError,
        "axis must be an integer",
        id="squeeze-axis-none",
    ),
    C(lambda: ua.unstack(host(())), ValueError, "at least 1 dimension", id="unstack-0d"),
    C(
        lambda: ua.unstack(host(), axis=-2),
        np.exceptions.AxisError,
        "axis -2",
        id="unstack-out-of-range",
    ),
    C(
        lambda: ua.roll(host((2, 2)), (1, 2, 3), axis=(0, 1)),
        ValueError,
        "shift has 3 entries but axis has 2",
        id="roll-shift-axis-mismatch",
    ),
    C(lambda: ua.roll(host(), 1.5), TypeError, "shift must be an integer", id="roll-shift-float"),
    C(lambda: ua.roll(host(), BIG), ValueError, "shift is too large", id="roll-shift-huge"),
    C(
        lambda: ua.roll(host(), 1, axis=1),
        np.exceptions.AxisError,
        "roll: axis 1",
        id="roll-out-of-range",
    ),
    C(lambda: ua.tile(host(), (-1,)), ValueError, "repetitions[0] is negative", id="tile-negative"),
    C(lambda: ua.tile(host(), (2**62, 2**62)), ValueError, "more elements", id="tile-overflow"),
    C(lambda: ua.tile(host(), "ab"), TypeError, "repetitions must be an integer", id="tile-str"),
    C(lambda: ua.tile(host(), (1,) * 65), ValueError, "at most 64", id="tile-too-many"),
    C(lambda: ua.tile(host()), TypeError, "2 positional arguments but 1", id="tile-one-arg"),
    C(lambda: ua.repeat(host(), -1), ValueError, "repeats is -1", id="repeat-negative"),
    C(
        lambda: ua.repeat(host(), [1, 2]),
        ValueError,
        "repeats has 2 entries",
        id="repeat-wrong-length",
    ),
    C(
        lambda: ua.repeat(host(), [-1] * 4),
        ValueError,
        "repeats[0] is -1",
        id="repeat-negative-count",
    ),
    C(lambda: ua.repeat(host(), [1.5] * 4), TypeError, "not float64", id="repeat-float-counts"),
    C(
        lambda: ua.repeat(host(), True),
        TypeError,
        "repeats must be an integer, not bool",
        id="repeat-bool",
    ),
    C(lambda: ua.repeat(host(), [[1] * 4]), ValueError, "0- or 1-dimensional", id="repeat-2d"),
    C(lambda: ua.repeat(host(), 2**62), ValueError, "more elements", id="repeat-overflow"),
    C(
        lambda: ua.repeat(host(), [2**62] * 4),
        ValueError,
        "more elements",
        id="repeat-counts-overflow",
    ),
    C(lambda: ua.repeat(host(), [BIG] * 4), TypeError, "format 'O'", id="repeat-counts-huge"),
    C(
        lambda: ua.repeat(host(), np.full(4, 2**63, "u8")),
        ValueError,
        "repeats[0] is 9223372036854775808, too large",
        id="repeat-counts-uint64",
    ),
    C(lambda: ua.repeat(host(), None), TypeError, "not NoneType", id="repeat-none"),
    C(lambda: ua.repeat(host(), BadLen()), RuntimeError, "item failed", id="repeat-bad-sequence"),
    C(
        lambda: ua.repeat(host(), 1, axis=1),
        np.exceptions.AxisError,
        "repeat: axis 1",
        id="repeat-out-of-range",
    ),
    C(
        lambda: ua.repeat(host(), repeats=2),
        TypeError,
        "positional-only arguments passed as keyword arguments: 'repeats'",
        id="repeat-repeats-by-keyword",
    ),
    C(
        lambda: ua.reshape(x=host(), shape=(4,)),
        TypeError,
        "positional-only arguments passed as keyword arguments: 'x'",
        id="reshape-x-by-keyword",
    ),
    C(
        lambda: ua.flip(host((2, 3)), axis=refusing([0])),
        TypeError,
        "axis[0] must be an integer",
        id="hook-flip-axis",
    ),
    C(
        lambda: ua.broadcast_to(host((1,)), refusing([2, 3])),
        TypeError,
        "shape[0] must be an integer",
        id="hook-broadcast-to-shape",
    ),
    C(
        lambda: ua.tile(host(), refusing([2])),
        TypeError,
        "repetitions[0] must be",
        id="hook-tile-repetitions",
    ),
    C(
        lambda: ua.roll(host(), refusing([1])),
        TypeError,
        "shift[0] must be an integer",
        id="hook-roll-shift",
    ),
    C(
        lambda: ua.moveaxis(host((2, 3)), refusing([0]), [1]),
        TypeError,
        "axis[0] must be an integer",
        id="hook-moveaxis-source",
    ),
    C(
        lambda: ua.concat(emptied_list([host(), host()])),
        TypeError,
        "arrays[0] is a Clearing, not a USMArray",
        id="hook-concat-arrays",
    ),
    # ---- Python scalars that do not fit the dtype ----
    C(
        lambda: ua.full(2, 300, dtype="u1"),
        OverflowError,
        "Python integer 300 out of bounds for uint8",
        id="scalar-full-too-large",
    ),
    C(
        lambda: dev(dtype="u1").__setitem__(0, -1),
        OverflowError,
        "Python integer -1 out of bounds for uint8",
        id="scalar-setitem-negative-unsigned",
    ),
    C(
        lambda: dev(dtype="i4").fill(2**40),
        OverflowError,
        "out of bounds for int32",
        id="scalar-fill-too-large",
    ),
    C(
        lambda: dev(dtype="u8").fill(-(2**70)),
        OverflowError,
        "out of bounds for uint64",
        id="scalar-fill-huge-negative",
    ),
    C(
        lambda: dev(dtype="f4").__setitem__(0, 1 + 2j),
        TypeError,
        "imaginary part",
        id="scalar-complex-into-float",
    ),
    C(
        lambda: dev(dtype="i8").__setitem__(0, 1j),
        TypeError,
        "imaginary part",
        id="scalar-complex-into-int",
    ),
    C(
        lambda: dev(dtype="i2").fill(float("nan")),
        ValueError,
        "cannot convert float NaN to integer",
        id="scalar-nan-into-int",
    ),
    C(
        lambda: dev(dtype="i2").fill(float("inf")),
        OverflowError,
        "cannot convert float infinity to integer",
        id="scalar-inf-into-int",
    ),
    C(
        lambda: dev(dtype="i4").fill(1e20),
        OverflowError,
        "Python float 1e+20 out of bounds for int32",
        id="scalar-float-too-large-for-int",
    ),
    C(
        lambda: dev(dtype="f8").fill(10**400),
        OverflowError,
        "int too large to convert to float",
        id="scalar-int-too-large-for-float",
    ),
    C(
        lambda: dev(dtype="u1").__setitem__(slice(None), [1, 2, 300, 4]),
        OverflowError,
        "300 out of bounds",
        id="scalar-in-list-too-large",
    ),
    C(
        lambda: dev().fill(1j),
        TypeError,
        "imaginary part",
        id="scalar-fill-complex",
    ),
    C(
        lambda: ua.arange(250, 260, dtype="u1"),
        OverflowError,
        "Python integer 259 out of bounds for uint8",
        id="scalar-arange-last-too-large",
    ),
    C(
        lambda: ua.arange(-1, 3, dtype="u1"),
        OverflowError,
        "Python integer -1 out of bounds for uint8",
        id="scalar-arange-start-negative",
    ),
    C(
        lambda: ua.asarray([300], dtype="u1"),
        OverflowError,
        "Python integer 300 out of bounds for uint8",
        id="scalar-asarray-list-too-large",
    ),
    # ---- data type functions ----
    C(
        lambda: ua.result_type(),
        ValueError,
        "at least one array or dtype",
        id="result-type-nothing",
    ),
    C(lambda: ua.result_type(1, 2.5), ValueError, "Python scalars alone", id="result-type-scalars"),
    C(lambda: ua.result_type("U3"), TypeError, "not supported", id="result-type-unicode"),
    C(lambda: ua.result_type(None), TypeError, "None is not a dtype", id="result-type-none"),
    C(lambda: ua.can_cast(ua.int8), TypeError, "2 positional", id="can-cast-one-arg"),
    C(lambda: ua.can_cast(ua.int8, "O"), TypeError, "not supported", id="can-cast-object"),
    C(
        lambda: ua.isdtype(ua.int8, "ints"),
        ValueError,
        "unknown kind 'ints'",
        id="isdtype-bad-kind",
    ),
    C(lambda: ua.isdtype(ua.int8, 3), TypeError, "kind must be", id="isdtype-kind-int"),
    C(lambda: ua.isdtype("i1", "integral"), TypeError, "dtype must be", id="isdtype-str-dtype"),
    C(
        lambda: ua.result_type(RaisingDtype()),
        RuntimeError,
        "dtype getter",
        id="result-type-dtype-raises",
    ),
    C(
        lambda: ua.iinfo(DtypeIs(5)),
        TypeError,
        "5 is not a data type",
        id="iinfo-dtype-attribute-int",
    ),
    C(lambda: ua.finfo(DtypeIs("U3")), TypeError, "not supported", id="finfo-dtype-attribute-str"),
    C(lambda: ua.iinfo(ua.float64), ValueError, "not an integer dtype", id="iinfo-float"),
    C(lambda: ua.finfo(ua.uint8), ValueError, "not a floating dtype", id="finfo-int"),
    C(lambda: ua.finfo(">f8"), ValueError, "byte order", id="finfo-big-endian"),
    # ---- astype ----
    C(
        lambda: ua.astype(host(), "i1", casting="safe"),
        TypeError,
        "cannot cast from float64 to int8 according to the rule 'safe'",
        id="astype-casting-safe",
    ),
    C(
        lambda: host().astype("f4", casting="nope"),
        ValueError,
        "casting must be 'no', 'equiv', 'safe', 'same_kind' or 'unsafe', not 'nope'",
        id="method-astype-casting-unknown",
    ),
    C(
        lambda: host().astype("f4", device=3.5),
        TypeError,
        "device must be",
        id="method-astype-device",
    ),
    C(lambda: ua.astype(host(), "U3"), TypeError, "not supported", id="astype-unicode"),
    C(lambda: ua.astype(host(), ">f4"), ValueError, "byte order", id="astype-big-endian"),
    C(lambda: ua.astype(host(), 5), TypeError, "5 is not a data type", id="astype-dtype-int"),
    C(
        lambda: ua.astype(np.ones(3), "f4"),
        TypeError,
        "x must be a usmarray.USMArray",
        id="astype-numpy",
    ),
    C(
        lambda: ua.astype(host()),
        TypeError,
        "missing required argument 'dtype'",
        id="astype-no-dtype",
    ),
    C(
        lambda: ua.astype(host(), dtype="f4"),
        TypeError,
        "by position only",
        id="astype-dtype-keyword",
    ),
    C(
        lambda: ua.astype(host(), "f4", copy=None),
        TypeError,
        "copy must be a bool",
        id="astype-copy-none",
    ),
    C(
        lambda: ua.astype(host(), "f4", copy=1),
        TypeError,
        "copy must be a bool",
        id="astype-copy-int",
    ),
    C(
        lambda: ua.astype(host(), "f4", device=3),
        TypeError,
        "device must be",
        id="astype-device-int",
    ),
    C(
        lambda: ua.astype(host(), "f4", device="nowhere:gpu"),
        ValueError,
        "nowhere",
        id="astype-device-unknown",
    ),
    C(
        lambda: ua.astype(host(), "f4", order="Q"),
        ValueError,
        "order must be one of",
        id="astype-order",
    ),
    C(
        lambda: ua.astype(host(), "f4", device=plain_capsule(b"other")),
        TypeError,
        "only",
        id="astype-device-capsule",
    ),
    # ---- __array_namespace_info__ ----
    C(lambda: ua.__array_namespace_info__(1), TypeError, "takes no arguments", id="info-argument"),
    C(
        lambda: ua.__array_namespace_info__(device="host"),
        TypeError,
        "takes no arguments",
        id="info-keyword",
    ),
    C(
        lambda: ua.__array_namespace_info__().dtypes(kind="ints"),
        ValueError,
        "dtypes: unknown kind 'ints'",
        id="info-dtypes-bad-kind",
    ),
    C(
        lambda: ua.__array_namespace_info__().dtypes(kind=3),
        TypeError,
        "dtypes: kind must be",
        id="info-dtypes-kind-int",
    ),
    C(
        lambda: ua.__array_namespace_info__().dtypes(kind=("bool", None)),
        TypeError,
        "kind must be",
        id="info-dtypes-kind-tuple-none",
    ),
    C(
        lambda: ua.__array_namespace_info__().dtypes("host"),
        TypeError,
        "positional",
        id="info-dtypes-positional",
    ),
    C(
        lambda: ua.__array_namespace_info__().dtypes(device=2.5),
        TypeError,
        "device must be",
        id="info-dtypes-device-float",
    ),
    C(
        lambda: ua.__array_namespace_info__().dtypes(device="nowhere"),
        ValueError,
        "nowhere",
        id="info-dtypes-device-unknown",
    ),
    C(
        lambda: ua.__array_namespace_info__().default_dtypes(device="cpu:9"),
        ValueError,
        "cpu:9",
        id="info-default-dtypes-device-unknown",
    ),
    C(
        lambda: ua.__array_namespace_info__().default_dtypes(kind="bool"),
        TypeError,
        "invalid keyword argument",
        id="info-default-dtypes-kind",
    ),
    C(
        lambda: ua.__array_namespace_info__().devices(1),
        TypeError,
        "takes no arguments",
        id="info-devices-argument",
    ),
    C(
        lambda: ua.empty(1).__array_namespace__(api_version="2020.10"),
        ValueError,
        "not '2020.10'",
        id="array-namespace-version",
    ),
    # ---- reductions, scans, searches, sorts, sets and products ----
    C(
        lambda: ua.sum(_vec(), axis=2),
        np.exceptions.AxisError,
        "axis 2 is out of bounds",
        id="sum-axis-out-of-range",
    ),
    C(
        lambda: ua.sum(_mat(), axis=(0, 0)),
        ValueError,
        "axis 0 is repeated",
        id="sum-axis-repeated",
    ),
    C(lambda: ua.sum(_mat(), axis=1.0), TypeError, "not float", id="sum-axis-float"),
    C(lambda: ua.sum(_vec(), dtype=ua.bool), TypeError, "in dtype bool", id="sum-dtype-bool"),
    C(
        lambda: ua.sum(_cplx(), dtype=ua.float64),
        TypeError,
        "complex128 values in dtype float64",
        id="sum-complex-into-real",
    ),
    C(
        lambda: ua.sum(_vec(), keepdims=1),
        TypeError,
        "keepdims must be a bool",
        id="sum-keepdims-int",
    ),
    C(lambda: ua.sum(np.ones(3)), TypeError, "numpy.ndarray", id="sum-numpy-array"),
    C(lambda: ua.prod(_vec(), 0), TypeError, "positional", id="prod-positional-axis"),
    C(lambda: ua.max(_none()), ValueError, "maximum which has no identity", id="max-empty"),
    C(lambda: ua.min(_cplx()), TypeError, "complex values have no order", id="min-complex"),
    C(lambda: ua.argmax(_none()), ValueError, "argmax which has no identity", id="argmax-empty"),
    C(lambda: ua.argmin(_cplx()), TypeError, "complex values have no order", id="argmin-complex"),
    C(lambda: ua.argmax(_mat(), axis=(0, 1)), TypeError, "not tuple", id="argmax-axis-tuple"),
    C(
        lambda: ua.var(_vec(), correction="a"),
        TypeError,
        "correction must be an int or a float",
        id="var-correction-str",
    ),
    C(
        lambda: ua.cumulative_sum(_mat()),
        ValueError,
        "one-dimensional",
        id="cumulative-sum-2d-no-axis",
    ),
    C(
        lambda: ua.cumulative_sum(_vec(), include_initial=1),
        TypeError,
        "include_initial must be a bool",
        id="cumulative-sum-initial-int",
    ),
    C(
        lambda: ua.cumulative_prod(_mat(), axis=5),
        np.exceptions.AxisError,
        "axis 5 is out of bounds",
        id="cumulative-prod-axis",
    ),
    C(lambda: ua.diff(_vec(), n=-1), ValueError, "n must be non-negative", id="diff-negative-n"),
    C(lambda: ua.diff(_scalar()), ValueError, "at least one dimension", id="diff-0d"),
    C(lambda: ua.sort(_vec(), stable=1), TypeError, "stable must be a bool", id="sort-stable-int"),
    C(lambda: ua.sort(_scalar()), ValueError, "at least one dimension", id="sort-0d"),
    C(
        lambda: ua.argsort(_mat(), axis=3),
        np.exceptions.AxisError,
        "axis 3 is out of bounds",
        id="argsort-axis",
    ),
    C(
        lambda: ua.sort(_vec(), descending=1),
        TypeError,
        "descending must be a bool",
        id="sort-descending-int",
    ),
    C(
        lambda: ua.searchsorted(_mat(), _vec()),
        ValueError,
        "x1 must be one-dimensional",
        id="searchsorted-2d",
    ),
    C(
        lambda: ua.searchsorted(_vec(), _vec(), side="middle"),
        ValueError,
        "'left' or 'right'",
        id="searchsorted-side",
    ),
    C(lambda: ua.linalg.inv(_vec()), ValueError, "at least two dimensions", id="linalg-inv-1d"),
    C(lambda: ua.linalg.det(_mat()), ValueError, "square matrices", id="linalg-det-not-square"),
    C(
        lambda: ua.linalg.inv(ua.zeros((2, 2), device="host")),
        ua.linalg.LinAlgError,
        "singular",
        id="linalg-inv-singular",
    ),
    C(
        lambda: ua.linalg.cholesky(-ua.eye(2, device="host")),
        ua.linalg.LinAlgError,
        "not positive definite",
        id="linalg-cholesky-indefinite",
    ),
    C(
        lambda: ua.linalg.eigh(ua.ones((2, 2), dtype="float16", device="host")),
        TypeError,
        "float16",
        id="linalg-eigh-float16",
    ),
    C(
        lambda: ua.linalg.qr(_mat(), mode="raw"),
        ValueError,
        "'reduced' or 'complete'",
        id="linalg-qr-mode",
    ),
    C(
        lambda: ua.linalg.svd(_mat(), full_matrices=None),
        TypeError,
        "full_matrices",
        id="linalg-svd-flag",
    ),
    C(
        lambda: ua.linalg.solve(ua.eye(3, device="host"), _vec()),
        ValueError,
        "3 rows",
        id="linalg-solve-rows",
    ),
    C(
        lambda: ua.linalg.matrix_norm(_mat(), ord=3),
        ValueError,
        "'fro', 'nuc'",
        id="linalg-matrix-norm-ord",
    ),
    C(
        lambda: ua.linalg.vector_norm(_vec(), ord="fro"),
        ValueError,
        "ord must be a number",
        id="linalg-vector-norm-ord",
    ),
    C(
        lambda: ua.linalg.vector_norm(_vec(), ord=float("nan")),
        ValueError,
        "NaN",
        id="linalg-vector-norm-nan",
    ),
    C(
        lambda: ua.linalg.matrix_power(ua.eye(2, device="host"), 2.0),
        TypeError,
        "n must be an int",
        id="linalg-matrix-power-float",
    ),
    C(lambda: ua.linalg.cross(_vec(), _vec()), ValueError, "3 elements", id="linalg-cross-length"),
    C(
        lambda: ua.linalg.cross(_mat(), _mat(), axis=0),
        ValueError,
        "count from the end",
        id="linalg-cross-axis",
    ),
    C(lambda: ua.linalg.outer(_mat(), _vec()), ValueError, "two vectors", id="linalg-outer-2d"),
    C(
        lambda: ua.linalg.diagonal(_vec()),
        ValueError,
        "at least two dimensions",
        id="linalg-diagonal-1d",
    ),
    C(lambda: ua.linalg.trace(_mat(), offset="1"), TypeError, "offset", id="linalg-trace-offset"),
    C(lambda: ua.linalg.pinv(np.eye(2)), TypeError, "pinv", id="linalg-pinv-numpy"),
    C(
        lambda: ua.linalg.pinv(host((1,) * 64), rtol=host((1,) * 63)),
        ValueError,
        "pinv: the result would have 65 dimensions; at most 64",
        id="linalg-pinv-rtol-too-many-dims",
    ),
    C(
        lambda: ua.linalg.matrix_rank(host((1,) * 64), rtol=host((1,) * 64)),
        ValueError,
        "matrix_rank: the result would have 65 dimensions; at most 64",
        id="linalg-matrix-rank-rtol-too-many-dims",
    ),
    C(
        lambda: ua.searchsorted(_vec(), _vec(), sorter=_vec()),
        ValueError,
        "integer array",
        id="searchsorted-sorter-float",
    ),
    C(
        lambda: ua.searchsorted(_vec(), _vec(), sorter=ua.asarray(np.arange(2), device="host")),
        ValueError,
        "of x1's length",
        id="searchsorted-sorter-length",
    ),
    C(lambda: ua.nonzero(_scalar()), ValueError, "nonzero(x[None])", id="nonzero-0d"),
    C(
        lambda: ua.count_nonzero(_vec(), axis="a"),
        TypeError,
        "not str",
        id="count-nonzero-axis-str",
    ),
    C(lambda: ua.unique_values(np.ones(3)), TypeError, "numpy.ndarray", id="unique-values-numpy"),
    C(
        lambda: ua.all(_mat(), axis=-3),
        np.exceptions.AxisError,
        "axis -3 is out of bounds",
        id="all-axis",
    ),
    C(lambda: ua.matmul(_scalar(), _vec()), ValueError, "zero-dimensional", id="matmul-0d"),
    C(
        lambda: ua.matmul(_mat(), _mat()),
        ValueError,
        "x1's last axis has 3 elements",
        id="matmul-shapes",
    ),
    C(lambda: _mat() @ "a", TypeError, "unsupported operand", id="matmul-operator-str"),
    C(_imatmul_reshaping, ValueError, "cannot change in place", id="imatmul-reshaping"),
    C(
        lambda: ua.tensordot(_mat(), _mat(), axes=-1),
        ValueError,
        "axes=-1",
        id="tensordot-negative-axes",
    ),
    C(
        lambda: ua.tensordot(_mat(), _mat(), axes=1),
        ValueError,
        "axis 1 of x1 has 3 elements",
        id="tensordot-mismatch",
    ),
    C(
        lambda: ua.tensordot(host((1,) * 33), host((1,) * 33), axes=0),
        ValueError,
        "tensordot: the result would have 66 dimensions; at most 64",
        id="tensordot-too-many-dims",
    ),
    C(
        lambda: ua.linalg.tensordot(host((1,) * 34), host((1,) * 33), axes=([0], [1])),
        ValueError,
        "tensordot: the result would have 65 dimensions; at most 64",
        id="linalg-tensordot-too-many-dims",
    ),
    C(
        lambda: ua.vecdot(_mat(), _vec()),
        ValueError,
        "x1 has 3 elements along axis -1",
        id="vecdot-mismatch",
    ),
    C(
        lambda: ua.matrix_transpose(_vec()),
        ValueError,
        "at least two dimensions",
        id="matrix-transpose-1d",
    ),
    # ---- usmarray.fft ----
    C(lambda: ua.fft.fft(_vec(), n=0), ValueError, "fft: n must be at least 1", id="fft-n-zero"),
    C(lambda: ua.fft.ifft(_vec(), n=-2), ValueError, "ifft: n must be at least 1", id="ifft-n-neg"),
    C(
        lambda: ua.fft.rfft(_vec(), n=2.5),
        TypeError,
        "rfft: n must be an integer",
        id="rfft-n-float",
    ),
    C(
        lambda: ua.fft.hfft(_vec(), n=True),
        TypeError,
        "hfft: n must be an integer",
        id="hfft-n-bool",
    ),
    C(
        lambda: ua.fft.fft(_vec(), n=2**62),
        ValueError,
        "fft: the array needs more bytes",
        id="fft-n-huge",
    ),
    C(
        lambda: ua.fft.ifft(_mat(), axis=2),
        np.exceptions.AxisError,
        "ifft: axis 2 is out of bounds",
        id="ifft-axis",
    ),
    C(
        lambda: ua.fft.fft(_vec(), axis=None),
        TypeError,
        "axis must be an integer",
        id="fft-axis-none",
    ),
    C(lambda: ua.fft.fft(_vec(), norm="none"), ValueError, "fft: norm must be", id="fft-norm-word"),
    C(lambda: ua.fft.irfft(_cplx(), norm=0), TypeError, "irfft: norm must be", id="irfft-norm-int"),
    C(lambda: ua.fft.fft(_scalar()), ValueError, "fft needs an array of at least one", id="fft-0d"),
    C(lambda: ua.fft.fftn(_scalar()), ValueError, "fftn needs an array of at least", id="fftn-0d"),
    C(lambda: ua.fft.rfft(_cplx()), TypeError, "rfft takes real values", id="rfft-complex"),
    C(lambda: ua.fft.ihfft(_cplx()), TypeError, "ihfft takes real values", id="ihfft-complex"),
    C(lambda: ua.fft.rfftn(_cplx()), TypeError, "rfftn takes real values", id="rfftn-complex"),
    C(
        lambda: ua.fft.irfft(ua.asarray(np.ones(1, complex), device="host")),
        ValueError,
        "irfft: an axis of 1 elements gives n = 0",
        id="irfft-one-element",
    ),
    C(
        lambda: ua.fft.fftn(_mat(), s=(2, 3), axes=(0,)),
        ValueError,
        "fftn: s has 2 entries but axes has 1",
        id="fftn-s-axes-lengths",
    ),
    C(
        lambda: ua.fft.ifftn(_mat(), s=(2, 3, 4)),
        ValueError,
        "ifftn: s has 3 entries but x has 2 dimensions",
        id="ifftn-s-too-long",
    ),
    C(
        lambda: ua.fft.fftn(_mat(), s=3),
        TypeError,
        "fftn: s must be None or a sequence",
        id="fftn-s-int",
    ),
    C(
        lambda: ua.fft.rfftn(_mat(), axes="01"),
        TypeError,
        "rfftn: axes must be None or a sequence",
        id="rfftn-axes-str",
    ),
    C(
        lambda: ua.fft.irfftn(_mat(), s=(0, 2), axes=(0, 1)),
        ValueError,
        "irfftn: s[0] must be at least 1",
        id="irfftn-s-zero",
    ),
    C(
        lambda: ua.fft.fftn(_mat(), s=["a"], axes=[0]),
        TypeError,
        "fftn: s[0] must be an integer",
        id="fftn-s-str",
    ),
    C(
        lambda: ua.fft.fftn(_mat(), axes=[0] * 65),
        ValueError,
        "fftn: axes has 65 entries",
        id="fftn-axes-too-many",
    ),
    C(
        lambda: ua.fft.fftn(_mat(), axes=(0, -3)),
        np.exceptions.AxisError,
        "fftn: axis -3 is out of bounds",
        id="fftn-axes-range",
    ),
    C(
        lambda: ua.fft.irfftn(_mat(), axes=()),
        ValueError,
        "needs at least one axis",
        id="irfftn-no-axes",
    ),
    C(lambda: ua.fft.fft(np.ones(3)), TypeError, "fft expects a USMArray", id="fft-numpy-array"),
    C(lambda: ua.fft.fft(_vec(), 4), TypeError, "positional argument", id="fft-positional-n"),
    C(lambda: ua.fft.fftn(x=_vec()), TypeError, "positional-only", id="fftn-keyword-x"),
    C(lambda: ua.fft.fftfreq(0), ValueError, "fftfreq: n must be at least 1", id="fftfreq-n-zero"),
    C(
        lambda: ua.fft.fftfreq(4.0),
        TypeError,
        "fftfreq: n must be an integer",
        id="fftfreq-n-float",
    ),
    C(lambda: ua.fft.rfftfreq(4, d=0), ValueError, "rfftfreq: d must be", id="rfftfreq-d-zero"),
    C(lambda: ua.fft.fftfreq(4, d="a"), TypeError, "d must be a real number", id="fftfreq-d-str"),
    C(
        lambda: ua.fft.fftfreq(4, d=1j),
        TypeError,
        "d must be a real number",
        id="fftfreq-d-complex",
    ),
    C(
        lambda: ua.fft.fftfreq(4, dtype=ua.int32),
        TypeError,
        "fftfreq makes real floating values, not int32",
        id="fftfreq-dtype-int",
    ),
    C(
        lambda: ua.fft.rfftfreq(2**62, device="host"),
        ValueError,
        "rfftfreq: the array needs more bytes",
        id="rfftfreq-n-huge",
    ),
    C(lambda: ua.fft.fftfreq(4, device="nosuch"), ValueError, "nosuch", id="fftfreq-device"),
    C(
        lambda: ua.fft.fftshift(_mat(), axes=2),
        np.exceptions.AxisError,
        "fftshift: axis 2 is out of bounds",
        id="fftshift-axis",
    ),
    C(
        lambda: ua.fft.ifftshift(_mat(), axes="a"),
        TypeError,
        "ifftshift: axes",
        id="ifftshift-axes-str",
    ),
    C(lambda: ua.fft.fftshift(_scalar()), ValueError, "fftshift needs an array", id="fftshift-0d"),
    # issue 45's papercuts: what a new user met, each named.
    C(
        lambda: ua.full(3, 2**64),
        OverflowError,
        "Python integer 18446744073709551616 out of bounds for int64 and uint64",
        id="full-int-past-uint64",
    ),
    C(
        lambda: ua.asarray([1, -(2**63) - 1]),
        OverflowError,
        "no integer dtype holds it",
        id="asarray-int-below-int64",
    ),
    C(
        lambda: ua.full(3, 2**64, dtype=ua.int64),
        OverflowError,
        "out of bounds for int64",
        id="full-int-past-int64",
    ),
    C(
        lambda: ua.empty(10**15),
        ua.USMAllocationError,
        "could not allocate 7.11 PiB",
        id="empty-size-readable",
    ),
    C(
        lambda: ua.asarray([2, 3]) ** -1,
        ValueError,
        "negative integer powers",
        id="int-negative-power",
    ),
    C(
        lambda: ua.asarray(np.arange(3, dtype=">i4"), copy=False),
        ValueError,
        "dtype('>i4') is big-endian",
        id="asarray-big-endian-no-copy",
    ),
    C(
        lambda: ua.from_dlpack(np.arange(3, dtype=">f8")),
        BufferError,
        "byte order",
        id="dlpack-big-endian",
    ),
    C(
        lambda: ua.arange(3)[np.uint64(2**63)],
        IndexError,
        "index 9223372036854775808 is out of bounds",
        id="index-uint64-scalar",
    ),
    C(lambda: ua.arange(3)[2**64 - 1], IndexError, "is out of bounds", id="index-huge-int"),
    C(
        lambda: ua.arange(3)[ua.asarray([2**64 - 1], dtype=ua.uint64)],
        IndexError,
        "index 9223372036854775807 or more is out of bounds for axis 0 with size 3",
        id="index-uint64-array",
    ),
    C(
        lambda: ua.take(ua.arange(3), ua.asarray([2**63], dtype=ua.uint64)),
        IndexError,
        "or more is out of bounds",
        id="take-uint64-array",
    ),
    C(
        lambda: ua.arange(3)[np.array([2**64 - 1], np.uint64)],
        IndexError,
        "or more is out of bounds",
        id="index-numpy-uint64-array",
    ),
    C(
        lambda: ua.arange(6).reshape(2, 3)[ua.asarray(np.zeros((0, 2), bool))],
        IndexError,
        "size of axis is 3 but size of corresponding boolean axis is 2",
        id="mask-empty-but-wrong-length",
    ),
]


@pytest.mark.parametrize("call, exc, fragment", CASES)
def test_bad_input_raises_a_clear_exception(call, exc, fragment):
    with pytest.raises(exc) as info:
        call()
    assert fragment in str(info.value), str(info.value)


def test_the_catalogue_is_large_enough():
    assert len(CASES) >= 200
    assert len({c.id for c in CASES}) == len(CASES)


def test_the_library_is_usable_after_the_catalogue():
    for case in CASES:
        try:
            case.values[0]()
        except BaseException:
            pass
    x = ua.arange(10.0, usm_type="host")
    assert ua.asnumpy(x[::-3]).tolist() == [9.0, 6.0, 3.0, 0.0]
    assert sys.getrefcount(x) == 2
