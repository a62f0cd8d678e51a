#                      Data Parallel Control (dpctl)
#
# Copyright 2020-2025 Intel Corporation
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#    http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
#
# Translated from dpctl 0.21.1, dpctl/tests/test_usm_ndarray_search_functions.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

from dpctl_helpers import ExecutionPlacementError, allclose, DpctlOnly

import ctypes
import itertools

import numpy as np
import pytest
from numpy.testing import assert_array_equal

import usmarray as ua
_where_result_type = DpctlOnly("dpctl.tensor._search_functions._where_result_type")
_all_data_types = DpctlOnly("dpctl.tensor._type_utils._all_data_types")
from dpctl_helpers import ExecutionPlacementError

from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported

_all_dtypes = [
    "?",
    "u1",
    "i1",
    "u2",
    "i2",
    "u4",
    "i4",
    "u8",
    "i8",
    "e",
    "f",
    "d",
    "F",
    "D",
]


class mock_device:
    def __init__(self, fp16, fp64):
        self.has_aspect_fp16 = fp16
        self.has_aspect_fp64 = fp64


def test_where_basic():
    get_queue_or_skip()

    cond = ua.asarray(
        [
            [True, False, False],
            [False, True, False],
            [False, False, True],
            [False, False, False],
            [True, True, True],
        ]
    )
    out = ua.where(cond, ua.asarray(1), ua.asarray(0))
    out_expected = ua.asarray(
        [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0], [1, 1, 1]]
    )
    assert (ua.asnumpy(out) == ua.asnumpy(out_expected)).all()

    out = ua.where(cond, ua.ones(cond.shape), ua.zeros(cond.shape))
    assert (ua.asnumpy(out) == ua.asnumpy(out_expected)).all()

    out = ua.where(
        cond,
        ua.ones(cond.shape[0], dtype="i4")[:, ua.newaxis],
        ua.zeros(cond.shape[0], dtype="i4")[:, ua.newaxis],
    )
    assert (ua.asnumpy(out) == ua.asnumpy(out_expected)).all()


def _dtype_all_close(x1, x2):
    if np.issubdtype(x2.dtype, np.floating) or np.issubdtype(
        x2.dtype, np.complexfloating
    ):
        x2_dtype = x2.dtype
        return np.allclose(
            x1, x2, atol=np.finfo(x2_dtype).eps, rtol=np.finfo(x2_dtype).eps
        )
    else:
        return np.allclose(x1, x2)


@pytest.mark.skip(reason="dpctl-only: dpctl.tensor._type_utils._all_data_types, dpctl.tensor._search_functions._where_result_type")
@pytest.mark.parametrize("dt1", _all_dtypes)
@pytest.mark.parametrize("dt2", _all_dtypes)
@pytest.mark.parametrize("fp16", [True, False])
@pytest.mark.parametrize("fp64", [True, False])
def test_where_result_types(dt1, dt2, fp16, fp64):
    dev = mock_device(fp16, fp64)

    dt1 = np.dtype(dt1)
    dt2 = np.dtype(dt2)
    res_t = _where_result_type(dt1, dt2, dev)

    if fp16 and fp64:
        assert res_t == ua.result_type(dt1, dt2)
    else:
        if res_t:
            assert res_t.kind == ua.result_type(dt1, dt2).kind
        else:
            # some illegal cases are covered above, but
            # this guarantees that _where_result_type
            # produces None only when one of the dtypes
            # is illegal given fp aspects of device
            all_dts = _all_data_types(fp16, fp64)
            assert dt1 not in all_dts or dt2 not in all_dts


