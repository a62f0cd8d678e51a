"""Elementwise functions and operators, compared with NumPy 2.

Exact results (arithmetic, comparisons, rounding, the special values) are
compared bit for bit; transcendental functions within 4 ULP (float32) and
2 ULP (float64) of NumPy's float64 (float32 inputs) or longdouble (float64
inputs) result rounded to the dtype.  Every test runs on the first device of
each backend the machine has (host, SYCL, CUDA); on the run-time compiled
ones, which compile a kernel per function, types and path on first use, the
dtype pairs are every dtype with itself and a few mixed pairs (casts at
load), all of them where USMARRAY_TEST_ALL_PAIRS is set."""

import itertools
import os
import re
import warnings

import numpy as np
import pytest
import usmarray as ua

CATALOGUE = open(
    __file__.replace("tests/test_elementwise.py", "src/core/compute/elementwise_catalogue.h")
).read()
ENTRIES = {
    m.group(1): (int(m.group(2)), m.group(3), m.group(4))
    for m in re.finditer(r"^\s+X\((\w+), (\d), (\w+), (\w+),", CATALOGUE, re.M)
}
DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]  # fmt: skip
NUMPY_NAMES = {"abs": "absolute", "acos": "arccos", "acosh": "arccosh", "asin": "arcsin",
               "asinh": "arcsinh", "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh",
               "pow": "power", "bitwise_invert": "invert", "bitwise_left_shift": "left_shift",
               "bitwise_right_shift": "right_shift", "conj": "conjugate"}  # fmt: skip
TRANSCENDENTAL = {"acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cos", "cosh", "exp",
                  "expm1", "log", "log1p", "log2", "log10", "logaddexp", "sin", "sinh", "sqrt",
                  "tan", "tanh", "hypot", "pow", "divide", "reciprocal", "abs", "sign", "square"}  # fmt: skip
KINDS = {"bool": "b", "int8": "i", "int16": "i", "int32": "i", "int64": "i", "uint8": "u", "uint16": "u",
         "uint32": "u", "uint64": "u", "float16": "f", "float32": "f", "float64": "f",
         "complex64": "c", "complex128": "c"}  # fmt: skip
TAKES = {"UA_EW_ANY": "biufc", "UA_EW_NUMERIC": "iufc", "UA_EW_REAL": "iuf", "UA_EW_REAL_B": "biuf",
         "UA_EW_BITWISE": "biu", "UA_EW_INTEGRAL": "iu"}  # fmt: skip


def first_device_of_each_backend():
    seen, devices = set(), []
    for d in ua.get_devices():
        backend = d.filter_string.split(":")[0]
        if backend not in seen:
            seen.add(backend)
            devices.append(d.filter_string)
    return devices


DEVICES = first_device_of_each_backend()
DEVICE = DEVICES[0]


@pytest.fixture(params=DEVICES, autouse=True)
def device(request):
    """Runs each test on each backend's first device: asarray() below makes
    arrays there."""
    global DEVICE
    DEVICE = request.param
    return request.param


def asarray(a, **kwargs):
    if isinstance(a, ua.USMArray):
        return ua.asarray(a, **kwargs)
    return ua.asarray(a, device=DEVICE, **kwargs)


def on_host():
    return DEVICE.startswith("host")


def numpy_function(name):
    if name == "round":
        return np.round
    return getattr(np, NUMPY_NAMES.get(name, name))


