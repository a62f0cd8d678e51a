"""dpctl's angle, proj and cumulative_logsumexp against NumPy (np.angle, C's
cproj, np.logaddexp.accumulate): every dtype, special values, strided
inputs and out=, on the default device and on a SYCL device where one
exists."""

import itertools

import numpy as np
import pytest
import usmarray as ua

DEVICES = [None] + [d.filter_string for d in ua.get_devices(backend="sycl")[:1]]

DTYPES = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"]
# The complex dtype each computes in: the first that it casts to safely.
COMPLEX_OF = {d: "c8" if np.can_cast(d, "c8") else "c16" for d in DTYPES}
SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -2.0, 1e-30]


@pytest.fixture(params=DEVICES, ids=lambda d: d or "default")
def dev(request):
    return request.param


def supported(dev, *dtypes):
    wide = {"f8", "c16"}
    if dev is not None and wide & set(dtypes) and not ua.Device(dev).has_aspect_fp64:
        pytest.skip("the device has no float64")


def on(dev, a, dtype=None):
    return ua.asarray(np.asarray(a, dtype=dtype), device=dev)


def values_of(dtype):
    """Small values of every sign the dtype holds, NaN and infinities for
    floating ones."""
    if dtype == "?":
        return np.array([True, False, True])
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return np.array([0, 1, 7, info.max, info.min], dtype=dtype)
    if np.dtype(dtype).kind == "f":
        return np.array(SPECIALS, dtype=dtype)
    pairs = itertools.product(SPECIALS, repeat=2)
    return np.array([complex(a, b) for a, b in pairs], dtype=dtype)


def close(got, expected, ulps=4, scale=0.0):
    """Equal within a few ULP of the dtype (and of scale: the size of the
    terms where a sum of them cancels), NaN where NaN, infinities and the
    signs of zeros exactly."""
    got = ua.asnumpy(got)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    tol = ulps * np.finfo(expected.dtype).eps
    np.testing.assert_allclose(got, expected, rtol=tol, atol=tol * scale, equal_nan=True)
    zero = expected == 0
    assert np.array_equal(np.signbit(got.real[zero]), np.signbit(expected.real[zero]))


# ------------------------------------------------------------------ angle


@pytest.mark.parametrize("dtype", DTYPES)
def test_angle_matches_numpy_in_the_complex_dtype(dev, dtype):
    supported(dev, dtype, COMPLEX_OF[dtype])
    xn = values_of(dtype)
    expected = np.angle(xn.astype(COMPLEX_OF[dtype]))
    assert expected.dtype == ("f4" if COMPLEX_OF[dtype] == "c8" else "f8")
    close(ua.angle(on(dev, xn)), expected)


@pytest.mark.parametrize("dtype", ["f2", "f4", "i2", "u4", "i8"])
def test_angle_of_real_values_is_zero_or_pi(dev, dtype):
    supported(dev, COMPLEX_OF[dtype])
    xn = np.array([3, 0, -2, 5], dtype=dtype) if dtype[0] != "u" else np.arange(4, dtype=dtype)
    got = ua.asnumpy(ua.angle(on(dev, xn)))
    np.testing.assert_array_equal(got, np.where(xn < 0, np.pi, 0.0).astype(got.dtype))


@pytest.mark.parametrize("dtype", ["f2", "f4", "f8", "i1", "u8", "?"])
def test_angle_of_real_arrays_has_the_complex_angles_bits(dev, dtype):
    """A real array's angle takes the real atan2 loop: the same bits as
    the angle of its complex values (imaginary part +0), signed zeros and
    NaN included, on a reversed strided view and into out=."""
    supported(dev, dtype, COMPLEX_OF[dtype])
    xn = np.tile(values_of(dtype), 3)
    expected = np.angle(xn.astype(COMPLEX_OF[dtype]))
    got = ua.asnumpy(ua.angle(on(dev, xn)))
    assert got.dtype == expected.dtype
    same_bits_but_nan_payloads(got, expected)
    out = ua.empty(xn[::-2].shape, dtype=expected.dtype, device=dev)
    assert ua.angle(on(dev, xn)[::-2], out=out) is out
    same_bits_but_nan_payloads(ua.asnumpy(out), expected[::-2])


