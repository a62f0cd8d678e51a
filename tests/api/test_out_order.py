"""dpctl's out= and order= keywords: the elementwise functions (clip and
where among them), the reductions and the scans write into out= as the
call without it computes, read every input before writing (overlapping
views included), refuse a wrong out= with dpctl's exception types, and lay
out a new result as order= says."""

import numpy as np
import pytest
import usmarray as ua
from conftest import first_device_of_each_backend

DEVICES = first_device_of_each_backend()


@pytest.fixture(params=DEVICES)
def dev(request):
    return ua.Device(request.param)


def arange(dev, n, dtype="float32", shape=None):
    x = ua.arange(n, dtype=dtype, device=dev)
    return x if shape is None else ua.reshape(x, shape)


def host(x):
    return ua.asnumpy(x)


UNARY = ["abs", "negative", "exp", "sqrt", "floor", "sign", "square", "isnan", "logical_not"]
BINARY = ["add", "subtract", "multiply", "divide", "maximum", "pow", "less", "equal", "logical_and"]


@pytest.mark.parametrize("name", UNARY)
def test_unary_out_is_the_result(dev, name):
    f = getattr(ua, name)
    x = arange(dev, 12, shape=(3, 4)) - 5
    want = f(x)
    out = ua.empty_like(want)
    got = f(x, out=out)
    assert got is out
    np.testing.assert_array_equal(host(out), host(want))


@pytest.mark.parametrize("name", BINARY)
def test_binary_out_is_the_result_broadcast(dev, name):
    f = getattr(ua, name)
    x1 = arange(dev, 12, shape=(3, 4)) + 1
    x2 = arange(dev, 4) - 1
    want = f(x1, x2)
    out = ua.empty_like(want)
    assert f(x1, x2, out=out) is out
    np.testing.assert_array_equal(host(out), host(want))
    # A Python scalar operand, and a strided out.
    big = ua.empty((3, 8), dtype=want.dtype, device=dev)
    view = big[:, ::2]
    assert f(x1, 2.0, out=view) is view
    np.testing.assert_array_equal(host(view), host(f(x1, 2.0)))


def test_out_none_is_a_new_result(dev):
    x = arange(dev, 5)
    r = ua.add(x, x, out=None)
    np.testing.assert_array_equal(host(r), 2 * np.arange(5, dtype="f4"))


def test_clip_and_where_out(dev):
    x = arange(dev, 10, dtype="int64")
    out = ua.empty_like(x)
    assert ua.clip(x, 2, 7, out=out) is out
    np.testing.assert_array_equal(host(out), np.clip(np.arange(10), 2, 7))
    assert ua.clip(x, None, None, out=out) is out
    np.testing.assert_array_equal(host(out), np.arange(10))
    c = x > 4
    w = ua.empty(10, dtype="float64", device=dev) if dev.has_aspect_fp64 else None
    if w is not None:
        assert ua.where(c, 1.0, -1.0, out=w) is w
        np.testing.assert_array_equal(host(w), np.where(np.arange(10) > 4, 1.0, -1.0))


def test_real_of_real_array_with_out_copies(dev):
    x = arange(dev, 4)
    out = ua.empty_like(x)
    assert ua.real(x, out=out) is out
    np.testing.assert_array_equal(host(out), np.arange(4, dtype="f4"))
    assert ua.real(x) is x  # without keywords, as before


# ------------------------------------------------------------- overlap


def test_out_is_the_input(dev):
    x = arange(dev, 8)
    assert ua.negative(x, out=x) is x
    np.testing.assert_array_equal(host(x), -np.arange(8, dtype="f4"))
    y = arange(dev, 8)
    assert ua.multiply(y, y, out=y) is y
    np.testing.assert_array_equal(host(y), np.arange(8, dtype="f4") ** 2)


