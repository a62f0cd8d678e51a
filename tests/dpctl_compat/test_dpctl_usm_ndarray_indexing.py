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
# Translated from dpctl 0.21.1, dpctl/tests/test_usm_ndarray_indexing.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

from dpctl_helpers import ExecutionPlacementError, DpctlOnly


import numpy as np
import pytest
from numpy.testing import assert_array_equal

import usmarray as ua
ti = DpctlOnly("dpctl.tensor._tensor_impl")
_take_multi_index = DpctlOnly("dpctl.tensor._copy_utils._take_multi_index")
from dpctl_helpers import ExecutionPlacementError

from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported

_all_dtypes = [
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

_all_int_dtypes = ["u1", "i1", "u2", "i2", "u4", "i4", "u8", "i8"]


def test_basic_slice1():
    q = get_queue_or_skip()
    x = ua.empty(10, dtype="u2", sycl_queue=q)
    y = x[0]
    assert isinstance(y, ua.USMArray)
    assert y.ndim == 0
    assert y.shape == tuple()
    assert y.strides == tuple()


def test_basic_slice2():
    q = get_queue_or_skip()
    x = ua.empty(10, dtype="i2", sycl_queue=q)
    y = x[(0,)]
    assert isinstance(y, ua.USMArray)
    assert y.ndim == 0
    assert y.shape == tuple()
    assert y.strides == tuple()


def test_basic_slice3():
    q = get_queue_or_skip()
    x = ua.empty(10, dtype="i2", sycl_queue=q)
    y = x[:]
    assert isinstance(y, ua.USMArray)
    assert y.ndim == x.ndim
    assert y.shape == x.shape
    assert y.strides == x.strides
    y = x[(slice(None, None, None),)]
    assert isinstance(y, ua.USMArray)
    assert y.ndim == x.ndim
    assert y.shape == x.shape
    assert y.strides == x.strides


def test_basic_slice4():
    q = get_queue_or_skip()
    n0, n1 = 5, 3
    x = ua.empty((n0, n1), dtype="f4", sycl_queue=q)
    y = x[::-1]
    assert isinstance(y, ua.USMArray)
    assert y.shape == x.shape
    assert y.strides == (-x.strides[0], x.strides[1])
    actual_offset = y.__sycl_usm_array_interface__["offset"]
    assert actual_offset == (n0 - 1) * n1


def test_basic_slice5():
    q = get_queue_or_skip()
    n0, n1 = 5, 3
    x = ua.empty((n0, n1), dtype="c8", sycl_queue=q)
    y = x[:, ::-1]
    assert isinstance(y, ua.USMArray)
    assert y.shape == x.shape
    assert y.strides == (x.strides[0], -x.strides[1])
    actual_offset = y.__sycl_usm_array_interface__["offset"]
    assert actual_offset == (n1 - 1)


def test_basic_slice6():
    q = get_queue_or_skip()
    i0, n0, n1 = 2, 4, 3
    x = ua.empty((n0, n1), dtype="c8", sycl_queue=q)
    y = x[i0, ::-1]
    assert isinstance(y, ua.USMArray)
    assert y.shape == (x.shape[1],)
    assert y.strides == (-x.strides[1],)
    actual_offset = y.__sycl_usm_array_interface__["offset"]
    expected_offset = i0 * x.strides[0] + (n1 - 1) * x.strides[1]
    assert actual_offset == expected_offset


def test_basic_slice7():
    q = get_queue_or_skip()
    n0, n1, n2 = 5, 3, 2
    x = ua.empty((n0, n1, n2), dtype="?", sycl_queue=q)
    y = x[..., ::-1]
    assert isinstance(y, ua.USMArray)
    assert y.shape == x.shape
    assert y.strides == (
        x.strides[0],
        x.strides[1],
        -x.strides[2],
    )
    actual_offset = y.__sycl_usm_array_interface__["offset"]
    expected_offset = (n2 - 1) * x.strides[2]
    assert actual_offset == expected_offset


def test_basic_slice8():
    q = get_queue_or_skip()
    n0, n1 = 3, 7
    x = ua.empty((n0, n1), dtype="u1", sycl_queue=q)
    y = x[..., ua.newaxis]
    assert isinstance(y, ua.USMArray)
    assert y.shape == (n0, n1, 1)
    assert y.strides == (n1, 1, 0)


def test_basic_slice9():
    q = get_queue_or_skip()
    n0, n1 = 3, 7
    x = ua.empty((n0, n1), dtype="u8", sycl_queue=q)
    y = x[ua.newaxis, ...]
    assert isinstance(y, ua.USMArray)
    assert y.shape == (1, n0, n1)
    assert y.strides == (0, n1, 1)


def test_basic_slice10():
    q = get_queue_or_skip()
    n0, n1, n2 = 3, 7, 5
    x = ua.empty((n0, n1, n2), dtype="u1", sycl_queue=q)
    y = x[ua.newaxis, ..., :]
    assert isinstance(y, ua.USMArray)
    assert y.shape == (1, n0, n1, n2)
    assert y.strides == (0, n1 * n2, n2, 1)


def _all_equal(it1, it2):
    return all(bool(x == y) for x, y in zip(it1, it2))


def test_advanced_slice1():
    q = get_queue_or_skip()
    ii = ua.asarray([1, 2], sycl_queue=q)
    x = ua.arange(10, dtype="i4", sycl_queue=q)
    y = x[ii]
    assert isinstance(y, ua.USMArray)
    assert y.shape == ii.shape
    assert y.strides == (1,)
    assert _all_equal(
        (x[ii[k]] for k in range(ii.shape[0])),
        (y[k] for k in range(ii.shape[0])),
    )
    y = x[(ii,)]
    assert isinstance(y, ua.USMArray)
    assert y.shape == ii.shape
    assert y.strides == (1,)
    assert _all_equal(
        (x[ii[k]] for k in range(ii.shape[0])),
        (y[k] for k in range(ii.shape[0])),
    )


def test_advanced_slice1_negative_strides():
    q = get_queue_or_skip()
    ii = ua.asarray([0, 1], sycl_queue=q)
    x = ua.flip(ua.arange(5, dtype="i4", sycl_queue=q))
    y = x[ii]
    assert isinstance(y, ua.USMArray)
    assert y.shape == ii.shape
    assert y.strides == (1,)
    assert _all_equal(
        (x[ii[k]] for k in range(ii.shape[0])),
        (y[k] for k in range(ii.shape[0])),
    )


def test_advanced_slice2():
    q = get_queue_or_skip()
    ii = ua.asarray([1, 2], sycl_queue=q)
    x = ua.arange(10, dtype="i4", sycl_queue=q)
    y = x[ii, ua.newaxis]
    assert isinstance(y, ua.USMArray)
    assert y.shape == ii.shape + (1,)
    assert y.flags["C"]


def test_advanced_slice3():
    q = get_queue_or_skip()
    ii = ua.asarray([1, 2], sycl_queue=q)
    x = ua.arange(10, dtype="i4", sycl_queue=q)
    y = x[ua.newaxis, ii]
    assert isinstance(y, ua.USMArray)
    assert y.shape == (1,) + ii.shape
    assert y.flags["C"]


def _make_3d(dt, q):
    return ua.reshape(
        ua.arange(3 * 3 * 3, dtype=dt, sycl_queue=q),
        (
            3,
            3,
            3,
        ),
    )


def test_advanced_slice4():
    q = get_queue_or_skip()
    ii = ua.asarray([1, 2], sycl_queue=q)
    x = _make_3d("i4", q)
    y = x[ii, ii, ii]
    assert isinstance(y, ua.USMArray)
    assert y.shape == ii.shape
    assert _all_equal(
        (x[ii[k], ii[k], ii[k]] for k in range(ii.shape[0])),
        (y[k] for k in range(ii.shape[0])),
    )


def test_advanced_slice5():
    q = get_queue_or_skip()
    ii = ua.asarray([1, 2], sycl_queue=q)
    x = _make_3d("i4", q)
    y = x[ii, 0, ii]
    assert isinstance(y, ua.USMArray)
    # 0 broadcast to [0, 0] per array API
    assert y.shape == ii.shape
    assert _all_equal(
        (x[ii[i], 0, ii[i]] for i in range(ii.shape[0])),
        (y[i] for i in range(ii.shape[0])),
    )


def test_advanced_slice6():
    q = get_queue_or_skip()
    ii = ua.asarray([1, 2], sycl_queue=q)
    x = _make_3d("i4", q)
    y = x[:, ii, ii]
    assert isinstance(y, ua.USMArray)
    assert y.shape == (
        x.shape[0],
        ii.shape[0],
    )
    assert _all_equal(
        (
            x[i, ii[k], ii[k]]
            for i in range(x.shape[0])
            for k in range(ii.shape[0])
        ),
        (y[i, k] for i in range(x.shape[0]) for k in range(ii.shape[0])),
    )


def test_advanced_slice7():
    q = get_queue_or_skip()
    mask = ua.asarray(
        [
            [[True, True, False], [False, True, True], [True, False, True]],
            [[True, False, False], [False, False, True], [False, True, False]],
            [[True, True, True], [False, False, False], [False, False, True]],
        ],
        sycl_queue=q,
    )
    x = _make_3d("i2", q)
    y = x[mask]
    expected = [0, 1, 4, 5, 6, 8, 9, 14, 16, 18, 19, 20, 26]
    assert isinstance(y, ua.USMArray)
    assert y.shape == (len(expected),)
    assert all(ua.asnumpy(y[k]) == expected[k] for k in range(len(expected)))


def test_advanced_slice8():
    q = get_queue_or_skip()
    mask = ua.asarray(
        [[True, False, False], [False, True, False], [False, True, False]],
        sycl_queue=q,
    )
    x = _make_3d("u2", q)
    y = x[mask]
    expected = ua.asarray(
        [[0, 1, 2], [12, 13, 14], [21, 22, 23]], sycl_queue=q
    )
    assert isinstance(y, ua.USMArray)
    assert y.shape == expected.shape
    assert (ua.asnumpy(y) == ua.asnumpy(expected)).all()


def test_advanced_slice9():
    q = get_queue_or_skip()
    mask = ua.asarray(
        [[True, False, False], [False, True, False], [False, True, False]],
        sycl_queue=q,
    )
    x = _make_3d("u4", q)
    y = x[:, mask]
    expected = ua.asarray([[0, 4, 7], [9, 13, 16], [18, 22, 25]], sycl_queue=q)
    assert isinstance(y, ua.USMArray)
    assert y.shape == expected.shape
    assert (ua.asnumpy(y) == ua.asnumpy(expected)).all()


def lin_id(i, j, k):
    """global_linear_id for (3,3,3) range traversed in C-contiguous order"""
    return 9 * i + 3 * j + k


def test_advanced_slice10():
    q = get_queue_or_skip()
    x = _make_3d("u8", q)
    i0 = ua.asarray([0, 1, 1], device=x.device)
    i1 = ua.asarray([1, 1, 2], device=x.device)
    i2 = ua.asarray([2, 0, 1], device=x.device)
    y = x[i0, i1, i2]
    res_expected = ua.asarray(
        [
            lin_id(0, 1, 2),
            lin_id(1, 1, 0),
            lin_id(1, 2, 1),
        ],
        sycl_queue=q,
    )
    assert isinstance(y, ua.USMArray)
    assert y.shape == res_expected.shape
    assert (ua.asnumpy(y) == ua.asnumpy(res_expected)).all()


def test_advanced_slice11():
    q = get_queue_or_skip()
    x = _make_3d("u8", q)
    i0 = ua.asarray([0, 1, 1], device=x.device)
    i2 = ua.asarray([2, 0, 1], device=x.device)
    with pytest.raises(IndexError):
        x[i0, :, i2]


def test_advanced_slice12():
    q = get_queue_or_skip()
    x = _make_3d("u8", q)
    i1 = ua.asarray([1, 1, 2], device=x.device)
    i2 = ua.asarray([2, 0, 1], device=x.device)
    y = x[:, ua.newaxis, i1, i2, ua.newaxis]
    res_expected = ua.asarray(
        [
            [[[lin_id(0, 1, 2)], [lin_id(0, 1, 0)], [lin_id(0, 2, 1)]]],
            [[[lin_id(1, 1, 2)], [lin_id(1, 1, 0)], [lin_id(1, 2, 1)]]],
            [[[lin_id(2, 1, 2)], [lin_id(2, 1, 0)], [lin_id(2, 2, 1)]]],
        ],
        sycl_queue=q,
    )
    assert isinstance(y, ua.USMArray)
    assert y.shape == res_expected.shape
    assert (ua.asnumpy(y) == ua.asnumpy(res_expected)).all()


def test_advanced_slice13():
    q = get_queue_or_skip()
    x = _make_3d("u8", q)
    i1 = ua.asarray([[1], [2]], device=x.device)
    i2 = ua.asarray([[0, 1]], device=x.device)
    y = x[i1, i2, 0]
    expected = ua.asarray(
        [
            [lin_id(1, 0, 0), lin_id(1, 1, 0)],
            [lin_id(2, 0, 0), lin_id(2, 1, 0)],
        ],
        device=x.device,
    )
    assert isinstance(y, ua.USMArray)
    assert y.shape == expected.shape
    assert (ua.asnumpy(y) == ua.asnumpy(expected)).all()


def test_advanced_slice14():
    q = get_queue_or_skip()
    ii = ua.asarray([1, 2], sycl_queue=q)
    x = ua.reshape(ua.arange(3**5, dtype="i4", sycl_queue=q), (3,) * 5)
    y = x[ii, 0, ii, 1, :]
    assert isinstance(y, ua.USMArray)
    # integers broadcast to ii.shape per array API
    assert y.shape == ii.shape + x.shape[-1:]
    assert _all_equal(
        (
            x[ii[i], 0, ii[i], 1, k]
            for i in range(ii.shape[0])
            for k in range(x.shape[-1])
        ),
        (y[i, k] for i in range(ii.shape[0]) for k in range(x.shape[-1])),
    )


def test_advanced_slice15():
    q = get_queue_or_skip()
    ii = ua.asarray([1, 2], sycl_queue=q)
    x = ua.reshape(ua.arange(3**5, dtype="i4", sycl_queue=q), (3,) * 5)
    # : cannot appear between two integral arrays
    with pytest.raises(IndexError):
        x[ii, 0, ii, :, ii]


def test_advanced_slice16():
    q = get_queue_or_skip()
    ii = ua.asarray(1, sycl_queue=q)
    i0 = ua.asarray(False, sycl_queue=q)
    i1 = ua.asarray(True, sycl_queue=q)
    x = ua.reshape(ua.arange(3**5, dtype="i4", sycl_queue=q), (3,) * 5)
    y = x[ii, i0, ii, i1, :]
    # TODO: add a shape check here when discrepancy with NumPy is investigated
    assert isinstance(y, ua.USMArray)


def test_integer_indexing_numpy_array():
    q = get_queue_or_skip()
    ii = np.asarray([1, 2])
    x = ua.arange(10, dtype="i4", sycl_queue=q)
    y = x[ii]
    assert isinstance(y, ua.USMArray)
    assert y.shape == ii.shape
    assert ua.all(x[1:3] == y)


def test_boolean_indexing_numpy_array():
    q = get_queue_or_skip()
    ii = np.asarray(
        [False, True, True, False, False, False, False, False, False, False]
    )
    x = ua.arange(10, dtype="i4", sycl_queue=q)
    y = x[ii]
    assert isinstance(y, ua.USMArray)
    assert y.shape == (2,)
    assert ua.all(x[1:3] == y)


def test_boolean_indexing_validation():
    get_queue_or_skip()
    x = ua.zeros(10, dtype="i4")
    ii = ua.ones((2, 5), dtype="?")
    with pytest.raises(IndexError):
        x[ii]
    with pytest.raises(IndexError):
        x[ii[0, :]]


def test_boolean_indexing_getitem_empty_mask():
    get_queue_or_skip()
    x = ua.ones((2, 3, 4), dtype="i4")
    ii = ua.ones((0,), dtype="?")
    assert x[ii].size == 0
    ii1 = ua.ones((0, 3), dtype="?")
    assert x[ii1].size == 0
    ii2 = ua.ones((0, 3, 4), dtype="?")
    assert x[ii2].size == 0


def test_boolean_indexing_setitem_empty_mask():
    get_queue_or_skip()
    x = ua.ones((2, 3, 4), dtype="i4")
    ii = ua.ones((0,), dtype="?")
    x[ii] = 0
    assert ua.all(x == 1)
    ii1 = ua.ones((0, 3), dtype="?")
    x[ii1] = 0
    assert ua.all(x == 1)
    ii2 = ua.ones((0, 3, 4), dtype="?")
    x[ii2] = 0
    assert ua.all(x == 1)


def test_integer_indexing_1d():
    get_queue_or_skip()
    x = ua.arange(10, dtype="i4")
    ind_1d = ua.asarray([7, 3, 1], dtype="u2")
    ind_2d = ua.asarray([[2, 3, 4], [3, 4, 5], [5, 6, 7]], dtype="i4")

    y1 = x[ind_1d]
    assert y1.shape == ind_1d.shape
    y2 = x[ind_2d]
    assert y2.shape == ind_2d.shape
    assert (ua.asnumpy(y1) == np.array([7, 3, 1], dtype="i4")).all()
    assert (
        ua.asnumpy(y2)
        == np.array([[2, 3, 4], [3, 4, 5], [5, 6, 7]], dtype="i4")
    ).all()


def test_integer_indexing_2d():
    get_queue_or_skip()
    n0, n1 = 5, 7
    x = ua.reshape(
        ua.arange(n0 * n1, dtype="i4"),
        (
            n0,
            n1,
        ),
    )
    ind0 = ua.arange(n0)
    ind1 = ua.arange(n1)

    y = x[ind0[:2, ua.newaxis], ind1[ua.newaxis, -2:]]
    assert y.dtype == x.dtype
    assert (ua.asnumpy(y) == np.array([[5, 6], [12, 13]])).all()


def test_integer_strided_indexing():
    get_queue_or_skip()
    n0, n1 = 5, 7
    x = ua.reshape(
        ua.arange(2 * n0 * n1, dtype="i4"),
        (
            2 * n0,
            n1,
        ),
    )
    ind0 = ua.arange(n0)
    ind1 = ua.arange(n1)

    z = x[::-2, :]
    y = z[ind0[:2, ua.newaxis], ind1[ua.newaxis, -2:]]
    assert y.dtype == x.dtype
    zc = ua.copy(z, order="C")
    yc = zc[ind0[:2, ua.newaxis], ind1[ua.newaxis, -2:]]
    assert (ua.asnumpy(y) == ua.asnumpy(yc)).all()


def test_TrueFalse_indexing():
    get_queue_or_skip()
    n0, n1 = 2, 3
    x = ua.ones((n0, n1))
    for ind in [True, ua.asarray(True)]:
        y1 = x[ind]
        assert y1.shape == (1, n0, n1)
        assert y1._pointer == x._pointer
        y2 = x[:, ind]
        assert y2.shape == (n0, 1, n1)
        assert y2._pointer == x._pointer
        y3 = x[..., ind]
        assert y3.shape == (n0, n1, 1)
        assert y3._pointer == x._pointer
    for ind in [False, ua.asarray(False)]:
        y1 = x[ind]
        assert y1.shape == (0, n0, n1)
        assert y1._pointer == x._pointer
        y2 = x[:, ind]
        assert y2.shape == (n0, 0, n1)
        assert y2._pointer == x._pointer
        y3 = x[..., ind]
        assert y3.shape == (n0, n1, 0)
        assert y3._pointer == x._pointer


def test_mixed_index_getitem():
    get_queue_or_skip()
    x = ua.reshape(ua.arange(1000, dtype="i4"), (10, 10, 10))
    i1b = ua.ones(10, dtype="?")
    info = x.__array_namespace__().__array_namespace_info__()
    ind_dt = info.default_dtypes(device=x.device)["indexing"]
    i0 = ua.asarray([0, 2, 3], dtype=ind_dt)[:, ua.newaxis]
    i2 = ua.asarray([3, 4, 7], dtype=ind_dt)[:, ua.newaxis]
    y = x[i0, i1b, i2]
    assert y.shape == (3, ua.sum(i1b, dtype="i8"))


def test_mixed_index_setitem():
    get_queue_or_skip()
    x = ua.reshape(ua.arange(1000, dtype="i4"), (10, 10, 10))
    i1b = ua.ones(10, dtype="?")
    info = x.__array_namespace__().__array_namespace_info__()
    ind_dt = info.default_dtypes(device=x.device)["indexing"]
    i0 = ua.asarray([0, 2, 3], dtype=ind_dt)[:, ua.newaxis]
    i2 = ua.asarray([3, 4, 7], dtype=ind_dt)[:, ua.newaxis]
    v_shape = (3, int(ua.sum(i1b, dtype="i8")))
    canary = 7
    x[i0, i1b, i2] = ua.full(v_shape, canary, dtype=x.dtype)
    assert x[0, 0, 3] == canary


@pytest.mark.parametrize(
    "data_dt",
    _all_dtypes,
)
@pytest.mark.parametrize(
    "ind_dt",
    _all_int_dtypes,
)
def test_take_basic(data_dt, ind_dt):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(data_dt, q)

    x = ua.arange(10, dtype=data_dt)
    ind = ua.arange(2, 5, dtype=ind_dt)
    y = ua.take(x, ind)
    assert y.dtype == x.dtype
    assert (ua.asnumpy(y) == np.arange(2, 5, dtype=data_dt)).all()


@pytest.mark.parametrize(
    "data_dt",
    _all_dtypes,
)
@pytest.mark.parametrize(
    "ind_dt",
    _all_int_dtypes,
)
def test_put_basic(data_dt, ind_dt):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(data_dt, q)

    x = ua.arange(10, dtype=data_dt)
    ind = ua.arange(2, 5, dtype=ind_dt)
    val = ua.ones(3, dtype=data_dt)
    ua.put(x, ind, val)
    assert (
        ua.asnumpy(x)
        == np.array([0, 1, 1, 1, 1, 5, 6, 7, 8, 9], dtype=data_dt)
    ).all()


def test_take_basic_axis():
    get_queue_or_skip()

    n0, n1 = 5, 7
    x = ua.reshape(
        ua.arange(n0 * n1, dtype="i4"),
        (
            n0,
            n1,
        ),
    )
    ind = ua.arange(2, 4)
    y0 = ua.take(x, ind, axis=0)
    y1 = ua.take(x, ind, axis=1)
    assert y0.shape == (2, n1)
    assert y1.shape == (n0, 2)


def test_put_basic_axis():
    get_queue_or_skip()

    n0, n1 = 5, 7
    x = ua.reshape(
        ua.arange(n0 * n1, dtype="i4"),
        (
            n0,
            n1,
        ),
    )
    ind = ua.arange(2, 4)
    v0 = ua.zeros((2, n1), dtype=x.dtype)
    v1 = ua.zeros((n0, 2), dtype=x.dtype)
    ua.put(x, ind, v0, axis=0)
    ua.put(x, ind, v1, axis=1)
    expected = np.arange(n0 * n1, dtype="i4").reshape((n0, n1))
    expected[[2, 3], :] = 0
    expected[:, [2, 3]] = 0
    assert (expected == ua.asnumpy(x)).all()


@pytest.mark.parametrize("data_dt", _all_dtypes)
def test_put_0d_val(data_dt):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(data_dt, q)

    x = ua.arange(5, dtype=data_dt, sycl_queue=q)
    ind = ua.asarray([0], dtype="i8", sycl_queue=q)
    val = ua.asarray(2, dtype=x.dtype, sycl_queue=q)
    x[ind] = val
    assert_array_equal(np.asarray(2, dtype=data_dt), ua.asnumpy(x[0]))

    x = ua.asarray(5, dtype=data_dt, sycl_queue=q)
    ua.put(x, ind, val)
    assert_array_equal(np.asarray(2, dtype=data_dt), ua.asnumpy(x))


@pytest.mark.parametrize(
    "data_dt",
    _all_dtypes,
)
def test_take_0d_data(data_dt):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(data_dt, q)

    x = ua.asarray(0, dtype=data_dt, sycl_queue=q)
    ind = ua.arange(5, dtype="i8", sycl_queue=q)

    y = ua.take(x, ind)
    assert (
        ua.asnumpy(y)
        == np.broadcast_to(np.asarray(0, dtype=data_dt), ind.shape)
    ).all()


@pytest.mark.parametrize(
    "data_dt",
    _all_dtypes,
)
def test_put_0d_data(data_dt):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(data_dt, q)

    x = ua.asarray(0, dtype=data_dt, sycl_queue=q)
    ind = ua.arange(5, dtype="i8", sycl_queue=q)
    val = ua.asarray(2, dtype=data_dt, sycl_queue=q)

    ua.put(x, ind, val, axis=0)
    assert (
        ua.asnumpy(x)
        == np.broadcast_to(np.asarray(2, dtype=data_dt), ind.shape)
    ).all()


@pytest.mark.parametrize(
    "ind_dt",
    _all_int_dtypes,
)
def test_indexing_0d_ind(ind_dt):
    q = get_queue_or_skip()

    x = ua.arange(5, dtype="i4", sycl_queue=q)
    ind = ua.asarray(3, dtype=ind_dt, sycl_queue=q)

    y = x[ind]
    assert ua.asnumpy(x[3]) == ua.asnumpy(y)


@pytest.mark.parametrize(
    "ind_dt",
    _all_int_dtypes,
)
def test_put_0d_ind(ind_dt):
    q = get_queue_or_skip()

    x = ua.arange(5, dtype="i4", sycl_queue=q)
    ind = ua.asarray(3, dtype=ind_dt, sycl_queue=q)
    val = ua.asarray(5, dtype=x.dtype, sycl_queue=q)

    x[ind] = val
    assert ua.asnumpy(x[3]) == ua.asnumpy(val)


@pytest.mark.parametrize(
    "data_dt",
    _all_dtypes,
)
def test_take_strided_1d_source(data_dt):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(data_dt, q)

    x = ua.arange(27, dtype=data_dt, sycl_queue=q)
    ind = ua.arange(4, 9, dtype="i8", sycl_queue=q)

    x_np = ua.asnumpy(x)
    ind_np = ua.asnumpy(ind)

    for s in (
        slice(None, None, 2),
        slice(None, None, -2),
    ):
        assert_array_equal(
            np.take(x_np[s], ind_np, axis=0),
            ua.asnumpy(ua.take(x[s], ind, axis=0)),
        )

    # 0-strided
    x = ua.USMArray(
        (27,),
        dtype=data_dt,
        strides=(0,),
        buffer_ctor_kwargs={"queue": q},
    )
    x[0] = x_np[0]
    assert_array_equal(
        np.broadcast_to(x_np[0], ind.shape),
        ua.asnumpy(ua.take(x, ind, axis=0)),
    )


@pytest.mark.parametrize(
    "data_dt",
    _all_dtypes,
)
@pytest.mark.parametrize("order", ["C", "F"])
def test_take_strided(data_dt, order):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(data_dt, q)

    x = ua.reshape(_make_3d(data_dt, q), (9, 3), order=order)
    ind = ua.arange(2, dtype="i8", sycl_queue=q)

    x_np = ua.asnumpy(x)
    ind_np = ua.asnumpy(ind)

    for s in (
        slice(None, None, 2),
        slice(None, None, -2),
    ):
        for sgn in (-1, 1):
            xs = x[s, ::sgn]
            xs_np = x_np[s, ::sgn]
            assert_array_equal(
                np.take(xs_np, ind_np, axis=0),
                ua.asnumpy(ua.take(xs, ind, axis=0)),
            )
            assert_array_equal(
                np.take(xs_np, ind_np, axis=1),
                ua.asnumpy(ua.take(xs, ind, axis=1)),
            )


@pytest.mark.parametrize(
    "ind_dt",
    _all_int_dtypes,
)
def test_take_strided_1d_indices(ind_dt):
    q = get_queue_or_skip()

    x = ua.arange(27, dtype="i4", sycl_queue=q)
    ind = ua.arange(12, 24, dtype=ind_dt, sycl_queue=q)

    x_np = ua.asnumpy(x)
    ind_np = ua.asnumpy(ind).astype("i8")

    for s in (
        slice(None, None, 2),
        slice(None, None, -2),
    ):
        assert_array_equal(
            np.take(x_np, ind_np[s], axis=0),
            ua.asnumpy(ua.take(x, ind[s], axis=0)),
        )

    # 0-strided
    ind = ua.USMArray(
        (12,),
        dtype=ind_dt,
        strides=(0,),
        buffer_ctor_kwargs={"queue": q},
    )
    ind[0] = ind_np[0]
    assert_array_equal(
        np.broadcast_to(x_np[ind_np[0]], ind.shape),
        ua.asnumpy(ua.take(x, ind, axis=0)),
    )


@pytest.mark.parametrize(
    "ind_dt",
    _all_int_dtypes,
)
@pytest.mark.parametrize("order", ["C", "F"])
def test_take_strided_indices(ind_dt, order):
    q = get_queue_or_skip()

    x = ua.arange(27, dtype="i4", sycl_queue=q)
    ind = ua.reshape(
        ua.arange(12, 24, dtype=ind_dt, sycl_queue=q), (4, 3), order=order
    )

    x_np = ua.asnumpy(x)
    ind_np = ua.asnumpy(ind).astype("i8")

    for s in (
        slice(None, None, 2),
        slice(None, None, -2),
    ):
        for sgn in [-1, 1]:
            inds = ind[s, ::sgn]
            inds_np = ind_np[s, ::sgn]
            assert_array_equal(
                np.take(x_np, inds_np, axis=0),
                ua.asnumpy(x[inds]),
            )


@pytest.mark.parametrize(
    "data_dt",
    _all_dtypes,
)
@pytest.mark.parametrize("order", ["C", "F"])
def test_put_strided_1d_destination(data_dt, order):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(data_dt, q)

    x = ua.arange(27, dtype=data_dt, sycl_queue=q)
    ind = ua.arange(4, 9, dtype="i8", sycl_queue=q)
    val = ua.asarray(9, dtype=x.dtype, sycl_queue=q)

    x_np = ua.asnumpy(x)
    ind_np = ua.asnumpy(ind)
    val_np = ua.asnumpy(val)

    for s in (
        slice(None, None, 2),
        slice(None, None, -2),
    ):
        x_np1 = x_np.copy()
        x_np1[s][ind_np] = val_np

        x1 = ua.copy(x)
        ua.put(x1[s], ind, val, axis=0)

        assert_array_equal(x_np1, ua.asnumpy(x1))


@pytest.mark.parametrize(
    "data_dt",
    _all_dtypes,
)
@pytest.mark.parametrize("order", ["C", "F"])
def test_put_strided_destination(data_dt, order):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(data_dt, q)

    x = ua.reshape(_make_3d(data_dt, q), (9, 3), order=order)
    ind = ua.arange(2, dtype="i8", sycl_queue=q)
    val = ua.asarray(9, dtype=x.dtype, sycl_queue=q)

    x_np = ua.asnumpy(x)
    ind_np = ua.asnumpy(ind)
    val_np = ua.asnumpy(val)

    for s in (
        slice(None, None, 2),
        slice(None, None, -2),
    ):
        for sgn in [-1, 1]:
            xs = x[s, ::sgn]
            xs_np = x_np[s, ::sgn]

            x_np1 = xs_np.copy()
            x_np1[ind_np] = val_np

            x1 = ua.copy(xs)
            ua.put(x1, ind, val, axis=0)
            assert_array_equal(x_np1, ua.asnumpy(x1))

            x_np1 = xs_np.copy()
            x_np1[:, ind_np] = val_np

            x1 = ua.copy(xs)
            ua.put(x1, ind, val, axis=1)
            assert_array_equal(x_np1, ua.asnumpy(x1))

            x_np1 = xs_np.copy()
            x_np1[ind_np, ind_np] = val_np

            x1 = ua.copy(xs)
            x1[ind, ind] = val
            assert_array_equal(x_np1, ua.asnumpy(x1))


@pytest.mark.parametrize(
    "ind_dt",
    _all_int_dtypes,
)
def test_put_strided_1d_indices(ind_dt):
    q = get_queue_or_skip()

    x = ua.arange(27, dtype="i4", sycl_queue=q)
    ind = ua.arange(12, 24, dtype=ind_dt, sycl_queue=q)
    val = ua.asarray(-1, dtype=x.dtype, sycl_queue=q)

    x_np = ua.asnumpy(x)
    ind_np = ua.asnumpy(ind).astype("i8")
    val_np = ua.asnumpy(val)

    for s in (
        slice(None, None, 2),
        slice(None, None, -2),
    ):
        x_copy = ua.copy(x)
        ua.put(x_copy, ind[s], val, axis=0)

        x_np_copy = x_np.copy()
        x_np_copy[ind_np[s]] = val_np

        assert_array_equal(x_np_copy, ua.asnumpy(x_copy))


@pytest.mark.parametrize(
    "ind_dt",
    _all_int_dtypes,
)
@pytest.mark.parametrize("order", ["C", "F"])
def test_put_strided_indices(ind_dt, order):
    q = get_queue_or_skip()

    x = ua.arange(27, dtype="i4", sycl_queue=q)
    ind = ua.reshape(
        ua.arange(12, 24, dtype=ind_dt, sycl_queue=q), (4, 3), order=order
    )
    val = ua.asarray(-1, sycl_queue=q, dtype=x.dtype)

    x_np = ua.asnumpy(x)
    ind_np = ua.asnumpy(ind).astype("i8")
    val_np = ua.asnumpy(val)

    for s in (
        slice(None, None, 2),
        slice(None, None, -2),
    ):
        for sgn in [-1, 1]:
            inds = ind[s, ::sgn]
            inds_np = ind_np[s, ::sgn]

            x_copy = ua.copy(x)
            x_copy[inds] = val

            x_np_copy = x_np.copy()
            x_np_copy[inds_np] = val_np

            assert_array_equal(x_np_copy, ua.asnumpy(x_copy))


def test_integer_indexing_modes():
    q = get_queue_or_skip()

    x = ua.arange(5, sycl_queue=q)
    x_np = ua.asnumpy(x)

    # wrapping negative indices
    ind = ua.asarray([-4, -3, 0, 2, 4], dtype="i8", sycl_queue=q)

    res = ua.take(x, ind, mode="wrap")
    expected_arr = np.take(x_np, ua.asnumpy(ind), mode="raise")

    assert (ua.asnumpy(res) == expected_arr).all()

    # clipping to 0 (disabling negative indices)
    ind = ua.asarray([-6, -3, 0, 2, 6], dtype="i8", sycl_queue=q)

    res = ua.take(x, ind, mode="clip")
    expected_arr = np.take(x_np, ua.asnumpy(ind), mode="clip")

    assert (ua.asnumpy(res) == expected_arr).all()


def test_take_arg_validation():
    q = get_queue_or_skip()

    x = ua.arange(4, dtype="i4", sycl_queue=q)
    ind0 = ua.arange(4, dtype="i8", sycl_queue=q)
    ind1 = ua.arange(2.0, dtype="f", sycl_queue=q)

    with pytest.raises(TypeError):
        ua.take(dict(), ind0, axis=0)
    with pytest.raises(TypeError):
        ua.take(x, dict(), axis=0)
    with pytest.raises(IndexError):
        x[[]]
    with pytest.raises(IndexError):
        ua.take(x, ind1, axis=0)
    with pytest.raises(IndexError):
        x[ind1]

    with pytest.raises(ValueError):
        ua.take(ua.reshape(x, (2, 2)), ind0)
    with pytest.raises(ValueError):
        ua.take(x, ind0, mode=0)
    with pytest.raises(ValueError):
        ua.take(ua.reshape(x, (2, 2)), ind0, axis=None)
    with pytest.raises(ValueError):
        ua.take(x, ua.reshape(ind0, (2, 2)))
    with pytest.raises(ValueError):
        ua.take(x[0], ind0, axis=2)
    with pytest.raises(ValueError):
        ua.take(x[:, ua.newaxis, ua.newaxis], ind0, axis=None)


def test_put_arg_validation():
    q = get_queue_or_skip()

    x = ua.arange(4, dtype="i4", sycl_queue=q)
    ind0 = ua.arange(4, dtype="i8", sycl_queue=q)
    ind1 = ua.arange(2.0, dtype="f", sycl_queue=q)
    val = ua.asarray(2, dtype=x.dtype, sycl_queue=q)

    with pytest.raises(TypeError):
        ua.put(dict(), ind0, val, axis=0)
    with pytest.raises(TypeError):
        ua.put(x, dict(), val, axis=0)
    with pytest.raises(IndexError):
        x[[]] = val
    with pytest.raises(IndexError):
        ua.put(x, ind1, val, axis=0)
    with pytest.raises(IndexError):
        x[ind1] = val
    with pytest.raises(TypeError):
        ua.put(x, ind0, dict(), axis=0)
    with pytest.raises(TypeError):
        x[ind0] = dict()

    with pytest.raises(ValueError):
        ua.put(x, ind0, val, mode=0)
    with pytest.raises(ValueError):
        ua.put(x, ua.reshape(ind0, (2, 2)), val)
    with pytest.raises(ValueError):
        ua.put(x[0], ind0, val, axis=2)
    with pytest.raises(ValueError):
        ua.put(x[:, ua.newaxis, ua.newaxis], ind0, val, axis=None)


def test_advanced_indexing_compute_follows_data():
    q1 = get_queue_or_skip()
    q2 = get_queue_or_skip()

    x = ua.arange(4, sycl_queue=q1)
    ind0 = ua.asarray([0], sycl_queue=q1)
    ind1 = ua.asarray([0], sycl_queue=q2)
    val0 = ua.asarray(2, dtype=x.dtype, sycl_queue=q1)
    val1 = ua.asarray(2, dtype=x.dtype, sycl_queue=q2)

    with pytest.raises(ExecutionPlacementError):
        ua.take(x, ind1, axis=0)
    with pytest.raises(ExecutionPlacementError):
        x[ind1]
    with pytest.raises(ExecutionPlacementError):
        ua.put(x, ind1, val0, axis=0)
    with pytest.raises(ExecutionPlacementError):
        x[ind1] = val0
    with pytest.raises(ExecutionPlacementError):
        ua.put(x, ind0, val1, axis=0)
    with pytest.raises(ExecutionPlacementError):
        x[ind0] = val1


def test_extract_all_1d():
    get_queue_or_skip()
    x = ua.arange(30, dtype="i4")
    sel = ua.ones(30, dtype="?")
    sel[::2] = False

    res = x[sel]
    expected_res = ua.asnumpy(x)[ua.asnumpy(sel)]
    assert (ua.asnumpy(res) == expected_res).all()

    res2 = ua.extract(sel, x)
    assert (ua.asnumpy(res2) == expected_res).all()

    # test strided case
    x = ua.arange(15, dtype="i4")
    sel_np = np.zeros(15, dtype="?")
    np.put(sel_np, np.random.choice(sel_np.size, size=7), True)
    sel = ua.asarray(sel_np)

    res = x[sel[::-1]]
    expected_res = ua.asnumpy(x)[sel_np[::-1]]
    assert (ua.asnumpy(res) == expected_res).all()

    res2 = ua.extract(sel[::-1], x)
    assert (ua.asnumpy(res2) == expected_res).all()


def test_extract_all_2d():
    get_queue_or_skip()
    x = ua.reshape(ua.arange(30, dtype="i4"), (5, 6))
    sel = ua.ones(30, dtype="?")
    sel[::2] = False
    sel = ua.reshape(sel, x.shape)

    res = x[sel]
    expected_res = ua.asnumpy(x)[ua.asnumpy(sel)]
    assert (ua.asnumpy(res) == expected_res).all()

    res2 = ua.extract(sel, x)
    assert (ua.asnumpy(res2) == expected_res).all()


def test_extract_2D_axis0():
    get_queue_or_skip()
    x = ua.reshape(ua.arange(30, dtype="i4"), (5, 6))
    sel = ua.ones(x.shape[0], dtype="?")
    sel[::2] = False

    res = x[sel]
    expected_res = ua.asnumpy(x)[ua.asnumpy(sel)]
    assert (ua.asnumpy(res) == expected_res).all()


def test_extract_2D_axis1():
    get_queue_or_skip()
    x = ua.reshape(ua.arange(30, dtype="i4"), (5, 6))
    sel = ua.ones(x.shape[1], dtype="?")
    sel[::2] = False

    res = x[:, sel]
    expected = ua.asnumpy(x)[:, ua.asnumpy(sel)]
    assert (ua.asnumpy(res) == expected).all()


def test_extract_begin():
    get_queue_or_skip()
    x = ua.reshape(ua.arange(3 * 3 * 4 * 4, dtype="i2"), (3, 4, 3, 4))
    y = ua.permute_dims(x, (2, 0, 3, 1))
    sel = ua.zeros((3, 3), dtype="?")
    sel[0, 0] = True
    sel[1, 1] = True
    z = y[sel]
    expected = ua.asnumpy(y)[[0, 1], [0, 1]]
    assert (ua.asnumpy(z) == expected).all()


def test_extract_end():
    get_queue_or_skip()
    x = ua.reshape(ua.arange(3 * 3 * 4 * 4, dtype="i2"), (3, 4, 3, 4))
    y = ua.permute_dims(x, (2, 0, 3, 1))
    sel = ua.zeros((4, 4), dtype="?")
    sel[0, 0] = True
    z = y[..., sel]
    expected = ua.asnumpy(y)[..., [0], [0]]
    assert (ua.asnumpy(z) == expected).all()


def test_extract_middle():
    get_queue_or_skip()
    x = ua.reshape(ua.arange(3 * 3 * 4 * 4, dtype="i2"), (3, 4, 3, 4))
    y = ua.permute_dims(x, (2, 0, 3, 1))
    sel = ua.zeros((3, 4), dtype="?")
    sel[0, 0] = True
    z = y[:, sel]
    expected = ua.asnumpy(y)[:, [0], [0], :]
    assert (ua.asnumpy(z) == expected).all()


def test_extract_empty_result():
    get_queue_or_skip()
    x = ua.reshape(ua.arange(3 * 3 * 4 * 4, dtype="i2"), (3, 4, 3, 4))
    y = ua.permute_dims(x, (2, 0, 3, 1))
    sel = ua.zeros((3, 4), dtype="?")
    z = y[:, sel]
    assert z.shape == (
        y.shape[0],
        0,
        y.shape[3],
    )


def test_place_all_1d():
    get_queue_or_skip()
    x = ua.arange(10, dtype="i2")
    sel = ua.zeros(10, dtype="?")
    sel[0::2] = True
    val = ua.zeros(5, dtype=x.dtype)
    x[sel] = val
    assert (ua.asnumpy(x) == np.array([0, 1, 0, 3, 0, 5, 0, 7, 0, 9])).all()
    ua.place(x, sel, ua.asarray([2]))
    assert (ua.asnumpy(x) == np.array([2, 1, 2, 3, 2, 5, 2, 7, 2, 9])).all()


def test_place_2d_axis0():
    get_queue_or_skip()
    x = ua.reshape(ua.arange(12, dtype="i2"), (3, 4))
    sel = ua.asarray([True, False, True])
    val = ua.zeros((2, 4), dtype=x.dtype)
    x[sel] = val
    expected_x = np.stack(
        (
            np.zeros(4, dtype="i2"),
            np.arange(4, 8, dtype="i2"),
            np.zeros(4, dtype="i2"),
        )
    )
    assert (ua.asnumpy(x) == expected_x).all()


def test_place_2d_axis1():
    get_queue_or_skip()
    x = ua.reshape(ua.arange(12, dtype="i2"), (3, 4))
    sel = ua.asarray([True, False, True, False])
    val = ua.zeros((3, 2), dtype=x.dtype)
    x[:, sel] = val
    expected_x = np.array(
        [[0, 1, 0, 3], [0, 5, 0, 7], [0, 9, 0, 11]], dtype="i2"
    )
    assert (ua.asnumpy(x) == expected_x).all()


def test_place_2d_axis1_scalar():
    get_queue_or_skip()
    x = ua.reshape(ua.arange(12, dtype="i2"), (3, 4))
    sel = ua.asarray([True, False, True, False])
    val = ua.zeros(tuple(), dtype=x.dtype)
    x[:, sel] = val
    expected_x = np.array(
        [[0, 1, 0, 3], [0, 5, 0, 7], [0, 9, 0, 11]], dtype="i2"
    )
    assert (ua.asnumpy(x) == expected_x).all()


def test_place_all_slices():
    get_queue_or_skip()
    x = ua.reshape(ua.arange(12, dtype="i2"), (3, 4))
    sel = ua.asarray(
        [
            [False, True, True, False],
            [True, True, False, False],
            [False, False, True, True],
        ],
        dtype="?",
    )
    y = ua.ones_like(x)
    y[sel] = x[sel]


def test_place_some_slices_begin():
    get_queue_or_skip()
    x = ua.reshape(ua.arange(3 * 3 * 4 * 4, dtype="i2"), (3, 4, 3, 4))
    y = ua.permute_dims(x, (2, 0, 3, 1))
    sel = ua.zeros((3, 3), dtype="?")
    sel[0, 0] = True
    sel[1, 1] = True
    z = y[sel]
    w = ua.zeros_like(y)
    w[sel] = z


def test_place_some_slices_mid():
    get_queue_or_skip()
    x = ua.reshape(ua.arange(3 * 3 * 4 * 4, dtype="i2"), (3, 4, 3, 4))
    y = ua.permute_dims(x, (2, 0, 3, 1))
    sel = ua.zeros((3, 4), dtype="?")
    sel[0, 0] = True
    sel[1, 1] = True
    z = y[:, sel]
    w = ua.zeros_like(y)
    w[:, sel] = z


def test_place_some_slices_end():
    get_queue_or_skip()
    x = ua.reshape(ua.arange(3 * 3 * 4 * 4, dtype="i2"), (3, 4, 3, 4))
    y = ua.permute_dims(x, (2, 0, 3, 1))
    sel = ua.zeros((4, 4), dtype="?")
    sel[0, 0] = True
    sel[1, 1] = True
    z = y[:, :, sel]
    w = ua.zeros_like(y)
    w[:, :, sel] = z


def test_place_cycling():
    get_queue_or_skip()
    x = ua.zeros(10, dtype="f4")
    y = ua.asarray([2, 3])
    sel = ua.ones(x.size, dtype="?")
    ua.place(x, sel, y)
    expected = np.array(
        [
            2,
            3,
        ]
        * 5,
        dtype=x.dtype,
    )
    assert (ua.asnumpy(x) == expected).all()


def test_place_subset():
    get_queue_or_skip()
    x = ua.zeros(10, dtype="f4")
    y = ua.ones_like(x)
    sel = ua.ones(x.size, dtype="?")
    sel[::2] = False
    ua.place(x, sel, y)
    expected = np.array([0, 1, 0, 1, 0, 1, 0, 1, 0, 1], dtype=x.dtype)
    assert (ua.asnumpy(x) == expected).all()


def test_place_empty_vals_error():
    get_queue_or_skip()
    x = ua.zeros(10, dtype="f4")
    y = ua.empty((0,), dtype=x.dtype)
    sel = ua.ones(x.size, dtype="?")
    sel[::2] = False
    with pytest.raises(ValueError):
        ua.place(x, sel, y)


def test_place_empty_vals_full_false_mask():
    get_queue_or_skip()
    x = ua.ones(10, dtype="f4")
    y = ua.empty((0,), dtype=x.dtype)
    sel = ua.zeros(x.size, dtype="?")
    expected = np.ones(10, dtype=x.dtype)
    ua.place(x, sel, y)
    assert (ua.asnumpy(x) == expected).all()


def test_nonzero():
    get_queue_or_skip()
    x = ua.concat((ua.zeros(3), ua.ones(4), ua.zeros(3)))
    (i,) = ua.nonzero(x)
    assert (ua.asnumpy(i) == np.array([3, 4, 5, 6])).all()


def test_nonzero_f_contig():
    "See gh-1370"
    get_queue_or_skip()

    mask = ua.zeros((5, 5), dtype="?", order="F")
    mask[2, 3] = True

    expected_res = (2, 3)
    res = ua.nonzero(mask)

    assert expected_res == res
    assert mask[res]


def test_nonzero_compacting():
    """See gh-1370.
    Test with input where dimensionality
    of iteration space is compacted from 3d to 2d
    """
    get_queue_or_skip()

    mask = ua.zeros((5, 5, 5), dtype="?", order="F")
    mask[3, 2, 1] = True
    mask_view = mask[..., :3]

    expected_res = (3, 2, 1)
    res = ua.nonzero(mask_view)

    assert expected_res == res
    assert mask_view[res]


def test_assign_scalar():
    get_queue_or_skip()
    x = ua.arange(-5, 5, dtype="i8")
    cond = ua.asarray(
        [True, True, True, True, True, False, False, False, False, False]
    )
    x[cond] = 0  # no error expected
    x[ua.nonzero(cond)] = -1
    expected = np.array([-1, -1, -1, -1, -1, 0, 1, 2, 3, 4], dtype=x.dtype)
    assert (ua.asnumpy(x) == expected).all()


def test_nonzero_large():
    get_queue_or_skip()
    m = ua.full((60, 80), True)
    assert m[m].size == m.size

    m = ua.full((30, 60, 80), True)
    assert m[m].size == m.size


def test_extract_arg_validation():
    get_queue_or_skip()
    with pytest.raises(TypeError):
        ua.extract(None, None)
    cond = ua.ones(10, dtype="?")
    with pytest.raises(TypeError):
        ua.extract(cond, None)
    q1 = ua.Queue()
    with pytest.raises(ExecutionPlacementError):
        ua.extract(cond.to_device(q1), ua.zeros_like(cond, dtype="u1"))
    with pytest.raises(ValueError):
        ua.extract(ua.ones((2, 3), dtype="?"), ua.ones((3, 2), dtype="i1"))


def test_place_arg_validation():
    get_queue_or_skip()
    with pytest.raises(TypeError):
        ua.place(None, None, None)
    arr = ua.zeros(8, dtype="i1")
    with pytest.raises(TypeError):
        ua.place(arr, None, None)
    cond = ua.ones(8, dtype="?")
    with pytest.raises(TypeError):
        ua.place(arr, cond, None)
    vals = ua.ones_like(arr)
    q1 = ua.Queue()
    with pytest.raises(ExecutionPlacementError):
        ua.place(arr.to_device(q1), cond, vals)
    with pytest.raises(ValueError):
        ua.place(ua.reshape(arr, (2, 2, 2)), cond, vals)


def test_nonzero_arg_validation():
    get_queue_or_skip()
    with pytest.raises(TypeError):
        ua.nonzero(list())
    with pytest.raises(ValueError):
        ua.nonzero(ua.asarray(1))


@pytest.mark.skip(reason="dpctl-only: dpctl.tensor._tensor_impl")
def test_nonzero_dtype():
    "See gh-1322"
    get_queue_or_skip()
    x = ua.ones((3, 4))
    idx, idy = ua.nonzero(x)
    # create array using device's
    # default index data type
    index_dt = np.dtype(ti.default_device_index_type(x.queue))
    assert idx.dtype == index_dt
    assert idy.dtype == index_dt


def test_take_empty_axes():
    get_queue_or_skip()

    x = ua.ones((3, 0, 4, 5, 6), dtype="f4")
    inds = ua.ones(1, dtype="i4")

    with pytest.raises(IndexError):
        ua.take(x, inds, axis=1)

    inds = ua.ones(0, dtype="i4")
    r = ua.take(x, inds, axis=1)
    assert r.shape == x.shape


def test_put_empty_axes():
    get_queue_or_skip()

    x = ua.ones((3, 0, 4, 5, 6), dtype="f4")
    inds = ua.ones(1, dtype="i4")
    vals = ua.zeros((3, 1, 4, 5, 6), dtype="f4")

    with pytest.raises(IndexError):
        ua.put(x, inds, vals, axis=1)

    inds = ua.ones(0, dtype="i4")
    vals = ua.zeros_like(x)

    with pytest.raises(ValueError):
        ua.put(x, inds, vals, axis=1)


def test_put_cast_vals():
    get_queue_or_skip()

    x = ua.arange(10, dtype="i4")
    inds = ua.arange(7, 10, dtype="i4")
    vals = ua.zeros_like(inds, dtype="f4")

    ua.put(x, inds, vals)
    assert ua.all(x[7:10] == 0)


def test_advanced_integer_indexing_cast_vals():
    get_queue_or_skip()

    x = ua.arange(10, dtype="i4")
    inds = ua.arange(7, 10, dtype="i4")
    vals = ua.zeros_like(inds, dtype="f4")

    x[inds] = vals
    assert ua.all(x[7:10] == 0)


def test_advanced_integer_indexing_empty_axis():
    get_queue_or_skip()

    # getting
    x = ua.ones((3, 0, 4, 5, 6), dtype="f4")
    inds = ua.ones(1, dtype="i4")
    with pytest.raises(IndexError):
        x[:, inds, ...]
    with pytest.raises(IndexError):
        x[inds, inds, inds, ...]

    # setting
    with pytest.raises(IndexError):
        x[:, inds, ...] = 2
    with pytest.raises(IndexError):
        x[inds, inds, inds, ...] = 2

    # empty inds
    inds = ua.ones(0, dtype="i4")
    assert x[:, inds, ...].shape == x.shape
    assert x[inds, inds, inds, ...].shape == (0, 5, 6)

    vals = ua.zeros_like(x)
    x[:, inds, ...] = vals
    vals = ua.zeros((0, 5, 6), dtype="f4")
    x[inds, inds, inds, ...] = vals


def test_advanced_integer_indexing_cast_indices():
    get_queue_or_skip()

    inds0 = ua.asarray([0, 1], dtype="i1")
    for ind_dts in (("i1", "i2", "i4"), ("i1", "u4", "i4"), ("u1", "u2", "u8")):
        x = ua.ones((3, 4, 5, 6), dtype="i4")
        inds0 = ua.asarray([0, 1], dtype=ind_dts[0])
        inds1 = ua.astype(inds0, ind_dts[1])
        x[inds0, inds1, ...] = 2
        assert ua.all(x[inds0, inds1, ...] == 2)
        inds2 = ua.astype(inds0, ind_dts[2])
        x[inds0, inds1, ...] = 2
        assert ua.all(x[inds0, inds1, inds2, ...] == 2)

    # fail when float would be required per type promotion
    inds0 = ua.asarray([0, 1], dtype="i1")
    inds1 = ua.astype(inds0, "u4")
    inds2 = ua.astype(inds0, "u8")
    x = ua.ones((3, 4, 5, 6), dtype="i4")
    # test getitem
    with pytest.raises(ValueError):
        x[inds0, inds1, inds2, ...]
    # test setitem
    with pytest.raises(ValueError):
        x[inds0, inds1, inds2, ...] = 1


def test_take_along_axis():
    get_queue_or_skip()

    n0, n1, n2 = 3, 5, 7
    x = ua.reshape(ua.arange(n0 * n1 * n2), (n0, n1, n2))
    ind_dt = ua.__array_namespace_info__().default_dtypes(
        device=x.device
    )["indexing"]
    ind0 = ua.ones((1, n1, n2), dtype=ind_dt)
    ind1 = ua.ones((n0, 1, n2), dtype=ind_dt)
    ind2 = ua.ones((n0, n1, 1), dtype=ind_dt)

    y0 = ua.take_along_axis(x, ind0, axis=0)
    assert y0.shape == ind0.shape
    y1 = ua.take_along_axis(x, ind1, axis=1)
    assert y1.shape == ind1.shape
    y2 = ua.take_along_axis(x, ind2, axis=2)
    assert y2.shape == ind2.shape


def test_take_along_axis_validation():
    # type check on the first argument
    with pytest.raises(TypeError):
        ua.take_along_axis(tuple(), list())
    get_queue_or_skip()
    n1, n2 = 2, 5
    x = ua.ones(n1 * n2)
    # type check on the second argument
    with pytest.raises(TypeError):
        ua.take_along_axis(x, list())
    x_dev = x.device
    info_ = ua.__array_namespace_info__()
    def_dtypes = info_.default_dtypes(device=x_dev)
    ind_dt = def_dtypes["indexing"]
    ind = ua.zeros(1, dtype=ind_dt)
    # axis validation
    with pytest.raises(ValueError):
        ua.take_along_axis(x, ind, axis=1)
    # mode validation
    with pytest.raises(ValueError):
        ua.take_along_axis(x, ind, axis=0, mode="invalid")
    # same array-ranks validation
    with pytest.raises(ValueError):
        ua.take_along_axis(ua.reshape(x, (n1, n2)), ind)
    # check compute-follows-data
    q2 = ua.Queue(x_dev, property="enable_profiling")
    ind2 = ua.zeros(1, dtype=ind_dt, sycl_queue=q2)
    with pytest.raises(ExecutionPlacementError):
        ua.take_along_axis(x, ind2)


def test_put_along_axis():
    get_queue_or_skip()

    n0, n1, n2 = 3, 5, 7
    x = ua.reshape(ua.arange(n0 * n1 * n2), (n0, n1, n2))
    ind_dt = ua.__array_namespace_info__().default_dtypes(
        device=x.device
    )["indexing"]
    ind0 = ua.ones((1, n1, n2), dtype=ind_dt)
    ind1 = ua.ones((n0, 1, n2), dtype=ind_dt)
    ind2 = ua.ones((n0, n1, 1), dtype=ind_dt)

    xc = ua.copy(x)
    vals = ua.ones(ind0.shape, dtype=x.dtype)
    ua.put_along_axis(xc, ind0, vals, axis=0)
    assert ua.all(ua.take_along_axis(xc, ind0, axis=0) == vals)

    xc = ua.copy(x)
    vals = ua.ones(ind1.shape, dtype=x.dtype)
    ua.put_along_axis(xc, ind1, vals, axis=1)
    assert ua.all(ua.take_along_axis(xc, ind1, axis=1) == vals)

    xc = ua.copy(x)
    vals = ua.ones(ind2.shape, dtype=x.dtype)
    ua.put_along_axis(xc, ind2, vals, axis=2)
    assert ua.all(ua.take_along_axis(xc, ind2, axis=2) == vals)

    xc = ua.copy(x)
    vals = ua.ones(ind2.shape, dtype=x.dtype)
    ua.put_along_axis(xc, ind2, ua.asnumpy(vals), axis=2)
    assert ua.all(ua.take_along_axis(xc, ind2, axis=2) == vals)


def test_put_along_axis_validation():
    # type check on the first argument
    with pytest.raises(TypeError):
        ua.put_along_axis(tuple(), list(), list())
    get_queue_or_skip()
    n1, n2 = 2, 5
    x = ua.ones(n1 * n2)
    # type check on the second argument
    with pytest.raises(TypeError):
        ua.put_along_axis(x, list(), list())
    x_dev = x.device
    info_ = ua.__array_namespace_info__()
    def_dtypes = info_.default_dtypes(device=x_dev)
    ind_dt = def_dtypes["indexing"]
    ind = ua.zeros(1, dtype=ind_dt)
    vals = ua.zeros(1, dtype=x.dtype)
    # axis validation
    with pytest.raises(ValueError):
        ua.put_along_axis(x, ind, vals, axis=1)
    # mode validation
    with pytest.raises(ValueError):
        ua.put_along_axis(x, ind, vals, axis=0, mode="invalid")
    # same array-ranks validation
    with pytest.raises(ValueError):
        ua.put_along_axis(ua.reshape(x, (n1, n2)), ind, vals)
    # check compute-follows-data
    q2 = ua.Queue(x_dev, property="enable_profiling")
    ind2 = ua.zeros(1, dtype=ind_dt, sycl_queue=q2)
    with pytest.raises(ExecutionPlacementError):
        ua.put_along_axis(x, ind2, vals)


def test_put_along_axis_application():
    get_queue_or_skip()
    info_ = ua.__array_namespace_info__()
    def_dtypes = info_.default_dtypes(device=None)
    ind_dt = def_dtypes["indexing"]
    all_perms = ua.asarray(
        [
            [0, 1, 2, 3],
            [0, 2, 1, 3],
            [2, 0, 1, 3],
            [2, 1, 0, 3],
            [1, 0, 2, 3],
            [1, 2, 0, 3],
            [0, 1, 3, 2],
            [0, 2, 3, 1],
            [2, 0, 3, 1],
            [2, 1, 3, 0],
            [1, 0, 3, 2],
            [1, 2, 3, 0],
            [0, 3, 1, 2],
            [0, 3, 2, 1],
            [2, 3, 0, 1],
            [2, 3, 1, 0],
            [1, 3, 0, 2],
            [1, 3, 2, 0],
            [3, 0, 1, 2],
            [3, 0, 2, 1],
            [3, 2, 0, 1],
            [3, 2, 1, 0],
            [3, 1, 0, 2],
            [3, 1, 2, 0],
        ],
        dtype=ind_dt,
    )
    p_mats = ua.zeros((24, 4, 4), dtype=ua.int64)
    vals = ua.ones((24, 4, 1), dtype=p_mats.dtype)
    # form 24 permutation matrices
    ua.put_along_axis(p_mats, all_perms[..., ua.newaxis], vals, axis=2)
    p2 = p_mats @ p_mats
    p4 = p2 @ p2
    p8 = p4 @ p4
    expected = ua.eye(4, dtype=p_mats.dtype)[ua.newaxis, ...]
    assert ua.all(p8 @ p4 == expected)


def check__extract_impl_validation(fn):
    x = ua.ones(10)
    ind = ua.ones(10, dtype="?")
    with pytest.raises(TypeError):
        fn(list(), ind)
    with pytest.raises(TypeError):
        fn(x, list())
    q2 = ua.Queue(x.device, property="enable_profiling")
    ind2 = ua.ones(10, dtype="?", sycl_queue=q2)
    with pytest.raises(ExecutionPlacementError):
        fn(x, ind2)
    with pytest.raises(ValueError):
        fn(x, ind, 1)


def check__nonzero_impl_validation(fn):
    with pytest.raises(TypeError):
        fn(list())


def check__take_multi_index(fn):
    x = ua.ones(10)
    x_dev = x.device
    info_ = ua.__array_namespace_info__()
    def_dtypes = info_.default_dtypes(device=x_dev)
    ind_dt = def_dtypes["indexing"]
    ind = ua.arange(10, dtype=ind_dt)
    with pytest.raises(TypeError):
        fn(list(), tuple(), 1)
    with pytest.raises(ValueError):
        fn(x, (ind,), 0, mode=2)
    with pytest.raises(ValueError):
        fn(x, (None,), 1)
    with pytest.raises(IndexError):
        fn(x, (x,), 1)
    q2 = ua.Queue(x.device, property="enable_profiling")
    ind2 = ua.arange(10, dtype=ind_dt, sycl_queue=q2)
    with pytest.raises(ExecutionPlacementError):
        fn(x, (ind2,), 0)
    m = ua.ones((10, 10))
    ind_1 = ua.arange(10, dtype="i8")
    ind_2 = ua.arange(10, dtype="u8")
    with pytest.raises(ValueError):
        fn(m, (ind_1, ind_2), 0)


def check__place_impl_validation(fn):
    with pytest.raises(TypeError):
        fn(list(), list(), list())
    x = ua.ones(10)
    with pytest.raises(TypeError):
        fn(x, list(), list())
    q2 = ua.Queue(x.device, property="enable_profiling")
    mask2 = ua.ones(10, dtype="?", sycl_queue=q2)
    with pytest.raises(ExecutionPlacementError):
        fn(x, mask2, 1)
    x2 = ua.ones((5, 5))
    mask2 = ua.ones((5, 5), dtype="?")
    with pytest.raises(ValueError):
        fn(x2, mask2, x2, axis=1)


def check__put_multi_index_validation(fn):
    with pytest.raises(TypeError):
        fn(list(), list(), 0, list())
    x = ua.ones(10)
    inds = ua.arange(10, dtype="i8")
    vals = ua.zeros(10)
    # test inds which is not a tuple/list
    fn(x, inds, 0, vals)
    x2 = ua.ones((5, 5))
    ind1 = ua.arange(5, dtype="i8")
    ind2 = ua.arange(5, dtype="u8")
    with pytest.raises(ValueError):
        fn(x2, (ind1, ind2), 0, x2)
    with pytest.raises(TypeError):
        # invalid index type
        fn(x2, (ind1, list()), 0, x2)
    with pytest.raises(ValueError):
        # invalid mode keyword value
        fn(x, inds, 0, vals, mode=100)


@pytest.mark.skip(reason="dpctl-only: dpctl.tensor._copy_utils")
def test__copy_utils():
    cu = DpctlOnly("dpctl.tensor._copy_utils")

    get_queue_or_skip()

    check__extract_impl_validation(cu._extract_impl)
    check__nonzero_impl_validation(cu._nonzero_impl)
    check__take_multi_index(cu._take_multi_index)
    check__place_impl_validation(cu._place_impl)
    check__put_multi_index_validation(cu._put_multi_index)


@pytest.mark.parametrize("mode", ["wrap", "clip"])
def test_take_indices_oob_py_ssize_t(mode):
    get_queue_or_skip()

    x = ua.arange(10, dtype="i4")
    inds1 = ua.full(5, ua.iinfo(ua.uint64).max, dtype=ua.uint64)
    inds2 = ua.full(5, ua.iinfo(ua.uint64).max, dtype=ua.uint64)

    # sweep through a small range of indices
    # to check that OOB indices are well-behaved
    for i in range(1, 10):
        inds2 -= i
        r1 = ua.take(x, inds1, mode=mode)
        r2 = ua.take(x, inds2, mode=mode)

        assert ua.all(r1 == r2)


@pytest.mark.parametrize("mode", ["wrap", "clip"])
def test_put_indices_oob_py_ssize_t(mode):
    get_queue_or_skip()

    x = ua.full(10, -1, dtype="i4")
    inds = ua.full(1, ua.iinfo(ua.uint64).max, dtype=ua.uint64)

    # OOB inds are positive, so always
    # clip to the top of range
    for i in range(1, 10):
        inds -= i
        ua.put(x, inds, i, mode=mode)

        assert ua.all(x[:-1] == -1)
        assert x[-1] == i


def test_take_along_axis_uint64_indices():
    get_queue_or_skip()

    inds = ua.arange(1, 10, 2, dtype="u8")
    x = ua.tile(ua.asarray([0, -1], dtype="i4"), 5)
    res = ua.take_along_axis(x, inds)
    assert ua.all(res == -1)

    sh0 = 2
    inds = ua.broadcast_to(inds, (sh0,) + inds.shape)
    x = ua.broadcast_to(x, (sh0,) + x.shape)
    res = ua.take_along_axis(x, inds, axis=1)
    assert ua.all(res == -1)


def test_put_along_axis_uint64_indices():
    get_queue_or_skip()

    inds = ua.arange(1, 10, 2, dtype="u8")
    x = ua.zeros(10, dtype="i4")
    ua.put_along_axis(x, inds, ua.asarray(2, dtype=x.dtype))
    expected = ua.tile(ua.asarray([0, 2], dtype="i4"), 5)
    assert ua.all(x == expected)

    sh0 = 2
    inds = ua.broadcast_to(inds, (sh0,) + inds.shape)
    x = ua.zeros((sh0,) + x.shape, dtype="i4")
    ua.put_along_axis(x, inds, ua.asarray(2, dtype=x.dtype), axis=1)
    expected = ua.tile(ua.asarray([0, 2], dtype="i4"), (2, 5))
    assert ua.all(expected == x)


@pytest.mark.parametrize("data_dt", _all_dtypes)
@pytest.mark.parametrize("order", ["C", "F"])
def test_take_out(data_dt, order):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(data_dt, q)

    axis = 0
    x = ua.reshape(_make_3d(data_dt, q), (9, 3), order=order)
    ind = ua.arange(2, dtype="i8", sycl_queue=q)
    out_sh = x.shape[:axis] + ind.shape + x.shape[axis + 1 :]
    out = ua.empty(out_sh, dtype=data_dt, sycl_queue=q)

    expected = ua.take(x, ind, axis=axis)

    ua.take(x, ind, axis=axis, out=out)

    assert ua.all(out == expected)


@pytest.mark.parametrize("data_dt", _all_dtypes)
@pytest.mark.parametrize("order", ["C", "F"])
def test_take_out_overlap(data_dt, order):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(data_dt, q)

    axis = 0
    x = ua.reshape(_make_3d(data_dt, q), (9, 3), order=order)
    ind = ua.arange(2, dtype="i8", sycl_queue=q)
    out = x[x.shape[axis] - ind.shape[axis] : x.shape[axis], :]

    expected = ua.take(x, ind, axis=axis)

    ua.take(x, ind, axis=axis, out=out)

    assert ua.all(out == expected)
    assert ua.all(x[x.shape[0] - ind.shape[0] : x.shape[0], :] == out)


def test_take_out_errors():
    q1 = get_queue_or_skip()
    q2 = get_queue_or_skip()

    x = ua.arange(10, dtype="i4", sycl_queue=q1)
    ind = ua.arange(2, dtype="i4", sycl_queue=q1)

    with pytest.raises(TypeError):
        ua.take(x, ind, out=dict())

    out_read_only = ua.empty(ind.shape, dtype=x.dtype, sycl_queue=q1)
    out_read_only.flags["W"] = False
    with pytest.raises(ValueError):
        ua.take(x, ind, out=out_read_only)

    out_bad_shape = ua.empty(0, dtype=x.dtype, sycl_queue=q1)
    with pytest.raises(ValueError):
        ua.take(x, ind, out=out_bad_shape)

    out_bad_dt = ua.empty(ind.shape, dtype="i8", sycl_queue=q1)
    with pytest.raises(ValueError):
        ua.take(x, ind, out=out_bad_dt)

    out_bad_q = ua.empty(ind.shape, dtype=x.dtype, sycl_queue=q2)
    with pytest.raises(ExecutionPlacementError):
        ua.take(x, ind, out=out_bad_q)


@pytest.mark.skip(reason="dpctl-only: dpctl.tensor._copy_utils._take_multi_index")
def test_getitem_impl_fn_invalid_inp():
    get_queue_or_skip()

    x = ua.ones((10, 10), dtype="i4")

    bad_ind_type = (ua.ones((), dtype="i4"), 2.0)
    with pytest.raises(TypeError):
        _take_multi_index(x, bad_ind_type, 0, 0)

    no_array_inds = (2, 3)
    with pytest.raises(TypeError):
        _take_multi_index(x, no_array_inds, 0, 0)