@pytest.mark.parametrize("dt", _all_dtypes)
def test_where_mask_dtypes(dt):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dt, q)

    # mask dtype changes
    cond = ua.asarray([0, 1, 3, 0, 10], dtype=dt, sycl_queue=q)
    x1 = ua.asarray(0, dtype="f4", sycl_queue=q)
    x2 = ua.asarray(1, dtype="f4", sycl_queue=q)
    res = ua.where(cond, x1, x2)

    res_check = np.asarray([1, 0, 0, 1, 0], dtype=res.dtype)
    assert _dtype_all_close(ua.asnumpy(res), res_check)

    # contiguous cases
    x1 = ua.full(cond.shape, 0, dtype="f4", sycl_queue=q)
    x2 = ua.full(cond.shape, 1, dtype="f4", sycl_queue=q)
    res = ua.where(cond, x1, x2)
    assert _dtype_all_close(ua.asnumpy(res), res_check)

    # input array dtype changes
    cond = ua.asarray([False, True, True, False, True], sycl_queue=q)
    x1 = ua.asarray(0, dtype=dt, sycl_queue=q)
    x2 = ua.asarray(1, dtype=dt, sycl_queue=q)
    res = ua.where(cond, x1, x2)

    res_check = np.asarray([1, 0, 0, 1, 0], dtype=res.dtype)
    assert _dtype_all_close(ua.asnumpy(res), res_check)

    # contiguous cases
    x1 = ua.full(cond.shape, 0, dtype=dt, sycl_queue=q)
    x2 = ua.full(cond.shape, 1, dtype=dt, sycl_queue=q)
    res = ua.where(cond, x1, x2)
    assert _dtype_all_close(ua.asnumpy(res), res_check)


def test_where_asymmetric_dtypes():
    q = get_queue_or_skip()

    cond = ua.asarray([0, 1, 3, 0, 10], dtype="?", sycl_queue=q)
    x1 = ua.asarray(2, dtype="i4", sycl_queue=q)
    x2 = ua.asarray(3, dtype="i8", sycl_queue=q)

    res = ua.where(cond, x1, x2)
    res_check = np.asarray([3, 2, 2, 3, 2], dtype=res.dtype)
    assert _dtype_all_close(ua.asnumpy(res), res_check)

    # flip order

    res = ua.where(cond, x2, x1)
    res_check = np.asarray([2, 3, 3, 2, 3], dtype=res.dtype)
    assert _dtype_all_close(ua.asnumpy(res), res_check)


def test_where_nan_inf():
    get_queue_or_skip()

    cond = ua.asarray([True, False, True, False], dtype="?")
    x1 = ua.asarray([np.nan, 2.0, np.inf, 3.0], dtype="f4")
    x2 = ua.asarray([2.0, np.nan, 3.0, np.inf], dtype="f4")

    cond_np = ua.asnumpy(cond)
    x1_np = ua.asnumpy(x1)
    x2_np = ua.asnumpy(x2)

    res = ua.where(cond, x1, x2)
    res_np = np.where(cond_np, x1_np, x2_np)

    assert np.allclose(ua.asnumpy(res), res_np, equal_nan=True)

    res = ua.where(x1, cond, x2)
    res_np = np.where(x1_np, cond_np, x2_np)
    assert _dtype_all_close(ua.asnumpy(res), res_np)


def test_where_empty():
    # check that numpy returns same results when
    # handling empty arrays
    get_queue_or_skip()

    empty = ua.empty(0, dtype="i2")
    m = ua.asarray(True)
    x1 = ua.asarray(1, dtype="i2")
    x2 = ua.asarray(2, dtype="i2")
    res = ua.where(empty, x1, x2)

    empty_np = np.empty(0, dtype="i2")
    m_np = ua.asnumpy(m)
    x1_np = ua.asnumpy(x1)
    x2_np = ua.asnumpy(x2)
    res_np = np.where(empty_np, x1_np, x2_np)

    assert_array_equal(ua.asnumpy(res), res_np)

    res = ua.where(m, empty, x2)
    res_np = np.where(m_np, empty_np, x2_np)

    assert_array_equal(ua.asnumpy(res), res_np)

    # check that broadcasting is performed
    with pytest.raises(ValueError):
        ua.where(empty, x1, ua.empty((1, 2)))


@pytest.mark.parametrize("order", ["C", "F"])
def test_where_contiguous(order):
    get_queue_or_skip()

    cond = ua.asarray(
        [
            [[True, False, False], [False, True, True]],
            [[False, True, False], [True, False, True]],
            [[False, False, True], [False, False, True]],
            [[False, False, False], [True, False, True]],
            [[True, True, True], [True, False, True]],
        ],
        order=order,
    )

    x1 = ua.full(cond.shape, 2, dtype="i4", order=order)
    x2 = ua.full(cond.shape, 3, dtype="i4", order=order)
    expected = np.where(ua.asnumpy(cond), ua.asnumpy(x1), ua.asnumpy(x2))
    res = ua.where(cond, x1, x2)

    assert _dtype_all_close(ua.asnumpy(res), expected)


