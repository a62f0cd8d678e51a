"""Where the tests of dpctl's usm_ndarray (dpnp's tests/tensor/
test_usm_ndarray_ctor.py) fix a behaviour the source documents leave open,
ours match it (docs/architecture.rst, "dpctl's objects"), on the host
backend and on every SYCL device: flags, the shape setter, reshape to the
same shape, the strides of empty slices, order 'K' copies of negative
strides, astype(None) and its casting and device, and the malformed
arguments of the constructor."""

import numpy as np
import pytest
import usmarray as ua


def queues():
    found = [ua.Queue("host")]
    found += [ua.Queue(d) for d in ua.get_devices(backend="sycl")]
    return found


@pytest.fixture(params=queues(), ids=lambda q: q.device.filter_string)
def q(request):
    return request.param


def values(x):
    return ua.asnumpy(x).tolist()


# ---------------------------------------------------------------- flags


def test_flags_of_dpctl(q):
    cases = [
        (ua.USMArray((5,), "i4", buffer_ctor_kwargs={"queue": q}), (True, True, False)),
        (ua.USMArray((5, 2), "i4", buffer_ctor_kwargs={"queue": q}), (False, True, False)),
        (
            ua.USMArray((5, 2), "i4", order="F", buffer_ctor_kwargs={"queue": q}),
            (False, True, True),
        ),
        (ua.USMArray((5, 1, 2), "i4", strides=(1, 0, 5)), (False, True, True)),
        (ua.USMArray((5, 0, 1), "i4", strides=(1, 0, 1)), (True, True, False)),
        (ua.USMArray((5, 1, 1), "i4", strides=(2, 0, 1)), (False, False, False)),
    ]
    for x, (fc, forc, fnc) in cases:
        f = x.flags
        assert (f.fc, f.forc, f.fnc) == (fc, forc, fnc), x.strides
        assert f.contiguous == forc  # dpctl's contiguous is forc
        assert f.fc == (f.c_contiguous and f.f_contiguous)


# ---------------------------------------------------------- shape setter


