#                       Data Parallel Control (dpctl)
#
#  Copyright 2020-2025 Intel Corporation
#
#  Licensed under the Apache License, Version 2.0 (the "License");
#  you may not use this file except in compliance with the License.
#  You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
#  Unless required by applicable law or agreed to in writing, software
#  distributed under the License is distributed on an "AS IS" BASIS,
#  WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
#  See the License for the specific language governing permissions and
#  limitations under the License.
#
# Translated from dpctl 0.21.1, dpctl/tests/test_usm_ndarray_linalg.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

from dpctl_helpers import ExecutionPlacementError, allclose

import itertools

import numpy as np
import pytest

import usmarray as ua
from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported
from dpctl_helpers import ExecutionPlacementError

_numeric_types = [
    "i1",
    "u1",
    "i2",
    "u2",
    "i4",
    "u4",
    "i8",
    "u8",
    "f2",
    "f4",
    "f8",
    "c8",
    "c16",
]


def _map_int_to_type(n, dt):
    assert isinstance(n, int)
    assert n > 0
    if dt == ua.int8:
        return ((n + 128) % 256) - 128
    elif dt == ua.uint8:
        return n % 256
    elif dt == ua.int16:
        return ((n + 32768) % 65536) - 32768
    elif dt == ua.uint16:
        return n % 65536
    return n


def test_matrix_transpose():
    get_queue_or_skip()

    X = ua.reshape(ua.arange(2 * 3, dtype="i4"), (2, 3))
    res = ua.matrix_transpose(X)
    expected_res = X.mT

    assert expected_res.shape == res.shape
    assert expected_res.flags["C"] == res.flags["C"]
    assert expected_res.flags["F"] == res.flags["F"]
    assert ua.all(X.mT == res)


def test_matrix_transpose_arg_validation():
    get_queue_or_skip()

    X = ua.empty(5, dtype="i4")
    with pytest.raises(ValueError):
        ua.matrix_transpose(X)

    X = dict()
    with pytest.raises(TypeError):
        ua.matrix_transpose(X)

    X = ua.empty((5, 5), dtype="i4")
    assert isinstance(ua.matrix_transpose(X), ua.USMArray)


