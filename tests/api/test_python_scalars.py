"""Python scalars written into arrays follow NumPy 2's rules: an integer
out of the dtype's range raises OverflowError, a complex value into a real
dtype TypeError (but full and full_like keep its real part, as NumPy's and
dpctl's full do), a float into an integer dtype truncates (NaN raises
ValueError, infinities and values out of range OverflowError).  Array to
array casts keep NumPy's unsafe semantics.  Each case is compared with
NumPy itself."""

import enum
import warnings

import numpy as np
import pytest
import usmarray as ua

# NumPy warns where a float overflows to infinity in a narrower type.
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")

DTYPES = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"]


class Big(enum.IntEnum):
    VALUE = 300


VALUES = [
    0,
    1,
    -1,
    127,
    128,
    255,
    256,
    -129,
    300,
    2**15,
    2**31,
    -(2**31) - 1,
    2**32,
    2**40,
    2**63 - 1,
    2**63,
    2**64 - 1,
    2**64,
    -(2**63),
    -(2**63) - 1,
    10**400,
    Big.VALUE,
    True,
    False,
    1.5,
    -1.5,
    -0.5,
    255.9,
    256.0,
    1e20,
    -1e20,
    2.0**63,
    2.0**64,
    float("nan"),
    float("inf"),
    -float("inf"),
    1e300,
    1 + 2j,
    0j,
    complex(1, 0),
    complex(float("nan"), 0),
]


