"""The Python protocols users of NumPy reach for: iteration over the first
axis, item() and tolist(), int()/float()/complex()/operator.index()/bool()
with NumPy 2's rules and messages, format() of 0-d arrays, copy, deepcopy
and pickle (by copy, onto the same device and USM kind), and comparisons,
which raise rather than answer by identity."""

import copy
import operator
import pickle

import numpy as np
import pytest
import usmarray as ua

DTYPES = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"]
KINDS = ["device", "shared", "host"]


def outcome(call, obj):
    try:
        return call(obj)
    except (TypeError, ValueError, IndexError) as e:
        return (type(e), str(e).split(" (")[0].split(";")[0])


# ------------------------------------------------------------- iteration


@pytest.mark.parametrize("usm_type", KINDS)
def test_iteration_yields_views_of_the_first_axis(usm_type):
    a = np.arange(24.0).reshape(2, 3, 4)[:, ::-1]
    x = ua.asarray(a, usm_type=usm_type)
    rows = list(x)
    assert len(rows) == 2
    for row, expected in zip(rows, a):
        assert isinstance(row, ua.USMArray)
        assert row.shape == expected.shape
        assert row.base is x.base
        assert ua.asnumpy(row).tolist() == expected.tolist()
    rows[1][0, 0] = -1.0  # views: the write reaches x
    assert ua.asnumpy(x)[1, 0, 0] == -1.0
    assert [r.item() for r in ua.asarray([5, 6, 7])] == [5, 6, 7]
    assert list(ua.empty((0, 3))) == []


def test_iteration_over_a_0d_array_raises_as_numpy():
    with pytest.raises(TypeError, match="iteration over a 0-d array"):
        iter(ua.asarray(1.0))


def test_unpacking_and_sequence_helpers_work():
    a, b = ua.asarray([[1, 2], [3, 4]])
    assert a.tolist() == [1, 2] and b.tolist() == [3, 4]
    assert [v.item() for v in reversed(ua.asarray([1, 2, 3]))] == [3, 2, 1]


# ------------------------------------------------------- item and tolist


@pytest.mark.parametrize("dtype", DTYPES)
def test_item_and_tolist_match_numpy(dtype):
    a = (np.arange(-3, 9).reshape(3, 4) * 7).astype(dtype)
    x = ua.asarray(a)
    assert x.tolist() == a.tolist()
    assert x.T.tolist() == a.T.tolist()
    assert ua.asarray(a[1, 2]).tolist() == a[1, 2].tolist()
    for args in [(5,), (-1,), (0, 3), ((2, 1),), ((-1, -1),)]:
        got, expected = x.item(*args), a.item(*args)
        assert type(got) is type(expected) and got == expected, args
    got, expected = x[1:2, 2:3].item(), a[1:2, 2:3].item()
    assert type(got) is type(expected) and got == expected


def test_item_errors_match_numpy():
    a = np.arange(6).reshape(2, 3)
    x = ua.asarray(a)
    assert outcome(lambda v: v.item(), x) == outcome(lambda v: v.item(), a)
    assert outcome(lambda v: v.item(6), x)[0] is outcome(lambda v: v.item(6), a)[0] is IndexError


# ------------------------------------------------- conversions to scalars

CONVERSIONS = {
    "int": int,
    "float": float,
    "complex": complex,
    "index": operator.index,
    "bool": bool,
}
SHAPES = [(), (1,), (1, 1), (2,), (0,)]


@pytest.mark.parametrize("name", sorted(CONVERSIONS))
@pytest.mark.parametrize("dtype", DTYPES)
def test_scalar_conversions_take_0d_arrays_only(name, dtype):
    # docs/architecture.rst: 0-d arrays convert as NumPy's do; any other
    # raises NumPy 2's TypeError, but for bool() of an empty array or one of
    # more elements, NumPy's ValueError.
    convert = CONVERSIONS[name]
    wrong_dtype = name == "index" and np.dtype(dtype).kind not in "iu"
    for shape in SHAPES:
        for usm_type in KINDS:
            a = np.full(shape, 3, dtype=dtype)
            x = ua.asarray(a, usm_type=usm_type)
            got = outcome(convert, x)
            if shape == () or wrong_dtype:
                expected = outcome(convert, a)
                if isinstance(expected, tuple):
                    assert isinstance(got, tuple) and got[0] is expected[0], (shape, got)
                    assert got[1].startswith(expected[1][:40]), (got, expected)
                else:
                    assert type(got) is type(expected) and got == expected, (shape, got)
            elif a.size == 1 or name != "bool":
                assert got[0] is TypeError and got[1].startswith("only 0-dimensional"), got
            else:
                assert got[0] is ValueError, (shape, got)


