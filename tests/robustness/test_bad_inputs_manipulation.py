"""The bad-input catalogue: the manipulation functions. Each row is a call, the
exception a user can catch and a fragment of its message.

The catalogue's other areas are the files test_bad_inputs_*.py beside this
one; bad_inputs.py gathers them, for test_bad_inputs.py and the atheris
fuzzer (fuzz/python/)."""

import numpy as np
import pytest
import usmarray as ua
from bad_input_helpers import BIG, BadLen, host, raises_clearly, refusing
from hostile_objects import emptied_list

C = pytest.param

CASES = [
    # ---- manipulation functions ----
    C(
        lambda: ua.broadcast_shapes((2,), (3,)),
        ValueError,
        "cannot be broadcast together",
        id="broadcast_shapes-conflict",
    ),
    C(
        lambda: ua.broadcast_shapes((2, None)),
        TypeError,
        "must be an integer",
        id="broadcast_shapes-none",
    ),
    C(
        lambda: ua.broadcast_shapes((-1,)),
        ValueError,
        "is negative",
        id="broadcast_shapes-negative",
    ),
    C(
        lambda: ua.broadcast_to(host((3,)), (4,)),
        ValueError,
        "shape (3,) cannot be broadcast to shape (4,)",
        id="broadcast-to-incompatible",
    ),
    C(
        lambda: ua.broadcast_to(host((1,)), (2, -1)),
        ValueError,
        "shape[1] is negative",
        id="broadcast-to-negative",
    ),
    C(
        lambda: ua.broadcast_to(host((1,)), (2**40, 2**40)),
        ValueError,
        "too many elements",
        id="broadcast-to-too-many-elements",
    ),
    C(
        lambda: ua.broadcast_to(host((1,)), (BIG,)),
        ValueError,
        "too large",
        id="broadcast-to-huge-extent",
    ),
    C(
        lambda: ua.broadcast_to([1, 2], (2,)),
        TypeError,
        "broadcast_to expects a USMArray, not list",
        id="broadcast-to-not-array",
    ),
    C(
        lambda: ua.broadcast_to(host(), "ab"),
        TypeError,
        "shape must be an integer or a sequence of integers",
        id="broadcast-to-shape-str",
    ),
    C(
        lambda: ua.broadcast_to(x=host(), shape=(4,)),
        TypeError,
        "positional-only arguments passed as keyword arguments: 'x'",
        id="broadcast-to-x-by-keyword",
    ),
    C(
        lambda: ua.broadcast_arrays(host((2, 3)), host((4,))),
        ValueError,
        "shapes (2, 3) (arrays[0]) and (4,) (arrays[1]) cannot be broadcast together",
        id="broadcast-arrays-incompatible",
    ),
    C(
        lambda: ua.broadcast_arrays(host(), np.ones(4)),
        TypeError,
        "broadcast_arrays expects a USMArray, not numpy.ndarray",
        id="broadcast-arrays-not-array",
    ),
    C(
        lambda: ua.broadcast_arrays(x=host()),
        TypeError,
        "keyword arguments",
        id="broadcast-arrays-keyword",
    ),
    C(lambda: ua.concat([]), ValueError, "concat needs at least one array", id="concat-empty"),
    C(
        lambda: ua.concat(host()),
        TypeError,
        "tuple or list of USMArrays, not usmarray.USMArray",
        id="concat-array",
    ),
    C(lambda: ua.concat(5), TypeError, "tuple or list of USMArrays, not int", id="concat-int"),
    C(lambda: ua.concat("ab"), TypeError, "not str", id="concat-str"),
    C(
        lambda: ua.concat([host(), [1.0]]),
        TypeError,
        "arrays[1] is a list, not a USMArray",
        id="concat-item-list",
    ),
    C(
        lambda: ua.concat([host((2, 3)), host((2, 4))]),
        ValueError,
        "arrays[0] has shape (2, 3) but arrays[1] has shape (2, 4)",
        id="concat-shapes-differ",
    ),
    C(
        lambda: ua.concat([host((2, 3)), host((6,))]),
        ValueError,
        "arrays[0] has 2 dimensions but arrays[1] has 1",
        id="concat-ndim-differ",
    ),
    C(
        lambda: ua.concat([host(()), host(())]),
        ValueError,
        "0-dimensional arrays cannot",
        id="concat-0d",
    ),
    C(
        lambda: ua.concat([host((2, 3))], axis=2),
        np.exceptions.AxisError,
        "concat: axis 2 is out of bounds for an array of 2 dimensions",
        id="concat-axis-out-of-range",
    ),
    C(
        lambda: ua.concat([host()], axis=1.0),
        TypeError,
        "axis must be an integer",
        id="concat-axis-float",
    ),
    C(
        lambda: ua.concat([host()], axis=BIG),
        ValueError,
        "axis is too large",
        id="concat-axis-huge",
    ),
    C(
        lambda: ua.concat([host(), ua.zeros(4, queue=ua.Queue("host", in_order=False))]),
        ValueError,
        "arrays[0] is on <usmarray.Queue on host:cpu:0> but arrays[1] is on",
        id="concat-queues-differ",
    ),
    C(
        lambda: ua.concat(arrays=[host()]),
        TypeError,
        "positional-only arguments passed as keyword arguments: 'arrays'",
        id="concat-arrays-by-keyword",
    ),
    C(
        lambda: ua.stack([host((2, 3)), host((3, 2))]),
        ValueError,
        "stack needs arrays of one shape",
        id="stack-shapes-differ",
    ),
    C(lambda: ua.stack([host((1,) * 64)]), ValueError, "65 dimensions", id="stack-too-many-dims"),
    C(
        lambda: ua.stack([host()], axis=None),
        TypeError,
        "axis must be an integer",
        id="stack-axis-none",
    ),
    C(
        lambda: ua.stack([host()], axis=-3),
        np.exceptions.AxisError,
        "axis -3",
        id="stack-axis-out-of-range",
    ),
    C(lambda: ua.stack(()), ValueError, "stack needs at least one array", id="stack-empty"),
    C(
        lambda: ua.expand_dims(host(), axis=2),
        np.exceptions.AxisError,
        "axis 2",
        id="expand-dims-out-of-range",
    ),
    C(
        lambda: ua.expand_dims(host(), axis=(0, 0)),
        ValueError,
        "axis 0 is repeated",
        id="expand-dims-repeated",
    ),
    C(
        lambda: ua.expand_dims(host((1,) * 64)),
        ValueError,
        "65 dimensions",
        id="expand-dims-too-many",
    ),
    C(
        lambda: ua.expand_dims(host(), axis="0"),
        TypeError,
        "axis must be an integer",
        id="expand-dims-axis-str",
    ),
    C(
        lambda: ua.flip(host(), axis=1),
        np.exceptions.AxisError,
        "flip: axis 1",
        id="flip-out-of-range",
    ),
    C(
        lambda: ua.flip(host((2, 2)), axis=(0, -2)),
        ValueError,
        "axis 0 is repeated",
        id="flip-repeated",
    ),
    C(lambda: ua.flip(host(), axis=[0] * 65), ValueError, "at most 64", id="flip-axes-too-many"),
    C(
        lambda: ua.flip(host(), 0),
        TypeError,
        "at most 1 positional argument",
        id="flip-axis-by-position",
    ),
    C(
        lambda: ua.moveaxis(host((2, 3)), (0, 1), 0),
        ValueError,
        "source has 2 axes but destination has 1",
        id="moveaxis-count-mismatch",
    ),
    C(
        lambda: ua.moveaxis(host((2, 3)), 0),
        TypeError,
        "3 positional arguments",
        id="moveaxis-two-args",
    ),
    C(
        lambda: ua.moveaxis(host((2, 3)), 0, 2),
        np.exceptions.AxisError,
        "axis 2",
        id="moveaxis-out-of-range",
    ),
    C(
        lambda: ua.squeeze(host((1, 2)), 1),
        ValueError,
        "axis 1 has length 2; only axes of length 1",
        id="squeeze-not-length-one",
    ),
    C(
        lambda: ua.squeeze(host((1, 2)), "a"),
        TypeError,
        "axis must be an integer",
        id="squeeze-axis-str",
    ),
    C(lambda: ua.unstack(host(())), ValueError, "at least 1 dimension", id="unstack-0d"),
    C(
        lambda: ua.unstack(host(), axis=-2),
        np.exceptions.AxisError,
        "axis -2",
        id="unstack-out-of-range",
    ),
    C(
        lambda: ua.roll(host((2, 2)), (1, 2, 3), axis=(0, 1)),
        ValueError,
        "shift has 3 entries but axis has 2",
        id="roll-shift-axis-mismatch",
    ),
    C(lambda: ua.roll(host(), 1.5), TypeError, "shift must be an integer", id="roll-shift-float"),
    C(lambda: ua.roll(host(), BIG), ValueError, "shift is too large", id="roll-shift-huge"),
    C(
        lambda: ua.roll(host(), 1, axis=1),
        np.exceptions.AxisError,
        "roll: axis 1",
        id="roll-out-of-range",
    ),
    C(lambda: ua.tile(host(), (-1,)), ValueError, "repetitions[0] is negative", id="tile-negative"),
    C(lambda: ua.tile(host(), (2**62, 2**62)), ValueError, "more elements", id="tile-overflow"),
    C(lambda: ua.tile(host(), "ab"), TypeError, "repetitions must be an integer", id="tile-str"),
    C(lambda: ua.tile(host(), (1,) * 65), ValueError, "at most 64", id="tile-too-many"),
    C(lambda: ua.tile(host()), TypeError, "2 positional arguments but 1", id="tile-one-arg"),
    C(lambda: ua.repeat(host(), -1), ValueError, "repeats is -1", id="repeat-negative"),
    C(
        lambda: ua.repeat(host(), [1, 2]),
        ValueError,
        "repeats has 2 entries",
        id="repeat-wrong-length",
    ),
    C(
        lambda: ua.repeat(host(), [-1] * 4),
        ValueError,
        "repeats[0] is -1",
        id="repeat-negative-count",
    ),
    C(lambda: ua.repeat(host(), [1.5] * 4), TypeError, "not float64", id="repeat-float-counts"),
    C(
        lambda: ua.repeat(host(), True),
        TypeError,
        "repeats must be an integer, not bool",
        id="repeat-bool",
    ),
    C(lambda: ua.repeat(host(), [[1] * 4]), ValueError, "0- or 1-dimensional", id="repeat-2d"),
    C(lambda: ua.repeat(host(), 2**62), ValueError, "more elements", id="repeat-overflow"),
    C(
        lambda: ua.repeat(host(), [2**62] * 4),
        ValueError,
        "more elements",
        id="repeat-counts-overflow",
    ),
    C(lambda: ua.repeat(host(), [BIG] * 4), TypeError, "format 'O'", id="repeat-counts-huge"),
    C(
        lambda: ua.repeat(host(), np.full(4, 2**63, "u8")),
        ValueError,
        "repeats[0] is 9223372036854775808, too large",
        id="repeat-counts-uint64",
    ),
    C(lambda: ua.repeat(host(), None), TypeError, "not NoneType", id="repeat-none"),
    C(lambda: ua.repeat(host(), BadLen()), RuntimeError, "item failed", id="repeat-bad-sequence"),
    C(
        lambda: ua.repeat(host(), 1, axis=1),
        np.exceptions.AxisError,
        "repeat: axis 1",
        id="repeat-out-of-range",
    ),
    C(
        lambda: ua.repeat(host(), repeats=2),
        TypeError,
        "positional-only arguments passed as keyword arguments: 'repeats'",
        id="repeat-repeats-by-keyword",
    ),
    C(
        lambda: ua.reshape(x=host(), shape=(4,)),
        TypeError,
        "positional-only arguments passed as keyword arguments: 'x'",
        id="reshape-x-by-keyword",
    ),
    C(
        lambda: ua.flip(host((2, 3)), axis=refusing([0])),
        TypeError,
        "axis[0] must be an integer",
        id="hook-flip-axis",
    ),
    C(
        lambda: ua.broadcast_to(host((1,)), refusing([2, 3])),
        TypeError,
        "shape[0] must be an integer",
        id="hook-broadcast-to-shape",
    ),
    C(
        lambda: ua.tile(host(), refusing([2])),
        TypeError,
        "repetitions[0] must be",
        id="hook-tile-repetitions",
    ),
    C(
        lambda: ua.roll(host(), refusing([1])),
        TypeError,
        "shift[0] must be an integer",
        id="hook-roll-shift",
    ),
    C(
        lambda: ua.moveaxis(host((2, 3)), refusing([0]), [1]),
        TypeError,
        "axis[0] must be an integer",
        id="hook-moveaxis-source",
    ),
    C(
        lambda: ua.concat(emptied_list([host(), host()])),
        TypeError,
        "arrays[0] is a Clearing, not a USMArray",
        id="hook-concat-arrays",
    ),
]


@pytest.mark.parametrize("call, exc, fragment", CASES)
def test_bad_input_raises_a_clear_exception(call, exc, fragment):
    raises_clearly(call, exc, fragment)
