"""USM memory and N-dimensional strided arrays, shared without copies.

The types and functions live in the C extension ``usmarray._usmarray``;
this module re-exports them.
"""

import os as _os

from ._usmarray import (
    Context,
    Device,
    Memory,
    MemoryUSMDevice,
    MemoryUSMHost,
    MemoryUSMShared,
    Queue,
    USMAllocationError,
    USMArray,
    arange,
    as_usm_memory,
    asarray,
    asnumpy,
    empty,
    empty_like,
    from_dlpack,
    full,
    full_like,
    get_devices,
    get_pointer_type,
    ones,
    ones_like,
    permute_dims,
    reshape,
    zeros,
    zeros_like,
)

__version__ = "0.1.0"

__all__ = [
    "Context",
    "USMArray",
    "arange",
    "asarray",
    "asnumpy",
    "empty",
    "empty_like",
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
