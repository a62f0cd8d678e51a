"""The Array API's data types: the dtype attributes and constants, the
namespace, and result_type, can_cast, isdtype, iinfo and finfo, compared
with NumPy 2 for every pair of dtypes."""

import itertools
import math
import pickle
import subprocess
import sys

import numpy as np
import pytest
import usmarray as ua

NAMES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
         "float16", "float32", "float64", "complex64", "complex128"]  # fmt: skip
DTYPES = [np.dtype(n) for n in NAMES]
KINDS = {
    "bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
    "real floating": "f", "complex floating": "c", "numeric": "iufc",
}  # fmt: skip


def test_dtypes_and_constants_are_module_attributes():
    for name in NAMES:
        assert getattr(ua, name) == np.dtype(name), name
        assert name in ua.__all__
    assert ua.e == math.e and ua.pi == math.pi and ua.inf == math.inf
    assert math.isnan(ua.nan) and ua.newaxis is None
    assert ua.__array_api_version__ == "2025.12"


def test_importing_usmarray_does_not_import_numpy():
    code = "import sys, usmarray; assert 'numpy' not in sys.modules; usmarray.int8; assert 'numpy' in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
    with pytest.raises(AttributeError, match="has no attribute 'int128'"):
        ua.int128


def test_array_namespace_is_the_modules_names_under_another_name():
    """A module object made once, not the package: SciPy takes a namespace
    whose __name__ contains "marray" for the MArray library."""
    x = ua.empty(3, queue=ua.Queue("host"))
    ns = x.__array_namespace__()
    assert ns is not ua and "marray" not in ns.__name__
    assert x.__array_namespace__(api_version="2025.12") is ns
    assert x.__array_namespace__(api_version="2024.12") is ns
    assert x.__array_namespace__(api_version=None) is ns
    assert ua.ones(1).__array_namespace__() is ns
    for name in ua.__all__:
        assert getattr(ns, name) is getattr(ua, name), name
    assert ns.linalg is ua.linalg and ns.fft is ua.fft
    assert ns.__array_api_version__ == ua.__array_api_version__
    assert ns.__array_namespace_info__ is ua.__array_namespace_info__
    assert ns.add.__module__ == ua.add.__module__ and pickle.loads(pickle.dumps(ns.add)) is ua.add
    with pytest.raises(
        ValueError, match="versions 2025.12 and 2024.12 of the Array API standard, not '2021.12'"
    ):
        x.__array_namespace__(api_version="2021.12")
    with pytest.raises(ValueError, match="not 2024"):
        x.__array_namespace__(api_version=2024)
    with pytest.raises(TypeError, match="only the keyword argument api_version"):
        x.__array_namespace__("2024.12")
    with pytest.raises(TypeError, match="only the keyword argument api_version"):
        x.__array_namespace__(version="2024.12")


@pytest.mark.parametrize("a", DTYPES, ids=NAMES)
def test_result_type_and_can_cast_agree_with_numpy(a):
    for b in DTYPES:
        assert ua.result_type(a, b) == np.result_type(a, b), (a, b)
        assert ua.can_cast(a, b) == np.can_cast(a, b), (a, b)
    for scalar in (True, 1, 1.0, 1j):
        assert ua.result_type(a, scalar) == np.result_type(a, scalar), (a, scalar)
        assert ua.result_type(scalar, a) == np.result_type(scalar, a), (a, scalar)


def test_result_type_of_three_dtypes_agrees_with_numpy():
    # Not a fold over pairs: int8, uint8 and float16 give float16.
    assert ua.result_type(ua.int8, ua.uint8, ua.float16) == np.float16
    for a, b, c in itertools.product(DTYPES, repeat=3):
        assert ua.result_type(a, b, c) == np.result_type(a, b, c), (a, b, c)
    for a, b in itertools.product(DTYPES, repeat=2):
        for scalar in (True, 1, 1.0, 1j):
            assert ua.result_type(a, b, scalar) == np.result_type(a, b, scalar), (a, b, scalar)


def test_result_type_of_arrays_dtypes_and_scalars():
    q = ua.Queue("host")
    x8, f4 = ua.empty(2, dtype="i1", queue=q), ua.empty(2, dtype="f4", queue=q)
    assert ua.result_type(x8) == np.int8
    assert ua.result_type(x8, f4) == np.float32
    assert ua.result_type(x8, 300) == np.int8  # weak: the array's dtype
    assert ua.result_type(x8, ua.uint8, 1.0) == np.float64
    assert ua.result_type(f4, 1j, True) == np.complex64
    assert ua.result_type("f2", np.float32(1.0)) == np.float32
    assert ua.can_cast(x8, ua.int16) and not ua.can_cast(f4, ua.int64)