def test_where_contiguous1D():
    get_queue_or_skip()

    cond = ua.asarray([True, False, True, False, False, True])

    x1 = ua.full(cond.shape, 2, dtype="i4")
    x2 = ua.full(cond.shape, 3, dtype="i4")
    expected = np.where(ua.asnumpy(cond), ua.asnumpy(x1), ua.asnumpy(x2))
    res = ua.where(cond, x1, x2)
    assert_array_equal(ua.asnumpy(res), expected)

    # test with complex dtype (branch in kernel)
    x1 = ua.astype(x1, ua.complex64)
    x2 = ua.astype(x2, ua.complex64)
    expected = np.where(ua.asnumpy(cond), ua.asnumpy(x1), ua.asnumpy(x2))
    res = ua.where(cond, x1, x2)
    assert _dtype_all_close(ua.asnumpy(res), expected)


def test_where_gh_1170():
    get_queue_or_skip()

    cond = ua.asarray([False, True, True, False], dtype="?")
    x1 = ua.ones((3, 4), dtype="i4")
    x2 = ua.zeros((3, 4), dtype="i4")

    res = ua.where(cond, x1, x2)
    expected = np.broadcast_to(ua.asnumpy(cond).astype(x1.dtype), x1.shape)

    assert_array_equal(ua.asnumpy(res), expected)


def test_where_strided():
    get_queue_or_skip()

    s0, s1 = 4, 9
    cond = ua.reshape(
        ua.asarray(
            [True, False, False, False, True, True, False, True, False] * s0
        ),
        (s0, s1),
    )[:, ::3]

    x1 = ua.reshape(
        ua.arange(cond.shape[0] * cond.shape[1] * 2, dtype="i4"),
        (cond.shape[0], cond.shape[1] * 2),
    )[:, ::2]
    x2 = ua.reshape(
        ua.arange(cond.shape[0] * cond.shape[1] * 3, dtype="i4"),
        (cond.shape[0], cond.shape[1] * 3),
    )[:, ::3]
    expected = np.where(ua.asnumpy(cond), ua.asnumpy(x1), ua.asnumpy(x2))
    res = ua.where(cond, x1, x2)

    assert_array_equal(ua.asnumpy(res), expected)

    # negative strides
    res = ua.where(cond, ua.flip(x1), x2)
    expected = np.where(
        ua.asnumpy(cond), np.flip(ua.asnumpy(x1)), ua.asnumpy(x2)
    )
    assert_array_equal(ua.asnumpy(res), expected)

    res = ua.where(ua.flip(cond), x1, x2)
    expected = np.where(
        np.flip(ua.asnumpy(cond)), ua.asnumpy(x1), ua.asnumpy(x2)
    )
    assert_array_equal(ua.asnumpy(res), expected)


def test_where_invariants():
    get_queue_or_skip()

    test_sh = (
        6,
        8,
    )
    mask = ua.asarray(np.random.choice([True, False], size=test_sh))
    p = ua.ones(test_sh, dtype=ua.int16)
    m = ua.full(test_sh, -1, dtype=ua.int16)
    inds_list = [
        (
            np.s_[:3],
            np.s_[::2],
        ),
        (
            np.s_[::2],
            np.s_[::2],
        ),
        (
            np.s_[::-1],
            np.s_[:],
        ),
    ]
    for ind in inds_list:
        r1 = ua.where(mask, p, m)[ind]
        r2 = ua.where(mask[ind], p[ind], m[ind])
        assert (ua.asnumpy(r1) == ua.asnumpy(r2)).all()


def test_where_arg_validation():
    get_queue_or_skip()

    check = dict()
    x1 = ua.empty((1,), dtype="i4")
    x2 = ua.empty((1,), dtype="i4")

    with pytest.raises(TypeError):
        ua.where(check, x1, x2)
    with pytest.raises(ValueError):
        ua.where(x1, check, x2)
    with pytest.raises(ValueError):
        ua.where(x1, x2, check)


def test_where_compute_follows_data():
    q1 = get_queue_or_skip()
    q2 = get_queue_or_skip()
    q3 = get_queue_or_skip()

    x1 = ua.empty((1,), dtype="i4", sycl_queue=q1)
    x2 = ua.empty((1,), dtype="i4", sycl_queue=q2)

    with pytest.raises(ExecutionPlacementError):
        ua.where(ua.empty((1,), dtype="i4", sycl_queue=q1), x1, x2)
    with pytest.raises(ExecutionPlacementError):
        ua.where(ua.empty((1,), dtype="i4", sycl_queue=q3), x1, x2)
    with pytest.raises(ExecutionPlacementError):
        ua.where(x1, x1, x2)


