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
# Translated from dpctl 0.21.1, dpctl/tests/test_usm_ndarray_unique.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

import pytest

import usmarray as ua
from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported


@pytest.mark.parametrize(
    "dtype",
    [
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
        "c8",
        "c16",
    ],
)
def test_unique_values(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    n, roll = 10000, 734
    inp = ua.roll(
        ua.concat((ua.ones(n, dtype=dtype), ua.zeros(n, dtype=dtype))),
        roll,
    )

    uv = ua.unique_values(inp)
    assert ua.all(uv == ua.arange(2, dtype=dtype))


def test_unique_values_strided():
    get_queue_or_skip()

    n, m = 1000, 20
    inp = ua.ones((n, m), dtype="i4", order="F")
    inp[:, ::2] = 0

    uv = ua.unique_values(inp)
    assert ua.all(uv == ua.arange(2, dtype="i4"))

    inp = ua.reshape(inp, -1)
    inp = ua.flip(ua.reshape(inp, -1))

    uv = ua.unique_values(inp)
    assert ua.all(uv == ua.arange(2, dtype="i4"))


@pytest.mark.parametrize(
    "dtype",
    [
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
        "c8",
        "c16",
    ],
)
def test_unique_counts(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    n, roll = 10000, 734
    inp = ua.roll(
        ua.concat((ua.ones(n, dtype=dtype), ua.zeros(n, dtype=dtype))),
        roll,
    )

    uv, uv_counts = ua.unique_counts(inp)
    assert ua.all(uv == ua.arange(2, dtype=dtype))
    assert ua.all(uv_counts == ua.full(2, n, dtype=uv_counts.dtype))


def test_unique_counts_strided():
    get_queue_or_skip()

    n, m = 1000, 20
    inp = ua.ones((n, m), dtype="i4", order="F")
    inp[:, ::2] = 0

    uv, uv_counts = ua.unique_counts(inp)
    assert ua.all(uv == ua.arange(2, dtype="i4"))
    assert ua.all(uv_counts == ua.full(2, n / 2 * m, dtype=uv_counts.dtype))

    inp = ua.flip(ua.reshape(inp, -1))

    uv, uv_counts = ua.unique_counts(inp)
    assert ua.all(uv == ua.arange(2, dtype="i4"))
    assert ua.all(uv_counts == ua.full(2, n / 2 * m, dtype=uv_counts.dtype))


@pytest.mark.parametrize(
    "dtype",
    [
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
        "c8",
        "c16",
    ],
)
def test_unique_inverse(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    n, roll = 10000, 734
    inp = ua.roll(
        ua.concat((ua.ones(n, dtype=dtype), ua.zeros(n, dtype=dtype))),
        roll,
    )

    uv, inv = ua.unique_inverse(inp)
    assert ua.all(uv == ua.arange(2, dtype=dtype))
    assert ua.all(inp == uv[inv])
    assert inp.shape == inv.shape


def test_unique_inverse_strided():
    get_queue_or_skip()

    n, m = 1000, 20
    inp = ua.ones((n, m), dtype="i4", order="F")
    inp[:, ::2] = 0

    uv, inv = ua.unique_inverse(inp)
    assert ua.all(uv == ua.arange(2, dtype="i4"))
    assert ua.all(inp == uv[inv])
    assert inp.shape == inv.shape

    inp = ua.flip(ua.reshape(inp, -1))

    uv, inv = ua.unique_inverse(inp)
    assert ua.all(uv == ua.arange(2, dtype="i4"))
    assert ua.all(inp == uv[inv])
    assert inp.shape == inv.shape


@pytest.mark.parametrize(
    "dtype",
    [
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
        "c8",
        "c16",
    ],
)
def test_unique_all(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    n, roll = 10000, 734
    inp = ua.roll(
        ua.concat((ua.ones(n, dtype=dtype), ua.zeros(n, dtype=dtype))),
        roll,
    )

    uv, ind, inv, uv_counts = ua.unique_all(inp)
    assert ua.all(uv == ua.arange(2, dtype=dtype))
    assert ua.all(uv == inp[ind])
    assert ua.all(inp == uv[inv])
    assert inp.shape == inv.shape
    assert ua.all(uv_counts == ua.full(2, n, dtype=uv_counts.dtype))


def test_unique_all_strided():
    get_queue_or_skip()

    n, m = 1000, 20
    inp = ua.ones((n, m), dtype="i4", order="F")
    inp[:, ::2] = 0

    uv, ind, inv, uv_counts = ua.unique_all(inp)
    assert ua.all(uv == ua.arange(2, dtype="i4"))
    assert ua.all(uv == ua.reshape(inp, -1)[ind])
    assert ua.all(inp == uv[inv])
    assert inp.shape == inv.shape
    assert ua.all(uv_counts == ua.full(2, n / 2 * m, dtype=uv_counts.dtype))

    inp = ua.flip(ua.reshape(inp, -1))

    uv, ind, inv, uv_counts = ua.unique_all(inp)
    assert ua.all(uv == ua.arange(2, dtype="i4"))
    assert ua.all(uv == inp[ind])
    assert ua.all(inp == uv[inv])
    assert inp.shape == inv.shape
    assert ua.all(uv_counts == ua.full(2, n / 2 * m, dtype=uv_counts.dtype))


def test_set_functions_empty_input():
    get_queue_or_skip()
    x = ua.ones((10, 0, 1), dtype="i4")

    res = ua.unique_values(x)
    assert isinstance(res, ua.USMArray)
    assert res.size == 0
    assert res.dtype == x.dtype

    res = ua.unique_inverse(x)
    assert type(res).__name__ == "UniqueInverseResult"
    uv, inv = res
    assert isinstance(uv, ua.USMArray)
    assert uv.size == 0
    assert isinstance(inv, ua.USMArray)
    assert inv.size == 0

    res = ua.unique_counts(x)
    assert type(res).__name__ == "UniqueCountsResult"
    uv, uv_counts = res
    assert isinstance(uv, ua.USMArray)
    assert uv.size == 0
    assert isinstance(uv_counts, ua.USMArray)
    assert uv_counts.size == 0

    res = ua.unique_all(x)
    assert type(res).__name__ == "UniqueAllResult"
    uv, ind, inv, uv_counts = res
    assert isinstance(uv, ua.USMArray)
    assert uv.size == 0
    assert isinstance(ind, ua.USMArray)
    assert ind.size == 0
    assert isinstance(inv, ua.USMArray)
    assert inv.size == 0
    assert isinstance(uv_counts, ua.USMArray)
    assert uv_counts.size == 0


def test_set_function_outputs():
    get_queue_or_skip()
    # check standard and early exit paths
    x1 = ua.arange(10, dtype="i4")
    x2 = ua.ones((10, 10), dtype="i4")

    assert isinstance(ua.unique_values(x1), ua.USMArray)
    assert isinstance(ua.unique_values(x2), ua.USMArray)

    assert type(ua.unique_inverse(x1)).__name__ == "UniqueInverseResult"
    assert type(ua.unique_inverse(x2)).__name__ == "UniqueInverseResult"

    assert type(ua.unique_counts(x1)).__name__ == "UniqueCountsResult"
    assert type(ua.unique_counts(x2)).__name__ == "UniqueCountsResult"

    assert type(ua.unique_all(x1)).__name__ == "UniqueAllResult"
    assert type(ua.unique_all(x2)).__name__ == "UniqueAllResult"


def test_set_functions_compute_follows_data():
    # tests that all intermediate calls and allocations
    # are compatible with an input with an arbitrary queue
    get_queue_or_skip()
    q = ua.Queue()
    x = ua.arange(10, dtype="i4", sycl_queue=q)

    uv = ua.unique_values(x)
    assert isinstance(uv, ua.USMArray)
    assert uv.queue == q
    uv, uc = ua.unique_counts(x)
    assert isinstance(uv, ua.USMArray)
    assert isinstance(uc, ua.USMArray)
    assert uv.queue == q
    assert uc.queue == q
    uv, inv_ind = ua.unique_inverse(x)
    assert isinstance(uv, ua.USMArray)
    assert isinstance(inv_ind, ua.USMArray)
    assert uv.queue == q
    assert inv_ind.queue == q
    uv, ind, inv_ind, uc = ua.unique_all(x)
    assert isinstance(uv, ua.USMArray)
    assert isinstance(ind, ua.USMArray)
    assert isinstance(inv_ind, ua.USMArray)
    assert isinstance(uc, ua.USMArray)
    assert uv.queue == q
    assert ind.queue == q
    assert inv_ind.queue == q
    assert uc.queue == q


def test_gh_1738():
    get_queue_or_skip()

    ones = ua.ones(10, dtype="i8")
    iota = ua.arange(10, dtype="i8")

    assert ones.device == iota.device

    dpt_info = ua.__array_namespace_info__()
    ind_dt = dpt_info.default_dtypes(device=ones.device)["indexing"]

    dt = ua.unique_inverse(ones).inverse_indices.dtype
    assert dt == ind_dt
    dt = ua.unique_all(ones).inverse_indices.dtype
    assert dt == ind_dt

    dt = ua.unique_inverse(iota).inverse_indices.dtype
    assert dt == ind_dt
    dt = ua.unique_all(iota).inverse_indices.dtype
    assert dt == ind_dt
