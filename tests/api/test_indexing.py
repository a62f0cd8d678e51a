"""Indexing by integer arrays and boolean masks, take, take_along_axis, and
the creation functions made by the backends' fill kernels, against NumPy:
on the default device and on a SYCL device where one exists."""

import numpy as np
import pytest
import usmarray as ua

DEVICES = [None] + [d.filter_string for d in ua.get_devices(backend="sycl")[:1]]


@pytest.fixture(params=DEVICES, ids=lambda d: d or "default")
def dev(request):
    return request.param


def same(got, expected):
    got = ua.asnumpy(got)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert np.array_equal(got, expected, equal_nan=True), (got, expected)


def on(dev, a):
    return ua.asarray(np.asarray(a), device=dev)


KEYS = [
    [0, 2],
    [[1, -1], [0, 0]],
    (slice(None), [1, -1]),
    (Ellipsis, [0]),
    ([0, 1], [1, 2]),
    ([0], slice(None), [2]),
    (0, slice(None), [1, 2]),
    (slice(None), [0], 1),
    ([0], None, [1]),
    (None, [1, 0]),
    (slice(None, None, -1), [[0], [1]]),
    True,
    False,
    (Ellipsis, True),
    (False, [0]),
    [],
]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_integer_array_keys_match_numpy(dev, key):
    xn = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    x = on(dev, xn)
    expected = xn[key]
    same(x[key], expected)
    # The same key with the lists as arrays of the device.
    if isinstance(key, tuple):
        k2 = tuple(on(dev, np.array(k, dtype=np.int64)) if isinstance(k, list) else k for k in key)
        same(x[k2], expected)


@pytest.mark.parametrize("dtype", ["?", "i1", "u2", "i4", "f2", "f8", "c8", "c16"])
def test_gather_and_scatter_every_itemsize(dev, dtype):
    rng = np.random.default_rng(1)
    xn = (rng.standard_normal((7, 6)) * 10).astype(dtype)
    x = on(dev, xn)
    idx = rng.integers(-7, 7, 11)
    same(x[idx], xn[idx])
    same(x[:, [5, 0, -1]], xn[:, [5, 0, -1]])
    same(ua.take(x, on(dev, idx), axis=0), np.take(xn, idx, axis=0))
    vals = (rng.standard_normal((3, 6)) * 10).astype(dtype)
    xn[[1, 4, 6]] = vals
    x[[1, 4, 6]] = on(dev, vals)
    same(x, xn)


def test_masks_match_numpy(dev):
    rng = np.random.default_rng(2)
    xn = rng.standard_normal((5, 4, 3))
    x = on(dev, xn)
    for mask in (
        xn > 0,
        xn[:, :, 0] > 0,
        xn[:, 0, 0] > 0,
        np.zeros(5, bool),
        np.ones((5, 4), bool),
    ):
        same(x[on(dev, mask)], xn[mask])
        same(x[mask], xn[mask])
    m2 = xn[0] > 0
    same(x[1, m2], xn[1, m2])
    same(x[:, m2], xn[:, m2])
    same(x[..., xn[0, 0] > 0], xn[..., xn[0, 0] > 0])
    # A transposed array takes the coordinates' path.
    same(x.mT[xn.transpose(0, 2, 1) > 0], xn.transpose(0, 2, 1)[xn.transpose(0, 2, 1) > 0])
    # Nonzero bytes other than 1 in a mask are true.
    raw = np.array([0, 2, 255, 0, 1], np.uint8).view(np.bool_)
    same(on(dev, np.arange(5.0))[on(dev, raw)], np.arange(5.0)[raw != 0])


def test_an_empty_mask_follows_numpys_rule(dev):
    # NumPy 2 matches each axis of a boolean index to the array's, but an
    # axis of length 0 selects nothing on an axis of any length.
    xn = np.arange(6).reshape(2, 3)
    x = on(dev, xn)
    for shape in [(0,), (0, 3), (2, 0), (0, 0)]:
        mask = np.zeros(shape, bool)
        same(x[on(dev, mask)], xn[mask])
        same(x[mask], xn[mask])
    same(x[..., np.zeros(0, bool)], xn[..., np.zeros(0, bool)])
    same(on(dev, np.arange(2))[np.array([], bool)], np.arange(2)[np.array([], bool)])
    for shape in [(0, 2), (3, 0), (1,)]:
        with pytest.raises(IndexError, match="boolean index did not match"):
            x[on(dev, np.zeros(shape, bool))]
    y = on(dev, np.arange(2))
    y[on(dev, np.zeros(0, bool))] = 5
    same(y, np.arange(2))


def test_large_mask_crosses_tiles(dev):
    rng = np.random.default_rng(3)
    xn = rng.standard_normal(100_003).astype(np.float32)
    mask = rng.random(100_003) < 0.3
    x = on(dev, xn)
    same(x[on(dev, mask)], xn[mask])
    rows = rng.standard_normal((9_001, 3))
    rmask = rng.random(9_001) < 0.5
    same(on(dev, rows)[on(dev, rmask)], rows[rmask])


def test_setitem_casts_and_broadcasts(dev):
    xn = np.zeros((4, 5), np.int32)
    x = on(dev, xn)
    mask = np.arange(20).reshape(4, 5) % 3 == 0
    x[on(dev, mask)] = 7.9
    xn[mask] = 7.9
    x[[0, 2], 1:3] = on(dev, np.array([[1.5], [2.5]]))
    xn[[0, 2], 1:3] = np.array([[1.5], [2.5]])
    x[:, [4]] = -1
    xn[:, [4]] = -1
    same(x, xn)
    with pytest.raises(ValueError):
        x[[0, 1]] = on(dev, np.ones((3, 5)))


