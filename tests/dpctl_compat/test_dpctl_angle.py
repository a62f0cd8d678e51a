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
# Translated from dpctl 0.21.1, dpctl/tests/elementwise/test_angle.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

from dpctl_helpers import allclose

import itertools

import numpy as np
import pytest

import usmarray as ua
from dpctl_helpers import _can_cast
from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported

from dpctl_helpers import _all_dtypes, _complex_fp_dtypes, _no_complex_dtypes


@pytest.mark.parametrize("dtype", _all_dtypes)
def test_angle_out_type(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    x = ua.asarray(1, dtype=dtype, sycl_queue=q)
    dt = np.dtype(dtype)
    dev = q.device
    _fp16 = dev.has_aspect_fp16
    _fp64 = dev.has_aspect_fp64
    if _can_cast(dt, ua.complex64, _fp16, _fp64):
        assert ua.angle(x).dtype == ua.float32
    else:
        assert ua.angle(x).dtype == ua.float64


@pytest.mark.parametrize("dtype", _no_complex_dtypes[1:])
def test_angle_real(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    x = ua.arange(10, dtype=dtype, sycl_queue=q)
    r = ua.angle(x)

    assert ua.all(r == 0)


@pytest.mark.parametrize("dtype", _complex_fp_dtypes)
def test_angle_complex(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    tol = 8 * np.finfo(dtype).resolution
    vals = ua.pi * ua.arange(10, dtype=ua.finfo(dtype).dtype, sycl_queue=q)

    x = ua.zeros(10, dtype=dtype, sycl_queue=q)

    x.imag[...] = vals
    r = ua.angle(x)
    expected = ua.atan2(x.imag, x.real)
    assert allclose(r, expected, atol=tol, rtol=tol)

    x.real[...] += ua.pi
    r = ua.angle(x)
    expected = ua.atan2(x.imag, x.real)
    assert allclose(r, expected, atol=tol, rtol=tol)


@pytest.mark.parametrize("dtype", ["c8", "c16"])
def test_angle_special_cases(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    vals = [np.nan, -np.nan, np.inf, -np.inf, +0.0, -0.0]
    vals = [complex(*val) for val in itertools.product(vals, repeat=2)]

    x = ua.asarray(vals, dtype=dtype, sycl_queue=q)

    r = ua.angle(x)
    expected = ua.atan2(x.imag, x.real)

    tol = 8 * np.finfo(dtype).resolution

    assert allclose(r, expected, atol=tol, rtol=tol, equal_nan=True)
