"""The Array API's manipulation functions against NumPy: every dtype, empty
and 0-d shapes, negative axes, non-contiguous and negative-stride inputs,
mixed dtypes; the views share their input's memory; every error."""

import inspect
import itertools

import numpy as np
import pytest
import usmarray as ua

NAMES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
         "float16", "float32", "float64", "complex64", "complex128"]  # fmt: skip
AxisError = np.exceptions.AxisError


def host(shape, dtype="i4"):
    n = int(np.prod(shape))
    return (np.arange(n) % 120 + 1).astype(dtype).reshape(shape)


LAYOUTS = ["c", "transposed", "reversed", "strided"]


def pair(shape=(2, 3, 4), dtype="i4", layout="c"):
    """A NumPy array and a USMArray of the same layout and values."""
    base = host(shape, dtype)
    u = ua.asarray(base)
    if layout == "transposed":
        return base.T, ua.permute_dims(u, tuple(range(base.ndim))[::-1])
    if layout == "reversed" and base.ndim:
        return base[::-1], u[::-1]
    if layout == "strided" and base.ndim:
        return base[..., ::2], u[..., ::2]
    return base, u


def check(x, expected):
    got = ua.asnumpy(x)
    assert got.dtype == expected.dtype
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


def pointer(x):
    return x.__sycl_usm_array_interface__["data"][0]


def shares(view, x):
    """view's elements lie in x's memory: a write through one shows in the other."""
    return view.base is x.base


SHAPES = [(), (0,), (5,), (2, 3), (3, 0, 2), (2, 3, 4), (1, 3, 1)]


# ------------------------------------------------------------- signatures


SIGNATURES = {
    "broadcast_arrays": "(*arrays)",
    "broadcast_to": "(x, /, shape)",
    "concat": "(arrays, /, *, axis=0)",
    "expand_dims": "(x, /, axis=0)",
    "flip": "(x, /, *, axis=None)",
    "moveaxis": "(x, source, destination, /)",
    "permute_dims": "(x, /, axes)",
    "repeat": "(x, repeats, /, *, axis=None)",
    "reshape": "(x, /, shape, *, copy=None, order='C')",
    "roll": "(x, /, shift, *, axis=None)",
    "squeeze": "(x, /, axis=None)",
    "stack": "(arrays, /, *, axis=0)",
    "tile": "(x, repetitions, /)",
    "unstack": "(x, /, *, axis=0)",
}


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_signatures_are_the_standards(name):
    assert str(inspect.signature(getattr(ua, name))) == SIGNATURES[name]
    assert name in ua.__all__


@pytest.mark.parametrize(
    "call",
    [
        lambda x: ua.broadcast_to(x=x, shape=(2, 3)),
        lambda x: ua.concat(arrays=[x]),
        lambda x: ua.stack(arrays=[x]),
        lambda x: ua.expand_dims(x=x),
        lambda x: ua.flip(x=x),
        lambda x: ua.permute_dims(x=x, axes=(0,)),
        lambda x: ua.repeat(x, repeats=2),
        lambda x: ua.reshape(x=x, shape=3),
        lambda x: ua.roll(x=x, shift=1),
        lambda x: ua.squeeze(x=x, axis=0),
        lambda x: ua.unstack(x=x),
    ],
)
def test_positional_only_parameters_refuse_keywords(call):
    with pytest.raises(TypeError, match="positional-only"):
        call(ua.zeros(3))


@pytest.mark.parametrize(
    "call",
    [
        lambda x: ua.tile(x, repetitions=2),
        lambda x: ua.moveaxis(x, 0, destination=0),
        lambda x: ua.broadcast_arrays(x, y=x),
    ],
)
def test_functions_without_keywords_refuse_them(call):
    with pytest.raises(TypeError, match="keyword"):
        call(ua.zeros(3))


