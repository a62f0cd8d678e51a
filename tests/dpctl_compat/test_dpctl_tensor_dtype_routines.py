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
# Translated from dpctl 0.21.1, dpctl/tests/test_tensor_dtype_routines.py, by tools/translate_dpctl_tests.py:
# generated, not to be edited; change the tool and run it again.

import numpy as np


import pytest

import usmarray as ua

list_dtypes = [
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]


dtype_categories = {
    "bool": ["bool"],
    "signed integer": ["int8", "int16", "int32", "int64"],
    "unsigned integer": ["uint8", "uint16", "uint32", "uint64"],
    "integral": [
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
    ],
    "real floating": ["float16", "float32", "float64"],
    "complex floating": ["complex64", "complex128"],
    "numeric": [d for d in list_dtypes if d != "bool"],
}


@pytest.mark.parametrize("kind_str", dtype_categories.keys())
@pytest.mark.parametrize("dtype_str", list_dtypes)
def test_isdtype_kind_str(dtype_str, kind_str):
    dt = np.dtype(dtype_str)
    is_in_kind = ua.isdtype(dt, kind_str)
    expected = dtype_str in dtype_categories[kind_str]
    assert is_in_kind == expected


@pytest.mark.parametrize("dtype_str", list_dtypes)
def test_isdtype_kind_tuple(dtype_str):
    dt = np.dtype(dtype_str)
    if dtype_str.startswith("bool"):
        assert ua.isdtype(dt, ("real floating", "bool"))
        assert not ua.isdtype(
            dt, ("integral", "real floating", "complex floating")
        )
    elif dtype_str.startswith("int"):
        assert ua.isdtype(dt, ("real floating", "signed integer"))
        assert not ua.isdtype(
            dt, ("bool", "unsigned integer", "real floating")
        )
    elif dtype_str.startswith("uint"):
        assert ua.isdtype(dt, ("bool", "unsigned integer"))
        assert not ua.isdtype(dt, ("real floating", "complex floating"))
    elif dtype_str.startswith("float"):
        assert ua.isdtype(dt, ("complex floating", "real floating"))
        assert not ua.isdtype(dt, ("integral", "complex floating", "bool"))
    else:
        assert ua.isdtype(dt, ("integral", "complex floating"))
        assert not ua.isdtype(dt, ("bool", "integral", "real floating"))


@pytest.mark.parametrize("dtype_str", list_dtypes)
def test_isdtype_kind_tuple_dtypes(dtype_str):
    dt = np.dtype(dtype_str)
    if dtype_str.startswith("bool"):
        assert ua.isdtype(dt, (ua.int32, ua.bool))
        assert not ua.isdtype(dt, (ua.int16, ua.uint32, ua.float64))

    elif dtype_str.startswith("int"):
        assert ua.isdtype(dt, (ua.int8, ua.int16, ua.int32, ua.int64))
        assert not ua.isdtype(dt, (ua.bool, ua.float32, ua.complex64))

    elif dtype_str.startswith("uint"):
        assert ua.isdtype(dt, (ua.uint8, ua.uint16, ua.uint32, ua.uint64))
        assert not ua.isdtype(dt, (ua.bool, ua.int32, ua.float32))

    elif dtype_str.startswith("float"):
        assert ua.isdtype(dt, (ua.float16, ua.float32, ua.float64))
        assert not ua.isdtype(dt, (ua.bool, ua.complex64, ua.int8))

    else:
        assert ua.isdtype(dt, (ua.complex64, ua.complex128))
        assert not ua.isdtype(dt, (ua.bool, ua.uint64, ua.int8))


@pytest.mark.parametrize(
    "kind",
    [
        [ua.int32, ua.bool],
        "f4",
        float,
        123,
        "complex",
    ],
)
def test_isdtype_invalid_kind(kind):
    with pytest.raises((TypeError, ValueError)):
        ua.isdtype(ua.int32, kind)


def test_finfo_array():
    try:
        x = ua.empty(tuple(), dtype="f4")
    except ValueError:
        pytest.skip("Default-selected SYCL device unavailable")
    o = ua.finfo(x)
    assert o.dtype == ua.float32


def test_iinfo_array():
    try:
        x = ua.empty(tuple(), dtype="i4")
    except ValueError:
        pytest.skip("Default-selected SYCL device unavailable")
    o = ua.iinfo(x)
    assert o.dtype == ua.int32


def test_iinfo_validation():
    with pytest.raises(ValueError):
        ua.iinfo("O")


def test_finfo_validation():
    with pytest.raises(ValueError):
        ua.iinfo("O")
