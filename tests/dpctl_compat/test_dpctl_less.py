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
# Translated from dpctl 0.21.1, dpctl/tests/elementwise/test_less.py, by tools/translate_dpctl_tests.py:
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
def test_less_dtype_matrix(op1_dtype, op2_dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(op1_dtype, q)
    skip_if_dtype_not_supported(op2_dtype, q)

    sz = 127
    ar1 = ua.zeros(sz, dtype=op1_dtype)
    ar2 = ua.ones_like(ar1, dtype=op2_dtype)

    r = ua.less(ar1, ar2)
    assert isinstance(r, ua.USMArray)
    expected = np.less(
        np.zeros(1, dtype=op1_dtype), np.ones(1, dtype=op2_dtype)
    )
    assert _compare_dtypes(r.dtype, expected.dtype, sycl_queue=q)
    assert r.shape == ar1.shape
    assert (ua.asnumpy(r) == expected.astype(r.dtype)).all()
    assert r.queue == ar1.queue

    ar3 = ua.zeros(sz, dtype=op1_dtype)
    ar4 = ua.ones(2 * sz, dtype=op2_dtype)

    r = ua.less(ar3[::-1], ar4[::2])
    assert isinstance(r, ua.USMArray)
    expected = np.less(
        np.zeros(1, dtype=op1_dtype), np.ones(1, dtype=op2_dtype)
    )
    assert _compare_dtypes(r.dtype, expected.dtype, sycl_queue=q)
    assert r.shape == ar3.shape
    assert (ua.asnumpy(r) == expected.astype(r.dtype)).all()


@pytest.mark.parametrize("op_dtype", ["c8", "c16"])
def test_less_complex_matrix(op_dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(op_dtype, q)

    sz = 127
    ar1_np_real = np.random.randint(0, 10, sz)
    ar1_np_imag = np.random.randint(0, 10, sz)
    ar1_np = ar1_np_real + 1j * ar1_np_imag
    ar1 = ua.asarray(ar1_np, dtype=op_dtype)

    ar2_np_real = np.random.randint(0, 10, sz)
    ar2_np_imag = np.random.randint(0, 10, sz)
    ar2_np = ar2_np_real + 1j * ar2_np_imag
    ar2 = ua.asarray(ar2_np, dtype=op_dtype)

    r = ua.less(ar1, ar2)
    expected = np.less(ar1_np, ar2_np)
    assert _compare_dtypes(r.dtype, expected.dtype, sycl_queue=q)
    assert r.shape == expected.shape
    assert (ua.asnumpy(r) == expected).all()

    r1 = ua.less(ar1[::-2], ar2[::2])
    expected1 = np.less(ar1_np[::-2], ar2_np[::2])
    assert _compare_dtypes(r.dtype, expected1.dtype, sycl_queue=q)
    assert r1.shape == expected1.shape
    assert (ua.asnumpy(r1) == expected1).all()

    ar3 = ua.asarray([1.0 + 9j, 2.0 + 0j, 2.0 + 1j, 2.0 + 2j], dtype=op_dtype)
    ar4 = ua.asarray([2.0 + 0j, ua.nan, ua.inf, -ua.inf], dtype=op_dtype)

    ar3_np = ua.asnumpy(ar3)
    ar4_np = ua.asnumpy(ar4)

    r2 = ua.less(ar3, ar4)
    with np.errstate(invalid="ignore"):
        expected2 = np.less(ar3_np, ar4_np)
    assert (ua.asnumpy(r2) == expected2).all()

    r3 = ua.less(ar4, ar4)
    with np.errstate(invalid="ignore"):
        expected3 = np.less(ar4_np, ar4_np)
    assert (ua.asnumpy(r3) == expected3).all()


def test_less_complex_float():
    get_queue_or_skip()

    ar1 = ua.asarray([1.0 + 9j, 2.0 + 0j, 2.0 + 1j, 2.0 + 2j], dtype="c8")
    ar2 = ua.full((4,), 2, dtype="f4")

    ar1_np = ua.asnumpy(ar1)
    ar2_np = ua.asnumpy(ar2)

    r = ua.less(ar1, ar2)
    expected = np.less(ar1_np, ar2_np)
    assert (ua.asnumpy(r) == expected).all()

    r1 = ua.less(ar2, ar1)
    expected1 = np.less(ar2_np, ar1_np)
    assert (ua.asnumpy(r1) == expected1).all()
    with np.errstate(invalid="ignore"):
        for tp in [ua.nan, ua.inf, -ua.inf]:

            ar3 = ua.full((4,), tp)
            ar3_np = ua.asnumpy(ar3)

            r2 = ua.less(ar1, ar3)
            expected2 = np.less(ar1_np, ar3_np)
            assert (ua.asnumpy(r2) == expected2).all()

            r3 = ua.less(ar3, ar1)
            expected3 = np.less(ar3_np, ar1_np)
            assert (ua.asnumpy(r3) == expected3).all()


@pytest.mark.parametrize("op1_usm_type", _usm_types)
@pytest.mark.parametrize("op2_usm_type", _usm_types)
def test_less_usm_type_matrix(op1_usm_type, op2_usm_type):
    get_queue_or_skip()

    sz = 128
    ar1 = ua.ones(sz, dtype="i4", usm_type=op1_usm_type)
    ar2 = ua.ones_like(ar1, dtype="i4", usm_type=op2_usm_type)

    r = ua.less(ar1, ar2)
    assert isinstance(r, ua.USMArray)
    expected_usm_type = get_coerced_usm_type(
        (op1_usm_type, op2_usm_type)
    )
    assert r.usm_type == expected_usm_type


def test_less_order():
    get_queue_or_skip()

    ar1 = ua.ones((20, 20), dtype="i4", order="C")
    ar2 = ua.ones((20, 20), dtype="i4", order="C")
    r1 = ua.less(ar1, ar2, order="C")
    assert r1.flags.c_contiguous
    r2 = ua.less(ar1, ar2, order="F")
    assert r2.flags.f_contiguous
    r3 = ua.less(ar1, ar2, order="A")
    assert r3.flags.c_contiguous
    r4 = ua.less(ar1, ar2, order="K")
    assert r4.flags.c_contiguous

    ar1 = ua.ones((20, 20), dtype="i4", order="F")
    ar2 = ua.ones((20, 20), dtype="i4", order="F")
    r1 = ua.less(ar1, ar2, order="C")
    assert r1.flags.c_contiguous
    r2 = ua.less(ar1, ar2, order="F")
    assert r2.flags.f_contiguous
    r3 = ua.less(ar1, ar2, order="A")
    assert r3.flags.f_contiguous
    r4 = ua.less(ar1, ar2, order="K")
    assert r4.flags.f_contiguous

    ar1 = ua.ones((40, 40), dtype="i4", order="C")[:20, ::-2]
    ar2 = ua.ones((40, 40), dtype="i4", order="C")[:20, ::-2]
    r4 = ua.less(ar1, ar2, order="K")
    assert r4.strides == (20, -1)

    ar1 = ua.ones((40, 40), dtype="i4", order="C")[:20, ::-2].mT
    ar2 = ua.ones((40, 40), dtype="i4", order="C")[:20, ::-2].mT
    r4 = ua.less(ar1, ar2, order="K")
    assert r4.strides == (-1, 20)


def test_less_broadcasting():
    get_queue_or_skip()

    m = ua.ones((100, 5), dtype="i4")
    v = ua.arange(1, 6, dtype="i4")

    r = ua.less(m, v)

    expected = np.less(
        np.ones((100, 5), dtype="i4"), np.arange(1, 6, dtype="i4")
    )
    assert (ua.asnumpy(r) == expected.astype(r.dtype)).all()

    r2 = ua.less(v, m)
    expected2 = np.less(
        np.arange(1, 6, dtype="i4"), np.ones((100, 5), dtype="i4")
    )
    assert (ua.asnumpy(r2) == expected2.astype(r2.dtype)).all()


@pytest.mark.parametrize("arr_dt", _all_dtypes)
def test_less_python_scalar(arr_dt):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(arr_dt, q)

    X = ua.ones((10, 10), dtype=arr_dt, sycl_queue=q)
    py_ones = (
        bool(1),
        int(1),
        float(1),
        complex(1),
        np.float32(1),
        ctypes.c_int(1),
    )
    for sc in py_ones:
        R = ua.less(X, sc)
        assert isinstance(R, ua.USMArray)
        R = ua.less(sc, X)
        assert isinstance(R, ua.USMArray)


class MockArray:
    def __init__(self, arr):
        self.data_ = arr

    @property
    def __sycl_usm_array_interface__(self):
        return self.data_.__sycl_usm_array_interface__


def test_less_mock_array():
    get_queue_or_skip()
    a = ua.arange(10)
    b = ua.ones(10)
    c = MockArray(b)
    r = ua.less(a, c)
    assert isinstance(r, ua.USMArray)


def test_less_canary_mock_array():
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
        ua.less(a, c)


def test_less_mixed_integer_kinds():
    get_queue_or_skip()

    x1 = ua.flip(ua.arange(-9, 1, dtype="i8"))
    x2 = ua.arange(10, dtype="u8")

    # u8 - i8
    assert not ua.any(ua.less(x2, x1))
    # i8 - u8
    res = ua.less(x1, x2)
    assert not res[0]
    assert ua.all(res[1:])

    # Python scalar
    assert not ua.any(ua.less(x2, -1))
    assert ua.all(ua.less(-1, x2))


def test_less_very_large_py_int():
    get_queue_or_skip()

    py_int = ua.iinfo(ua.int64).max + 10

    x = ua.asarray(3, dtype="u8")
    assert not py_int < x
    assert ua.less(x, py_int)

    x = ua.asarray(py_int, dtype="u8")
    assert not x < -1
    assert ua.less(-1, x)
