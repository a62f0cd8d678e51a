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
# Translated from dpctl 0.21.1, dpctl/tests/test_tensor_statistical_functions.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

from dpctl_helpers import allclose, DpctlOnly
import numpy as np

import pytest

import usmarray as ua
default_device_fp_type = DpctlOnly("dpctl.tensor._tensor_impl.default_device_fp_type")
from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported

_no_complex_dtypes = [
    "?",
    "i1",
    "u1",
    "i2",
    "u2",
    "i4",
    "u4",
    "i8",
    "u8",
    "f2",
    "f4",
    "f8",
]


@pytest.mark.skip(reason="dpctl-only: dpctl.tensor._tensor_impl.default_device_fp_type")
@pytest.mark.parametrize("dt", _no_complex_dtypes)
def test_mean_dtypes(dt):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dt, q)

    x = ua.ones(10, dtype=dt)
    res = ua.mean(x)
    assert res == 1
    if x.dtype.kind in "biu":
        assert res.dtype == np.dtype(default_device_fp_type(q))
    else:
        assert res.dtype == x.dtype


@pytest.mark.skip(reason="dpctl-only: dpctl.tensor._tensor_impl.default_device_fp_type")
@pytest.mark.parametrize("dt", _no_complex_dtypes)
@pytest.mark.parametrize("py_zero", [float(0), int(0)])
def test_std_var_dtypes(dt, py_zero):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dt, q)

    x = ua.ones(10, dtype=dt)
    res = ua.std(x, correction=py_zero)
    assert res == 0
    if x.dtype.kind in "biu":
        assert res.dtype == np.dtype(default_device_fp_type(q))
    else:
        assert res.dtype == x.dtype

    res = ua.var(x, correction=py_zero)
    assert res == 0
    if x.dtype.kind in "biu":
        assert res.dtype == np.dtype(default_device_fp_type(q))
    else:
        assert res.dtype == x.dtype


def test_stat_fns_axis():
    get_queue_or_skip()

    x = ua.ones((3, 4, 5, 6, 7), dtype="f4")
    m = ua.mean(x, axis=(1, 2, -1))

    assert isinstance(m, ua.USMArray)
    assert m.shape == (3, 6)
    assert allclose(m, ua.asarray(1, dtype=m.dtype))

    s = ua.var(x, axis=(1, 2, -1))
    assert isinstance(s, ua.USMArray)
    assert s.shape == (3, 6)
    assert allclose(s, ua.asarray(0, dtype=s.dtype))


@pytest.mark.parametrize("fn", [ua.mean, ua.var])
def test_stat_fns_empty(fn):
    get_queue_or_skip()
    x = ua.empty((0,), dtype="f4")
    r = fn(x)
    assert r.shape == tuple()
    assert ua.isnan(r)

    x = ua.empty((10, 0, 2), dtype="f4")
    r = fn(x, axis=1)
    assert r.shape == (10, 2)
    assert ua.all(ua.isnan(r))

    r = fn(x, axis=0)
    assert r.shape == (0, 2)
    assert r.size == 0


def test_stat_fns_keepdims():
    get_queue_or_skip()

    x = ua.ones((3, 4, 5, 6, 7), dtype="f4")
    m = ua.mean(x, axis=(1, 2, -1), keepdims=True)

    assert isinstance(m, ua.USMArray)
    assert m.shape == (3, 1, 1, 6, 1)
    assert allclose(m, ua.asarray(1, dtype=m.dtype))

    s = ua.var(x, axis=(1, 2, -1), keepdims=True)
    assert isinstance(s, ua.USMArray)
    assert s.shape == (3, 1, 1, 6, 1)
    assert allclose(s, ua.asarray(0, dtype=s.dtype))


