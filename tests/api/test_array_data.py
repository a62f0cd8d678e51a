"""Data in and out: asarray, asnumpy, copies, casts, assignment and
creation, with NumPy as the oracle."""

import numpy as np
import pytest
import usmarray as ua
from hypothesis import given, settings
from hypothesis import strategies as st

DTYPES = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"]


def sample(dtype, shape=(3, 4)):
    n = int(np.prod(shape))
    values = np.arange(n) % 7 - 2
    if np.dtype(dtype).kind == "c":
        return (values + 1j * (values[::-1])).astype(dtype).reshape(shape)
    if np.dtype(dtype).kind == "u":
        values = np.abs(values)
    return values.astype(dtype).reshape(shape)


@pytest.mark.parametrize("kind", ["device", "shared", "host"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_asarray_asnumpy_round_trip(dtype, kind):
    h = sample(dtype)
    x = ua.asarray(h, usm_type=kind, copy=True)
    assert x.dtype == h.dtype and x.shape == h.shape and x.usm_type == kind
    back = ua.asnumpy(x)
    assert back.dtype == h.dtype
    np.testing.assert_array_equal(back, h)


@pytest.mark.parametrize("src", DTYPES)
@pytest.mark.parametrize("dst", DTYPES)
def test_astype_every_pair_matches_numpy(src, dst):
    h = sample(src)
    x = ua.asarray(h)
    with np.errstate(all="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = h.astype(dst)
    got = ua.asnumpy(x.astype(dst))
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)
    got_t = ua.asnumpy(x.T.astype(dst))
    np.testing.assert_array_equal(got_t, expected.T)


def test_asarray_copy_semantics():
    x = ua.zeros(4)
    assert ua.asarray(x) is x
    assert ua.asarray(x, copy=False) is x
    assert ua.asarray(x, dtype="f8") is x
    c = ua.asarray(x, copy=True)
    assert c is not x and c.base is not x.base
    y = ua.asarray(x, dtype="f4")
    assert y.dtype == np.float32 and y.base is not x.base
    with pytest.raises(ValueError, match="cannot change the dtype without a copy"):
        ua.asarray(x, dtype="f4", copy=False)
    with pytest.raises(ValueError, match="cannot change the USM type"):
        ua.asarray(x, usm_type="shared", copy=False)
    assert ua.asarray(x, usm_type="shared").usm_type == "shared"
    t = ua.zeros((3, 4)).T
    assert ua.asarray(t, order="F") is t
    assert ua.asarray(t, order="C").flags.c_contiguous
    with pytest.raises(ValueError, match="memory layout"):
        ua.asarray(t, order="C", copy=False)


@pytest.mark.parametrize("dtype", [">i2", ">u4", ">i8", ">f2", ">f4", ">f8", ">c8", ">c16"])
def test_asarray_copies_big_endian_data_to_native_order(dtype):
    # As NumPy converts it; the zero-copy imports refuse, naming the byte
    # order (tests/robustness/test_bad_inputs.py).
    a = (np.arange(6) - 2).astype(dtype).reshape(2, 3)
    for x in (
        ua.asarray(a),
        ua.asarray(a[:, ::2]),
        ua.asarray(a, usm_type="host"),
        ua.asarray(memoryview(a)),
    ):
        assert x.dtype == np.dtype(dtype).newbyteorder("=")
    np.testing.assert_array_equal(ua.asnumpy(ua.asarray(a)), a)
    np.testing.assert_array_equal(ua.asnumpy(ua.asarray(a[:, ::2])), a[:, ::2])
    with pytest.raises(ValueError, match="big-endian"):
        ua.asarray(a, copy=False)


def test_asarray_of_host_data():
    assert ua.asarray([[1, 2], [3, 4]]).dtype == np.int64
    assert ua.asarray([1.5, 2]).dtype == np.float64
    assert ua.asarray(3).shape == ()
    assert ua.asnumpy(ua.asarray(True)) == np.True_
    assert ua.asarray(bytearray(b"ab")).dtype == np.uint8
    assert ua.asarray([1, 2], dtype="f4").dtype == np.float32
    assert ua.asarray(np.arange(3)).usm_type == "device"
    f = ua.asarray(np.asfortranarray(np.ones((2, 3))), order="K")
    assert f.flags.f_contiguous
    strided = np.arange(24.0).reshape(2, 3, 4).transpose(2, 0, 1)[:, :, ::2]
    k = ua.asarray(strided, order="K")
    assert k.strides == (1, 8, 4)  # the source's memory order, compacted
    np.testing.assert_array_equal(ua.asnumpy(k), strided)
    with pytest.raises(ValueError, match="copy=False"):
        ua.asarray(np.arange(3), copy=False)
    with pytest.raises(TypeError, match="not supported"):
        ua.asarray(["a", "b"])
    with pytest.raises(TypeError, match="not supported"):
        ua.asarray(np.array([1, 2], dtype=object))
    with pytest.raises(ValueError, match="usm_type must be"):
        ua.asarray([1], usm_type="global")


def test_host_usm_type_wraps_numpy_without_copy(host_queue):
    # Only the host backend can take pageable host memory as its own.
    h = np.arange(6.0).reshape(2, 3)
    x = ua.asarray(h, usm_type="host", queue=host_queue)
    assert x._pointer == h.ctypes.data and x.usm_type == "host"
    assert ua.get_pointer_type(h.ctypes.data + 8, "host") == "host"
    x[0, 0] = 42
    assert h[0, 0] == 42
    y = ua.asarray(h[:, ::-1], usm_type="host", copy=False, queue=host_queue)
    assert y.strides == (3, -1)
    np.testing.assert_array_equal(ua.asnumpy(y), h[:, ::-1])
    ro = h.copy()
    ro.flags.writeable = False
    assert not ua.asarray(ro, usm_type="host", queue=host_queue).flags.writable
    assert ua.asarray(h, usm_type="host", copy=True, queue=host_queue)._pointer != h.ctypes.data
    del x, y
    import gc

    gc.collect()
    assert ua.get_pointer_type(h.ctypes.data + 8, "host") == "unknown"


def test_copy_orders():
    h = np.arange(24.0).reshape(2, 3, 4)
    x = ua.asarray(h)
    t = x.transpose(2, 0, 1)
    assert t.copy().flags.c_contiguous
    assert t.copy(order="F").flags.f_contiguous
    k = t.copy(order="K")
    assert k.strides == (1, 12, 4)  # memory order of the source kept
    for c in (t.copy(), t.copy(order="F"), k, t.copy(order="A")):
        np.testing.assert_array_equal(ua.asnumpy(c), h.transpose(2, 0, 1))
    with pytest.raises(ValueError, match="order must be one of"):
        x.copy(order="X")


def test_to_device_same_queue_is_identity():
    x = ua.zeros(3)
    assert x.to_device(x.queue) is x
    assert x.to_device("host").usm_type == "device"


def test_setitem_scalars_and_broadcasting():
    h = np.zeros((3, 4), dtype=np.float32)
    x = ua.asarray(h)
    x[...] = 1
    h[...] = 1
    x[1] = 2.5
    h[1] = 2.5
    x[:, 1] = ua.asarray(np.array([7, 8, 9], dtype=np.int16))
    h[:, 1] = [7, 8, 9]
    x[2, ::-2] = np.array([10, 20])
    h[2, ::-2] = [10, 20]
    x[0:1] = [[1, 2, 3, 4]]
    h[0:1] = [[1, 2, 3, 4]]
    x[1:, 2:] = ua.asarray(np.array([5.0]))
    h[1:, 2:] = 5
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    with pytest.raises(
        ValueError, match=r"could not broadcast input array from shape \(3,\) into shape \(4,\)"
    ):
        x[0] = [1, 2, 3]
    with pytest.raises(ValueError, match="cannot delete"):
        del x[0]
    x.fill(3)
    assert (ua.asnumpy(x) == 3).all()


def test_setitem_overlapping_self():
    h = np.arange(10)
    x = ua.asarray(h)
    x[1:] = x[:-1]
    h[1:] = h[:-1].copy()
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    x[::-1] = x
    np.testing.assert_array_equal(ua.asnumpy(x), h[::-1])


def test_setitem_python_scalars_of_every_kind():
    x = ua.zeros(1, dtype="u8")
    x[0] = 2**64 - 1
    assert int(ua.asnumpy(x)[0]) == 2**64 - 1
    with pytest.raises(OverflowError, match="out of bounds"):
        x[0] = 2**64
    c = ua.zeros(1, dtype="c16")
    c[0] = 1 + 2j
    assert ua.asnumpy(c)[0] == 1 + 2j
    b = ua.zeros(2, dtype="?")
    b[1] = True
    assert ua.asnumpy(b).tolist() == [False, True]


def test_creation_functions():
    q = ua.Queue("host")
    e = ua.empty((2, 3), dtype="i4", usm_type="shared", queue=q)
    assert e.shape == (2, 3) and e.dtype == np.int32 and e.usm_type == "shared"
    assert ua.empty(4).dtype == np.float64
    assert ua.empty((2, 3), order="F").flags.f_contiguous
    np.testing.assert_array_equal(ua.asnumpy(ua.zeros((2, 2), dtype="c8")), np.zeros((2, 2)))
    np.testing.assert_array_equal(ua.asnumpy(ua.ones(3, dtype="i1")), [1, 1, 1])
    f = ua.full((2,), 2.5)
    assert f.dtype == np.float64 and ua.asnumpy(f).tolist() == [2.5, 2.5]
    assert ua.full(2, 7).dtype == np.int64
    assert ua.full(2, True).dtype == np.bool_
    assert ua.full(2, 1j, dtype="c8").dtype == np.complex64
    np.testing.assert_array_equal(ua.asnumpy(ua.arange(2, 11, 3)), np.arange(2, 11, 3))
    assert ua.arange(5.0).dtype == np.float64
    assert ua.asnumpy(ua.arange(0, 3, None)).tolist() == [0, 1, 2]  # step=None is the default
    assert ua.arange(3, dtype="i2", usm_type="host").usm_type == "host"
    x = ua.asarray(np.ones((2, 3), dtype=np.float32), usm_type="shared").T
    for fn, expect in ((ua.empty_like, None), (ua.zeros_like, 0), (ua.ones_like, 1)):
        y = fn(x)
        assert y.shape == x.shape and y.dtype == x.dtype and y.usm_type == "shared"
        assert y.flags.f_contiguous  # order 'K' keeps the layout
        if expect is not None:
            assert (ua.asnumpy(y) == expect).all()
    y = ua.full_like(x, 4, dtype="i2", usm_type="device")
    assert y.dtype == np.int16 and y.usm_type == "device" and (ua.asnumpy(y) == 4).all()
    with pytest.raises(ValueError, match="shape[0] is negative".replace("[", r"\[")):
        ua.zeros(-1)
    with pytest.raises(TypeError, match="a \\*_like function expects a USMArray"):
        ua.zeros_like(np.ones(3))
    with pytest.raises(TypeError, match="device must be"):
        ua.zeros(2, device=3.5)
    assert ua.zeros(2, device="host", queue=ua.Queue("host")).queue is ua.Queue("host")


def test_asnumpy_of_other_objects():
    from conftest import Holder

    x = ua.arange(4)
    np.testing.assert_array_equal(
        ua.asnumpy(Holder(x.__sycl_usm_array_interface__, keep=x)), [0, 1, 2, 3]
    )
    np.testing.assert_array_equal(ua.asnumpy([1, 2]), [1, 2])


@st.composite
def layouts(draw):
    nd = draw(st.integers(0, 4))
    shape = tuple(draw(st.lists(st.integers(0, 5), min_size=nd, max_size=nd)))
    dtype = draw(st.sampled_from(["i1", "i4", "f8", "c16", "f2", "?"]))
    perm = draw(st.permutations(range(nd)))
    steps = tuple(draw(st.lists(st.sampled_from([1, 2, -1, -2]), min_size=nd, max_size=nd)))
    return shape, dtype, perm, steps


@settings(max_examples=150, deadline=None)
@given(layouts(), st.sampled_from(["i2", "f4", "c8"]))
def test_random_views_and_copies_match_numpy(layout, target):
    shape, dtype, perm, steps = layout
    big = tuple(s * abs(k) for s, k in zip(shape, steps))
    host = sample(dtype, big) if big else sample(dtype, ())
    x = ua.asarray(host, usm_type="shared")
    key = tuple(slice(None, None, k) for k in steps)
    hv = host[key].transpose(perm)
    xv = x[key].transpose(perm)
    assert xv.shape == hv.shape
    if hv.size:  # NumPy's strides of empty arrays are arbitrary
        assert xv.strides == tuple(s // hv.itemsize for s in hv.strides)
    np.testing.assert_array_equal(ua.asnumpy(xv), hv)
    np.testing.assert_array_equal(ua.asnumpy(xv.copy()), hv)
    with np.errstate(all="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.testing.assert_array_equal(ua.asnumpy(xv.astype(target)), hv.astype(target))
    iface = xv.__sycl_usm_array_interface__
    from conftest import Holder

    back = ua.asarray(Holder(iface, keep=xv))
    np.testing.assert_array_equal(ua.asnumpy(back), hv)


@pytest.mark.parametrize("device", [d.filter_string for d in ua.get_devices()])
@pytest.mark.parametrize("usm_type", ["device", "shared", "host"])
def test_asarray_of_a_sequence_holding_arrays_copies_their_elements(device, usm_type):
    """Nested lists and tuples of arrays (0-d or not), mixed with Python
    scalars, build an array as NumPy builds one of NumPy arrays, from any
    kind of memory (device memory included, which NumPy cannot read)."""
    host = np.arange(6, dtype="i4").reshape(2, 3)
    x = ua.asarray(host, device=device, usm_type=usm_type)
    transposed = [[x[i, j] for i in range(2)] for j in range(3)]
    assert ua.asnumpy(ua.asarray(transposed, dtype=x.dtype)).tolist() == host.T.tolist()
    mixed = (x[0], [7, 8, 9])
    want = np.asarray((host[0], [7, 8, 9]))
    got = ua.asarray(mixed)
    assert got.dtype == want.dtype and ua.asnumpy(got).tolist() == want.tolist()
    assert ua.asarray([x, x]).shape == (2, 2, 3)
    row = x[0]
    outer = [row, [7, 8, 9]]
    ua.asarray(outer)
    assert outer[0] is row  # the caller's list is left as it was
