"""Property tests against NumPy as the oracle: constructors, views,
assignment, reshapes, casts and protocol round trips on random layouts."""

import numpy as np
import pytest
import usmarray as ua
from conftest import Holder
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

DTYPES = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"]

SETTINGS = settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])

shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5)
dtypes = st.sampled_from(DTYPES)


def host_copy(a):
    """a as a USM host array of the host backend (whose memory every
    protocol, DLPack included, hands to NumPy) with the same values and C
    layout."""
    x = ua.empty(a.shape, dtype=a.dtype, usm_type="host", queue="host")
    np.asarray(x)[...] = a
    return x


@st.composite
def arrays(draw, min_dims=0, max_dims=4):
    shape = draw(hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=0, max_side=5))
    dtype = draw(dtypes)
    a = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape) % 100
    return a.astype(dtype)


@st.composite
def strided_views(draw):
    """A NumPy array and a random basic index of it."""
    a = draw(arrays(min_dims=1))
    return a, draw(hnp.basic_indices(a.shape, allow_newaxis=True))


def assert_same_view(x, ref):
    assert x.shape == ref.shape
    assert x.dtype == ref.dtype
    np.testing.assert_array_equal(ua.asnumpy(x), ref)
    if ref.size > 0:  # strides of axes of length 1 never matter
        ours = [s * x.itemsize for s, n in zip(x.strides, x.shape) if n > 1]
        assert ours == [s for s, n in zip(ref.strides, ref.shape) if n > 1]
        assert x.flags.c_contiguous == ref.flags.c_contiguous
        assert x.flags.f_contiguous == ref.flags.f_contiguous


@SETTINGS
@given(
    shape=shapes,
    dtype=dtypes,
    order=st.sampled_from("CF"),
    usm_type=st.sampled_from(["device", "shared", "host"]),
)
def test_constructors_lay_out_as_numpy(shape, dtype, order, usm_type):
    ref = np.empty(shape, dtype=dtype, order=order)
    for x in (
        ua.empty(shape, dtype=dtype, order=order, usm_type=usm_type),
        ua.USMArray(shape, dtype=dtype, order=order, buffer=usm_type),
    ):
        assert x.shape == ref.shape and x.dtype == ref.dtype
        assert x.nbytes == ref.nbytes and x.size == ref.size
        assert x.flags.c_contiguous == ref.flags.c_contiguous
        assert x.flags.f_contiguous == ref.flags.f_contiguous
        if ref.size:  # NumPy's strides of empty arrays vary by version
            assert tuple(s * x.itemsize for s in x.strides) == ref.strides
    np.testing.assert_array_equal(
        ua.asnumpy(ua.zeros(shape, dtype=dtype)), np.zeros(shape, dtype=dtype)
    )
    np.testing.assert_array_equal(
        ua.asnumpy(ua.full(shape, 3, dtype=dtype)), np.full(shape, 3, dtype=dtype)
    )


@SETTINGS
@given(strided_views())
def test_basic_indexing_matches_numpy(case):
    a, index = case
    x = host_copy(a)
    view = x[index]
    assert_same_view(view, a[index])
    if view.ndim:
        assert ua.asnumpy(view[...]).tolist() == a[index].tolist()


@SETTINGS
@given(strided_views(), st.integers(-50, 50))
def test_assignment_through_views_matches_numpy(case, value):
    a, index = case
    a = a.copy()
    x = host_copy(a)
    try:
        a[index] = value
    except OverflowError:
        # NumPy 2 refuses a Python integer out of the dtype's range: so do we.
        with pytest.raises(OverflowError):
            x[index] = value
        a[index] = np.asarray(value).astype(a.dtype)
        x[index] = ua.asarray(np.asarray(value))
    else:
        x[index] = value
    np.testing.assert_array_equal(ua.asnumpy(x), a)


@SETTINGS
@given(strided_views(), st.sampled_from(["device", "shared", "host"]))
def test_copies_of_views_match_numpy(case, usm_type):
    a, index = case
    x = ua.asarray(a, usm_type=usm_type)
    ref = a[index]
    for order in "CFAK":
        c = x[index].copy(order=order)
        np.testing.assert_array_equal(ua.asnumpy(c), ref)
    reversed_axes = tuple(range(ref.ndim))[::-1]
    np.testing.assert_array_equal(
        ua.asnumpy(ua.permute_dims(x[index], reversed_axes).copy()), ref.T
    )