def test_stat_fns_empty_axis():
    get_queue_or_skip()

    x = ua.reshape(ua.arange(3 * 4 * 5, dtype="f4"), (3, 4, 5))
    m = ua.mean(x, axis=())

    assert x.shape == m.shape
    assert ua.all(x == m)

    s = ua.var(x, axis=())
    assert x.shape == s.shape
    assert ua.all(s == 0)

    d = ua.std(x, axis=())
    assert x.shape == d.shape
    assert ua.all(d == 0)


def test_mean():
    get_queue_or_skip()

    x = ua.reshape(ua.arange(9, dtype="f4"), (3, 3))
    m = ua.mean(x)
    expected = ua.asarray(4, dtype="f4")
    assert allclose(m, expected)

    m = ua.mean(x, axis=0)
    expected = ua.arange(3, 6, dtype="f4")
    assert allclose(m, expected)

    m = ua.mean(x, axis=1)
    expected = ua.asarray([1, 4, 7], dtype="f4")
    assert allclose(m, expected)


def test_var_std():
    get_queue_or_skip()

    x = ua.reshape(ua.arange(9, dtype="f4"), (3, 3))
    r = ua.var(x)
    expected = ua.asarray(6.666666507720947, dtype="f4")
    assert allclose(r, expected)

    r1 = ua.var(x, correction=3)
    expected1 = ua.asarray(10.0, dtype="f4")
    assert allclose(r1, expected1)

    r = ua.std(x)
    expected = ua.sqrt(expected)
    assert allclose(r, expected)

    r1 = ua.std(x, correction=3)
    expected1 = ua.sqrt(expected1)
    assert allclose(r1, expected1)

    r = ua.var(x, axis=0)
    expected = ua.full(x.shape[1], 6, dtype="f4")
    assert allclose(r, expected)

    r1 = ua.var(x, axis=0, correction=1)
    expected1 = ua.full(x.shape[1], 9, dtype="f4")
    assert allclose(r1, expected1)

    r = ua.std(x, axis=0)
    expected = ua.sqrt(expected)
    assert allclose(r, expected)

    r1 = ua.std(x, axis=0, correction=1)
    expected1 = ua.sqrt(expected1)
    assert allclose(r1, expected1)

    r = ua.var(x, axis=1)
    expected = ua.full(x.shape[0], 0.6666666865348816, dtype="f4")
    assert allclose(r, expected)

    r1 = ua.var(x, axis=1, correction=1)
    expected1 = ua.ones(x.shape[0], dtype="f4")
    assert allclose(r1, expected1)

    r = ua.std(x, axis=1)
    expected = ua.sqrt(expected)
    assert allclose(r, expected)

    r1 = ua.std(x, axis=1, correction=1)
    expected1 = ua.sqrt(expected1)
    assert allclose(r1, expected1)


def test_var_axis_length_correction():
    get_queue_or_skip()

    x = ua.reshape(ua.arange(9, dtype="f4"), (3, 3))

    r = ua.var(x, correction=x.size)
    assert ua.isnan(r)

    r = ua.var(x, axis=0, correction=x.shape[0])
    assert ua.all(ua.isnan(r))

    r = ua.var(x, axis=1, correction=x.shape[1])
    assert ua.all(ua.isnan(r))


def test_stat_function_errors():
    d = dict()
    with pytest.raises(TypeError):
        ua.var(d)
    with pytest.raises(TypeError):
        ua.std(d)
    with pytest.raises(TypeError):
        ua.mean(d)

    get_queue_or_skip()
    x = ua.empty(1, dtype="f4")
    with pytest.raises(TypeError):
        ua.var(x, axis=d)
    with pytest.raises(TypeError):
        ua.std(x, axis=d)
    with pytest.raises(TypeError):
        ua.mean(x, axis=d)

    with pytest.raises(TypeError):
        ua.var(x, correction=d)
    with pytest.raises(TypeError):
        ua.std(x, correction=d)

    x = ua.empty(1, dtype="c8")
    with pytest.raises(ValueError):
        ua.var(x)
    with pytest.raises(ValueError):
        ua.std(x)
