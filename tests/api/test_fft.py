"""usmarray.fft against numpy.fft: every function, the four floating
dtypes, n and s padding and cutting, axes (negative, several, repeated,
more than a plan's three), every norm, strided and reversed operands and
batches, on the first device of each backend the machine has (the host's
transforms are NumPy's pocketfft on the same memory, a SYCL CPU device's
too after its queue's work; CUDA's are cuFFT's).  Results agree within
1e-5 (single precision) or 1e-12 (double) of the reference's largest
magnitude, and have NumPy 2's dtypes."""

import warnings

import numpy as np
import pytest
import usmarray as ua
from conftest import first_device_of_each_backend

COMPLEX = ["complex64", "complex128"]
REAL = ["float32", "float64"]
NORMS = [None, "backward", "ortho", "forward"]

# A CPU device's transforms run on the host; "+own" makes the scaling and
# conjugation that follow them run on its own kernels.
OWN = "+own"
DEVICES = first_device_of_each_backend()
DEVICES += [
    d + OWN for d in DEVICES if not d.startswith("host") and ua.Device(d).device_type == "cpu"
]
DEVICE = DEVICES[0]


@pytest.fixture(params=DEVICES, autouse=True)
def device(request, monkeypatch):
    global DEVICE
    DEVICE = request.param
    if DEVICE.endswith(OWN):
        DEVICE = DEVICE[: -len(OWN)]
        monkeypatch.setenv("USMARRAY_DEVICE_KERNELS", "1")
    return request.param


