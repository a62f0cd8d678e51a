"""Complex values in NumPy's order: the comparisons, maximum, minimum and
clip of complex operands (arrays, mixed with real ones, and Python complex
scalars) against NumPy, with NaN parts in each position, infinities and
signed zeros.  Every test runs on the first device of each backend the
machine has, and a CPU device on its own kernels too (the GPU kernel
text)."""

import itertools
import operator
import warnings

import numpy as np
import pytest
import usmarray as ua
from conftest import first_device_of_each_backend, stable_order

OWN = "+own"
DEVICES = first_device_of_each_backend()
DEVICES += [
    d + OWN for d in DEVICES if not d.startswith("host") and ua.Device(d).device_type == "cpu"
]
COMPLEX = ["complex64", "complex128"]


@pytest.fixture(params=DEVICES)
def device(request, monkeypatch):
    name = request.param
    if name.endswith(OWN):
        name = name[: -len(OWN)]
        monkeypatch.setenv("USMARRAY_DEVICE_KERNELS", "1")
    return name


NAN, INF = float("nan"), float("inf")
PARTS = [NAN, -INF, -1.5, -0.0, 0.0, 1.5, INF]


def awkward_values(dtype):
    """Every pair of parts from PARTS: NaN in either part or both, the
    infinities, signed zeros and equal real parts with differing imaginary
    ones."""
    return np.array([complex(r, i) for r, i in itertools.product(PARTS, PARTS)], dtype)


def pairs(dtype):
    """Every value of awkward_values against every other, as two arrays."""
    v = awkward_values(dtype)
    return np.repeat(v, v.size), np.tile(v, v.size)


