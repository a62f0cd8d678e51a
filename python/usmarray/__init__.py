"""USM memory and N-dimensional strided arrays, shared without copies.

The types and functions live in the C extension ``usmarray._usmarray``;
this module re-exports the names of its ``__all__`` and adds the dtypes,
the constants and ``get_include``.
"""

import math as _math
import os as _os
import sys as _sys

# The extension's types and functions: the names of its __all__, which it
# makes from the method tables and types it registers (module.c).
from . import _usmarray
from ._fuse import fuse
from ._usmarray import *  # noqa: F403
from ._usmarray import fft, linalg

# The standard's extensions are submodules of the extension module.
_sys.modules[__name__ + ".linalg"] = linalg
_sys.modules[__name__ + ".fft"] = fft

__version__ = "0.1.0"
__array_api_version__ = "2025.12"

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

__all__ = [*_usmarray.__all__, "fuse", "get_include", *_DTYPES, "e", "inf", "nan", "newaxis", "pi"]


def get_include():
    """The directory to pass as ``-I`` to compile against the C API.

    It holds ``usmarray/usmarray_api.h``: in the installed package, or, when
    the package runs its extension module from a build tree, beside it.
    """
    installed = _os.path.join(_os.path.dirname(__file__), "include")
    if _os.path.isdir(installed):
        return installed
    built = _os.path.dirname(_os.path.realpath(_usmarray.__file__))
    return _os.path.join(built, "include")