def test_out_is_a_reversed_view_of_the_input(dev):
    x = arange(dev, 9)
    ua.negative(x, out=x[::-1])
    np.testing.assert_array_equal(host(x), -np.arange(9, dtype="f4")[::-1])
    y = arange(dev, 9)
    z = ua.ones(9, dtype="float32", device=dev)
    ua.add(z, y, out=y[::-1])
    np.testing.assert_array_equal(host(y), (np.arange(9, dtype="f4") + 1)[::-1])


def test_out_partly_overlaps_the_input(dev):
    x = arange(dev, 10, dtype="uint32") * 0 + 1
    ua.add(x[:6], 1, out=x[-6:])
    np.testing.assert_array_equal(host(x), [1, 1, 1, 1, 2, 2, 2, 2, 2, 2])
    y = arange(dev, 10)
    ua.add(y[1:], y[:-1], out=y[:-1])
    h = np.arange(10, dtype="f4")
    np.testing.assert_array_equal(host(y)[:-1], h[1:] + h[:-1])


def test_broadcast_operand_into_out(dev):
    m = ua.ones((4, 3), dtype="int32", device=dev)
    v = arange(dev, 3, dtype="int32")
    ua.add(m, v, out=m)
    ua.add(v, m, out=m)
    np.testing.assert_array_equal(host(m), np.broadcast_to(1 + 2 * np.arange(3), (4, 3)))


# -------------------------------------------------------------- errors


def test_out_not_an_array_is_a_type_error(dev):
    x = arange(dev, 4)
    with pytest.raises(TypeError, match="output array must be of usm_ndarray type"):
        ua.add(x, x, out=np.empty(4, dtype="f4"))
    with pytest.raises(TypeError, match="output array must be of usm_ndarray type"):
        ua.exp(x, out=[0, 0, 0, 0])
    with pytest.raises(TypeError, match="output array"):
        ua.sum(x, out=range(1))


def test_out_of_another_shape(dev):
    x = arange(dev, 12, shape=(3, 4))
    with pytest.raises(ValueError, match=r"Expected output shape is \(3, 4\), got \(4, 3\)"):
        ua.add(x, 1, out=ua.empty((4, 3), dtype="float32", device=dev))
    # out may not broadcast either
    with pytest.raises(ValueError, match="inconsistent"):
        ua.exp(x[0], out=ua.empty((3, 4), dtype="float32", device=dev))
    with pytest.raises(ValueError, match=r"Expected output shape is \(4,\), got \(1, 4\)"):
        ua.sum(x, axis=0, out=ua.empty((1, 4), dtype="float32", device=dev))


def test_out_of_another_dtype_is_not_cast(dev):
    x = arange(dev, 4, dtype="int32")
    # in place (x += 1.5 refuses too); out= takes no casting, even a safe one
    with pytest.raises(ValueError, match="^Output array of type int64 is needed, got int32"):
        ua.add(x, ua.ones(4, dtype="int64", device=dev), out=x)
    with pytest.raises(ValueError, match="^Output array of type bool is needed, got int32"):
        ua.less(x, 2, out=ua.empty(4, dtype="int32", device=dev))
    with pytest.raises(ValueError, match="^Output array of type int64 is needed, got int32"):
        ua.argmax(x, out=ua.empty((), dtype="int32", device=dev))
    with pytest.raises(ValueError, match="^Output array of type int32 is needed"):
        ua.max(x, out=ua.empty((), dtype="int64", device=dev))


def test_read_only_out(dev):
    x = arange(dev, 4)
    out = ua.empty_like(x)
    out.flags.writable = False
    with pytest.raises(ValueError, match="read-only"):
        ua.add(x, x, out=out)
    with pytest.raises(ValueError, match="read-only"):
        ua.cumulative_sum(x, out=out)
    np.testing.assert_array_equal(host(x), np.arange(4, dtype="f4"))


def another_queue(dev):
    """Another device's queue, or None where dev is the only device."""
    for d in ua.get_devices():
        if d != dev:
            return ua.Queue(d)
    return None