def same_values(got, want):
    """got has want's dtype and shape, and equal parts, NaN matching NaN and
    the signs of zeros counting."""
    got = ua.asnumpy(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    for part in (np.real, np.imag):
        g, w = part(got), part(want)
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
        np.testing.assert_array_equal(np.signbit(g), np.signbit(w))
        np.testing.assert_array_equal(g[~np.isnan(g)], w[~np.isnan(w)])


def numpy(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(*args)


COMPARISONS = ["less", "less_equal", "greater", "greater_equal"]
OPERATORS = {
    "less": operator.lt,
    "less_equal": operator.le,
    "greater": operator.gt,
    "greater_equal": operator.ge,
}


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", COMPARISONS)
def test_comparisons_of_complex_arrays(device, name, dtype):
    a, b = pairs(dtype)
    x, y = ua.asarray(a, device=device), ua.asarray(b, device=device)
    want = numpy(getattr(np, name), a, b)
    assert want.any() and not want.all()
    np.testing.assert_array_equal(ua.asnumpy(getattr(ua, name)(x, y)), want)
    np.testing.assert_array_equal(ua.asnumpy(OPERATORS[name](x, y)), want)


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_maximum_minimum_of_complex_arrays(device, name, dtype):
    a, b = pairs(dtype)
    got = getattr(ua, name)(ua.asarray(a, device=device), ua.asarray(b, device=device))
    same_values(got, numpy(getattr(np, name), a, b))


@pytest.mark.parametrize("dtype", COMPLEX)
def test_clip_of_complex_arrays(device, dtype):
    v = awkward_values(dtype)
    lo = np.array(
        [complex(-1.5, 0.0), complex(0.0, NAN), complex(NAN, 1.5), complex(-INF, -INF)], dtype
    )
    hi = np.array(
        [complex(1.5, 0.0), complex(1.5, NAN), complex(INF, NAN), complex(0.0, -0.0)], dtype
    )
    x = v[:, None]
    got = ua.clip(
        ua.asarray(x, device=device), ua.asarray(lo, device=device), ua.asarray(hi, device=device)
    )
    same_values(got, numpy(np.clip, x, lo, hi))
    # Python complex scalars as bounds.
    got = ua.clip(ua.asarray(v, device=device), -1 + 0.5j, 1 - 0.5j)
    same_values(got, numpy(np.clip, v, np.asarray(-1 + 0.5j, dtype), np.asarray(1 - 0.5j, dtype)))


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize(
    "scalar", [1.5 + 0j, -0.0 - 1.5j, complex(NAN, 0.0), complex(1.5, NAN), 1.5]
)
def test_complex_arrays_against_python_scalars(device, dtype, scalar):
    v = awkward_values(dtype)
    x = ua.asarray(v, device=device)
    s = np.asarray(scalar, dtype)
    for name in COMPARISONS:
        for got, want in (
            (getattr(ua, name)(x, scalar), numpy(getattr(np, name), v, s)),
            (getattr(ua, name)(scalar, x), numpy(getattr(np, name), s, v)),
            (OPERATORS[name](x, scalar), numpy(getattr(np, name), v, s)),
        ):
            np.testing.assert_array_equal(ua.asnumpy(got), want)
    for name in ("maximum", "minimum"):
        same_values(getattr(ua, name)(x, scalar), numpy(getattr(np, name), v, s))
        same_values(getattr(ua, name)(scalar, x), numpy(getattr(np, name), s, v))


@pytest.mark.parametrize("real", ["float32", "float64", "int16", "bool"])
def test_complex_against_real_arrays(device, real):
    """A real operand promotes to complex with a zero imaginary part."""
    c = awkward_values("complex64")
    if np.dtype(real).kind == "f":
        r = np.array([NAN, -INF, -1.5, -0.0, 0.0, 1.5, INF], real)
    else:
        r = np.array([-2, -1, 0, 1, 2]).astype(real)
    a, b = np.repeat(c, r.size), np.tile(r, c.size)
    x, y = ua.asarray(a, device=device), ua.asarray(b, device=device)
    for name in COMPARISONS:
        want = numpy(getattr(np, name), a, b)
        np.testing.assert_array_equal(ua.asnumpy(getattr(ua, name)(x, y)), want)
        want = numpy(getattr(np, name), b, a)
        np.testing.assert_array_equal(ua.asnumpy(getattr(ua, name)(y, x)), want)
    for name in ("maximum", "minimum"):
        same_values(getattr(ua, name)(x, y), numpy(getattr(np, name), a, b))
        same_values(getattr(ua, name)(y, x), numpy(getattr(np, name), b, a))


def sample(dtype, shape, seed, zeros=(0.0,), nans=True):
    """Random complex values, many equal, with the given zeros and where
    nans, a few NaN parts of each kind."""
    rng = np.random.default_rng(seed)
    parts = np.array([-1.0, *zeros, 1.0, 2.0, INF, -INF])
    x = np.empty(shape, dtype)
    x.real, x.imag = rng.choice(parts, shape), rng.choice(parts, shape)
    flat = x.reshape(-1)
    for nan in (complex(NAN, 1.0), complex(1.0, NAN), complex(NAN, NAN)) if nans else ():
        flat[rng.integers(0, flat.size, size=max(1, flat.size // 40))] = nan
    return x


SHAPES = [(1,), (7,), (40, 9), (5, 6, 7)]


def check_extreme(name, got, want):
    if name.startswith("arg"):
        np.testing.assert_array_equal(ua.asnumpy(got), want)
    else:
        same_values(got, np.asarray(want))


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin"])
def test_extremes_of_complex_arrays(device, name, dtype):
    """The largest (smallest) in the lexicographic order, and the first
    index of it."""
    for seed, shape in enumerate(SHAPES):
        x = sample(dtype, shape, seed, nans=False)
        a = ua.asarray(x, device=device)
        for axis in [None, *range(len(shape))]:
            check_extreme(name, getattr(ua, name)(a, axis=axis), numpy(getattr(np, name), x, axis))


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin"])
def test_extremes_of_complex_arrays_with_nans_and_signed_zeros(device, name, dtype):
    """NaN propagates: the first NaN-containing value and its index; of
    equal values (signed zeros) the first."""
    for seed, shape in enumerate(SHAPES):
        x = sample(dtype, shape, seed, zeros=(-0.0, 0.0))
        a = ua.asarray(x, device=device)
        for axis in [None, *range(len(shape))]:
            check_extreme(name, getattr(ua, name)(a, axis=axis), numpy(getattr(np, name), x, axis))


@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin"])
def test_first_nan_wins(device, name):
    x = np.array([1 + 1j, complex(2.0, NAN), complex(NAN, 0.0), complex(NAN, NAN), 9 + 9j])
    check_extreme(
        name, getattr(ua, name)(ua.asarray(x, device=device)), x[1] if name[0] != "a" else 1
    )


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("descending", [False, True])
def test_sort_and_argsort_of_complex_arrays(device, dtype, descending):
    """NumPy's order, NaN parts last (first where descending), equal values
    (signed zeros among them) in their order both ways."""
    rng = np.random.default_rng(3)
    v = awkward_values(dtype)
    x = np.concatenate([v, v[rng.permutation(v.size)]])
    order = stable_order(x, descending)
    a = ua.asarray(x, device=device)
    idx = ua.asnumpy(ua.argsort(a, descending=descending, stable=True))
    np.testing.assert_array_equal(idx, order)
    same_values(ua.sort(a, descending=descending, stable=True), x[order])
    rows = np.stack([x, x[::-1]])
    got = ua.sort(ua.asarray(rows, device=device), axis=1, descending=descending)
    same_values(
        got, np.take_along_axis(rows, np.stack([stable_order(r, descending) for r in rows]), 1)
    )
