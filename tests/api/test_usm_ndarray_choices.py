"""Where the Array API standard leaves the choice open, usmarray follows
dpctl's usm_ndarray (dpnp.tensor), and NumPy 2 where dpctl has no rule:
in-place operators cast into the left operand, NumPy scalars are strongly
typed, bool arithmetic, reductions' dtype= and the USM kind of results of
several operands (docs/elementwise.rst, "Choices the standard leaves
open")."""

import ctypes
import operator
import warnings

import numpy as np
import pytest
import usmarray as ua

DTYPES = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"]
IN_PLACE = {
    "iadd": "add",
    "isub": "subtract",
    "imul": "multiply",
    "itruediv": "divide",
    "ifloordiv": "floor_divide",
    "imod": "remainder",
    "ipow": "pow",
    "iand": "bitwise_and",
    "ior": "bitwise_or",
    "ixor": "bitwise_xor",
    "ilshift": "bitwise_left_shift",
    "irshift": "bitwise_right_shift",
}


def arr(values, dtype):
    return ua.asarray(np.asarray(values, dtype=dtype))


# ------------------------------------------------------------ in place


def test_in_place_casts_the_right_operand_into_the_left_dtype():
    x = arr([1, 2, 3], "i1")
    before = x
    x += arr([1, 255, 3], "u1")
    assert x is before and x.dtype == np.int8
    assert ua.asnumpy(x).tolist() == [2, 1, 6]  # 255 is -1 as int8
    f = arr([1, 2], "f4")
    f += arr([0.5, 2**-30], "f8")
    assert f.dtype == np.float32 and ua.asnumpy(f).tolist() == [1.5, 2.0]
    h = arr([1, 2], "f2")
    h *= arr([3, 4], "i4")
    assert h.dtype == np.float16 and ua.asnumpy(h).tolist() == [3.0, 8.0]
    s = arr([1, 2], "i2")
    s <<= arr([1, 2], "i4")
    assert s.dtype == np.int16 and ua.asnumpy(s).tolist() == [2, 8]
    w = arr([5, 6], "i8")
    w &= arr([4, 4], "u8")  # int64 with uint64 promote to float64
    assert w.dtype == np.int64 and ua.asnumpy(w).tolist() == [4, 4]


@pytest.mark.parametrize("op", sorted(IN_PLACE))
@pytest.mark.parametrize("left", DTYPES)
@pytest.mark.parametrize("right", DTYPES)
def test_in_place_works_where_same_kind_casting_allows(op, left, right):
    """dpctl's rule: the right operand casts to the left's dtype under
    NumPy's same_kind rule, and the function has a result of that dtype for
    it; otherwise ValueError naming both dtypes (TypeError where the
    function takes neither dtype, as out of place)."""
    fn = getattr(ua, IN_PLACE[op])
    x = arr([1, 2], left)
    y = arr([1, 1], right)
    try:
        expected = fn(arr([1, 2], left), arr([1, 1], left))
    except TypeError:
        expected = None
    castable = np.can_cast(right, left, "same_kind")
    try:
        fn(x, y)
    except (TypeError, ValueError):  # ValueError: they promote outside fn's kinds
        both_refused = True
    else:
        both_refused = False
    if expected is not None and castable and expected.dtype == np.dtype(left):
        result = getattr(operator, op)(x, y)
        assert result is x and x.dtype == np.dtype(left)
        np.testing.assert_array_equal(ua.asnumpy(x), ua.asnumpy(expected))
        return
    with pytest.raises((ValueError, TypeError)) as info:
        getattr(operator, op)(x, y)
    if info.type is TypeError:
        # the function takes neither operand's dtype
        assert expected is None or both_refused
    else:
        message = str(info.value)
        assert np.dtype(left).name in message
        assert np.dtype(right).name in message or expected is not None


def test_in_place_refusals_name_both_dtypes():
    x = arr([1, 2], "u1")
    with pytest.raises(
        ValueError, match="dtype int8 cannot be cast to the left operand's dtype uint8"
    ):
        x += arr([1, 1], "i1")
    i = arr([1, 2], "i4")
    with pytest.raises(
        ValueError, match="dtype float32 cannot be cast to the left operand's dtype int32"
    ):
        i += arr([1, 1], "f4")
    with pytest.raises(
        ValueError, match="Python float cannot be cast to the left operand's dtype int32"
    ):
        i += 1.5
    with pytest.raises(
        ValueError, match="float64, which the left operand's dtype int32 cannot hold"
    ):
        i /= 2
    with pytest.raises(
        ValueError, match="complex64 cannot be cast to the left operand's dtype float32"
    ):
        f = arr([1, 2], "f4")
        f += arr([1, 1], "c8")
    with pytest.raises(OverflowError, match="1000 out of bounds for int8"):
        b = arr([1, 2], "i1")
        b += 1000
    assert ua.asnumpy(x).tolist() == [1, 2] and ua.asnumpy(i).tolist() == [1, 2]