def test_keyword_only_parameters_refuse_positions():
    x = ua.zeros(3)
    for call in (lambda: ua.flip(x, 0), lambda: ua.concat([x], 0), lambda: ua.roll(x, 1, 0)):
        with pytest.raises(TypeError, match="positional"):
            call()


# ---------------------------------------------------------- broadcasting


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_broadcast_to(name, layout):
    h, x = pair((3, 1, 4), name, layout)
    for shape in [h.shape, (2,) + h.shape, (5, 2) + h.shape[:1] + (3,) + h.shape[2:]]:
        if h.shape[1] != 1 and len(shape) > 3:
            continue
        try:
            expected = np.broadcast_to(h, shape)
        except ValueError:
            continue
        v = ua.broadcast_to(x, shape)
        check(v, expected)
        assert not v.flags.writable
        assert pointer(v) == pointer(x)


def test_broadcast_to_shapes():
    h, x = pair((3, 1))
    for shape in [(3, 1), (3, 0), (2, 3, 5), (0, 3, 7), [4, 3, 2]]:
        check(ua.broadcast_to(x, shape), np.broadcast_to(h, tuple(shape)))
    s = ua.broadcast_to(ua.asarray(np.float32(2.5)), 4)
    check(s, np.full(4, 2.5, "f4"))
    assert s.strides == (0,)
    check(ua.broadcast_to(ua.zeros(0), (2, 0)), np.zeros((2, 0)))


@pytest.mark.parametrize(
    "shape,target,message",
    [
        ((3,), (4,), r"shape \(3,\) cannot be broadcast to shape \(4,\)"),
        ((2, 3), (3,), "cannot be broadcast"),
        ((0,), (2,), "cannot be broadcast"),
        ((2,), (2, -1), "negative"),
    ],
)
def test_broadcast_to_refuses(shape, target, message):
    with pytest.raises(ValueError, match=message):
        ua.broadcast_to(ua.zeros(shape), target)


def test_broadcast_to_refuses_sizes_too_large_to_address():
    with pytest.raises(ValueError, match="too many elements|more bytes"):
        ua.broadcast_to(ua.zeros(1), (2**40, 2**40))
    with pytest.raises(ValueError, match="more bytes"):
        ua.broadcast_to(ua.zeros(1), (2**62,))
    assert ua.broadcast_to(ua.zeros(1, dtype="u1"), (2**40,)).size == 2**40


def test_broadcast_arrays():
    h1, x1 = pair((3, 1), "i2")
    h2, x2 = pair((4,), "f8", "reversed")
    h3, x3 = pair((), "u1")
    out = ua.broadcast_arrays(x1, x2, x3)
    expected = np.broadcast_arrays(h1, h2, h3)
    assert isinstance(out, tuple) and len(out) == 3
    for o, e in zip(out, expected):
        check(o, e)
    assert [o.flags.writable for o in out] == [False, False, False]
    same = ua.broadcast_arrays(x1, ua.zeros((3, 1)))
    assert [o.flags.writable for o in same] == [True, True]
    assert pointer(same[0]) == pointer(x1)
    assert ua.broadcast_arrays() == ()
    (only,) = ua.broadcast_arrays(x2)
    check(only, h2)
    check(ua.broadcast_arrays(ua.zeros((0, 1)), ua.zeros(5))[1], np.zeros((0, 5)))


def test_broadcast_arrays_refuses():
    with pytest.raises(
        ValueError, match=r"shapes \(2, 3\) \(arrays\[0\]\) and \(4,\) \(arrays\[2\]\)"
    ):
        ua.broadcast_arrays(ua.zeros((2, 3)), ua.zeros(3), ua.zeros(4))
    with pytest.raises(TypeError, match="expects a USMArray, not numpy.ndarray"):
        ua.broadcast_arrays(ua.zeros(3), np.zeros(3))
    with pytest.raises(ValueError, match="too many elements"):
        ua.broadcast_arrays(
            ua.broadcast_to(ua.zeros(1), (2**40, 1)), ua.broadcast_to(ua.zeros(1), (2**40,))
        )