def test_where_order():
    get_queue_or_skip()

    test_sh = (
        20,
        20,
    )
    test_sh2 = tuple(2 * dim for dim in test_sh)
    n = test_sh[-1]

    for dt1, dt2 in zip(["i4", "i4", "f4"], ["i4", "f4", "i4"]):
        ar1 = ua.zeros(test_sh, dtype=dt1, order="C")
        ar2 = ua.ones(test_sh, dtype=dt2, order="C")
        condition = ua.zeros(test_sh, dtype="?", order="C")
        res1 = ua.where(condition, ar1, ar2, order="C")
        assert res1.flags.c_contiguous
        res2 = ua.where(condition, ar1, ar2, order="F")
        assert res2.flags.f_contiguous
        res3 = ua.where(condition, ar1, ar2, order="A")
        assert res3.flags.c_contiguous
        res4 = ua.where(condition, ar1, ar2, order="K")
        assert res4.flags.c_contiguous

        ar1 = ua.ones(test_sh, dtype=dt1, order="F")
        ar2 = ua.ones(test_sh, dtype=dt2, order="F")
        condition = ua.zeros(test_sh, dtype="?", order="F")
        res1 = ua.where(condition, ar1, ar2, order="C")
        assert res1.flags.c_contiguous
        res2 = ua.where(condition, ar1, ar2, order="F")
        assert res2.flags.f_contiguous
        res3 = ua.where(condition, ar1, ar2, order="A")
        assert res2.flags.f_contiguous
        res4 = ua.where(condition, ar1, ar2, order="K")
        assert res4.flags.f_contiguous

        ar1 = ua.ones(test_sh2, dtype=dt1, order="C")[:20, ::-2]
        ar2 = ua.ones(test_sh2, dtype=dt2, order="C")[:20, ::-2]
        condition = ua.zeros(test_sh2, dtype="?", order="C")[:20, ::-2]
        res1 = ua.where(condition, ar1, ar2, order="K")
        assert res1.strides == (n, -1)
        res2 = ua.where(condition, ar1, ar2, order="C")
        assert res2.strides == (n, 1)

        ar1 = ua.ones(test_sh2, dtype=dt1, order="C")[:20, ::-2].mT
        ar2 = ua.ones(test_sh2, dtype=dt2, order="C")[:20, ::-2].mT
        condition = ua.zeros(test_sh2, dtype="?", order="C")[:20, ::-2].mT
        res1 = ua.where(condition, ar1, ar2, order="K")
        assert res1.strides == (-1, n)
        res2 = ua.where(condition, ar1, ar2, order="C")
        assert res2.strides == (n, 1)

        ar1 = ua.ones(n, dtype=dt1, order="C")
        ar2 = ua.broadcast_to(ua.ones(n, dtype=dt2, order="C"), test_sh)
        condition = ua.zeros(n, dtype="?", order="C")
        res = ua.where(condition, ar1, ar2, order="K")
        assert res.strides == (20, 1)


def test_where_unaligned():
    get_queue_or_skip()

    x = ua.ones(513, dtype="i4")
    a = ua.full(512, 2, dtype="i4")
    b = ua.zeros(512, dtype="i4")

    expected = ua.full(512, 2, dtype="i4")
    assert ua.all(ua.where(x[1:], a, b) == expected)


