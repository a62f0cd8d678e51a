"""The bad-input catalogue: devices, filter strings, queues, contexts, the
default device's environment variable, and Memory objects. Each row is a
call, the exception a user can catch and a fragment of its message.

The catalogue's other areas are the files test_bad_inputs_*.py beside this
one; bad_inputs.py gathers them, for test_bad_inputs.py and the atheris
fuzzer (fuzz/python/)."""

import numpy as np
import pytest
import usmarray as ua
from bad_input_helpers import BIG, BadIndex, Raises, raises_clearly, setattr_, shared_mem, with_env
from conftest import Holder

C = pytest.param

CASES = [
    # ---- devices and filter strings ----
    C(lambda: ua.Device(""), ValueError, "1 to 127 characters", id="device-empty"),
    C(lambda: ua.Device("nosuch:gpu:0"), ValueError, "nosuch", id="device-unknown-backend"),
    C(lambda: ua.Device("host:gpu:0"), ValueError, "host:gpu:0", id="device-no-such-type"),
    C(lambda: ua.Device("host:cpu:99"), ValueError, "host:cpu:99", id="device-number-too-large"),
    C(lambda: ua.Device("host:cpu:-1"), ValueError, "host:cpu:-1", id="device-negative-number"),
    C(lambda: ua.Device("host:cpu:x"), ValueError, "host:cpu:x", id="device-number-not-digits"),
    C(
        lambda: ua.Device("host:cpu:0\0:1"),
        ValueError,
        "null character",
        id="device-null-after-number",
    ),
    C(lambda: ua.Device("host:cpu:0:1"), ValueError, "host:cpu:0:1", id="device-too-many-parts"),
    C(lambda: ua.Device(":::"), ValueError, ":::", id="device-only-colons"),
    C(lambda: ua.Device("host::0"), ValueError, "host::0", id="device-empty-part"),
    C(lambda: ua.Device("host:cpu:" + "9" * 30), ValueError, "9999", id="device-number-overflow"),
    C(lambda: ua.Device("host\0cpu"), ValueError, "null character", id="device-embedded-null"),
    C(lambda: ua.Device("fpga"), ValueError, "fpga", id="device-unknown-word"),
    C(lambda: ua.Device(5), TypeError, "int", id="device-int"),
    C(lambda: ua.Device(b"host"), TypeError, "bytes", id="device-bytes"),
    C(lambda: ua.Device("host", "cpu"), TypeError, "argument", id="device-two-args"),
    C(
        lambda: ua.Device("\udcff"),
        (ValueError, UnicodeError),
        "surrogates not allowed",
        id="device-lone-surrogate",
    ),
    C(lambda: ua.get_devices(backend=5), TypeError, "backend", id="get-devices-backend-int"),
    C(lambda: ua.get_devices(device_type="fpga"), ValueError, "fpga", id="get-devices-bad-type"),
    C(lambda: ua.get_devices(device_type=3), TypeError, "device_type", id="get-devices-type-int"),
    C(lambda: ua.get_devices(bogus=1), TypeError, "bogus", id="get-devices-bad-keyword"),
    C(lambda: ua.Context(5), TypeError, "int", id="context-int"),
    C(lambda: ua.Context("nosuch"), ValueError, "nosuch", id="context-bad-filter"),
    C(lambda: ua.Queue(5), TypeError, "int", id="queue-int"),
    C(lambda: ua.Queue("nosuch"), ValueError, "nosuch", id="queue-bad-filter"),
    C(lambda: ua.Queue("host", context=5), TypeError, "context", id="queue-context-int"),
    C(lambda: ua.Queue(bogus=1), TypeError, "bogus", id="queue-bad-keyword"),
    C(
        lambda: with_env("USMARRAY_DEVICE", "nowhere:9", lambda: ua.empty(1)),
        ValueError,
        "USMARRAY_DEVICE",
        id="env-default-device-bad",
    ),
    C(
        lambda: with_env("USMARRAY_DEVICE", "host:gpu:0", lambda: ua.empty(1)),
        ValueError,
        "USMARRAY_DEVICE",
        id="env-default-device-no-such-device",
    ),
    # ---- memory ----
    C(lambda: ua.MemoryUSMShared(-1), ValueError, "must be positive", id="memory-negative"),
    C(lambda: ua.MemoryUSMShared(2**63 - 1), ua.USMAllocationError, "bytes", id="memory-too-large"),
    C(
        lambda: ua.MemoryUSMShared(BIG),
        (OverflowError, ValueError),
        "nbytes is too large",
        id="memory-huge-int",
    ),
    C(lambda: ua.MemoryUSMShared(1.5), TypeError, "float", id="memory-float"),
    C(lambda: ua.MemoryUSMShared("10"), TypeError, "str", id="memory-str"),
    C(lambda: ua.MemoryUSMShared(None), TypeError, "NoneType", id="memory-none"),
    C(lambda: ua.MemoryUSMShared(object()), TypeError, "object", id="memory-object"),
    C(
        lambda: ua.MemoryUSMShared(BadIndex()),
        RuntimeError,
        "index failed",
        id="memory-index-raises",
    ),
    C(lambda: ua.MemoryUSMShared(8, alignment=3), ValueError, "power of two", id="memory-align-3"),
    C(
        lambda: ua.MemoryUSMShared(8, alignment=-8),
        ValueError,
        "alignment",
        id="memory-align-negative",
    ),
    C(lambda: ua.MemoryUSMShared(8, alignment="8"), TypeError, "alignment", id="memory-align-str"),
    C(
        lambda: ua.MemoryUSMShared(8, alignment=2**62),
        (ValueError, ua.USMAllocationError),
        "aligned to",
        id="memory-align-huge",
    ),
    C(lambda: ua.MemoryUSMShared(8, queue=5), TypeError, "queue", id="memory-queue-int"),
    C(lambda: ua.MemoryUSMShared(8, queue="nosuch"), ValueError, "nosuch", id="memory-queue-bad"),
    C(lambda: ua.MemoryUSMShared(8, bogus=1), TypeError, "bogus", id="memory-bad-keyword"),
    C(lambda: ua.MemoryUSMShared(8, 8), TypeError, "positional", id="memory-two-positional"),
    C(lambda: ua.MemoryUSMShared(), TypeError, "nbytes", id="memory-no-size"),
    C(lambda: ua.MemoryUSMShared(np.ones(3)), TypeError, "ndarray", id="memory-from-ndarray"),
    C(
        lambda: ua.MemoryUSMShared(Raises()),
        RuntimeError,
        "producer failed",
        id="memory-producer-raises",
    ),
    C(lambda: ua.MemoryUSMShared(Holder(5)), TypeError, "dict", id="memory-suai-not-dict"),
    C(
        lambda: ua.MemoryUSMHost(ua.MemoryUSMDevice(8)),
        ValueError,
        "its USM kind differs",
        id="memory-kind-mismatch",
    ),
    C(
        lambda: shared_mem(8).copy_from_host(b"x" * 9),
        ValueError,
        "9",
        id="mem-copy-from-host-too-long",
    ),
    C(lambda: shared_mem(8).copy_from_host(5), TypeError, "int", id="mem-copy-from-host-int"),
    C(
        lambda: shared_mem(8).copy_from_host(np.ones((2, 2))[:, 0]),
        (BufferError, ValueError),
        "contiguous",
        id="mem-copy-from-host-strided",
    ),
    C(
        lambda: shared_mem(8).copy_to_host(bytearray(3)),
        ValueError,
        "3",
        id="mem-copy-to-host-short",
    ),
    C(
        lambda: shared_mem(8).copy_to_host(b"readonly"),
        (BufferError, TypeError),
        "not writable",
        id="mem-copy-to-host-readonly",
    ),
    C(lambda: shared_mem(8).copy_to_host(5), TypeError, "int", id="mem-copy-to-host-int"),
    C(
        lambda: shared_mem(8).copy_from_device(object()),
        TypeError,
        "object",
        id="mem-copy-from-device-object",
    ),
    C(
        lambda: shared_mem(8).copy_from_device(shared_mem(16)),
        ValueError,
        "16",
        id="mem-copy-from-device-too-long",
    ),
    C(lambda: shared_mem(8).memset(256), ValueError, "[0, 255]", id="mem-memset-256"),
    C(lambda: shared_mem(8).memset(-1), ValueError, "[0, 255]", id="mem-memset-negative"),
    C(lambda: shared_mem(8).memset("a"), TypeError, "value", id="mem-memset-str"),
    C(
        lambda: shared_mem(8).memset(BIG),
        (OverflowError, ValueError),
        "value is too large",
        id="mem-memset-huge",
    ),
    C(lambda: shared_mem(8).get_usm_type(5), TypeError, "int", id="mem-usm-type-syclobj-int"),
    C(
        lambda: shared_mem(8).get_usm_type("nosuch"),
        ValueError,
        "nosuch",
        id="mem-usm-type-syclobj-bad",
    ),
    C(lambda: memoryview(ua.MemoryUSMDevice(8)), BufferError, "device", id="mem-buffer-device"),
    C(lambda: setattr_(shared_mem(8), "nbytes", 3), AttributeError, "nbytes", id="mem-set-nbytes"),
    C(lambda: ua.as_usm_memory(5), TypeError, "int", id="as-usm-memory-int"),
    C(lambda: ua.as_usm_memory(np.ones(3)), TypeError, "ndarray", id="as-usm-memory-ndarray"),
    C(lambda: ua.as_usm_memory(Holder({})), ValueError, "version", id="as-usm-memory-empty-dict"),
    C(lambda: ua.get_pointer_type("x"), TypeError, "str", id="pointer-type-str"),
    C(lambda: ua.get_pointer_type(-1), ValueError, "pointer", id="pointer-type-negative"),
    C(
        lambda: ua.get_pointer_type(2**64),
        (ValueError, OverflowError),
        "ptr 18446744073709551616 is not a pointer value",
        id="pointer-type-huge",
    ),
    C(lambda: ua.get_pointer_type(0, 5), TypeError, "int", id="pointer-type-syclobj-int"),
    C(
        lambda: ua.get_pointer_type(0, "nosuch"),
        ValueError,
        "nosuch",
        id="pointer-type-syclobj-bad",
    ),
    C(lambda: ua.Context("host").release_pool(1), TypeError, "argument", id="release-pool-arg"),
]


@pytest.mark.parametrize("call, exc, fragment", CASES)
def test_bad_input_raises_a_clear_exception(call, exc, fragment):
    raises_clearly(call, exc, fragment)
