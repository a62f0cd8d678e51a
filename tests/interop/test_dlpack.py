"""DLPack 1.x: export (__dlpack__, __dlpack_device__) and import
(ua.from_dlpack), checked against hand-made capsules and NumPy."""

import ctypes
import gc
import subprocess
import sys
import threading

import numpy as np
import pytest
import usmarray as ua
from conftest import first_device_of_each_backend
from dlpack_ctypes import (
    DLManagedTensor,
    DLManagedTensorVersioned,
    Tensor,
    VersionedDeleter,
    plain_capsule,
)

_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def managed(capsule):
    ptr = _get_pointer(capsule, b"dltensor_versioned")
    return DLManagedTensorVersioned.from_address(ptr)


def sample(kind="shared", shape=(3, 4), dtype="f8", queue="host"):
    """An array on the host backend, whose memory of every kind DLPack calls
    kDLCPU and NumPy can take; queue=None: on the default device."""
    return ua.asarray(
        np.arange(np.prod(shape)).astype(dtype).reshape(shape), usm_type=kind, queue=queue
    )


# ----------------------------------------------------------------- export


def test_dlpack_device_is_cpu_on_the_host_backend(kind):
    assert sample(kind).__dlpack_device__() == (1, 0)


def test_capsule_names():
    x = sample(queue=None)
    assert "dltensor" in repr(x.__dlpack__())
    assert '"dltensor_versioned"' in repr(x.__dlpack__(max_version=(1, 0)))
    assert '"dltensor_versioned"' in repr(x.__dlpack__(max_version=(1, 7)))
    assert '"dltensor"' in repr(x.__dlpack__(max_version=(0, 9)))


@pytest.mark.parametrize(
    "make",
    [
        lambda x: x,
        lambda x: x[::2, 1:],
        lambda x: x[::-1, ::-2],
        lambda x: x.T,
        lambda x: x[1, 2],
        lambda x: x[2:2],
    ],
    ids=["c", "strided", "negative", "transposed", "0-d", "empty"],
)
def test_numpy_shares_what_we_export(make):
    x = sample()
    view = make(x)
    n = np.from_dlpack(view)
    assert n.shape == view.shape and n.dtype == view.dtype
    expected = ua.asnumpy(view)
    np.testing.assert_array_equal(n, expected)
    if view.size:
        n[...] = -7
        assert (ua.asnumpy(view) == -7).all()


def test_versioned_tensor_fields():
    x = sample()[::-1, 1:3]
    capsule = x.__dlpack__(max_version=(1, 0))
    m = managed(capsule)
    t = m.dl_tensor
    assert (m.version.major, m.version.minor) == (1, 0)
    assert m.flags == 0
    assert t.ndim == 2 and t.device.device_type == 1
    assert [t.shape[i] for i in range(2)] == [3, 2]
    assert [t.strides[i] for i in range(2)] == [-4, 1]  # elements, never NULL
    assert t.data + t.byte_offset == x._pointer
    assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (2, 64, 1)


def test_read_only_arrays():
    x = sample()
    x.flags.writable = False
    with pytest.raises(BufferError, match="read-only array cannot be exported as a legacy"):
        x.__dlpack__()
    capsule = x.__dlpack__(max_version=(1, 0))
    assert managed(capsule).flags & 1  # READ_ONLY
    assert not np.from_dlpack(x).flags.writeable


def test_copy_true_gives_an_independent_tensor():
    x = sample()
    c = x.__dlpack__(max_version=(1, 0), copy=True)
    assert managed(c).flags & 2  # IS_COPIED
    n = np.from_dlpack(x, copy=True)
    n[0, 0] = 100
    assert ua.asnumpy(x)[0, 0] == 0


@pytest.mark.parametrize(
    "kwargs, exc, fragment",
    [
        ({"stream": 0}, ValueError, "stream must be None for memory without streams"),
        ({"stream": 1}, ValueError, "stream must be None for memory without streams"),
        ({"max_version": 1}, TypeError, "max_version must be None or a tuple"),
        ({"max_version": (1,)}, TypeError, "max_version must be None or a tuple"),
        ({"max_version": ("1", 0)}, TypeError, "max_version must be None or a tuple"),
        ({"dl_device": (2, 0)}, BufferError, "cannot export to dl_device (2, 0)"),
        ({"dl_device": (1, 3)}, BufferError, "cannot export to dl_device (1, 3)"),
        ({"dl_device": "cpu"}, TypeError, "dl_device must be None or a tuple"),
        ({"copy": 1}, TypeError, "copy must be None or a bool"),
        ({"bogus": 1}, TypeError, "unexpected keyword argument 'bogus'"),
        # Names that share a prefix, a first letter or all but one letter with
        # a keyword are not that keyword.
        ({"max_versio": (1, 0)}, TypeError, "unexpected keyword argument 'max_versio'"),
        ({"max_versions": (1, 0)}, TypeError, "unexpected keyword argument 'max_versions'"),
        ({"max_version\0": (1, 0)}, TypeError, "unexpected keyword argument 'max_version"),
        ({"m\u00e4x_version": (1, 0)}, TypeError, "unexpected keyword argument 'm\u00e4x_version'"),
        ({"": 1}, TypeError, "unexpected keyword argument ''"),
    ],
)
def test_bad_export_arguments(kwargs, exc, fragment):
    with pytest.raises(exc) as info:
        sample().__dlpack__(**kwargs)
    assert fragment in str(info.value)


