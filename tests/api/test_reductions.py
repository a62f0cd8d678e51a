"""Reductions, scans, searches, sorts, sets and products against NumPy on
the host: every dtype, axis combinations, layouts, NaN patterns and empty
shapes.  Where the standard fixes the result (integers, min/max, sorting,
cumulative sums in sequence: on the host, and for runs of up to a tile on
the GPUs), the bits must equal NumPy's; floating sums must be within the
pairwise bound of a float64 reference.  Every test runs
on the first device of each backend the machine has (host, SYCL, CUDA),
whose kernels differ: the host's loops, the run-time compiled ones'
shared kernel text."""

import itertools
import math
import os
import warnings

import numpy as np
import pytest
import usmarray as ua
from conftest import first_device_of_each_backend, same_bits, sort_sample, stable_order

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
ALL = ["bool", *INTS, *FLOATS, *COMPLEX]


# A CPU device computes on the host's loops; "+own" runs it on its own
# kernels too (USMARRAY_DEVICE_KERNELS=1): the GPU kernel text, which a
# machine without a GPU reaches only so.
OWN = "+own"
DEVICES = first_device_of_each_backend()
DEVICES += [
    d + OWN for d in DEVICES if not d.startswith("host") and ua.Device(d).device_type == "cpu"
]
DEVICE = DEVICES[0]


@pytest.fixture(params=DEVICES, autouse=True)
def device(request, monkeypatch):
    """Runs each test on each backend's first device: on_device() below
    makes arrays there."""
    global DEVICE
    DEVICE = request.param
    if DEVICE.endswith(OWN):
        DEVICE = DEVICE[: -len(OWN)]
        monkeypatch.setenv("USMARRAY_DEVICE_KERNELS", "1")
    return request.param


