"""__cuda_array_interface__ import of the host backend's memory, on any
machine: every key is checked, and memory that is not a CUDA device's is
refused by name.  (Export exists only for CUDA-accessible memory.)"""

import numpy as np
import pytest
import usmarray as ua


class Holder:
    def __init__(self, iface):
        self.__cuda_array_interface__ = iface


@pytest.fixture(scope="module")
def mem():
    return ua.MemoryUSMShared(256, queue="host")


def cai(mem, **over):
    d = {"shape": (4,), "typestr": "<f8", "data": (mem._pointer, False), "version": 3}
    d.update(over)
    return {k: v for k, v in d.items() if v is not DROP}


DROP = object()

BAD = [
    ({"version": DROP}, ValueError, "has no required key 'version'"),
    ({"version": 4}, ValueError, "versions 0 to 3 are supported"),
    ({"version": -1}, ValueError, "versions 0 to 3 are supported"),
    ({"version": "3"}, TypeError, "['version'] must be an integer"),
    ({"shape": DROP}, ValueError, "has no required key 'shape'"),
    ({"shape": 4}, TypeError, "['shape'] must be a tuple of integers"),
    ({"shape": (4, -1)}, ValueError, "['shape'][1] is negative"),
    ({"shape": (1.5,)}, TypeError, "['shape'][0] must be an integer"),
    ({"shape": (1,) * 65}, ValueError, "at most 64 dimensions"),
    ({"typestr": DROP}, ValueError, "has no required key 'typestr'"),
    ({"typestr": 8}, TypeError, "['typestr'] must be a str"),
    ({"typestr": "<V8"}, ValueError, "['typestr']"),
    ({"typestr": ">f8"}, ValueError, "['typestr']"),
    ({"data": DROP}, ValueError, "has no required key 'data'"),
    ({"data": 5}, TypeError, "['data'] must be a 2-tuple"),
    ({"data": (1.0, False)}, TypeError, "(the pointer) must be an int"),
    ({"data": (-5, False)}, ValueError, "is not a pointer value"),
    ({"data": (2**70, False)}, ValueError, "is not a pointer value"),
    ({"data": ("MEM", 1)}, TypeError, "(the read-only flag) must be a bool"),
    ({"data": (0, False)}, ValueError, "is 0 (NULL) for an array with elements"),
    ({"strides": (4,)}, ValueError, "['strides'][0] is 4 bytes, not a multiple of the itemsize 8"),
    ({"strides": (8, 8)}, ValueError, "['strides'] has 2 entries but 'shape' has 1"),
    ({"strides": "8"}, TypeError, "['strides'] must be a tuple of integers"),
    ({"stream": 0}, ValueError, "['stream'] is 0, which the protocol forbids"),
    ({"stream": 1.0}, TypeError, "['stream'] must be None or an int"),
    ({"stream": -3}, ValueError, "['stream'] is not a stream"),
    ({"mask": np.ones(4, bool)}, ValueError, "['mask'] is not None"),
    ({}, ValueError, "is shared memory of host:cpu:0, not memory of a CUDA device"),
    ({"data": ("MEM+8", False)}, ValueError, "not memory of a CUDA device"),
    ({"data": (16, False)}, ValueError, "not inside any USM allocation"),
    ({"shape": (1000,)}, ValueError, "__cuda_array_interface__:"),
]


@pytest.mark.parametrize(
    "over, exc, fragment", BAD, ids=[f"{i}-{b[2][:32]}" for i, b in enumerate(BAD)]
)
def test_bad_cai_dictionaries(mem, over, exc, fragment):
    over = dict(over)
    if "data" in over and isinstance(over["data"], tuple) and isinstance(over["data"][0], str):
        p = mem._pointer + (8 if over["data"][0] == "MEM+8" else 0)
        over["data"] = (p, over["data"][1])
    with pytest.raises(exc) as info:
        ua.asarray(Holder(cai(mem, **over)))
    assert fragment in str(info.value)


def test_cai_must_be_a_dict():
    with pytest.raises(TypeError, match="__cuda_array_interface__ must be a dict"):
        ua.asarray(Holder([("shape", (1,))]))


def test_size_zero_needs_no_memory(mem):
    x = ua.asarray(Holder(cai(mem, shape=(0, 3), data=(0, False), version=0)))
    assert x.shape == (0, 3) and x.dtype == np.float64


def test_accepted_forms_reach_the_location_check(mem):
    # versions 0-3, absent strides and stream, None mask: all accepted up to
    # the point where the memory turns out not to be a CUDA device's.
    for version in range(4):
        for extra in (
            {},
            {"strides": None, "stream": None, "mask": None},
            {"stream": 1},
            {"stream": 2},
            {"strides": (8,)},
        ):
            with pytest.raises(ValueError, match="not memory of a CUDA device"):
                ua.asarray(Holder(cai(mem, version=version, **extra)))


def test_sycl_interface_wins_over_cai(mem):
    class Both:
        pass

    b = Both()
    b.__sycl_usm_array_interface__ = {
        "shape": (4,),
        "typestr": "<f8",
        "data": (mem._pointer, False),
        "version": 1,
        "syclobj": ua.Queue("host"),
    }
    b.__cuda_array_interface__ = {"bogus": True}
    assert ua.asarray(b)._pointer == mem._pointer


def test_cai_wins_over_dlpack(mem):
    class Both:
        def __dlpack__(self, **kwargs):
            raise AssertionError("DLPack must not be asked")

        def __dlpack_device__(self):
            return (1, 0)

    b = Both()
    b.__cuda_array_interface__ = cai(mem)
    with pytest.raises(ValueError, match="not memory of a CUDA device"):
        ua.asarray(b)


def test_dlpack_only_producers_are_imported():
    class Producer:
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, **kwargs):
            return self.a.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    a = np.arange(5.0)
    host = ua.asarray(Producer(a), usm_type="host", queue="host")
    host[0] = 50
    assert a[0] == 50
    dev = ua.asarray(Producer(a))
    assert dev.usm_type == "device" and ua.asnumpy(dev)[0] == 50