def test_float_of_a_shared_0d_array_reads_the_element_not_its_bytes():
    x = ua.full((), 2.5, usm_type="shared")
    assert float(x) == 2.5
    y = ua.full((), 49, dtype="u1", usm_type="host")  # b"1" as text would read 1.0
    assert float(y) == 49.0
    assert int(y) == 49


def test_a_0d_integer_array_is_an_index():
    i = ua.asarray(2)
    assert operator.index(i) == 2
    assert [10, 20, 30][i] == 30
    assert ua.asnumpy(ua.arange(5)[i]).item() == 2
    assert ua.asarray(2**64 - 1, dtype="u8").__index__() == 2**64 - 1


# ---------------------------------------------------------------- format


def test_format_of_a_0d_array_formats_its_element():
    x = ua.asarray(3.14159)
    assert format(x, ".2f") == format(np.array(3.14159), ".2f") == "3.14"
    assert f"{x:>8.3f}" == "   3.142"
    assert f"{ua.asarray(255, dtype='u1'):x}" == "ff"
    assert format(ua.asarray(1 + 2j), "") == "(1+2j)"
    assert format(ua.asarray([1.0, 2.0])) == str(np.array([1.0, 2.0]))
    with pytest.raises(TypeError, match="unsupported format string"):
        format(ua.asarray([1.0, 2.0]), ".2f")


# --------------------------------------------------- copying and pickling


@pytest.mark.parametrize("usm_type", KINDS)
def test_copy_deepcopy_and_pickle_copy_onto_the_same_device_and_kind(usm_type):
    a = np.arange(12, dtype="i4").reshape(3, 4)
    x = ua.asarray(a, usm_type=usm_type)[:, ::-1].T
    for clone in (
        copy.copy(x),
        copy.deepcopy(x),
        pickle.loads(pickle.dumps(x)),
        copy.deepcopy([x, x])[0],
    ):
        assert isinstance(clone, ua.USMArray)
        assert clone.usm_type == usm_type
        assert clone.device == x.device
        assert clone.dtype == x.dtype and clone.shape == x.shape
        assert clone.base is not x.base  # a copy, not a view
        assert clone.tolist() == x.tolist()
    c = copy.copy(x)
    c[0, 0] = -7
    assert x.item(0, 0) != -7
    # copy keeps the memory order, as NumPy's does.
    assert copy.copy(x).strides == (1, 4)


def test_pickle_of_every_dtype_and_empty_arrays_round_trips():
    for dtype in DTYPES:
        x = ua.asarray(np.arange(5).astype(dtype))
        y = pickle.loads(pickle.dumps(x, protocol=pickle.HIGHEST_PROTOCOL))
        assert y.dtype == x.dtype and y.tolist() == x.tolist()
    e = pickle.loads(pickle.dumps(ua.empty((0, 3), dtype="f4")))
    assert e.shape == (0, 3) and e.dtype == np.float32


# ------------------------------------------------------------ comparisons


@pytest.mark.parametrize(
    "op", [operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge]
)
def test_comparisons_are_elementwise(op):
    x = ua.arange(3)
    for other in (x, x.copy(), 1):
        want = op(np.arange(3), ua.asnumpy(other) if isinstance(other, ua.USMArray) else other)
        np.testing.assert_array_equal(ua.asnumpy(op(x, other)), want, strict=True)
    # Other objects: Python's fallback (identity for == and !=).
    if op in (operator.eq, operator.ne):
        assert op(x, None) is (op is operator.ne)
    else:
        with pytest.raises(TypeError):
            op(x, None)


def test_arrays_are_unhashable():
    x = ua.arange(3)
    assert ua.USMArray.__hash__ is None
    with pytest.raises(TypeError, match="unhashable"):
        hash(x)
    with pytest.raises(TypeError, match="unhashable"):
        {x}


def test_memory_still_wraps_an_array():
    x = ua.arange(4.0, usm_type="shared")
    m = ua.MemoryUSMShared(x)
    assert m._pointer == x._pointer and m.nbytes == x.nbytes