def numpy_outcome(store, dtype, value):
    """What NumPy's a[0] = value leaves in a[0], or the exception class."""
    a = np.zeros(2, dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            store(a, value)
        except (OverflowError, TypeError, ValueError) as e:
            return type(e)
    return a


def ours(store, dtype, value):
    x = ua.zeros(2, dtype=dtype)
    try:
        store(x, value)
    except (OverflowError, TypeError, ValueError) as e:
        return type(e)
    return ua.asnumpy(x)


def same(expected, got):
    if isinstance(expected, type) or isinstance(got, type):
        return expected is got
    return np.array_equal(expected, got, equal_nan=True)


def set_first(a, v):
    a[0] = v


def set_all(a, v):
    a[...] = v


def fill(a, v):
    a.fill(v)


def set_list(a, v):
    a[:] = [v, v]


def set_tuple(a, v):
    a[:1] = (v,)


@pytest.mark.parametrize("store", [set_first, set_all, fill, set_list, set_tuple])
@pytest.mark.parametrize("dtype", DTYPES)
def test_python_scalars_store_as_numpy_2_stores_them(store, dtype):
    for value in VALUES:
        expected = numpy_outcome(store, dtype, value)
        got = ours(store, dtype, value)
        assert same(expected, got), (dtype, value, expected, got)


def full_value(value, dtype):
    """What full stores: a complex fill into a real or integer dtype keeps
    its real part (a bool its truth), as NumPy's and dpctl's full do."""
    if isinstance(value, complex) and np.dtype(dtype).kind != "c":
        return bool(value) if np.dtype(dtype).kind == "b" else value.real
    return value


@pytest.mark.parametrize("dtype", DTYPES)
def test_full_follows_the_same_rules(dtype):
    for value in VALUES:
        expected = numpy_outcome(set_all, dtype, full_value(value, dtype))
        try:
            got = ua.asnumpy(ua.full(2, value, dtype=dtype))
        except (OverflowError, TypeError, ValueError) as e:
            got = type(e)
        assert same(expected, got), (dtype, value, expected, got)
        x = ua.zeros(3, dtype="f8")
        try:
            got = ua.asnumpy(ua.full_like(x, value, dtype=dtype))[:2]
        except (OverflowError, TypeError, ValueError) as e:
            got = type(e)
        assert same(expected, got), (dtype, value, expected, got)


def test_the_issue_examples_raise():
    with pytest.raises(OverflowError, match="300 out of bounds for uint8"):
        ua.full(2, 300, dtype="u1")
    x = ua.zeros(2, dtype="u1")
    with pytest.raises(OverflowError, match="-1 out of bounds for uint8"):
        x[0] = -1
    y = ua.zeros(2, dtype="i4")
    with pytest.raises(OverflowError, match="out of bounds for int32"):
        y.fill(2**40)
    z = ua.zeros(2, dtype="f4")
    with pytest.raises(TypeError, match="imaginary part"):
        z[0] = 1 + 2j
    # Nothing was written by the refused stores.
    assert ua.asnumpy(x).tolist() == [0, 0]
    assert ua.asnumpy(y).tolist() == [0, 0]
    assert ua.asnumpy(z).tolist() == [0.0, 0.0]


def test_full_of_a_complex_value_keeps_the_real_part():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        for dtype in ("i1", "u8", "f2", "f4", "f8", "?"):
            expected = np.full(3, 0.3 - 2j, dtype=dtype) if dtype[0] in "f?" else None
            got = ua.asnumpy(ua.full(3, 0.3 - 2j, dtype=dtype))
            if expected is not None:
                np.testing.assert_array_equal(got, expected)
            assert got.dtype == dtype
            like = ua.asnumpy(ua.full_like(ua.zeros(2, dtype=dtype), 2.5 + 1j))
            np.testing.assert_array_equal(like, np.full(2, 2.5 + 1j, dtype=dtype))
    assert ua.asnumpy(ua.full(2, 7.9 - 1j, dtype="i4")).tolist() == [7, 7]
    assert ua.asnumpy(ua.full(2, 0j, dtype="?")).tolist() == [False, False]


@pytest.mark.parametrize("value", ["0", b"0", bytearray(b"0"), None])
def test_full_and_full_like_refuse_text(value):
    x = ua.zeros(2)
    for call in (lambda: ua.full(2, value), lambda: ua.full_like(x, value)):
        with pytest.raises(TypeError, match="fill_value must be a number or an array, not"):
            call()
    with pytest.raises(TypeError, match="U1"):
        ua.full_like(x, np.array(["a"]))


def test_full_of_an_array_follows_its_data():
    q = ua.Queue("host")
    x = ua.arange(10, dtype="i4", usm_type="shared", queue=q)
    y = ua.full(10, x[3])
    assert (y.usm_type, y.queue, y.dtype) == ("shared", q, np.int32)
    assert ua.asnumpy(y).tolist() == [3] * 10
    z = ua.full(4, x[3], dtype="f4", usm_type="host")
    assert (z.usm_type, z.dtype) == ("host", np.float32)
    assert ua.asnumpy(z).tolist() == [3.0] * 4
    w = ua.full((2, 3), x[:3])
    assert w.usm_type == "shared" and ua.asnumpy(w).tolist() == [[0, 1, 2]] * 2


@pytest.mark.parametrize("dtype", DTYPES)
def test_asarray_of_scalars_and_sequences_matches_numpy(dtype):
    for value in VALUES:
        for obj in (value, [value], [[value, 0]]):
            try:
                expected = np.asarray(obj, dtype=dtype)
            except (OverflowError, TypeError, ValueError) as e:
                expected = type(e)
            try:
                got = ua.asnumpy(ua.asarray(obj, dtype=dtype))
            except (OverflowError, TypeError, ValueError) as e:
                got = type(e)
            assert same(expected, got), (dtype, obj, expected, got)


ARANGE = [
    (10,),
    (300,),
    (250, 256),
    (250, 257),
    (-1, 3),
    (-128, 0),
    (-129, 0),
    (0, 3, 1j),
    (1j, 3),
    (300, 0, -1),
    (255, -1, -1),
    (0.5, 255.9),
    (2**63 - 2, 2**63),
    (0, 10, 3),
]


@pytest.mark.parametrize("dtype", ["i1", "u1", "i2", "u8", "i8", "f4", "f8"])
def test_arange_values_fit_the_dtype(dtype):
    info = np.iinfo(dtype) if dtype[0] in "iu" else None
    for args in ARANGE:
        try:
            expected = np.arange(*args, dtype=dtype)
        except (OverflowError, TypeError, ValueError) as e:
            expected = type(e)
        try:
            got = ua.asnumpy(ua.arange(*args, dtype=dtype))
        except (OverflowError, TypeError, ValueError) as e:
            got = type(e)
        if info is not None and not isinstance(expected, type):
            # NumPy lets the values after the first wrap; they must fit here.
            exact = np.trunc(np.arange(*args))
            if exact.size and (exact.min() < info.min or exact.max() > info.max):
                assert got is OverflowError, (dtype, args, got)
                continue
        assert same(expected, got), (dtype, args, expected, got)


def test_array_to_array_casts_stay_unsafe_as_in_numpy():
    src = np.array([300, -1, 2**40], dtype="i8")
    x = ua.zeros(3, dtype="u1")
    x[...] = ua.asarray(src)
    assert ua.asnumpy(x).tolist() == src.astype("u1").tolist()
    x[...] = src
    assert ua.asnumpy(x).tolist() == src.astype("u1").tolist()
    c = np.array([1 + 2j, 3 - 1j])
    f = ua.asarray(c).astype("f4")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert ua.asnumpy(f).tolist() == c.astype("f4").tolist()
    assert ua.asnumpy(ua.asarray(src, dtype="u1")).tolist() == src.astype("u1").tolist()
