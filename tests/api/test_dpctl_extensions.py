"""dpctl's extension functions of the namespace, against NumPy: take's and
take_along_axis's index modes, put, put_along_axis, place, extract,
squeeze without an axis and sort's kind=, on the default device and on a
SYCL device where one exists."""

import numpy as np
import pytest
import usmarray as ua

DEVICES = [None] + [d.filter_string for d in ua.get_devices(backend="sycl")[:1]]

DTYPES = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"]


@pytest.fixture(params=DEVICES, ids=lambda d: d or "default")
def dev(request):
    return request.param


def same(got, expected):
    got = ua.asnumpy(got)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert np.array_equal(got, expected, equal_nan=True), (got, expected)


def on(dev, a, dtype=None):
    return ua.asarray(np.asarray(a, dtype=dtype), device=dev)


def supported(dev, dtype):
    if dtype in ("f8", "c16") and dev is not None:
        if not ua.Device(dev).has_aspect_fp64:
            pytest.skip("the device has no float64")


def values(dtype, n):
    return (np.arange(n) % 7).astype(dtype)


# -------------------------------------------------------------- take's modes


def wrapped(idx, n):
    """dpctl's "wrap": clamped to [-n, n), negative ones from the end."""
    return np.clip(idx, -n, n - 1) % n


