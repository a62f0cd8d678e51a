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
# Translated from dpctl 0.21.1, dpctl/tests/elementwise/test_expm1.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

import itertools

import numpy as np
import pytest
from numpy.testing import assert_allclose

import usmarray as ua
from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported

from dpctl_helpers import _all_dtypes, _map_to_device_dtype, _usm_types


@pytest.mark.parametrize("dtype", _all_dtypes)
def test_expm1_out_type(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    X = ua.asarray(0, dtype=dtype, sycl_queue=q)
    expected_dtype = np.expm1(np.array(0, dtype=dtype)).dtype
    expected_dtype = _map_to_device_dtype(expected_dtype, q.device)
    assert ua.expm1(X).dtype == expected_dtype


@pytest.mark.parametrize("dtype", ["f2", "f4", "f8", "c8", "c16"])
def test_expm1_output_contig(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    n_seq = 1027

    X = ua.linspace(-2, 2, num=n_seq, dtype=dtype, sycl_queue=q)
    Xnp = ua.asnumpy(X)

    Y = ua.expm1(X)
    tol = 8 * np.finfo(Y.dtype).resolution

    assert_allclose(ua.asnumpy(Y), np.expm1(Xnp), atol=tol, rtol=tol)


@pytest.mark.parametrize("dtype", ["f2", "f4", "f8", "c8", "c16"])
def test_expm1_output_strided(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    n_seq = 2 * 1027

    X = ua.linspace(-2, 2, num=n_seq, dtype=dtype, sycl_queue=q)[::-2]
    Xnp = ua.asnumpy(X)

    Y = ua.expm1(X)
    tol = 8 * np.finfo(Y.dtype).resolution

    assert_allclose(ua.asnumpy(Y), np.expm1(Xnp), atol=tol, rtol=tol)


@pytest.mark.parametrize("usm_type", _usm_types)
def test_expm1_usm_type(usm_type):
    q = get_queue_or_skip()

    arg_dt = np.dtype("f4")
    input_shape = (10, 10, 10, 10)
    X = ua.empty(input_shape, dtype=arg_dt, usm_type=usm_type, sycl_queue=q)
    X[..., 0::2] = 1 / 50
    X[..., 1::2] = 1 / 25

    Y = ua.expm1(X)
    assert Y.usm_type == X.usm_type
    assert Y.queue == X.queue
    assert Y.flags.c_contiguous

    expected_Y = np.empty(input_shape, dtype=arg_dt)
    expected_Y[..., 0::2] = np.expm1(np.float32(1 / 50))
    expected_Y[..., 1::2] = np.expm1(np.float32(1 / 25))
    tol = 8 * np.finfo(Y.dtype).resolution

    assert_allclose(ua.asnumpy(Y), expected_Y, atol=tol, rtol=tol)


@pytest.mark.parametrize("dtype", _all_dtypes)
def test_expm1_order(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    arg_dt = np.dtype(dtype)
    input_shape = (10, 10, 10, 10)
    X = ua.empty(input_shape, dtype=arg_dt, sycl_queue=q)
    X[..., 0::2] = 1 / 50
    X[..., 1::2] = 1 / 25

    for perms in itertools.permutations(range(4)):
        U = ua.permute_dims(X[:, ::-1, ::-1, :], perms)
        expected_Y = np.expm1(ua.asnumpy(U))
        for ord in ["C", "F", "A", "K"]:
            Y = ua.expm1(U, order=ord)
            tol = 8 * max(
                np.finfo(Y.dtype).resolution,
                np.finfo(expected_Y.dtype).resolution,
            )
            assert_allclose(ua.asnumpy(Y), expected_Y, atol=tol, rtol=tol)


def test_expm1_special_cases():
    get_queue_or_skip()

    X = ua.asarray([ua.nan, 0.0, -0.0, ua.inf, -ua.inf], dtype="f4")
    res = np.asarray([np.nan, 0.0, -0.0, np.inf, -1.0], dtype="f4")

    tol = np.finfo(X.dtype).resolution
    assert_allclose(ua.asnumpy(ua.expm1(X)), res, atol=tol, rtol=tol)

    # special cases for complex variant
    num_finite = 1.0
    vals = [
        complex(0.0, 0.0),
        complex(num_finite, ua.inf),
        complex(num_finite, ua.nan),
        complex(ua.inf, 0.0),
        complex(-ua.inf, num_finite),
        complex(ua.inf, num_finite),
        complex(-ua.inf, ua.inf),
        complex(ua.inf, ua.inf),
        complex(-ua.inf, ua.nan),
        complex(ua.inf, ua.nan),
        complex(ua.nan, 0.0),
        complex(ua.nan, num_finite),
        complex(ua.nan, ua.nan),
    ]
    X = ua.asarray(vals, dtype=ua.complex64)
    cis_1 = complex(np.cos(num_finite), np.sin(num_finite))
    c_nan = complex(np.nan, np.nan)
    res = np.asarray(
        [
            complex(0.0, 0.0),
            c_nan,
            c_nan,
            complex(np.inf, 0.0),
            0.0 * cis_1 - 1.0,
            np.inf * cis_1 - 1.0,
            complex(-1.0, 0.0),
            complex(np.inf, np.nan),
            complex(-1.0, 0.0),
            complex(np.inf, np.nan),
            complex(np.nan, 0.0),
            c_nan,
            c_nan,
        ],
        dtype=np.complex64,
    )

    tol = np.finfo(X.dtype).resolution
    with np.errstate(invalid="ignore"):
        assert_allclose(ua.asnumpy(ua.expm1(X)), res, atol=tol, rtol=tol)
