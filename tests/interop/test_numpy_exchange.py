"""NumPy exchange: __array_interface__ v3, PEP 3118 and __array__."""

import ctypes

import numpy as np
import pytest
import usmarray as ua

PyBUF_SIMPLE, PyBUF_WRITABLE, PyBUF_FORMAT, PyBUF_ND = 0, 0x1, 0x4, 0x8
PyBUF_STRIDES = 0x10 | PyBUF_ND
PyBUF_C_CONTIGUOUS = 0x20 | PyBUF_STRIDES
PyBUF_F_CONTIGUOUS = 0x40 | PyBUF_STRIDES
PyBUF_ANY_CONTIGUOUS = 0x80 | PyBUF_STRIDES


def request(obj, flags):
    """PyObject_GetBuffer(obj, flags), released at once."""
    get = ctypes.pythonapi.PyObject_GetBuffer
    get.argtypes = [ctypes.py_object, ctypes.c_void_p, ctypes.c_int]
    release = ctypes.pythonapi.PyBuffer_Release
    release.argtypes = [ctypes.c_void_p]
    view = ctypes.create_string_buffer(256)
    get(obj, view, flags)
    release(view)


@pytest.mark.parametrize("kind", ["shared", "host"])
def test_numpy_shares_host_accessible_memory(kind):
    x = ua.asarray(np.arange(12.0).reshape(3, 4), usm_type=kind)
    for view in (x, x.T, x[::-1, 1::2], x[1], x[0, 0]):
        h = np.asarray(view)
        np.testing.assert_array_equal(h, ua.asnumpy(view))
        assert h.strides == tuple(s * 8 for s in view.strides)
        if h.size:
            assert h.__array_interface__["data"][0] == view._pointer
    np.asarray(x)[2, 3] = -1
    assert ua.asnumpy(x)[2, 3] == -1


@pytest.mark.parametrize(
    "dtype", ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"]
)
def test_formats_and_typestrs(dtype):
    x = ua.asarray(np.ones(3, dtype=dtype), usm_type="shared")
    m = memoryview(x)
    assert (
        np.dtype(m.format) == np.dtype(dtype)
        if dtype not in ("c8", "c16")
        else m.format in ("Zf", "Zd")
    )
    assert m.itemsize == np.dtype(dtype).itemsize and m.shape == (3,)
    iface = x.__array_interface__
    assert iface["version"] == 3 and iface["typestr"] == np.dtype(dtype).str
    assert iface["strides"] is None and iface["data"] == (x._pointer, False)
    assert np.asarray(x).dtype == np.dtype(dtype)


def test_array_interface_of_views():
    x = ua.asarray(np.arange(24, dtype=np.int32).reshape(4, 6), usm_type="shared")
    v = x[::2, ::-3]
    iface = v.__array_interface__
    assert iface["strides"] == (48, -12) and iface["shape"] == (2, 2)
    x.flags.writable = False
    assert x.__array_interface__["data"][1] is True
    assert not np.asarray(x).flags.writeable


def test_device_arrays_export_to_the_host_on_the_host_backend_only():
    x = ua.zeros((2, 2))
    if x.device.backend == "host":
        # Every kind of the host backend's memory is the process's own.
        assert np.asarray(x).ctypes.data == x._pointer == x.__array_interface__["data"][0]
        assert memoryview(x).nbytes == 32
        return
    assert not hasattr(x, "__array_interface__")
    with pytest.raises(TypeError, match=r"use usmarray.asnumpy\(x\)"):
        np.asarray(x)
    with pytest.raises(BufferError, match="not accessible from the host"):
        memoryview(x)


def test_request_flags_are_honoured():
    x = ua.asarray(np.arange(12.0).reshape(3, 4), usm_type="shared")
    t = x.T
    s = x[:, ::2]
    request(x, PyBUF_SIMPLE)
    request(x, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_FORMAT)
    request(t, PyBUF_F_CONTIGUOUS)
    request(t, PyBUF_ANY_CONTIGUOUS)
    request(s, PyBUF_STRIDES)
    with pytest.raises(BufferError, match="not C-contiguous"):
        request(t, PyBUF_C_CONTIGUOUS)
    with pytest.raises(BufferError, match="not Fortran-contiguous"):
        request(x, PyBUF_F_CONTIGUOUS)
    with pytest.raises(BufferError, match="not contiguous"):
        request(s, PyBUF_ANY_CONTIGUOUS)
    with pytest.raises(BufferError, match="does not take strides"):
        request(s, PyBUF_ND)
    with pytest.raises(BufferError, match="does not take strides"):
        request(t, PyBUF_SIMPLE)
    x.flags.writable = False
    request(x, PyBUF_SIMPLE)
    with pytest.raises(BufferError, match="read-only"):
        request(x, PyBUF_WRITABLE)


def test_size_zero_and_zero_dim():
    e = ua.zeros((0, 3), usm_type="shared")
    assert e.__array_interface__["data"][0] != 0
    assert np.asarray(e).shape == (0, 3)
    s = ua.asarray(np.float32(2.5), usm_type="host")
    assert np.asarray(s).shape == () and np.asarray(s)[()] == 2.5


def test_dunder_array_with_dtype_and_copy():
    x = ua.asarray(np.arange(4), usm_type="shared")
    assert x.__array__().base is not None
    c = x.__array__(copy=True)
    c[0] = 99
    assert ua.asnumpy(x)[0] == 0
    assert x.__array__(dtype="f4").dtype == np.float32
    assert np.array(x, dtype=np.float64).dtype == np.float64


def test_column_stack_keeps_its_items_when_one_empties_the_list(monkeypatch):
    # Converting an item runs its __array__, which may change the list; the
    # item converted lands on the default device, which is x's here.
    monkeypatch.setenv("USMARRAY_DEVICE", "host")
    x = ua.asarray(np.arange(3.0), usm_type="shared", queue="host")

    class Shrinking:
        def __array__(self, dtype=None, copy=None):
            items.clear()
            return np.arange(3.0)

    items = [x, Shrinking(), x]
    got = ua.asnumpy(np.column_stack(items))
    np.testing.assert_array_equal(got, np.column_stack([np.arange(3.0)] * 3))
