#                      Data Parallel Control (dpctl)
#
# Copyright 2020-2025 Intel Corporation
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#    http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
#
# Translated from dpctl 0.21.1, dpctl/tests/test_tensor_accumulation.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

from dpctl_helpers import ExecutionPlacementError, allclose
import numpy as np

from random import randrange

import pytest

import usmarray as ua
from dpctl_helpers import ExecutionPlacementError

from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported

sint_types = [
    ua.int8,
    ua.int16,
    ua.int32,
    ua.int64,
]
uint_types = [
    ua.uint8,
    ua.uint16,
    ua.uint32,
    ua.uint64,
]
rfp_types = [
    ua.float16,
    ua.float32,
    ua.float64,
]
cfp_types = [
    ua.complex64,
    ua.complex128,
]

no_complex_types = [ua.bool] + sint_types + uint_types + rfp_types

all_types = [ua.bool] + sint_types + uint_types + rfp_types + cfp_types


@pytest.mark.parametrize("dt", sint_types)
def test_contig_cumsum_sint(dt):
    get_queue_or_skip()
    n = 10000
    x = ua.repeat(ua.asarray([1, -1], dtype=dt), n)

    res = ua.cumulative_sum(x, dtype=dt)

    ar = ua.arange(n, dtype=dt)
    expected = ua.concat((1 + ar, ua.flip(ar)))
    assert ua.all(res == expected)


@pytest.mark.parametrize("dt", sint_types)
def test_strided_cumsum_sint(dt):
    get_queue_or_skip()
    n = 10000
    x = ua.repeat(ua.asarray([1, -1], dtype=dt), 2 * n)[1::2]

    res = ua.cumulative_sum(x, dtype=dt)

    ar = ua.arange(n, dtype=dt)
    expected = ua.concat((1 + ar, ua.flip(ar)))
    assert ua.all(res == expected)

    x2 = ua.repeat(ua.asarray([-1, 1], dtype=dt), 2 * n)[-1::-2]

    res = ua.cumulative_sum(x2, dtype=dt)

    ar = ua.arange(n, dtype=dt)
    expected = ua.concat((1 + ar, ua.flip(ar)))
    assert ua.all(res == expected)


@pytest.mark.parametrize("dt", sint_types)
def test_contig_cumsum_axis_sint(dt):
    get_queue_or_skip()
    n0, n1 = 1000, 173
    x = ua.repeat(ua.asarray([1, -1], dtype=dt), n0)
    m = ua.tile(ua.expand_dims(x, axis=1), (1, n1))

    res = ua.cumulative_sum(m, dtype=dt, axis=0)

    ar = ua.arange(n0, dtype=dt)
    expected = ua.concat((1 + ar, ua.flip(ar)))
    assert ua.all(res == ua.expand_dims(expected, axis=1))


@pytest.mark.parametrize("dt", sint_types)
def test_strided_cumsum_axis_sint(dt):
    get_queue_or_skip()
    n0, n1 = 1000, 173
    x = ua.repeat(ua.asarray([1, -1], dtype=dt), 2 * n0)
    m = ua.tile(ua.expand_dims(x, axis=1), (1, n1))[1::2, ::-1]

    res = ua.cumulative_sum(m, dtype=dt, axis=0)

    ar = ua.arange(n0, dtype=dt)
    expected = ua.concat((1 + ar, ua.flip(ar)))
    assert ua.all(res == ua.expand_dims(expected, axis=1))


def test_accumulate_scalar():
    get_queue_or_skip()

    s = ua.asarray(1, dtype="i8")
    r = ua.cumulative_sum(s)
    assert r == s
    assert r.ndim == s.ndim

    r = ua.cumulative_sum(s, include_initial=True)
    r_expected = ua.asarray([0, 1], dtype="i8")
    assert ua.all(r == r_expected)


def test_cumulative_sum_include_initial():
    get_queue_or_skip()

    n0, n1 = 3, 5
    x = ua.ones((n0, n1), dtype="i4")
    r = ua.cumulative_sum(x, axis=0, include_initial=True)
    assert ua.all(r[0, :] == 0)

    r = ua.cumulative_sum(x, axis=1, include_initial=True)
    assert ua.all(r[:, 0] == 0)

    x = ua.ones(n1, dtype="i4")
    r = ua.cumulative_sum(x, include_initial=True)
    assert r.shape == (n1 + 1,)
    assert r[0] == 0


def test_cumulative_prod_identity():
    get_queue_or_skip()

    x = ua.zeros(5, dtype="i4")
    r = ua.cumulative_prod(x, include_initial=True)
    assert r[0] == 1


