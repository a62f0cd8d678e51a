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