@SETTINGS
@given(arrays(min_dims=1), st.data())
def test_permutes_and_reshapes_match_numpy(a, data):
    x = host_copy(a)
    axes = data.draw(st.permutations(range(a.ndim)))
    assert_same_view(ua.permute_dims(x, tuple(axes)), np.transpose(a, axes))
    order = data.draw(st.sampled_from("CF"))
    new_shape = data.draw(
        st.sampled_from(
            [(a.size,), (1, a.size), (a.size, 1), (-1,)]
            + ([(2, a.size // 2)] if a.size % 2 == 0 else [])
        )
    )
    ref = a.reshape(new_shape, order=order)
    np.testing.assert_array_equal(
        ua.asnumpy(ua.reshape(x.mT if a.ndim > 1 else x, new_shape, order=order)),
        (a.swapaxes(-1, -2) if a.ndim > 1 else a).reshape(new_shape, order=order),
    )
    np.testing.assert_array_equal(ua.asnumpy(x.reshape(new_shape, order=order)), ref)


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@SETTINGS
@given(arrays(), dtypes)
def test_casts_match_numpy(a, dtype):
    x = ua.asarray(a)
    np.testing.assert_array_equal(ua.asnumpy(x.astype(dtype)), a.astype(dtype))


@SETTINGS
@given(strided_views())
def test_protocol_round_trips_share_memory(case):
    a, index = case
    x = host_copy(a)[index]
    ref = a[index]
    # SUAI export and import.
    y = ua.asarray(Holder(x.__sycl_usm_array_interface__, keep=x))
    assert_same_view(y, ref)
    assert y._byte_bounds == x._byte_bounds
    # DLPack to and from NumPy, and to ourselves.
    n = np.from_dlpack(x)
    np.testing.assert_array_equal(n, ref)
    z = ua.from_dlpack(x)
    assert_same_view(z, ref)
    back = ua.from_dlpack(n)
    np.testing.assert_array_equal(ua.asnumpy(back), ref)
    # NumPy's array interface and the buffer protocol.
    m = np.asarray(x)
    np.testing.assert_array_equal(m, ref)
    if ref.size:
        assert m.__array_interface__["data"][0] == x._pointer
        assert n.__array_interface__["data"][0] == x._pointer
        assert z._pointer == x._pointer and back._pointer == x._pointer
        # A write through one side shows through every other.
        first = (0,) * ref.ndim
        y[first] = 1 if ref.dtype == bool else 7
        assert m[first] == n[first] == ua.asnumpy(z)[first] == ua.asnumpy(back)[first]


@SETTINGS
@given(arrays(), st.sampled_from(["device", "shared", "host"]))
def test_host_data_round_trips_by_value(a, usm_type):
    x = ua.asarray(a, usm_type=usm_type)
    assert x.usm_type == usm_type
    np.testing.assert_array_equal(ua.asnumpy(x), a)
    if a.size:  # an empty list cannot say its shape
        np.testing.assert_array_equal(ua.asnumpy(ua.asarray(a.tolist(), dtype=a.dtype)), a)
    mem = ua.MemoryUSMShared(max(a.nbytes, 1))
    if a.nbytes:
        mem.copy_from_host(np.ascontiguousarray(a).view(np.uint8).ravel())
        assert mem.tobytes()[: a.nbytes] == np.ascontiguousarray(a).tobytes()


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype_survives_every_protocol(dtype):
    a = (np.arange(6) % 3).astype(dtype).reshape(2, 3)
    x = host_copy(a)
    for back in (
        np.asarray(x),
        np.from_dlpack(x),
        np.asarray(memoryview(x)),
        ua.asnumpy(ua.asarray(Holder(x.__sycl_usm_array_interface__, keep=x))),
    ):
        np.testing.assert_array_equal(back, a)
        assert back.dtype == a.dtype