def same_bits_but_nan_payloads(got, expected):
    """The same bits, signed zeros included, and NaN where NaN (a GPU's
    atan2 gives its own NaN)."""
    nan = np.isnan(expected)
    assert np.array_equal(np.isnan(got), nan)
    bits = f"u{got.itemsize}"
    assert np.array_equal(got[~nan].view(bits), expected[~nan].view(bits))


@pytest.mark.parametrize("dtype", ["c8", "c16"])
def test_angle_of_strided_input_into_out(dev, dtype):
    supported(dev, dtype)
    rng = np.random.default_rng(7)
    base = (rng.normal(size=(6, 10)) + 1j * rng.normal(size=(6, 10))).astype(dtype)
    x = on(dev, base)[::2, ::-3]
    out = ua.empty(x.shape, dtype="f4" if dtype == "c8" else "f8", device=dev)
    r = ua.angle(x, out=out)
    assert r is out
    close(out, np.angle(base[::2, ::-3]))


# ------------------------------------------------------------------- proj


def np_proj(z):
    """C's cproj: an infinite part on either side gives inf + copysign(0,
    imag) j."""
    inf = np.isinf(z.real) | np.isinf(z.imag)
    projected = np.empty_like(z)
    projected.real = np.where(inf, np.inf, z.real)
    projected.imag = np.where(inf, np.copysign(np.zeros_like(z.imag), z.imag), z.imag)
    return projected


@pytest.mark.parametrize("dtype", DTYPES)
def test_proj_matches_cproj_in_the_complex_dtype(dev, dtype):
    ct = COMPLEX_OF[dtype]
    supported(dev, dtype, ct)
    xn = values_of(dtype)
    expected = np_proj(xn.astype(ct))
    got = ua.asnumpy(ua.proj(on(dev, xn)))
    assert got.dtype == ct
    # proj moves values and computes none: equal, with the zeros' signs.
    np.testing.assert_array_equal(got, expected)
    for part in ("real", "imag"):
        g, e = getattr(got, part), getattr(expected, part)
        number = ~np.isnan(e)
        assert np.array_equal(np.signbit(g[number]), np.signbit(e[number])), part


def test_proj_of_infinities_signs_the_zero_as_the_imaginary_part(dev):
    xn = np.array(
        [
            complex(np.inf, -1),
            complex(0, -np.inf),
            complex(-np.inf, np.nan),
            complex(np.nan, np.inf),
            complex(1, 2),
        ],
        dtype="c8",
    )
    got = ua.asnumpy(ua.proj(on(dev, xn)))
    assert np.array_equal(got.real, [np.inf, np.inf, np.inf, np.inf, 1])
    assert np.array_equal(got.imag, [0, 0, 0, 0, 2])
    assert list(np.signbit(got.imag)) == [True, True, False, False, False]


@pytest.mark.parametrize("dtype", ["c8", "c16"])
def test_proj_of_strided_input_into_out(dev, dtype):
    supported(dev, dtype)
    base = values_of(dtype).reshape(8, 8)
    x = on(dev, base)[1::2, ::-2]
    out = ua.empty(x.shape, dtype=dtype, device=dev)
    assert ua.proj(x, out=out) is out
    close(out, np_proj(base[1::2, ::-2]))


def test_angle_and_proj_refuse_what_is_not_an_array(dev):
    with pytest.raises(TypeError, match="angle"):
        ua.angle([1j])
    with pytest.raises(TypeError, match="proj"):
        ua.proj("x")
    with pytest.raises(ValueError):
        ua.angle(on(dev, [1j, 2j], "c8"), out=ua.empty(2, dtype="f8", device=dev))


# ---------------------------------------------------- cumulative_logsumexp


def np_cumlogsumexp(xn, axis, dtype):
    with np.errstate(invalid="ignore"):
        return np.logaddexp.accumulate(xn.astype(dtype), axis=axis)


