"""The bad-input catalogue: indexing, assignment through an index, take and
masks. Each row is a call, the exception a user can catch and a fragment of
its message.

The catalogue's other areas are the files test_bad_inputs_*.py beside this
one; bad_inputs.py gathers them, for test_bad_inputs.py and the atheris
fuzzer (fuzz/python/)."""

import numpy as np
import pytest
import usmarray as ua
from bad_input_helpers import BIG, BadIndex, capsule, host, raises_clearly, readonly

C = pytest.param

CASES = [
    # ---- indexing ----
    C(lambda: host()[4], IndexError, "4", id="index-past-end"),
    C(lambda: host()[-5], IndexError, "-5", id="index-before-start"),
    C(
        lambda: host()[0, 0],
        IndexError,
        "too many indices for array: array is 1-dimension",
        id="index-too-many",
    ),
    C(
        lambda: host()["a"],
        IndexError,
        "only integers, slices (`:`), ellipsis (`...`), N",
        id="index-str",
    ),
    C(
        lambda: host()[1.5],
        IndexError,
        "only integers, slices (`:`), ellipsis (`...`), N",
        id="index-float",
    ),
    C(lambda: host()[..., ...], IndexError, "only have a single ellipsis", id="index-two-ellipsis"),
    C(
        lambda: host()[[0.5, 1]],
        IndexError,
        "only integers, slices (`:`), ellipsis (`...`), None, and integer or boolean arrays",
        id="index-float-list",
    ),
    C(
        lambda: host()[[0, 4]],
        IndexError,
        "index 4 is out of bounds for axis 0 with size 4",
        id="index-array-past-end",
    ),
    C(lambda: host()[[-5]], IndexError, "index -5 is out of bounds", id="index-array-before-start"),
    C(
        lambda: host()[np.array([True, False, True])],
        IndexError,
        "boolean index did not match",
        id="index-mask-shape",
    ),
    C(
        lambda: host()[[[0, 1]], [[0], [1], [2]]],
        IndexError,
        "too many indices",
        id="index-arrays-too-many",
    ),
    C(
        lambda: host((2, 3))[[0, 1], [0, 1, 2]],
        IndexError,
        "could not be broadcast",
        id="index-arrays-mismatch",
    ),
    C(
        lambda: host()[ua.asarray([1.0], device="host")],
        IndexError,
        "not an array of float64",
        id="index-float-array",
    ),
    C(lambda: ua.take(host(), [9]), IndexError, "index 9 is out of bounds", id="take-past-end"),
    C(
        lambda: ua.take(host((2, 2)), [0]),
        ValueError,
        "axis may be omitted only",
        id="take-no-axis",
    ),
    C(
        lambda: ua.take(host((2, 2)), [0], axis=2),
        IndexError,
        "axis 2 is out of bounds",
        id="take-bad-axis",
    ),
    C(lambda: ua.take(host(), [True]), IndexError, "takes integer indices", id="take-bool"),
    C(lambda: ua.take([1, 2], [0]), TypeError, "take expects a USMArray", id="take-not-array"),
    C(
        lambda: ua.take_along_axis(host((2, 2)), ua.asarray([0], device="host")),
        ValueError,
        "must have the array's 2 dimensions",
        id="take-along-ndim",
    ),
    C(
        lambda: ua.take_along_axis(host((2, 2)), ua.asarray([[0, 2]], device="host")),
        IndexError,
        "index 2 is out of bounds for axis 1",
        id="take-along-bounds",
    ),
    C(
        lambda: ua.take_along_axis(host((2, 2)), ua.asarray([[0]] * 3, device="host"), axis=1),
        ValueError,
        "do not broadcast",
        id="take-along-broadcast",
    ),
    C(
        lambda: ua.take(host(), [0], mode="raise"),
        ValueError,
        "mode must be 'wrap' or 'clip'",
        id="take-mode",
    ),
    C(
        lambda: ua.take(host((0,)), [0], mode="wrap"),
        IndexError,
        "cannot take non-empty indices from an empty axis",
        id="take-mode-empty-axis",
    ),
    C(
        lambda: ua.put([1, 2], host((1,), "i8"), 0),
        TypeError,
        "put expects a USMArray",
        id="put-not-array",
    ),
    C(lambda: ua.put(host(), [0], 0), TypeError, "put expects a USMArray", id="put-indices-list"),
    C(
        lambda: ua.put(host(), host((1,)), 0),
        IndexError,
        "not an array of float64",
        id="put-float-indices",
    ),
    C(
        lambda: ua.put(host(), host((1, 1), "i8"), 0),
        ValueError,
        "indices must be one-dimensional",
        id="put-2d-indices",
    ),
    C(
        lambda: ua.put(host(), host((1,), "i8"), 0, mode=0),
        ValueError,
        "mode must be",
        id="put-mode",
    ),
    C(
        lambda: ua.put(host((2, 2)), host((1,), "i8"), 0),
        ValueError,
        "axis may be omitted only",
        id="put-no-axis",
    ),
    C(
        lambda: ua.put(readonly(), host((1,), "i8"), 0),
        ValueError,
        "put: the array is read-only",
        id="put-readonly",
    ),
    C(lambda: ua.put(host(), host((1,), "i8"), {}), TypeError, "dict", id="put-dict-values"),
    C(
        lambda: ua.put_along_axis(host((2, 2)), host((2,), "i8"), 0),
        ValueError,
        "must have the array's 2 dimensions",
        id="put-along-ndim",
    ),
    C(
        lambda: ua.put_along_axis(host((2, 2)), host((1, 1), "i8"), 0, axis=2),
        IndexError,
        "axis 2 is out of bounds",
        id="put-along-axis",
    ),
    C(
        lambda: ua.place(host(), [True] * 4, host((1,))),
        TypeError,
        "place expects a USMArray",
        id="place-list-mask",
    ),
    C(
        lambda: ua.place(host(), ua.ones(3, dtype="?", usm_type="host", queue="host"), host((1,))),
        ValueError,
        "must have one shape",
        id="place-shape",
    ),
    C(
        lambda: ua.place(
            host(), ua.ones(4, dtype="?", usm_type="host", queue="host"), host((1, 1))
        ),
        ValueError,
        "values must be one-dim",
        id="place-2d-values",
    ),
    C(
        lambda: ua.place(host(), host((4,), "i8"), host((0,))),
        ValueError,
        "from an empty array",
        id="place-empty-values",
    ),
    C(
        lambda: ua.extract(host((2,)), host()),
        ValueError,
        "must have one shape",
        id="extract-shape",
    ),
    C(
        lambda: ua.extract(host(), [1, 2, 3, 4]),
        TypeError,
        "extract expects a USMArray",
        id="extract-list",
    ),
    C(
        lambda: ua.take(host((1,) * 64), host((1, 1), "i8"), axis=0),
        ValueError,
        "take: the result would have 65 dimensions; at most 64",
        id="take-too-many-dims",
    ),
    C(
        lambda: host((1,) * 64)[host((1, 1), "i8")],
        IndexError,
        "an index adds axes beyond 64",
        id="index-array-too-many-dims",
    ),
    C(
        lambda: ua.linspace(0, 1, -1),
        ValueError,
        "num must be non-negative",
        id="linspace-negative",
    ),
    C(
        lambda: ua.linspace(0j, 1, 3, dtype="i4"),
        TypeError,
        "complex bounds need a complex dtype, not int32",
        id="linspace-complex-bounds-int-dtype",
    ),
    C(
        lambda: ua.linspace(0, 1j, 3, dtype="f4"),
        TypeError,
        "complex bounds need a complex dtype",
        id="linspace-complex-real",
    ),
    C(
        lambda: ua.linspace("a", 1, 3),
        TypeError,
        "start must be a real or complex number",
        id="linspace-str",
    ),
    C(lambda: ua.eye(-1), ValueError, "negative dimensions", id="eye-negative"),
    C(lambda: ua.eye(2.5), TypeError, "n_rows", id="eye-float"),
    C(lambda: ua.tril(host()), ValueError, "at least 2 dimensions", id="tril-1d"),
    C(lambda: ua.triu(host((2, 2)), k=0.5), TypeError, "k", id="triu-float-k"),
    C(
        lambda: ua.meshgrid(host(), indexing="yx"),
        ValueError,
        "'xy' or 'ij'",
        id="meshgrid-indexing",
    ),
    C(lambda: ua.meshgrid(host((2, 2))), ValueError, "one-dimensional", id="meshgrid-2d"),
    C(
        lambda: ua.meshgrid(host(), ua.ones(3, dtype="f4", device="host")),
        ValueError,
        "must have one dtype: argument 0 is float64, argument 1 float32",
        id="meshgrid-dtypes",
    ),
    C(
        lambda: ua.meshgrid(host(), [1]),
        TypeError,
        "meshgrid expects a USMArray",
        id="meshgrid-list",
    ),
    C(
        lambda: ua.meshgrid(*[host((1,))] * 65),
        ValueError,
        "meshgrid: the result would have 65 dimensions; at most 64",
        id="meshgrid-too-many-dims",
    ),
    C(
        lambda: ua.arange(0, 3, dtype="bool"),
        ValueError,
        "boolean arrays of at most 2 elements, not 3",
        id="arange-bool",
    ),
    C(lambda: host()[::0], ValueError, "step", id="index-step-zero"),
    C(lambda: host()[BIG], IndexError, "is out of bounds: no axis is that long", id="index-huge"),
    C(
        lambda: host()[object()],
        IndexError,
        "only integers, slices (`:`), ellipsis (`...`), N",
        id="index-object",
    ),
    C(
        lambda: host()[slice(0, 1, "a")],
        TypeError,
        "slice indices must be integers or None or have a",
        id="index-slice-str-step",
    ),
    C(
        lambda: host()[slice("a", 1)],
        TypeError,
        "slice indices must be integers or None or have a",
        id="index-slice-str-start",
    ),
    C(lambda: host()[BadIndex()], RuntimeError, "index failed", id="index-raises"),
    C(lambda: host((2, 3))[0, 5], IndexError, "5", id="index-2d-second-past-end"),
    C(
        lambda: host((2, 3))[:, :, 0],
        IndexError,
        "too many indices for array: array is 2-dimension",
        id="index-2d-too-many",
    ),
    C(
        lambda: host((2, 3))[None, None, 0, 0, 0],
        IndexError,
        "too many indices for array: array is 2-dimension",
        id="index-newaxis-too-many",
    ),
    C(
        lambda: ua.empty(())[0],
        IndexError,
        "too many indices for array: array is 0-dimension",
        id="index-0d",
    ),
    C(
        lambda: ua.empty((0,))[0],
        IndexError,
        "index 0 is out of bounds for axis 0 with size 0",
        id="index-empty",
    ),
    C(
        lambda: bool(ua.empty((0,))),
        ValueError,
        "an empty array has no value to convert to a Python scalar",
        id="bool-empty",
    ),
    C(
        lambda: ua.MemoryUSMShared(8, copy="yes"),
        TypeError,
        "copy must be None or a bool",
        id="memory-copy-str",
    ),
    C(
        lambda: ua.from_dlpack(capsule(), copy=1),
        TypeError,
        "copy must be None or a bool",
        id="dlpack-copy-int",
    ),
    C(
        lambda: host().__setitem__(0, "a"),
        (TypeError, ValueError),
        "could not convert string to float",
        id="setitem-str",
    ),
    C(
        lambda: host().__setitem__(slice(None), np.ones(5)),
        ValueError,
        "could not broadcast input array from shape (5,)",
        id="setitem-shape",
    ),
    C(
        lambda: host().__setitem__(slice(None), object()),
        TypeError,
        "float() argument must be a string or a real numb",
        id="setitem-object",
    ),
    C(lambda: host().__setitem__(10, 1), IndexError, "10", id="setitem-past-end"),
    C(
        lambda: host().__setitem__(slice(None), [[1, 2], [3, 4]]),
        ValueError,
        "could not broadcast input array from shape (2, 2",
        id="setitem-too-many-dims",
    ),
    C(
        lambda: host().__setitem__(slice(0, 2), host((3,))),
        ValueError,
        "could not broadcast input array from shape (3,)",
        id="setitem-array-shape",
    ),
    C(
        lambda: host().__setitem__(slice(None), np.array(["a"] * 4)),
        ValueError,
        "could not convert",
        id="setitem-unicode-array",
    ),
    C(lambda: readonly().__setitem__(0, 1), ValueError, "read-only", id="setitem-readonly"),
    C(
        lambda: host(dtype="i8").__setitem__(..., BIG),
        (OverflowError, ValueError),
        "Python integer 1180591620717411303424 out of bou",
        id="setitem-overflow",
    ),
    C(
        lambda: host().__delitem__(0),
        (TypeError, ValueError),
        "cannot delete array elements",
        id="delitem",
    ),
    # what a new user met, each named (issue 45's papercuts)
    C(
        lambda: ua.arange(3)[np.uint64(2**63)],
        IndexError,
        "index 9223372036854775808 is out of bounds",
        id="index-uint64-scalar",
    ),
    C(lambda: ua.arange(3)[2**64 - 1], IndexError, "is out of bounds", id="index-huge-int"),
    C(
        lambda: ua.arange(3)[ua.asarray([2**64 - 1], dtype=ua.uint64)],
        IndexError,
        "index 9223372036854775807 or more is out of bounds for axis 0 with size 3",
        id="index-uint64-array",
    ),
    C(
        lambda: ua.take(ua.arange(3), ua.asarray([2**63], dtype=ua.uint64)),
        IndexError,
        "or more is out of bounds",
        id="take-uint64-array",
    ),
    C(
        lambda: ua.arange(3)[np.array([2**64 - 1], np.uint64)],
        IndexError,
        "or more is out of bounds",
        id="index-numpy-uint64-array",
    ),
    C(
        lambda: ua.arange(6).reshape(2, 3)[ua.asarray(np.zeros((0, 2), bool))],
        IndexError,
        "size of axis is 3 but size of corresponding boolean axis is 2",
        id="mask-empty-but-wrong-length",
    ),
]


@pytest.mark.parametrize("call, exc, fragment", CASES)
def test_bad_input_raises_a_clear_exception(call, exc, fragment):
    raises_clearly(call, exc, fragment)