def test_the_shape_setter_reshapes_in_place(q):
    x = ua.arange(120, dtype="i8", queue=q)
    base, pointer = x.base, x._pointer
    for shape in [(2, 3, 4, 5), (4, 3, 1, 2, 5), (2, 2, 2, 15, 1, 1, 1, 1), 120, (-1, 6)]:
        x.shape = shape
        expected = np.arange(120).reshape(shape)
        assert x.shape == expected.shape
        assert x.strides == tuple(s // 8 for s in expected.strides)
        assert x.flags.c_contiguous and x.base is base and x._pointer == pointer
        assert values(x) == expected.tolist()
    # A transposed view reshapes where its layout allows.
    t = ua.arange(12, dtype="u1", queue=q).reshape((3, 4)).T
    t.shape = (2, 2, 3)
    assert values(t) == np.arange(12).reshape(3, 4).T.reshape(2, 2, 3).tolist()


def test_the_shape_setter_refuses_what_needs_a_copy(q):
    x = ua.zeros((4, 4), dtype="u1", queue=q)[::2, ::2]
    with pytest.raises(AttributeError, match="incompatible shape for in-place"):
        x.shape = (4,)
    assert x.shape == (2, 2) and x.strides == (8, 2)
    with pytest.raises(TypeError):
        x.shape = "abcbe"
    with pytest.raises(ValueError, match="cannot reshape an array of size 4"):
        x.shape = (3,)
    e = ua.empty((0,), dtype="i4", queue=q)
    for shape in [(0,), (2, 0), (0, 2), (1, 0, 1)]:
        e.shape = shape
        assert e.shape == shape


def test_reshape_to_the_same_shape_is_the_array(q):
    a = ua.ones((2, 1), queue=q)
    assert ua.reshape(a, (2, 1)) is a
    assert a.reshape(2, 1) is a
    assert a.reshape((2, 1), copy=True) is not a


# ---------------------------------------------------------------- slices

SLICES = [
    (None, slice(None, -1, -2), Ellipsis, slice(2, None, 3)),
    (slice(3, 3, -1),),
    (slice(None, None, -1), slice(5, 2)),
    (slice(None, None, -1), slice(None, None, -1), slice(0, None, 3), slice(1, None, 2)),
    (None, slice(1, None, 2), Ellipsis, slice(1, None, 3)),
]


@pytest.mark.parametrize("key", SLICES, ids=range(len(SLICES)))
def test_slices_have_numpys_strides_empty_ones_too(q, key):
    x = ua.USMArray((6, 8, 15, 14), "u1", buffer_ctor_kwargs={"queue": q})
    a = np.empty(x.shape, "u1")
    assert x[key].shape == a[key].shape
    assert x[key].strides == a[key].strides


# ------------------------------------------------------- order 'K' copies


def test_order_k_copies_keep_the_signs_of_strides(q):
    a = np.arange(12, dtype="i4").reshape(3, 4)
    x = ua.asarray(a, queue=q)[::-1, ::2]
    expected = a[::-1, ::2]
    made = {
        "copy": x.copy(order="K"),
        "astype": x.astype("f4", order="K"),
        "ua.astype": ua.astype(x, "i8"),
        "asarray": ua.asarray(x, copy=True),
        "asarray-dtype": ua.asarray(x, dtype="f8"),
        "full_like": ua.full_like(x, 3),
        "empty_like": ua.empty_like(x),
    }
    for name, y in made.items():
        assert y.strides == (-2, 1), name
        assert y.base is not x.base, name
        if name not in ("full_like", "empty_like"):
            assert values(y) == expected.tolist(), name
    assert values(made["full_like"]) == [[3, 3]] * 3
    # The USM array interface of such a copy is right (the lowest element
    # starts its buffer), and C order still gives positive strides.
    y = made["copy"]
    iface = y.__sycl_usm_array_interface__
    assert iface["offset"] == 4 and iface["strides"] == (-2, 1)
    assert x.copy().strides == (2, 1) and x.copy(order="C").strides == (2, 1)


def test_copies_the_library_makes_for_others_stay_positive(q):
    # DLPack's copies and pickling keep positive strides: PyTorch aborts
    # the process on negative ones.
    import pickle

    x = ua.asarray(np.arange(6.0), queue=q)[::-1]
    assert pickle.loads(pickle.dumps(x)).strides == (1,)


# ------------------------------------------------------------------ astype


def test_astype_none_is_the_default_floating_dtype(q):
    x = ua.arange(5, dtype="i4", queue=q)
    expected = np.float64 if q.device.has_aspect_fp64 else np.float32
    assert x.astype(None).dtype == expected
    assert ua.astype(x, None).dtype == expected
    assert values(x.astype(None)) == [0.0, 1.0, 2.0, 3.0, 4.0]


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
def test_astype_casting_follows_numpy(q, casting):
    x = ua.arange(5, dtype="i4", queue=q)
    for target in ("i4", "i8", "i2", "u4", "f4", "f8", "c8", "?"):
        allowed = np.can_cast(np.int32, target, casting=casting)
        for cast in (
            lambda: x.astype(target, casting=casting),
            lambda: ua.astype(x, target, casting=casting),
        ):
            if allowed:
                assert cast().dtype == target
            else:
                with pytest.raises(TypeError, match=f"according to the rule '{casting}'"):
                    cast()


def test_astype_takes_a_device(q):
    x = ua.arange(4, dtype="i4", queue=q)
    y = x.astype("f4", device="host")
    assert y.device == ua.Device("host") and values(y) == [0.0, 1.0, 2.0, 3.0]
    assert x.astype("i4", copy=False, device=q) is x
    assert x.astype("i4", copy=False, device="host") is not x or q.device.backend == "host"


# ------------------------------------------------------------ constructor


def test_malformed_strides_and_buffers_raise_dpctls_errors():
    m = ua.MemoryUSMShared(64)
    with pytest.raises(ValueError):
        ua.USMArray((4,), dtype="u1", buffer=m, strides={"not": "valid"})
    with pytest.raises(ValueError):
        ua.USMArray(10, dtype="i4", buffer={})
    with pytest.raises(ValueError):
        ua.USMArray(10, buffer="invalid_param")
    x = ua.USMArray(10, dtype="i8", buffer=b"device")
    assert x.usm_type == "device"
    with pytest.raises(TypeError):
        ua.USMArray({})


def test_asnumpy_takes_an_order():
    x = ua.asarray(np.arange(6.0).reshape(2, 3)).T
    assert ua.asnumpy(x).flags.c_contiguous
    assert ua.asnumpy(x, order="F").flags.f_contiguous
    np.testing.assert_array_equal(ua.asnumpy(x, order="F"), np.arange(6.0).reshape(2, 3).T)
    with pytest.raises(TypeError, match=r"^asnumpy\(\) got an unexpected keyword"):
        ua.asnumpy(x, oder="C")


@pytest.mark.parametrize("order", ["K", "C", "F", "A"])
def test_copy_function_as_dpctls(order):
    base = np.arange(24, dtype="i4").reshape(2, 3, 4)
    view = base.transpose(2, 0, 1)[::-1, :, ::2]
    x = ua.asarray(base, device="host").transpose(2, 0, 1)[::-1, :, ::2]
    y = ua.copy(x, order=order)
    want = np.copy(view, order=order)
    np.testing.assert_array_equal(ua.asnumpy(y), want)
    expected = [s // 4 for s in want.strides]
    if order == "K":  # dpctl's 'K' also keeps the strides' signs
        expected = [abs(e) * (-1 if s < 0 else 1) for e, s in zip(expected, x.strides)]
    assert list(y.strides) == expected
    assert y.queue is x.queue and y.usm_type == x.usm_type
    assert y.base._pointer != x.base._pointer


def test_copy_function_refuses_what_is_not_an_array():
    with pytest.raises(TypeError, match="copy"):
        ua.copy([1, 2])
    with pytest.raises(ValueError, match="order"):
        ua.copy(ua.ones(2), order="X")


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("k", [-2, -1, 0, 1, 3])
@pytest.mark.parametrize("which", ["tril", "triu"])
def test_triangles_keep_a_matrixs_order(order, k, which):
    base = np.arange(12, dtype="i8").reshape(3, 4, order=order)
    x = ua.asarray(base, device="host", order="K")
    y = getattr(ua, which)(x, k=k)
    np.testing.assert_array_equal(ua.asnumpy(y), getattr(np, which)(base, k=k))
    assert y.flags.c_contiguous == (order == "C") and y.flags.f_contiguous == (order == "F")


@pytest.mark.parametrize("dtype", ["i1", "u1", "i4", "i8", "u8", "bool"])
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_makes_integer_and_boolean_arrays_as_numpy(dtype, endpoint):
    for start, stop, num in [(0.1, 9.1, 11), (0, 1, 2), (-3.5, 20, 7)]:
        if dtype in ("u1", "u8") and start < 0:
            continue
        got = ua.linspace(start, stop, num, dtype=dtype, endpoint=endpoint, device="host")
        want = np.linspace(start, stop, num, dtype=dtype, endpoint=endpoint)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(ua.asnumpy(got), want)
    with pytest.raises(TypeError, match="complex bounds need a complex dtype"):
        ua.linspace(0j, 1, 3, dtype=dtype)


def test_arange_takes_numpys_real_scalars():
    got = ua.arange(0, np.float32(504), 100, dtype="f4", device="host")
    np.testing.assert_array_equal(ua.asnumpy(got), np.arange(0, np.float32(504), 100, dtype="f4"))
    np.testing.assert_array_equal(
        ua.asnumpy(ua.arange(np.float16(3), device="host")), np.arange(3.0)
    )
    with pytest.raises(TypeError, match="complex64"):
        ua.arange(np.complex64(3))


@pytest.mark.parametrize("bad", [{}, 1, None, "yes"])
def test_the_writable_flag_takes_only_a_bool(bad):
    x = ua.ones(3, device="host")
    with pytest.raises(TypeError, match="must be a bool"):
        x.flags.writable = bad
    with pytest.raises(TypeError, match="must be a bool"):
        x.flags["W"] = bad
    assert x.flags.writable is True