# ---------------------------------------------------------- concat, stack


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3, None])
def test_concat(layout, axis):
    h1, x1 = pair((2, 3, 4), "i4", layout)
    h2, x2 = pair((2, 3, 4), "i4", layout)
    out = ua.concat([x1, x2, x1], axis=axis)
    check(out, np.concat([h1, h2, h1], axis=axis))
    assert out.flags.c_contiguous and not shares(out, x1)


@pytest.mark.parametrize("a,b", itertools.combinations_with_replacement(NAMES, 2))
def test_concat_and_stack_promote_mixed_dtypes(a, b):
    h1, x1 = pair((2, 3), a)
    h2, x2 = pair((2, 3), b, "reversed")
    check(ua.concat((x1, x2), axis=1), np.concat((h1, h2), axis=1))
    check(ua.stack([x2, x1], axis=-1), np.stack([h2, h1], axis=-1))
    assert ua.concat([x1, x2]).dtype == ua.result_type(x1, x2)


def test_concat_shapes():
    check(
        ua.concat([ua.zeros((0, 3)), ua.ones((2, 3))]),
        np.concat([np.zeros((0, 3)), np.ones((2, 3))]),
    )
    check(ua.concat([ua.zeros((2, 0))], axis=0), np.zeros((2, 0)))
    check(ua.concat([ua.asarray(5), ua.asarray([1, 2])], axis=None), np.array([5, 1, 2]))
    h, x = pair((3, 4), "f4", "transposed")
    check(ua.concat([x], axis=None), h.ravel())
    check(ua.concat((x,)), h)
    check(ua.concat([ua.zeros(0), ua.zeros(0)], axis=None), np.zeros(0))


def test_concat_coerces_usm_types_and_keeps_the_queue():
    kinds = {k: ua.zeros(2, usm_type=k) for k in ("host", "shared", "device")}
    assert ua.concat([kinds["host"], kinds["shared"]]).usm_type == "shared"
    assert ua.concat([kinds["host"], kinds["device"]]).usm_type == "device"
    assert ua.concat([kinds["host"], kinds["host"]]).usm_type == "host"
    assert ua.concat([kinds["host"]]).queue is kinds["host"].queue


@pytest.mark.parametrize("axis", [0, 1, 2, 3, -1, -4])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_stack(axis, layout):
    h, x = pair((2, 3, 4), "f8", layout)
    check(ua.stack([x, x, x], axis=axis), np.stack([h, h, h], axis=axis))


def test_stack_shapes():
    check(ua.stack([ua.asarray(1), ua.asarray(2)]), np.array([1, 2]))
    check(ua.stack([ua.zeros((0, 2))] * 3, axis=1), np.zeros((0, 3, 2)))
    check(ua.stack((ua.ones(3),)), np.ones((1, 3)))


def two_queues():
    a = ua.zeros(3)
    b = ua.zeros(3, queue=ua.Queue(a.device, in_order=False))
    assert a.queue is not b.queue
    return a, b


@pytest.mark.parametrize("fn", [ua.concat, ua.stack])
def test_joining_refuses(fn):
    name = fn.__name__
    with pytest.raises(ValueError, match=f"{name} needs at least one array"):
        fn([])
    with pytest.raises(TypeError, match=r"arrays\[1\] is a numpy.ndarray, not a USMArray"):
        fn([ua.zeros(3), np.zeros(3)])
    with pytest.raises(TypeError, match="tuple or list of USMArrays, not usmarray.USMArray"):
        fn(ua.zeros((2, 3)))
    with pytest.raises(TypeError, match="not int"):
        fn(3)
    a, b = two_queues()
    with pytest.raises(
        ValueError, match=r"arrays\[0\] is on <usmarray.Queue .*arrays\[1\] is on <usmarray.Queue"
    ):
        fn([a, b])
    with pytest.raises(AxisError, match="axis 5 is out of bounds"):
        fn([ua.zeros((2, 3))], axis=5)
    with pytest.raises(TypeError, match="axis must be an integer"):
        fn([ua.zeros((2, 3))], axis=1.0)


