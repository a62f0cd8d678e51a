"""What the rows of the bad-input catalogue (test_bad_inputs_*.py) build
their calls from: arrays and memory of each kind, hand-made interface
dictionaries and DLPack capsules, producers whose hooks raise or change
what is being read."""

import ctypes
import os

import numpy as np
import pytest
import usmarray as ua
from conftest import KEEP_OUT, Holder, suai
from dlpack_ctypes import Tensor
from hostile_objects import DtypeAttr, emptied_list

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


def vec():
    return ua.asarray(np.arange(6.0), device="host")


def mat():
    return ua.reshape(vec(), (2, 3))


def cplx():
    return ua.asarray(np.ones(3, complex), device="host")


def empty_vector():
    return ua.asarray(np.zeros(0), device="host")


def scalar0d():
    return ua.asarray(np.array(1.0), device="host")


def imatmul_reshaping():
    m = ua.ones((2, 3), device="host")
    m @= ua.ones((3, 2), device="host")


def raises_clearly(call, exc, fragment):
    """The check of every row: the call raises exc, whose message names the problem."""
    with pytest.raises(exc) as info:
        call()
    assert fragment in str(info.value), str(info.value)