def test_in_place_result_shape_must_be_the_left_operands():
    x = arr([1, 2, 3], "i4")
    with pytest.raises(ValueError, match="shape"):
        x += ua.ones((2, 3), dtype="i4")
    x += ua.ones((1, 3), dtype="i4")[0]
    x += arr([[1, 1, 1]], "i4")[0]
    assert ua.asnumpy(x).tolist() == [3, 4, 5]


def test_in_place_matmul_casts_as_the_other_operators():
    x = ua.ones((2, 2), dtype="f4")
    x @= ua.ones((2, 2), dtype="f8")
    assert x.dtype == np.float32 and ua.asnumpy(x).tolist() == [[2, 2], [2, 2]]
    i = ua.ones((2, 2), dtype="i1")
    i @= ua.ones((2, 2), dtype="u1")
    assert i.dtype == np.int8
    j = ua.ones((2, 2), dtype="i4")
    with pytest.raises(
        ValueError, match="float32 .*cannot be cast to the left operand's dtype int32"
    ):
        j @= ua.ones((2, 2), dtype="f4")


# ------------------------------------------------------------ scalars


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("scalar", [True, 2, 2.5, 1j])
@pytest.mark.parametrize("op", ["add", "multiply", "subtract"])
def test_python_scalars_of_every_kind_with_every_dtype(dtype, scalar, op):
    """NEP 50's weak scalars, as NumPy 2 and dpctl: a bool scalar takes
    the array's dtype, an int with a bool array gives the default integer,
    a complex with a real floating array the complex of its precision."""
    x = np.asarray([1, 0], dtype=dtype)
    try:
        expected = getattr(np, op)(x, scalar)
    except (TypeError, np._core._exceptions._UFuncNoLoopError):
        expected = None
    ux = ua.asarray(x)
    if expected is None:
        with pytest.raises(TypeError):
            getattr(ua, op)(ux, scalar)
        return
    result = getattr(ua, op)(ux, scalar)
    assert result.dtype == expected.dtype, (dtype, scalar, op)
    np.testing.assert_allclose(ua.asnumpy(result), expected)


def test_complex_scalar_with_real_floating_arrays_keeps_precision():
    for dtype, complex_dtype in [("f2", "c8"), ("f4", "c8"), ("f8", "c16")]:
        assert (ua.ones(2, dtype=dtype) + 1j).dtype == np.dtype(complex_dtype)
    assert (ua.asarray([True, False]) + 1).dtype == np.int64
    assert (ua.ones(2, dtype="f4") * True).dtype == np.float32


@pytest.mark.parametrize(
    ("dtype", "scalar", "expected"),
    [
        ("f2", np.float32(1), "f4"),
        ("f4", np.float64(1), "f8"),
        ("f4", np.float16(1), "f4"),
        ("i1", np.int64(3), "i8"),
        ("i1", np.uint8(3), "i2"),
        ("u8", np.int64(3), "f8"),
        ("f4", np.bool_(True), "f4"),
        ("i2", np.complex64(1j), "c8"),
        ("f8", np.complex64(1j), "c16"),
        ("?", np.int8(1), "i1"),
    ],
)
def test_numpy_scalars_are_strongly_typed(dtype, scalar, expected):
    """NEP 50: a NumPy scalar promotes as an array of its dtype."""
    x = np.asarray([1, 0], dtype=dtype)
    r = ua.add(ua.asarray(x), scalar)
    assert r.dtype == np.dtype(expected) == (x + scalar).dtype
    np.testing.assert_array_equal(ua.asnumpy(r), x + scalar)
    assert (scalar * ua.asarray(x)).dtype == np.dtype(expected)
    if np.dtype(expected).kind != "c":
        assert ua.asnumpy(ua.less(ua.asarray(x), scalar)).tolist() == (x < scalar).tolist()


