"""USMArray's constructor: every example and rule of the source document."""

import numpy as np
import pytest
import usmarray as ua
from conftest import KINDS


def test_doc_c_contiguous_u2_device():
    a = ua.USMArray((2, 3), dtype="u2", buffer="device")
    assert a.shape == (2, 3) and a.strides == (3, 1)
    assert a.base.nbytes == 12 and a.usm_type == "device"
    assert a.dtype == np.uint16 and a.flags.c_contiguous
    assert a._element_offset == 0 and a._pointer == a.base._pointer


def test_doc_strided_i8_shared():
    a = ua.USMArray((2, 3), dtype="i8", buffer="shared", strides=(6, 1))
    assert a.base.nbytes == 9 * 8  # exactly the elements reached
    assert a.usm_type == "shared"
    assert not a.flags.c_contiguous and not a.flags.f_contiguous
    host = np.frombuffer(a.base, dtype=np.int64)
    host[:] = np.arange(9)
    assert ua.asnumpy(a).tolist() == [[0, 1, 2], [6, 7, 8]]


def test_doc_negative_strides_u1_host():
    a = ua.USMArray((2, 2), dtype="u1", buffer="host", strides=(2, -1))
    assert a.base.nbytes == 4
    assert a._element_offset == 1  # offset was auto-computed to be 1
    np.frombuffer(a.base, dtype=np.uint8)[:] = [10, 11, 12, 13]
    # buf_flat = {a[0, 1], a[0, 0], a[1, 1], a[1, 0]}
    assert ua.asnumpy(a).tolist() == [[11, 10], [13, 12]]


def test_doc_f8_over_memory_with_offset():
    mem = ua.MemoryUSMShared(64)
    np.frombuffer(mem, dtype=np.float64)[:] = np.arange(8)
    a = ua.USMArray((4,), dtype="f8", buffer=mem, strides=(-2,), offset=7)
    assert a.base is mem
    # buf_flat = {__, a[3], __, a[2], __, a[1], __, a[0]}
    assert ua.asnumpy(a).tolist() == [7.0, 5.0, 3.0, 1.0]
    assert a._byte_bounds == (mem._pointer + 8, mem._pointer + 64)


def test_doc_round_trip_through_usmarray_buffer():
    W = ua.USMArray((4, 2), dtype="i4", buffer="device", strides=(-5, -2))
    Wiface = W.__sycl_usm_array_interface__
    W2 = ua.USMArray(
        Wiface["shape"],
        dtype=Wiface["typestr"],
        buffer=W,
        strides=Wiface["strides"],
        offset=Wiface["offset"],
    )
    assert W2.__sycl_usm_array_interface__ == Wiface
    assert W2.base is W.base
    assert Wiface["offset"] == 17 and W.base.nbytes == 18 * 4


def test_doc_matrix_layouts_from_the_examples():
    mem = ua.MemoryUSMShared(6 * 8)
    np.frombuffer(mem, dtype=np.float64)[:] = np.arange(6)
    c = ua.USMArray((2, 3), buffer=mem, strides=(3, 1))
    f = ua.USMArray((2, 3), buffer=mem, strides=(1, 2))
    sub = ua.USMArray((2, 2), buffer=mem, strides=(3, 1))
    assert ua.asnumpy(c).tolist() == [[0, 1, 2], [3, 4, 5]]
    assert ua.asnumpy(f).tolist() == [[0, 2, 4], [1, 3, 5]]
    assert f.flags.f_contiguous and not f.flags.c_contiguous
    assert ua.asnumpy(sub).tolist() == [[0, 1], [3, 4]]
    vec = ua.USMArray((8,), buffer=ua.MemoryUSMShared(64))
    view = vec[7::-2]
    assert view.shape == (4,) and view.strides == (-2,)
    assert view._element_offset == 7


def test_defaults_and_orders():
    a = ua.USMArray(5)
    assert a.shape == (5,) and a.dtype == np.float64 and a.usm_type == "device"
    f = ua.USMArray((2, 3, 4), order="F")
    assert f.strides == (1, 2, 6) and f.flags.f_contiguous


@pytest.mark.parametrize(
    "dtype, expected",
    [
        (np.float32, np.float32),
        ("f4", np.float32),
        ("<f4", np.float32),
        (np.dtype("int16"), np.int16),
        (bool, np.bool_),
        (int, np.int64),
        (float, np.float64),
        (complex, np.complex128),
        ("float16", np.float16),
        ("|b1", np.bool_),
        ("c8", np.complex64),
        ("u8", np.uint64),
    ],
)
def test_dtype_forms(dtype, expected):
    a = ua.USMArray((2,), dtype=dtype)
    assert a.dtype == np.dtype(expected)
    assert a.itemsize == np.dtype(expected).itemsize
    assert a.nbytes == 2 * a.itemsize


def test_zero_dim_and_zero_size():
    s = ua.USMArray(())
    assert s.shape == () and s.ndim == 0 and s.size == 1 and s.strides == ()
    with pytest.raises(TypeError, match="unsized"):
        len(s)
    e = ua.USMArray((3, 0, 2), dtype="i2", buffer="shared")
    assert e.size == 0 and e.nbytes == 0
    assert e.flags.c_contiguous and e.flags.f_contiguous
    assert ua.asnumpy(e).shape == (3, 0, 2)


def test_read_only_memory_gives_read_only_array():
    from conftest import Holder, suai

    mem = ua.MemoryUSMShared(32)
    ro = ua.MemoryUSMShared(Holder(suai(mem, data=(mem._pointer, True))))
    a = ua.USMArray((4,), dtype="f8", buffer=ro)
    assert not a.flags.writable and not a.flags["W"]
    with pytest.raises(ValueError, match="read-only"):
        a.flags.writable = True
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 1.0
    assert a.__sycl_usm_array_interface__["data"][1] is True