def sample(dtype, n=64, seed=0):
    """Values that reach each dtype's edge cases: zeros of both signs,
    extremes, NaN and infinities, and ordinary values."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        edges = [0, 1, 2, 7, info.max, info.min, info.max - 1]
        if dt.kind == "i":
            edges += [-1, -2, -7, info.min + 1]
        small = rng.integers(max(info.min, -100), min(info.max, 100), n - len(edges), endpoint=True)
        return np.concatenate([np.array(edges, dtype=dt), small.astype(dt)])
    real = np.dtype(dt.char.lower() if dt.kind == "f" else ("f4" if dt.itemsize == 8 else "f8"))
    edges = np.array(
        [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, np.inf, -np.inf, np.nan], dtype=real
    )
    vals = (rng.standard_normal(n - len(edges)) * 3).astype(real)
    out = np.concatenate([edges, vals])
    if dt.kind == "c":
        im = np.roll(out, 3)
        return (out + 1j * im).astype(dt)
    return out


def ulp_distance(got, want):
    """ULPs between arrays of one real floating dtype, NaNs equal."""
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype.kind == "c":
        return np.maximum(ulp_distance(got.real, want.real), ulp_distance(got.imag, want.imag))
    both_nan = np.isnan(got) & np.isnan(want)
    same = (got == want) | both_nan
    spacing = np.spacing(np.abs(want).astype(got.dtype))
    d = np.abs(got.astype(np.float64) - want.astype(np.float64)) / spacing.astype(np.float64)
    d = np.where(same, 0, d)
    return np.where(np.isnan(d), np.inf, d)


# Results the standard leaves to the implementation, where NumPy's vector
# loops differ from its scalar ones: complex products (fused or not) and
# the sign of a zero from maximum and minimum of zeros.
COMPLEX_ROUNDED = {"multiply", "square", "divide", "reciprocal"}
ZERO_SIGN_FREE = {"maximum", "minimum", "clip"}


def assert_matches(name, got, want):
    got_np = ua.asnumpy(got)
    if name in COMPLEX_ROUNDED and want.dtype.kind == "c":
        name = "complex " + name
        TRANSCENDENTAL.add(name)
    assert got_np.dtype == want.dtype, (name, got_np.dtype, want.dtype)
    assert got_np.shape == want.shape
    if name in TRANSCENDENTAL and want.dtype.kind in "fc":
        limit = {np.float16: 0.5, np.float32: 4, np.complex64: 4}.get(want.dtype.type, 2)
        # NumPy's own results are not correctly rounded either: the
        # bound is against NumPy plus NumPy's distance to the truth.
        d = ulp_distance(got_np, want)
        finite = np.isfinite(want) if want.dtype.kind == "f" else np.isfinite(want.real)
        assert np.all(d[finite] <= 2 * limit), (name, got_np[d > 2 * limit], want[d > 2 * limit])
        assert np.array_equal(np.isnan(got_np), np.isnan(want))
    else:
        np.testing.assert_array_equal(got_np, want, strict=True)
        if want.dtype.kind == "f":
            real = ~np.isnan(want) & ~((want == 0) & (name in ZERO_SIGN_FREE))
            assert np.array_equal(np.signbit(got_np)[real], np.signbit(want)[real]), name


def numpy_reference(name, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return np.asarray(numpy_function(name)(*args))


def admits(name, dtype):
    return KINDS[dtype] in TAKES[ENTRIES[name][1]]


UNARY = sorted(n for n, (a, _, _) in ENTRIES.items() if a == 1)
BINARY = sorted(n for n, (a, _, _) in ENTRIES.items() if a == 2)


def test_every_function_is_in_the_namespace():
    if not on_host():
        pytest.skip("the namespace is the same on every device")
    for name in ENTRIES:
        assert callable(getattr(ua, name)), name
        assert name in ua.__all__


@pytest.mark.parametrize("name", UNARY)
def test_unary_matches_numpy_on_every_dtype(name):
    for dtype in DTYPES:
        x = sample(dtype)
        if not admits(name, dtype):
            with pytest.raises(TypeError, match=name):
                getattr(ua, name)(asarray(x))
            continue
        if name == "reciprocal" and x.dtype.kind in "biu":
            continue  # NumPy keeps integers; the standard gives floating
        if name in ("round", "ceil", "floor", "trunc", "sign") and x.dtype.kind in "iu":
            want = numpy_reference(name, x).astype(x.dtype)
        elif name == "sign" and x.dtype.kind == "c":
            continue  # NumPy 2.0's complex sign matches the standard's; tested apart
        elif name in ("log1p", "expm1") and x.dtype.kind == "c":
            # NumPy computes these as log(1 + z) and exp(z) - 1, losing
            # digits near 0: the reference is that in long double.
            wide = x.astype(np.clongdouble)
            with np.errstate(all="ignore"):
                want = (np.log(1 + wide) if name == "log1p" else np.exp(wide) - 1).astype(x.dtype)
        else:
            want = numpy_reference(name, x)
        if name in ("real", "imag", "conj") and x.dtype.kind != "c":
            want = want.astype(x.dtype)
        assert_matches(name, getattr(ua, name)(asarray(x)), want)


COMPLEX_EDGE_FUNCTIONS = ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp",
                          "log", "log2", "log10", "sin", "sinh", "sqrt", "tan", "tanh"]  # fmt: skip


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name", COMPLEX_EDGE_FUNCTIONS)
def test_complex_functions_at_the_edges(name, dtype):
    """Every pair of parts from zeros, tiny, near 1, huge and the special
    values: where the textbook formulas cancel, overflow or underflow
    (asin of 1 + 1e-30i, atanh near 1, log of moduli past the largest
    float, sinh past exp's range) and C99's special values."""
    real = np.float32 if dtype == "complex64" else np.float64
    big = np.finfo(real).max / 2
    parts = np.array([0.0, -0.0, 1e-30, -1e-30, 1.0, -1.0, 0.5, -2.0, 1 + 2**-20, 89.5, -710.0,
                      3e15, big, -big, np.inf, -np.inf, np.nan], dtype=real)  # fmt: skip
    z = (parts[:, None] + 1j * parts[None, :]).astype(dtype).ravel()
    assert_matches(name, getattr(ua, name)(asarray(z)), numpy_reference(name, z))


PAIRS = list(itertools.product(DTYPES, DTYPES))
# On the run-time compiled backends: each dtype with itself, and mixed pairs
# that cast at load (integers of both signs, float16, complex with real).
DEVICE_PAIRS = [(d, d) for d in DTYPES] + [
    ("int8", "float32"), ("uint64", "int64"), ("float16", "float64"), ("bool", "int32"),
    ("complex64", "float64"), ("uint8", "int16")]  # fmt: skip


def pairs():
    return PAIRS if on_host() or os.environ.get("USMARRAY_TEST_ALL_PAIRS") else DEVICE_PAIRS


@pytest.mark.parametrize("name", BINARY)
def test_binary_matches_numpy_over_dtype_pairs(name):
    for a, b in pairs():
        x, y = sample(a, seed=1), sample(b, seed=2)
        ux, uy = asarray(x), asarray(y)
        if not (admits(name, a) and admits(name, b)):
            with pytest.raises(TypeError):
                getattr(ua, name)(ux, uy)
            continue
        try:
            want = numpy_reference(name, x, y)
        except ValueError:
            continue  # NumPy refuses integers to negative powers
        except TypeError:
            with pytest.raises(TypeError):
                getattr(ua, name)(ux, uy)
            continue
        if (
            name in ("bitwise_left_shift", "bitwise_right_shift", "pow")
            and np.dtype(want.dtype).kind in "iu"
        ):
            continue  # negative counts and exponents: tested apart
        if want.dtype == object or (
            np.dtype(a).kind in "iu" and np.dtype(b).kind in "iu" and want.dtype.kind == "f"
        ):
            if name not in ("divide", "atan2", "hypot", "copysign", "logaddexp", "nextafter"):
                continue  # int64 with uint64: NumPy's special loops
        if name == "pow" and want.dtype.kind == "c":
            assert_complex_pow(getattr(ua, name)(ux, uy), x, y, want)
            continue
        assert_matches(name, getattr(ua, name)(ux, uy), want)


def assert_complex_pow(got, x, y, want):
    """Complex a**b is exp(b log a) everywhere, NumPy's (the C library's
    cpow) too: b log a's rounding is multiplied by |b log a|, so neither
    NumPy's nor any such result is within a fixed number of ULPs of the
    truth.  The bound: 4 (complex64) or 2 (complex128) ULPs of |a**b| times
    1 + |b log a|, against long double; NaNs where NumPy has them."""
    got_np = ua.asnumpy(got)
    assert got_np.dtype == want.dtype
    assert np.array_equal(np.isnan(got_np), np.isnan(want))
    wide_x, wide_y = x.astype(np.clongdouble), y.astype(np.clongdouble)
    with np.errstate(all="ignore"):
        truth = np.power(wide_x, wide_y)
        cond = 1 + np.abs(wide_y * np.log(wide_x))
    check = np.isfinite(truth) & (truth != 0) & np.isfinite(cond) & np.isfinite(want)
    spacing = np.spacing(np.abs(truth[check]).astype(want.real.dtype)).astype(np.longdouble)
    err = np.abs(got_np[check].astype(np.clongdouble) - truth[check]) / spacing / cond[check]
    limit = 4 if want.dtype == np.complex64 else 2
    bad = ~(err <= limit)
    assert not np.any(bad), (got_np[check][bad], want[check][bad], truth[check][bad])


def test_integer_division_and_remainder_signs():
    x = np.array([7, -7, 7, -7, 0, -128, 5], dtype=np.int8)
    y = np.array([2, 2, -2, -2, 3, -1, 0], dtype=np.int8)
    with np.errstate(all="ignore"):
        assert_matches("floor_divide", asarray(x) // asarray(y), x // y)
        assert_matches("remainder", asarray(x) % asarray(y), x % y)


def test_float_division_remainder_and_zero():
    x = np.array([7.5, -7.5, 7.5, -7.5, 0.0, -0.0, 1.0, -1.0, np.inf, 5.0], dtype=np.float64)
    y = np.array([2.0, 2.0, -2.0, -2.0, 3.0, 3.0, 0.0, 0.0, 2.0, np.inf])
    with np.errstate(all="ignore"):
        for op in ("floor_divide", "remainder", "divide"):
            assert_matches(op, getattr(ua, op)(asarray(x), asarray(y)), numpy_function(op)(x, y))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64", "uint64"])
def test_shifts_past_the_width(dtype):
    x = np.array([1, 5, 100, 127], dtype=dtype)
    for count in (0, 1, 7, 8, 31, 32, 63, 64, 200):
        c = np.full(4, min(count, np.iinfo(dtype).max), dtype=dtype)
        assert_matches("bitwise_left_shift", asarray(x) << asarray(c), np.left_shift(x, c))
        assert_matches("bitwise_right_shift", asarray(x) >> asarray(c), np.right_shift(x, c))
    neg = np.array([-1, -5, -128, 3], dtype="int8")
    big = np.full(4, 9, dtype="int8")
    assert_matches("bitwise_right_shift", asarray(neg) >> asarray(big), neg >> big)


def test_nan_comparisons_and_signed_zeros():
    x = np.array([np.nan, 0.0, -0.0, 1.0, np.nan])
    y = np.array([np.nan, -0.0, 0.0, np.nan, 1.0])
    ux, uy = asarray(x), asarray(y)
    for op, f in [("==", np.equal), ("!=", np.not_equal), ("<", np.less), ("<=", np.less_equal),
                  (">", np.greater), (">=", np.greater_equal)]:  # fmt: skip
        assert_matches(op, eval(f"ux {op} uy", {"ux": ux, "uy": uy}), f(x, y))
    for name in ("maximum", "minimum", "copysign"):
        assert_matches(name, getattr(ua, name)(ux, uy), numpy_function(name)(x, y))


def test_round_half_to_even():
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.49999, 1e300], dtype=np.float64)
    assert_matches("round", ua.round(asarray(x)), np.round(x))
    assert_matches("round", ua.round(asarray(x.astype(np.float32))), np.round(x.astype(np.float32)))


def test_complex_sign_is_the_unit_vector():
    z = np.array([3 + 4j, 0j, -2j, complex(np.inf, 0)], dtype=np.complex128)
    got = ua.asnumpy(ua.sign(asarray(z)))
    np.testing.assert_allclose(got[:3], [0.6 + 0.8j, 0, -1j])


@pytest.mark.parametrize(
    "make",
    [
        lambda a: a[::2],
        lambda a: a[::-1],
        lambda a: a.reshape(8, 8).T,
        lambda a: a.reshape(4, 4, 4)[:, ::-2, 1:],
        lambda a: a.reshape(8, 8)[0],
        lambda a: a[3:4].reshape(()),
        lambda a: a[5:5],
    ],
    ids=["step", "negative", "transposed", "3d-strided", "row", "0d", "empty"],
)
def test_layouts(make):
    x = sample("float64")
    y = sample("float32", seed=3)
    ux, uy = make(asarray(x)), make(asarray(y))
    nx, ny = make(x), make(y)
    assert_matches("add", ux + uy, nx + ny)
    assert_matches("less", ux < uy, nx < ny)
    assert_matches("where", ua.where(ux < uy, ux, uy), np.where(nx < ny, nx, ny))


def test_broadcasting():
    m = sample("float32").reshape(8, 8)
    v = m[0]
    um = asarray(m)
    assert_matches("add", um + um[0], m + v)
    assert_matches("add", um[:, :1] + um[0], m[:, :1] + v)
    with pytest.raises(ValueError, match="broadcast"):
        um + asarray(np.ones(3, dtype=np.float32))


def test_unaligned_operands():
    buf = np.zeros(8 * 65, dtype=np.uint8)
    x = buf[1:-7].view(np.float64)
    x[:] = sample("float64")
    ux = asarray(asarray(x), copy=False)
    assert_matches("multiply", ux * 2.0, x * 2.0)


def test_in_place_with_overlap_gives_numpys_results():
    x = sample("int64")
    ux = asarray(x)
    ux[1:] += ux[:-1]
    x[1:] += x[:-1].copy()
    np.testing.assert_array_equal(ua.asnumpy(ux), x)
    y = sample("float64")
    uy = asarray(y)
    uy[::-1] *= uy
    y[::-1] *= y.copy()
    np.testing.assert_array_equal(ua.asnumpy(uy), y)


def test_assigning_a_region_to_itself_keeps_it():
    # x[1:] += y ends by storing x[1:] onto itself, which OpenCL refuses
    # as an overlapping copy: nothing is to move
    x = sample("float32")
    ux = asarray(x)
    ux[1:] = ux[1:]
    view = ux[2:10]
    view[...] = view
    ux[::2] += ux[::2]
    x[::2] += x[::2].copy()
    np.testing.assert_array_equal(ua.asnumpy(ux), x)


def test_in_place_keeps_dtype_and_shape():
    x = asarray(np.arange(4, dtype=np.int32))
    before = x
    x += 3
    assert x is before and ua.asnumpy(x).tolist() == [3, 4, 5, 6]
    with pytest.raises(TypeError, match="cannot hold"):
        x += 1.5
    with pytest.raises(ValueError, match="shape"):
        x += ua.ones((2, 4), dtype="int32", device=DEVICE)


def test_python_scalars_are_weak():
    x = asarray(np.arange(4, dtype=np.float32))
    assert (x + 1.5).dtype == np.float32
    assert (2 * x).dtype == np.float32
    i = asarray(np.arange(4, dtype=np.int8))
    assert (i + 1).dtype == np.int8
    assert (i + 1.0).dtype == np.float64
    assert (1 - i).dtype == np.int8 and ua.asnumpy(1 - i).tolist() == [1, 0, -1, -2]
    with pytest.raises(ValueError, match="out of bounds for int8"):
        i + 1000


def test_operators_reflected_and_unary():
    x = np.arange(1, 6, dtype=np.int64)
    ux = asarray(x)
    for expr in ["3 - ux", "2 ** ux", "ux ** 2", "7 // ux", "7 % ux", "-ux", "+ux", "abs(-ux)", "~ux",
                 "1 << ux", "ux & 3", "5 | ux", "ux ^ 1", "10 / ux"]:  # fmt: skip
        want = eval(expr, {"ux": x})
        got = eval(expr, {"ux": ux})
        np.testing.assert_array_equal(ua.asnumpy(got), want, strict=True, err_msg=expr)


def test_comparisons_are_elementwise_and_arrays_unhashable():
    x = asarray(np.arange(3))
    assert ua.asnumpy(x == x.copy()).tolist() == [True] * 3
    assert (x == None) is False  # noqa: E711
    with pytest.raises(TypeError, match="unhashable"):
        hash(x)


@pytest.mark.parametrize("usm_type", ["device", "shared", "host"])
def test_numpy_operands_raise_naming_asarray(usm_type):
    x = ua.ones(3, usm_type=usm_type, device=DEVICE)
    n = np.ones(3)
    for call in (
        lambda: x + n,
        lambda: n + x,
        lambda: n == x,
        lambda: x == n,
        lambda: ua.add(x, n),
    ):
        with pytest.raises(TypeError, match=r"ua\.asarray"):
            call()


def test_numpy_ufuncs_and_functions_dispatch_to_the_namespace():
    x = asarray(np.arange(4.0))
    r = np.add(x, 1)
    assert isinstance(r, ua.USMArray) and ua.asnumpy(r).tolist() == [1.0, 2.0, 3.0, 4.0]
    assert isinstance(np.arccos(x / 4), ua.USMArray)
    assert isinstance(np.where(x > 1, x, 0.0), ua.USMArray)
    with pytest.raises(TypeError):
        np.add.reduce(x)


def test_clip_bounds():
    x = sample("int16")
    ux = asarray(x)
    assert_matches("clip", ua.clip(ux, -5, 10), np.clip(x, -5, 10))
    assert_matches("clip", ua.clip(ux, None, 10), np.clip(x, None, 10))
    assert_matches("clip", ua.clip(ux, -5), np.clip(x, -5, None))
    f = sample("float32")
    assert_matches("clip", ua.clip(asarray(f), min=-1.0, max=1.0), np.clip(f, -1.0, 1.0))


def test_where_condition_of_any_dtype():
    c = np.array([0, 1, 2, 0])
    x, y = np.arange(4.0), -np.arange(4.0)
    assert_matches("where", ua.where(asarray(c), asarray(x), asarray(y)), np.where(c, x, y))


def test_operands_on_different_queues_raise():
    a = ua.ones(3, queue="host")
    b = ua.ones(3, usm_type="device")
    if a.device == b.device:
        pytest.skip("one device only")
    with pytest.raises(ValueError, match="different queues"):
        a + b


CACHE_SCRIPT = """
import sys
sys.path[:0] = {path!r}
import conftest  # noqa: F401  (the SYCL runtime's environment)
import numpy as np
import usmarray as ua
x = ua.asarray(np.arange(100, dtype=np.float32), device={device!r})
ua.asnumpy(ua.exp(x) + x * 3.0 < x[::2].reshape(5, 10)[:, :1])
"""


def test_a_second_process_compiles_nothing(tmp_path):
    """Compiled kernels are kept on disk: the second process finds each one
    there and writes none (a compile would replace its file)."""
    if not DEVICE.startswith("cuda"):
        pytest.skip("the CUDA backend keeps its kernels on disk")
    import subprocess
    import sys

    env = dict(os.environ, USMARRAY_CACHE_DIR=str(tmp_path / "cache"))
    here = os.path.dirname(__file__)
    script = CACHE_SCRIPT.format(path=[here] + sys.path, device=DEVICE)

    def entries():
        return {
            p.name: (p.stat().st_ino, p.stat().st_mtime_ns)
            for p in (tmp_path / "cache").glob("*.kernel")
        }

    subprocess.run([sys.executable, "-c", script], env=env, check=True)
    first = entries()
    assert len(first) >= 4
    subprocess.run([sys.executable, "-c", script], env=env, check=True)
    assert entries() == first
    # a corrupted entry is compiled again, silently
    victim = sorted(first)[0]
    (tmp_path / "cache" / victim).write_bytes(b"garbage")
    subprocess.run([sys.executable, "-c", script], env=env, check=True)
    assert set(entries()) == set(first)
    assert entries()[victim] != first[victim]