def test_numpy_scalars_work_in_place_and_in_functions():
    x = ua.ones(3, dtype="f4")
    x += np.float64(0.5)
    assert x.dtype == np.float32 and ua.asnumpy(x).tolist() == [1.5] * 3
    assert ua.asnumpy(ua.maximum(x, np.float32(2))).tolist() == [2.0] * 3
    assert ua.where(x > 1, x, np.float32(0)).dtype == np.float32
    with pytest.raises(
        ValueError, match="dtype float64 cannot be cast to the left operand's dtype int32"
    ):
        i = ua.ones(3, dtype="i4")
        i += np.float64(1)


def test_numpy_arrays_and_unsupported_scalars_stay_refused():
    x = ua.ones(3, dtype="f4")
    with pytest.raises(TypeError, match="ua.asarray"):
        x + np.array(1.0)  # a 0-d ndarray is an array, not a scalar
    with pytest.raises(TypeError, match="not supported"):
        x + np.str_("a")
    with pytest.raises(TypeError, match="not supported"):
        x + np.longdouble(1)
    with pytest.raises(TypeError, match="needs at least one USMArray"):
        ua.add(np.float32(1), np.float32(2))


# ------------------------------------------------------------ ctypes values

CTYPES = [
    ctypes.c_bool,
    ctypes.c_byte,
    ctypes.c_ubyte,
    ctypes.c_short,
    ctypes.c_ushort,
    ctypes.c_int,
    ctypes.c_uint,
    ctypes.c_long,
    ctypes.c_ulong,
    ctypes.c_longlong,
    ctypes.c_ulonglong,
    ctypes.c_int8,
    ctypes.c_uint16,
    ctypes.c_int32,
    ctypes.c_uint64,
    ctypes.c_size_t,
    ctypes.c_float,
    ctypes.c_double,
]


@pytest.mark.parametrize("ctype", CTYPES, ids=lambda t: t.__name__)
@pytest.mark.parametrize("dtype", ["?", "i1", "u2", "i4", "f2", "f4", "c8"])
def test_ctypes_values_are_operands_of_their_c_type(ctype, dtype):
    """NumPy reads a ctypes value as a 0-d array of its C type (strongly
    typed, as a NumPy scalar): the same dtype and values."""
    x = np.asarray([1, 0, 3], dtype=dtype)
    value = ctype(1)
    expected = x * np.asarray(value)
    r = ua.multiply(ua.asarray(x), value)
    assert r.dtype == expected.dtype
    np.testing.assert_array_equal(ua.asnumpy(r), expected)
    reflected = ua.add(value, ua.asarray(x))
    assert reflected.dtype == (np.asarray(value) + x).dtype
    np.testing.assert_array_equal(ua.asnumpy(reflected), np.asarray(value) + x)
    assert ua.asnumpy(ua.equal(ua.asarray(x), value)).tolist() == (x == np.asarray(value)).tolist()


def test_ctypes_values_in_where_isin_and_operators():
    x = ua.asarray(np.asarray([1.5, -2.0, 3.0], dtype="f4"))
    r = ua.where(x > 0, x, ctypes.c_double(-1))
    assert r.dtype == np.float64
    assert ua.asnumpy(r).tolist() == [1.5, -1.0, 3.0]
    assert (x + ctypes.c_float(1)).dtype == np.float32
    assert ua.asnumpy(ua.isin(x, ctypes.c_int(3))).tolist() == [False, False, True]
    assert ua.asnumpy(ua.isin(np.float32(-2), x)).tolist() is True
    assert ua.asnumpy(ua.isin(x, np.float32(1.5))).tolist() == [True, False, False]
    y = ua.ones(3, dtype="i4")
    y += ctypes.c_int8(2)
    assert y.dtype == np.int32 and ua.asnumpy(y).tolist() == [3, 3, 3]


@pytest.mark.parametrize(
    "value",
    [
        ctypes.c_longdouble(1),
        ctypes.c_char(b"a"),
        ctypes.c_wchar("a"),
        ctypes.c_char_p(b"a"),
        ctypes.c_void_p(0),
    ],
    ids=lambda v: type(v).__name__,
)
def test_ctypes_values_without_a_dtype_are_refused(value):
    x = ua.ones(3)
    with pytest.raises(
        TypeError, match=f"a ctypes {type(value).__name__} is not an operand of USMArray"
    ):
        ua.add(x, value)
    with pytest.raises(TypeError, match=f"ctypes {type(value).__name__}"):
        ua.where(x > 0, x, value)