def test_concat_refuses():
    with pytest.raises(
        ValueError, match=r"arrays\[0\] has shape \(2, 3\) but arrays\[1\] has shape \(2, 4\)"
    ):
        ua.concat([ua.zeros((2, 3)), ua.zeros((2, 4))])
    with pytest.raises(ValueError, match="has 2 dimensions but arrays"):
        ua.concat([ua.zeros((2, 3)), ua.zeros(3)])
    with pytest.raises(ValueError, match="0-dimensional arrays cannot be joined"):
        ua.concat([ua.asarray(1), ua.asarray(2)])
    with pytest.raises(ValueError, match="0-dimensional"):
        ua.concat([ua.asarray(1)], axis=0)
    big = ua.broadcast_to(ua.zeros(1, dtype="u1"), (2**62,))
    with pytest.raises(ValueError, match="more elements than can be addressed"):
        ua.concat([big, big, big], axis=None)


def test_stack_refuses():
    with pytest.raises(ValueError, match="stack needs arrays of one shape"):
        ua.stack([ua.zeros((2, 3)), ua.zeros((3, 2))])
    with pytest.raises(ValueError, match="65 dimensions"):
        ua.stack([ua.zeros((1,) * 64)])
    with pytest.raises(TypeError, match="axis must be an integer, not NoneType"):
        ua.stack([ua.zeros(2)], axis=None)


# -------------------------------------------------------------- new axes


@pytest.mark.parametrize("shape", SHAPES)
def test_expand_dims(shape):
    h, x = pair(shape, "c8")
    for axis in range(-h.ndim - 1, h.ndim + 1):
        v = ua.expand_dims(x, axis=axis)
        check(v, np.expand_dims(h, axis))
        assert pointer(v) == pointer(x)
    for axes in [(0, 1), (-1, 0), (0, -1, 2), (0, 3)]:
        try:
            expected = np.expand_dims(h, axes)
        except (ValueError, IndexError):
            with pytest.raises((ValueError, IndexError)):
                ua.expand_dims(x, axis=axes)
        else:
            check(ua.expand_dims(x, axis=axes), expected)
    check(ua.expand_dims(x), np.expand_dims(h, 0))


def test_expand_dims_is_a_writable_view():
    x = ua.zeros((2, 3))
    v = ua.expand_dims(x, axis=1)
    v[1, 0, 2] = 7
    assert ua.asnumpy(x)[1, 2] == 7
    assert v.strides[1] == 0


def test_expand_dims_refuses():
    x = ua.zeros((2, 3))
    for axis in (3, -4, 100):
        with pytest.raises(AxisError, match=f"axis {axis} is out of bounds for an array of 3"):
            ua.expand_dims(x, axis=axis)
    with pytest.raises(IndexError):
        ua.expand_dims(x, axis=3)
    with pytest.raises(ValueError, match="axis 0 is repeated"):
        ua.expand_dims(x, axis=(0, -4))
    with pytest.raises(ValueError, match="65 dimensions"):
        ua.expand_dims(ua.zeros((1,) * 64), axis=0)
    assert ua.expand_dims(ua.zeros((1,) * 63), axis=0).ndim == 64
    with pytest.raises(TypeError, match="axis must be an integer or a sequence"):
        ua.expand_dims(x, axis="0")
    with pytest.raises(TypeError, match="axis must be an integer"):
        ua.expand_dims(x, axis=None)


# ----------------------------------------------------------------- flip


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", SHAPES)
def test_flip(layout, shape):
    h, x = pair(shape, "f4", layout)
    axes = [None, ()] + list(range(-h.ndim, h.ndim)) + ([(0, -1)] if h.ndim > 1 else [])
    for axis in axes:
        v = ua.flip(x, axis=axis)
        check(v, np.flip(h, axis))
        assert shares(v, x)


