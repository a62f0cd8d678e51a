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
# Translated from dpctl 0.21.1, dpctl/tests/elementwise/test_remainder.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

from dpctl_helpers import get_coerced_usm_type, allclose

import ctypes

import numpy as np
import pytest

import usmarray as ua
from dpctl_helpers import _can_cast
from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported

from dpctl_helpers import _compare_dtypes, _no_complex_dtypes, _usm_types


@pytest.mark.parametrize("op1_dtype", _no_complex_dtypes)
@pytest.mark.parametrize("op2_dtype", _no_complex_dtypes)
def test_remainder_dtype_matrix(op1_dtype, op2_dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(op1_dtype, q)
    skip_if_dtype_not_supported(op2_dtype, q)

    sz = 127
    ar1 = ua.ones(sz, dtype=op1_dtype)
    ar2 = ua.ones_like(ar1, dtype=op2_dtype)

    r = ua.remainder(ar1, ar2)
    assert isinstance(r, ua.USMArray)
    expected = np.remainder(
        np.ones(1, dtype=op1_dtype), np.ones(1, dtype=op2_dtype)
    )
    assert _compare_dtypes(r.dtype, expected.dtype, sycl_queue=q)
    assert r.shape == ar1.shape
    assert (ua.asnumpy(r) == expected.astype(r.dtype)).all()
    assert r.queue == ar1.queue

    ar3 = ua.ones(sz, dtype=op1_dtype)
    ar4 = ua.ones(2 * sz, dtype=op2_dtype)

    r = ua.remainder(ar3[::-1], ar4[::2])
    assert isinstance(r, ua.USMArray)
    expected = np.remainder(
        np.ones(1, dtype=op1_dtype), np.ones(1, dtype=op2_dtype)
    )
    assert _compare_dtypes(r.dtype, expected.dtype, sycl_queue=q)
    assert r.shape == ar3.shape
    assert (ua.asnumpy(r) == expected.astype(r.dtype)).all()


@pytest.mark.parametrize("op1_usm_type", _usm_types)
@pytest.mark.parametrize("op2_usm_type", _usm_types)
def test_remainder_usm_type_matrix(op1_usm_type, op2_usm_type):
    get_queue_or_skip()

    sz = 128
    ar1 = ua.ones(sz, dtype="i4", usm_type=op1_usm_type)
    ar2 = ua.ones_like(ar1, dtype="i4", usm_type=op2_usm_type)

    r = ua.remainder(ar1, ar2)
    assert isinstance(r, ua.USMArray)
    expected_usm_type = get_coerced_usm_type(
        (op1_usm_type, op2_usm_type)
    )
    assert r.usm_type == expected_usm_type


def test_remainder_order():
    get_queue_or_skip()

    ar1 = ua.ones((20, 20), dtype="i4", order="C")
    ar2 = ua.ones((20, 20), dtype="i4", order="C")
    r1 = ua.remainder(ar1, ar2, order="C")
    assert r1.flags.c_contiguous
    r2 = ua.remainder(ar1, ar2, order="F")
    assert r2.flags.f_contiguous
    r3 = ua.remainder(ar1, ar2, order="A")
    assert r3.flags.c_contiguous
    r4 = ua.remainder(ar1, ar2, order="K")
    assert r4.flags.c_contiguous

    ar1 = ua.ones((20, 20), dtype="i4", order="F")
    ar2 = ua.ones((20, 20), dtype="i4", order="F")
    r1 = ua.remainder(ar1, ar2, order="C")
    assert r1.flags.c_contiguous
    r2 = ua.remainder(ar1, ar2, order="F")
    assert r2.flags.f_contiguous
    r3 = ua.remainder(ar1, ar2, order="A")
    assert r3.flags.f_contiguous
    r4 = ua.remainder(ar1, ar2, order="K")
    assert r4.flags.f_contiguous

    ar1 = ua.ones((40, 40), dtype="i4", order="C")[:20, ::-2]
    ar2 = ua.ones((40, 40), dtype="i4", order="C")[:20, ::-2]
    r4 = ua.remainder(ar1, ar2, order="K")
    assert r4.strides == (20, -1)

    ar1 = ua.ones((40, 40), dtype="i4", order="C")[:20, ::-2].mT
    ar2 = ua.ones((40, 40), dtype="i4", order="C")[:20, ::-2].mT
    r4 = ua.remainder(ar1, ar2, order="K")
    assert r4.strides == (-1, 20)


@pytest.mark.parametrize("dt", _no_complex_dtypes[1:8:2])
def test_remainder_negative_integers(dt):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dt, q)

    x = ua.arange(-5, -1, 1, dtype=dt, sycl_queue=q)
    x_np = np.arange(-5, -1, 1, dtype=dt)
    val = 3

    r1 = ua.remainder(x, val)
    expected = np.remainder(x_np, val)
    assert (ua.asnumpy(r1) == expected).all()

    r2 = ua.remainder(val, x)
    expected = np.remainder(val, x_np)
    assert (ua.asnumpy(r2) == expected).all()


