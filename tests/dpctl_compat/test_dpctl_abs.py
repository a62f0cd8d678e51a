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
# Translated from dpctl 0.21.1, dpctl/tests/elementwise/test_abs.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

from dpctl_helpers import allclose

import itertools
import warnings

import numpy as np
import pytest

import usmarray as ua
from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported

from dpctl_helpers import _all_dtypes, _complex_fp_dtypes, _real_fp_dtypes, _usm_types


@pytest.mark.parametrize("dtype", _all_dtypes)
def test_abs_out_type(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    arg_dt = np.dtype(dtype)
    X = ua.asarray(0, dtype=arg_dt, sycl_queue=q)
    if np.issubdtype(arg_dt, np.complexfloating):
        type_map = {
            np.dtype("c8"): np.dtype("f4"),
            np.dtype("c16"): np.dtype("f8"),
        }
        assert ua.abs(X).dtype == type_map[arg_dt]

        r = ua.empty_like(X, dtype=type_map[arg_dt])
        ua.abs(X, out=r)
        assert np.allclose(ua.asnumpy(r), ua.asnumpy(ua.abs(X)))
    else:
        assert ua.abs(X).dtype == arg_dt

        r = ua.empty_like(X, dtype=arg_dt)
        ua.abs(X, out=r)
        assert np.allclose(ua.asnumpy(r), ua.asnumpy(ua.abs(X)))


@pytest.mark.parametrize("usm_type", _usm_types)
def test_abs_usm_type(usm_type):
    q = get_queue_or_skip()

    arg_dt = np.dtype("i4")
    input_shape = (10, 10, 10, 10)
    X = ua.empty(input_shape, dtype=arg_dt, usm_type=usm_type, sycl_queue=q)
    X[..., 0::2] = 1
    X[..., 1::2] = 0

    Y = ua.abs(X)
    assert Y.usm_type == X.usm_type
    assert Y.queue == X.queue
    assert Y.flags.c_contiguous

    expected_Y = ua.asnumpy(X)
    assert np.allclose(ua.asnumpy(Y), expected_Y)


def test_abs_types_property():
    get_queue_or_skip()
    types = ua.abs.types
    assert isinstance(types, list)
    assert len(types) > 0
    assert types == ua.abs.types_


@pytest.mark.parametrize("dtype", _all_dtypes[1:])
def test_abs_order(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    arg_dt = np.dtype(dtype)
    exp_dt = np.abs(np.ones(tuple(), dtype=arg_dt)).dtype
    input_shape = (10, 10, 10, 10)
    X = ua.empty(input_shape, dtype=arg_dt, sycl_queue=q)
    X[..., 0::2] = 1
    X[..., 1::2] = 0

    for perms in itertools.permutations(range(4)):
        U = ua.permute_dims(X[:, ::-1, ::-1, :], perms)
        expected_Y = np.ones(U.shape, dtype=exp_dt)
        expected_Y[..., 1::2] = 0
        expected_Y = np.transpose(expected_Y, perms)
        for ord in ["C", "F", "A", "K"]:
            Y = ua.abs(U, order=ord)
            assert np.allclose(ua.asnumpy(Y), expected_Y)


@pytest.mark.parametrize("dtype", ["c8", "c16"])
def test_abs_complex(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    arg_dt = np.dtype(dtype)
    input_shape = (10, 10, 10, 10)
    X = ua.empty(input_shape, dtype=arg_dt, sycl_queue=q)
    Xnp = np.random.standard_normal(
        size=input_shape
    ) + 1j * np.random.standard_normal(size=input_shape)
    Xnp = Xnp.astype(arg_dt)
    X[...] = Xnp

    for ord in ["C", "F", "A", "K"]:
        for perms in itertools.permutations(range(4)):
            U = ua.permute_dims(X[:, ::-1, ::-1, :], perms)
            Y = ua.abs(U, order=ord)
            expected_Y = np.abs(np.transpose(Xnp[:, ::-1, ::-1, :], perms))
            tol = np.finfo(Y.dtype).resolution
            np.testing.assert_allclose(
                ua.asnumpy(Y), expected_Y, atol=tol, rtol=tol
            )


def test_abs_out_overlap():
    get_queue_or_skip()

    X = ua.arange(-3, 3, 1, dtype="i4")
    expected = ua.asarray([3, 2, 1, 0, 1, 2], dtype="i4")
    Y = ua.abs(X, out=X)

    assert Y is X
    assert ua.all(expected == X)

    X = ua.arange(-3, 3, 1, dtype="i4")
    expected = expected[::-1]
    Y = ua.abs(X, out=X[::-1])
    assert Y is not X
    assert ua.all(expected == X)


@pytest.mark.parametrize("dtype", _real_fp_dtypes)
def test_abs_real_fp_special_values(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    nans_ = [ua.nan, -ua.nan]
    infs_ = [ua.inf, -ua.inf]
    finites_ = [-1.0, -0.0, 0.0, 1.0]
    inps_ = nans_ + infs_ + finites_

    x = ua.asarray(inps_, dtype=dtype)
    r = ua.abs(x)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected_np = np.abs(np.asarray(inps_, dtype=dtype))

    expected = ua.asarray(expected_np, dtype=dtype)
    tol = np.finfo(r.dtype).resolution

    assert allclose(r, expected, atol=tol, rtol=tol, equal_nan=True)


@pytest.mark.parametrize("dtype", _complex_fp_dtypes)
def test_abs_complex_fp_special_values(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    nans_ = [ua.nan, -ua.nan]
    infs_ = [ua.inf, -ua.inf]
    finites_ = [-1.0, -0.0, 0.0, 1.0]
    inps_ = nans_ + infs_ + finites_
    c_ = [complex(*v) for v in itertools.product(inps_, repeat=2)]

    z = ua.asarray(c_, dtype=dtype)
    r = ua.abs(z)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected_np = np.abs(np.asarray(c_, dtype=dtype))

    expected = ua.asarray(expected_np, dtype=dtype)
    tol = np.finfo(r.dtype).resolution

    assert allclose(r, expected, atol=tol, rtol=tol, equal_nan=True)


@pytest.mark.parametrize("dtype", _all_dtypes)
def test_abs_alignment(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    x = ua.ones(512, dtype=dtype)
    r = ua.abs(x)

    r2 = ua.abs(x[1:])
    assert np.allclose(ua.asnumpy(r[1:]), ua.asnumpy(r2))

    ua.abs(x[:-1], out=r[1:])
    assert np.allclose(ua.asnumpy(r[1:]), ua.asnumpy(r2))