def sample(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def on_device(x, usm_type="device"):
    return ua.asarray(x, device=DEVICE, usm_type=usm_type)


def assert_close(got, want):
    """got (a USMArray) has want's dtype and shape, and values within the
    dtype's tolerance of want's largest magnitude."""
    assert isinstance(got, ua.USMArray)
    g = ua.asnumpy(got)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    assert g.shape == want.shape, (g.shape, want.shape)
    if want.size == 0:
        return
    single = want.dtype in (np.complex64, np.float32)
    scale = max(float(np.abs(want).max()), np.finfo(want.dtype).tiny)
    err = float(np.abs(g.astype(np.complex128) - want).max())
    assert err <= (1e-5 if single else 1e-12) * scale, (err, scale)


def norm_kw(norm):
    return {} if norm is None else {"norm": norm}


def dtypes_of(name):
    """The input dtypes a function takes: a real one's input is real."""
    return REAL if name in ("rfft", "ihfft", "rfftn") else COMPLEX + REAL


# --------------------------------------------------------- one axis


ONE_AXIS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
# (n, axis) over a (6, 5) operand: the axis' length, cut, padded, odd, 1.
N_AXIS = [(None, -1), (3, -1), (11, 0), (8, 1), (1, 0), (None, 0), (7, -2)]


@pytest.mark.parametrize("name", ONE_AXIS)
@pytest.mark.parametrize("n, axis", N_AXIS)
@pytest.mark.parametrize("norm", NORMS)
def test_one_axis_matches_numpy(name, n, axis, norm):
    for dtype in dtypes_of(name):
        x = sample(dtype, (6, 5))
        want = getattr(np.fft, name)(x, n=n, axis=axis, **norm_kw(norm))
        got = getattr(ua.fft, name)(on_device(x), n=n, axis=axis, **norm_kw(norm))
        assert_close(got, want)


@pytest.mark.parametrize("name", ONE_AXIS)
def test_one_axis_defaults(name):
    x = sample(dtypes_of(name)[0], (3, 10))
    assert_close(getattr(ua.fft, name)(on_device(x)), getattr(np.fft, name)(x))


# ------------------------------------------------------ several axes


SEVERAL = ["fftn", "ifftn", "rfftn", "irfftn"]
# (s, axes) over a (4, 5, 6, 3) operand.
S_AXES = [
    (None, None),  # all four axes: a plan of three and one of one
    (None, (0,)),
    (None, (-1, 0)),
    ((4, 7), (0, 2)),
    (None, (2, 0, 1)),
    ((5, 2, 3, 4), (3, 2, 1, 0)),
    ((3, 3), (1, 1)),  # a repeated axis is transformed twice
    ((6, 4, 3), (2, 1, 2)),
    (None, (1, 1, 1, 1)),
    ((5, -1), (0, 1)),  # -1: the axis' length
]


@pytest.mark.parametrize("name", SEVERAL)
@pytest.mark.parametrize("s, axes", S_AXES)
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_several_axes_match_numpy(name, s, axes, norm):
    for dtype in dtypes_of(name):
        x = sample(dtype, (4, 5, 6, 3))
        want = getattr(np.fft, name)(x, s=s, axes=axes, **norm_kw(norm))
        got = getattr(ua.fft, name)(on_device(x), s=s, axes=axes, **norm_kw(norm))
        assert_close(got, want)


@pytest.mark.parametrize("name", SEVERAL)
def test_s_without_axes_takes_the_last_axes(name):
    """As NumPy 2 does (with a DeprecationWarning there)."""
    x = sample(dtypes_of(name)[-1], (3, 4, 5))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        want = getattr(np.fft, name)(x, s=(6, 4))
    assert_close(getattr(ua.fft, name)(on_device(x), s=(6, 4)), want)


def test_fftn_over_no_axes_is_a_complex_copy():
    x = sample("float32", (2, 3))
    got = ua.fft.fftn(on_device(x), axes=())
    assert got.dtype == ua.complex64
    assert np.array_equal(ua.asnumpy(got), x)


# ------------------------------------------------------------ layouts


def layouts(x):
    """x and views of it that a plan must copy: strided, reversed,
    transposed, Fortran-ordered."""
    big = np.concatenate([x, x], axis=-1)
    yield "C", x, lambda a: a
    yield "strided", big[..., ::2], lambda a: ua.concat([a, a], axis=-1)[..., ::2]
    yield "reversed", x[::-1, :, ::-1], lambda a: a[::-1, :, ::-1]
    yield "transposed", x.transpose(2, 0, 1), lambda a: ua.permute_dims(a, (2, 0, 1))
    yield "fortran", np.asfortranarray(x), lambda a: ua.asarray(a, order="F", copy=True)


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_one_axis_of_strided_operands(name):
    dtype = dtypes_of(name)[0]
    base = sample(dtype, (3, 4, 6))
    for label, x, make in layouts(base):
        a = make(on_device(base))
        assert np.array_equal(ua.asnumpy(a), x), label
        for axis in (0, 1, -1):
            want = getattr(np.fft, name)(x, axis=axis)
            assert_close(getattr(ua.fft, name)(a, axis=axis), want)


@pytest.mark.parametrize("name", SEVERAL)
def test_several_axes_of_strided_operands(name):
    dtype = dtypes_of(name)[-1]
    base = sample(dtype, (3, 4, 6))
    for _label, x, make in layouts(base):
        a = make(on_device(base))
        for axes in (None, (0, 2), (2, 1)):
            want = getattr(np.fft, name)(x, axes=axes)
            assert_close(getattr(ua.fft, name)(a, axes=axes), want)


def test_a_large_batch_of_short_transforms():
    x = sample("complex128", (500, 3, 16))
    assert_close(ua.fft.fft(on_device(x)), np.fft.fft(x))
    assert_close(ua.fft.fftn(on_device(x), axes=(1, 2)), np.fft.fftn(x, axes=(1, 2)))


def test_long_transforms_of_awkward_lengths():
    for n in (1, 2, 97, 1000, 4096, 65537):
        x = sample("complex64", (n,), seed=n)
        assert_close(ua.fft.fft(on_device(x)), np.fft.fft(x))
        r = sample("float64", (n,), seed=n)
        assert_close(ua.fft.rfft(on_device(r)), np.fft.rfft(r))


def test_empty_batches_and_padding_from_nothing():
    empty = np.zeros((0, 8), np.complex128)
    for name in ("fft", "ifft", "irfft", "hfft"):
        assert_close(getattr(ua.fft, name)(on_device(empty)), getattr(np.fft, name)(empty))
    assert_close(ua.fft.rfft(on_device(empty.real)), np.fft.rfft(empty.real))
    nothing = np.zeros((3, 0), np.complex64)
    assert_close(ua.fft.fft(on_device(nothing), n=4), np.fft.fft(nothing, n=4))


# ---------------------------------------------------- dtypes and memory


@pytest.mark.parametrize("dtype", ["bool", "int8", "int32", "int64", "uint16"])
def test_integers_and_bools_compute_in_the_default_floating_type(dtype):
    x = (np.arange(24) % 5).astype(dtype).reshape(4, 6)
    real = ua.__array_namespace_info__().default_dtypes(device=DEVICE)["real floating"]
    for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "rfftn", "irfftn"):
        got = getattr(ua.fft, name)(on_device(x))
        want = getattr(np.fft, name)(x)
        assert got.dtype.itemsize in (real.itemsize, 2 * real.itemsize), name
        if real == ua.float64:
            assert_close(got, want)


