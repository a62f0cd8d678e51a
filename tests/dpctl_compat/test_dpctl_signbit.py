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
# Translated from dpctl 0.21.1, dpctl/tests/elementwise/test_signbit.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

import numpy as np
import pytest

import usmarray as ua
from dpctl_helpers import get_queue_or_skip, skip_if_dtype_not_supported


@pytest.mark.parametrize("dtype", ["f2", "f4", "f8"])
def test_signbit_out_type_contig(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    arg_dt = np.dtype(dtype)
    x = ua.linspace(1, 10, num=256, dtype=arg_dt)
    sb = ua.signbit(x)
    assert sb.dtype == ua.bool

    assert not ua.any(sb)

    x2 = ua.linspace(-10, -1, num=256, dtype=arg_dt)
    sb2 = ua.signbit(x2)
    assert ua.all(sb2)


@pytest.mark.parametrize("dtype", ["f2", "f4", "f8"])
def test_signbit_out_type_strided(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    arg_dt = np.dtype(dtype)
    x = ua.linspace(1, 10, num=256, dtype=arg_dt)
    sb = ua.signbit(x[::-3])
    assert sb.dtype == ua.bool

    assert not ua.any(sb)

    x2 = ua.linspace(-10, -1, num=256, dtype=arg_dt)
    sb2 = ua.signbit(x2[::-3])
    assert ua.all(sb2)


@pytest.mark.parametrize("dtype", ["f2", "f4", "f8"])
def test_signbit_special_cases_contig(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    arg_dt = np.dtype(dtype)
    n = 63
    x1 = ua.full(n, -ua.inf, dtype=arg_dt)
    x2 = ua.full(n, -0.0, dtype=arg_dt)
    x3 = ua.full(n, 0.0, dtype=arg_dt)
    x4 = ua.full(n, ua.inf, dtype=arg_dt)

    x = ua.concat((x1, x2, x3, x4))
    actual = ua.signbit(x)

    expected = ua.concat(
        (
            ua.full(x1.size, True),
            ua.full(x2.size, True),
            ua.full(x3.size, False),
            ua.full(x4.size, False),
        )
    )

    assert ua.all(ua.equal(actual, expected))


@pytest.mark.parametrize("dtype", ["f2", "f4", "f8"])
def test_signbit_special_cases_strided(dtype):
    q = get_queue_or_skip()
    skip_if_dtype_not_supported(dtype, q)

    arg_dt = np.dtype(dtype)
    x1 = ua.full(63, -ua.inf, dtype=arg_dt)
    x2 = ua.full(63, -0.0, dtype=arg_dt)
    x3 = ua.full(63, 0.0, dtype=arg_dt)
    x4 = ua.full(63, ua.inf, dtype=arg_dt)

    x = ua.concat((x1, x2, x3, x4))
    actual = ua.signbit(x[::-1])

    expected = ua.concat(
        (
            ua.full(x4.size, False),
            ua.full(x3.size, False),
            ua.full(x2.size, True),
            ua.full(x1.size, True),
        )
    )

    assert ua.all(ua.equal(actual, expected))