def test_where_out():
    get_queue_or_skip()

    n1, n2, n3 = 3, 4, 5
    ar1 = ua.reshape(ua.arange(n1 * n2 * n3, dtype="i4"), (n1, n2, n3))
    ar2 = ua.full_like(ar1, -5)
    condition = ua.tile(
        ua.reshape(
            ua.asarray([True, False, False, True], dtype="?"), (1, n2, 1)
        ),
        (n1, 1, n3),
    )

    out = ua.zeros((2 * n1, 3 * n2, n3), dtype="i4")
    res = ua.where(condition, ar1, ar2, out=out[::-2, 1::3, :])

    assert ua.all(res == out[::-2, 1::3, :])
    assert ua.all(out[::-2, 0::3, :] == 0)
    assert ua.all(out[::-2, 2::3, :] == 0)

    assert ua.all(res[:, 1:3, :] == -5)
    assert ua.all(res[:, 0, :] == ar1[:, 0, :])
    assert ua.all(res[:, 3, :] == ar1[:, 3, :])

    condition = ua.tile(
        ua.reshape(ua.asarray([1, 0], dtype="i4"), (1, 2, 1)),
        (n1, 2, n3),
    )
    res = ua.where(
        condition[:, ::-1, :], condition[:, ::-1, :], condition, out=condition
    )
    assert ua.all(res == condition)
    assert ua.all(condition == 1)

    condition = ua.tile(
        ua.reshape(ua.asarray([True, False], dtype="?"), (1, 2, 1)),
        (n1, 2, n3),
    )
    ar1 = ua.full((n1, n2, n3), 7, dtype="i4")
    ar2 = ua.full_like(ar1, -5)
    res = ua.where(condition, ar1, ar2, out=ar2[:, ::-1, :])
    assert ua.all(ar2[:, ::-1, :] == res)
    assert ua.all(ar2[:, ::2, :] == -5)
    assert ua.all(ar2[:, 1::2, :] == 7)

    condition = ua.tile(
        ua.reshape(ua.asarray([True, False], dtype="?"), (1, 2, 1)),
        (n1, 2, n3),
    )
    ar1 = ua.full((n1, n2, n3), 7, dtype="i4")
    ar2 = ua.full_like(ar1, -5)
    res = ua.where(condition, ar1, ar2, out=ar1[:, ::-1, :])
    assert ua.all(ar1[:, ::-1, :] == res)
    assert ua.all(ar1[:, ::2, :] == -5)
    assert ua.all(ar1[:, 1::2, :] == 7)


def test_where_out_arg_validation():
    q1 = get_queue_or_skip()
    q2 = get_queue_or_skip()

    condition = ua.ones(5, dtype="i4", sycl_queue=q1)
    x1 = ua.ones(5, dtype="i4", sycl_queue=q1)
    x2 = ua.ones(5, dtype="i4", sycl_queue=q1)

    out_wrong_queue = ua.empty_like(condition, sycl_queue=q2)
    out_wrong_dtype = ua.empty_like(condition, dtype="f4")
    out_wrong_shape = ua.empty(6, dtype="i4", sycl_queue=q1)
    out_not_writable = ua.empty_like(condition)
    out_not_writable.flags["W"] = False

    with pytest.raises(TypeError):
        ua.where(condition, x1, x2, out=dict())
    with pytest.raises(ExecutionPlacementError):
        ua.where(condition, x1, x2, out=out_wrong_queue)
    with pytest.raises(ValueError):
        ua.where(condition, x1, x2, out=out_wrong_dtype)
    with pytest.raises(ValueError):
        ua.where(condition, x1, x2, out=out_wrong_shape)
    with pytest.raises(ValueError):
        ua.where(condition, x1, x2, out=out_not_writable)


@pytest.mark.parametrize("arr_dt", _all_dtypes)
def test_where_python_scalar(arr_dt):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(arr_dt, q)

    n1, n2 = 10, 10
    condition = ua.tile(
        ua.reshape(
            ua.asarray([True, False], dtype="?", sycl_queue=q), (1, 2)
        ),
        (n1, n2 // 2),
    )
    x = ua.zeros((n1, n2), dtype=arr_dt, sycl_queue=q)
    py_scalars = (
        bool(0),
        int(0),
        float(0),
        complex(0),
        np.float32(0),
        ctypes.c_int(0),
    )
    for sc in py_scalars:
        r = ua.where(condition, x, sc)
        assert isinstance(r, ua.USMArray)
        r = ua.where(condition, sc, x)
        assert isinstance(r, ua.USMArray)


def test_where_two_python_scalars():
    get_queue_or_skip()

    n1, n2 = 10, 10
    condition = ua.tile(
        ua.reshape(ua.asarray([True, False], dtype="?"), (1, 2)),
        (n1, n2 // 2),
    )

    py_scalars = [
        bool(0),
        int(0),
        float(0),
        complex(0),
        np.float32(0),
        ctypes.c_int(0),
    ]

    for sc1, sc2 in itertools.product(py_scalars, repeat=2):
        r = ua.where(condition, sc1, sc2)
        assert isinstance(r, ua.USMArray)
