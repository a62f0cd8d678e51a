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
# Translated from dpctl 0.21.1, dpctl/tests/elementwise/test_copysign.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

from dpctl_helpers import allclose

import ctypes

import numpy as np
import pytest

import usmarray as ua
from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported

from dpctl_helpers import _compare_dtypes, _no_complex_dtypes, _real_fp_dtypes


@pytest.mark.parametrize("op1_dtype", _no_complex_dtypes)
@pytest.mark.parametrize("op2_dtype", _no_complex_dtypes)
def test_copysign_dtype_matrix(op1_dtype, op2_dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(op1_dtype, q)
    skip_if_dtype_not_supported(op2_dtype, q)

    sz = 127
    ar1 = ua.ones(sz, dtype=op1_dtype)
    ar2 = ua.ones_like(ar1, dtype=op2_dtype)

    r = ua.copysign(ar1, ar2)
    assert isinstance(r, ua.USMArray)
    expected = np.copysign(
        np.ones(1, dtype=op1_dtype), np.ones(1, dtype=op2_dtype)
    )
    assert _compare_dtypes(r.dtype, expected.dtype, sycl_queue=q)
    assert r.shape == ar1.shape
    assert (ua.asnumpy(r) == expected.astype(r.dtype)).all()
    assert r.queue == ar1.queue

    ar3 = ua.ones(sz, dtype=op1_dtype)
    ar4 = ua.ones(2 * sz, dtype=op2_dtype)

    r = ua.copysign(ar3[::-1], ar4[::2])
    assert isinstance(r, ua.USMArray)
    expected = np.copysign(
        np.ones(1, dtype=op1_dtype), np.ones(1, dtype=op2_dtype)
    )
    assert _compare_dtypes(r.dtype, expected.dtype, sycl_queue=q)
    assert r.shape == ar3.shape
    assert (ua.asnumpy(r) == expected.astype(r.dtype)).all()


@pytest.mark.parametrize("arr_dt", _real_fp_dtypes)
def test_copysign_python_scalar(arr_dt):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(arr_dt, q)

    X = ua.ones((10, 10), dtype=arr_dt, sycl_queue=q)
    py_ones = (
        bool(1),
        int(1),
        float(1),
        np.float32(1),
        ctypes.c_int(1),
    )
    for sc in py_ones:
        R = ua.copysign(X, sc)
        assert isinstance(R, ua.USMArray)
        R = ua.copysign(sc, X)
        assert isinstance(R, ua.USMArray)


@pytest.mark.parametrize("dt", _real_fp_dtypes)
def test_copysign(dt):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dt, q)

    x = ua.arange(100, dtype=dt, sycl_queue=q)
    x[1::2] *= -1
    y = ua.ones(100, dtype=dt, sycl_queue=q)
    y[::2] *= -1
    res = ua.copysign(x, y)
    expected = ua.negative(x)
    tol = np.finfo(dt).resolution
    assert allclose(res, expected, atol=tol, rtol=tol)


def test_copysign_special_values():
    get_queue_or_skip()

    x1 = ua.asarray([1.0, 0.0, ua.nan, ua.nan], dtype="f4")
    y1 = ua.asarray([-1.0, -0.0, -ua.nan, -1], dtype="f4")
    res = ua.copysign(x1, y1)
    assert ua.all(ua.signbit(res))
    x2 = ua.asarray([-1.0, -0.0, -ua.nan, -ua.nan], dtype="f4")
    res = ua.copysign(x2, y1)
    assert ua.all(ua.signbit(res))
    y2 = ua.asarray([0.0, 1.0, ua.nan, 1.0], dtype="f4")
    res = ua.copysign(x2, y2)
    assert not ua.any(ua.signbit(res))
    res = ua.copysign(x1, y2)
    assert not ua.any(ua.signbit(res))