def test_keyword_names_of_a_str_subclass_are_their_text():
    class Name(str):
        pass

    capsule = sample().__dlpack__(**{Name("max_version"): (1, 0)})
    assert "dltensor_versioned" in repr(capsule)


def test_export_arguments_are_keyword_only():
    with pytest.raises(TypeError, match="takes at most 0 positional"):
        sample().__dlpack__(None)
    assert "dltensor" in repr(sample().__dlpack__(dl_device=(1, 0), copy=False))


def test_unconsumed_capsule_releases_the_array():
    x = sample(queue=None)
    before = sys.getrefcount(x)
    caps = [x.__dlpack__(), x.__dlpack__(max_version=(1, 0))]
    assert sys.getrefcount(x) == before + 2
    del caps
    gc.collect()
    assert sys.getrefcount(x) == before


def test_consumer_releases_the_array_once():
    x = sample()
    before = sys.getrefcount(x)
    for _ in range(200):
        n = np.from_dlpack(x)
        ua.from_dlpack(x)
    del n
    gc.collect()
    assert sys.getrefcount(x) == before


def test_deleter_runs_without_the_gil():
    x = sample(queue=None)
    before = sys.getrefcount(x)
    capsule = x.__dlpack__(max_version=(1, 0))
    m = managed(capsule)
    ctypes.pythonapi.PyCapsule_SetName(ctypes.py_object(capsule), b"used_dltensor_versioned")
    deleter = ctypes.cast(m.deleter, VersionedDeleter)
    address = ctypes.addressof(m)
    # A ctypes call releases the GIL: the deleter must take it itself.
    thread = threading.Thread(
        target=deleter, args=(ctypes.cast(address, ctypes.POINTER(DLManagedTensorVersioned)),)
    )
    thread.start()
    thread.join()
    del capsule
    gc.collect()
    assert sys.getrefcount(x) == before