@pytest.mark.parametrize("dtype", ["u1", "i2", "f4", "f8", "c16"])
@pytest.mark.parametrize("n", [1, 3, 15, 16, 17, 1000, 4099])
def test_a_copy_of_a_flip_is_numpys(dtype, n):
    # Every element size, lengths around a 16-byte vector, and sources that
    # start off a vector's boundary: the copy's fast and slow paths.
    h = (np.arange(n + 2) * 7 % 251).astype(dtype)
    x = ua.asarray(h)
    for lo, hi in ((0, n), (1, n + 1), (2, n + 2)):
        check(ua.asarray(ua.flip(x[lo:hi]), copy=True), h[lo:hi][::-1])


def test_flip_is_a_view_with_negative_strides():
    x = ua.asarray(np.arange(6.0).reshape(2, 3))
    v = ua.flip(x, axis=1)
    assert v.strides == (3, -1)
    v[0, 0] = 10
    assert ua.asnumpy(x)[0, 2] == 10
    check(ua.flip(ua.flip(x)), ua.asnumpy(x))
    check(ua.flip(x, axis=()), ua.asnumpy(x))


def test_flip_refuses():
    x = ua.zeros((2, 3))
    with pytest.raises(AxisError, match="flip: axis 2 is out of bounds"):
        ua.flip(x, axis=2)
    with pytest.raises(ValueError, match="axis 1 is repeated"):
        ua.flip(x, axis=(1, -1))
    with pytest.raises(AxisError):
        ua.flip(ua.asarray(1.0), axis=0)


# ------------------------------------------------- moveaxis, permute_dims


@pytest.mark.parametrize("layout", LAYOUTS)
def test_moveaxis(layout):
    h, x = pair((2, 3, 4, 5), "i8", layout)
    cases = [
        (0, -1),
        (-1, 0),
        (1, 1),
        ((0, 1), (2, 0)),
        ((0, 1, 2, 3), (3, 2, 1, 0)),
        ((), ()),
        ([3], [0]),
    ]
    for src, dst in cases:
        v = ua.moveaxis(x, src, dst)
        check(v, np.moveaxis(h, src, dst))
        assert pointer(v) == pointer(x)


def test_moveaxis_refuses():
    x = ua.zeros((2, 3))
    with pytest.raises(ValueError, match="source has 2 axes but destination has 1"):
        ua.moveaxis(x, (0, 1), 0)
    with pytest.raises(AxisError, match="moveaxis: axis 2"):
        ua.moveaxis(x, 2, 0)
    with pytest.raises(ValueError, match="repeated"):
        ua.moveaxis(x, (0, 0), (0, 1))
    with pytest.raises(TypeError, match="3 positional arguments but 2"):
        ua.moveaxis(x, 0)
    with pytest.raises(TypeError, match="expects a USMArray"):
        ua.moveaxis(np.zeros(2), 0, 0)


def test_permute_dims():
    h, x = pair((2, 3, 4), "u2", "reversed")
    for perm in itertools.permutations(range(3)):
        check(ua.permute_dims(x, perm), np.permute_dims(h, perm))
    check(ua.permute_dims(x, axes=[-1, 0, 1]), np.permute_dims(h, (2, 0, 1)))


# ------------------------------------------------------ squeeze, unstack


@pytest.mark.parametrize("layout", LAYOUTS)
def test_squeeze(layout):
    h, x = pair((1, 3, 1, 1), "?", layout)
    ones = [k for k, n in enumerate(h.shape) if n == 1]
    for r in range(1, len(ones) + 1):
        for axes in itertools.combinations(ones, r):
            for ax in (axes, tuple(a - h.ndim for a in axes)):
                v = ua.squeeze(x, ax)
                check(v, np.squeeze(h, ax))
                assert pointer(v) == pointer(x)
            if r == 1:
                check(ua.squeeze(x, axis=axes[0]), np.squeeze(h, axes[0]))
    check(ua.squeeze(x, ()), h)
    check(ua.squeeze(ua.zeros((1, 0)), 0), np.zeros(0))