def sample(dtype, shape, seed=0, nans=False):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = max(info.min, -100), min(info.max, 100)
        return rng.integers(lo, hi, size=shape, endpoint=True).astype(dt)
    x = rng.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    x = x.astype(dt)
    if nans and x.size:
        flat = x.reshape(-1)
        flat[rng.integers(0, x.size, size=max(1, x.size // 7))] = np.nan
    return x


def layouts(x):
    """x as C-ordered, Fortran-ordered, strided and reversed arrays."""
    yield "C", x
    yield "F", np.asfortranarray(x)
    if x.ndim:
        big = np.concatenate([x, x], axis=-1)
        yield "strided", big[..., ::2]
        yield "reversed", x[::-1]


def on_device(x):
    return ua.asarray(x, device=DEVICE)


def runs_host_kernels(device):
    """Whether the host's loops compute on device: the host's, and a CPU
    device's unless USMARRAY_DEVICE_KERNELS keeps its own."""
    if device.startswith("host"):
        return True
    own = os.environ.get("USMARRAY_DEVICE_KERNELS", "0") not in ("", "0")
    return ua.Device(device).device_type == "cpu" and not own


def axes_of(nd):
    yield None
    for k in range(nd):
        yield k
        yield k - nd
    for r in range(2, nd + 1):
        yield from itertools.combinations(range(nd), r)
    yield ()


def check_same(got, want):
    got = ua.asnumpy(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


# ----------------------------------------------------------------- sums


def sum_dtype(dt):
    dt = np.dtype(dt)
    if dt.kind in "bi":
        return np.dtype("int64")
    if dt.kind == "u":
        return np.dtype("uint64")
    return dt


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("shape", [(), (0,), (7,), (3, 0), (5, 6), (3, 4, 5)])
def test_sum_and_prod_match_numpy(dtype, shape):
    x = sample(dtype, shape, nans=False)
    for name, lay in layouts(x):
        a = on_device(lay)
        for axis in axes_of(len(shape)):
            for keepdims in (False, True):
                for fn in ("sum", "prod"):
                    got = getattr(ua, fn)(a, axis=axis, keepdims=keepdims)
                    want = getattr(np, fn)(
                        lay, axis=axis, keepdims=keepdims, dtype=sum_dtype(dtype)
                    )
                    g = ua.asnumpy(got)
                    assert g.dtype == want.dtype and g.shape == want.shape, (fn, name, axis)
                    if np.dtype(dtype).kind in "fc":
                        tol = 1e-2 if dtype in ("float16",) else 1e-5
                        np.testing.assert_allclose(
                            g, want, rtol=tol, atol=tol, err_msg=f"{fn} {name} {axis}"
                        )
                    else:
                        np.testing.assert_array_equal(g, want, err_msg=f"{fn} {name} {axis}")


def test_integer_sums_wrap_as_numpy():
    x = np.array([2**62, 2**62, 2**62, 7], dtype=np.int64)
    check_same(ua.sum(on_device(x)), np.sum(x))
    y = np.full(300, 200, dtype=np.uint8)
    check_same(ua.sum(on_device(y), dtype="uint8"), np.sum(y, dtype=np.uint8))
    check_same(ua.prod(on_device(y[:5]), dtype="uint8"), np.prod(y[:5], dtype=np.uint8))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_sums_are_pairwise(dtype):
    """The error of a long sum stays near log2(n) ulps, against an exact
    float64 (or long double) reference; a sequential sum misses this."""
    n = 1 << 20
    x = np.full(n, 0.1, dtype=dtype)
    exact = float(np.sum(x.astype(np.longdouble)))
    got = float(ua.asnumpy(ua.sum(on_device(x))))
    eps = np.finfo(dtype).eps
    assert abs(got - exact) <= 30 * eps * exact
    seq = np.cumsum(x)[-1]  # NumPy's cumsum adds in sequence
    assert abs(got - exact) < abs(float(seq) - exact)
    # Along axis 0 too (the kept axis as lanes).
    m = np.full((n // 16, 16), 0.1, dtype=dtype)
    col = ua.asnumpy(ua.sum(on_device(m), axis=0))
    assert np.all(np.abs(col - exact / 16) <= 30 * eps * exact / 16)


def test_sums_give_the_same_bits_every_run():
    x = sample("float32", (1000, 333), seed=3)
    a = on_device(x)
    first = [ua.asnumpy(ua.sum(a, axis=ax)) for ax in (None, 0, 1)]
    for _ in range(3):
        for ax, want in zip((None, 0, 1), first):
            assert ua.asnumpy(ua.sum(a, axis=ax)).tobytes() == want.tobytes()


def pairwise_bound(x, n):
    """The error bound of a pairwise sum of x (float32 parts, n terms)."""
    return 4 * np.log2(max(n, 2)) * np.finfo(np.float32).eps * np.abs(x).astype("f8").sum()


def test_long_runs_across_partial_levels():
    """Runs longer than one kernel launch reduces (partials of partials on
    the GPU): sums within the pairwise bound, first extrema and NaNs."""
    n = 4096 * 4096 + 4097
    x = sample("float32", (n,), seed=5)
    a = on_device(x)
    want = x.astype("f8").sum()
    assert abs(float(ua.asnumpy(ua.sum(a))) - want) <= pairwise_bound(x, n)
    assert abs(float(ua.asnumpy(ua.mean(a))) - want / n) <= pairwise_bound(x, n) / n
    check_same(ua.max(a), np.max(x))
    check_same(ua.argmin(a), np.argmin(x))
    y = np.zeros(n, "float32")
    y[[5000, 9000, n - 1]] = 1
    check_same(ua.argmax(on_device(y)), np.argmax(y))
    y[[70000, 20000, n - 2]] = np.nan
    check_same(ua.argmax(on_device(y)), np.argmax(y))
    check_same(ua.max(on_device(y)), np.max(y))
    for dtype in ("int8", "uint16", "bool"):
        v = sample(dtype, (20001,), seed=10)
        check_same(ua.sum(on_device(v)), np.sum(v))
        check_same(ua.argmax(on_device(v)), np.argmax(v))
    h = sample("float16", (20001,), seed=11)
    assert ua.sum(on_device(h)).dtype == np.float16
    np.testing.assert_allclose(float(ua.asnumpy(ua.sum(on_device(h)))), h.astype("f8").sum(),
                               rtol=1e-2, atol=0.5)  # fmt: skip
    check_same(ua.argmin(on_device(h)), np.argmin(h))
    b = x > 0
    check_same(ua.count_nonzero(on_device(b)), np.int64(np.count_nonzero(b)))
    check_same(ua.all(on_device(b)), np.all(b))
    check_same(ua.any(on_device(b)), np.any(b))


def test_many_neighbouring_outputs():
    """Reductions along axis 0 with many outputs (a thread per output on
    the GPU) and along the last axis with short runs."""
    for shape in [(300, 2500), (1000, 1100)]:
        check_neighbouring_outputs(sample("float32", shape, seed=6))
    short = sample("int16", (40000, 5), seed=7)
    check_same(ua.sum(on_device(short), axis=1), np.sum(short, axis=1))
    # Partials of another type than the elements' (split runs).
    b = sample("int8", (300, 1100), seed=18)
    check_same(ua.sum(on_device(b), axis=0), np.sum(b, axis=0))
    check_same(ua.count_nonzero(on_device(b), axis=0), np.count_nonzero(b, axis=0).astype("int64"))
    check_same(ua.any(on_device(b > 90), axis=0), np.any(b > 90, axis=0))
    h = sample("float16", (300, 1100), seed=19)
    np.testing.assert_allclose(
        ua.asnumpy(ua.sum(on_device(h), axis=0)).astype("f8"), h.astype("f8").sum(axis=0),
        rtol=1e-2, atol=0.1,
    )  # fmt: skip


def check_neighbouring_outputs(x):
    a = on_device(x)
    for axis in (0, 1):
        got = ua.asnumpy(ua.sum(a, axis=axis)).astype("f8")
        want = x.astype("f8").sum(axis=axis)
        bound = 4 * np.log2(x.shape[axis]) * np.finfo(np.float32).eps
        assert np.all(np.abs(got - want) <= bound * np.abs(x).astype("f8").sum(axis=axis))
        check_same(ua.max(a, axis=axis), np.max(x, axis=axis))
        check_same(ua.argmin(a, axis=axis), np.argmin(x, axis=axis))
        np.testing.assert_allclose(
            ua.asnumpy(ua.var(a, axis=axis, correction=1)), np.var(x, axis=axis, ddof=1),
            rtol=1e-4,
        )  # fmt: skip


def test_long_sorts_are_stable():
    x = sample("int8", (50001,), seed=8)
    a = on_device(x)
    check_same(ua.sort(a), np.sort(x, kind="stable"))
    check_same(ua.argsort(a), np.argsort(x, kind="stable"))
    check_same(ua.argsort(a, descending=True), np.argsort(-x.astype("i2"), kind="stable"))
    f = sample("float32", (3, 7777), seed=9, nans=True)
    check_same(ua.sort(on_device(f), axis=1), np.sort(f, axis=1))
    check_same(ua.argsort(on_device(f), axis=1), np.argsort(f, axis=1, kind="stable"))


# Past a tile of the CUDA radix sort (4,096 keys of 2 or 4 bytes, 2,048 of
# 8): one tile, a tile and one, and enough tiles that each waits on the
# counts of many before it.
@pytest.mark.parametrize(
    "dtype", ["float16", "float32", "float64", "int16", "uint16", "int32", "uint32", "int64"]
)
@pytest.mark.parametrize("n", [4096, 4097, 300_001])
@pytest.mark.parametrize("descending", [False, True])
def test_long_radix_sorts_keep_bits_and_order(dtype, n, descending):
    h = sort_sample(dtype, n, n, False)
    order = stable_order(h, descending)
    a = on_device(h)
    same_bits(ua.sort(a, descending=descending), h[order])
    same_bits(ua.argsort(a, descending=descending), order.astype(np.int64))


# Five hundred tiles and more, many waiting on the counts of others at once,
# keys of few distinct values (long runs of one digit in each pass, whose
# order the argsort keeps), then of as many as the dtype takes.
@pytest.mark.parametrize("dtype", ["float16", "float32", "int64"])
@pytest.mark.parametrize("distinct", [7, None])
def test_radix_sorts_of_many_tiles(dtype, distinct):
    h = sort_sample(dtype, (1 << 21) + 3, 4, False)
    if distinct is not None:
        h = h[np.random.default_rng(4).integers(0, distinct, size=h.size)]
    a = on_device(h)
    for descending in (False, True):
        order = stable_order(h, descending)
        same_bits(ua.sort(a, descending=descending), h[order])
        same_bits(ua.argsort(a, descending=descending), order.astype(np.int64))


@pytest.mark.parametrize("dtype", ["float32", "int64", "uint16"])
def test_long_radix_sorts_of_rows(dtype):
    h = sort_sample(dtype, 5 * 9001, 3, True).reshape(5, 9001)
    h[2] = h[2, 0]  # a row of one key: one digit a pass
    a = on_device(h)
    for descending in (False, True):
        order = np.stack([stable_order(r, descending) for r in h])
        same_bits(ua.sort(a, descending=descending), np.take_along_axis(h, order, axis=1))
        same_bits(ua.argsort(a, descending=descending), order.astype(np.int64))


def test_sum_of_negative_zeros_and_empty():
    check_same(ua.sum(on_device(np.array([-0.0, -0.0]))), np.sum(np.array([-0.0, -0.0])))
    check_same(ua.sum(on_device(np.zeros((0,), "float32"))), np.float32(0))
    check_same(ua.prod(on_device(np.zeros((0, 3), "int8")), axis=0), np.ones(3, "int64"))


def test_sum_dtype_argument():
    x = sample("int32", (10, 4))
    check_same(ua.sum(on_device(x), axis=0, dtype="float32"), np.sum(x, axis=0, dtype="float32"))
    check_same(ua.sum(on_device(x), dtype="int16"), np.sum(x, dtype="int16"))
    z = sample("complex64", (3,))
    check_same(ua.sum(on_device(z), dtype="float32"), np.sum(z.real, dtype="float32"))


# ------------------------------------------------------- min, max, nan


@pytest.mark.parametrize("dtype", ["bool", *INTS, *FLOATS])
@pytest.mark.parametrize("shape", [(), (1,), (9,), (4, 7), (2, 3, 33)])
def test_min_max_match_numpy_bit_for_bit(dtype, shape):
    x = sample(dtype, shape, nans=True)
    for _, lay in layouts(x):
        a = on_device(lay)
        for axis in axes_of(len(shape)):
            for fn in ("min", "max"):
                check_same(getattr(ua, fn)(a, axis=axis), getattr(np, fn)(lay, axis=axis))


def test_min_max_of_nothing_raise():
    a = on_device(np.zeros((0, 3)))
    with pytest.raises(ValueError, match="no identity"):
        ua.max(a)
    check_same(ua.max(a, axis=1), np.max(np.zeros((0, 3)), axis=1))
    with pytest.raises(ValueError, match="no identity"):
        ua.min(on_device(np.ones(0, "complex64")))


# -------------------------------------------------- mean, var and std


@pytest.mark.parametrize("dtype", ["int32", "uint8", *FLOATS, *COMPLEX])
@pytest.mark.parametrize("shape", [(1,), (17,), (6, 5), (3, 4, 65)])
def test_mean_var_std_match_numpy(dtype, shape):
    # var and std of complex values: NumPy's, the mean of |x - mean(x)|**2
    # in the real dtype (the standard leaves complex to the implementation).
    x = sample(dtype, shape, nans=dtype in FLOATS)
    for _, lay in layouts(x):
        a = on_device(lay)
        for axis in axes_of(len(shape)):
            fns = [("mean", {})]
            fns += [(f, {"correction": c}) for f in ("var", "std") for c in (0, 1, 0.5)]
            for fn, kw in fns:
                got = ua.asnumpy(getattr(ua, fn)(a, axis=axis, **kw))
                npkw = {"ddof": kw["correction"]} if kw else {}
                with np.errstate(all="ignore"):
                    want = getattr(np, fn)(lay, axis=axis, **npkw)
                want = np.asarray(want)
                if np.dtype(dtype).kind in "iu":
                    want = want.astype("float64")
                if kw and np.isscalar(want) is False:
                    n = (
                        lay.size
                        if axis is None
                        else int(np.prod([lay.shape[k] for k in np.atleast_1d(axis)]))
                    )
                    if n - kw["correction"] <= 0:
                        want = np.full_like(want, np.nan)
                assert got.dtype == want.dtype, (fn, got.dtype, want.dtype)
                tol = (
                    3e-3
                    if dtype == "float16"
                    else 1e-4
                    if "32" in dtype or "64" == dtype[-2:] and "complex" in dtype
                    else 1e-5
                )
                np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=f"{fn} {axis}")


@pytest.mark.parametrize("fn", ["mean", "var", "std"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex64"])
@pytest.mark.parametrize(
    "shape, axis", [((0,), None), ((0, 3), 0), ((3, 0), 1), ((2, 0, 4), (0, 1))]
)
def test_statistics_of_nothing_are_nan_as_numpy(fn, dtype, shape, axis):
    x = np.zeros(shape, dtype)
    got = ua.asnumpy(getattr(ua, fn)(on_device(x), axis=axis))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = np.asarray(getattr(np, fn)(x, axis=axis))
    if np.dtype(dtype).kind == "i":
        want = want.astype("float64")
    assert got.shape == want.shape and got.dtype == want.dtype
    assert want.size == 0 or np.all(np.isnan(want))
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("fn", ["var", "std"])
@pytest.mark.parametrize("correction", [2, 2.5, 7])
def test_correction_past_the_count_is_nan_as_the_standard_says(fn, correction):
    # NumPy divides by max(N - ddof, 0), which gives inf where the squared
    # deviations are positive; the standard fixes NaN wherever N - correction
    # is not positive, and that is what usmarray gives.
    x = np.array([[1.0, 2.0], [3.0, 3.0]])
    got = ua.asnumpy(getattr(ua, fn)(on_device(x), axis=1, correction=correction))
    assert got.shape == (2,) and np.all(np.isnan(got))


def test_mean_and_var_of_nothing_are_nan():
    assert np.isnan(ua.asnumpy(ua.mean(on_device(np.zeros(0)))))
    assert np.all(np.isnan(ua.asnumpy(ua.var(on_device(np.ones((1, 3))), axis=0, correction=1))))
    with pytest.raises(ValueError, match="correction"):
        ua.var(on_device(np.ones(3)), correction=-1)
    z = ua.std(on_device(np.array([1 + 1j, 2 - 1j], "complex64")))
    assert z.dtype == ua.float32 and float(z) == pytest.approx(np.std([1 + 1j, 2 - 1j]))


# ---------------------------------------------------- all, any, count


@pytest.mark.parametrize("dtype", ALL)
def test_truth_reductions_match_numpy(dtype):
    x = sample(dtype, (4, 5, 6), nans=True)
    x.reshape(-1)[::3] = 0
    for _, lay in layouts(x):
        a = on_device(lay)
        for axis in axes_of(3):
            check_same(ua.all(a, axis=axis), np.all(lay, axis=axis))
            check_same(ua.any(a, axis=axis), np.any(lay, axis=axis))
            want = np.count_nonzero(lay, axis=axis)
            check_same(ua.count_nonzero(a, axis=axis), np.asarray(want, dtype="int64"))
    check_same(ua.all(on_device(np.zeros((0,), dtype))), np.all(np.zeros((0,), dtype)))
    check_same(ua.any(on_device(np.zeros((0,), dtype))), np.any(np.zeros((0,), dtype)))


# ------------------------------------------------------ argmin, argmax


@pytest.mark.parametrize("dtype", ["bool", *INTS, *FLOATS])
@pytest.mark.parametrize("shape", [(1,), (5000,), (7, 9), (3, 4, 300)])
def test_argmin_argmax_first_occurrence_and_nans(dtype, shape):
    x = sample(dtype, shape, nans=True)
    if np.dtype(dtype).kind in "iu":
        x = x % 4  # many ties
    for _, lay in layouts(x):
        a = on_device(lay)
        for axis in [None, *range(len(shape))]:
            for keepdims in (False, True):
                for fn in ("argmin", "argmax"):
                    check_same(
                        getattr(ua, fn)(a, axis=axis, keepdims=keepdims),
                        np.asarray(getattr(np, fn)(lay, axis=axis, keepdims=keepdims), "int64"),
                    )
    with pytest.raises(ValueError):
        ua.argmax(on_device(np.zeros((0, 2), dtype)))


# --------------------------------------------------------------- scans


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("shape", [(0,), (1,), (50,), (6, 7), (2, 300, 3)])
def test_cumulative_sum_and_prod_bit_for_bit(dtype, shape):
    x = sample(dtype, shape)
    if np.dtype(dtype).kind in "fc":
        x = (x / 4 + 1).astype(dtype)  # keep products finite
    for _, lay in layouts(x):
        a = on_device(lay)
        for axis in range(len(shape)):
            for initial in (False, True):
                for fn, npfn in (
                    ("cumulative_sum", np.cumulative_sum),
                    ("cumulative_prod", np.cumulative_prod),
                ):
                    want = npfn(lay, axis=axis, include_initial=initial, dtype=sum_dtype(dtype))
                    got = getattr(ua, fn)(a, axis=axis, include_initial=initial)
                    if fn == "cumulative_prod" and np.dtype(dtype).kind == "c":
                        # NumPy's complex multiply may fuse; the standard
                        # leaves those bits open.
                        np.testing.assert_allclose(ua.asnumpy(got), want, rtol=1e-6)
                    else:
                        check_same(got, want)


def test_long_cumulative_sums_and_products():
    """Long runs: integers (scanned in tiles on the GPUs, exact in any
    order) and floats (in sequence on the host, NumPy's bits)."""
    x = sample("int32", (3, 50001), seed=15)
    a = on_device(x)
    check_same(ua.cumulative_sum(a, axis=1), np.cumsum(x, axis=1, dtype="int64"))
    got = ua.cumulative_sum(a, axis=1, include_initial=True, dtype="int32")
    want = np.concatenate([np.zeros((3, 1), "int32"), np.cumsum(x, axis=1, dtype="int32")], axis=1)
    check_same(got, want)
    u = np.where(sample("bool", (100000,), seed=16), 3, 1).astype("uint64")
    check_same(ua.cumulative_prod(on_device(u)), np.cumprod(u))
    # Many tiles a run: each from the tiles before it in its own run.
    big = sample("int32", (3, 2_000_001), seed=18)
    check_same(ua.cumulative_sum(on_device(big), axis=1), np.cumsum(big, axis=1, dtype="int64"))
    got = ua.cumulative_sum(on_device(big), axis=1, include_initial=True)
    want = np.concatenate([np.zeros((3, 1), "int64"), np.cumsum(big, axis=1, dtype="int64")], 1)
    check_same(got, want)
    # Elements of the accumulator's type, read as vectors where every row
    # starts 16-byte aligned (rows of 1,000,002 int64), element by element
    # where not (from element 1, and rows of 1,000,003).
    wide = sample("int64", (2, 1_000_003), seed=19)
    a = on_device(wide)
    for part in (wide[:, :-1], wide[:, 1:], wide):
        got = ua.cumulative_sum(on_device(np.ascontiguousarray(part)), axis=1)
        check_same(got, np.cumsum(part, axis=1))
    check_same(ua.cumulative_sum(a[:, 1:], axis=1), np.cumsum(wide[:, 1:], axis=1))
    check_same(
        ua.cumulative_prod(a[:, :100_000] % 3 - 1, axis=1),
        np.cumprod(wide[:, :100_000] % 3 - 1, axis=1),
    )
    # Past the GPU scan's 8,192 parts of one tile each.
    f = sample("float32", (5_000_001,), seed=17)
    got = ua.cumulative_sum(on_device(f))
    if runs_host_kernels(DEVICE):
        check_same(got, np.cumsum(f))  # in sequence, NumPy's bits
    else:
        # The GPU kernels scan long runs in tiles: each prefix within the
        # error of a pairwise sum of the magnitudes before it, and the
        # same bits every run.
        want = np.cumsum(f.astype("f8"))
        bound = 4 * np.log2(f.size) * np.finfo("f4").eps * np.cumsum(np.abs(f).astype("f8"))
        assert np.all(np.abs(ua.asnumpy(got) - want) <= bound)
        for _ in range(3):
            again = ua.cumulative_sum(on_device(f))
            assert ua.asnumpy(again).tobytes() == ua.asnumpy(got).tobytes()


def test_long_float_scans_of_rows_and_complex():
    """Float scans of hundreds of tiles a run (on CUDA one pass, each
    tile's prefix the tiles' totals before it folded in order): within a
    pairwise sum's error, the same bits every run, never stepping down
    over non-negative terms, each row from its own start; complex sums
    and products near 1 too."""
    rng = np.random.default_rng(23)
    f = rng.random((3, 700_001))
    a = on_device(f)
    got = ua.asnumpy(ua.cumulative_sum(a, axis=1))
    assert np.all(np.diff(got, axis=1) >= 0)
    np.testing.assert_allclose(got, np.cumsum(f, axis=1), rtol=1e-12)
    assert ua.asnumpy(ua.cumulative_sum(a, axis=1)).tobytes() == got.tobytes()
    got = ua.asnumpy(ua.cumulative_sum(a, axis=1, include_initial=True))
    assert np.all(got[:, 0] == 0) and np.all(np.diff(got, axis=1) >= 0)
    c = (rng.standard_normal(300_001) + 1j * rng.standard_normal(300_001)).astype("complex64")
    got = ua.asnumpy(ua.cumulative_sum(on_device(c)))
    want = np.cumsum(c.astype("complex128"))
    bound = 4 * np.log2(c.size) * np.finfo("f4").eps * np.cumsum(np.abs(c).astype("f8"))
    assert np.all(np.abs(got - want) <= bound)
    p = (1 + rng.standard_normal(200_001) * 1e-6).astype("float32")
    got = ua.asnumpy(ua.cumulative_prod(on_device(p)))
    np.testing.assert_allclose(got, np.cumprod(p.astype("f8")), rtol=2e-3)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
def test_long_products_whose_strided_partials_leave_the_range(dtype):
    """2, 0.5, 2, 0.5, ...: every prefix is 2 or 1, exactly; the product of
    every other element of a tile (2**2048 in float32) is not, and a
    tile's total taken that way was inf, and every product after the first
    tile NaN."""
    x = np.tile(np.array([2, 0.5], dtype=dtype), 150_000)
    want = np.tile(np.array([2, 1], dtype=dtype), 150_000)
    for part in (x, x[1:]):
        got = ua.cumulative_prod(on_device(part))
        check_same(got, np.cumprod(part))
    check_same(ua.cumulative_prod(on_device(x)), want)


@pytest.mark.parametrize("n", [3, 70_000])
def test_cumulative_sum_keeps_a_leading_negative_zero(n):
    """NumPy's cumsum starts from the first element: -0.0 stays -0.0 (in
    sequence and in tiles); include_initial's first value is +0.0."""
    x = np.full(n, -0.0, dtype="float32")
    got = ua.asnumpy(ua.cumulative_sum(on_device(x)))
    assert np.all(np.signbit(got)), got[:4]
    got = ua.asnumpy(ua.cumulative_sum(on_device(x), include_initial=True))
    assert not np.signbit(got[0]) and np.all(np.signbit(got[1:]))


def test_dense_sums_give_the_same_bits_at_any_alignment():
    """The GPU kernels read dense runs as 16-byte vectors where they are
    aligned; an unaligned run adds in the same order."""
    h = sample("float32", (1_000_003,), seed=21)
    a = on_device(h)
    shifted = ua.asnumpy(ua.sum(a[1:]))
    copied = ua.asnumpy(ua.sum(on_device(np.ascontiguousarray(h[1:]))))
    assert shifted.tobytes() == copied.tobytes()
    m = sample("float32", (7, 1001), seed=22)
    rows = ua.asnumpy(ua.sum(on_device(m), axis=1))
    for r in range(7):
        assert ua.asnumpy(ua.sum(on_device(m[r].copy()))).tobytes() == rows[r].tobytes()


def test_cumulative_sum_axis_rules():
    with pytest.raises(ValueError, match="axis"):
        ua.cumulative_sum(on_device(np.ones((2, 2))))
    check_same(
        ua.cumulative_sum(on_device(np.arange(5, dtype="int8")), dtype="int8"),
        np.cumsum(np.arange(5, dtype="int8"), dtype="int8"),
    )


@pytest.mark.parametrize("dtype", ALL)
def test_diff_matches_numpy(dtype):
    x = sample(dtype, (4, 9))
    for _, lay in layouts(x):
        a = on_device(lay)
        for axis in (0, 1, -1):
            for n in (0, 1, 2, 5, 12):
                check_same(ua.diff(a, axis=axis, n=n), np.diff(lay, axis=axis, n=n))
    p = sample(dtype, (4, 2), seed=5)
    check_same(
        ua.diff(on_device(x), prepend=on_device(p), append=on_device(p)),
        np.diff(x, prepend=p, append=p),
    )


# ------------------------------------------------------------- sorting


@pytest.mark.parametrize("dtype", ["bool", *INTS, *FLOATS])
@pytest.mark.parametrize("shape", [(0,), (1,), (15,), (3000,), (5, 40), (3, 4, 70)])
def test_sort_and_argsort_stable_as_numpy(dtype, shape):
    x = sample(dtype, shape, nans=True)
    if np.dtype(dtype).kind == "f" and x.size:
        x.reshape(-1)[::5] = -0.0
        x.reshape(-1)[1::7] = 0.0
        x.reshape(-1)[2::11] = np.inf
    for _, lay in layouts(x):
        a = on_device(lay)
        for axis in range(-len(shape), len(shape)):
            want = np.sort(lay, axis=axis, kind="stable")
            got = ua.asnumpy(ua.sort(a, axis=axis))
            assert got.tobytes() == np.ascontiguousarray(want).tobytes()
            check_same(ua.argsort(a, axis=axis), np.argsort(lay, axis=axis, kind="stable"))
            # Descending: the reversed stable order, NaNs first.
            flipped = np.flip(lay, axis=axis)
            idx = np.flip(np.argsort(flipped, axis=axis, kind="stable"), axis=axis)
            idx = lay.shape[axis] - 1 - idx
            check_same(ua.argsort(a, axis=axis, descending=True), idx)
            check_same(
                ua.sort(a, axis=axis, descending=True), np.take_along_axis(lay, idx, axis=axis)
            )


def complex_sample(dtype, shape, seed=0):
    """Complex numbers with ties in either part, signed zeros, infinities
    and every class of NaN (in the real part, the imaginary part, both)."""
    rng = np.random.default_rng(seed)
    parts = np.array([-np.inf, -2.0, -1.0, -0.0, 0.0, 1.0, 2.5, np.inf, np.nan])
    weights = np.array([1, 3, 3, 2, 2, 3, 3, 1, 1], dtype=float)
    pick = rng.choice(parts, size=(2, *shape), p=weights / weights.sum())
    x = np.empty(shape, dtype)
    x.real, x.imag = pick[0], pick[1]
    return x


def complex_parts(x):
    # NaN payloads and signs are compared too: the bits of both parts.
    return np.ascontiguousarray(x).view(np.dtype(x.real.dtype)).tobytes()


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("shape", [(0,), (1,), (15,), (70,), (3000,), (5, 40), (3, 4, 70)])
def test_complex_sort_and_argsort_in_numpys_order(dtype, shape):
    x = complex_sample(dtype, shape)
    for _, lay in layouts(x):
        a = on_device(lay)
        for axis in range(-len(shape), len(shape)):
            want = np.sort(lay, axis=axis, kind="stable")
            got = ua.asnumpy(ua.sort(a, axis=axis))
            assert complex_parts(got) == complex_parts(want)
            check_same(ua.argsort(a, axis=axis), np.argsort(lay, axis=axis, kind="stable"))
            flipped = np.flip(lay, axis=axis)
            idx = np.flip(np.argsort(flipped, axis=axis, kind="stable"), axis=axis)
            idx = lay.shape[axis] - 1 - idx
            check_same(ua.argsort(a, axis=axis, descending=True), idx)
            got = ua.asnumpy(ua.sort(a, axis=axis, descending=True))
            assert complex_parts(got) == complex_parts(np.take_along_axis(lay, idx, axis=axis))


@pytest.mark.parametrize("dtype", COMPLEX)
def test_complex_searchsorted_matches_numpy(dtype):
    base = np.sort(complex_sample(dtype, (60,)), kind="stable")
    needles = complex_sample(dtype, (4, 9), seed=3)
    needles.reshape(-1)[:5] = base[[0, 3, 3, 30, -1]]
    for side in ("left", "right"):
        check_same(
            ua.searchsorted(on_device(base), on_device(needles), side=side),
            np.searchsorted(base, needles, side=side).astype("int64"),
        )
    # A real x2 is promoted to x1's complex type.
    reals = np.array([-1.0, 0.0, 2.5, np.nan])
    check_same(
        ua.searchsorted(on_device(base), on_device(reals)),
        np.searchsorted(base, reals.astype(dtype)).astype("int64"),
    )


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("shape", [(0,), (1,), (80,), (6, 9)])
def test_complex_unique_functions_match_numpy(dtype, shape):
    x = complex_sample(dtype, shape, seed=7)
    v, idx, inv, counts = np.unique(
        x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False
    )
    got = ua.unique_all(on_device(x))
    assert complex_parts(ua.asnumpy(got.values)) == complex_parts(v)
    check_same(got.indices, idx.astype("int64"))
    check_same(got.inverse_indices, inv.reshape(x.shape).astype("int64"))
    check_same(got.counts, counts.astype("int64"))
    check_same(ua.unique_counts(on_device(x)).counts, counts.astype("int64"))
    assert ua.asnumpy(ua.unique_values(on_device(x))).shape == v.shape


def test_sort_of_0d_is_its_element_as_dpctls():
    x = on_device(np.float64(1))
    assert ua.asnumpy(ua.sort(x)) == 1.0 and ua.sort(x).shape == ()
    assert ua.argsort(x).dtype == np.int64 and int(ua.argsort(x)) == 0
    with pytest.raises(IndexError):
        ua.argsort(x, axis=1)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float16", "float32", "float64"])
def test_searchsorted_matches_numpy(dtype):
    base = np.sort(sample(dtype, (40,), nans=np.dtype(dtype).kind == "f"), kind="stable")
    needles = sample(dtype, (3, 7), seed=2, nans=np.dtype(dtype).kind == "f")
    needles.reshape(-1)[:5] = base[[0, 3, 3, 10, -1]]
    for side in ("left", "right"):
        check_same(
            ua.searchsorted(on_device(base), on_device(needles), side=side),
            np.searchsorted(base, needles, side=side).astype("int64"),
        )
    shuffled = np.random.default_rng(1).permutation(base)
    sorter = np.argsort(shuffled, kind="stable")
    check_same(
        ua.searchsorted(on_device(shuffled), on_device(needles), sorter=on_device(sorter)),
        np.searchsorted(shuffled, needles, sorter=sorter).astype("int64"),
    )
    with pytest.raises(ValueError, match="side"):
        ua.searchsorted(on_device(base), on_device(needles), side="middle")


@pytest.mark.parametrize("dtype", ["bool", "int16", "uint32", "float32", "float64"])
def test_nonzero_matches_numpy(dtype):
    x = sample(dtype, (5, 6, 7), nans=True)
    x.reshape(-1)[::2] = 0
    for _, lay in layouts(x):
        got = ua.nonzero(on_device(lay))
        want = np.nonzero(lay)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            check_same(g, w.astype("int64"))
    with pytest.raises(ValueError):
        ua.nonzero(on_device(np.float64(1)))


# ------------------------------------------------------------------ sets


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float16", "float32", "float64"])
@pytest.mark.parametrize("shape", [(0,), (1,), (50,), (4, 9)])
def test_unique_functions_match_numpy(dtype, shape):
    x = sample(dtype, shape, nans=np.dtype(dtype).kind == "f")
    if np.dtype(dtype).kind in "iuf":
        x = (x % 5).astype(dtype) if np.dtype(dtype).kind in "iu" else np.round(x).astype(dtype)
    a = on_device(x)
    v, idx, inv, counts = np.unique(
        x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False
    )
    got = ua.unique_all(a)
    check_same(got.values, v)
    check_same(got.indices, idx.astype("int64"))
    check_same(got.inverse_indices, inv.reshape(x.shape).astype("int64"))
    check_same(got.counts, counts.astype("int64"))
    check_same(ua.unique_values(a), v)
    c = ua.unique_counts(a)
    check_same(c.counts, counts.astype("int64"))
    i = ua.unique_inverse(a)
    check_same(i.inverse_indices, inv.reshape(x.shape).astype("int64"))
    values, inverse = i
    check_same(values, v)


# ------------------------------------------------------------ products


@pytest.mark.parametrize(
    "dtype",
    [
        "bool",
        "int8",
        "uint16",
        "int32",
        "int64",
        "float16",
        "float32",
        "float64",
        "complex64",
        "complex128",
    ],
)
@pytest.mark.parametrize(
    "shapes",
    [
        ((3, 4), (4, 5)),
        ((4,), (4, 2)),
        ((2, 4), (4,)),
        ((5,), (5,)),
        ((2, 1, 3, 4), (5, 4, 2)),
        ((0, 3), (3, 2)),
        ((2, 0), (0, 3)),
        # past the GPU's small products (2**21 multiply-adds), which take
        # the tile kernel, to the vendor library
        ((130, 129), (129, 131)),
    ],
)
@pytest.mark.parametrize("blas", [True, False])
def test_matmul_matches_numpy(dtype, shapes, blas, monkeypatch):
    if not blas:
        monkeypatch.setenv("USMARRAY_NO_BLAS", "1")
    x1, x2 = sample(dtype, shapes[0], seed=1), sample(dtype, shapes[1], seed=2)
    for (_, l1), (_, l2) in zip(layouts(x1), layouts(x2)):
        want = np.matmul(l1, l2)
        got = ua.matmul(on_device(l1), on_device(l2))
        g = ua.asnumpy(got)
        assert g.dtype == want.dtype and g.shape == want.shape
        if np.dtype(dtype).kind in "fc":
            tol = 2e-2 if dtype == "float16" else 1e-4
            np.testing.assert_allclose(g, want, rtol=tol, atol=tol)
        else:
            np.testing.assert_array_equal(g, want)
        np.testing.assert_array_equal(ua.asnumpy(on_device(l1) @ on_device(l2)), g)


@pytest.mark.parametrize("dtype", ["int8", "uint32", "float16", "float32", "complex128"])
def test_matmul_across_tiles_and_layouts(dtype):
    """Products larger than a kernel's tile, batched, with a transposed
    operand (BLAS's layouts and the kernels' alike)."""
    x = sample(dtype, (3, 37, 70), seed=12)
    y = sample(dtype, (45, 70), seed=13).T
    got = ua.asnumpy(ua.matmul(on_device(x), on_device(y)))
    want = np.matmul(x, y)
    if np.dtype(dtype).kind in "fc":
        tol = 5e-2 if dtype == "float16" else 1e-4
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * 10)
    else:
        np.testing.assert_array_equal(got, want)
    v = sample(dtype, (4, 33), seed=14)
    np.testing.assert_allclose(
        ua.asnumpy(ua.vecdot(on_device(v), on_device(v[::-1]))),
        np.vecdot(v, v[::-1]), rtol=5e-2 if dtype == "float16" else 1e-5,
    )  # fmt: skip


def test_matmul_promotes_and_checks():
    a = on_device(sample("int8", (3, 4)))
    b = on_device(sample("float32", (4, 2)))
    assert ua.matmul(a, b).dtype == np.dtype("float32")
    with pytest.raises(ValueError, match="matmul"):
        ua.matmul(a, on_device(np.ones((3, 2))))
    with pytest.raises(ValueError):
        ua.matmul(on_device(np.float64(1)), a)
    with pytest.raises(TypeError, match="asarray"):
        a @ np.ones((4, 2))
    with pytest.raises(TypeError):
        a @ 2


def test_inplace_matmul():
    x = sample("float64", (3, 3))
    y = sample("float64", (3, 3), seed=4)
    a = on_device(x)
    before = a
    a @= on_device(y)
    assert a is before
    np.testing.assert_allclose(ua.asnumpy(a), x @ y)
    with pytest.raises(ValueError, match="shape"):
        b = on_device(x)
        b @= on_device(np.ones((3, 2)))


@pytest.mark.parametrize("axes", [0, 1, 2, ([1, 0], [0, 1]), ([2], [1])])
def test_tensordot_matches_numpy(axes):
    x1 = sample("float64", (3, 4, 5))
    x2 = (
        sample("float64", (4, 3, 2))
        if axes == ([1, 0], [0, 1])
        else sample("float64", (5, 5, 2))
        if axes == ([2], [1])
        else sample("float64", (4, 5, 2)[2 - axes if isinstance(axes, int) and axes <= 2 else 0 :])
    )
    if isinstance(axes, int):
        x2 = sample("float64", x1.shape[3 - axes :] + (2,))
    want = np.tensordot(x1, x2, axes=axes)
    got = ua.tensordot(on_device(x1), on_device(x2), axes=axes)
    np.testing.assert_allclose(ua.asnumpy(got), want, rtol=1e-12)


@pytest.mark.parametrize("dtype", ["int32", "float32", "complex128"])
def test_vecdot_conjugates_and_broadcasts(dtype):
    x1, x2 = sample(dtype, (3, 1, 5)), sample(dtype, (4, 5), seed=7)
    want = np.vecdot(x1, x2)
    got = ua.asnumpy(ua.vecdot(on_device(x1), on_device(x2)))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    x3 = sample(dtype, (5, 2), seed=8)
    np.testing.assert_allclose(
        ua.asnumpy(ua.vecdot(on_device(x3), on_device(x3), axis=-2)),
        np.vecdot(x3, x3, axis=-2),
        rtol=1e-4,
    )
    with pytest.raises(ValueError, match="axis"):
        ua.vecdot(on_device(x1), on_device(x2), axis=0)


def test_matrix_transpose_is_a_view():
    x = sample("float32", (2, 3, 4))
    t = ua.matrix_transpose(on_device(x))
    check_same(t, np.swapaxes(x, -1, -2))
    with pytest.raises(ValueError):
        ua.matrix_transpose(on_device(np.ones(3)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [33_000, 1 << 20, 3_000_017])
def test_mid_length_sums_are_accurate_and_repeat_their_bits(dtype, n):
    """Runs of a few thousand vectors, which a device splits into more,
    shorter pieces to keep its memory busy: each sum stays within the
    pairwise bound of the exact one, argmax finds the first maximum, and
    a second call gives the same bits."""
    h = sample(dtype, n, seed=n)
    h[n // 3] = h.max() + 1
    h[2 * n // 3] = h[n // 3]
    x = on_device(h)
    got = ua.asnumpy(ua.sum(x))
    exact = math.fsum(h.astype(np.float64))
    eps = np.finfo(dtype).eps
    bound = 2 * eps * math.log2(n + 1) * float(np.abs(h.astype(np.float64)).sum()) + eps
    assert abs(float(got) - exact) <= bound
    assert ua.asnumpy(ua.sum(x)).tobytes() == got.tobytes()
    assert int(ua.asnumpy(ua.argmax(x))) == n // 3
    assert float(ua.asnumpy(ua.max(x))) == float(h[n // 3])


def test_long_sums_have_the_same_bits_with_any_number_of_threads():
    """A long run's sum splits into parts by its size alone, which the
    threads share: one, two and three threads (USMARRAY_HOST_THREADS, each
    a new process) give the same bits, as a machine of any size does."""
    import subprocess
    import sys

    code = (
        "import numpy as np, usmarray as ua\n"
        "h = np.random.default_rng(5).standard_normal(6_000_003)\n"
        "for t in ('float64', 'float32'):\n"
        "    x = ua.asarray(h.astype(t), device='host')\n"
        "    m = ua.reshape(x[:6_000_000], (2, 3_000_000))\n"
        "    print(float(ua.sum(x)).hex(), float(ua.mean(x)).hex(),\n"
        "          [v.hex() for v in ua.asnumpy(ua.sum(m, axis=1)).astype(float)])\n"
    )
    out = set()
    for threads in ("1", "2", "3"):
        env = dict(os.environ, USMARRAY_HOST_THREADS=threads)
        run = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        out.add(run.stdout)
    assert len(out) == 1, out
