"""The bad-input catalogue: Python scalars that do not fit the dtype, the data
type functions, astype and __array_namespace_info__. Each row is a call, the
exception a user can catch and a fragment of its message.

The catalogue's other areas are the files test_bad_inputs_*.py beside this
one; bad_inputs.py gathers them, for test_bad_inputs.py and the atheris
fuzzer (fuzz/python/)."""

import numpy as np
import pytest
import usmarray as ua
from bad_input_helpers import DtypeIs, RaisingDtype, dev, host, raises_clearly
from dlpack_ctypes import plain_capsule

C = pytest.param

CASES = [
    # ---- Python scalars that do not fit the dtype ----
    C(
        lambda: ua.full(2, 300, dtype="u1"),
        OverflowError,
        "Python integer 300 out of bounds for uint8",
        id="scalar-full-too-large",
    ),
    C(
        lambda: dev(dtype="u1").__setitem__(0, -1),
        OverflowError,
        "Python integer -1 out of bounds for uint8",
        id="scalar-setitem-negative-unsigned",
    ),
    C(
        lambda: dev(dtype="i4").fill(2**40),
        OverflowError,
        "out of bounds for int32",
        id="scalar-fill-too-large",
    ),
    C(
        lambda: dev(dtype="u8").fill(-(2**70)),
        OverflowError,
        "out of bounds for uint64",
        id="scalar-fill-huge-negative",
    ),
    C(
        lambda: dev(dtype="f4").__setitem__(0, 1 + 2j),
        TypeError,
        "imaginary part",
        id="scalar-complex-into-float",
    ),
    C(
        lambda: dev(dtype="i8").__setitem__(0, 1j),
        TypeError,
        "imaginary part",
        id="scalar-complex-into-int",
    ),
    C(
        lambda: dev(dtype="i2").fill(float("nan")),
        ValueError,
        "cannot convert float NaN to integer",
        id="scalar-nan-into-int",
    ),
    C(
        lambda: dev(dtype="i2").fill(float("inf")),
        OverflowError,
        "cannot convert float infinity to integer",
        id="scalar-inf-into-int",
    ),
    C(
        lambda: dev(dtype="i4").fill(1e20),
        OverflowError,
        "Python float 1e+20 out of bounds for int32",
        id="scalar-float-too-large-for-int",
    ),
    C(
        lambda: dev(dtype="f8").fill(10**400),
        OverflowError,
        "int too large to convert to float",
        id="scalar-int-too-large-for-float",
    ),
    C(
        lambda: dev(dtype="u1").__setitem__(slice(None), [1, 2, 300, 4]),
        OverflowError,
        "300 out of bounds",
        id="scalar-in-list-too-large",
    ),
    C(
        lambda: dev().fill(1j),
        TypeError,
        "imaginary part",
        id="scalar-fill-complex",
    ),
    C(
        lambda: ua.arange(250, 260, dtype="u1"),
        OverflowError,
        "Python integer 259 out of bounds for uint8",
        id="scalar-arange-last-too-large",
    ),
    C(
        lambda: ua.arange(-1, 3, dtype="u1"),
        OverflowError,
        "Python integer -1 out of bounds for uint8",
        id="scalar-arange-start-negative",
    ),
    C(
        lambda: ua.asarray([300], dtype="u1"),
        OverflowError,
        "Python integer 300 out of bounds for uint8",
        id="scalar-asarray-list-too-large",
    ),
    # ---- data type functions ----
    C(
        lambda: ua.result_type(),
        ValueError,
        "at least one array or dtype",
        id="result-type-nothing",
    ),
    C(lambda: ua.result_type(1, 2.5), ValueError, "Python scalars alone", id="result-type-scalars"),
    C(lambda: ua.result_type("U3"), TypeError, "not supported", id="result-type-unicode"),
    C(lambda: ua.result_type(None), TypeError, "None is not a dtype", id="result-type-none"),
    C(lambda: ua.can_cast(ua.int8), TypeError, "2 positional", id="can-cast-one-arg"),
    C(lambda: ua.can_cast(ua.int8, "O"), TypeError, "not supported", id="can-cast-object"),
    C(
        lambda: ua.isdtype(ua.int8, "ints"),
        ValueError,
        "unknown kind 'ints'",
        id="isdtype-bad-kind",
    ),
    C(lambda: ua.isdtype(ua.int8, 3), TypeError, "kind must be", id="isdtype-kind-int"),
    C(lambda: ua.isdtype("i1", "integral"), TypeError, "dtype must be", id="isdtype-str-dtype"),
    C(
        lambda: ua.result_type(RaisingDtype()),
        RuntimeError,
        "dtype getter",
        id="result-type-dtype-raises",
    ),
    C(
        lambda: ua.iinfo(DtypeIs(5)),
        TypeError,
        "5 is not a data type",
        id="iinfo-dtype-attribute-int",
    ),
    C(lambda: ua.finfo(DtypeIs("U3")), TypeError, "not supported", id="finfo-dtype-attribute-str"),
    C(lambda: ua.iinfo(ua.float64), ValueError, "not an integer dtype", id="iinfo-float"),
    C(lambda: ua.finfo(ua.uint8), ValueError, "not a floating dtype", id="finfo-int"),
    C(lambda: ua.finfo(">f8"), ValueError, "byte order", id="finfo-big-endian"),
    # ---- astype ----
    C(
        lambda: ua.astype(host(), "i1", casting="safe"),
        TypeError,
        "cannot cast from float64 to int8 according to the rule 'safe'",
        id="astype-casting-safe",
    ),
    C(
        lambda: host().astype("f4", casting="nope"),
        ValueError,
        "casting must be 'no', 'equiv', 'safe', 'same_kind' or 'unsafe', not 'nope'",
        id="method-astype-casting-unknown",
    ),
    C(
        lambda: host().astype("f4", device=3.5),
        TypeError,
        "device must be",
        id="method-astype-device",
    ),
    C(lambda: ua.astype(host(), "U3"), TypeError, "not supported", id="astype-unicode"),
    C(lambda: ua.astype(host(), ">f4"), ValueError, "byte order", id="astype-big-endian"),
    C(lambda: ua.astype(host(), 5), TypeError, "5 is not a data type", id="astype-dtype-int"),
    C(
        lambda: ua.astype(np.ones(3), "f4"),
        TypeError,
        "x must be a usmarray.USMArray",
        id="astype-numpy",
    ),
    C(
        lambda: ua.astype(host()),
        TypeError,
        "missing required argument 'dtype'",
        id="astype-no-dtype",
    ),
    C(
        lambda: ua.astype(host(), dtype="f4"),
        TypeError,
        "by position only",
        id="astype-dtype-keyword",
    ),
    C(
        lambda: ua.astype(host(), "f4", copy=None),
        TypeError,
        "copy must be a bool",
        id="astype-copy-none",
    ),
    C(
        lambda: ua.astype(host(), "f4", copy=1),
        TypeError,
        "copy must be a bool",
        id="astype-copy-int",
    ),
    C(
        lambda: ua.astype(host(), "f4", device=3),
        TypeError,
        "device must be",
        id="astype-device-int",
    ),
    C(
        lambda: ua.astype(host(), "f4", device="nowhere:gpu"),
        ValueError,
        "nowhere",
        id="astype-device-unknown",
    ),
    C(
        lambda: ua.astype(host(), "f4", order="Q"),
        ValueError,
        "order must be one of",
        id="astype-order",
    ),
    C(
        lambda: ua.astype(host(), "f4", device=plain_capsule(b"other")),
        TypeError,
        "only",
        id="astype-device-capsule",
    ),
    # ---- __array_namespace_info__ ----
    C(lambda: ua.__array_namespace_info__(1), TypeError, "takes no arguments", id="info-argument"),
    C(
        lambda: ua.__array_namespace_info__(device="host"),
        TypeError,
        "takes no arguments",
        id="info-keyword",
    ),
    C(
        lambda: ua.__array_namespace_info__().dtypes(kind="ints"),
        ValueError,
        "dtypes: unknown kind 'ints'",
        id="info-dtypes-bad-kind",
    ),
    C(
        lambda: ua.__array_namespace_info__().dtypes(kind=3),
        TypeError,
        "dtypes: kind must be",
        id="info-dtypes-kind-int",
    ),
    C(
        lambda: ua.__array_namespace_info__().dtypes(kind=("bool", None)),
        TypeError,
        "kind must be",
        id="info-dtypes-kind-tuple-none",
    ),
    C(
        lambda: ua.__array_namespace_info__().dtypes("host"),
        TypeError,
        "positional",
        id="info-dtypes-positional",
    ),
    C(
        lambda: ua.__array_namespace_info__().dtypes(device=2.5),
        TypeError,
        "device must be",
        id="info-dtypes-device-float",
    ),
    C(
        lambda: ua.__array_namespace_info__().dtypes(device="nowhere"),
        ValueError,
        "nowhere",
        id="info-dtypes-device-unknown",
    ),
    C(
        lambda: ua.__array_namespace_info__().default_dtypes(device="cpu:9"),
        ValueError,
        "cpu:9",
        id="info-default-dtypes-device-unknown",
    ),
    C(
        lambda: ua.__array_namespace_info__().default_dtypes(kind="bool"),
        TypeError,
        "invalid keyword argument",
        id="info-default-dtypes-kind",
    ),
    C(
        lambda: ua.__array_namespace_info__().devices(1),
        TypeError,
        "takes no arguments",
        id="info-devices-argument",
    ),
    C(
        lambda: ua.empty(1).__array_namespace__(api_version="2020.10"),
        ValueError,
        "not '2020.10'",
        id="array-namespace-version",
    ),
]


@pytest.mark.parametrize("call, exc, fragment", CASES)
def test_bad_input_raises_a_clear_exception(call, exc, fragment):
    raises_clearly(call, exc, fragment)