@pytest.mark.parametrize(
    "name", ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_right_shift"]
)
@pytest.mark.parametrize(("t1", "t2"), [("i1", "u8"), ("u8", "i8"), ("i4", "u8")])
def test_operands_promoting_outside_the_function_raise_value_error(name, t1, t2):
    """dpctl raises ValueError where it finds no loop for a pair of dtypes
    (NumPy: TypeError); in place, the pair computes in x's dtype."""
    x1, x2 = ua.ones(3, dtype=t1), ua.ones(3, dtype=t2)
    with pytest.raises(ValueError, match="they promote to float64"):
        getattr(ua, name)(x1, x2)
    with pytest.raises(ValueError, match="they promote to float64"):
        getattr(ua, name)(x1, x2, out=ua.ones(3, dtype=t2))
    if np.can_cast(t2, t1, "same_kind"):
        in_place = {v: k for k, v in IN_PLACE.items()}[name]
        r = getattr(operator, in_place)(x1, x2)
        assert r is x1 and r.dtype == np.dtype(t1)
        expected = getattr(np, name)(np.ones(3, dtype=t1), np.ones(3, dtype=t1))
        np.testing.assert_array_equal(ua.asnumpy(r), expected)


# ------------------------------------------------------------ clip's bounds


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("bound", DTYPES)
def test_clip_bounds_must_cast_safely_to_x(dtype, bound):
    """dpctl's rule: a bound is read in x's dtype, so one that x's dtype
    does not hold raises ValueError (NumPy would promote the result)."""
    x = ua.zeros(4, dtype=dtype)
    lo = ua.zeros(4, dtype=bound)
    if np.can_cast(bound, dtype, casting="safe"):
        r = ua.clip(x, lo, None)
        assert r.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(ua.asnumpy(r), np.zeros(4, dtype=dtype))
    else:
        with pytest.raises(
            ValueError, match=f"dtype {np.dtype(bound).name} as a bound of an array"
        ):
            ua.clip(x, lo, None)
        with pytest.raises(ValueError, match="it must cast safely"):
            ua.clip(x, None, lo)


def test_clip_python_bounds_keep_x_kind():
    assert ua.asnumpy(ua.clip(ua.asarray([0, 5, 9], dtype="i1"), 2, 7)).tolist() == [2, 5, 7]
    assert ua.asnumpy(ua.clip(ua.asarray([0.5, 5.0], dtype="f4"), 1, 2.5)).tolist() == [1.0, 2.5]
    b = ua.asarray([True, False])
    assert ua.asnumpy(ua.clip(b, True, True)).tolist() == [True, True]
    assert ua.asnumpy(ua.clip(b, min=False)).tolist() == [True, False]
    for x, bound in [(ua.ones(2, dtype="i4"), 2.5), (b, 1), (ua.ones(2, dtype="f4"), 1j)]:
        with pytest.raises(ValueError, match="as a bound of an array of dtype"):
            ua.clip(x, bound)


# ------------------------------------------------------------ bool arithmetic

BOOLS = np.array([True, False, True, False])
OTHERS = np.array([True, True, False, False])


@pytest.mark.parametrize("name", ["add", "multiply"])
def test_bool_add_and_multiply_are_or_and_and(name):
    """As NumPy and dpctl: bool results, logical or and and."""
    r = getattr(ua, name)(ua.asarray(BOOLS), ua.asarray(OTHERS))
    assert r.dtype == np.bool_
    assert ua.asnumpy(r).tolist() == getattr(np, name)(BOOLS, OTHERS).tolist()
    x = ua.asarray(BOOLS)
    x += ua.asarray(OTHERS)
    assert x.dtype == np.bool_ and ua.asnumpy(x).tolist() == (BOOLS | OTHERS).tolist()
    with pytest.raises(
        ValueError, match="Python int cannot be cast to the left operand's dtype bool"
    ):
        x += 1


@pytest.mark.parametrize("name", ["abs", "floor", "ceil", "trunc"])
def test_bool_abs_and_rounding_keep_bool(name):
    r = getattr(ua, name)(ua.asarray(BOOLS))
    assert r.dtype == np.bool_ and ua.asnumpy(r).tolist() == BOOLS.tolist()


