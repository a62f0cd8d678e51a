#                       Data Parallel Control (dpctl)
#
#  Copyright 2023-2025 Intel Corporation
#
#  Licensed under the Apache License, Version 2.0 (the "License");
#  you may not use this file except in compliance with the License.
#  You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
#  Unless_equal required by applicable law or agreed to in writing, software
#  distributed under the License is distributed on an "AS IS" BASIS,
#  WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
#  See the License for the specific language governing permissions and
#  limitations under the License.
#
# Translated from dpctl 0.21.1, dpctl/tests/elementwise/test_bitwise_xor.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

import numpy as np
import pytest

import usmarray as ua
from dpctl_helpers import _can_cast
from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported

from dpctl_helpers import _integral_dtypes


@pytest.mark.parametrize("op_dtype", _integral_dtypes)
def test_bitwise_xor_dtype_matrix_contig(op_dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(op_dtype, q)

    sz = 7
    n = 2 * sz
    dt1 = np.dtype(op_dtype)
    dt2 = np.dtype(op_dtype)

    x1_range_begin = -sz if ua.iinfo(dt1).min < 0 else 0
    x1 = ua.arange(x1_range_begin, x1_range_begin + n, dtype=dt1)

    x2_range_begin = -sz if ua.iinfo(dt2).min < 0 else 0
    x2 = ua.arange(x2_range_begin, x2_range_begin + n, dtype=dt1)

    r = ua.bitwise_xor(x1, x2)
    assert isinstance(r, ua.USMArray)

    x1_np = np.arange(x1_range_begin, x1_range_begin + n, dtype=op_dtype)
    x2_np = np.arange(x2_range_begin, x2_range_begin + n, dtype=op_dtype)
    r_np = np.bitwise_xor(x1_np, x2_np)

    assert (r_np == ua.asnumpy(r)).all()


@pytest.mark.parametrize("op_dtype", _integral_dtypes)
def test_bitwise_xor_dtype_matrix_strided(op_dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(op_dtype, q)

    sz = 11
    n = 2 * sz
    dt1 = np.dtype(op_dtype)
    dt2 = np.dtype(op_dtype)

    x1_range_begin = -sz if ua.iinfo(dt1).min < 0 else 0
    x1 = ua.arange(x1_range_begin, x1_range_begin + n, dtype=dt1)[::2]

    x2_range_begin = -(sz // 2) if ua.iinfo(dt2).min < 0 else 0
    x2 = ua.arange(x2_range_begin, x2_range_begin + n, dtype=dt1)[::-2]

    r = ua.bitwise_xor(x1, x2)
    assert isinstance(r, ua.USMArray)

    x1_np = np.arange(x1_range_begin, x1_range_begin + n, dtype=op_dtype)[::2]
    x2_np = np.arange(x2_range_begin, x2_range_begin + n, dtype=op_dtype)[::-2]
    r_np = np.bitwise_xor(x1_np, x2_np)

    assert (r_np == ua.asnumpy(r)).all()


def test_bitwise_xor_bool():
    get_queue_or_skip()

    x1 = ua.asarray([True, False])
    x2 = ua.asarray([False, True])

    r_bw = ua.bitwise_xor(x1[:, ua.newaxis], x2[ua.newaxis])
    r_lo = ua.logical_xor(x1[:, ua.newaxis], x2[ua.newaxis])

    assert ua.all(ua.equal(r_bw, r_lo))


@pytest.mark.parametrize("dtype", ["?"] + _integral_dtypes)
def test_bitwise_xor_inplace_python_scalar(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)
    X = ua.zeros((10, 10), dtype=dtype, sycl_queue=q)
    dt_kind = X.dtype.kind
    if dt_kind == "b":
        X ^= False
    else:
        X ^= int(0)


@pytest.mark.parametrize("op1_dtype", ["?"] + _integral_dtypes)
@pytest.mark.parametrize("op2_dtype", ["?"] + _integral_dtypes)
def test_bitwise_xor_inplace_dtype_matrix(op1_dtype, op2_dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(op1_dtype, q)
    skip_if_dtype_not_supported(op2_dtype, q)

    sz = 127
    ar1 = ua.ones(sz, dtype=op1_dtype, sycl_queue=q)
    ar2 = ua.ones_like(ar1, dtype=op2_dtype, sycl_queue=q)

    dev = q.device
    _fp16 = dev.has_aspect_fp16
    _fp64 = dev.has_aspect_fp64
    if _can_cast(ar2.dtype, ar1.dtype, _fp16, _fp64, casting="same_kind"):
        ar1 ^= ar2
        assert ua.all(ar1 == 0)

        ar3 = ua.ones(sz, dtype=op1_dtype, sycl_queue=q)[::-1]
        ar4 = ua.ones(2 * sz, dtype=op2_dtype, sycl_queue=q)[::2]
        ar3 ^= ar4
        assert ua.all(ar3 == 0)
    else:
        with pytest.raises(ValueError):
            ar1 ^= ar2
            ua.bitwise_xor(ar1, ar2, out=ar1)

    # out is second arg
    ar1 = ua.ones(sz, dtype=op1_dtype, sycl_queue=q)
    ar2 = ua.ones_like(ar1, dtype=op2_dtype, sycl_queue=q)
    if _can_cast(ar1.dtype, ar2.dtype, _fp16, _fp64):
        ua.bitwise_xor(ar1, ar2, out=ar2)
        assert ua.all(ar2 == 0)

        ar3 = ua.ones(sz, dtype=op1_dtype, sycl_queue=q)[::-1]
        ar4 = ua.ones(2 * sz, dtype=op2_dtype, sycl_queue=q)[::2]
        ua.bitwise_xor(ar3, ar4, out=ar4)
        ua.all(ar4 == 0)
    else:
        with pytest.raises(ValueError):
            ua.bitwise_xor(ar1, ar2, out=ar2)