def test_out_on_another_queue(dev):
    q2 = another_queue(dev)
    if q2 is None:
        pytest.skip("one device only")
    x = ua.ones(4, dtype="float32", device=dev)
    out = ua.empty(4, dtype="float32", device=q2)
    with pytest.raises(ValueError, match="Input and output allocation queues are not compatible"):
        ua.add(x, x, out=out)
    with pytest.raises(ValueError, match="queues are not compatible"):
        ua.sqrt(x, out=out)
    with pytest.raises(ValueError, match="queues are not compatible"):
        ua.sum(x, out=ua.empty((), dtype="float32", device=q2))


def test_out_and_order_are_keyword_only(dev):
    x = arange(dev, 4)
    with pytest.raises(TypeError):
        ua.exp(x, ua.empty_like(x))
    with pytest.raises(TypeError):
        ua.add(x, x, ua.empty_like(x))
    with pytest.raises(TypeError, match="unexpected keyword"):
        ua.exp(x, outt=ua.empty_like(x))


# --------------------------------------------------------------- order


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_order_of_c_and_f_operands(dev, order):
    c = ua.ones((3, 4), dtype="float32", device=dev)
    f = ua.ones((3, 4), dtype="float32", device=dev, order="F")
    for x, is_f in ((c, False), (f, True)):
        r = ua.add(x, x, order=order)
        want_f = order == "F" or (order in "AK" and is_f)
        assert r.flags.f_contiguous == want_f and r.flags.c_contiguous == (not want_f)
        u = ua.exp(x, order=order)
        assert u.flags.f_contiguous == want_f
    # mixed layouts: 'A' is 'F' only where every operand is F-contiguous
    assert ua.add(c, f, order="A").flags.c_contiguous
    assert ua.add(f, 1.0, order="A").flags.f_contiguous


def test_order_k_keeps_the_operands_memory_order(dev):
    # strides (-2, 6): the first axis backwards, the second the slow one
    x = arange(dev, 24, shape=(4, 6))[:, ::-2].mT
    k = ua.square(x, order="K")
    assert k.strides == (-1, 3)  # dpctl's: the reversed axis stays reversed
    plain = ua.square(x)
    assert plain.strides == (1, 3)  # without order=: NumPy's positive strides
    c = ua.square(x, order="C")
    assert c.strides == (4, 1)
    want = np.arange(24, dtype="f4").reshape(4, 6)[:, ::-2].T ** 2
    for r in (k, plain, c):
        np.testing.assert_array_equal(host(r), want)
    # a binary call reverses an axis only where both operands walk it so
    y = arange(dev, 8)[::-1]
    assert ua.add(y, y, order="K").strides == (-1,)
    assert ua.add(y, arange(dev, 8), order="K").strides == (1,)
    assert ua.add(y, 1.0, order="K").strides == (-1,)


def test_invalid_order(dev):
    x = arange(dev, 4)
    with pytest.raises(ValueError, match="order must be one of 'CFAK'"):
        ua.add(x, x, order="invalid")
    with pytest.raises(ValueError, match="order must be one of"):
        ua.clip(x, 0, 1, order="Z")
    with pytest.raises(TypeError, match="order must be a str"):
        ua.exp(x, order=None)


def test_out_wins_over_order(dev):
    x = arange(dev, 12, shape=(3, 4))
    out = ua.empty((3, 4), dtype="float32", device=dev)
    assert ua.negative(x, out=out, order="F") is out
    assert out.flags.c_contiguous


# ---------------------------------------------------- reductions, scans


@pytest.mark.parametrize("name", ["sum", "prod", "min", "max", "argmax", "argmin"])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reduction_out(dev, name, keepdims):
    f = getattr(ua, name)
    x = arange(dev, 12, shape=(3, 4)) % 5 + 1
    want = f(x, axis=1, keepdims=keepdims)
    out = ua.empty_like(want)
    assert f(x, axis=1, keepdims=keepdims, out=out) is out
    np.testing.assert_array_equal(host(out), host(want))
    whole = ua.empty_like(f(x))
    assert f(x, out=whole) is whole
    np.testing.assert_array_equal(host(whole), host(f(x)))


