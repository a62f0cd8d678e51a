"""The bad-input catalogue: user code that runs inside a call and changes what
is read (hooks that empty sequences and dictionaries, capsules without a
name, dtype-likes that change), counts beyond intp, memory not borrowed as
another kind, flags that must not be dropped. Each row is a call, the
exception a user can catch and a fragment of its message.

The catalogue's other areas are the files test_bad_inputs_*.py beside this
one; bad_inputs.py gathers them, for test_bad_inputs.py and the atheris
fuzzer (fuzz/python/)."""

import numpy as np
import pytest
import usmarray as ua
from bad_input_helpers import (
    capsule,
    dtype_changed_to,
    host,
    import_cai,
    import_suai,
    raises_clearly,
    refusing,
    shared_mem,
    suai_cleared_by,
    write_through_readonly_lender,
)
from hostile_objects import Clearing, null_name_capsule

C = pytest.param

CASES = [
    # ---- 1. sequences emptied by their items' __index__ ----
    C(
        lambda: ua.empty(refusing([2, 3])),
        TypeError,
        "shape[0] must be an integer",
        id="hook-empty-shape",
    ),
    C(
        lambda: ua.zeros(refusing([2, 3])),
        TypeError,
        "shape[0] must be an integer",
        id="hook-zeros-shape",
    ),
    C(
        lambda: ua.ones(refusing([2, 3])),
        TypeError,
        "shape[0] must be an integer",
        id="hook-ones-shape",
    ),
    C(
        lambda: ua.full(refusing([2, 3]), 1.0),
        TypeError,
        "shape[0] must be an integer",
        id="hook-full-shape",
    ),
    C(
        lambda: ua.USMArray(refusing([2, 3])),
        TypeError,
        "shape[0] must be an integer",
        id="hook-ctor-shape",
    ),
    C(
        lambda: ua.USMArray((2, 3), buffer="host", strides=refusing([3, 1])),
        TypeError,
        "strides[0] must be an integer",
        id="hook-ctor-strides",
    ),
    C(
        lambda: host((6,)).reshape(refusing([2, 3])),
        TypeError,
        "shape[0] must be an integer",
        id="hook-reshape-method",
    ),
    C(
        lambda: ua.reshape(host((6,)), refusing([2, 3])),
        TypeError,
        "shape[0] must be an integer",
        id="hook-reshape-function",
    ),
    C(
        lambda: host((2, 3)).transpose(refusing([1, 0])),
        TypeError,
        "axes[0] must be an integer",
        id="hook-transpose-axes",
    ),
    C(
        lambda: ua.permute_dims(host((2, 3)), refusing([1, 0])),
        TypeError,
        "axes[0] must be an integer",
        id="hook-permute-axes",
    ),
    C(
        lambda: import_suai(shape=refusing([8])),
        TypeError,
        "['shape'][0] must be an integer",
        id="hook-suai-shape",
    ),
    C(
        lambda: import_suai(shape=[2, 4], typestr="<f8", strides=refusing([4, 1])),
        TypeError,
        "['strides'][0] must be an integer",
        id="hook-suai-strides",
    ),
    C(
        lambda: import_cai(shape=refusing([4])),
        TypeError,
        "['shape'][0] must be an integer",
        id="hook-cai-shape",
    ),
    C(
        lambda: import_cai(strides=refusing([8])),
        TypeError,
        "['strides'][0] must be an integer",
        id="hook-cai-strides",
    ),
    # ---- 2. interface values whose hooks drop them from the dictionary ----
    C(
        lambda: suai_cleared_by("shape", lambda d: [Clearing(4, d), 2]),
        ValueError,
        "no required key 'typestr'",
        id="hook-suai-shape-drops-dict",
    ),
    C(
        lambda: suai_cleared_by("offset", lambda d: Clearing(0, d, error=TypeError())),
        TypeError,
        "['offset'] must be an integer, not Clearing",
        id="hook-suai-offset-drops-dict",
    ),
    C(
        lambda: suai_cleared_by("version", lambda d: Clearing(1, d, error=TypeError())),
        TypeError,
        "['version'] must be an integer, not Clearing",
        id="hook-suai-version-drops-dict",
    ),
    # ---- 3. capsules without a name ----
    C(
        lambda: ua.empty(1, queue=null_name_capsule()),
        TypeError,
        "capsule without a name",
        id="null-capsule-queue",
    ),
    C(
        lambda: ua.empty(1, device=null_name_capsule()),
        TypeError,
        "capsule without a name",
        id="null-capsule-device",
    ),
    C(
        lambda: ua.MemoryUSMShared(8, queue=null_name_capsule()),
        TypeError,
        "capsule without a name",
        id="null-capsule-memory-queue",
    ),
    C(
        lambda: ua.get_pointer_type(0, null_name_capsule()),
        TypeError,
        "capsule without a name",
        id="null-capsule-get-pointer-type",
    ),
    C(
        lambda: import_suai(syclobj=null_name_capsule()),
        TypeError,
        "capsule without a name",
        id="null-capsule-syclobj",
    ),
    C(
        lambda: ua.Queue(null_name_capsule()),
        TypeError,
        "capsule without a name",
        id="null-capsule-queue-ctor",
    ),
    C(
        lambda: ua.Context(null_name_capsule()),
        TypeError,
        "PyCapsule",
        id="null-capsule-context-ctor",
    ),
    C(
        lambda: ua.from_dlpack(null_name_capsule()),
        TypeError,
        "capsule without a name",
        id="null-capsule-from-dlpack",
    ),
    # ---- 4. element and byte counts beyond intp, zero strides or zero extents ----
    C(
        lambda: ua.USMArray((2**62, 4), buffer=shared_mem(), strides=(0, 0)),
        ValueError,
        "too many elements",
        id="overflow-ctor-zero-strides",
    ),
    C(
        lambda: ua.USMArray((2**32, 2**32), "u1", buffer=shared_mem(), strides=(0, 0)),
        ValueError,
        "too many elements",
        id="overflow-ctor-wraps-to-zero",
    ),
    C(
        lambda: ua.USMArray((2**61,), "f8", buffer=shared_mem(), strides=(0,)),
        ValueError,
        "more bytes than can be addressed",
        id="overflow-ctor-bytes",
    ),
    C(
        lambda: ua.empty((0, 2**62, 4)),
        ValueError,
        "too many elements",
        id="overflow-empty-zero-extent",
    ),
    C(
        lambda: ua.zeros((2**62, 4, 0)),
        ValueError,
        "too many elements",
        id="overflow-zeros-zero-extent",
    ),
    C(
        lambda: ua.full((0, 2**61, 2), 1.0),
        ValueError,
        "more bytes",
        id="overflow-full-zero-extent",
    ),
    C(
        lambda: ua.empty(0).reshape(0, 2**62, 4),
        ValueError,
        "too many elements",
        id="overflow-reshape-zero-extent",
    ),
    C(
        lambda: import_suai(shape=(2**62, 4), strides=(0, 0), typestr="|u1"),
        ValueError,
        "too many elements",
        id="overflow-suai-zero-strides",
    ),
    C(
        lambda: import_cai(shape=(2**62, 4), strides=(0, 0)),
        ValueError,
        "too many elements",
        id="overflow-cai-zero-strides",
    ),
    C(
        lambda: ua.from_dlpack(capsule(ndim=2, shape=(2**62, 4), strides=(0, 0))),
        BufferError,
        "too many elements",
        id="overflow-dlpack-zero-strides",
    ),
    # ---- 6. memory the library knows is not borrowed as another kind ----
    # (On the host backend, the only one that borrows host data.)
    C(
        lambda: ua.asarray(
            np.asarray(ua.zeros(4, usm_type="shared", queue="host")),
            usm_type="host",
            copy=False,
            queue="host",
        ),
        ValueError,
        "the data is USM shared memory",
        id="borrow-shared-as-host-no-copy",
    ),
    C(
        lambda: ua.asarray(
            np.from_dlpack(ua.zeros(4, usm_type="device", queue="host")),
            usm_type="host",
            copy=False,
            queue="host",
        ),
        ValueError,
        "the data is USM device memory",
        id="borrow-device-as-host-no-copy",
    ),
    # ---- 7. dtype-likes are resolved as they are now, not as first seen ----
    C(
        lambda: dtype_changed_to(np.dtype("U3")),
        TypeError,
        "is not supported",
        id="dtype-attr-changed-unsupported",
    ),
    C(
        lambda: dtype_changed_to(np.dtype(">f8")),
        ValueError,
        "native byte order",
        id="dtype-attr-changed-byte-order",
    ),
    # ---- 9. flags that must not be dropped ----
    C(write_through_readonly_lender, ValueError, "read-only", id="ctor-buffer-readonly-array"),
]


@pytest.mark.parametrize("call, exc, fragment", CASES)
def test_bad_input_raises_a_clear_exception(call, exc, fragment):
    raises_clearly(call, exc, fragment)