@pytest.mark.parametrize("mode", ["wrap", "clip"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_take_modes_match_numpy(dev, mode, axis):
    xn = np.arange(24, dtype=np.float32).reshape(4, 6)
    n = xn.shape[axis]
    idx = np.array([-100, -n - 1, -n, -1, 0, 2, n - 1, n, 100], dtype=np.int64)
    expected = np.take(xn, idx if mode == "clip" else wrapped(idx, n), axis=axis, mode="clip")
    same(ua.take(on(dev, xn), on(dev, idx), axis=axis, mode=mode), expected)


def test_take_wrap_counts_negative_indices_from_the_end(dev):
    x = on(dev, np.arange(5, dtype=np.int32))
    same(ua.take(x, on(dev, [-4, -3, 0, 2, 4]), mode="wrap"), np.array([1, 2, 0, 2, 4], np.int32))
    same(ua.take(x, on(dev, [-6, -3, 0, 2, 6]), mode="clip"), np.array([0, 0, 0, 2, 4], np.int32))
    # Without a mode an index out of bounds still raises, as the standard's.
    with pytest.raises(IndexError, match="out of bounds"):
        ua.take(x, on(dev, [5]))


@pytest.mark.parametrize("mode", ["wrap", "clip"])
def test_take_modes_of_huge_uint64_indices_clamp_to_the_last(dev, mode):
    x = on(dev, np.arange(10, dtype=np.int32))
    big = np.full(3, np.iinfo(np.uint64).max - 5, dtype=np.uint64)
    same(ua.take(x, on(dev, big), mode=mode), np.full(3, 9, np.int32))


def test_take_of_0d_array_and_empty_indices(dev):
    x = on(dev, np.array(7.5))
    same(ua.take(x, on(dev, [0, 3, -2]), mode="wrap"), np.full(3, 7.5))
    same(ua.take(x, on(dev, [0, 0])), np.full(2, 7.5))
    empty = on(dev, np.zeros((0, 3), np.float32))
    same(
        ua.take(empty, on(dev, np.zeros(0, np.int64)), axis=0, mode="clip"),
        np.zeros((0, 3), np.float32),
    )
    with pytest.raises(IndexError, match="empty axis"):
        ua.take(empty, on(dev, [0]), axis=0, mode="wrap")


def test_take_along_axis_modes(dev):
    xn = np.arange(12, dtype=np.int64).reshape(3, 4)
    idx = np.array([[9, -9, -1, 2]] * 3, dtype=np.int64)
    got = ua.take_along_axis(on(dev, xn), on(dev, idx), axis=1, mode="clip")
    same(got, np.take_along_axis(xn, np.clip(idx, 0, 3), axis=1))
    got = ua.take_along_axis(on(dev, xn), on(dev, idx), axis=-1, mode="wrap")
    same(got, np.take_along_axis(xn, wrapped(idx, 4), axis=1))


@pytest.mark.parametrize("bad", [0, "raise", "Wrap", None.__class__])
def test_bad_modes_raise_value_error(dev, bad):
    x = on(dev, np.arange(4))
    i = on(dev, [0, 1])
    for call in (
        lambda: ua.take(x, i, mode=bad),
        lambda: ua.take_along_axis(x, i, mode=bad),
        lambda: ua.put(x, i, 1, mode=bad),
        lambda: ua.put_along_axis(x, i, 1, mode=bad),
    ):
        with pytest.raises(ValueError, match="mode"):
            call()


# ----------------------------------------------------------------------- put


@pytest.mark.parametrize("dtype", DTYPES)
def test_put_matches_numpy_for_every_dtype(dev, dtype):
    supported(dev, dtype)
    xn = np.zeros(10, dtype=dtype)
    vn = values(dtype, 4) + np.ones(1, dtype=dtype)
    idx = np.array([1, 3, -2, 5], dtype=np.int64)
    x = on(dev, xn)
    assert ua.put(x, on(dev, idx), on(dev, vn)) is None
    np.put(xn, idx, vn)
    same(x, xn)


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_put_along_an_axis_broadcasts_the_values(dev, axis):
    xn = np.arange(60, dtype=np.float64).reshape(3, 4, 5)
    n = xn.shape[axis]
    idx = np.array([n - 1, 0], dtype=np.int64)
    key = (slice(None),) * (axis % 3) + (idx,)
    x = on(dev, xn)
    ua.put(x, on(dev, idx), -1.0, axis=axis)
    xn[key] = -1.0
    same(x, xn)
    vals = -np.arange(xn[key].size, dtype=np.float64).reshape(xn[key].shape)
    ua.put(x, on(dev, idx), on(dev, vals), axis=axis)
    xn[key] = vals
    same(x, xn)


@pytest.mark.parametrize("mode", ["wrap", "clip"])
def test_put_modes(dev, mode):
    xn = np.zeros(5, dtype=np.int32)
    # No two indices land on one element in either mode: which of two
    # writes to one element lands is unspecified (the GPU's scatter).
    idx = np.array([-7, 2, 9], dtype=np.int64)
    x = on(dev, xn)
    ua.put(x, on(dev, idx), on(dev, [1, 2, 3], np.int32), mode=mode)
    target = np.clip(idx, 0, 4) if mode == "clip" else wrapped(idx, 5)
    xn[target] = [1, 2, 3]
    same(x, xn)


def test_put_huge_uint64_index_writes_the_last_element(dev):
    x = on(dev, np.full(10, -1, np.int32))
    ua.put(x, on(dev, np.array([np.iinfo(np.uint64).max - 3], np.uint64)), 4)
    same(x, np.array([-1] * 9 + [4], np.int32))


def test_put_into_0d_array_and_with_casts(dev):
    x = on(dev, np.array(0, np.int16))
    ua.put(x, on(dev, np.arange(5)), on(dev, np.array(2, np.int16)), axis=0)
    same(x, np.array(2, np.int16))
    y = on(dev, np.zeros(4, np.int32))
    ua.put(y, on(dev, [0, 2]), on(dev, [1.75, -3.5], np.float32))
    same(y, np.array([1, 0, -3, 0], np.int32))


def test_put_refuses_bad_arguments(dev):
    x = on(dev, np.arange(4, dtype=np.int32))
    ind = on(dev, np.arange(4))
    with pytest.raises(TypeError):
        ua.put(np.arange(4), ind, 1)
    with pytest.raises(TypeError):
        ua.put(x, [0, 1], 1)
    with pytest.raises(IndexError):
        ua.put(x, on(dev, [0.0, 1.0]), 1)
    with pytest.raises(TypeError):
        ua.put(x, ind, {})
    with pytest.raises(ValueError, match="one-dimensional"):
        ua.put(x, ua.reshape(ind, (2, 2)), 1)
    with pytest.raises(ValueError, match="axis"):
        ua.put(ua.reshape(x, (2, 2)), on(dev, [0]), 1)
    with pytest.raises(IndexError):
        ua.put(x, ind, 1, axis=1)
    with pytest.raises(IndexError, match="empty axis"):
        ua.put(on(dev, np.zeros(0)), on(dev, [0]), 1)
    with pytest.raises(ValueError, match="read-only"):
        ua.put(ua.broadcast_to(x, (2, 4)), on(dev, [0]), 1, axis=1)
    same(x, np.arange(4, dtype=np.int32))


# ------------------------------------------------------------ put_along_axis


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("dtype", ["i4", "u8", "f4", "c8", "?"])
def test_put_along_axis_matches_numpy(dev, axis, dtype):
    rng = np.random.default_rng(1)
    xn = values(dtype, 20).reshape(4, 5)
    idx = np.argsort(rng.random(xn.shape), axis=axis)[(slice(None),) * (axis % 2) + (slice(0, 2),)]
    vn = np.ones(idx.shape, dtype=dtype)
    x = on(dev, xn)
    assert ua.put_along_axis(x, on(dev, idx), on(dev, vn), axis=axis) is None
    np.put_along_axis(xn, idx, vn, axis=axis)
    same(x, xn)


def test_put_along_axis_modes_and_uint64_indices(dev):
    xn = np.zeros((2, 5), np.int32)
    x = on(dev, xn)
    ua.put_along_axis(x, on(dev, [[-1], [7]]), 3, mode="wrap")
    same(x, np.array([[0, 0, 0, 0, 3], [0, 0, 0, 0, 3]], np.int32))
    ua.put_along_axis(x, on(dev, [[-1], [7]]), 5, mode="clip")
    same(x, np.array([[5, 0, 0, 0, 3], [0, 0, 0, 0, 5]], np.int32))
    y = on(dev, np.tile(np.array([0, -1], np.int32), 5))
    ua.put_along_axis(y, on(dev, np.arange(0, 10, 2, dtype=np.uint64)), -1)
    same(y, np.full(10, -1, np.int32))


def test_put_along_axis_refuses_bad_arguments(dev):
    x = on(dev, np.zeros((2, 3)))
    with pytest.raises(TypeError):
        ua.put_along_axis(x, [[0]], 1)
    with pytest.raises(ValueError, match="dimensions"):
        ua.put_along_axis(x, on(dev, [0]), 1)
    with pytest.raises(IndexError):
        ua.put_along_axis(x, on(dev, [[0]]), 1, axis=2)
    with pytest.raises(ValueError, match="at least one dimension"):
        ua.put_along_axis(on(dev, np.float64(0)), on(dev, np.int64(0)), 1)


# ------------------------------------------------------------- place/extract


@pytest.mark.parametrize("dtype", DTYPES)
def test_place_and_extract_match_numpy(dev, dtype):
    supported(dev, dtype)
    xn = values(dtype, 24).reshape(2, 3, 4)
    mn = (np.arange(24).reshape(2, 3, 4) % 3) == 1
    vn = np.ones(3, dtype=dtype)
    same(ua.extract(on(dev, mn), on(dev, xn)), np.extract(mn, xn))
    x = on(dev, xn)
    assert ua.place(x, on(dev, mn), on(dev, vn)) is None
    np.place(xn, mn, vn)
    same(x, xn)


def test_place_cycles_and_casts_values_and_takes_a_nonboolean_mask(dev):
    xn = np.zeros(10, np.float32)
    mn = np.array([0, 2, 0, 1, 1, 0, 5, 1, 0, 3], np.int32)
    vn = np.array([1, 2, 3], np.int64)
    x = on(dev, xn)
    ua.place(x, on(dev, mn), on(dev, vn))
    np.place(xn, mn, vn.astype(np.float32))
    same(x, xn)
    # More values than selected elements: the first ones.
    ua.place(x, on(dev, mn), on(dev, np.arange(100, 120, dtype=np.float32)))
    np.place(xn, mn, np.arange(100, 120, dtype=np.float32))
    same(x, xn)
    same(ua.extract(on(dev, mn), on(dev, xn)), np.extract(mn, xn))


def test_place_and_extract_of_0d_and_empty_arrays(dev):
    x = on(dev, np.float32(4))
    ua.place(x, on(dev, np.bool_(True)), on(dev, [9.0], np.float32))
    same(x, np.array(9, np.float32))
    same(ua.extract(on(dev, np.bool_(True)), x), np.array([9], np.float32))
    same(ua.extract(on(dev, np.bool_(False)), x), np.zeros(0, np.float32))
    e = on(dev, np.zeros((0, 3), np.int8))
    same(ua.extract(on(dev, np.zeros((0, 3), bool)), e), np.zeros(0, np.int8))
    # Nothing selected: empty values are accepted.
    y = on(dev, np.arange(3.0))
    ua.place(y, on(dev, np.zeros(3, bool)), on(dev, np.zeros(0)))
    same(y, np.arange(3.0))


def test_place_and_extract_refuse_bad_arguments(dev):
    x = on(dev, np.arange(4.0))
    m = on(dev, np.array([True, False, True, False]))
    v = on(dev, [1.0])
    for call in (
        lambda: ua.place(np.arange(4.0), m, v),
        lambda: ua.place(x, np.ones(4, bool), v),
        lambda: ua.place(x, m, [1.0]),
        lambda: ua.extract(m, np.arange(4.0)),
        lambda: ua.extract([True] * 4, x),
    ):
        with pytest.raises(TypeError):
            call()
    with pytest.raises(ValueError, match="shape"):
        ua.place(x, on(dev, np.ones(3, bool)), v)
    with pytest.raises(ValueError, match="one-dimensional"):
        ua.place(x, m, on(dev, [[1.0]]))
    with pytest.raises(ValueError, match="empty"):
        ua.place(x, m, on(dev, np.zeros(0)))
    with pytest.raises(ValueError, match="shape"):
        ua.extract(on(dev, np.ones((2, 2), bool)), x)
    with pytest.raises(ValueError, match="read-only"):
        ua.place(ua.broadcast_to(x, (2, 4)), on(dev, np.ones((2, 4), bool)), v)
    same(x, np.arange(4.0))


# ------------------------------------------------------- squeeze, sort(kind=)


@pytest.mark.parametrize("shape", [(1, 3, 1, 2), (1, 1), (2, 3), (), (0, 1)])
def test_squeeze_without_axis_removes_every_axis_of_length_1(dev, shape):
    xn = np.arange(int(np.prod(shape)), dtype=np.int16).reshape(shape)
    x = on(dev, xn)
    same(ua.squeeze(x), np.squeeze(xn))
    same(ua.squeeze(x, axis=None), np.squeeze(xn))
    same(ua.squeeze(x, None), np.squeeze(xn))


def test_squeeze_of_0d_array(dev):
    x = on(dev, np.float32(2.5))
    for axis in (None, 0, -1, (0,)):
        same(ua.squeeze(x, axis), np.array(2.5, np.float32))
    with pytest.raises(IndexError):
        ua.squeeze(x, 1)


def test_take_along_axis_takes_arrays_of_indices_only(dev):
    with pytest.raises(TypeError):
        ua.take_along_axis(on(dev, np.arange(4)), [0, 1])


@pytest.mark.parametrize("kind", [None, "stable", "mergesort", "radixsort"])
@pytest.mark.parametrize("dtype", ["i1", "u4", "i8", "f4", "f8"])
def test_sort_kinds_give_the_stable_order(dev, kind, dtype):
    supported(dev, dtype)
    xn = ((np.arange(40) * 17) % 11 - 5).astype(dtype).reshape(4, 10)
    x = on(dev, xn)
    same(ua.sort(x, kind=kind), np.sort(xn, kind="stable"))
    same(
        ua.sort(x, axis=0, descending=True, kind=kind),
        -np.sort(-xn, axis=0) if dtype[0] != "u" else np.sort(xn, axis=0)[::-1],
    )
    same(ua.argsort(x, kind=kind), np.argsort(xn, kind="stable"))


def test_sort_of_0d_array_and_bad_kinds(dev):
    x = on(dev, np.int32(3))
    same(ua.sort(x), np.array(3, np.int32))
    same(ua.argsort(x, kind="radixsort", axis=-1), np.array(0, np.int64))
    with pytest.raises(IndexError):
        ua.sort(x, axis=1)
    y = on(dev, np.ones(8, np.uint8))
    for bad in ("invalid", Ellipsis, 0, "Stable"):
        with pytest.raises(ValueError, match="kind"):
            ua.sort(y, kind=bad)
        with pytest.raises(ValueError, match="kind"):
            ua.argsort(y, kind=bad)


# ------------------------------------------------- logsumexp, reduce_hypot


def np_logsumexp(xn, axis, keepdims=False):
    m = np.max(xn, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    r = np.log(np.sum(np.exp(xn - m), axis=axis, keepdims=True)) + m
    return r if keepdims else np.squeeze(r, axis=axis)


@pytest.mark.parametrize("dtype", ["f4", "f8"])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
def test_logsumexp_and_reduce_hypot_are_scaled(dev, dtype, axis):
    supported(dev, dtype)
    # Values whose exponentials and squares overflow without the scaling.
    big = 80.0 if dtype == "f4" else 700.0
    xn = (np.random.default_rng(2).normal(size=(3, 4, 5)) * big).astype(dtype)
    x = on(dev, xn)
    tol = 4 * np.finfo(dtype).eps
    got = ua.logsumexp(x, axis=axis)
    axes = tuple(range(3)) if axis is None else axis
    expected = np_logsumexp(xn.astype(np.float64), axes).astype(dtype)
    assert ua.asnumpy(got).dtype == np.dtype(dtype)
    np.testing.assert_allclose(ua.asnumpy(got), expected, rtol=tol)
    assert np.all(np.isfinite(ua.asnumpy(got)))
    scale = np.float64(1e30 if dtype == "f4" else 1e300)
    hn = xn.astype(np.float64) * (scale / big)
    h = ua.reduce_hypot(on(dev, hn.astype(dtype)), axis=axis, keepdims=True)
    expected = np.sqrt(np.sum((hn / scale) ** 2, axis=axes, keepdims=True)) * scale
    np.testing.assert_allclose(ua.asnumpy(h), expected.astype(dtype), rtol=tol)
    tiny = on(dev, np.array([3e-30, 4e-30] if dtype == "f4" else [3e-300, 4e-300], dtype=dtype))
    np.testing.assert_allclose(
        ua.asnumpy(ua.reduce_hypot(tiny)), 5 * ua.asnumpy(tiny)[0] / 3, rtol=tol
    )


def test_logsumexp_special_values(dev):
    inf, nan = np.inf, np.nan
    x = on(dev, np.array([[-inf, -inf], [inf, 1.0], [nan, 1.0], [-inf, 2.0]], np.float32))
    same(ua.logsumexp(x, axis=1), np.array([-inf, inf, nan, 2.0], np.float32))
    same(ua.reduce_hypot(x, axis=1), np.array([inf, inf, nan, inf], np.float32))


@pytest.mark.parametrize("dtype", ["?", "i1", "u2", "i4", "u8", "f2"])
def test_logsumexp_dtypes(dev, dtype):
    x = ua.ones(100, dtype=dtype, device=dev)
    r = ua.logsumexp(x)
    default = ua.__array_namespace_info__().default_dtypes(device=x.device)["real floating"]
    expected_dtype = np.dtype("f2") if dtype == "f2" else default
    assert r.dtype == expected_dtype and r.shape == ()
    np.testing.assert_allclose(float(r), 1 + np.log(100.0), rtol=1e-3 if dtype == "f2" else 1e-6)
    assert float(ua.reduce_hypot(x)) == pytest.approx(10.0, rel=1e-3)
    # An explicit dtype is the result's, computed in floating point first.
    assert ua.logsumexp(x, dtype="i2").dtype == np.int16
    assert int(ua.logsumexp(x, dtype="i2")) == 5
    assert ua.reduce_hypot(x, dtype="c8").dtype == np.complex64


def test_logsumexp_of_empty_and_0d_arrays_and_keepdims(dev):
    a = ua.ones((4, 0, 4), device=dev)
    same(ua.logsumexp(a), np.array(-np.inf))
    same(ua.reduce_hypot(a), np.array(0.0))
    assert ua.logsumexp(a, keepdims=True).shape == (1, 1, 1)
    assert ua.logsumexp(a, axis=(0, 2), keepdims=True).shape == (1, 0, 1)
    same(ua.logsumexp(a, axis=1), np.full((4, 4), -np.inf))
    same(ua.logsumexp(on(dev, np.float32(3.0))), np.array(3.0, np.float32))
    same(ua.reduce_hypot(on(dev, np.float32(-3.0))), np.array(3.0, np.float32))
    m = ua.ones((3, 4, 5, 6), dtype="i4", device=dev)
    assert ua.logsumexp(m, axis=(1, -1), keepdims=True).shape == (3, 1, 5, 1)


def test_logsumexp_and_reduce_hypot_refuse_bad_arguments(dev):
    for fn in (ua.logsumexp, ua.reduce_hypot):
        with pytest.raises(TypeError):
            fn(np.ones(3))
        with pytest.raises(ValueError, match="real values"):
            fn(ua.zeros(2, dtype="c8", device=dev))
        with pytest.raises(IndexError):
            fn(ua.zeros(2, device=dev), axis=1)
        with pytest.raises(TypeError):
            fn(ua.zeros(2, device=dev), dtype="not a dtype")


# --------------------------------------------------------------------- top_k


def np_top_k(xn, k, axis, largest):
    """The first k of a stable sort (of -x for the largest: equal values
    keep their order; xn holds no NaN and no value whose negation wraps)."""
    order = np.argsort(-xn if largest else xn, axis=axis, kind="stable")
    idx = np.take(order, np.arange(k), axis=axis)
    return np.take_along_axis(xn, idx, axis=axis), idx


@pytest.mark.parametrize("mode", ["largest", "smallest"])
@pytest.mark.parametrize("dtype", ["i1", "i4", "i8", "f2", "f4", "f8"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_top_k_matches_a_stable_sort(dev, mode, dtype, axis):
    supported(dev, dtype)
    xn = ((np.arange(60) * 37) % 13 - 6).astype(dtype).reshape(6, 10)
    x = on(dev, xn)
    k = 4
    r = ua.top_k(x, k, axis=axis, mode=mode)
    assert isinstance(r, ua.TopKResult) and r.values is r[0] and r.indices is r[1]
    values, idx = np_top_k(xn, k, axis, mode == "largest")
    same(r.values, values)
    same(r.indices, idx.astype(np.int64))


def test_top_k_of_flattened_and_0d_arrays_and_nans(dev):
    xn = np.array([[3.0, np.nan, -1.0], [7.0, 3.0, 0.5]], np.float32)
    x = on(dev, xn)
    r = ua.top_k(x, 3)
    same(r.values, np.array([np.nan, 7.0, 3.0], np.float32))
    same(r.indices, np.array([1, 3, 0], np.int64))
    r = ua.top_k(x, 2, mode="smallest")
    same(r.values, np.array([-1.0, 0.5], np.float32))
    same(r.indices, np.array([2, 5], np.int64))
    r = ua.top_k(x[:, ::-1], 1, axis=0)
    same(r.values, np.array([[0.5, np.nan, 7.0]], np.float32))
    same(r.indices, np.array([[1, 0, 1]], np.int64))
    same(ua.top_k(x, 0, axis=1).values, np.zeros((2, 0), np.float32))
    a = on(dev, np.int16(5))
    r = ua.top_k(a, 1)
    same(r.values, np.array(5, np.int16))
    same(r.indices, np.array(0, np.int64))
    same(ua.top_k(on(dev, np.zeros((0, 2))), 0, axis=0).indices, np.zeros((0, 2), np.int64))


def test_top_k_refuses_bad_arguments(dev):
    x = on(dev, np.ones((2, 5), np.int64))
    with pytest.raises(TypeError):
        ua.top_k([1, 2], 1)
    with pytest.raises(ValueError, match="non-negative"):
        ua.top_k(x, -1)
    with pytest.raises(TypeError):
        ua.top_k(x, 1.5)
    with pytest.raises(ValueError, match="out of bounds"):
        ua.top_k(x, 6, axis=1)
    with pytest.raises(ValueError, match="out of bounds"):
        ua.top_k(x, 11)
    with pytest.raises(ValueError, match="out of bounds"):
        ua.top_k(on(dev, np.int64(1)), 2)
    with pytest.raises(ValueError, match="mode"):
        ua.top_k(x, 2, mode="invalid")
    with pytest.raises(IndexError):
        ua.top_k(x, 1, axis=2)
