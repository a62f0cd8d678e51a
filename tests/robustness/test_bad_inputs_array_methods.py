"""The bad-input catalogue: the array's attributes and methods. Each row is a
call, the exception a user can catch and a fragment of its message.

The catalogue's other areas are the files test_bad_inputs_*.py beside this
one; bad_inputs.py gathers them, for test_bad_inputs.py and the atheris
fuzzer (fuzz/python/)."""

import numpy as np
import pytest
import usmarray as ua
from bad_input_helpers import (
    BIG,
    device_only,
    host,
    import_suai,
    raises_clearly,
    readonly,
    setattr_,
    setflag,
    shared_mem,
    writable_buffer,
)

C = pytest.param

CASES = [
    # ---- array attributes and methods ----
    C(lambda: host().reshape(5), ValueError, "5", id="method-reshape-size"),
    C(lambda: host().reshape((2, 2), order="Z"), ValueError, "order", id="method-reshape-order"),
    C(
        lambda: host().reshape(2, "a"),
        TypeError,
        "shape[1] must be an integer, not str",
        id="method-reshape-str",
    ),
    C(lambda: host().reshape(), ValueError, "size 4", id="method-reshape-nothing"),
    C(
        lambda: host((2, 2)).transpose(0, 0),
        ValueError,
        "axes repeat axis 0",
        id="method-transpose-repeated",
    ),
    C(
        lambda: host((2, 2)).transpose(5, 0),
        (ValueError, IndexError),
        "axis 5 is out of bounds for an array of 2 dimens",
        id="method-transpose-range",
    ),
    C(
        lambda: host().transpose(0, 1),
        ValueError,
        "axes has 2 entries but the array has 1 dimension",
        id="method-transpose-too-many",
    ),
    C(
        lambda: host((2, 2)).transpose("a", "b"),
        TypeError,
        "axes[0] must be an integer, not str",
        id="method-transpose-str",
    ),
    C(lambda: host().copy(order="Z"), ValueError, "order", id="method-copy-order"),
    C(lambda: host().copy(order=5), TypeError, "order", id="method-copy-order-int"),
    C(lambda: host().astype("nope"), TypeError, "nope", id="method-astype-dtype"),
    C(lambda: host().astype("f4", order="Z"), ValueError, "order", id="method-astype-order"),
    C(lambda: host().astype(object), TypeError, "O", id="method-astype-object"),
    C(lambda: host().astype(), TypeError, "dtype", id="method-astype-nothing"),
    C(
        lambda: host().to_device(5),
        TypeError,
        "device must be a usmarray.Device, Queue or Context, a dpctl SyclDevice",
        id="method-to-device-int",
    ),
    C(lambda: host().to_device("nosuch"), ValueError, "nosuch", id="method-to-device-bad"),
    C(
        lambda: ua.Queue("host", in_order="no"),
        TypeError,
        "in_order must be a bool or None, not str",
        id="queue-in-order-str",
    ),
    C(
        lambda: ua.Queue("host", in_order=[0]),
        TypeError,
        "in_order must be a bool or None, not list",
        id="queue-in-order-list",
    ),
    C(
        lambda: ua.Queue("host", in_order=1),
        TypeError,
        "in_order must be a bool or None, not int",
        id="queue-in-order-int",
    ),
    C(
        lambda: ua.zeros(2, queue="host", sycl_queue="host"),
        TypeError,
        "zeros() got multiple values for argument 'queue'",
        id="zeros-queue-and-sycl-queue",
    ),
    C(
        lambda: host().fill("a"),
        (TypeError, ValueError),
        "could not convert string to float",
        id="method-fill-str",
    ),
    C(
        lambda: host().fill(object()),
        TypeError,
        "float() argument must be a string or a real numb",
        id="method-fill-object",
    ),
    C(
        lambda: host().fill([1, 2]),
        (TypeError, ValueError),
        "could not broadcast input array from shape (2,)",
        id="method-fill-list",
    ),
    C(
        lambda: host(dtype="i4").fill(BIG),
        (OverflowError, ValueError),
        "Python integer 1180591620717411303424 out of bou",
        id="method-fill-overflow",
    ),
    C(lambda: readonly().fill(1), ValueError, "read-only", id="method-fill-readonly"),
    C(lambda: len(ua.empty(())), TypeError, "unsized", id="len-0d"),
    C(lambda: host().flags["bogus"], KeyError, "bogus", id="flags-unknown"),
    C(lambda: host().flags[5], KeyError, "5", id="flags-int-key"),
    C(
        lambda: setflag(host(), "C", True),
        (KeyError, ValueError, AttributeError),
        "flag 'C' cannot be set",
        id="flags-set-contiguous",
    ),
    C(lambda: setflag(host(), "bogus", True), KeyError, "bogus", id="flags-set-unknown"),
    C(
        lambda: setflag(import_suai(data=(shared_mem()._pointer, True)), "W", True),
        (ValueError, KeyError),
        "cannot make the array writable: its memory is re",
        id="flags-writable-on-readonly-import",
    ),
    C(
        lambda: setattr_(ua.zeros((4, 4), queue="host")[::2, ::2], "shape", (4,)),
        AttributeError,
        "incompatible shape for in-place modification",
        id="set-shape",
    ),
    C(lambda: setattr_(host(), "shape", "ab"), TypeError, "shape must be", id="set-shape-str"),
    C(lambda: setattr_(host(), "shape", (5, 7)), ValueError, "cannot reshape", id="set-shape-size"),
    C(lambda: delattr(host(), "shape"), AttributeError, "cannot delete", id="del-shape"),
    C(
        lambda: ua.asnumpy(host(), order="Z"),
        ValueError,
        "order must be one of",
        id="asnumpy-order",
    ),
    C(
        lambda: ua.asnumpy(host(), oder="C"),
        TypeError,
        "asnumpy() got an unexpected",
        id="asnumpy-kw",
    ),
    C(lambda: setattr_(host(), "dtype", "f4"), AttributeError, "is not writable", id="set-dtype"),
    C(
        lambda: device_only().__array_interface__,
        AttributeError,
        "device",
        id="device-array-interface",
    ),
    C(
        lambda: np.asarray(device_only()),
        (TypeError, ValueError, BufferError),
        "USM device memory cannot be converted to a NumPy",
        id="numpy-of-device",
    ),
    C(lambda: host().__array__(dtype="nope"), TypeError, "nope", id="dunder-array-dtype"),
    C(lambda: host().__array__("f8", copy="x"), ValueError, "copy", id="dunder-array-copy-str"),
    C(lambda: memoryview(device_only()), BufferError, "device", id="buffer-device-array"),
    C(
        lambda: writable_buffer(host((4, 4)).T),
        (BufferError, TypeError, ValueError),
        "contiguous",
        id="buffer-contiguous-of-transpose",
    ),
    C(
        lambda: writable_buffer(readonly()),
        (BufferError, TypeError),
        "underlying buffer is not writable",
        id="buffer-writable-readonly",
    ),
    C(
        lambda: writable_buffer(import_suai(data=(shared_mem()._pointer, True))),
        (BufferError, TypeError),
        "underlying buffer is not writable",
        id="buffer-writable-readonly-import",
    ),
    C(
        lambda: host() + object(),
        TypeError,
        "unsupported operand type(s) for +",
        id="elementwise-unknown-operand",
    ),
    C(lambda: host() + np.ones(4), TypeError, "ua.asarray", id="elementwise-numpy-operand"),
    C(lambda: np.ones(4) == host(), TypeError, "ua.asarray", id="elementwise-numpy-left-operand"),
    C(
        lambda: ua.add(host(), "a"),
        TypeError,
        "add() takes USMArrays and Python scalars",
        id="elementwise-str",
    ),
    C(lambda: ua.add(1, 2), TypeError, "at least one USMArray", id="elementwise-no-array"),
    C(lambda: ua.exp(), TypeError, "exp", id="elementwise-no-operand"),
    C(lambda: ua.sin(host(), host()), TypeError, "sin", id="elementwise-extra-operand"),
    C(lambda: ua.bitwise_and(host(), host()), TypeError, "dtype float64", id="elementwise-kind"),
    C(lambda: ua.add(host(), host((3,))), ValueError, "broadcast", id="elementwise-broadcast"),
    C(
        lambda: ua.add(host(dtype="i1"), 300),
        OverflowError,
        "Python integer 300 out of bounds for int8",
        id="elementwise-int-scalar-range",
    ),
    C(
        lambda: ua.add(host(dtype="i8"), 2**70),
        OverflowError,
        "Python integer out of bounds for int64",
        id="elementwise-int-scalar-huge",
    ),
    C(lambda: ua.clip(host(), mx=1), TypeError, "mx", id="clip-unknown-keyword"),
]


@pytest.mark.parametrize("call, exc, fragment", CASES)
def test_bad_input_raises_a_clear_exception(call, exc, fragment):
    raises_clearly(call, exc, fragment)
