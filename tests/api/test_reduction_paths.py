"""The host's fast paths for long dense runs (sum, mean, min, max, argmin,
argmax, cumulative_sum of float32, float64, int64 and uint64; sort and
argsort of rows past the insertion-sort length) against NumPy and against
the general loops, at the lengths where their blocks and lanes begin and
end.  Where the standard fixes the result the bits must equal NumPy's;
floating sums must give the same bits whichever layout computed them."""

import math

import numpy as np
import pytest
import usmarray as ua
from conftest import same_bits, sort_sample, stable_order

FAST = ["float32", "float64", "int64", "uint64"]
LENGTHS = [1, 31, 32, 33, 511, 512, 513, 2047, 2048, 2049, 100_003]


def values(dtype, n, seed=0):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return (rng.standard_normal(n) * 1000).astype(dt)
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)


def strided(h):
    """h's values as a non-dense array (every other element of a doubled
    one), which the general loops take."""
    big = np.empty(h.shape[:-1] + (2 * h.shape[-1],), h.dtype)
    big[..., ::2] = h
    return ua.asarray(big, device="host")[..., ::2]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", LENGTHS)
def test_dense_sums_have_the_general_loops_bits(dtype, n):
    h = values(dtype, n)
    x = ua.asarray(h, device="host")
    for fn in (ua.sum, ua.mean):
        same_bits(fn(x), ua.asnumpy(fn(strided(h))))
    # Pairwise: within a few ulps per log2(n) of the exact sum.
    exact = math.fsum(h.astype(np.float64))
    eps = np.finfo(dtype).eps
    bound = 2 * eps * math.log2(n + 1) * float(np.abs(h.astype(np.float64)).sum()) + eps
    assert abs(float(ua.asnumpy(ua.sum(x))) - exact) <= bound


@pytest.mark.parametrize("dtype", ["int64", "uint64"])
def test_dense_integer_sums_wrap_as_numpy(dtype):
    for n in LENGTHS:
        h = values(dtype, n)
        same_bits(ua.sum(ua.asarray(h, device="host")), np.sum(h))


def with_specials(dtype, n, where, what):
    h = values(dtype, n)
    h[where] = what
    return h