@pytest.mark.parametrize(
    "args, exc, match",
    [
        ((), ValueError, "at least one array or dtype"),
        ((1, 2.0), ValueError, "at least one array or dtype"),
        (("U3",), TypeError, "not supported by usmarray"),
        ((object,), TypeError, "not supported by usmarray"),
        ((None,), TypeError, "None is not a dtype"),
        ((">f8",), ValueError, "byte order"),
    ],
)
def test_result_type_refuses_what_has_no_dtype(args, exc, match):
    with pytest.raises(exc, match=match):
        ua.result_type(*args)


def test_can_cast_refuses_bad_arguments():
    with pytest.raises(TypeError, match="takes 2 positional arguments but 1"):
        ua.can_cast(ua.int8)
    with pytest.raises(TypeError, match="None is not a dtype"):
        ua.can_cast(ua.int8, None)
    with pytest.raises(TypeError, match="not supported"):
        ua.can_cast("U2", ua.int8)


@pytest.mark.parametrize("dtype", DTYPES, ids=NAMES)
def test_isdtype_names_every_kind(dtype):
    for kind, letters in KINDS.items():
        assert ua.isdtype(dtype, kind) == (dtype.kind in letters), (dtype, kind)
    assert ua.isdtype(dtype, dtype) and ua.isdtype(dtype, ("bool", dtype))
    other = np.dtype("int8") if dtype != np.int8 else np.dtype("uint8")
    assert not ua.isdtype(dtype, other)
    assert ua.isdtype(dtype, ("numeric",)) == (dtype.kind != "b")
    assert ua.isdtype(dtype, ()) is False


def test_isdtype_takes_its_arguments_by_keyword_too():
    # The standard's signature has no '/': isdtype(dtype, kind).
    import inspect

    assert str(inspect.signature(ua.isdtype)) == "(dtype, kind)"
    assert ua.isdtype(dtype=ua.int8, kind="integral") is True
    assert ua.isdtype(ua.int8, kind="bool") is False
    with pytest.raises(TypeError, match="missing required argument 'kind'"):
        ua.isdtype(ua.int8)
    with pytest.raises(TypeError, match="at most 2 positional"):
        ua.isdtype(ua.int8, "bool", "numeric")


def test_isdtype_refuses_what_is_no_kind():
    with pytest.raises(ValueError, match="unknown kind 'real'"):
        ua.isdtype(ua.float32, "real")
    with pytest.raises(ValueError, match="unknown kind 'numbers'"):
        ua.isdtype(ua.float32, ("bool", "numbers"))
    with pytest.raises(TypeError, match="kind must be a str, a dtype or a tuple"):
        ua.isdtype(ua.float32, 3)
    with pytest.raises(TypeError, match="dtype must be a dtype"):
        ua.isdtype("float32", "numeric")
    with pytest.raises(TypeError, match="dtype must be a dtype"):
        ua.isdtype(ua.empty(1, queue=ua.Queue("host")), "numeric")


@pytest.mark.parametrize("name", [n for n in NAMES if n[0] in "iu"])
def test_iinfo_matches_numpy(name):
    info, ref = ua.iinfo(np.dtype(name)), np.iinfo(name)
    assert (info.bits, info.max, info.min) == (ref.bits, int(ref.max), int(ref.min))
    assert type(info.max) is int and info.dtype == np.dtype(name)
    assert ua.iinfo(ua.empty(1, dtype=name, queue=ua.Queue("host"))).bits == ref.bits


@pytest.mark.parametrize("name", [n for n in NAMES if n[0] in "fc"])
def test_finfo_matches_numpy(name):
    info, ref = ua.finfo(np.dtype(name)), np.finfo(name)
    assert info.bits == ref.bits and info.dtype == ref.dtype
    for field in ("eps", "max", "min", "smallest_normal"):
        assert getattr(info, field) == float(getattr(ref, field)), field
        assert type(getattr(info, field)) is float, field


def test_info_refuses_the_other_kind():
    with pytest.raises(ValueError, match="iinfo: float32 is not an integer dtype"):
        ua.iinfo(ua.float32)
    with pytest.raises(ValueError, match="iinfo: bool is not an integer dtype"):
        ua.iinfo(ua.bool)
    with pytest.raises(ValueError, match="finfo: int8 is not a floating dtype"):
        ua.finfo(ua.int8)
    with pytest.raises(TypeError, match="None is not a dtype"):
        ua.finfo(None)


def test_isdtype_and_can_cast_as_the_first_calls_of_a_process():
    # numpy.dtype is known from numpy's import on, not only after some
    # other call has converted a dtype.
    for call in ("ua.isdtype(np.dtype('int8'), 'integral')", "ua.can_cast(np.dtype('i1'), 'i2')"):
        code = f"import numpy as np, usmarray as ua; assert {call}"
        subprocess.run([sys.executable, "-c", code], check=True)
