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
# Translated from dpctl 0.21.1, dpctl/tests/test_tensor_isin.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

from dpctl_helpers import ExecutionPlacementError

import ctypes

import numpy as np
import pytest

import usmarray as ua
from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported
from dpctl_helpers import ExecutionPlacementError

_numeric_dtypes = [
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

_all_dtypes = ["?"] + _numeric_dtypes


@pytest.mark.parametrize("dtype", _numeric_dtypes)
def test_isin_basic(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    n = 100
    x = ua.arange(n, dtype=dtype, sycl_queue=q)
    test = ua.arange(n - 1, dtype=dtype, sycl_queue=q)
    r1 = ua.isin(x, test)
    assert ua.all(r1[:-1])
    assert not r1[-1]
    assert r1.shape == x.shape

    # test with invert keyword
    r2 = ua.isin(x, test, invert=True)
    assert not ua.any(r2[:-1])
    assert r2[-1]
    assert r2.shape == x.shape


def test_isin_basic_bool():
    dt = ua.bool
    n = 100
    x = ua.zeros(n, dtype=dt)
    x[-1] = True
    test = ua.zeros((), dtype=dt)
    r1 = ua.isin(x, test)
    assert ua.all(r1[:-1])
    assert not r1[-1]
    assert r1.shape == x.shape

    r2 = ua.isin(x, test, invert=True)
    assert not ua.any(r2[:-1])
    assert r2[-1]
    assert r2.shape == x.shape


@pytest.mark.parametrize(
    "dtype",
    [
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
    ],
)
def test_isin_strided(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    n, m = 100, 20
    x = ua.zeros((n, m), dtype=dtype, order="F", sycl_queue=q)
    x[:, ::2] = ua.arange(1, (m / 2) + 1, dtype=dtype, sycl_queue=q)
    x_s = x[:, ::2]
    test = ua.arange(1, (m / 2), dtype=dtype, sycl_queue=q)
    r1 = ua.isin(x_s, test)
    assert ua.all(r1[:, :-1])
    assert not ua.any(r1[:, -1])
    assert not ua.any(x[:, 1::2])
    assert r1.shape == x_s.shape
    assert r1.flags.c_contiguous

    # test with invert keyword
    r2 = ua.isin(x_s, test, invert=True)
    assert not ua.any(r2[:, :-1])
    assert ua.all(r2[:, -1])
    assert not ua.any(x[:, 1:2])
    assert r2.shape == x_s.shape
    assert r2.flags.c_contiguous


def test_isin_strided_bool():
    dt = ua.bool

    n, m = 100, 20
    x = ua.zeros((n, m), dtype=dt, order="F")
    x[:, :-2:2] = True
    x_s = x[:, ::2]
    test = ua.ones((), dtype=dt)
    r1 = ua.isin(x_s, test)
    assert ua.all(r1[:, :-1])
    assert not ua.any(r1[:, -1])
    assert not ua.any(x[:, 1::2])
    assert r1.shape == x_s.shape
    assert r1.flags.c_contiguous

    # test with invert keyword
    r2 = ua.isin(x_s, test, invert=True)
    assert not ua.any(r2[:, :-1])
    assert ua.all(r2[:, -1])
    assert not ua.any(x[:, 1:2])
    assert r2.shape == x_s.shape
    assert r2.flags.c_contiguous


@pytest.mark.parametrize("dt1", _numeric_dtypes)
@pytest.mark.parametrize("dt2", _numeric_dtypes)
def test_isin_dtype_matrix(dt1, dt2):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dt1, q)
    skip_if_dtype_not_supported(dt2, q)

    sz = 10
    x = ua.asarray([0, 1, 11], dtype=dt1, sycl_queue=q)
    test1 = ua.arange(sz, dtype=dt2, sycl_queue=q)

    r1 = ua.isin(x, test1)
    assert isinstance(r1, ua.USMArray)
    assert r1.dtype == ua.bool
    assert r1.shape == x.shape
    assert not r1[-1]
    assert ua.all(r1[0:-1])
    assert r1.queue == x.queue

    test2 = ua.tile(ua.asarray([[0, 1]], dtype=dt2, sycl_queue=q).mT, 2)
    r2 = ua.isin(x, test2)
    assert isinstance(r2, ua.USMArray)
    assert r2.dtype == ua.bool
    assert r2.shape == x.shape
    assert not r2[-1]
    assert ua.all(r1[0:-1])
    assert r2.queue == x.queue


def test_isin_empty_inputs():
    get_queue_or_skip()

    x = ua.ones((10, 0, 1), dtype="i4")
    test = ua.ones((), dtype="i4")
    res1 = ua.isin(x, test)
    assert isinstance(res1, ua.USMArray)
    assert res1.size == 0
    assert res1.shape == x.shape
    assert res1.dtype == ua.bool

    res2 = ua.isin(x, test, invert=True)
    assert isinstance(res2, ua.USMArray)
    assert res2.size == 0
    assert res2.shape == x.shape
    assert res2.dtype == ua.bool

    x = ua.ones((3, 3), dtype="i4")
    test = ua.ones(0, dtype="i4")
    res3 = ua.isin(x, test)
    assert isinstance(res3, ua.USMArray)
    assert res3.shape == x.shape
    assert res3.dtype == ua.bool
    assert not ua.all(res3)

    res4 = ua.isin(x, test, invert=True)
    assert isinstance(res4, ua.USMArray)
    assert res4.shape == x.shape
    assert res4.dtype == ua.bool
    assert ua.all(res4)


def test_isin_validation():
    get_queue_or_skip()
    with pytest.raises(ExecutionPlacementError):
        ua.isin(1, 1)
    not_bool = dict()
    with pytest.raises(TypeError):
        ua.isin(ua.ones([1]), ua.ones([1]), invert=not_bool)


def test_isin_special_floating_point_vals():
    get_queue_or_skip()

    # real and complex nans compare false
    x = ua.asarray(ua.nan, dtype="f4")
    test = ua.asarray(ua.nan, dtype="f4")
    assert not ua.isin(x, test)

    x = ua.asarray(ua.nan, dtype="c8")
    test = ua.asarray(ua.nan, dtype="c8")
    assert not ua.isin(x, test)

    # -0.0 compares equal to +0.0
    x = ua.asarray(-0.0, dtype="f4")
    test = ua.asarray(0.0, dtype="f4")
    assert ua.isin(x, test)
    assert ua.isin(test, x)


@pytest.mark.parametrize("dt", _all_dtypes)
def test_isin_py_scalars(dt):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dt, q)

    x = ua.zeros((10, 10), dtype=dt, sycl_queue=q)
    py_zeros = (
        bool(0),
        int(0),
        float(0),
        complex(0),
        np.float32(0),
        ctypes.c_int(0),
    )
    for sc in py_zeros:
        r1 = ua.isin(x, sc)
        assert isinstance(r1, ua.USMArray)
        r2 = ua.isin(sc, x)
        assert isinstance(r2, ua.USMArray)


def test_isin_compute_follows_data():
    q1 = get_queue_or_skip()
    q2 = get_queue_or_skip()

    x = ua.ones(10, sycl_queue=q1)
    test = ua.ones_like(x, sycl_queue=q2)
    with pytest.raises(ExecutionPlacementError):
        ua.isin(x, test)
