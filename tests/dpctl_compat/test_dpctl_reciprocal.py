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
# Translated from dpctl 0.21.1, dpctl/tests/elementwise/test_reciprocal.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

from dpctl_helpers import allclose
import numpy as np

import itertools

import pytest

import usmarray as ua
from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported

from dpctl_helpers import _all_dtypes, _complex_fp_dtypes


@pytest.mark.parametrize("dtype", _all_dtypes)
def test_reciprocal_out_type(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    x = ua.asarray(1, dtype=dtype, sycl_queue=q)
    one = ua.asarray(1, dtype=dtype, sycl_queue=q)
    expected_dtype = ua.divide(one, x).dtype
    assert ua.reciprocal(x).dtype == expected_dtype


@pytest.mark.parametrize("dtype", _all_dtypes)
def test_reciprocal_output_contig(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    n_seq = 1027

    x = ua.linspace(1, 13, num=n_seq, dtype=dtype, sycl_queue=q)
    res = ua.reciprocal(x)
    expected = 1 / x
    tol = 8 * np.finfo(res.dtype).resolution
    assert allclose(res, expected, atol=tol, rtol=tol)


@pytest.mark.parametrize("dtype", _all_dtypes)
def test_reciprocal_output_strided(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    n_seq = 2054

    x = ua.linspace(1, 13, num=n_seq, dtype=dtype, sycl_queue=q)[::-2]
    res = ua.reciprocal(x)
    expected = 1 / x
    tol = 8 * np.finfo(res.dtype).resolution
    assert allclose(res, expected, atol=tol, rtol=tol)


def test_reciprocal_special_cases():
    get_queue_or_skip()

    x = ua.asarray([ua.nan, 0.0, -0.0, ua.inf, -ua.inf], dtype="f4")
    res = ua.reciprocal(x)
    expected = ua.asarray([ua.nan, ua.inf, -ua.inf, 0.0, -0.0], dtype="f4")
    assert allclose(res, expected, equal_nan=True)


@pytest.mark.parametrize("dtype", _complex_fp_dtypes)
def test_reciprocal_complex_special_cases(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    nans_ = [ua.nan, -ua.nan]
    infs_ = [ua.inf, -ua.inf]
    finites_ = [-1.0, -0.0, 0.0, 1.0]
    inps_ = nans_ + infs_ + finites_
    c_ = [complex(*v) for v in itertools.product(inps_, repeat=2)]

    z = ua.asarray(c_, dtype=dtype)
    r = ua.reciprocal(z)

    expected = 1 / z

    tol = np.finfo(r.dtype).resolution

    assert allclose(r, expected, atol=tol, rtol=tol, equal_nan=True)