@pytest.mark.parametrize("dtype", ["float32", "float64"])
# 2,000,003 elements: min and max of one run split over the threads.
@pytest.mark.parametrize("n", [33, 2049, 100_003, 2_000_003])
def test_min_max_with_nans_and_infinities_as_numpy(dtype, n):
    cases = [
        with_specials(dtype, n, [0], np.nan),
        with_specials(dtype, n, [n // 2], np.nan),
        with_specials(dtype, n, [n - 1], np.nan),
        with_specials(dtype, n, [3, n - 2], [np.inf, -np.inf]),
        with_specials(dtype, n, [n // 3], np.inf),
        np.full(n, np.nan, dtype),
        np.full(n, -np.inf, dtype),
    ]
    for h in cases:
        x = ua.asarray(h, device="host")
        for ours, theirs in ((ua.max, np.max), (ua.min, np.min)):
            got = float(ua.asnumpy(ours(x)))
            want = float(theirs(h))
            assert got == want or (math.isnan(got) and math.isnan(want))


@pytest.mark.parametrize("dtype", FAST)
def test_min_max_of_long_runs_bit_for_bit(dtype):
    for n in LENGTHS:
        h = values(dtype, n, seed=n)
        x = ua.asarray(h, device="host")
        same_bits(ua.max(x), np.max(h))
        same_bits(ua.min(x), np.min(h))


@pytest.mark.parametrize("dtype", FAST)
@pytest.mark.parametrize("n", [1, 33, 2048, 2049, 5000, 100_003])
def test_argmin_argmax_first_occurrence(dtype, n):
    h = values(dtype, n, seed=3)
    # The extreme repeated in a later block, and at the very end.
    if n > 4:
        h[n // 2] = h.max()
        h[-1] = h.max()
        h[n // 3] = h.min()
        h[-2] = h.min()
    x = ua.asarray(h, device="host")
    assert int(ua.asnumpy(ua.argmax(x))) == np.argmax(h)
    assert int(ua.asnumpy(ua.argmin(x))) == np.argmin(h)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [40, 2049, 9000])
def test_argmin_argmax_nans_infinities_and_zeros(dtype, n):
    cases = [
        with_specials(dtype, n, [n - 1], np.nan),
        with_specials(dtype, n, [n // 2, n - 3], np.nan),
        with_specials(dtype, n, [1, n - 1], [np.inf, -np.inf]),
        with_specials(dtype, n, [n - 5, 7], [np.inf, -np.inf]),
        with_specials(dtype, n, [2, n - 1, 5], [-np.inf, np.inf, np.nan]),
        np.where(np.arange(n) % 3 == 0, -0.0, 0.0).astype(dtype),
        np.full(n, np.nan, dtype),
    ]
    for h in cases:
        x = ua.asarray(h, device="host")
        assert int(ua.asnumpy(ua.argmax(x))) == np.argmax(h)
        assert int(ua.asnumpy(ua.argmin(x))) == np.argmin(h)


# 600,001 elements: one run split over the threads at whole 2,048-element
# blocks, 299,008 (the half) among the bounds, where parts' results meet.
SPLIT_AT = 300_000 // 2048 * 2048


@pytest.mark.parametrize("dtype", FAST)
@pytest.mark.parametrize(
    "where",
    [
        [SPLIT_AT - 1, SPLIT_AT],  # ties on either side of the split
        [SPLIT_AT, SPLIT_AT - 1],
        [SPLIT_AT + 5, 600_000],  # the second part's first, then the last
        [2048 * 7 + 31, 2048 * 7 + 32],  # lanes' ends within a block
        [2048 * 9 + 64, 2048 * 9 + 32, 2048 * 9 + 1],  # one lane, rows apart
        [2047, 2048, 4095],  # blocks' ends
    ],
)
def test_argmin_argmax_ties_where_threads_blocks_and_lanes_meet(dtype, where):
    n = 600_001
    h = values(dtype, n, seed=11)
    info = np.finfo(dtype) if np.dtype(dtype).kind == "f" else np.iinfo(dtype)
    for extreme, ours, theirs in (
        (info.max, ua.argmax, np.argmax),
        (info.min, ua.argmin, np.argmin),
    ):
        g = h.copy()
        g[where] = extreme
        got = int(ua.asnumpy(ours(ua.asarray(g, device="host"))))
        assert got == theirs(g) == min(where)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_argmin_argmax_first_nan_and_signed_zeros_over_threads(dtype):
    n = 600_001
    cases = [
        with_specials(dtype, n, [SPLIT_AT + 3], np.nan),
        with_specials(dtype, n, [SPLIT_AT + 3, SPLIT_AT - 2], np.nan),
        with_specials(dtype, n, [1, SPLIT_AT + 7, 500_000], [np.inf, np.nan, np.nan]),
        with_specials(dtype, n, [SPLIT_AT - 1, SPLIT_AT], [-np.inf, np.nan]),
        with_specials(dtype, n, [5, 400_000], [np.inf, np.inf]),
        np.where(np.arange(n) >= SPLIT_AT, 0.0, -0.0).astype(dtype),
        np.where(np.arange(n) % 5 == 4, 0.0, -0.0).astype(dtype),
    ]
    for h in cases:
        x = ua.asarray(h, device="host")
        assert int(ua.asnumpy(ua.argmax(x))) == np.argmax(h)
        assert int(ua.asnumpy(ua.argmin(x))) == np.argmin(h)


@pytest.mark.parametrize("dtype", FAST)
@pytest.mark.parametrize("shape", [(300, 4096), (7, 2, 70_001), (5, 31), (2, 3, 0)])
def test_argmin_argmax_along_rows_split_over_threads(dtype, shape):
    h = values(dtype, int(np.prod(shape)), seed=5).reshape(shape)
    if h.size:
        h.reshape(-1, shape[-1])[::3, shape[-1] // 2] = h.max()
        h.reshape(-1, shape[-1])[1::3, -1] = h.min()
        if np.dtype(dtype).kind == "f":
            h.reshape(-1, shape[-1])[2::7, shape[-1] // 3] = np.nan
    x = ua.asarray(h, device="host")
    for ours, theirs in ((ua.argmax, np.argmax), (ua.argmin, np.argmin)):
        for axis in (-1, None) if h.size else (0,):
            np.testing.assert_array_equal(ua.asnumpy(ours(x, axis=axis)), theirs(h, axis=axis))


@pytest.mark.parametrize("dtype", FAST)
@pytest.mark.parametrize("shape", [(40, 2100), (17, 3), (5000, 7), (3, 33, 2049)])
def test_axis0_reductions_over_rows(dtype, shape):
    h = values(dtype, int(np.prod(shape)), seed=7).reshape(shape)
    if np.dtype(dtype).kind == "f":
        h.reshape(-1)[::97] = np.nan
    x = ua.asarray(h, device="host")
    same_bits(ua.max(x, axis=0), np.max(h, axis=0))
    same_bits(ua.min(x, axis=0), np.min(h, axis=0))
    if np.dtype(dtype).kind == "f":
        # Each output adds its rows in the general loops' order.
        same_bits(ua.sum(x, axis=0), ua.asnumpy(ua.sum(strided(h), axis=0)))
        same_bits(ua.mean(x, axis=0), ua.asnumpy(ua.mean(strided(h), axis=0)))
    else:
        same_bits(ua.sum(x, axis=0), np.sum(h, axis=0))


@pytest.mark.parametrize("dtype", FAST)
@pytest.mark.parametrize("shape", [(600, 4096), (100, 5000), (2, 301, 2048)])
def test_axis0_min_max_split_over_threads_by_rows_as_one_pass(dtype, shape):
    # Large enough for the threads, which take ranges of rows and meet in
    # order: the general loops' bits (the first of equal values, the last
    # NaN, its payload included), ties and NaNs on both sides of the split.
    h = values(dtype, int(np.prod(shape)), seed=9).reshape(shape)
    m = h.reshape(-1, shape[-2], shape[-1])
    half = shape[-2] // 2
    if np.dtype(dtype).kind == "f":
        m[:, :half, 0], m[:, half:, 0] = -0.0, 0.0
        m[:, :half, 1], m[:, half:, 1] = 0.0, -0.0
        bits = m.view(np.uint32 if h.itemsize == 4 else np.uint64)
        nan = np.array(np.nan, dtype).view(bits.dtype)
        bits[:, 3, 2], bits[:, half + 1, 2] = nan | 1, nan | 2
        bits[:, half - 1, 3] = nan | 3
        m[:, ::2, 4], m[:, 1::2, 4] = np.inf, -np.inf
    else:
        m[:, :, 0] = 7
        m[:, half + 1, 1] = np.iinfo(dtype).max
        m[:, half - 1, 2] = np.iinfo(dtype).min
    x = ua.asarray(h, device="host")
    for fn in (ua.max, ua.min):
        same_bits(fn(x, axis=-2), ua.asnumpy(fn(strided(h), axis=-2)))
        if np.dtype(dtype).kind != "f":
            same_bits(fn(x, axis=-2), getattr(np, fn.__name__)(h, axis=-2))


@pytest.mark.parametrize("dtype", FAST)
def test_reductions_along_rows_split_over_threads_keep_their_bits(dtype):
    # 300 rows of 4,096: the threads take ranges of rows, each row as one
    # thread alone would.
    h = values(dtype, 300 * 4096, seed=13).reshape(300, 4096)
    if np.dtype(dtype).kind == "f":
        h[7, 100] = np.nan
    x = ua.asarray(h, device="host")
    for fn in (ua.sum, ua.mean, ua.max, ua.min):
        if fn is ua.mean and np.dtype(dtype).kind != "f":
            continue
        same_bits(fn(x, axis=-1), ua.asnumpy(fn(strided(h), axis=-1)))


@pytest.mark.parametrize("dtype", FAST)
@pytest.mark.parametrize("n", [1, 2, 1000, 70_001])
def test_dense_cumulative_sum_bit_for_bit(dtype, n):
    h = values(dtype, n, seed=11)
    if np.dtype(dtype).kind == "f":
        h[n // 2] = np.nan
    x = ua.asarray(h, device="host")
    same_bits(ua.cumulative_sum(x), np.cumulative_sum(h))
    same_bits(
        ua.cumulative_sum(x, include_initial=True),
        np.cumulative_sum(h, include_initial=True),
    )


SORTED = [
    "bool",
    "int8",
    "uint8",
    "int16",
    "uint16",
    "float16",
    "int32",
    "uint32",
    "float32",
    "int64",
    "uint64",
    "float64",
]


# 64-bit integers also within +-5,000, whose keys take 32 bits.
KEY_CASES = [(t, False) for t in SORTED] + [("int64", True), ("uint64", True)]


@pytest.mark.parametrize(("dtype", "narrow"), KEY_CASES)
# 400,000 elements take the long rows' path: split into buckets by the top
# digit over threads, buckets past the cache split again.
@pytest.mark.parametrize("n", [65, 300, 5000, 70_000, 400_000])
@pytest.mark.parametrize("descending", [False, True])
def test_radix_sort_and_argsort_stable_bit_for_bit(dtype, narrow, n, descending):
    h = sort_sample(dtype, n, n, narrow)
    order = stable_order(h, descending)
    x = ua.asarray(h, device="host")
    same_bits(ua.argsort(x, descending=descending), order.astype(np.int64))
    same_bits(ua.sort(x, descending=descending), h[order])


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint32"])
def test_long_sort_with_one_crowded_bucket(dtype):
    """Two outliers stretch the key range, so the top digit puts almost
    every key in one bucket, which is split on down to insertion."""
    rng = np.random.default_rng(11)
    dt = np.dtype(dtype)
    if dt.kind == "f":
        h = rng.random(600_000).astype(dt)
        h[[5, 7]] = [np.finfo(dt).max, np.finfo(dt).min]
        h[100::1000] = h[99::1000]  # runs of equal keys
    else:
        info = np.iinfo(dt)
        h = rng.integers(0, 1 << 20, 600_000).astype(dt)
        h[[5, 7]] = [info.max, info.min]
    for descending in (False, True):
        x = ua.asarray(h, device="host")
        same_bits(ua.sort(x, descending=descending), h[stable_order(h, descending)])


@pytest.mark.parametrize("dtype", ["float32", "int32", "uint32"])
@pytest.mark.parametrize("n", [262_144, 262_145, 400_003, 1 << 20])
def test_long_sort_of_4_byte_keys_with_few_specials(dtype, n):
    """Rows of 4-byte keys long enough for the buckets of their top bits
    (where the CPU has AVX-512) and spread enough to take them: a few
    signed zeros, infinities and NaNs of several payloads, none crowding a
    bucket, so the values whose keys lose them come back from the side."""
    rng = np.random.default_rng(n)
    dt = np.dtype(dtype)
    if dt.kind == "f":
        h = (rng.standard_normal(n) * 1000).astype(dt)
        h[1::997] = -0.0
        h[2::1009] = 0.0
        h[3::1013] = np.inf
        h[4::1019] = -np.inf
        u = h.view(np.uint32)
        nan = np.array(np.nan, dt).view(np.uint32)
        u[5::1021] = nan | 3
        u[6::1031] = nan | 0x80000000
    else:
        info = np.iinfo(dt)
        h = rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)
        h[::1000] = h[7]  # a run of equal keys
    x = ua.asarray(h, device="host")
    for descending in (False, True):
        same_bits(ua.sort(x, descending=descending), h[stable_order(h, descending)])


@pytest.mark.parametrize("dtype", ["float32", "int64", "uint8"])
def test_sort_rows_of_a_matrix(dtype):
    h = sort_sample(dtype, 64 * 300, 1, True).reshape(64, 300)
    x = ua.asarray(h, device="host")
    for axis in (0, 1):
        same_bits(
            ua.sort(x, axis=axis),
            np.take_along_axis(h, np.argsort(h, axis=axis, kind="stable"), axis),
        )
        same_bits(ua.argsort(x, axis=axis), np.argsort(h, axis=axis, kind="stable"))


def test_sort_of_equal_keys_and_extremes():
    for dtype in ("int64", "uint64", "int32", "float64"):
        dt = np.dtype(dtype)
        lo, hi = (
            (np.finfo(dt).min, np.finfo(dt).max)
            if dt.kind == "f"
            else (np.iinfo(dt).min, np.iinfo(dt).max)
        )
        h = np.array([hi, lo, 0, hi, lo] * 30, dtype)
        x = ua.asarray(h, device="host")
        same_bits(ua.sort(x), np.sort(h, kind="stable"))
        same_bits(ua.argsort(x), np.argsort(h, kind="stable"))
        h = np.full(200, 7, dtype)
        same_bits(ua.argsort(ua.asarray(h, device="host")), np.arange(200))


@pytest.mark.parametrize("dtype", ["float16", "int32", "uint8", "bool", "complex64"])
@pytest.mark.parametrize("n", [32, 64, 4096])
def test_runs_of_whole_lanes_in_converted_types(dtype, n):
    # Runs of a multiple of the 32 lanes leave no tail: types read through
    # the conversion tile once divided by a tail of no lanes.
    h = (np.arange(n) % 7).astype(dtype)
    x = ua.asarray(h, device="host")
    for ours, theirs in ((ua.sum, np.sum), (ua.prod, np.prod)):
        np.testing.assert_allclose(ua.asnumpy(ours(x)), theirs(h), rtol=1e-3)
    if np.dtype(dtype).kind != "c":
        same_bits(ua.max(x), np.max(h))
        same_bits(ua.min(x), np.min(h))
    assert bool(ua.asnumpy(ua.any(x))) == bool(np.any(h))


@pytest.mark.parametrize("dtype", FAST)
def test_columns_on_the_threads_have_each_columns_bits(dtype):
    """A reduction down the rows of a large matrix (its columns split over
    the host's threads): min and max equal NumPy's, NaN propagating in the
    columns that hold one; each column's value is the same whichever
    columns are reduced with it (the two halves on their own, a narrow
    slice), so the split cannot change a float sum's bits."""
    h = values(dtype, 2048 * 4100, seed=3).reshape(2048, 4100)
    if h.dtype.kind == "f":
        h[::7, 5] = np.nan
        h[1000, 4099] = np.nan
    x = ua.asarray(h, device="host")
    for name in ("min", "max"):
        same_bits(getattr(ua, name)(x, axis=0), getattr(np, name)(h, axis=0))
    whole = ua.asnumpy(ua.sum(x, axis=0))
    halves = np.concatenate([ua.asnumpy(ua.sum(x[:, :2050], axis=0)),
                             ua.asnumpy(ua.sum(x[:, 2050:], axis=0))])  # fmt: skip
    same_bits(whole, halves)
    same_bits(whole[3:70], ua.asnumpy(ua.sum(x[:, 3:70], axis=0)))
    if h.dtype.kind != "f":
        same_bits(whole, np.sum(h, axis=0, dtype=h.dtype))
