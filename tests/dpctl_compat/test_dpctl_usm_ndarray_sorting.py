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
# Translated from dpctl 0.21.1, dpctl/tests/test_usm_ndarray_sorting.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

from dpctl_helpers import allclose

import itertools

import numpy as np
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
def test_sort_1d(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    inp = ua.roll(
        ua.concat(
            (ua.ones(10000, dtype=dtype), ua.zeros(10000, dtype=dtype))
        ),
        734,
    )

    s = ua.sort(inp, descending=False)
    assert ua.all(s[:-1] <= s[1:])

    s1 = ua.sort(inp, descending=True)
    assert ua.all(s1[:-1] >= s1[1:])


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
def test_sort_2d(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    fl = ua.roll(
        ua.concat(
            (ua.ones(10000, dtype=dtype), ua.zeros(10000, dtype=dtype))
        ),
        734,
    )
    inp = ua.reshape(fl, (20, -1))

    s = ua.sort(inp, axis=1, descending=False)
    assert ua.all(s[:, :-1] <= s[:, 1:])

    s1 = ua.sort(inp, axis=1, descending=True)
    assert ua.all(s1[:, :-1] >= s1[:, 1:])


def test_sort_strides():
    get_queue_or_skip()

    fl = ua.roll(
        ua.concat((ua.ones(10000, dtype="i4"), ua.zeros(10000, dtype="i4"))),
        734,
    )
    inp = ua.reshape(fl, (-1, 20))

    s = ua.sort(inp, axis=0, descending=False)
    assert ua.all(s[:-1, :] <= s[1:, :])

    s1 = ua.sort(inp, axis=0, descending=True)
    assert ua.all(s1[:-1, :] >= s1[1:, :])


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
def test_argsort_1d(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    inp = ua.roll(
        ua.concat(
            (ua.ones(10000, dtype=dtype), ua.zeros(10000, dtype=dtype))
        ),
        734,
    )

    s_idx = ua.argsort(inp, descending=False)
    assert ua.all(inp[s_idx[:-1]] <= inp[s_idx[1:]])

    s1_idx = ua.argsort(inp, descending=True)
    assert ua.all(inp[s1_idx[:-1]] >= inp[s1_idx[1:]])


def test_sort_validation():
    with pytest.raises(TypeError):
        ua.sort(dict())


def test_sort_validation_kind():
    get_queue_or_skip()

    x = ua.ones(128, dtype="u1")

    with pytest.raises(ValueError):
        ua.sort(x, kind=Ellipsis)

    with pytest.raises(ValueError):
        ua.sort(x, kind="invalid")


def test_argsort_validation():
    with pytest.raises(TypeError):
        ua.argsort(dict())


def test_argsort_validation_kind():
    get_queue_or_skip()

    x = ua.arange(127, stop=0, step=-1, dtype="i1")

    with pytest.raises(ValueError):
        ua.argsort(x, kind=Ellipsis)

    with pytest.raises(ValueError):
        ua.argsort(x, kind="invalid")


_all_kinds = ["stable", "mergesort", "radixsort"]


@pytest.mark.parametrize("kind", _all_kinds)
def test_sort_axis0(kind):
    get_queue_or_skip()

    n, m = 200, 30
    xf = ua.arange(n * m, 0, step=-1, dtype="i4")
    x = ua.reshape(xf, (n, m))
    s = ua.sort(x, axis=0, kind=kind)

    assert ua.all(s[:-1, :] <= s[1:, :])


@pytest.mark.parametrize("kind", _all_kinds)
def test_argsort_axis0(kind):
    get_queue_or_skip()

    n, m = 200, 30
    xf = ua.arange(n * m, 0, step=-1, dtype="i4")
    x = ua.reshape(xf, (n, m))
    idx = ua.argsort(x, axis=0, kind=kind)

    s = ua.take_along_axis(x, idx, axis=0)

    assert ua.all(s[:-1, :] <= s[1:, :])


@pytest.mark.parametrize("kind", _all_kinds)
def test_argsort_axis1(kind):
    get_queue_or_skip()

    n, m = 200, 30
    xf = ua.arange(n * m, 0, step=-1, dtype="i4")
    x = ua.reshape(xf, (n, m))
    idx = ua.argsort(x, axis=1, kind=kind)

    s = ua.take_along_axis(x, idx, axis=1)

    assert ua.all(s[:, :-1] <= s[:, 1:])


@pytest.mark.parametrize("kind", _all_kinds)
def test_sort_strided(kind):
    get_queue_or_skip()

    x_orig = ua.arange(100, dtype="i4")
    x_flipped = ua.flip(x_orig, axis=0)
    s = ua.sort(x_flipped, kind=kind)

    assert ua.all(s == x_orig)


@pytest.mark.parametrize("kind", _all_kinds)
def test_argsort_strided(kind):
    get_queue_or_skip()

    x_orig = ua.arange(100, dtype="i4")
    x_flipped = ua.flip(x_orig, axis=0)
    idx = ua.argsort(x_flipped, kind=kind)
    s = ua.take_along_axis(x_flipped, idx, axis=0)

    assert ua.all(s == x_orig)


@pytest.mark.parametrize("kind", _all_kinds)
def test_sort_0d_array(kind):
    get_queue_or_skip()

    x = ua.asarray(1, dtype="i4")
    expected = ua.asarray(1, dtype="i4")
    assert ua.sort(x, kind=kind) == expected


@pytest.mark.parametrize("kind", _all_kinds)
def test_argsort_0d_array(kind):
    get_queue_or_skip()

    x = ua.asarray(1, dtype="i4")
    expected = ua.asarray(0, dtype="i4")
    assert ua.argsort(x, kind=kind) == expected


@pytest.mark.parametrize(
    "dtype",
    [
        "f2",
        "f4",
        "f8",
    ],
)
@pytest.mark.parametrize("kind", _all_kinds)
def test_sort_real_fp_nan(dtype, kind):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    x = ua.asarray(
        [-0.0, 0.1, ua.nan, 0.0, -0.1, ua.nan, 0.2, -0.3], dtype=dtype
    )
    s = ua.sort(x, kind=kind)

    expected = ua.asarray(
        [-0.3, -0.1, -0.0, 0.0, 0.1, 0.2, ua.nan, ua.nan], dtype=dtype
    )

    assert allclose(s, expected, equal_nan=True)

    s = ua.sort(x, descending=True, kind=kind)

    expected = ua.asarray(
        [ua.nan, ua.nan, 0.2, 0.1, -0.0, 0.0, -0.1, -0.3], dtype=dtype
    )

    assert allclose(s, expected, equal_nan=True)


@pytest.mark.parametrize(
    "dtype",
    [
        "c8",
        "c16",
    ],
)
def test_sort_complex_fp_nan(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    rvs = [-0.0, 0.1, 0.0, 0.2, -0.3, ua.nan]
    ivs = [-0.0, 0.1, 0.0, 0.2, -0.3, ua.nan]

    cv = []
    for rv in rvs:
        for iv in ivs:
            cv.append(complex(rv, iv))

    inp = ua.asarray(cv, dtype=dtype)
    s = ua.sort(inp)

    expected = np.sort(ua.asnumpy(inp))

    assert np.allclose(ua.asnumpy(s), expected, equal_nan=True)

    pairs = []
    for i, j in itertools.permutations(range(inp.shape[0]), 2):
        pairs.append([i, j])
    sub_arrs = inp[ua.asarray(pairs)]
    m1 = ua.asnumpy(ua.sort(sub_arrs, axis=1))
    m2 = np.sort(ua.asnumpy(sub_arrs), axis=1)
    for k in range(len(pairs)):
        i, j = pairs[k]
        r1 = m1[k]
        r2 = m2[k]
        assert np.array_equal(
            r1.view(np.int64), r2.view(np.int64)
        ), f"Failed for {i} and {j}"


def test_radix_sort_size_1_axis():
    get_queue_or_skip()

    x1 = ua.ones((), dtype="i1")
    r1 = ua.sort(x1, kind="radixsort")
    assert r1 == x1

    x2 = ua.ones([1], dtype="i1")
    r2 = ua.sort(x2, kind="radixsort")
    assert r2 == x2

    x3 = ua.reshape(ua.arange(10, dtype="i1"), (10, 1))
    r3 = ua.sort(x3, kind="radixsort")
    assert ua.all(r3 == x3)

    x4 = ua.reshape(ua.arange(10, dtype="i1"), (1, 10))
    r4 = ua.sort(x4, axis=0, kind="radixsort")
    assert ua.all(r4 == x4)


def test_radix_argsort_size_1_axis():
    get_queue_or_skip()

    x1 = ua.ones((), dtype="i1")
    r1 = ua.argsort(x1, kind="radixsort")
    assert r1 == 0

    x2 = ua.ones([1], dtype="i1")
    r2 = ua.argsort(x2, kind="radixsort")
    assert r2 == 0

    x3 = ua.reshape(ua.arange(10, dtype="i1"), (10, 1))
    r3 = ua.argsort(x3, kind="radixsort")
    assert ua.all(r3 == 0)

    x4 = ua.reshape(ua.arange(10, dtype="i1"), (1, 10))
    r4 = ua.argsort(x4, axis=0, kind="radixsort")
    assert ua.all(r4 == 0)