def test_reduction_into_its_own_input(dev):
    y = arange(dev, 12, shape=(3, 4))
    ua.sum(y, axis=1, out=y[:, 0])
    h = np.arange(12, dtype="f4").reshape(3, 4)
    want = h.copy()
    want[:, 0] = h.sum(axis=1)
    np.testing.assert_array_equal(host(y), want)


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_scan_out(dev, name):
    f = getattr(ua, name)
    x = arange(dev, 12, shape=(3, 4)) % 3 + 1
    for initial in (False, True):
        want = f(x, axis=1, include_initial=initial)
        out = ua.empty_like(want)
        assert f(x, axis=1, include_initial=initial, out=out) is out
        np.testing.assert_array_equal(host(out), host(want))
    # in place, and into bool (computed as the truths' scan first)
    y = arange(dev, 6) + 1
    want = host(f(y))
    assert f(y, out=y) is y
    np.testing.assert_array_equal(host(y), want)
    b = ua.empty(6, dtype="bool", device=dev)
    assert f(y, dtype="bool", out=b) is b
    assert host(b).all()
    with pytest.raises(ValueError, match=r"Expected output shape is \(7,\)"):
        f(y, include_initial=True, out=ua.empty_like(y))


@pytest.mark.parametrize("name", ["logsumexp", "reduce_hypot"])
def test_scaled_reduction_out(dev, name):
    f = getattr(ua, name)
    x = arange(dev, 12, shape=(3, 4))
    want = host(f(x, axis=1))
    out = ua.empty(3, dtype="float32", device=dev)
    assert f(x, axis=1, out=out) is out
    np.testing.assert_allclose(host(out), want, rtol=1e-6)
    # into its own input: the result is whole before out is written
    assert f(x, axis=1, out=x[:, 0]) is not None
    np.testing.assert_allclose(host(x)[:, 0], want, rtol=1e-6)
    with pytest.raises(ValueError, match="^Output array of type float32 is needed, got int64"):
        f(x, axis=1, out=ua.empty(3, dtype="int64", device=dev))
    with pytest.raises(ValueError, match=r"Expected output shape is \(3, 1\), got \(3,\)"):
        f(x, axis=1, keepdims=True, out=out)


def test_reductions_without_out_in_dpctl_refuse_it(dev):
    x = arange(dev, 4)
    for f in (ua.mean, ua.var, ua.std, ua.any, ua.all):
        with pytest.raises(TypeError, match="unexpected keyword"):
            f(x, out=ua.empty((), dtype="float32", device=dev))


# -------------------------------------------------------------- matmul


def test_matmul_out(dev):
    a = arange(dev, 12, shape=(3, 4))
    b = arange(dev, 8, shape=(4, 2))
    want = host(a) @ host(b)
    for out in (
        ua.empty((3, 2), dtype="float32", device=dev),
        ua.empty((3, 2), dtype="float32", device=dev, order="F"),
        ua.zeros((3, 6), dtype="float32", device=dev)[:, ::-3],
    ):
        assert ua.matmul(a, b, out=out) is out
        np.testing.assert_array_equal(host(out), want)
    # a row and a column: out has the axes the product keeps
    v = arange(dev, 4)
    out = ua.empty(2, dtype="float32", device=dev)
    assert ua.matmul(v, b, out=out) is out
    np.testing.assert_array_equal(host(out), host(v) @ host(b))


def test_matmul_into_an_operand(dev):
    s = arange(dev, 9, shape=(3, 3))
    want = host(s) @ host(s)
    assert ua.matmul(s, s, out=s) is s
    np.testing.assert_array_equal(host(s), want)
    t = arange(dev, 9, shape=(3, 3))
    want = host(t) @ host(t).T
    ua.matmul(t, t.mT, out=t.mT)
    np.testing.assert_array_equal(host(t).T, want)


