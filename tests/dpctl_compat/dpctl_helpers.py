"""What the translated dpctl tests import in place of dpctl's test helpers
(``dpctl/tests/helper``, ``dpctl/tests/elementwise/utils.py``) and of the
few pure functions of dpctl they call (``_can_cast``,
``_to_device_supported_dtype``, ``get_coerced_usm_type``), written for
usmarray's queues and devices.  ``tools/translate_dpctl_tests.py`` rewrites
the imports to name this module."""

import numpy as np
import pytest
import usmarray as ua

# dpctl's exceptions, as usmarray raises them: a queue or device that cannot
# be made is a ValueError, and so are arrays of different queues.
ExecutionPlacementError = ValueError

_integral_dtypes = ["i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8"]
_real_fp_dtypes = ["f2", "f4", "f8"]
_complex_fp_dtypes = ["c8", "c16"]
_real_value_dtypes = _integral_dtypes + _real_fp_dtypes
_no_complex_dtypes = ["b1"] + _real_value_dtypes
_all_dtypes = _no_complex_dtypes + _complex_fp_dtypes
_usm_types = ["device", "shared", "host"]


def get_queue_or_skip(args=()):
    """A queue of the default device (USMARRAY_DEVICE), or of the filter
    string in args; skips where none can be made."""
    try:
        return ua.Queue(*args)
    except ValueError:
        pytest.skip(f"Queue could not be created from {args}")


def _device_of(q_or_dev):
    if isinstance(q_or_dev, ua.Queue):
        return q_or_dev.device
    if isinstance(q_or_dev, ua.Device):
        return q_or_dev
    raise TypeError(f"Expected usmarray.Queue or usmarray.Device, got {type(q_or_dev)}")


def skip_if_dtype_not_supported(dt, q_or_dev):
    dt = np.dtype(dt)
    dev = _device_of(q_or_dev)
    if not dev.has_aspect_fp64 and dt in (np.dtype("f8"), np.dtype("c16")):
        pytest.skip(f"{dev.name} does not support double precision floating point types")
    if not dev.has_aspect_fp16 and dt == np.dtype("f2"):
        pytest.skip(f"{dev.name} does not support half precision floating point type")


def _to_device_supported_dtype(dt, dev):
    dt = np.dtype(dt)
    dev = _device_of(dev)
    if not dev.has_aspect_fp64:
        if dt == np.dtype("f8"):
            return np.dtype("f4")
        if dt == np.dtype("c16"):
            return np.dtype("c8")
    if not dev.has_aspect_fp16 and dt == np.dtype("f2"):
        return np.dtype("f4")
    return dt


_map_to_device_dtype = _to_device_supported_dtype


def _compare_dtypes(dt, ref_dt, sycl_queue=None):
    assert isinstance(sycl_queue, ua.Queue)
    return dt == _to_device_supported_dtype(ref_dt, sycl_queue.device)


def _supported(dt, fp16, fp64):
    dt = np.dtype(dt)
    if dt in (np.dtype("f8"), np.dtype("c16")):
        return fp64
    if dt == np.dtype("f2"):
        return fp16
    return True


def _can_cast(from_, to_, _fp16, _fp64, casting="safe"):
    """Can from_ be cast to to_ on a device with the fp16 and fp64
    aspects given (dpctl.tensor._type_utils._can_cast)."""
    from_, to_ = np.dtype(from_), np.dtype(to_)
    if not _supported(to_, _fp16, _fp64):
        return False
    can = np.can_cast(from_, to_, casting=casting)
    if _fp16 and _fp64:
        return can
    if not can and from_.kind in "biu" and to_.kind in "fc":
        widest = {"f": "f8" if _fp64 else "f4", "c": "c16" if _fp64 else "c8"}
        return to_ == np.dtype(widest[to_.kind])
    return can


def get_coerced_usm_type(usm_types, /):
    """The usm_type of a result from inputs of these (device over shared
    over host), as dpctl.utils.get_coerced_usm_type."""
    if not isinstance(usm_types, (list, tuple)):
        raise TypeError(f"Expected a list or a tuple, got {type(usm_types)}")
    order = ["device", "shared", "host"]
    if not usm_types or any(t not in order for t in usm_types):
        return None
    return order[min(order.index(t) for t in usm_types)]


class DpctlOnly:
    """Stands for a dpctl module or name that has no counterpart in
    usmarray; the tests that use it are marked skip by the translation."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        raise AttributeError(f"{self._name}.{attr} is dpctl's own, without a usmarray counterpart")

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self._name} is dpctl's own, without a usmarray counterpart")


def allclose(a, b, /, *, rtol=1e-5, atol=1e-8, equal_nan=False):
    """dpctl.tensor.allclose, a testing utility outside the standard:
    NumPy's on the arrays' copies."""
    return bool(
        np.allclose(ua.asnumpy(a), ua.asnumpy(b), rtol=rtol, atol=atol, equal_nan=equal_nan)
    )
