"""__sycl_usm_array_interface__ of arrays, both ways."""

import gc
import weakref

import numpy as np
import pytest
import usmarray as ua
from conftest import Holder


def layouts():
    base = ua.asarray(np.arange(60, dtype=np.int32).reshape(3, 4, 5), usm_type="shared")
    return {
        "C": base,
        "F": ua.asarray(np.asfortranarray(np.arange(12.0).reshape(3, 4))),
        "strided": base[:, ::2, 1:4],
        "negative": base[::-1, :, ::-2],
        "0-d": base[1, 2, 3],
        "zero-size": base[:, 2:2],
        "transposed": base.transpose(),
        "broadcast-like": ua.USMArray((3, 2), dtype="i4", buffer=base, strides=(0, 1)),
    }


@pytest.mark.parametrize("name", list(layouts()))
def test_export_describes_the_elements(name):
    x = layouts()[name]
    iface = x.__sycl_usm_array_interface__
    assert iface["version"] == 1 and iface["syclobj"] is x.queue
    assert iface["shape"] == x.shape and iface["typestr"] == x.dtype.str
    assert iface["data"] == (x.base._pointer, False)
    assert iface["offset"] == x._element_offset
    if x.flags.c_contiguous:
        assert iface["strides"] is None
    else:
        assert iface["strides"] == x.strides


@pytest.mark.parametrize("name", list(layouts()))
def test_round_trip_through_a_foreign_holder(name):
    x = layouts()[name]
    iface = x.__sycl_usm_array_interface__
    y = ua.asarray(Holder(iface, keep=x))
    assert y.__sycl_usm_array_interface__["shape"] == iface["shape"]
    assert y.__sycl_usm_array_interface__ == {**iface, "syclobj": y.queue}
    assert y._pointer == x._pointer
    if x.size:  # an empty array's strides address nothing and export as None
        assert y.strides == x.strides
    assert y.dtype == x.dtype and y.usm_type == x.usm_type
    np.testing.assert_array_equal(ua.asnumpy(y), ua.asnumpy(x))


def test_import_is_zero_copy_and_keeps_producer_alive():
    x = ua.zeros((4, 4), usm_type="device")
    holder = Holder(x.__sycl_usm_array_interface__, keep=x)
    y = ua.asarray(holder)
    assert y.base.reference_obj is holder
    ref = weakref.ref(holder)
    del holder, x
    gc.collect()
    assert ref() is not None
    y[1, 1] = 5
    assert ua.asnumpy(ref().keep)[1, 1] == 5  # the same memory
    del y
    gc.collect()
    assert ref() is None


def test_read_only_propagates():
    x = ua.arange(6)
    x.flags.writable = False
    iface = x.__sycl_usm_array_interface__
    assert iface["data"][1] is True
    y = ua.asarray(Holder(iface, keep=x))
    assert not y.flags.writable
    with pytest.raises(ValueError, match="read-only"):
        y[0] = 1
    assert y.__sycl_usm_array_interface__["data"][1] is True


def test_negative_offset_below_data_pointer():
    mem = ua.MemoryUSMShared(64)
    np.frombuffer(mem, dtype=np.float64)[:] = np.arange(8)
    iface = {
        "shape": (2,),
        "typestr": "<f8",
        "data": (mem._pointer + 32, False),
        "strides": (-2,),
        "offset": -1,
        "version": 1,
        "syclobj": mem.queue,
    }
    y = ua.asarray(Holder(iface, keep=mem))
    assert ua.asnumpy(y).tolist() == [3.0, 1.0]


def test_memory_objects_import_as_byte_arrays():
    mem = ua.MemoryUSMHost(8)
    y = ua.asarray(mem)
    assert y.shape == (8,) and y.dtype == np.uint8 and y.base.reference_obj is mem


@pytest.mark.parametrize(
    "changes, exc, fragment",
    [
        ({"shape": (5, 5)}, ValueError, "outside the"),
        ({"strides": (1,)}, ValueError, "['strides'] has 1 entries"),
        ({"typestr": "<M8"}, ValueError, "unsupported kind 'M'"),
        ({"version": 3}, ValueError, "only version 1"),
        ({"offset": 100}, ValueError, "outside the"),
        ({"data": (12345, False)}, ValueError, "not inside any USM allocation"),
    ],
)
def test_bad_array_interfaces(changes, exc, fragment):
    x = ua.zeros((4, 4), usm_type="shared")
    iface = {**x.__sycl_usm_array_interface__, **changes}
    with pytest.raises(exc) as info:
        ua.asarray(Holder(iface, keep=x))
    assert fragment in str(info.value)


def test_each_export_is_a_new_dictionary_in_the_documented_key_order():
    x = ua.empty((3, 4), dtype="f4", usm_type="shared")[:, ::2]
    first = x.__sycl_usm_array_interface__
    assert list(first) == ["shape", "typestr", "data", "strides", "version", "offset", "syclobj"]
    first["shape"] = "changed by the consumer"
    first["extra"] = 1
    second = x.__sycl_usm_array_interface__
    assert second is not first
    assert second["shape"] == (3, 2) and "extra" not in second
    assert second["strides"] == (4, 2) and second["version"] == 1
    ai = x.__array_interface__
    assert list(ai) == ["shape", "typestr", "data", "strides", "version"]
    ai["typestr"] = None
    assert x.__array_interface__["typestr"] == "<f4"
    assert x.__array_interface__["strides"] == (16, 8)