def test_matmul_out_errors(dev):
    a = arange(dev, 12, shape=(3, 4))
    b = arange(dev, 8, shape=(4, 2))
    with pytest.raises(TypeError, match="output array must be of usm_ndarray type"):
        ua.matmul(a, b, out=np.empty((3, 2), dtype="f4"))
    with pytest.raises(ValueError, match=r"Expected output shape is \(3, 2\), got \(2, 3\)"):
        ua.matmul(a, b, out=ua.empty((2, 3), dtype="float32", device=dev))
    with pytest.raises(ValueError, match="^Output array of type float32 is needed, got int32"):
        ua.matmul(a, b, out=ua.empty((3, 2), dtype="int32", device=dev))
    ro = ua.empty((3, 2), dtype="float32", device=dev)
    ro.flags.writable = False
    with pytest.raises(ValueError, match="read-only"):
        ua.matmul(a, b, out=ro)
    with pytest.raises(ValueError, match="order must be one of"):
        ua.matmul(a, b, order="invalid")


def test_matmul_order(dev):
    c = ua.ones((3, 3), dtype="float32", device=dev)
    f = ua.ones((3, 3), dtype="float32", device=dev, order="F")
    assert ua.matmul(c, c, order="F").flags.f_contiguous
    assert ua.matmul(f, f, order="C").flags.c_contiguous
    assert ua.matmul(f, f, order="K").flags.f_contiguous
    assert ua.matmul(f, f, order="A").flags.f_contiguous
    assert ua.matmul(c, f, order="K").flags.c_contiguous
    assert ua.matmul(f, f).flags.c_contiguous  # without order=, as before


def test_matmul_dtype(dev):
    m1 = ua.ones((4, 4), dtype="int32", device=dev)
    m2 = ua.ones((4, 4), dtype="int16", device=dev)
    r = ua.matmul(m1, m2, dtype="float32")
    assert r.dtype == ua.float32
    np.testing.assert_array_equal(host(r), np.full((4, 4), 4, dtype="f4"))
    out = ua.empty((4, 4), dtype="int64", device=dev)
    assert ua.matmul(m1, m2, dtype="int64", out=out) is out
    with pytest.raises(ValueError, match="^Output array of type int32 is needed, got int64"):
        ua.matmul(m1, m2, out=out)
    f = ua.ones((2, 2), dtype="float32", device=dev)
    with pytest.raises(
        ValueError, match="cannot be cast from float32 to the requested dtype int32"
    ):
        ua.matmul(f, f, dtype="int32")


# ---------------------------------------------------------------- take


def test_take_out(dev):
    x = arange(dev, 24, shape=(2, 3, 4))
    ix = ua.asarray([[0, 1], [2, 2]], device=dev)
    want = np.take(host(x), host(ix), axis=1)
    for out in (
        ua.empty((2, 2, 2, 4), dtype="float32", device=dev),
        ua.empty((2, 2, 2, 8), dtype="float32", device=dev)[..., ::-2],
    ):
        assert ua.take(x, ix, axis=1, out=out) is out
        np.testing.assert_array_equal(host(out), want)


def test_take_into_its_own_input(dev):
    y = arange(dev, 10)
    ua.take(y, ua.asarray([9, 8, 7, 6, 5], device=dev), out=y[:5])
    np.testing.assert_array_equal(host(y), [9, 8, 7, 6, 5, 5, 6, 7, 8, 9])


def test_take_out_errors(dev):
    x = arange(dev, 12, shape=(3, 4))
    ix = ua.asarray([0, 2], device=dev)
    with pytest.raises(TypeError, match="output array must be of usm_ndarray type"):
        ua.take(x, ix, axis=0, out=np.empty((2, 4), dtype="f4"))
    with pytest.raises(ValueError, match=r"Expected output shape is \(2, 4\), got \(4, 2\)"):
        ua.take(x, ix, axis=0, out=ua.empty((4, 2), dtype="float32", device=dev))
    with pytest.raises(ValueError, match="^Output array of type float32 is needed, got float64"):
        ua.take(x, ix, axis=0, out=ua.empty((2, 4), dtype="float64", device=dev))
    ro = ua.empty((2, 4), dtype="float32", device=dev)
    ro.flags.writable = False
    with pytest.raises(ValueError, match="read-only"):
        ua.take(x, ix, axis=0, out=ro)
