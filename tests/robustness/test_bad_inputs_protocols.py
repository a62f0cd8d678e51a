"""The bad-input catalogue: the exchange protocols: SUAI, CAI and DLPack
import, DLPack export. Each row is a call, the exception a user can catch
and a fragment of its message.

The catalogue's other areas are the files test_bad_inputs_*.py beside this
one; bad_inputs.py gathers them, for test_bad_inputs.py and the atheris
fuzzer (fuzz/python/)."""

import numpy as np
import pytest
import usmarray as ua
from bad_input_helpers import (
    BIG,
    capsule,
    host,
    import_cai,
    import_suai,
    import_suai_dict,
    producer,
    raises_clearly,
    readonly,
    shared_mem,
    used_capsule,
)
from conftest import KEEP_OUT
from dlpack_ctypes import plain_capsule

C = pytest.param

CASES = [
    # ---- SUAI import ----
    C(lambda: import_suai(shape=KEEP_OUT), ValueError, "shape", id="suai-no-shape"),
    C(lambda: import_suai(typestr=KEEP_OUT), ValueError, "typestr", id="suai-no-typestr"),
    C(lambda: import_suai(data=KEEP_OUT), ValueError, "data", id="suai-no-data"),
    C(lambda: import_suai(version=KEEP_OUT), ValueError, "version", id="suai-no-version"),
    C(lambda: import_suai(syclobj=KEEP_OUT), ValueError, "syclobj", id="suai-no-syclobj"),
    C(lambda: import_suai(shape=(-1,)), ValueError, "negative", id="suai-negative-shape"),
    C(
        lambda: import_suai(shape=(BIG,)),
        (OverflowError, ValueError),
        "['shape'][0] is too large",
        id="suai-huge-shape",
    ),
    C(lambda: import_suai(shape="64"), TypeError, "shape", id="suai-shape-str"),
    C(lambda: import_suai(shape=(1,) * 65), ValueError, "64", id="suai-65-dims"),
    C(lambda: import_suai(shape=(65,)), ValueError, "outside", id="suai-past-end"),
    C(lambda: import_suai(typestr="<f3"), ValueError, "typestr", id="suai-typestr-size"),
    C(lambda: import_suai(typestr=""), ValueError, "typestr", id="suai-typestr-empty"),
    C(lambda: import_suai(typestr="|u1" * 100), ValueError, "typestr", id="suai-typestr-long"),
    C(lambda: import_suai(typestr="<f8\0"), ValueError, "typestr", id="suai-typestr-null"),
    C(lambda: import_suai(typestr=b"|u1"), TypeError, "typestr", id="suai-typestr-bytes"),
    C(lambda: import_suai(typestr="<M8"), ValueError, "M", id="suai-typestr-datetime"),
    C(lambda: import_suai(data=(0, False), shape=(1,)), ValueError, "0x0", id="suai-null-data"),
    C(lambda: import_suai(data=(8,)), ValueError, "not a tuple of 1", id="suai-data-1-tuple"),
    C(lambda: import_suai(data=[0, False]), TypeError, "data", id="suai-data-list"),
    C(lambda: import_suai(data=(-1, False)), ValueError, "pointer", id="suai-data-negative"),
    C(lambda: import_suai(data=(16, False)), ValueError, "not inside", id="suai-data-unknown"),
    C(
        lambda: import_suai(data=(shared_mem()._pointer, "no")),
        TypeError,
        "bool",
        id="suai-data-flag-str",
    ),
    C(lambda: import_suai(strides=(1, 1)), ValueError, "strides", id="suai-strides-length"),
    C(
        lambda: import_suai(strides=(BIG,)),
        (OverflowError, ValueError),
        "['strides'][0] is too large",
        id="suai-strides-huge",
    ),
    C(
        lambda: import_suai(strides=(2**62,), shape=(3,)),
        ValueError,
        "__sycl_usm_array_interface__: strides and shape",
        id="suai-strides-overflow",
    ),
    C(lambda: import_suai(offset=-1), ValueError, "outside", id="suai-offset-negative"),
    C(lambda: import_suai(offset=64), ValueError, "outside", id="suai-offset-past-end"),
    C(lambda: import_suai(offset="0"), TypeError, "offset", id="suai-offset-str"),
    C(lambda: import_suai(version=2), ValueError, "version", id="suai-version-2"),
    C(lambda: import_suai(version="1"), TypeError, "version", id="suai-version-str"),
    C(lambda: import_suai(syclobj=5), TypeError, "syclobj", id="suai-syclobj-int"),
    C(lambda: import_suai(syclobj="nosuch"), ValueError, "nosuch", id="suai-syclobj-bad"),
    C(lambda: import_suai_dict(5), TypeError, "dict", id="suai-not-dict"),
    C(lambda: import_suai_dict({}), ValueError, "version", id="suai-empty-dict"),
    # ---- CAI import ----
    C(lambda: import_cai(version=KEEP_OUT), ValueError, "version", id="cai-no-version"),
    C(lambda: import_cai(version=9), ValueError, "version", id="cai-version-9"),
    C(lambda: import_cai(shape=(1.0,)), TypeError, "shape", id="cai-shape-float"),
    C(lambda: import_cai(typestr="<f16"), ValueError, "typestr", id="cai-typestr-bad"),
    C(lambda: import_cai(data=(1.0, False)), TypeError, "pointer", id="cai-data-float"),
    C(lambda: import_cai(data=(0, False)), ValueError, "NULL", id="cai-data-null"),
    C(lambda: import_cai(strides=(3,)), ValueError, "multiple", id="cai-strides-not-multiple"),
    C(lambda: import_cai(stream=0), ValueError, "stream", id="cai-stream-zero"),
    C(lambda: import_cai(stream="s"), TypeError, "stream", id="cai-stream-str"),
    C(lambda: import_cai(mask=np.ones(4, bool)), ValueError, "mask", id="cai-mask"),
    C(lambda: import_cai(), ValueError, "CUDA", id="cai-host-memory"),
    C(lambda: import_cai(data=(16, False)), ValueError, "not inside", id="cai-unknown-pointer"),
    # ---- DLPack import ----
    C(lambda: ua.from_dlpack(5), TypeError, "int", id="dlpack-int"),
    C(lambda: ua.from_dlpack(object()), TypeError, "__dlpack__", id="dlpack-object"),
    C(lambda: ua.from_dlpack(), TypeError, "missing required argument", id="dlpack-no-args"),
    C(lambda: ua.from_dlpack(capsule(), device=5), TypeError, "device", id="dlpack-device-int"),
    C(
        lambda: ua.from_dlpack(capsule(), device="nosuch"),
        ValueError,
        "nosuch",
        id="dlpack-device-bad",
    ),
    C(lambda: ua.from_dlpack(capsule(), copy="x"), TypeError, "copy", id="dlpack-copy-str"),
    C(
        lambda: ua.from_dlpack(plain_capsule(b"other")),
        (TypeError, ValueError, BufferError),
        "other",
        id="dlpack-wrong-capsule-name",
    ),
    C(
        lambda: ua.from_dlpack(plain_capsule(b"used_dltensor")),
        (TypeError, ValueError, BufferError),
        "consumed",
        id="dlpack-used-name",
    ),
    C(used_capsule, (TypeError, ValueError, BufferError), "consumed", id="dlpack-capsule-twice"),
    C(
        lambda: ua.from_dlpack(capsule(version=(2, 0))),
        BufferError,
        "version",
        id="dlpack-newer-major",
    ),
    C(lambda: ua.from_dlpack(capsule(device=(2, 0))), BufferError, "cuda", id="dlpack-cuda-device"),
    C(
        lambda: ua.from_dlpack(capsule(device=(99, 0))),
        BufferError,
        "99",
        id="dlpack-unknown-device",
    ),
    C(
        lambda: ua.from_dlpack(capsule(dtype=(4, 16, 1))),
        BufferError,
        "DLPack dtype bfloat16 is not supported by usmarr",
        id="dlpack-bfloat16",
    ),
    C(lambda: ua.from_dlpack(capsule(dtype=(2, 64, 2))), BufferError, "lanes", id="dlpack-lanes"),
    C(
        lambda: ua.from_dlpack(capsule(dtype=(2, 24, 1))),
        BufferError,
        "DLPack dtype (code 2, 24 bits) is not supported",
        id="dlpack-float24",
    ),
    C(
        lambda: ua.from_dlpack(capsule(dtype=(9, 8, 1))),
        BufferError,
        "DLPack dtype (code 9, 8 bits) is not supported b",
        id="dlpack-unknown-code",
    ),
    C(lambda: ua.from_dlpack(capsule(ndim=-1)), BufferError, "ndim", id="dlpack-negative-ndim"),
    C(lambda: ua.from_dlpack(capsule(ndim=100)), BufferError, "ndim", id="dlpack-ndim-100"),
    C(
        lambda: ua.from_dlpack(capsule(shape=(-4,))),
        BufferError,
        "shape",
        id="dlpack-negative-shape",
    ),
    C(
        lambda: ua.from_dlpack(capsule(strides=(2**62,), shape=(4,))),
        BufferError,
        "DLPack tensor: strides and shape reach beyond ad",
        id="dlpack-stride-overflow",
    ),
    C(lambda: ua.from_dlpack(capsule(data=0)), BufferError, "NULL", id="dlpack-null-data"),
    C(
        lambda: ua.from_dlpack(capsule(byte_offset=-8)),
        BufferError,
        "DLPack tensor byte_offset 18446744073709551608 o",
        id="dlpack-negative-offset",
    ),
    C(lambda: ua.from_dlpack(producer(5)), TypeError, "capsule", id="dlpack-producer-returns-int"),
    C(
        lambda: ua.from_dlpack(producer(None)),
        TypeError,
        "capsule",
        id="dlpack-producer-returns-none",
    ),
    C(
        lambda: ua.from_dlpack(producer(lambda **kw: 1 / 0)),
        ZeroDivisionError,
        "division by zero",
        id="dlpack-producer-raises",
    ),
    C(
        lambda: ua.asarray(producer(capsule(), device=5)),
        TypeError,
        "__dlpack_device__",
        id="dlpack-device-not-tuple",
    ),
    C(
        lambda: ua.asarray(producer(capsule(), device=(1,))),
        TypeError,
        "__dlpack_device__",
        id="dlpack-device-1-tuple",
    ),
    C(
        lambda: ua.asarray(producer(capsule(), device=("a", 0))),
        TypeError,
        "__dlpack_device__",
        id="dlpack-device-str",
    ),
    C(
        lambda: ua.from_dlpack(producer(capsule(), device=5)),
        TypeError,
        "__dlpack_device__",
        id="from-dlpack-device-not-tuple",
    ),
    C(
        lambda: ua.from_dlpack(producer(capsule(), device=(1, BIG))),
        ValueError,
        "names no device",
        id="from-dlpack-device-huge-id",
    ),
    C(
        lambda: ua.asarray(producer(capsule(), device=(-1, 0))),
        ValueError,
        "names no device",
        id="dlpack-device-negative",
    ),
    C(
        lambda: ua.asarray(producer(capsule(), device=(1, BIG))),
        ValueError,
        "names no device",
        id="dlpack-device-huge-id",
    ),
    # ---- DLPack export ----
    C(
        lambda: host().__dlpack__(stream=1),
        ValueError,
        "stream must be None",
        id="export-stream-on-cpu",
    ),
    C(
        lambda: host().__dlpack__(stream="s"),
        (TypeError, ValueError),
        "stream",
        id="export-stream-str",
    ),
    C(
        lambda: host().__dlpack__(max_version=5),
        TypeError,
        "max_version",
        id="export-max-version-int",
    ),
    C(
        lambda: host().__dlpack__(max_version=(1,)),
        (TypeError, ValueError),
        "max_version",
        id="export-max-version-short",
    ),
    C(
        lambda: host().__dlpack__(max_version=("a", 0)),
        TypeError,
        "max_version must be None or a tuple (major, mino",
        id="export-max-version-str",
    ),
    C(
        lambda: host().__dlpack__(dl_device=(2, 0)),
        BufferError,
        "cannot export to dl_device (2, 0)",
        id="export-dl-device-cuda",
    ),
    C(lambda: host().__dlpack__(dl_device=5), TypeError, "dl_device", id="export-dl-device-int"),
    C(lambda: host().__dlpack__(copy="x"), TypeError, "copy", id="export-copy-str"),
    C(
        lambda: host().__dlpack__(1),
        TypeError,
        "__dlpack__() takes at most 0 positional argument",
        id="export-positional",
    ),
    C(lambda: host().__dlpack__(bogus=1), TypeError, "bogus", id="export-bad-keyword"),
    # Keyword names are compared byte by byte: near misses, non-ASCII, empty.
    C(
        lambda: host().__dlpack__(**{"max_versio": None}),
        TypeError,
        "max_versio",
        id="export-keyword-prefix",
    ),
    C(
        lambda: host().__dlpack__(**{"max_versión": None}),
        TypeError,
        "max_versi",
        id="export-keyword-non-ascii",
    ),
    C(
        lambda: host().__dlpack__(**{"": None}),
        TypeError,
        "unexpected keyword",
        id="export-keyword-empty",
    ),
    C(
        lambda: ua.from_dlpack(x=host(), **{"copy\0": None}),
        TypeError,
        "unexpected keyword",
        id="dlpack-keyword-nul",
    ),
    C(lambda: readonly().__dlpack__(), BufferError, "read-only", id="export-legacy-readonly"),
    C(
        lambda: host().__dlpack_device__(1),
        TypeError,
        "USMArray.__dlpack_device__() takes no arguments",
        id="export-device-arg",
    ),
    # what a new user met, each named (issue 45's papercuts)
    C(
        lambda: ua.from_dlpack(np.arange(3, dtype=">f8")),
        BufferError,
        "byte order",
        id="dlpack-big-endian",
    ),
]


@pytest.mark.parametrize("call, exc, fragment", CASES)
def test_bad_input_raises_a_clear_exception(call, exc, fragment):
    raises_clearly(call, exc, fragment)