def test_float16_computes_in_single_precision():
    x = sample("float16", (8,))
    assert ua.fft.fft(on_device(x)).dtype == ua.complex64
    assert ua.fft.rfft(on_device(x)).dtype == ua.complex64
    assert_close(ua.fft.fft(on_device(x)), np.fft.fft(x))


@pytest.mark.parametrize("usm_type", ["device", "shared", "host"])
def test_results_live_on_the_operands_queue_and_kind(usm_type):
    a = on_device(sample("float32", (4, 6)), usm_type)
    for y in (
        ua.fft.rfft(a),
        ua.fft.irfftn(ua.fft.rfftn(a)),
        ua.fft.hfft(ua.fft.fft(a)),
        ua.fft.fftshift(a),
    ):
        assert y.usm_type == usm_type
        assert y.device == a.device


def test_the_operand_is_left_as_it_was():
    x = sample("complex128", (5, 8))
    a = on_device(x)
    ua.fft.irfft(a)
    ua.fft.hfft(a)
    ua.fft.fftn(a, s=(3, 9))
    assert np.array_equal(ua.asnumpy(a), x)


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("norm", NORMS)
def test_inverses_round_trip(dtype, norm):
    x = sample(dtype, (4, 6, 5))
    a = on_device(x)
    kw = norm_kw(norm)
    assert_close(ua.fft.ifft(ua.fft.fft(a, **kw), **kw), x)
    assert_close(ua.fft.ifftn(ua.fft.fftn(a, **kw), **kw), x)
    r = x.real.copy()
    assert_close(ua.fft.irfft(ua.fft.rfft(on_device(r), **kw), n=5, **kw), r)
    assert_close(ua.fft.irfftn(ua.fft.rfftn(on_device(r), **kw), s=(4, 6, 5), **kw), r)
    want = np.fft.ihfft(np.fft.hfft(x, n=9, **kw), **kw)
    assert_close(ua.fft.ihfft(ua.fft.hfft(a, n=9, **kw), **kw), want)


# ------------------------------------------------------- frequencies


@pytest.mark.parametrize("n", [1, 2, 5, 8, 101])
@pytest.mark.parametrize("d", [1.0, 0.25, 3])
@pytest.mark.parametrize("dtype", [None, "float32", "float64"])
def test_frequencies_match_numpy(n, d, dtype):
    kw = {} if dtype is None else {"dtype": dtype}
    for name in ("fftfreq", "rfftfreq"):
        got = getattr(ua.fft, name)(n, d=d, device=DEVICE, **kw)
        want = getattr(np.fft, name)(n, d=d)
        if dtype is not None:
            want = want.astype(dtype)
        assert got.device == ua.Device(DEVICE)
        assert got.dtype == want.dtype
        assert np.array_equal(ua.asnumpy(got), want)


def test_frequencies_default_dtype_and_usm_type():
    got = ua.fft.fftfreq(4, device=DEVICE, usm_type="host")
    real = ua.__array_namespace_info__().default_dtypes(device=DEVICE)["real floating"]
    assert got.dtype == real and got.usm_type == "host"


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("axes", [None, 0, -1, (0, 2), [2, 0, -2], (1, 1)])
def test_shifts_match_numpy(name, axes):
    for dtype in ("float32", "complex128"):
        x = sample(dtype, (3, 4, 5))
        for label, xx, make in layouts(x):
            got = getattr(ua.fft, name)(make(on_device(x)), axes=axes)
            want = getattr(np.fft, name)(xx, axes=axes)
            assert got.dtype == want.dtype
            assert np.array_equal(ua.asnumpy(got), want), label


def test_shifts_undo_each_other():
    x = sample("float64", (5, 7))
    a = on_device(x)
    assert np.array_equal(ua.asnumpy(ua.fft.ifftshift(ua.fft.fftshift(a))), x)


# -------------------------------------------------------- bad inputs


def bad(call, exc, fragment):
    with pytest.raises(exc) as info:
        call()
    assert fragment in str(info.value), str(info.value)