def test_cumulative_logsumexp_identity():
    get_queue_or_skip()

    x = ua.ones(5, dtype="f4")
    r = ua.cumulative_logsumexp(x, include_initial=True)
    assert r[0] == -ua.inf


def test_accumulate_zero_size_dims():
    get_queue_or_skip()

    n0, n1, n2 = 3, 0, 5
    x = ua.ones((n0, n1, n2), dtype="i8")
    r = ua.cumulative_sum(x, axis=1)
    assert r.shape == x.shape
    assert r.size == 0

    r = ua.cumulative_sum(x, axis=0)
    assert r.shape == x.shape
    assert r.size == 0

    r = ua.cumulative_sum(x, axis=1, include_initial=True)
    assert r.shape == (n0, n1 + 1, n2)
    assert r.size == (n0 * n2)

    r = ua.cumulative_sum(x, axis=0, include_initial=True)
    assert r.shape == (n0 + 1, n1, n2)
    assert r.size == 0


@pytest.mark.parametrize("arg_dtype", all_types)
def test_cumsum_arg_dtype_default_output_dtype_matrix(arg_dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(arg_dtype, q)

    n = 100
    x = ua.ones(n, dtype=arg_dtype)
    r = ua.cumulative_sum(x)

    assert isinstance(r, ua.USMArray)
    if x.dtype.kind == "i":
        assert r.dtype.kind == "i"
    elif x.dtype.kind == "u":
        assert r.dtype.kind == "u"
    elif x.dtype.kind == "fc":
        assert r.dtype == arg_dtype

    r_expected = ua.arange(1, n + 1, dtype=r.dtype)

    assert ua.all(r == r_expected)


@pytest.mark.parametrize("arg_dtype", all_types)
@pytest.mark.parametrize("out_dtype", all_types)
def test_cumsum_arg_out_dtype_matrix(arg_dtype, out_dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(arg_dtype, q)
    skip_if_dtype_not_supported(out_dtype, q)

    n = 100
    x = ua.ones(n, dtype=arg_dtype)
    r = ua.cumulative_sum(x, dtype=out_dtype)

    assert isinstance(r, ua.USMArray)
    assert r.dtype == np.dtype(out_dtype)
    if out_dtype == ua.bool:
        assert ua.all(r)
    else:
        r_expected = ua.arange(1, n + 1, dtype=out_dtype)
        assert ua.all(r == r_expected)


def test_accumulator_out_kwarg():
    q = get_queue_or_skip()

    n = 100

    expected = ua.arange(1, n + 1, dtype="i4", sycl_queue=q)
    x = ua.ones(n, dtype="i4", sycl_queue=q)
    out = ua.empty_like(x, dtype="i4")
    ua.cumulative_sum(x, dtype="i4", out=out)
    assert ua.all(expected == out)

    # overlap
    x = ua.ones(n, dtype="i4", sycl_queue=q)
    ua.cumulative_sum(x, dtype="i4", out=x)
    assert ua.all(x == expected)

    # axis before final axis
    expected = ua.broadcast_to(
        ua.arange(1, n + 1, dtype="i4", sycl_queue=q), (n, n)
    ).mT
    x = ua.ones((n, n), dtype="i4", sycl_queue=q)
    out = ua.empty_like(x, dtype="i4")
    ua.cumulative_sum(x, axis=0, dtype="i4", out=out)
    assert ua.all(expected == out)

    # scalar
    x = ua.asarray(3, dtype="i4")
    out = ua.empty((), dtype="i4")
    expected = 3
    ua.cumulative_sum(x, dtype="i4", out=out)
    assert expected == out


def test_accumulator_arg_validation():
    q1 = get_queue_or_skip()
    q2 = get_queue_or_skip()

    n = 5
    x1 = ua.ones((n, n), dtype="f4", sycl_queue=q1)
    x2 = ua.ones(n, dtype="f4", sycl_queue=q1)

    # must be usm_ndarray
    with pytest.raises(TypeError):
        ua.cumulative_sum(dict())

    # axis must be specified when input not 1D
    with pytest.raises(ValueError):
        ua.cumulative_sum(x1)

    # out must be usm_ndarray
    with pytest.raises(TypeError):
        ua.cumulative_sum(x2, out=dict())

    # out must be writable
    out_not_writable = ua.empty_like(x2)
    out_not_writable.flags.writable = False
    with pytest.raises(ValueError):
        ua.cumulative_sum(x2, out=out_not_writable)

    # out must be expected shape
    out_wrong_shape = ua.ones(n + 1, dtype=x2.dtype, sycl_queue=q1)
    with pytest.raises(ValueError):
        ua.cumulative_sum(x2, out=out_wrong_shape)

    # out must be expected dtype
    out_wrong_dtype = ua.empty_like(x2, dtype="i4")
    with pytest.raises(ValueError):
        ua.cumulative_sum(x2, out=out_wrong_dtype)

    # compute follows data
    out_wrong_queue = ua.empty_like(x2, sycl_queue=q2)
    with pytest.raises(ExecutionPlacementError):
        ua.cumulative_sum(x2, out=out_wrong_queue)


def test_cumsum_nan_propagation():
    get_queue_or_skip()

    n = 100
    x = ua.ones(n, dtype="f4")
    i = randrange(n)
    x[i] = ua.nan

    r = ua.cumulative_sum(x)
    assert ua.all(ua.isnan(r[i:]))


def test_cumprod_nan_propagation():
    get_queue_or_skip()

    n = 100
    x = ua.ones(n, dtype="f4")
    i = randrange(n)
    x[i] = ua.nan

    r = ua.cumulative_prod(x)
    assert ua.all(ua.isnan(r[i:]))


def test_logcumsumexp_nan_propagation():
    get_queue_or_skip()

    n = 100
    x = ua.ones(n, dtype="f4")
    i = randrange(n)
    x[i] = ua.nan

    r = ua.cumulative_logsumexp(x)
    assert ua.all(ua.isnan(r[i:]))


@pytest.mark.parametrize("arg_dtype", no_complex_types)
def test_logcumsumexp_arg_dtype_default_output_dtype_matrix(arg_dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(arg_dtype, q)

    x = ua.ones(10, dtype=arg_dtype, sycl_queue=q)
    r = ua.cumulative_logsumexp(x)

    if arg_dtype.kind in "biu":
        assert r.dtype.kind == "f"
    else:
        assert r.dtype == arg_dtype


def test_logcumsumexp_complex_error():
    get_queue_or_skip()

    x = ua.ones(10, dtype="c8")
    with pytest.raises(ValueError):
        ua.cumulative_logsumexp(x)


def test_cumprod_basic():
    get_queue_or_skip()

    n = 50
    val = 2
    x = ua.full(n, val, dtype="i8")
    r = ua.cumulative_prod(x)
    expected = ua.pow(val, ua.arange(1, n + 1, dtype="i8"))

    assert ua.all(r == expected)

    x = ua.tile(ua.asarray([2, 0.5], dtype="f4"), 10000)
    expected = ua.tile(ua.asarray([2, 1], dtype="f4"), 10000)
    r = ua.cumulative_prod(x)
    assert ua.all(r == expected)


def test_logcumsumexp_basic():
    get_queue_or_skip()

    dt = ua.float32
    x = ua.ones(1000, dtype=dt)
    r = ua.cumulative_logsumexp(x)

    expected = 1 + ua.log(ua.arange(1, 1001, dtype=dt))

    tol = 4 * np.finfo(dt).resolution
    assert allclose(r, expected, atol=tol, rtol=tol)


def geometric_series_closed_form(n, dtype=None, device=None):
    """Closed form for cumulative_logsumexp(ua.arange(-n, 0))

    :math:`r[k] == -n + k + log(1 - exp(-k-1)) - log(1-exp(-1))`
    """
    x = ua.arange(-n, 0, dtype=dtype, device=device)
    y = ua.arange(-1, -n - 1, step=-1, dtype=dtype, device=device)
    y = ua.exp(y, out=y)
    y = ua.negative(y, out=y)
    y = ua.log1p(y, out=y)
    y -= y[0]
    return x + y


@pytest.mark.parametrize("fpdt", rfp_types)
def test_cumulative_logsumexp_closed_form(fpdt):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(fpdt, q)

    n = 128
    r = ua.cumulative_logsumexp(ua.arange(-n, 0, dtype=fpdt, device=q))
    expected = geometric_series_closed_form(n, dtype=fpdt, device=q)

    tol = 4 * ua.finfo(fpdt).eps
    assert allclose(r, expected, atol=tol, rtol=tol)


@pytest.mark.parametrize("p", [257, 260, 273, 280, 509, 512])
def test_cumulative_sum_gh_1901(p):
    get_queue_or_skip()

    n = p * p
    dt = ua.int32
    inp = ua.ones(n, dtype=dt)
    r = ua.cumulative_sum(inp, dtype=dt)
    assert ua.all(r == ua.arange(1, n + 1, dtype=dt))


@pytest.mark.parametrize(
    "dt", ["i1", "i2", "i4", "i8", "f2", "f4", "f8", "c8", "c16"]
)
def test_gh_2017(dt):
    "See https://github.com/IntelPython/dpctl/issues/2017"
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dt, q)
    x = ua.asarray([-1, 1], dtype=np.dtype(dt), sycl_queue=q)
    r = ua.cumulative_sum(x, dtype="?")
    assert ua.all(r)