def test_buffer_ctor_kwargs():
    a = ua.USMArray(
        (4,), buffer="shared", buffer_ctor_kwargs={"queue": ua.Queue("host"), "alignment": 4096}
    )
    assert a.base._pointer % 4096 == 0 and a.queue is ua.Queue("host")
    with pytest.raises(TypeError, match="unknown key 'bogus'"):
        ua.USMArray((4,), buffer_ctor_kwargs={"bogus": 1})
    with pytest.raises(ValueError, match="power of two"):
        ua.USMArray((4,), buffer_ctor_kwargs={"alignment": 3})
    with pytest.raises(ValueError, match="apply only when"):
        ua.USMArray((4,), buffer=ua.MemoryUSMShared(32), buffer_ctor_kwargs={"alignment": 8})


BAD_CONSTRUCTOR = [
    ((-1,), {}, ValueError, "shape[0] is negative"),
    ((2, -3), {}, ValueError, "shape[1] is negative"),
    ((2.0,), {}, TypeError, "shape[0] must be an integer"),
    ("23", {}, TypeError, "shape must be an integer or a sequence"),
    (None, {}, TypeError, "shape must be an integer or a sequence"),
    ((True,), {}, TypeError, "shape[0] must be an integer"),
    ((1,) * 65, {}, ValueError, "at most 64 dimensions are supported"),
    ((2, 3), {"strides": (1,)}, ValueError, "strides has 1 entries but shape has 2"),
    ((2, 3), {"strides": 3}, ValueError, "strides must be None or a sequence"),
    ((2, 3), {"strides": (1.5, 1)}, TypeError, "strides[0] must be an integer"),
    ((2, 3), {"order": "K"}, ValueError, "order must be one of 'CF'"),
    ((2, 3), {"order": 1}, TypeError, "order must be a str"),
    ((2,), {"dtype": object}, TypeError, "is not supported by usmarray"),
    ((2,), {"dtype": "U4"}, TypeError, "is not supported by usmarray"),
    ((2,), {"dtype": "datetime64[s]"}, TypeError, "is not supported by usmarray"),
    ((2,), {"dtype": "longdouble"}, TypeError, "is not supported by usmarray"),
    ((2,), {"dtype": ">f8"}, ValueError, "not in native byte order"),
    ((2,), {"dtype": "nonsense"}, TypeError, "is not a data type numpy understands"),
    ((2,), {"dtype": [("a", "f8")]}, TypeError, "is not supported by usmarray"),
    ((2,), {"buffer": "global"}, ValueError, "buffer must be 'device', 'shared', 'host'"),
    ((2,), {"buffer": bytearray(16)}, ValueError, "buffer must be 'device'"),
    ((2,), {"buffer": 16}, ValueError, "buffer must be 'device'"),
    ((2,), {"offset": 1}, ValueError, "offset must be 0 when buffer asks"),
    ((2,), {"offset": 1.0, "buffer": "MEM"}, TypeError, "offset must be an integer"),
    ((2,), {"offset": -1, "buffer": "MEM"}, ValueError, "offset must not be negative"),
    ((5,), {"buffer": "MEM"}, ValueError, "reach bytes [0, 40) of a buffer of 32 bytes"),
    ((2,), {"offset": 3, "buffer": "MEM"}, ValueError, "of a buffer of 32 bytes"),
    ((3,), {"strides": (-1,), "buffer": "MEM"}, ValueError, "reach bytes [-16, 8)"),
    ((2, 2), {"strides": (3, 1), "buffer": "MEM"}, ValueError, "of a buffer of 32 bytes"),
    ((3,), {"strides": (2**62,), "buffer": "MEM"}, ValueError, "beyond addressable memory"),
    ((2,), {"buffer_ctor_kwargs": [("queue", None)]}, TypeError, "must be dict"),
]


@pytest.mark.parametrize(
    "shape, kwargs, exc, fragment",
    BAD_CONSTRUCTOR,
    ids=[f"{i}-{c[3][:30]}" for i, c in enumerate(BAD_CONSTRUCTOR)],
)
def test_bad_constructor_arguments(shape, kwargs, exc, fragment):
    kwargs = dict(kwargs)
    if kwargs.get("buffer") == "MEM":
        kwargs["buffer"] = ua.MemoryUSMShared(32)
    with pytest.raises(exc) as info:
        ua.USMArray(shape, **kwargs)
    assert fragment in str(info.value)


def test_usmarray_buffer_means_its_base():
    a = ua.USMArray((10,), dtype="i4", buffer="shared")
    part = a[2:5]
    b = ua.USMArray((3,), dtype="i4", buffer=part, offset=2)
    assert b.base is a.base and b._pointer == part._pointer


def test_every_kind(kind):
    a = ua.USMArray((3,), buffer=kind)
    assert a.usm_type == kind and isinstance(a.base, KINDS[kind])


def test_dtype_names_and_types_resolve_the_same_on_every_call():
    """Recently seen dtype strings and types are recognised by identity:
    cycling through more of them than are kept, and through strings made
    anew, must still give each its own dtype."""
    names = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"]
    types = [
        np.bool_,
        np.int8,
        np.uint8,
        np.int16,
        np.uint16,
        np.int32,
        np.uint32,
        np.int64,
        np.uint64,
        np.float16,
        np.float32,
        np.float64,
        np.complex64,
        np.complex128,
    ]
    for _ in range(3):
        for name, t in zip(names, types):
            fresh = "".join([name[:1], name[1:]])  # an equal string, not the same
            for spec in (name, t, fresh):
                assert ua.USMArray((2,), spec, "host").dtype == np.dtype(t), spec
