"""Zero-copy exchange with NumPy in both directions, proven by writing
through one side and reading through the other."""

import numpy as np
import pytest
import usmarray as ua
from interop_layouts import LAYOUTS


# The exchange partners here run on the CPU: arrays live on the host backend,
# whatever the default device is.
def fresh(kind="shared"):
    return ua.asarray(np.arange(24.0).reshape(4, 6), usm_type=kind, queue="host")


@pytest.mark.parametrize("route", ["from_dlpack", "asarray"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_numpy_reads_and_writes_our_memory(layout, route):
    x = LAYOUTS[layout](fresh())
    n = np.from_dlpack(x) if route == "from_dlpack" else np.asarray(x)
    assert n.shape == x.shape and n.strides == tuple(s * 8 for s in x.strides) or n.size == 0
    np.testing.assert_array_equal(n, ua.asnumpy(x))
    if x.size:
        n[...] = -1
        assert (ua.asnumpy(x) == -1).all()
        x[...] = 5
        assert (n == 5).all()


@pytest.mark.parametrize("route", ["from_dlpack", "asarray_host"])
@pytest.mark.parametrize(
    "layout", ["c-ordered", "strided", "negative-stride", "transposed", "0-d", "zero-size"]
)
def test_we_read_and_write_numpy_memory(layout, route):
    base = np.arange(24.0).reshape(4, 6)
    views = {
        "c-ordered": base,
        "strided": base[::2, 1::2],
        "negative-stride": base[::-1, ::-2],
        "transposed": base.T,
        "0-d": base[1, 2, ...],
        "zero-size": base[3:3],
    }
    h = views[layout]
    x = (
        ua.from_dlpack(h)
        if route == "from_dlpack"
        else ua.asarray(h, usm_type="host", queue="host")
    )
    assert x.shape == h.shape
    np.testing.assert_array_equal(ua.asnumpy(x), h)
    if h.size:
        x[...] = 7
        assert (h == 7).all()
        h[...] = 3
        assert (ua.asnumpy(x) == 3).all()


def test_read_only_survives_both_ways():
    h = np.arange(4.0)
    h.flags.writeable = False
    x = ua.from_dlpack(h)
    assert not x.flags.writable
    assert not np.from_dlpack(x).flags.writeable
    assert not np.asarray(x).flags.writeable


@pytest.mark.parametrize("kind", ["device", "shared", "host"])
def test_host_backend_memory_of_every_kind_reaches_numpy_without_a_copy(kind):
    """The host backend's memory is the process's own: np.asarray shares it
    as np.from_dlpack does (a Memory of device kind keeps refusing)."""
    x = fresh(kind)
    for n in (np.asarray(x), np.from_dlpack(x), np.asarray(memoryview(x))):
        assert n.ctypes.data == x._pointer
        np.testing.assert_array_equal(n, ua.asnumpy(x))
    assert x.__array_interface__["data"] == (x._pointer, False)
    np.asarray(x)[0, 0] = -1
    assert float(x[0, 0]) == -1
    if kind == "device":
        with pytest.raises(BufferError, match="device"):
            memoryview(x.base)