def test_remainder_integer_zero():
    get_queue_or_skip()

    for dt in ["i4", "u4"]:
        x = ua.ones(1, dtype=dt)
        y = ua.zeros_like(x)

        assert (ua.asnumpy(ua.remainder(x, y)) == np.zeros(1, dtype=dt)).all()

        x = ua.astype(x, dt)
        y = ua.zeros_like(x)

        assert (ua.asnumpy(ua.remainder(x, y)) == np.zeros(1, dtype=dt)).all()


@pytest.mark.parametrize("dt", _no_complex_dtypes[9:])
def test_remainder_negative_floats(dt):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dt, q)

    x = ua.linspace(-5, 5, 20, dtype=dt, sycl_queue=q)
    x_np = np.linspace(-5, 5, 20, dtype=dt)
    val = 3

    tol = 8 * np.finfo(dt).resolution

    r1 = ua.remainder(x, val)
    expected = np.remainder(x_np, val)
    with np.errstate(invalid="ignore"):
        np.allclose(
            ua.asnumpy(r1), expected, rtol=tol, atol=tol, equal_nan=True
        )

    r2 = ua.remainder(val, x)
    expected = np.remainder(val, x_np)
    with np.errstate(invalid="ignore"):
        np.allclose(
            ua.asnumpy(r2), expected, rtol=tol, atol=tol, equal_nan=True
        )


def test_remainder_special_cases():
    get_queue_or_skip()

    lhs = [ua.nan, ua.inf, 0.0, -0.0, -0.0, 1.0, ua.inf, -ua.inf]
    rhs = [ua.nan, ua.inf, -0.0, 1.0, 1.0, 0.0, 1.0, -1.0]

    x, y = ua.asarray(lhs, dtype="f4"), ua.asarray(rhs, dtype="f4")

    x_np, y_np = np.asarray(lhs, dtype="f4"), np.asarray(rhs, dtype="f4")

    res = ua.remainder(x, y)

    with np.errstate(invalid="ignore"):
        np.allclose(ua.asnumpy(res), np.remainder(x_np, y_np))


@pytest.mark.parametrize("arr_dt", _no_complex_dtypes)
def test_remainder_python_scalar(arr_dt):
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
        R = ua.remainder(X, sc)
        assert isinstance(R, ua.USMArray)
        R = ua.remainder(sc, X)
        assert isinstance(R, ua.USMArray)


@pytest.mark.parametrize("dtype", _no_complex_dtypes[1:])
def test_remainder_inplace_python_scalar(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)
    X = ua.ones((10, 10), dtype=dtype, sycl_queue=q)
    dt_kind = X.dtype.kind
    if dt_kind in "ui":
        X %= int(1)
    elif dt_kind == "f":
        X %= float(1)


@pytest.mark.parametrize("op1_dtype", _no_complex_dtypes[1:])
@pytest.mark.parametrize("op2_dtype", _no_complex_dtypes[1:])
def test_remainder_inplace_dtype_matrix(op1_dtype, op2_dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(op1_dtype, q)
    skip_if_dtype_not_supported(op2_dtype, q)

    sz = 127
    ar1 = ua.ones(sz, dtype=op1_dtype)
    ar2 = ua.ones_like(ar1, dtype=op2_dtype)

    dev = q.device
    _fp16 = dev.has_aspect_fp16
    _fp64 = dev.has_aspect_fp64
    if _can_cast(ar2.dtype, ar1.dtype, _fp16, _fp64, casting="same_kind"):
        ar1 %= ar2
        assert ua.all(ar1 == ua.zeros(ar1.shape, dtype=ar1.dtype))

        ar3 = ua.ones(sz, dtype=op1_dtype)
        ar4 = ua.ones(2 * sz, dtype=op2_dtype)

        ar3[::-1] %= ar4[::2]
        assert ua.all(ar3 == ua.zeros(ar3.shape, dtype=ar3.dtype))

    else:
        with pytest.raises(ValueError):
            ar1 %= ar2


def test_remainder_inplace_basic():
    get_queue_or_skip()

    x = ua.arange(10, dtype="i4")
    expected = x & 1
    x %= 2

    assert ua.all(x == expected)