def test_capsules_alive_at_interpreter_exit():
    code = (
        "import numpy as np, usmarray as ua\n"
        "x = ua.asarray(np.arange(10.), usm_type='shared', queue='host')\n"
        "keep = [x.__dlpack__(), x.__dlpack__(max_version=(1, 0)), np.from_dlpack(x),\n"
        "        ua.from_dlpack(np.arange(3.))]\n"
        "ua.keep = keep\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


# ----------------------------------------------------------------- import

DTYPES = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_import_every_dtype(dtype):
    a = (np.arange(6) % 2).astype(dtype).reshape(2, 3)
    t = Tensor(a)
    x = ua.from_dlpack(t.capsule())
    assert x.dtype == a.dtype and x.usm_type == "host"
    np.testing.assert_array_equal(ua.asnumpy(x), a)


def test_import_shares_and_calls_the_deleter_once():
    a = np.arange(12.0).reshape(3, 4)
    t = Tensor(a)
    capsule = t.capsule()
    x = ua.from_dlpack(capsule)
    assert "used_dltensor_versioned" in repr(capsule)
    x[1, 1] = 42
    assert a[1, 1] == 42
    view = x[1:]
    del x
    gc.collect()
    assert t.deleted == 0  # the view keeps the memory
    assert ua.get_pointer_type(a.ctypes.data, "host") == "host"
    del view
    gc.collect()
    assert t.deleted == 1
    assert ua.get_pointer_type(a.ctypes.data, "host") == "unknown"


def test_import_legacy_with_null_strides_and_byte_offset():
    a = np.arange(8, dtype="i4")
    t = Tensor(a, versioned=False, strides=None, shape=(6,), byte_offset=8)
    x = ua.from_dlpack(t.capsule())
    assert x.shape == (6,) and x.strides == (1,)
    np.testing.assert_array_equal(ua.asnumpy(x), a[2:])


def test_import_negative_strides():
    a = np.arange(12.0).reshape(3, 4)
    t = Tensor(a, data=a[2, 3:].ctypes.data, strides=(-4, -1))
    x = ua.from_dlpack(t.capsule())
    np.testing.assert_array_equal(ua.asnumpy(x), a[::-1, ::-1])


def test_import_read_only_flag():
    t = Tensor(np.arange(3.0), flags=1)
    x = ua.from_dlpack(t.capsule())
    assert not x.flags.writable
    with pytest.raises(ValueError):
        x[0] = 1


def test_import_empty_and_zero_dim():
    t = Tensor(np.empty((0, 5)))
    e = ua.from_dlpack(t.capsule())
    assert e.shape == (0, 5) and e.size == 0
    z = ua.from_dlpack(Tensor(np.array(7.5)).capsule())
    assert z.shape == () and float(ua.asnumpy(z)) == 7.5


def test_round_trip_through_our_own_export_keeps_the_kind(kind):
    x = sample(kind, queue=None)
    y = ua.from_dlpack(x)
    assert y.usm_type == kind and y._pointer == x._pointer


def test_from_dlpack_copy_and_device():
    a = np.arange(4.0)
    y = ua.from_dlpack(a, copy=True)
    y[0] = 9
    assert a[0] == 0
    z = ua.from_dlpack(Tensor(a).capsule(), copy=True)
    z[1] = 9
    assert a[1] == 1
    w = ua.from_dlpack(a, device="host")
    assert w.device == ua.Device("host")


@pytest.mark.parametrize(
    "tensor_kwargs, exc, fragment",
    [
        ({"dtype": (4, 16, 1)}, BufferError, "bfloat16 is not supported"),
        ({"dtype": (2, 32, 4)}, BufferError, "4 lanes is not supported"),
        ({"dtype": (2, 80, 1)}, BufferError, "(code 2, 80 bits) is not supported"),
        ({"dtype": (3, 64, 1)}, BufferError, "(code 3, 64 bits) is not supported"),
        ({"device": (2, 99)}, BufferError, "the cuda backend has no such device here"),
        ({"device": (4, 0)}, BufferError, "device type 4 is not one usmarray can reach"),
        ({"device": (10, 0)}, BufferError, "device type 10 is not one usmarray can reach"),
        ({"device": (14, 99)}, BufferError, "(14, 99) has no usmarray device: the sycl backend"),
        ({"ndim": -1}, BufferError, "ndim -1"),
        ({"ndim": 65}, BufferError, "ndim 65"),
        ({"shape": (2, -3)}, BufferError, "shape[1] is -3"),
        ({"data": 0}, BufferError, "data pointer is NULL but it has elements"),
        ({"byte_offset": 2**63}, BufferError, "byte_offset"),
        ({"strides": (2**62, 1)}, BufferError, "DLPack tensor:"),
    ],
)
def test_bad_tensors(tensor_kwargs, exc, fragment):
    t = Tensor(np.arange(6.0).reshape(2, 3), **tensor_kwargs)
    capsule = t.capsule()
    with pytest.raises(exc) as info:
        ua.from_dlpack(capsule)
    assert fragment in str(info.value)
    # The capsule still belongs to its producer: not renamed, not deleted.
    assert t.deleted == 0 and "used_" not in repr(capsule)


def test_newer_major_version_is_deleted_then_refused():
    t = Tensor(np.arange(3.0), version=(2, 0))
    capsule = t.capsule()
    with pytest.raises(BufferError, match="DLPack version 2.0 is newer"):
        ua.from_dlpack(capsule)
    assert t.deleted == 1 and "used_dltensor_versioned" in repr(capsule)


def test_capsules_of_other_kinds_and_used_ones():
    with pytest.raises(TypeError, match="capsule named 'other' is not a DLPack capsule"):
        ua.from_dlpack(plain_capsule(b"other"))
    with pytest.raises(ValueError, match="already consumed"):
        ua.from_dlpack(plain_capsule(b"used_dltensor"))
    t = Tensor(np.arange(3.0))
    capsule = t.capsule()
    ua.from_dlpack(capsule)
    with pytest.raises(ValueError, match="already consumed"):
        ua.from_dlpack(capsule)


def test_from_dlpack_bad_arguments():
    with pytest.raises(TypeError, match="needs an object with __dlpack__"):
        ua.from_dlpack([1, 2])
    with pytest.raises(TypeError, match="copy must be None or a bool"):
        ua.from_dlpack(np.arange(2.0), copy="no")
    with pytest.raises(ValueError, match="no device matches"):
        ua.from_dlpack(np.arange(2.0), device="host:cpu:7")


def test_no_cuda_array_interface_on_the_host_backend(kind):
    assert not hasattr(sample(kind), "__cuda_array_interface__")


def test_host_device_memory_is_the_processes_and_dlpack_names_the_cpu(host_queue):
    # docs/protocols.rst: the host backend's memory of every kind is the
    # process's own, so NumPy shares an array of device kind through its
    # interfaces as through DLPack; a Memory of device kind keeps the seeds'
    # rule and refuses.
    x = ua.arange(6, dtype="f8", usm_type="device", queue=host_queue)
    assert np.asarray(x).ctypes.data == x._pointer
    assert memoryview(x).nbytes == 48
    assert x.__array_interface__["data"] == (x._pointer, False)
    with pytest.raises(BufferError):
        memoryview(x.base)
    assert x.__dlpack_device__() == (1, 0)  # kDLCPU
    viewed = np.from_dlpack(x)
    assert viewed.ctypes.data == x._pointer  # the same memory, read by NumPy
    assert viewed.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def test_torch_reads_host_device_memory_through_dlpack(host_queue):
    torch = pytest.importorskip("torch")
    x = ua.arange(6, dtype="f8", usm_type="device", queue=host_queue)
    for t in (torch.from_dlpack(x), torch.as_tensor(x)):
        assert t.data_ptr() == x._pointer and t.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


# Devices whose memory DLPack does not call the host's: kDLCPU exports copy.
OTHER_DEVICES = [d for d in first_device_of_each_backend() if not d.startswith("host")]


@pytest.mark.parametrize("device", OTHER_DEVICES)
def test_export_to_the_cpu_copies_device_memory(device):
    """dl_device=(1, 0), as NumPy's from_dlpack(device="cpu") asks: device
    memory is copied to the host (a kDLCPU tensor marked copied), unless
    copy=False, which the standard answers with BufferError."""
    h = np.arange(12.0).reshape(3, 4)[:, ::-1]
    x = ua.asarray(h, device=device, usm_type="device")
    assert x.__dlpack_device__()[0] != 1
    for copy in (None, True):
        capsule = x.__dlpack__(dl_device=(1, 0), max_version=(1, 0), copy=copy)
        t = managed(capsule)
        assert (t.dl_tensor.device.device_type, t.dl_tensor.device.device_id) == (1, 0)
        assert t.flags & 2  # DLPACK_FLAG_BITMASK_IS_COPIED
        got = np.from_dlpack(x, device="cpu", copy=copy)
        np.testing.assert_array_equal(got, h)
        got[0, 0] = -1.0
        assert ua.asnumpy(x)[0, 0] == h[0, 0]
    with pytest.raises(BufferError, match="without a copy.*device memory"):
        x.__dlpack__(dl_device=(1, 0), copy=False)
    legacy = x.__dlpack__(dl_device=(1, 0))  # no max_version: a legacy capsule
    t = DLManagedTensor.from_address(_get_pointer(legacy, b"dltensor")).dl_tensor
    assert (t.device.device_type, t.device.device_id) == (1, 0)


@pytest.mark.parametrize("device", OTHER_DEVICES)
def test_export_to_the_cpu_shares_memory_the_host_reaches(device):
    """Shared and host memory go to a CPU consumer as they are, once the
    queue's work is done; copy=True still copies."""
    for kind in ("shared", "host"):
        x = ua.asarray(np.arange(4.0), device=device, usm_type=kind) * 2
        got = np.from_dlpack(x, device="cpu", copy=False)
        np.testing.assert_array_equal(got, [0.0, 2.0, 4.0, 6.0])
        got[1] = 42.0
        assert ua.asnumpy(x)[1] == 42.0
        t = managed(x.__dlpack__(dl_device=(1, 0), max_version=(1, 0), copy=True))
        assert t.flags & 2 and t.dl_tensor.data != x._pointer


@pytest.mark.parametrize("device", OTHER_DEVICES)
def test_export_to_the_cpu_of_a_read_only_array(device):
    """A copy to the host is writable, so a legacy capsule may carry it;
    shared memory going as it is may not, and keeps READ_ONLY otherwise."""
    x = ua.asarray(np.arange(3.0), device=device, usm_type="device")
    x.flags.writable = False
    assert "dltensor" in repr(x.__dlpack__(dl_device=(1, 0)))
    s = ua.asarray(np.arange(3.0), device=device, usm_type="shared")
    s.flags.writable = False
    with pytest.raises(BufferError, match="read-only array cannot be exported as a legacy"):
        s.__dlpack__(dl_device=(1, 0))
    assert managed(s.__dlpack__(dl_device=(1, 0), max_version=(1, 0))).flags & 1


def test_to_another_device_sees_its_queue_finished():
    """to_device across backends copies what the array's own queue wrote,
    the queue's work done first."""
    devices = first_device_of_each_backend()
    if len(devices) < 2:
        pytest.skip("one backend here")
    for src in devices:
        q = ua.Queue(src)
        x = ua.ones(1 << 20, dtype="f8", queue=q) * 3.0
        for dst in devices:
            np.testing.assert_array_equal(ua.asnumpy(x.to_device(dst)), np.full(1 << 20, 3.0))