def test_out_of_bounds_indices_raise(dev):
    x = on(dev, np.arange(12.0).reshape(3, 4))
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        x[[0, 3]]
    with pytest.raises(IndexError, match="index -5 is out of bounds for axis 1 with size 4"):
        x[[0], [-5]]
    with pytest.raises(IndexError, match="out of bounds for axis 1"):
        x[:, [4]] = 1
    with pytest.raises(IndexError, match="out of bounds"):
        ua.take(x, on(dev, [7]), axis=1)
    with pytest.raises(IndexError, match="size 0"):
        on(dev, np.zeros((0, 2)))[[0]]
    # Nothing was written by the failed assignment.
    same(x, np.arange(12.0).reshape(3, 4))


def test_index_arrays_of_another_queue_are_refused(dev):
    if dev is None or len(DEVICES) < 2:
        pytest.skip("needs two devices")
    x = on(dev, np.arange(4))
    with pytest.raises(ValueError, match="queue"):
        x[ua.asarray(np.array([0, 1]), device=DEVICES[0])]


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_take_and_take_along_axis(dev, axis):
    rng = np.random.default_rng(4)
    xn = rng.standard_normal((4, 6))
    idx = rng.integers(-4, 4, (2, 3))
    same(ua.take(on(dev, xn), on(dev, idx), axis=axis), np.take(xn, idx, axis=axis))
    n = xn.shape[axis]
    along = rng.integers(-n, n, (4, 6))
    along = np.take(along, np.arange(3), axis=axis)
    same(
        ua.take_along_axis(on(dev, xn), on(dev, along), axis=axis),
        np.take_along_axis(xn, along, axis=axis),
    )
    # The other axes broadcast.
    b = rng.integers(0, 4, (4, 1)) if axis != 0 else rng.integers(0, 4, (1, 6))
    same(
        ua.take_along_axis(on(dev, xn), on(dev, b), axis=axis), np.take_along_axis(xn, b, axis=axis)
    )
    same(ua.take(on(dev, xn[0]), on(dev, [5, 0])), xn[0][[5, 0]])


@pytest.mark.parametrize(
    "dtype", ["i1", "u1", "i2", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"]
)
def test_arange_is_numpys(dev, dtype):
    for args in [(10,), (3, 40, 3), (5, -7, -2), (0, 0), (2, 30, 7)]:
        if dtype[0] == "u" and args[-1] < 0:
            continue  # values below 0 raise here, where NumPy wraps them
        same(ua.arange(*args, dtype=dtype, device=dev), np.arange(*args, dtype=dtype))
    if dtype[0] in "fc":
        for args in [(0.5, 7.3, 0.7), (-1.0, 1.0, 0.1), (1e8, 1e8 + 100, 0.37)]:
            same(ua.arange(*args, dtype=dtype, device=dev), np.arange(*args, dtype=dtype))
    same(ua.arange(0.5, 7.3, 0.7, device=dev), np.arange(0.5, 7.3, 0.7))
    same(ua.arange(5, device=dev), np.arange(5))


@pytest.mark.parametrize("dtype", ["f2", "f4", "f8", "c8", "c16"])
def test_linspace_is_numpys(dev, dtype):
    for start, stop, num, endpoint in [
        (-1.5, 2.25, 17, True),
        (0, 1, 10, False),
        (1, 1e-320, 7, False),
        (3, 3, 4, True),
        (2, 5, 1, True),
        (2, 5, 0, True),
        (0.1, 1e300, 33, True),
    ]:
        same(
            ua.linspace(start, stop, num, dtype=dtype, endpoint=endpoint, device=dev),
            np.linspace(start, stop, num, dtype=dtype, endpoint=endpoint),
        )
    if dtype[0] == "c":
        same(
            ua.linspace(1 + 2j, -3j, 9, dtype=dtype, device=dev),
            np.linspace(1 + 2j, -3j, 9, dtype=dtype),
        )


@pytest.mark.parametrize("dtype", ["?", "i2", "u8", "f2", "f4", "c16"])
def test_eye_tril_triu(dev, dtype):
    for shape, k in [((4, 6), -1), ((5,), 2), ((3, 3), 0), ((0, 3), 0), ((2, 7), 9)]:
        same(ua.eye(*shape, k=k, dtype=dtype, device=dev), np.eye(*shape, k=k, dtype=dtype))
    a = (np.arange(2 * 3 * 4 * 5) % 7).astype(dtype).reshape(2, 3, 4, 5)
    for k in (-5, -1, 0, 2, 6, -(2**62), 2**62):
        same(ua.tril(on(dev, a), k=k), np.tril(a, k=k))
        same(ua.triu(on(dev, a)[..., ::-1, :], k=k), np.triu(a[..., ::-1, :], k=k))


def test_meshgrid(dev):
    a, b, c = np.arange(3), np.arange(4) * 2, np.arange(2) - 5
    for indexing in ("xy", "ij"):
        got = ua.meshgrid(on(dev, a), on(dev, b), on(dev, c), indexing=indexing)
        for g, e in zip(got, np.meshgrid(a, b, c, indexing=indexing)):
            same(g, e)
    assert ua.meshgrid() == ()
    same(ua.meshgrid(on(dev, a))[0], np.meshgrid(a)[0])
