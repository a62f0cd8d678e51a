"""USM memory and N-dimensional strided arrays, shared without copies.

The types and functions live in the C extension ``usmarray._usmarray``;
this module re-exports them.
"""

import math as _math
import os as _os

from ._usmarray import (
    Context,
    Device,
    Memory,
    MemoryUSMDevice,
    MemoryUSMHost,
    MemoryUSMShared,
    Queue,
    UniqueAllResult,
    UniqueCountsResult,
    UniqueInverseResult,
    USMAllocationError,
    USMArray,
    __array_namespace_info__,
    all,
    any,
    arange,
    argmax,
    argmin,
    argsort,
    as_usm_memory,
    asarray,
    asnumpy,
    astype,
    broadcast_arrays,
    broadcast_to,
    can_cast,
    concat,
    count_nonzero,
    cumulative_prod,
    cumulative_sum,
    diff,
    empty,
    empty_like,
    expand_dims,
    eye,
    finfo,
    flip,
    from_dlpack,
    full,
    full_like,
    get_devices,
    get_pointer_type,
    iinfo,
    isdtype,
    linspace,
    matmul,
    matrix_transpose,
    max,
    mean,
    meshgrid,
    min,
    moveaxis,
    nonzero,
    ones,
    ones_like,
    permute_dims,
    prod,
    repeat,
    reshape,
    result_type,
    roll,
    searchsorted,
    sort,
    squeeze,
    stack,
    std,
    sum,
    take,
    take_along_axis,
    tensordot,
    tile,
    tril,
    triu,
    unique_all,
    unique_counts,
    unique_inverse,
    unique_values,
    unstack,
    var,
    vecdot,
    zeros,
    zeros_like,
)

__version__ = "0.1.0"
__array_api_version__ = "2024.12"

e, inf, nan, pi = _math.e, _math.inf, _math.nan, _math.pi
newaxis = None


def __getattr__(name):
    if name in _DTYPES:
        import numpy

        globals()[name] = value = numpy.dtype(name)
        return value
    raise AttributeError(f"module 'usmarray' has no attribute {name!r}")


# The Array API's dtypes: NumPy's dtype objects (float16 an extension),
# made on first use, since importing usmarray does not import NumPy.
_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64", "complex64", "complex128")  # fmt: skip

__all__ = [
    "Context",
    "USMArray",
    "arange",
    "asarray",
    "asnumpy",
    "empty",
    "empty_like",
    "eye",
    "linspace",
    "meshgrid",
    "take",
    "take_along_axis",
    "tril",
    "triu",
    "full",
    "from_dlpack",
    "full_like",
    "ones",
    "ones_like",
    "permute_dims",
    "reshape",
    "zeros",
    "zeros_like",
    "Device",
    "Memory",
    "MemoryUSMDevice",
    "MemoryUSMHost",
    "MemoryUSMShared",
    "Queue",
    "USMAllocationError",
    "as_usm_memory",
    "get_devices",
    "get_include",
    "get_pointer_type",
    "__array_namespace_info__",
    "astype",
    "can_cast",
    "finfo",
    "iinfo",
    "isdtype",
    "result_type",
    "broadcast_arrays",
    "broadcast_to",
    "concat",
    "expand_dims",
    "flip",
    "moveaxis",
    "repeat",
    "roll",
    "squeeze",
    "stack",
    "tile",
    "unstack",
    "all",
    "any",
    "argmax",
    "argmin",
    "argsort",
    "count_nonzero",
    "cumulative_prod",
    "cumulative_sum",
    "diff",
    "matmul",
    "matrix_transpose",
    "max",
    "mean",
    "min",
    "nonzero",
    "prod",
    "searchsorted",
    "sort",
    "std",
    "sum",
    "tensordot",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
    "var",
    "vecdot",
    *_DTYPES,
    "e",
    "inf",
    "nan",
    "newaxis",
    "pi",
]


def get_include():
    """The directory to pass as ``-I`` to compile against the C API.

    It holds ``usmarray/usmarray_api.h``: in the installed package, or, when
    the package runs its extension module from a build tree, beside it.
    """
    installed = _os.path.join(_os.path.dirname(__file__), "include")
    if _os.path.isdir(installed):
        return installed
    from . import _usmarray

    built = _os.path.dirname(_os.path.realpath(_usmarray.__file__))
    return _os.path.join(built, "include")