@pytest.mark.parametrize("dtype", ["f2", "f4", "f8"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_cumulative_logsumexp_matches_numpy(dev, dtype, axis):
    supported(dev, dtype)
    rng = np.random.default_rng(3)
    xn = (rng.normal(scale=20, size=(5, 300))).astype(dtype)
    got = ua.cumulative_logsumexp(on(dev, xn), axis=axis)
    close(got, np_cumlogsumexp(xn, axis, dtype), ulps=8)


@pytest.mark.parametrize("dtype", ["f4", "f8"])
def test_cumulative_logsumexp_special_values(dev, dtype):
    supported(dev, dtype)
    for a, b in itertools.product(SPECIALS + [1e30, -1e30], repeat=2):
        xn = np.array([a, b, 0.5], dtype=dtype)
        close(ua.cumulative_logsumexp(on(dev, xn)), np_cumlogsumexp(xn, 0, dtype))


def test_cumulative_logsumexp_does_not_overflow(dev):
    xn = np.array([1000.0, 1000.0, -1000.0, 1000.0], dtype="f4")
    got = ua.asnumpy(ua.cumulative_logsumexp(on(dev, xn)))
    expected = 1000 + np.log(np.array([1, 2, 2, 3], dtype="f8"))
    np.testing.assert_allclose(got, expected.astype("f4"), rtol=1e-6)


@pytest.mark.parametrize("dtype", ["?", "i1", "u2", "i4", "u8", "i8"])
def test_cumulative_logsumexp_of_bool_and_integers_in_the_default_floating_dtype(dev, dtype):
    xn = values_of(dtype)[:3]
    x = on(dev, xn)
    ft = ua.__array_namespace_info__().default_dtypes(device=x.device)["real floating"]
    got = ua.cumulative_logsumexp(x)
    assert got.dtype == ft
    close(got, np_cumlogsumexp(xn, 0, np.dtype(str(ft))))


def test_cumulative_logsumexp_dtype_include_initial_strides_and_out(dev):
    supported(dev, "f8")
    rng = np.random.default_rng(5)
    base = rng.normal(size=(8, 9))
    xn = base[::2, ::-2]
    x = on(dev, base)[::2, ::-2]
    # A floating dtype= computes in it.  A running log-sum-exp near 0 is
    # the difference of terms near 1 in size: the device's log1p and exp
    # may differ from NumPy's by an ULP of the terms.
    scale = np.abs(xn).max()
    close(ua.cumulative_logsumexp(x, axis=0, dtype="f4"), np_cumlogsumexp(xn, 0, "f4"), scale=scale)
    # Another is computed in x's and cast after.
    got = ua.asnumpy(ua.cumulative_logsumexp(x * 10, axis=1, dtype="i8"))
    assert got.dtype == "i8"
    np.testing.assert_array_equal(got, np_cumlogsumexp(xn * 10, 1, "f8").astype("i8"))
    r = ua.asnumpy(ua.cumulative_logsumexp(x, axis=1, include_initial=True))
    assert r.shape == (4, 6) and np.all(r[:, 0] == -np.inf)
    close(ua.asarray(r[:, 1:]), np_cumlogsumexp(xn, 1, "f8"), scale=scale)
    out = ua.empty((5, 5), dtype="f8", device=dev)
    assert ua.cumulative_logsumexp(x, axis=0, include_initial=True, out=out) is out
    assert np.all(ua.asnumpy(out)[0] == -np.inf)
    close(ua.asarray(ua.asnumpy(out)[1:]), np_cumlogsumexp(xn, 0, "f8"), scale=scale)


def test_cumulative_logsumexp_of_empty_and_nan(dev):
    e = ua.cumulative_logsumexp(ua.empty((0,), dtype="f4", device=dev), include_initial=True)
    assert e.shape == (1,) and ua.asnumpy(e)[0] == -np.inf
    assert ua.cumulative_logsumexp(ua.empty((3, 0), dtype="f4", device=dev), axis=1).shape == (3, 0)
    xn = np.ones(50, dtype="f4")
    xn[17] = np.nan
    r = ua.asnumpy(ua.cumulative_logsumexp(on(dev, xn)))
    assert np.all(np.isnan(r[17:])) and not np.any(np.isnan(r[:17]))


def test_cumulative_logsumexp_refuses_bad_arguments(dev):
    with pytest.raises(ValueError, match="real values"):
        ua.cumulative_logsumexp(on(dev, [1j], "c8"))
    with pytest.raises(ValueError, match="one-dimensional"):
        ua.cumulative_logsumexp(ua.ones((2, 2), device=dev))
    with pytest.raises(TypeError):
        ua.cumulative_logsumexp([1.0, 2.0])
    with pytest.raises(ValueError):
        ua.cumulative_logsumexp(on(dev, [1.0], "f4"), out=ua.empty(1, dtype="f8", device=dev))
    with pytest.raises(ValueError):
        ua.cumulative_logsumexp(on(dev, [1.0], "f4"), out=ua.empty(2, dtype="f4", device=dev))