@pytest.mark.parametrize("dtype", _numeric_types)
def test_matmul_simple(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    n, m = 235, 17
    m1 = ua.zeros((m, n), dtype=dtype)
    m2 = ua.zeros((n, m), dtype=dtype)

    dt = m1.dtype
    if dt.kind in "ui":
        n1 = min(n, ua.iinfo(dt).max)
    else:
        n1 = n
    m1[:, :n1] = ua.ones((m, n1), dtype=dt)
    m2[:n1, :] = ua.ones((n1, m), dtype=dt)

    for k in [1, 2, 3, 4, 7, 8, 9, 15, 16, 17]:
        r = ua.matmul(m1[:k, :], m2[:, :k])
        assert ua.all(r == ua.full((k, k), fill_value=n1, dtype=dt))


@pytest.mark.parametrize("dtype", _numeric_types)
def test_matmul_nilpotent1(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    n = 77
    N_mat = ua.eye(n, k=1, dtype=dtype)
    I_mat = ua.eye(n, dtype=dtype)
    R_mat = ua.eye(n, dtype=dtype)
    for _ in range(n + 1):
        R_mat = I_mat + ua.matmul(N_mat, R_mat)

    assert allclose(ua.matmul(I_mat - N_mat, R_mat), I_mat)


@pytest.mark.parametrize("dtype", _numeric_types)
def test_matmul_nilpotent2(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    n = 128
    u = ua.ones((n, 1), dtype=dtype)
    v = ua.ones((1, n), dtype=dtype)

    uv = ua.matmul(u, v)
    uv_ref = u * v

    assert allclose(uv, uv_ref)


def test_matmul_null_axis():
    get_queue_or_skip()
    n = 3

    A_mat = ua.ones((n, 0), dtype="f4")
    B_mat = ua.ones((0, 1), dtype="f4")

    R_mat = ua.matmul(A_mat, B_mat)
    assert R_mat.shape == (n, 1)

    R_mat = ua.matmul(A_mat, B_mat[:, :0])
    assert R_mat.shape == (n, 0)


@pytest.mark.parametrize("dtype", ["i4", "f4"])
def test_matmul_dims(dtype):
    get_queue_or_skip()

    n, m, k, b = 4, 5, 7, 3
    v = ua.ones(k, dtype=dtype)
    m1 = ua.ones((n, k), dtype=dtype)
    m2 = ua.ones((k, m), dtype=dtype)
    st1 = ua.ones((b, n, k), dtype=dtype)
    st2 = ua.ones((b, k, m), dtype=dtype)

    r = ua.matmul(v, v)
    assert r.shape == tuple()
    assert ua.round(r) == k

    r = ua.matmul(m1, v)
    assert r.shape == (n,)
    assert ua.all(ua.round(r) == k)

    r = ua.matmul(v, m2)
    assert r.shape == (m,)
    assert ua.all(ua.round(r) == k)

    r = ua.matmul(m1, m2)
    assert r.shape == (
        n,
        m,
    )
    assert ua.all(ua.round(r) == k)

    r = ua.matmul(v, st2)
    assert r.shape == (
        b,
        m,
    )
    assert ua.all(ua.round(r) == k)

    r = ua.matmul(st1, v)
    assert r.shape == (
        b,
        n,
    )
    assert ua.all(ua.round(r) == k)

    r = ua.matmul(st1, m2)
    assert r.shape == (
        b,
        n,
        m,
    )
    assert ua.all(ua.round(r) == k)

    r = ua.matmul(m1, st2)
    assert r.shape == (
        b,
        n,
        m,
    )
    assert ua.all(ua.round(r) == k)

    r = ua.matmul(st1, st2)
    assert r.shape == (
        b,
        n,
        m,
    )
    assert ua.all(ua.round(r) == k)


def test_matmul_arg_validation():
    get_queue_or_skip()

    s1, s2 = ua.ones(tuple()), ua.zeros(tuple())
    v1, v2 = ua.ones(16), ua.zeros(16)

    with pytest.raises(ValueError):
        ua.matmul(s1, v2)

    with pytest.raises(ValueError):
        ua.matmul(v1, s2)

    with pytest.raises(TypeError):
        ua.matmul(dict(), v2)

    with pytest.raises(TypeError):
        ua.matmul(v2, None)


def test_matmul_dims_validation():
    get_queue_or_skip()

    m1 = ua.ones((16, 16))
    m2 = ua.ones((16, 16))

    # contraction dimensions mismatch
    with pytest.raises(ValueError):
        ua.matmul(m1[:, :7], m2[:3, :])

    m1 = ua.ones((3, 4, 5))
    m2 = ua.ones((2, 5, 3))
    # broadcasting dimensions mismatch
    with pytest.raises(ValueError):
        ua.matmul(m1, m2)


def test_matmul_broadcasting():
    get_queue_or_skip()

    for dt1, dt2 in [
        (ua.int16, ua.int32),
        (ua.float32, ua.int16),
        (ua.int32, ua.uint32),
    ]:
        m1 = ua.ones((7, 11, 16), dtype=dt1)
        m2 = ua.ones((16, 13), dtype=dt2)

        r = ua.matmul(m1, m2[ua.newaxis, ...])

        assert r.shape == (7, 11, 13)


@pytest.mark.parametrize("dtype", ["i4", "i8", "f4", "c8"])
def test_matmul_strided(dtype):
    get_queue_or_skip()

    m1_shape = (14, 22, 32)
    m1_size = 1
    for el in m1_shape:
        m1_size = m1_size * el

    m1 = ua.remainder(ua.arange(1, m1_size + 1, dtype="i8"), 13)
    m1_orig = ua.reshape(ua.astype(m1, dtype), m1_shape)
    m2_orig = ua.ones((14, 16, 13), dtype=dtype)

    m1 = m1_orig[::2, ::-2, ::2]
    m2 = m2_orig[::2, :, :]
    r = ua.matmul(m1, m2)

    assert r.shape == m1.shape[:2] + m2.shape[-1:]
    ref = np.matmul(ua.asnumpy(m1), ua.asnumpy(m2))
    assert np.allclose(ua.asnumpy(r), ref)

    m1 = m1_orig[::2, ::2, ::-2]
    m2 = m2_orig[::2, :, :]
    r = ua.matmul(m1, m2)

    assert r.shape == m1.shape[:2] + m2.shape[-1:]
    ref = np.matmul(ua.asnumpy(m1), ua.asnumpy(m2))
    assert np.allclose(ua.asnumpy(r), ref)

    m1 = m1_orig[::-2, ::2, ::2]
    m2 = m2_orig[::-2, :, :]
    r = ua.matmul(m1, m2)

    assert r.shape == m1.shape[:2] + m2.shape[-1:]
    ref = np.matmul(ua.asnumpy(m1), ua.asnumpy(m2))
    assert np.allclose(ua.asnumpy(r), ref)


def test_matmul_out():
    get_queue_or_skip()

    m1 = (
        ua.arange(14, dtype="f4")[:, ua.newaxis, ua.newaxis]
        + ua.arange(17, dtype="f4")[ua.newaxis, :, ua.newaxis]
        + ua.arange(128, dtype="f4")[ua.newaxis, ua.newaxis, :]
    )
    assert m1.shape == (14, 17, 128)
    m2 = ua.tile(
        ua.reshape(ua.asarray([1, 2], dtype="f4"), (2, 1, 1)), (7, 128, 13)
    )
    assert m2.shape == (14, 128, 13)

    buf = ua.zeros((2 * 14, 3 * 17, 13), dtype="f4")
    res = ua.matmul(m1, m2, out=buf[::-2, 1::3, :])

    assert allclose(res, buf[::-2, 1::3, :])
    assert allclose(ua.zeros_like(res), buf[::-2, 0::3, :])
    assert allclose(ua.zeros_like(res), buf[::-2, 2::3, :])

    m1_np = ua.asnumpy(m1)
    ref = np.matmul(m1_np, ua.asnumpy(m2))
    assert np.allclose(ref, ua.asnumpy(res))

    res = ua.matmul(m1[:, :10, :10], m1[:, :10, :10].mT, out=m1[:, :10, :10])
    ref = np.matmul(
        m1_np[:, :10, :10], np.transpose(m1_np[:, :10, :10], (0, 2, 1))
    )
    assert np.allclose(ref, ua.asnumpy(res))


def test_matmul_readonly_out():
    get_queue_or_skip()
    m = ua.ones((10, 10), dtype=ua.int32)
    r = ua.empty_like(m)
    r.flags["W"] = False

    with pytest.raises(ValueError):
        ua.matmul(m, m, out=r)


def test_matmul_dtype():
    get_queue_or_skip()

    for dt1, dt2 in [
        (ua.int32, ua.int16),
        (ua.int16, ua.int32),
        (ua.float32, ua.int16),
        (ua.int32, ua.float32),
    ]:
        m1 = ua.ones((10, 10), dtype=dt1)
        m2 = ua.ones((10, 10), dtype=dt2)

        for ord in ["C", "A", "F", "K"]:
            r = ua.matmul(m1, m2, dtype=ua.float32, order=ord)
            assert r.dtype == ua.float32


@pytest.mark.parametrize("dt1", _numeric_types)
@pytest.mark.parametrize("dt2", _numeric_types)
@pytest.mark.parametrize("order", ["C", "K"])
def test_matmul_type_promotion(dt1, dt2, order):
    get_queue_or_skip()

    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dt1, q)
    skip_if_dtype_not_supported(dt2, q)

    b, n, k, m = 8, 10, 17, 10
    m1 = ua.ones((1, n, k), dtype=dt1)
    m2 = ua.ones((b, k, m), dtype=dt2)
    expected_dt = ua.result_type(m1, m2)

    r = ua.matmul(m1, m2, order=order)
    assert r.shape == (b, n, m)
    assert r.dtype == expected_dt

    m1 = ua.ones((b, n, k), dtype=dt1)
    m2 = ua.ones((1, k, m), dtype=dt2)

    r = ua.matmul(m1, m2, order=order)
    assert r.shape == (b, n, m)
    assert r.dtype == expected_dt

    m1 = ua.ones((n, k), dtype=dt1)
    m2 = ua.ones((k, m), dtype=dt2)

    r = ua.matmul(m1, m2, order=order)
    assert r.shape == (n, m)
    assert r.dtype == expected_dt


def test_matmul_invalid_dtype():
    get_queue_or_skip()

    m1 = ua.zeros((10, 10), dtype="f4")
    m2 = ua.zeros((10, 10), dtype="f4")
    m3 = ua.zeros((10, 10), dtype="i4")

    with pytest.raises(ValueError):
        ua.matmul(m1, m2, dtype="i4")

    with pytest.raises(ValueError):
        ua.matmul(m1, m3, dtype="i4")

    with pytest.raises(ValueError):
        ua.matmul(m3, m1, dtype="i4")


def test_matmul_out_errors():
    q1 = get_queue_or_skip()
    q2 = ua.Queue()

    sh = (10, 10)
    dt = "i4"
    m1 = ua.zeros(sh, dtype=dt, sycl_queue=q1)
    m2 = ua.zeros(sh, dtype=dt, sycl_queue=q1)

    with pytest.raises(TypeError):
        ua.matmul(m1, m2, out=dict())

    with pytest.raises(ValueError):
        ua.matmul(m1, m2, out=ua.empty((10,), dtype=dt, sycl_queue=q1))

    with pytest.raises(ValueError):
        ua.matmul(m1, m2, out=ua.empty(sh, dtype="f4", sycl_queue=q1))

    with pytest.raises(ExecutionPlacementError):
        ua.matmul(m1, m2, out=ua.empty(sh, dtype=dt, sycl_queue=q2))


def test_matmul_order():
    get_queue_or_skip()

    sh = (
        10,
        10,
    )
    sh2 = tuple(2 * dim for dim in sh)
    n = sh[-1]

    for dt1, dt2 in zip(["i4", "i4", "f4"], ["i4", "f4", "i4"]):
        ar1 = ua.ones(sh, dtype=dt1, order="C")
        ar2 = ua.ones(sh, dtype=dt2, order="C")
        r1 = ua.matmul(ar1, ar2, order="C")
        assert r1.flags.c_contiguous
        r2 = ua.matmul(ar1, ar2, order="F")
        assert r2.flags.f_contiguous
        r3 = ua.matmul(ar1, ar2, order="A")
        assert r3.flags.c_contiguous
        r4 = ua.matmul(ar1, ar2, order="K")
        assert r4.flags.c_contiguous

        ar1 = ua.ones(sh, dtype=dt1, order="F")
        ar2 = ua.ones(sh, dtype=dt2, order="F")
        r1 = ua.matmul(ar1, ar2, order="C")
        assert r1.flags.c_contiguous
        r2 = ua.matmul(ar1, ar2, order="F")
        assert r2.flags.f_contiguous
        r3 = ua.matmul(ar1, ar2, order="A")
        assert r3.flags.f_contiguous
        r4 = ua.matmul(ar1, ar2, order="K")
        assert r4.flags.f_contiguous

        ar1 = ua.ones(sh2, dtype=dt1, order="C")[:10, ::-2]
        ar2 = ua.ones(sh2, dtype=dt2, order="C")[:10, ::-2]
        r4 = ua.matmul(ar1, ar2, order="K")
        assert r4.strides == (n, -1)
        r5 = ua.matmul(ar1, ar2, order="C")
        assert r5.strides == (n, 1)

        ar1 = ua.ones(sh2, dtype=dt1, order="C")[:10, ::-2].mT
        ar2 = ua.ones(sh2, dtype=dt2, order="C")[:10, ::-2].mT
        r4 = ua.matmul(ar1, ar2, order="K")
        assert r4.strides == (-1, n)
        r5 = ua.matmul(ar1, ar2, order="C")
        assert r5.strides == (n, 1)


def test_matmul_invalid_order():
    get_queue_or_skip()

    sh = (
        10,
        10,
    )
    dt = "i4"

    ar1 = ua.ones(sh, dtype=dt, order="C")
    ar2 = ua.ones(sh, dtype=dt, order="C")
    r = ua.matmul(ar1, ar2, order="invalid")
    assert r.flags.c_contiguous

    ar1 = ua.ones(sh, dtype=dt, order="F")
    ar2 = ua.ones(sh, dtype=dt, order="F")
    r = ua.matmul(ar1, ar2, order="invalid")
    assert r.flags.f_contiguous


def test_matmul_compute_follows_data():
    q1 = get_queue_or_skip()
    q2 = ua.Queue()

    sh = (
        10,
        10,
    )
    dt = "i4"
    m1 = ua.zeros(sh, dtype=dt, sycl_queue=q1)
    m2 = ua.zeros(sh, dtype=dt, sycl_queue=q2)

    with pytest.raises(ExecutionPlacementError):
        ua.matmul(m1, m2)


def test_matmul_inplace_broadcasting():
    get_queue_or_skip()

    sh = (3, 5, 5)
    dt = "i4"

    m1 = ua.ones((3, 5, 5), dtype=dt)
    m2 = ua.ones((1, 5, 5), dtype=dt)
    m1 @= m2
    assert ua.all(m1 == ua.full(sh, 5, dtype=dt))


def test_matmul_prepend_dims():
    get_queue_or_skip()

    n = 5
    for dt1, dt2 in [
        (ua.int32, ua.int32),
        (ua.int32, ua.int64),
        (ua.int64, ua.int32),
        (ua.int32, ua.uint32),
    ]:
        m = ua.ones((n, 4), dtype=dt1)
        v = ua.ones((4,), dtype=dt2)
        r = ua.matmul(m, v)
        assert r.shape == (n,)

        r = ua.matmul(v, m.mT)
        assert r.shape == (n,)


def test_matmul_inplace_same_tensors():
    get_queue_or_skip()

    n = 5
    sh = (
        n,
        n,
    )

    ar1 = ua.ones(sh, dtype="i4")
    ar1 @= ar1
    assert ua.all(ar1 == ua.full(sh, n, dtype="i4"))

    ar1 = ua.ones(sh, dtype="i8")
    ar2 = ua.ones(sh, dtype="i4")
    ua.matmul(ar1, ar2, out=ar1)
    assert ua.all(ar1 == ua.full(sh, n, dtype=ar1.dtype))

    ar1 = ua.ones(sh, dtype="i4")
    ar2 = ua.ones(sh, dtype="i8")
    ua.matmul(ar1, ar2, out=ar2)
    assert ua.all(ar2 == ua.full(sh, n, dtype=ar2.dtype))


@pytest.fixture
def random_matrix():
    rs = np.random.RandomState(seed=123456)
    m_np = rs.randint(low=0, high=6, size=(400, 400))
    return m_np


@pytest.mark.parametrize("dtype", _numeric_types)
def test_matmul_largish_square(dtype, random_matrix):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    m_np = random_matrix.astype(dtype)
    x_np = np.matmul(m_np.T, m_np)

    m = ua.asarray(m_np)
    mT = ua.asarray(m.mT, copy=True, order="C")
    x1 = ua.matmul(m.mT, m)
    x2 = ua.matmul(mT, m)

    tol = 0
    if ua.isdtype(x2.dtype, ("real floating", "complex floating")):
        tol = 32 * ua.finfo(x2.dtype).eps

    assert allclose(x1, x2, atol=tol, rtol=tol)
    assert allclose(x1, ua.asarray(x_np), atol=tol, rtol=tol)

    # check stided input
    m_np = m_np[:-1, :-1]
    x_np = np.matmul(m_np.T, m_np)

    m = m[:-1, :-1]
    mT = ua.asarray(m.mT, copy=True, order="C")
    x1 = ua.matmul(m.mT, m)
    x2 = ua.matmul(mT, m)

    assert allclose(x1, x2, atol=tol, rtol=tol)
    assert allclose(x1, ua.asarray(x_np), atol=tol, rtol=tol)


@pytest.mark.parametrize("dtype", _numeric_types)
def test_matmul_largish_rect(dtype, random_matrix):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    m_np = random_matrix.astype(dtype)[:, :-1]
    x_np = np.matmul(m_np.T[:-2, :], m_np)

    m = ua.asarray(m_np)
    mmT = m.mT[:-2, :]
    mT = ua.asarray(mmT, copy=True, order="C")
    x1 = ua.matmul(mmT, m)
    x2 = ua.matmul(mT, m)

    tol = 0
    if ua.isdtype(x2.dtype, ("real floating", "complex floating")):
        tol = 32 * ua.finfo(x2.dtype).eps

    assert allclose(x1, x2, atol=tol, rtol=tol)
    assert allclose(x1, ua.asarray(x_np), atol=tol, rtol=tol)

    m_np = m_np[:-1, :-1]
    x_np = np.matmul(m_np.T[:-2, :], m_np)

    m = m[:-1, :-1]
    mmT = m.mT[:-2, :]
    mT = ua.asarray(mmT, copy=True, order="C")
    x1 = ua.matmul(mmT, m)
    x2 = ua.matmul(mT, m)

    assert allclose(x1, x2, atol=tol, rtol=tol)
    assert allclose(x1, ua.asarray(x_np), atol=tol, rtol=tol)


@pytest.mark.parametrize("dtype", _numeric_types)
def test_tensordot_outer(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    t1 = ua.ones((3, 8), dtype=dtype)
    t2 = ua.ones((4, 12), dtype=dtype)

    r = ua.tensordot(t1, t2, axes=0)
    assert r.shape == t1.shape + t2.shape
    assert allclose(r, ua.ones_like(r))


@pytest.mark.parametrize("dtype", _numeric_types)
def test_tensordot_inner(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    t1 = ua.ones((3, 8), dtype=dtype)
    t2 = ua.ones((4, 8), dtype=dtype)

    r = ua.tensordot(t1, t2.mT, axes=1)
    assert r.shape == t1.shape[:1] + t2.shape[:1]
    assert allclose(r, ua.full_like(r, fill_value=t1.shape[1]))


@pytest.mark.parametrize("dtype", _numeric_types)
def test_tensordot_double(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    t1 = ua.ones((2, 4, 8), dtype=dtype)
    t2 = ua.ones((3, 4, 8), dtype=dtype)

    r = ua.tensordot(t1, ua.permute_dims(t2, (1, 2, 0)), axes=2)
    assert r.shape == t1.shape[:1] + t2.shape[:1]
    expected = ua.prod(ua.asarray(t1.shape[1:]))
    assert allclose(r, ua.full_like(r, fill_value=expected))


@pytest.mark.parametrize("dtype", ["i4", "f4"])
def test_tensordot_axes_sequence(dtype):
    get_queue_or_skip()

    r = 4
    t1 = ua.ones((2, 2, 4, 3), dtype=dtype)
    t2 = ua.ones((3, 2, 4, 3), dtype=dtype)

    assert len(t1.shape) == r
    assert len(t2.shape) == r

    expected = ua.prod(ua.asarray(t1.shape[1:]))
    ps1 = itertools.permutations(range(r))
    ps2 = itertools.permutations(range(r))

    for p1 in ps1:
        assert len(p1) == r
        inv_p1 = sorted(range(r), key=p1.__getitem__)
        u1 = ua.permute_dims(t1, p1)
        x1_axes = inv_p1[1:]
        for p2 in ps2:
            inv_p2 = sorted(range(r), key=p2.__getitem__)
            u2 = ua.permute_dims(t2, p2)
            x2_axes = inv_p2[1:]

            tdr = ua.tensordot(u1, u2, axes=(x1_axes, x2_axes))
            assert tdr.shape == t1.shape[:1] + t2.shape[:1]
            assert allclose(tdr, ua.full_like(tdr, fill_value=expected))


def test_tensordot_validation():
    get_queue_or_skip()

    with pytest.raises(TypeError):
        ua.tensordot(dict(), dict())

    t1 = ua.empty((10, 10, 10))
    with pytest.raises(TypeError):
        ua.tensordot(t1, dict())

    t2 = ua.empty((10, 10, 10))
    q = ua.Queue(t2.sycl_context, t2.device, property="in_order")
    with pytest.raises(ExecutionPlacementError):
        ua.tensordot(t1, t2.to_device(q))

    invalid_axes = (
        1,
        2,
        3,
    )
    with pytest.raises(ValueError):
        ua.tensordot(t1, t2, axes=invalid_axes)

    invalid_axes = 5.2
    with pytest.raises(TypeError):
        ua.tensordot(t1, t2, axes=invalid_axes)

    invalid_axes = (
        (1,),
        (
            0,
            2,
        ),
    )
    with pytest.raises(ValueError):
        ua.tensordot(t1, t2, axes=invalid_axes)

    with pytest.raises(ValueError):
        ua.tensordot(t1[..., :5], t2)


def test_tensordot_promotion():
    get_queue_or_skip()

    t1 = ua.zeros((10, 10), dtype="i4")
    t2 = ua.zeros((10, 10), dtype="i8")

    r1 = ua.tensordot(t1, t2)
    assert r1.dtype == t2.dtype

    r2 = ua.tensordot(t2, t1)
    assert r2.dtype == t2.dtype

    t3 = ua.zeros((10, 10), dtype="u4")
    r3 = ua.tensordot(t1, t3)
    assert r3.dtype == ua.result_type(t1, t3)


def test_tensordot_axes_errors():
    get_queue_or_skip()

    m1 = ua.zeros((10, 10), dtype="i4")
    m2 = ua.zeros((10, 10), dtype="i4")

    with pytest.raises(ValueError):
        ua.tensordot(m1, m2, axes=-1)


# tests for gh-1570
def test_tensordot_gemm_small_k_m():
    get_queue_or_skip()

    x1 = ua.asarray(1, dtype="i2")
    x2 = ua.asarray([0, 1, 0, 0], dtype="i2")

    res = ua.tensordot(x1, x2, axes=0)
    assert ua.all(x2 == res)


@pytest.mark.parametrize("dtype", _numeric_types)
def test_vecdot_1d(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    n = 511
    v1 = ua.ones(n, dtype=dtype)

    v2 = ua.ones(n, dtype=dtype)

    r = ua.vecdot(v1, v2)
    expected_value = _map_int_to_type(n, r.dtype)
    assert r == expected_value


@pytest.mark.parametrize("dtype", _numeric_types)
def test_vecdot_3d(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    m1, m2, n = 7, 3, 511
    v1 = ua.ones((m1, m2, n), dtype=dtype)

    v2 = ua.ones((m1, m2, n), dtype=dtype)

    r = ua.vecdot(v1, v2)

    assert r.shape == (
        m1,
        m2,
    )
    expected_value = _map_int_to_type(n, r.dtype)
    assert ua.all(r == expected_value)


@pytest.mark.parametrize("dtype", _numeric_types)
def test_vecdot_axis(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    m1, m2, n = 7, 3, 511
    v1 = ua.ones((m1, n, m2), dtype=dtype)

    v2 = ua.ones((m1, n, m2), dtype=dtype)

    r = ua.vecdot(v1, v2, axis=-2)

    assert r.shape == (
        m1,
        m2,
    )
    expected_value = _map_int_to_type(n, r.dtype)
    assert ua.all(r == expected_value)


@pytest.mark.parametrize("dtype", _numeric_types)
def test_vecdot_strided(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    m1, m2, n = 7, 3, 511
    list1 = [1, 0, 2, 0]
    pattern1 = ua.asarray(list1, dtype=dtype)
    n_padded1 = pattern1.size * (1 + ((n - 1) // pattern1.size))
    v1 = ua.tile(ua.reshape(pattern1, (1, -1, 1)), (m1, n_padded1, m2))[
        ::-1, :n, :
    ]

    list2 = [1, 2, 1, 2]
    pattern2 = ua.asarray(list2, dtype=dtype)
    n_padded2 = pattern2.size * (1 + ((n - 1) // pattern2.size))
    v2 = ua.tile(ua.reshape(pattern2, (1, -1, 1)), (m1, n_padded2, m2))[
        :, :n, ::-1
    ]

    r = ua.vecdot(v1, v2, axis=-2)

    ref = sum(
        el1 * el2
        for el1, el2 in zip((list1 * n_padded1)[:n], (list2 * n_padded1)[:n])
    )

    assert r.shape == (
        m1,
        m2,
    )
    ref = _map_int_to_type(ref, r.dtype)
    assert ua.all(r == ref)


def test_vector_arg_validation():
    get_queue_or_skip()

    s1, s2 = ua.ones(tuple()), ua.zeros(tuple())
    v1, v2 = ua.ones(16), ua.zeros(16)

    with pytest.raises(ValueError):
        ua.vecdot(s1, v2)

    with pytest.raises(ValueError):
        ua.vecdot(v1, s2)

    with pytest.raises(TypeError):
        ua.vecdot(dict(), v2)

    with pytest.raises(TypeError):
        ua.vecdot(v2, None)

    with pytest.raises(ValueError):
        ua.vecdot(v1[:5], v2[:4])

    with pytest.raises(ValueError):
        ua.vecdot(v1, v2, axis=2)

    with pytest.raises(ValueError):
        ua.vecdot(v1, v2, axis=-2)

    q = ua.Queue(
        v2.sycl_context, v2.device, property="enable_profiling"
    )
    with pytest.raises(ExecutionPlacementError):
        ua.vecdot(v1, v2.to_device(q))

    m1 = ua.empty((10, 5))
    m2 = ua.empty((5, 5))
    with pytest.raises(ValueError):
        ua.vecdot(m1, m2, axis=-1)


def test_vecdot_broadcast():
    get_queue_or_skip()

    for dt1, dt2 in [
        (ua.int32, ua.int32),
        (ua.int32, ua.int64),
        (ua.int64, ua.int32),
        (ua.int32, ua.uint32),
    ]:
        m1 = ua.zeros((1, 5), dtype=dt1)
        m2 = ua.zeros((5, 5), dtype=dt2)
        r1 = ua.vecdot(m1, m2, axis=-1)
        r2 = ua.vecdot(m2, m1, axis=-1)
        assert r1.shape == r2.shape


@pytest.mark.parametrize("dt1", _numeric_types)
@pytest.mark.parametrize("dt2", _numeric_types)
def test_vecdot_type_promotion(dt1, dt2):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dt1, q)
    skip_if_dtype_not_supported(dt2, q)

    v1 = ua.ones(128, dtype=dt1)
    v2 = ua.ones(128, dtype=dt2)

    r = ua.vecdot(v1, v2)
    mul = v1 * v2
    assert r.shape == tuple()
    assert r.dtype == mul.dtype
    assert allclose(r, ua.sum(mul, dtype=mul.dtype))


def test_vecdot_broadcast_o1_buffer():
    get_queue_or_skip()

    v1 = ua.arange(10, dtype="i2")
    v2 = ua.ones((5, 10), dtype="i4")

    res1 = ua.vecdot(v1, v2)
    assert res1.shape == (5,)

    res2 = ua.vecdot(v2, v1)
    assert res2.shape == (5,)


def test_vecdot_contig_small():
    get_queue_or_skip()

    n = 1
    for dt in [ua.int16, ua.int32, ua.complex64]:
        v1 = ua.zeros((10, n), dtype=dt)
        v2 = ua.ones_like(v1, dtype=dt)
        v1[-1] = 1
        res = ua.vecdot(v1, v2)
        assert ua.all(res[:-1] == 0)
        assert res[-1] == n


def test_matmul_out_appended_axes():
    get_queue_or_skip()

    n0, n1, n2 = 4, 10, 5
    # vm
    x1 = ua.ones(n1, dtype="i4")
    x2 = ua.ones((n0, n1, n2), dtype="i4")
    out = ua.empty((n0, n2), dtype="i4")

    ua.matmul(x1, x2, out=out)
    assert ua.all(out == n1)

    # mv
    x2 = x2.mT
    x1, x2 = x2, x1
    ua.matmul(x1, x2, out=out)
    assert ua.all(out == n1)

    # vv
    x1 = ua.ones(n1, dtype="i4")
    out = ua.empty((), dtype="i4")
    ua.matmul(x1, x2, out=out)
    assert out == n1
