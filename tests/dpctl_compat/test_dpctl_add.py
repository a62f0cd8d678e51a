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
# Translated from dpctl 0.21.1, dpctl/tests/elementwise/test_add.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

from dpctl_helpers import get_coerced_usm_type, ExecutionPlacementError

import ctypes
import re

import numpy as np
import pytest

import usmarray as ua
from dpctl_helpers import _can_cast
from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported
from dpctl_helpers import ExecutionPlacementError

from dpctl_helpers import _all_dtypes, _compare_dtypes, _usm_types


@pytest.mark.parametrize("op1_dtype", _all_dtypes)
@pytest.mark.parametrize("op2_dtype", _all_dtypes)
def test_add_dtype_matrix(op1_dtype, op2_dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(op1_dtype, q)
    skip_if_dtype_not_supported(op2_dtype, q)

    sz = 127
    ar1 = ua.ones(sz, dtype=op1_dtype)
    ar2 = ua.ones_like(ar1, dtype=op2_dtype)

    r = ua.add(ar1, ar2)
    assert isinstance(r, ua.USMArray)
    expected_dtype = np.add(
        np.zeros(1, dtype=op1_dtype), np.zeros(1, dtype=op2_dtype)
    ).dtype
    assert _compare_dtypes(r.dtype, expected_dtype, sycl_queue=q)
    assert r.shape == ar1.shape
    assert (ua.asnumpy(r) == np.full(r.shape, 2, dtype=r.dtype)).all()
    assert r.queue == ar1.queue

    r2 = ua.empty_like(ar1, dtype=r.dtype)
    ua.add(ar1, ar2, out=r2)
    assert (ua.asnumpy(r2) == np.full(r2.shape, 2, dtype=r2.dtype)).all()

    ar3 = ua.ones(sz, dtype=op1_dtype)
    ar4 = ua.ones(2 * sz, dtype=op2_dtype)

    r = ua.add(ar3[::-1], ar4[::2])
    assert isinstance(r, ua.USMArray)
    expected_dtype = np.add(
        np.zeros(1, dtype=op1_dtype), np.zeros(1, dtype=op2_dtype)
    ).dtype
    assert _compare_dtypes(r.dtype, expected_dtype, sycl_queue=q)
    assert r.shape == ar3.shape
    assert (ua.asnumpy(r) == np.full(r.shape, 2, dtype=r.dtype)).all()

    r2 = ua.empty_like(ar1, dtype=r.dtype)
    ua.add(ar3[::-1], ar4[::2], out=r2)
    assert (ua.asnumpy(r2) == np.full(r2.shape, 2, dtype=r2.dtype)).all()


@pytest.mark.parametrize("op1_usm_type", _usm_types)
@pytest.mark.parametrize("op2_usm_type", _usm_types)
def test_add_usm_type_matrix(op1_usm_type, op2_usm_type):
    get_queue_or_skip()

    sz = 128
    ar1 = ua.ones(sz, dtype="i4", usm_type=op1_usm_type)
    ar2 = ua.ones_like(ar1, dtype="i4", usm_type=op2_usm_type)

    r = ua.add(ar1, ar2)
    assert isinstance(r, ua.USMArray)
    expected_usm_type = get_coerced_usm_type(
        (op1_usm_type, op2_usm_type)
    )
    assert r.usm_type == expected_usm_type


def test_add_order():
    get_queue_or_skip()

    test_shape = (
        20,
        20,
    )
    test_shape2 = tuple(2 * dim for dim in test_shape)
    n = test_shape[-1]

    for dt1, dt2 in zip(["i4", "i4", "f4"], ["i4", "f4", "i4"]):
        ar1 = ua.ones(test_shape, dtype=dt1, order="C")
        ar2 = ua.ones(test_shape, dtype=dt2, order="C")
        r1 = ua.add(ar1, ar2, order="C")
        assert r1.flags.c_contiguous
        r2 = ua.add(ar1, ar2, order="F")
        assert r2.flags.f_contiguous
        r3 = ua.add(ar1, ar2, order="A")
        assert r3.flags.c_contiguous
        r4 = ua.add(ar1, ar2, order="K")
        assert r4.flags.c_contiguous

        ar1 = ua.ones(test_shape, dtype=dt1, order="F")
        ar2 = ua.ones(test_shape, dtype=dt2, order="F")
        r1 = ua.add(ar1, ar2, order="C")
        assert r1.flags.c_contiguous
        r2 = ua.add(ar1, ar2, order="F")
        assert r2.flags.f_contiguous
        r3 = ua.add(ar1, ar2, order="A")
        assert r3.flags.f_contiguous
        r4 = ua.add(ar1, ar2, order="K")
        assert r4.flags.f_contiguous

        ar1 = ua.ones(test_shape2, dtype=dt1, order="C")[:20, ::-2]
        ar2 = ua.ones(test_shape2, dtype=dt2, order="C")[:20, ::-2]
        r4 = ua.add(ar1, ar2, order="K")
        assert r4.strides == (n, -1)
        r5 = ua.add(ar1, ar2, order="C")
        assert r5.strides == (n, 1)

        ar1 = ua.ones(test_shape2, dtype=dt1, order="C")[:20, ::-2].mT
        ar2 = ua.ones(test_shape2, dtype=dt2, order="C")[:20, ::-2].mT
        r4 = ua.add(ar1, ar2, order="K")
        assert r4.strides == (-1, n)
        r5 = ua.add(ar1, ar2, order="C")
        assert r5.strides == (n, 1)


def test_add_broadcasting():
    get_queue_or_skip()

    m = ua.ones((100, 5), dtype="i4")
    v = ua.arange(5, dtype="i4")

    r = ua.add(m, v)
    assert (ua.asnumpy(r) == np.arange(1, 6, dtype="i4")[np.newaxis, :]).all()

    r2 = ua.add(v, m)
    assert (ua.asnumpy(r2) == np.arange(1, 6, dtype="i4")[np.newaxis, :]).all()

    r3 = ua.empty_like(m)
    ua.add(m, v, out=r3)
    assert (ua.asnumpy(r3) == np.arange(1, 6, dtype="i4")[np.newaxis, :]).all()

    r4 = ua.empty_like(m)
    ua.add(v, m, out=r4)
    assert (ua.asnumpy(r4) == np.arange(1, 6, dtype="i4")[np.newaxis, :]).all()


def test_add_broadcasting_new_shape():
    get_queue_or_skip()

    ar1 = ua.ones((6, 1), dtype="i4")
    ar2 = ua.arange(6, dtype="i4")

    r = ua.add(ar1, ar2)
    assert (ua.asnumpy(r) == np.arange(1, 7, dtype="i4")[np.newaxis, :]).all()

    r1 = ua.add(ar2, ar1)
    assert (ua.asnumpy(r1) == np.arange(1, 7, dtype="i4")[np.newaxis, :]).all()

    r2 = ua.add(ar1[::2], ar2[::2])
    assert (
        ua.asnumpy(r2) == np.arange(1, 7, dtype="i4")[::2][np.newaxis, :]
    ).all()

    r3 = ua.empty_like(ar1)
    with pytest.raises(ValueError):
        ua.add(ar1, ar2, out=r3)

    ar3 = ua.ones((6, 1), dtype="i4")
    ar4 = ua.ones((1, 6), dtype="i4")

    r4 = ua.add(ar3, ar4)
    assert (ua.asnumpy(r4) == np.full((6, 6), 2, dtype="i4")).all()

    r5 = ua.add(ar4, ar3)
    assert (ua.asnumpy(r5) == np.full((6, 6), 2, dtype="i4")).all()

    r6 = ua.add(ar3[::2], ar4[:, ::2])
    assert (ua.asnumpy(r6) == np.full((3, 3), 2, dtype="i4")).all()

    r7 = ua.add(ar3[::2], ar4)
    assert (ua.asnumpy(r7) == np.full((3, 6), 2, dtype="i4")).all()


def test_add_broadcasting_error():
    get_queue_or_skip()
    m = ua.ones((10, 10), dtype="i4")
    v = ua.ones((3,), dtype="i4")
    with pytest.raises(ValueError):
        ua.add(m, v)


@pytest.mark.parametrize("arr_dt", _all_dtypes)
def test_add_python_scalar(arr_dt):
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
        R = ua.add(X, sc)
        assert isinstance(R, ua.USMArray)
        R = ua.add(sc, X)
        assert isinstance(R, ua.USMArray)


class MockArray:
    def __init__(self, arr):
        self.data_ = arr

    @property
    def __sycl_usm_array_interface__(self):
        return self.data_.__sycl_usm_array_interface__


def test_add_mock_array():
    get_queue_or_skip()
    a = ua.arange(10)
    b = ua.ones(10)
    c = MockArray(b)
    r = ua.add(a, c)
    assert isinstance(r, ua.USMArray)


def test_add_canary_mock_array():
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
        ua.add(a, c)


def test_add_types_property():
    get_queue_or_skip()
    types = ua.add.types
    assert isinstance(types, list)
    assert len(types) > 0
    assert types == ua.add.types_


def test_add_errors():
    get_queue_or_skip()
    try:
        gpu_queue = ua.Queue("gpu")
    except ValueError:
        pytest.skip("SyclQueue('gpu') failed, skipping")
    try:
        cpu_queue = ua.Queue("cpu")
    except ValueError:
        pytest.skip("SyclQueue('cpu') failed, skipping")

    ar1 = ua.ones(2, dtype="float32", sycl_queue=gpu_queue)
    ar2 = ua.ones_like(ar1, sycl_queue=gpu_queue)
    y = ua.empty_like(ar1, sycl_queue=cpu_queue)
    with pytest.raises(ExecutionPlacementError) as excinfo:
        ua.add(ar1, ar2, out=y)
    assert "Input and output allocation queues are not compatible" in str(
        excinfo.value
    )

    ar1 = ua.ones(2, dtype="float32")
    ar2 = ua.ones_like(ar1, dtype="int32")
    y = ua.empty(3)
    with pytest.raises(ValueError) as excinfo:
        ua.add(ar1, ar2, out=y)
    assert "The shape of input and output arrays are inconsistent" in str(
        excinfo.value
    )

    ar1 = np.ones(2, dtype="float32")
    ar2 = np.ones_like(ar1, dtype="int32")
    with pytest.raises(ExecutionPlacementError) as excinfo:
        ua.add(ar1, ar2)
    assert re.match(
        "Execution placement can not be unambiguously inferred.*",
        str(excinfo.value),
    )

    ar1 = ua.ones(2, dtype="float32")
    ar2 = ua.ones_like(ar1, dtype="int32")
    y = np.empty(ar1.shape, dtype=ar1.dtype)
    with pytest.raises(TypeError) as excinfo:
        ua.add(ar1, ar2, out=y)
    assert "output array must be of usm_ndarray type" in str(excinfo.value)


@pytest.mark.parametrize("dtype", _all_dtypes)
def test_add_dtype_error(
    dtype,
):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    ar1 = ua.ones(5, dtype=dtype)
    ar2 = ua.ones_like(ar1, dtype="f4")

    y = ua.zeros_like(ar1, dtype="int8")
    with pytest.raises(ValueError) as excinfo:
        ua.add(ar1, ar2, out=y)
    assert re.match("Output array of type.*is needed", str(excinfo.value))


@pytest.mark.parametrize("dtype", _all_dtypes)
def test_add_inplace_python_scalar(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)
    X = ua.zeros((10, 10), dtype=dtype, sycl_queue=q)
    dt_kind = X.dtype.kind
    if dt_kind in "ui":
        X += int(0)
    elif dt_kind == "f":
        X += float(0)
    elif dt_kind == "c":
        X += complex(0)
    elif dt_kind == "b":
        X += bool(0)


@pytest.mark.parametrize("op1_dtype", _all_dtypes)
@pytest.mark.parametrize("op2_dtype", _all_dtypes)
def test_add_inplace_dtype_matrix(op1_dtype, op2_dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(op1_dtype, q)
    skip_if_dtype_not_supported(op2_dtype, q)

    sz = 127
    ar1 = ua.ones(sz, dtype=op1_dtype)
    ar2 = ua.ones_like(ar1, dtype=op2_dtype)

    dev = q.device
    _fp16 = dev.has_aspect_fp16
    _fp64 = dev.has_aspect_fp64
    # operators use a different Python implementation which permits
    # same kind style casting
    if _can_cast(ar2.dtype, ar1.dtype, _fp16, _fp64, casting="same_kind"):
        ar1 += ar2
        assert (
            ua.asnumpy(ar1) == np.full(ar1.shape, 2, dtype=ar1.dtype)
        ).all()

        ar3 = ua.ones(sz, dtype=op1_dtype)[::-1]
        ar4 = ua.ones(2 * sz, dtype=op2_dtype)[::2]
        ar3 += ar4
        assert (
            ua.asnumpy(ar3) == np.full(ar3.shape, 2, dtype=ar3.dtype)
        ).all()
    else:
        with pytest.raises(ValueError):
            ar1 += ar2

    # here, test the special case where out is the first argument
    # so an in-place kernel is used for efficiency
    # this covers a specific branch in the BinaryElementwiseFunc logic
    ar1 = ua.ones(sz, dtype=op1_dtype)
    ar2 = ua.ones_like(ar1, dtype=op2_dtype)
    if _can_cast(ar2.dtype, ar1.dtype, _fp16, _fp64):
        ua.add(ar1, ar2, out=ar1)
        assert (
            ua.asnumpy(ar1) == np.full(ar1.shape, 2, dtype=ar1.dtype)
        ).all()

        ar3 = ua.ones(sz, dtype=op1_dtype)[::-1]
        ar4 = ua.ones(2 * sz, dtype=op2_dtype)[::2]
        ua.add(ar3, ar4, out=ar3)
        assert (
            ua.asnumpy(ar3) == np.full(ar3.shape, 2, dtype=ar3.dtype)
        ).all()
    else:
        with pytest.raises(ValueError):
            ua.add(ar1, ar2, out=ar1)

    ar1 = ua.ones(sz, dtype=op1_dtype)
    ar2 = ua.ones_like(ar1, dtype=op2_dtype)
    if _can_cast(ar1.dtype, ar2.dtype, _fp16, _fp64):
        ua.add(ar1, ar2, out=ar2)
        assert (
            ua.asnumpy(ar2) == np.full(ar2.shape, 2, dtype=ar2.dtype)
        ).all()

        ar3 = ua.ones(sz, dtype=op1_dtype)[::-1]
        ar4 = ua.ones(2 * sz, dtype=op2_dtype)[::2]
        ua.add(ar3, ar4, out=ar4)
        assert (
            ua.asnumpy(ar4) == np.full(ar4.shape, 2, dtype=ar4.dtype)
        ).all()
    else:
        with pytest.raises(ValueError):
            ua.add(ar1, ar2, out=ar2)


def test_add_inplace_broadcasting():
    get_queue_or_skip()

    m = ua.ones((100, 5), dtype="i4")
    v = ua.arange(5, dtype="i4")

    ua.add(m, v, out=m)
    assert (ua.asnumpy(m) == np.arange(1, 6, dtype="i4")[np.newaxis, :]).all()

    # check case where second arg is out
    ua.add(v, m, out=m)
    assert (
        ua.asnumpy(m) == np.arange(10, dtype="i4")[np.newaxis, 1:10:2]
    ).all()


def test_add_inplace_operator_broadcasting():
    get_queue_or_skip()

    m = ua.ones((100, 5), dtype="i4")
    v = ua.arange(5, dtype="i4")

    m += v
    assert (ua.asnumpy(m) == np.arange(1, 6, dtype="i4")[np.newaxis, :]).all()


def test_add_inplace_operator_mutual_broadcast():
    get_queue_or_skip()

    x1 = ua.ones((1, 10), dtype="i4")
    x2 = ua.ones((10, 1), dtype="i4")

    with pytest.raises(ValueError):
        ua.add._inplace_op(x1, x2)


def test_add_inplace_errors():
    get_queue_or_skip()
    try:
        gpu_queue = ua.Queue("gpu")
    except ValueError:
        pytest.skip("SyclQueue('gpu') failed, skipping")
    try:
        cpu_queue = ua.Queue("cpu")
    except ValueError:
        pytest.skip("SyclQueue('cpu') failed, skipping")

    ar1 = ua.ones(2, dtype="float32", sycl_queue=gpu_queue)
    ar2 = ua.ones_like(ar1, sycl_queue=cpu_queue)
    with pytest.raises(ExecutionPlacementError):
        ua.add(ar1, ar2, out=ar1)

    ar1 = ua.ones(2, dtype="float32")
    ar2 = ua.ones(3, dtype="float32")
    with pytest.raises(ValueError):
        ua.add(ar1, ar2, out=ar1)

    ar1 = np.ones(2, dtype="float32")
    ar2 = ua.ones(2, dtype="float32")
    with pytest.raises(TypeError):
        ua.add(ar1, ar2, out=ar1)

    ar1 = ua.ones(2, dtype="float32")
    ar2 = dict()
    with pytest.raises(ValueError):
        ua.add(ar1, ar2, out=ar1)

    ar1 = ua.ones((2, 1), dtype="float32")
    ar2 = ua.ones((1, 2), dtype="float32")
    with pytest.raises(ValueError):
        ua.add(ar1, ar2, out=ar1)


def test_add_inplace_operator_errors():
    q1 = get_queue_or_skip()
    q2 = get_queue_or_skip()

    x = ua.ones(10, dtype="i4", sycl_queue=q1)
    with pytest.raises(TypeError):
        ua.add._inplace_op(dict(), x)

    x.flags["W"] = False
    with pytest.raises(ValueError):
        ua.add._inplace_op(x, 2)

    x_q1 = ua.ones(10, dtype="i4", sycl_queue=q1)
    x_q2 = ua.ones(10, dtype="i4", sycl_queue=q2)
    with pytest.raises(ExecutionPlacementError):
        ua.add._inplace_op(x_q1, x_q2)


def test_add_inplace_same_tensors():
    get_queue_or_skip()

    ar1 = ua.ones(10, dtype="i4")
    ar1 += ar1
    assert (ua.asnumpy(ar1) == np.full(ar1.shape, 2, dtype="i4")).all()

    ar1 = ua.ones(10, dtype="i4")
    ar2 = ua.ones(10, dtype="i4")
    ua.add(ar1, ar2, out=ar1)
    # all ar1 vals should be 2
    assert (ua.asnumpy(ar1) == np.full(ar1.shape, 2, dtype="i4")).all()

    ua.add(ar2, ar1, out=ar2)
    # all ar2 vals should be 3
    assert (ua.asnumpy(ar2) == np.full(ar2.shape, 3, dtype="i4")).all()

    ua.add(ar1, ar2, out=ar2)
    # all ar2 vals should be 5
    assert (ua.asnumpy(ar2) == np.full(ar2.shape, 5, dtype="i4")).all()


def test_add_str_repr():
    add_s = str(ua.add)
    assert isinstance(add_s, str)
    assert "add" in add_s

    add_r = repr(ua.add)
    assert isinstance(add_r, str)
    assert "add" in add_r


def test_add_cfd():
    q1 = get_queue_or_skip()
    q2 = ua.Queue(q1.device)

    x1 = ua.ones(10, sycl_queue=q1)
    x2 = ua.ones(10, sycl_queue=q2)
    with pytest.raises(ExecutionPlacementError):
        ua.add(x1, x2)

    with pytest.raises(ExecutionPlacementError):
        ua.add(x1, x1, out=x2)


def test_add_out_type_check():
    get_queue_or_skip()

    x1 = ua.ones(10)
    x2 = ua.ones(10)

    out = range(10)

    with pytest.raises(TypeError):
        ua.add(x1, x2, out=out)


def test_add_out_need_temporary():
    get_queue_or_skip()

    x = ua.ones(10, dtype="u4")

    ua.add(x[:6], 1, out=x[-6:])

    assert ua.all(x[:-6] == 1) and ua.all(x[-6:] == 2)
