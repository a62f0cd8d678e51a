"""The host's own float64 cbrt, exp2 and pow (host_vector_math.h), which
replace the C library's calls in the float64 loops: C99's special values
as NumPy gives them, bit for bit, and within the error measured for each
(in ULP of the correctly rounded result, long double as the reference)
over every magnitude, on dense, strided and broadcast operands."""

import warnings

import numpy as np
import pytest
import usmarray as ua

# The largest error measured over millions of inputs, a little above it;
# results in the subnormal range round twice (the scaling by 2^k last),
# within 0.8 ULP.
OWN_F64_ULP = {"cbrt": 0.51, "exp2": 0.7, "pow": 0.55}
SUBNORMAL_ULP = 0.8

NUMPY = {"cbrt": np.cbrt, "exp2": np.exp2, "pow": np.power}

needs_long_double = pytest.mark.skipif(
    np.finfo(np.longdouble).nmant <= np.finfo(np.float64).nmant,
    reason="no floating type wider than float64 here",
)


def host(a):
    return ua.asarray(a, device="host")


def check(name, got, args):
    """NaN where NumPy gives NaN; the correctly rounded result bit for bit
    (signs included) where it is zero or infinite and where NumPy's is
    exact (an integral power, a cube); within the measured bound of the
    long double result elsewhere."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = NUMPY[name](*args)
        ref = NUMPY[name](*(a.astype(np.longdouble) for a in args))
        ref64 = ref.astype(np.float64)
    assert got.dtype == np.float64
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan, err_msg=name)
    special = ~nan & (~np.isfinite(ref64) | (ref64 == 0) | (ref == ref64))
    np.testing.assert_array_equal(got[special], ref64[special], strict=True, err_msg=name)
    assert np.array_equal(np.signbit(got[special]), np.signbit(ref64[special])), name
    rest = ~nan & ~special
    with np.errstate(all="ignore"):
        spacing = np.spacing(np.abs(ref64[rest])).astype(np.longdouble)
        d = np.abs(got[rest].astype(np.longdouble) - ref[rest]) / spacing
    sub = np.abs(ref64[rest]) < np.finfo(np.float64).smallest_normal
    limit = np.where(sub, SUBNORMAL_ULP, OWN_F64_ULP[name])
    worst = int(np.argmax(d - limit)) if d.size else 0
    assert d.size == 0 or d[worst] <= limit[worst], (
        f"{name}{tuple(a[rest][worst] for a in args)!r} = {got[rest][worst]!r}, "
        f"want {ref[rest][worst]!r} ({float(d[worst]):.3f} ULP)"
    )


def dense_and_strided(name, x):
    f = getattr(ua, name)
    check(name, ua.asnumpy(f(host(x))), [x])
    xs = np.empty(3 * x.size)
    xs[::3] = x
    check(name, ua.asnumpy(f(host(xs)[::3])), [x])


@needs_long_double
def test_host_own_float64_cbrt():
    """+-0, +-inf and NaN their own, exact cubes exact, subnormals (scaled
    before the bit-level guess) and every magnitude within 0.51 ULP."""
    rng = np.random.default_rng(61)
    fi = np.finfo(np.float64)
    edges = [fi.smallest_subnormal, fi.smallest_normal, fi.max, 2.0**-1073, 3e-320,
             2.2250738585072e-308, 8.0, 27.0, 0.125, 2.0**-1074 * 27, 1e-300, 1e300,
             2.0**1023, 2.0**-1022 * 0.999]  # fmt: skip
    cubes = np.arange(1.0, 2.0**17, 37.0) ** 3
    spread = np.exp2(rng.uniform(-1074, 1024, 300000)) * rng.choice([-1.0, 1.0], 300000)
    x = np.concatenate([[np.nan, np.inf, -np.inf, 0.0, -0.0], edges, np.negative(edges), cubes,
                        -cubes, spread, rng.uniform(-10, 10, 200000)])  # fmt: skip
    dense_and_strided("cbrt", x)


@needs_long_double
def test_host_own_float64_exp2():
    """Integral powers exact from 2^-1074 to 2^1023, overflow to +inf from
    1024 on, underflow through the subnormals (ties to even at 2^-1075)
    to +0, exp2(-inf) = +0, exp2(+-0) = 1, NaN for NaN; within 0.7 ULP
    elsewhere."""
    rng = np.random.default_rng(62)
    edges = [1023.9999999999999, 1024.0, 1024.5, 1e300, -1022.0, -1022.5, -1074.0, -1074.5,
             -1075.0, -1075.0000000000002, -1076.0, -1e300, 0.5, -0.5, 1e-300, -1e-300,
             5e-324, 0.4999999999999999, 1100.0, -1100.0, 1101.0, -1101.0]  # fmt: skip
    x = np.concatenate([[np.nan, np.inf, -np.inf, 0.0, -0.0], edges, np.arange(-1080.0, 1030.0),
                        rng.uniform(-1080, 1030, 300000), rng.uniform(-1, 1, 100000),
                        np.exp2(rng.uniform(-60, 3, 50000))])  # fmt: skip
    dense_and_strided("exp2", x)
    k = np.arange(-1074, 1024)
    got = ua.asnumpy(ua.exp2(host(k.astype(np.float64))))
    np.testing.assert_array_equal(got, np.ldexp(1.0, k), strict=True)


@needs_long_double
def test_host_own_float64_pow():
    """C99's special cases over every pair of zeros, infinities, NaN, +-1,
    odd and even integers (2^53, 2^52 + 1 and 2^53 - 1 among them),
    halves, subnormal and finite values of both signs, as NumPy gives
    them bit for bit (pow(x, +-0) = 1 and pow(1, y) = 1 even for NaN,
    pow(-1, +-inf) = 1, NaN for a negative base to a fraction, the sign
    of the base to an odd power, zeros and infinities by |x| > 1 and the
    exponent's sign); within 0.55 ULP elsewhere, from below the subnormals
    past overflow, bases near 1 with large exponents among them; dense,
    strided and broadcast operands."""
    fi = np.finfo(np.float64)
    tiny, big = fi.smallest_subnormal, fi.max
    bases = [0.0, 1.0, 0.5, 2.0, 3.0, 0.75, 1.25, np.inf, tiny, big, 1e-300, 7.0,
             1.0000000000000002, 0.9999999999999999, 3e-310]  # fmt: skip
    bases = [np.nan] + bases + [-b for b in bases]
    exps = [0.0, 1.0, 2.0, 3.0, 0.5, 1.5, 2.0**53, 2.0**53 + 2, 2.0**52 + 1, 2.0**53 - 1,
            2.0**52 - 1, 2.0**52 - 0.5, 1023.0, 1075.0, 1e-300, 1e300, np.inf, 5.0, 0.25,
            tiny, 2.0**-1022]  # fmt: skip
    exps = [np.nan] + exps + [-e for e in exps]
    a, b = (g.ravel() for g in np.meshgrid(bases, exps))
    with np.errstate(all="ignore"):
        want = np.power(a, b)
    got = ua.asnumpy(ua.pow(host(a), host(b)))
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    exact = ~nan & (~np.isfinite(want) | (want == 0) | (want == 1))
    np.testing.assert_array_equal(got[exact], want[exact], strict=True)
    assert np.array_equal(np.signbit(got[exact]), np.signbit(want[exact]))
    check("pow", got, [a, b])

    rng = np.random.default_rng(63)
    n = 200000
    x = np.exp2(rng.uniform(-60, 60, n))
    # exponents whose results run from below the subnormals past overflow
    y = rng.uniform(-1090, 1035, n) / np.log2(x)
    sign = rng.choice([-1.0, 1.0], n)
    near1 = 1.0 + rng.uniform(-1e-3, 1e-3, n)
    y1 = rng.uniform(-700, 700, n) / np.log(near1)
    sub = np.exp2(rng.uniform(-1074, -1022, n // 4))
    a = np.concatenate([x * sign, x[: n // 2] * sign[: n // 2], near1, sub,
                        rng.uniform(0, 4, n)])  # fmt: skip
    b = np.concatenate([y, np.rint(y[: n // 2]), y1, rng.uniform(-1.2, 1.2, n // 4),
                        rng.standard_normal(n) * 30])  # fmt: skip
    check("pow", ua.asnumpy(ua.pow(host(a), host(b))), [a, b])
    a2, b2 = np.empty(2 * a.size), np.empty(3 * b.size)
    a2[::2], b2[::3] = a, b
    check("pow", ua.asnumpy(ua.pow(host(a2)[::2], host(b2)[::3])), [a, b])
    for s in (-2.0, 0.0, -0.0, -np.inf, 1.0, -1.0):
        got = ua.asnumpy(ua.pow(host(np.full(1, s)), host(b)))
        check("pow", got, [np.full(b.shape, s), b])
