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
# Translated from dpctl 0.21.1, dpctl/tests/elementwise/test_nextafter.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

from dpctl_helpers import DpctlOnly
dpctl = DpctlOnly("dpctl")

import ctypes

import numpy as np
import pytest

import usmarray as ua
from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported

from dpctl_helpers import _compare_dtypes, _no_complex_dtypes


@pytest.mark.parametrize("op1_dtype", _no_complex_dtypes[1:])
@pytest.mark.parametrize("op2_dtype", _no_complex_dtypes[1:])
def test_nextafter_dtype_matrix(op1_dtype, op2_dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(op1_dtype, q)
    skip_if_dtype_not_supported(op2_dtype, q)

    sz = 127
    ar1 = ua.ones(sz, dtype=op1_dtype, sycl_queue=q)
    ar2 = ua.ones_like(ar1, dtype=op2_dtype, sycl_queue=q)

    r = ua.nextafter(ar1, ar2)
    assert isinstance(r, ua.USMArray)
    expected = np.nextafter(
        np.ones(sz, dtype=op1_dtype), np.ones(sz, dtype=op2_dtype)
    )
    assert _compare_dtypes(r.dtype, expected.dtype, sycl_queue=q)
    assert r.shape == ar1.shape
    assert (ua.asnumpy(r) == expected.astype(r.dtype)).all()
    assert r.queue == ar1.queue

    ar3 = ua.ones(sz, dtype=op1_dtype, sycl_queue=q)
    ar4 = ua.ones(2 * sz, dtype=op2_dtype, sycl_queue=q)

    r = ua.nextafter(ar3[::-1], ar4[::2])
    assert isinstance(r, ua.USMArray)
    expected = np.nextafter(
        np.ones(sz, dtype=op1_dtype), np.ones(sz, dtype=op2_dtype)
    )
    assert _compare_dtypes(r.dtype, expected.dtype, sycl_queue=q)
    assert r.shape == ar3.shape
    assert (ua.asnumpy(r) == expected.astype(r.dtype)).all()


@pytest.mark.parametrize("arr_dt", _no_complex_dtypes[1:])
def test_nextafter_python_scalar(arr_dt):
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
        R = ua.nextafter(X, sc)
        assert isinstance(R, ua.USMArray)
        R = ua.nextafter(sc, X)
        assert isinstance(R, ua.USMArray)


@pytest.mark.parametrize("dt", ["f2", "f4", "f8"])
def test_nextafter_special_cases_nan(dt):
    """If either x1_i or x2_i is NaN, the result is NaN."""
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dt, q)

    x1 = ua.asarray([2.0, ua.nan, ua.nan], dtype=dt)
    x2 = ua.asarray([ua.nan, 2.0, ua.nan], dtype=dt)

    y = ua.nextafter(x1, x2)
    assert ua.all(ua.isnan(y))


@pytest.mark.skip(reason="dpctl-only: dpctl")
@pytest.mark.parametrize("dt", ["f2", "f4", "f8"])
def test_nextafter_special_cases_zero(dt):
    """If x1_i is equal to x2_i, the result is x2_i."""
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dt, q)

    x1 = ua.asarray([-0.0, 0.0, -0.0, 0.0], dtype=dt)
    x2 = ua.asarray([0.0, -0.0, -0.0, 0.0], dtype=dt)

    y = ua.nextafter(x1, x2)
    assert ua.all(y == 0)

    skip_checking_signs = (
        x1.dtype == ua.float16
        and x1.device.backend == dpctl.backend_type.cuda
    )
    if skip_checking_signs:
        pytest.skip(
            "Skipped checking signs for nextafter due to "
            "known issue in DPC++ support for CUDA devices"
        )
    else:
        assert ua.all(ua.signbit(y) == ua.signbit(x2))


@pytest.mark.parametrize("dt", ["f2", "f4", "f8"])
def test_nextafter_basic(dt):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dt, q)

    s = 10
    x1 = ua.ones(s, dtype=dt, sycl_queue=q)
    x2 = ua.full(s, 2, dtype=dt, sycl_queue=q)

    r = ua.nextafter(x1, x2)
    expected_diff = ua.asarray(ua.finfo(dt).eps, dtype=dt, sycl_queue=q)

    assert ua.all(r > 0)
    assert ua.all(r - x1 == expected_diff)

    x3 = ua.zeros(s, dtype=dt, sycl_queue=q)

    r = ua.nextafter(x3, x1)
    assert ua.all(r > 0)

    r = ua.nextafter(x1, x3)
    assert ua.all((r - x1) < 0)

    r = ua.nextafter(x1, 0)
    assert ua.all(x1 - r == (expected_diff) / 2)

    r = ua.nextafter(x3, ua.inf)
    assert ua.all(r > 0)

    r = ua.nextafter(x3, -ua.inf)
    assert ua.all(r < 0)
