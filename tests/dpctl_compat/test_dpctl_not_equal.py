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
# Translated from dpctl 0.21.1, dpctl/tests/elementwise/test_not_equal.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

from dpctl_helpers import get_coerced_usm_type

import ctypes

import numpy as np
import pytest

import usmarray as ua
from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported

from dpctl_helpers import _all_dtypes, _compare_dtypes, _usm_types


@pytest.mark.parametrize("op1_dtype", _all_dtypes)
@pytest.mark.parametrize("op2_dtype", _all_dtypes)
def test_not_equal_dtype_matrix(op1_dtype, op2_dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(op1_dtype, q)
    skip_if_dtype_not_supported(op2_dtype, q)

    sz = 127
    ar1 = ua.ones(sz, dtype=op1_dtype)
    ar2 = ua.ones_like(ar1, dtype=op2_dtype)

    r = ua.not_equal(ar1, ar2)
    assert isinstance(r, ua.USMArray)
    expected_dtype = np.not_equal(
        np.zeros(1, dtype=op1_dtype), np.zeros(1, dtype=op2_dtype)
    ).dtype
    assert _compare_dtypes(r.dtype, expected_dtype, sycl_queue=q)
    assert r.shape == ar1.shape
    assert (ua.asnumpy(r) == np.full(r.shape, False, dtype=r.dtype)).all()
    assert r.queue == ar1.queue

    ar3 = ua.ones(sz, dtype=op1_dtype)
    ar4 = ua.ones(2 * sz, dtype=op2_dtype)

    r = ua.not_equal(ar3[::-1], ar4[::2])
    assert isinstance(r, ua.USMArray)
    expected_dtype = np.not_equal(
        np.ones(1, dtype=op1_dtype), np.ones(1, dtype=op2_dtype)
    ).dtype
    assert _compare_dtypes(r.dtype, expected_dtype, sycl_queue=q)
    assert r.shape == ar3.shape
    assert (ua.asnumpy(r) == np.full(r.shape, False, dtype=r.dtype)).all()


@pytest.mark.parametrize("op1_usm_type", _usm_types)
@pytest.mark.parametrize("op2_usm_type", _usm_types)
def test_not_equal_usm_type_matrix(op1_usm_type, op2_usm_type):
    get_queue_or_skip()

    sz = 128
    ar1 = ua.ones(sz, dtype="i4", usm_type=op1_usm_type)
    ar2 = ua.ones_like(ar1, dtype="i4", usm_type=op2_usm_type)

    r = ua.not_equal(ar1, ar2)
    assert isinstance(r, ua.USMArray)
    expected_usm_type = get_coerced_usm_type(
        (op1_usm_type, op2_usm_type)
    )
    assert r.usm_type == expected_usm_type


def test_not_equal_order():
    get_queue_or_skip()

    ar1 = ua.ones((20, 20), dtype="i4", order="C")
    ar2 = ua.ones((20, 20), dtype="i4", order="C")
    r1 = ua.not_equal(ar1, ar2, order="C")
    assert r1.flags.c_contiguous
    r2 = ua.not_equal(ar1, ar2, order="F")
    assert r2.flags.f_contiguous
    r3 = ua.not_equal(ar1, ar2, order="A")
    assert r3.flags.c_contiguous
    r4 = ua.not_equal(ar1, ar2, order="K")
    assert r4.flags.c_contiguous

    ar1 = ua.ones((20, 20), dtype="i4", order="F")
    ar2 = ua.ones((20, 20), dtype="i4", order="F")
    r1 = ua.not_equal(ar1, ar2, order="C")
    assert r1.flags.c_contiguous
    r2 = ua.not_equal(ar1, ar2, order="F")
    assert r2.flags.f_contiguous
    r3 = ua.not_equal(ar1, ar2, order="A")
    assert r3.flags.f_contiguous
    r4 = ua.not_equal(ar1, ar2, order="K")
    assert r4.flags.f_contiguous

    ar1 = ua.ones((40, 40), dtype="i4", order="C")[:20, ::-2]
    ar2 = ua.ones((40, 40), dtype="i4", order="C")[:20, ::-2]
    r4 = ua.not_equal(ar1, ar2, order="K")
    assert r4.strides == (20, -1)

    ar1 = ua.ones((40, 40), dtype="i4", order="C")[:20, ::-2].mT
    ar2 = ua.ones((40, 40), dtype="i4", order="C")[:20, ::-2].mT
    r4 = ua.not_equal(ar1, ar2, order="K")
    assert r4.strides == (-1, 20)


def test_not_equal_broadcasting():
    get_queue_or_skip()

    m = ua.ones((100, 5), dtype="i4")
    v = ua.arange(5, dtype="i4")

    r = ua.not_equal(m, v)
    expected = np.full((100, 5), [True, False, True, True, True], dtype="?")

    assert (ua.asnumpy(r) == expected).all()

    r2 = ua.not_equal(v, m)
    assert (ua.asnumpy(r2) == expected).all()

    r3 = ua.empty_like(m, dtype="?")
    ua.not_equal(m, v, out=r3)
    assert (ua.asnumpy(r3) == expected).all()


@pytest.mark.parametrize("arr_dt", _all_dtypes)
def test_not_equal_python_scalar(arr_dt):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(arr_dt, q)

    X = ua.zeros((10, 10), dtype=arr_dt, sycl_queue=q)
    py_zeros = (
        bool(0),
        int(0),
        float(0),
        complex(0),
        np.float32(0),
        ctypes.c_int(0),
    )
    for sc in py_zeros:
        R = ua.not_equal(X, sc)
        assert isinstance(R, ua.USMArray)
        assert not ua.all(R)
        R = ua.not_equal(sc, X)
        assert isinstance(R, ua.USMArray)
        assert not ua.all(R)


class MockArray:
    def __init__(self, arr):
        self.data_ = arr

    @property
    def __sycl_usm_array_interface__(self):
        return self.data_.__sycl_usm_array_interface__


def test_not_equal_mock_array():
    get_queue_or_skip()
    a = ua.arange(10)
    b = ua.ones(10)
    c = MockArray(b)
    r = ua.not_equal(a, c)
    assert isinstance(r, ua.USMArray)


def test_not_equal_canary_mock_array():
    get_queue_or_skip()
    a = ua.arange(10)

    class Canary:
        def __init__(self):
            pass

        @property
        def __sycl_usm_array_interface__(self):
            return None

    c = Canary()
    with pytest.raises(ValueError):
        ua.not_equal(a, c)


@pytest.mark.parametrize("dtype", _all_dtypes)
def test_not_equal_alignment(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    n = 256
    s = ua.concat((ua.zeros(n, dtype=dtype), ua.zeros(n, dtype=dtype)))

    mask = s[:-1] != s[1:]
    (pos,) = ua.nonzero(mask)
    assert ua.all(pos == n)

    out_arr = ua.zeros(2 * n, dtype=mask.dtype)
    ua.not_equal(s[:-1], s[1:], out=out_arr[1:])
    (pos,) = ua.nonzero(mask)
    assert ua.all(pos == (n + 1))