def test_squeeze_refuses():
    x = ua.zeros((1, 3))
    with pytest.raises(ValueError, match="axis 1 has length 3; only axes of length 1"):
        ua.squeeze(x, 1)
    with pytest.raises(AxisError, match="squeeze: axis 2"):
        ua.squeeze(x, 2)
    with pytest.raises(ValueError, match="axis 0 is repeated"):
        ua.squeeze(x, (0, -2))
    with pytest.raises(TypeError, match="axis must be an integer"):
        ua.squeeze(x, "0")


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", [s for s in SHAPES if s])
def test_unstack(layout, shape):
    h, x = pair(shape, "f8", layout)
    for axis in range(-h.ndim, h.ndim):
        parts = ua.unstack(x, axis=axis)
        expected = np.unstack(h, axis=axis)
        assert isinstance(parts, tuple) and len(parts) == len(expected)
        for p, e in zip(parts, expected):
            check(p, e)
            assert shares(p, x)


def test_unstack_refuses():
    with pytest.raises(ValueError, match="at least 1 dimension"):
        ua.unstack(ua.asarray(1))
    with pytest.raises(AxisError, match="unstack: axis 1"):
        ua.unstack(ua.zeros(3), axis=1)


# ----------------------------------------------------------------- roll


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", SHAPES)
def test_roll_flattened(layout, shape):
    h, x = pair(shape, "i2", layout)
    for shift in [0, 1, -1, 5, -7, 23, 10**6, (1, 2)]:
        out = ua.roll(x, shift)
        check(out, np.roll(h, shift))
        assert out.flags.c_contiguous


@pytest.mark.parametrize("layout", LAYOUTS)
def test_roll_along_axes(layout):
    h, x = pair((3, 4, 5), "c16", layout)
    cases = [
        (1, 0),
        (-2, -1),
        (7, 1),
        ((1, 2), (0, 2)),
        (3, (0, 1, 2)),
        ((1, -1), 1),
        ((1, 2, 3), (0, 1, -1)),
        ((), ()),
    ]
    for shift, axis in cases:
        check(ua.roll(x, shift, axis=axis), np.roll(h, shift, axis=axis))
    check(ua.roll(ua.zeros((0, 3)), 2, axis=1), np.zeros((0, 3)))


def test_roll_refuses():
    x = ua.zeros((2, 3))
    with pytest.raises(ValueError, match="shift has 3 entries but axis has 2"):
        ua.roll(x, (1, 2, 3), axis=(0, 1))
    with pytest.raises(AxisError, match="roll: axis 2"):
        ua.roll(x, 1, axis=2)
    with pytest.raises(TypeError, match="shift must be an integer"):
        ua.roll(x, 1.5)
    with pytest.raises(TypeError, match="missing required argument 'shift'"):
        ua.roll(x)


# ------------------------------------------------------------ tile, repeat


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", SHAPES)
def test_tile(layout, shape):
    h, x = pair(shape, "u4", layout)
    for reps in [(), 1, 3, (2, 1), (1, 2, 3), (0, 2), (2, 1, 1, 2)]:
        out = ua.tile(x, reps)
        check(out, np.tile(h, reps))
        assert out.flags.c_contiguous


def test_tile_refuses():
    x = ua.zeros((2, 3))
    with pytest.raises(ValueError, match=r"repetitions\[1\] is negative"):
        ua.tile(x, (1, -1))
    with pytest.raises(ValueError, match="too many elements|more bytes|more elements"):
        ua.tile(x, (2**62, 2**62))
    with pytest.raises(TypeError, match="repetitions must be an integer"):
        ua.tile(x, "ab")
    with pytest.raises(ValueError, match="at most 64"):
        ua.tile(x, (1,) * 65)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", SHAPES)