def test_bad_arguments_name_the_function_and_the_problem():
    v = on_device(np.arange(6.0))
    m = on_device(np.ones((2, 3)))
    c = on_device(np.ones(3, complex))
    s = on_device(np.array(1.0))
    bad(lambda: ua.fft.fft(v, n=0), ValueError, "fft: n must be at least 1")
    bad(lambda: ua.fft.ifft(v, n=2.0), TypeError, "ifft: n must be an integer")
    bad(lambda: ua.fft.rfft(v, axis=1), np.exceptions.AxisError, "rfft: axis 1 is out")
    bad(lambda: ua.fft.fft(v, norm="none"), ValueError, "fft: norm must be")
    bad(lambda: ua.fft.fft(v, norm=1), TypeError, "fft: norm must be")
    bad(lambda: ua.fft.hfft(s), ValueError, "hfft needs an array of at least one dimension")
    bad(lambda: ua.fft.fftn(s), ValueError, "fftn needs an array of at least one")
    bad(lambda: ua.fft.rfft(c), TypeError, "rfft takes real values, not complex128")
    bad(lambda: ua.fft.ihfft(c), TypeError, "ihfft takes real values")
    bad(lambda: ua.fft.rfftn(c), TypeError, "rfftn takes real values")
    bad(lambda: ua.fft.fftn(m, s=(2, 3), axes=(0,)), ValueError, "s has 2 entries but axes has 1")
    bad(lambda: ua.fft.fftn(m, s=(1, 2, 3)), ValueError, "s has 3 entries but x has 2")
    bad(lambda: ua.fft.ifftn(m, s=3), TypeError, "ifftn: s must be None or a sequence")
    bad(lambda: ua.fft.fftn(m, axes=0), TypeError, "fftn: axes must be None or a sequence")
    bad(lambda: ua.fft.irfftn(m, s=(0, 3), axes=(0, 1)), ValueError, "irfftn: s[0] must be")
    bad(lambda: ua.fft.irfftn(m, axes=()), ValueError, "irfftn needs at least one axis")
    bad(lambda: ua.fft.irfft(on_device(np.ones(1, complex))), ValueError, "pass n")
    bad(lambda: ua.fft.fft(np.ones(3)), TypeError, "fft expects a USMArray")
    bad(lambda: ua.fft.fft(v, 4), TypeError, "positional argument")
    bad(lambda: ua.fft.fft(x=v), TypeError, "positional-only")
    bad(lambda: ua.fft.fft(v, n=2**62), ValueError, "fft: ")
    bad(lambda: ua.fft.fftfreq(0), ValueError, "fftfreq: n must be at least 1")
    bad(lambda: ua.fft.rfftfreq(4, d=0), ValueError, "rfftfreq: d must be")
    bad(lambda: ua.fft.fftfreq(4, d="a"), TypeError, "fftfreq: d must be a real number")
    bad(lambda: ua.fft.fftfreq(4, dtype=ua.int32), TypeError, "real floating values, not int32")
    bad(lambda: ua.fft.fftshift(m, axes=3), np.exceptions.AxisError, "fftshift: axis 3")
    bad(lambda: ua.fft.ifftshift(s), ValueError, "ifftshift needs an array")


def test_an_error_of_numpy_becomes_the_callers_exception(monkeypatch):
    """The host's transform reports NumPy's failure as a RuntimeError
    naming it, and leaves no exception behind."""
    if ua.Device(DEVICE).device_type != "cpu":
        pytest.skip("NumPy computes only the CPU devices' transforms")

    def broken(*args, **kwargs):
        raise ValueError("broken on purpose")

    monkeypatch.setattr(np.fft, "fft", broken)
    monkeypatch.setattr(np.fft, "fftn", broken)
    bad(lambda: ua.fft.fft(on_device(np.ones(4, complex))), RuntimeError, "broken on purpose")
    monkeypatch.undo()
    assert_close(ua.fft.fft(on_device(np.ones(4, complex))), np.fft.fft(np.ones(4, complex)))


# ------------------------------------------------------------ shapes


def test_the_module_lists_the_standards_functions():
    names = {"fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft",
             "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift"}  # fmt: skip
    assert set(ua.fft.__all__) == names
    import usmarray.fft

    assert usmarray.fft is ua.fft


def test_signatures_follow_the_standard():
    import inspect

    sig = inspect.signature(ua.fft.fft)
    assert str(sig) == "(x, /, *, n=None, axis=-1, norm='backward')"
    assert str(inspect.signature(ua.fft.rfftn)) == "(x, /, *, s=None, axes=None, norm='backward')"
    assert str(inspect.signature(ua.fft.fftshift)) == "(x, /, *, axes=None)"
    assert str(inspect.signature(ua.fft.fftfreq)).startswith(
        "(n, /, *, d=1.0, dtype=None, device=None"
    )
