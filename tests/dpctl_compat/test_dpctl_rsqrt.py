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
# Translated from dpctl 0.21.1, dpctl/tests/elementwise/test_rsqrt.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

from dpctl_helpers import allclose

import numpy as np
import pytest
from numpy.testing import assert_allclose

import usmarray as ua
from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported

from dpctl_helpers import _map_to_device_dtype, _no_complex_dtypes, _real_fp_dtypes


@pytest.mark.parametrize("dtype", _no_complex_dtypes)
def test_rsqrt_out_type(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    x = ua.asarray(1, dtype=dtype, sycl_queue=q)
    expected_dtype = np.reciprocal(np.sqrt(np.array(1, dtype=dtype))).dtype
    expected_dtype = _map_to_device_dtype(expected_dtype, q.device)
    assert ua.rsqrt(x).dtype == expected_dtype


@pytest.mark.parametrize("dtype", _real_fp_dtypes)
def test_rsqrt_output_contig(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    n_seq = 1027

    x = ua.linspace(1, 13, num=n_seq, dtype=dtype, sycl_queue=q)
    res = ua.rsqrt(x)
    expected = np.reciprocal(np.sqrt(ua.asnumpy(x), dtype=dtype))
    tol = 8 * np.finfo(res.dtype).resolution
    assert_allclose(ua.asnumpy(res), expected, atol=tol, rtol=tol)


@pytest.mark.parametrize("dtype", _real_fp_dtypes)
def test_rsqrt_output_strided(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    n_seq = 2054

    x = ua.linspace(1, 13, num=n_seq, dtype=dtype, sycl_queue=q)[::-2]
    res = ua.rsqrt(x)
    expected = np.reciprocal(np.sqrt(ua.asnumpy(x), dtype=dtype))
    tol = 8 * np.finfo(res.dtype).resolution
    assert_allclose(ua.asnumpy(res), expected, atol=tol, rtol=tol)


def test_rsqrt_special_cases():
    get_queue_or_skip()

    x = ua.asarray([ua.nan, -1.0, 0.0, -0.0, ua.inf, -ua.inf], dtype="f4")
    res = ua.rsqrt(x)
    expected = ua.asarray(
        [ua.nan, ua.nan, ua.inf, -ua.inf, 0.0, ua.nan], dtype="f4"
    )
    assert allclose(res, expected, equal_nan=True)