def test_repeat_by_one_count(layout, shape):
    h, x = pair(shape, "f2", layout)
    for r in (0, 1, 3):
        check(ua.repeat(x, r), np.repeat(h, r))
        for axis in range(-h.ndim, h.ndim):
            check(ua.repeat(x, r, axis=axis), np.repeat(h, r, axis=axis))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_repeat_by_counts(layout):
    h, x = pair((3, 4, 2), "i8", layout)
    rng = np.random.default_rng(5)
    for axis in [None, 0, 1, 2, -1]:
        n = h.size if axis is None else h.shape[axis]
        for counts in [rng.integers(0, 4, n), np.full(n, 2), np.zeros(n, int), np.array([3])]:
            expected = np.repeat(h, counts, axis=axis)
            check(ua.repeat(x, counts.tolist(), axis=axis), expected)
            check(ua.repeat(x, ua.asarray(counts), axis=axis), expected)
            check(ua.repeat(x, counts.astype("u1"), axis=axis), expected)


def test_repeat_by_a_tuple_of_counts():
    # A tuple of counts is one argument, not five (issue 45: the binding
    # passed it where a tuple is unpacked into arguments).
    h, x = pair((5,), "i8")
    check(ua.repeat(x, (1, 2, 3, 4, 5)), np.repeat(h, (1, 2, 3, 4, 5)))
    check(ua.repeat(x, (2,)), np.repeat(h, 2))
    y = ua.zeros(2)
    y[:] = (1, 2)  # a tuple value is one operand too
    assert ua.asnumpy(y).tolist() == [1.0, 2.0]
    assert ua.full(2, (3, 4)).shape == (2,)


def test_repeat_counts_of_every_integer_dtype():
    h, x = pair((4,), "c8")
    for name in ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]:
        counts = np.array([1, 0, 2, 3], dtype=name)  # NumPy refuses uint64's
        check(ua.repeat(x, ua.asarray(counts)), np.repeat(h, counts.astype("i8")))
    check(ua.repeat(x, np.int16(2)), np.repeat(h, 2))
    check(ua.repeat(ua.asarray(7), [3]), np.repeat(7, [3]))
    check(ua.repeat(ua.zeros(0), []), np.zeros(0))


def test_repeat_refuses():
    x = ua.zeros((2, 3))
    cases = [
        (lambda: ua.repeat(x, -1), ValueError, "repeats is -1; repeats must be non-negative"),
        (lambda: ua.repeat(x, [1, -2], axis=0), ValueError, r"repeats\[1\] is -2"),
        (
            lambda: ua.repeat(x, [1, 2], axis=1),
            ValueError,
            "repeats has 2 entries but the axis has 3",
        ),
        (lambda: ua.repeat(x, [1, 2]), ValueError, "flattened array has 6"),
        (lambda: ua.repeat(x, [1.5, 2]), TypeError, "repeats must be integers, not float64"),
        (lambda: ua.repeat(x, ua.ones(6, dtype="?")), TypeError, "not bool"),
        (lambda: ua.repeat(x, True), TypeError, "repeats must be an integer, not bool"),
        (lambda: ua.repeat(x, 2.0), TypeError, "not float"),
        (lambda: ua.repeat(x, "ab"), TypeError, "not str"),
        (lambda: ua.repeat(x, None), TypeError, "not NoneType"),
        (lambda: ua.repeat(x, [[1, 2, 3]], axis=1), ValueError, "0- or 1-dimensional"),
        (lambda: ua.repeat(x, np.array([2**64 - 1] * 3, "u8"), axis=1), ValueError, "too large"),
        (lambda: ua.repeat(x, 2**62), ValueError, "more elements than can be addressed"),
        (
            lambda: ua.repeat(x, [2**62, 2**62], axis=0),
            ValueError,
            "more elements than can be addressed",
        ),
        (lambda: ua.repeat(x, 1, axis=2), AxisError, "repeat: axis 2"),
        (lambda: ua.repeat(ua.asarray(1.0), 1, axis=0), AxisError, "axis 0"),
    ]
    for call, exc, message in cases:
        with pytest.raises(exc, match=message):
            call()