def test_bool_clip_and_what_stays_refused():
    r = ua.clip(ua.asarray(BOOLS), True, True)
    assert r.dtype == np.bool_ and ua.asnumpy(r).tolist() == [True] * 4
    r = ua.clip(ua.asarray(BOOLS), ua.asarray(OTHERS), True)
    assert ua.asnumpy(r).tolist() == np.clip(BOOLS, OTHERS, True).tolist()
    b = ua.asarray(BOOLS)
    with pytest.raises(TypeError, match="dtype bool"):  # NumPy and dpctl refuse it too
        ua.subtract(b, b)
    with pytest.raises(TypeError, match="dtype bool"):
        ua.negative(b)


@pytest.mark.parametrize(
    "args", [(2,), (0, 2), (-1, 1), (1, 3), (0.5, 2.5), (0, -2, -1), (1,), (0,)]
)
def test_arange_of_bool_up_to_two_elements(args):
    r = ua.arange(*args, dtype=bool)
    assert r.dtype == np.bool_
    assert ua.asnumpy(r).tolist() == np.arange(*args, dtype=bool).tolist()


def test_arange_of_bool_refuses_more_than_two_elements():
    with pytest.raises(ValueError, match="at most 2 elements, not 3"):
        ua.arange(3, dtype=bool)


# ------------------------------------------------------------ dtype= of sums

SUMS = ["sum", "prod", "cumulative_sum", "cumulative_prod"]
BOOL_OF = {"sum": np.any, "prod": np.all}


@pytest.mark.parametrize("name", SUMS)
@pytest.mark.parametrize("source", ["?", "i1", "u2", "i8", "f2", "f4", "f8", "c8", "c16"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_sums_take_every_dtype(name, source, dtype):
    """As dpctl: x is cast to dtype first (the standard's words), whatever
    the kinds: a complex x into a real dtype keeps the real parts, into
    bool the sums are logical or (any) and the products logical and."""
    x = np.asarray([1.5 + 2j, 0, 2, 3], dtype=np.complex128)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        x = x.astype(source)
        cast = x.astype(dtype)
    r = getattr(ua, name)(ua.asarray(x), dtype=dtype)
    assert r.dtype == np.dtype(dtype)
    if dtype == "?":
        if name in BOOL_OF:
            expected = BOOL_OF[name](cast)
        else:
            op = np.logical_or if name == "cumulative_sum" else np.logical_and
            expected = op.accumulate(cast)
    else:
        np_name = {"cumulative_sum": "cumsum", "cumulative_prod": "cumprod"}.get(name, name)
        with np.errstate(all="ignore"):
            expected = getattr(np, np_name)(cast, dtype=dtype)
    np.testing.assert_allclose(ua.asnumpy(r), expected, rtol=1e-3)


def test_sums_into_bool_keep_the_identities():
    empty = ua.zeros((2, 0))
    assert ua.asnumpy(ua.sum(empty, axis=1, dtype=bool)).tolist() == [False, False]
    assert ua.asnumpy(ua.prod(empty, axis=1, dtype=bool)).tolist() == [True, True]
    x = ua.asarray(np.array([2.0, 0.0, 1.0]))
    assert ua.asnumpy(ua.cumulative_prod(x, dtype=bool, include_initial=True)).tolist() == [
        True,
        True,
        False,
        False,
    ]
    assert ua.asnumpy(ua.cumulative_sum(x, dtype=bool, include_initial=True)).tolist() == [
        False,
        True,
        True,
        True,
    ]


# ------------------------------------------------------------ USM kinds

KINDS = ["host", "shared", "device"]


def coerced(a, b):
    """dpctl.utils.get_coerced_usm_type: device over shared over host."""
    return min(a, b, key=["device", "shared", "host"].index)


@pytest.mark.parametrize("first", KINDS)
@pytest.mark.parametrize("second", KINDS)
def test_results_of_several_operands_coerce_their_usm_kinds(first, second):
    a = ua.ones((2, 2), usm_type=first)
    b = ua.ones((2, 2), usm_type=second)
    want = coerced(first, second)
    results = {
        "a + b": a + b,
        "b - a": ua.subtract(a, b),
        "a < b": a < b,
        "where": ua.where(a > 0, a, b),
        "where, mask": ua.where(b > 0, a, 1.0),
        "clip": ua.clip(a, b, b),
        "concat": ua.concat([a, b]),
        "stack": ua.stack([a, b]),
        "matmul": a @ b,
    }
    assert {k: r.usm_type for k, r in results.items()} == dict.fromkeys(results, want)
    assert (a + 1).usm_type == first and ua.exp(b).usm_type == second
    before = a
    a += b
    assert a is before and a.usm_type == first
