import math
import os

import pytest

import usmarray as ua


class Holder:
    """A foreign object that exposes a given SUAI dictionary."""

    def __init__(self, iface, keep=None):
        self.__sycl_usm_array_interface__ = iface
        self.keep = keep


def suai(mem, **changes):
    """mem's interface dictionary with some keys changed or (None) removed."""
    iface = dict(mem.__sycl_usm_array_interface__)
    for key, value in changes.items():
        if value is KEEP_OUT:
            iface.pop(key, None)
        else:
            iface[key] = value
    return iface


KEEP_OUT = object()

KINDS = {
    "device": ua.MemoryUSMDevice,
    "shared": ua.MemoryUSMShared,
    "host": ua.MemoryUSMHost,
}


@pytest.fixture
def host_queue():
    return ua.Queue("host")


@pytest.fixture(params=sorted(KINDS))
def kind(request):
    return request.param


def stress_scale():
    """USMARRAY_STRESS_SCALE: the fraction of the stress tests' full length to
    run (CI's sanitizer build runs 0.02)."""
    text = os.environ.get("USMARRAY_STRESS_SCALE", "")
    if not text:
        return 1.0
    try:
        scale = float(text)
    except ValueError:
        scale = math.nan
    if not (0 < scale <= 1e6):
        raise ValueError(f"USMARRAY_STRESS_SCALE is {text!r}; expected a positive number "
                         "(1 runs the stress tests in full, 0.02 a fiftieth of them)")
    return scale