# --------------------------------------------------------------- reshape


def test_reshape_copy_semantics():
    h, x = pair((3, 4), "f8")
    v = ua.reshape(x, (4, 3))
    assert pointer(v) == pointer(x)
    same = ua.reshape(x, (3, 4))
    assert pointer(same) == pointer(x)
    c = ua.reshape(x, (4, 3), copy=True)
    assert pointer(c) != pointer(x)
    check(c, h.reshape(4, 3))
    t = ua.permute_dims(x, (1, 0))
    with pytest.raises(ValueError, match="copy=False"):
        ua.reshape(t, (12,), copy=False)
    check(ua.reshape(t, (12,)), h.T.reshape(12))
    check(ua.reshape(x, (2, -1), order="F"), h.reshape((2, -1), order="F"))
    check(ua.reshape(x, 12, copy=False), h.reshape(12))


# ----------------------------------------------- large and odd arguments


def test_axis_sequences_longer_than_the_dimensions_are_refused():
    with pytest.raises(ValueError, match="at most 64"):
        ua.flip(ua.zeros((2, 3)), axis=list(range(65)))


def test_many_arrays_and_many_dimensions():
    parts = [ua.asarray(np.full((1, 2), k)) for k in range(300)]
    check(ua.concat(parts), np.concat([np.full((1, 2), k) for k in range(300)]))
    h = host((1, 2) * 8, "u1")
    x = ua.asarray(h)
    check(ua.flip(x), np.flip(h))
    check(ua.roll(x, 12345), np.roll(h, 12345))
    check(ua.roll(x, 1, axis=tuple(range(1, 16, 2))), np.roll(h, 1, axis=tuple(range(1, 16, 2))))
    check(ua.tile(x, (2,) * 12), np.tile(h, (2,) * 12))
    check(ua.repeat(x, 2, axis=-1), np.repeat(h, 2, axis=-1))
    # 64 axes of x and 64 of repetitions: the copy leaves out those of length 1.
    h = host((1,) * 62 + (2, 3), "f4")
    x = ua.asarray(h)[..., ::-1]
    reps = (1,) * 61 + (2, 1, 2)
    check(ua.tile(x, reps), np.tile(h[..., ::-1], reps))
    check(ua.repeat(x, 3), np.repeat(h[..., ::-1], 3))
    check(ua.roll(x, 2), np.roll(h[..., ::-1], 2))


# ----------------------------------- results read by the host right away

ASYNC_DEVICES = [d.filter_string for d in ua.get_devices() if d.filter_string != "host"]


@pytest.mark.parametrize("device", ASYNC_DEVICES or [None])
@pytest.mark.parametrize("usm_type", ["shared", "host"])
def test_the_host_reads_results_whole_on_devices_that_work_asynchronously(device, usm_type):
    # A namespace call returns before its kernels finish; the buffer
    # protocol and __array_interface__ wait for them.
    if device is None:
        pytest.skip("no device besides the host")
    n = 1 << 22
    a = ua.ones(n, dtype=ua.float32, device=device, usm_type=usm_type)
    b = ua.full(n, 2.0, dtype=ua.float32, device=device, usm_type=usm_type)

    class Interface:
        pass

    for _ in range(5):
        c = ua.concat([a, b])
        assert np.asarray(c)[-1] == 2.0
        assert memoryview(ua.roll(c, 3)).cast("B").cast("f")[2] == 2.0
        d = ua.stack([b, a])
        held = Interface()
        held.__array_interface__ = d.__array_interface__
        assert np.asarray(held)[1, -1] == 1.0
