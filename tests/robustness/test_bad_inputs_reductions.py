"""The bad-input catalogue: reductions, scans, searches, sorts and sets. Each
row is a call, the exception a user can catch and a fragment of its message.

The catalogue's other areas are the files test_bad_inputs_*.py beside this
one; bad_inputs.py gathers them, for test_bad_inputs.py and the atheris
fuzzer (fuzz/python/)."""

import numpy as np
import pytest
import usmarray as ua
from bad_input_helpers import empty_vector, mat, raises_clearly, scalar0d, vec

C = pytest.param

CASES = [
    # ---- reductions, scans, searches, sorts, sets and products ----
    C(
        lambda: ua.isin(vec(), "a"),
        TypeError,
        "x2 must be an array or a Python scalar",
        id="isin-x2-str",
    ),
    C(lambda: ua.isin(1, 2), TypeError, "x1 or x2 must be an array", id="isin-two-scalars"),
    C(lambda: ua.isin(vec(), vec(), invert="yes"), TypeError, "invert", id="isin-invert-str"),
    C(
        lambda: ua.searchsorted(ua.asarray([1, 2], dtype="int8", device="host"), 300),
        OverflowError,
        "300 out of bounds for int8",
        id="searchsorted-scalar-overflow",
    ),
    C(
        lambda: ua.sum(vec(), axis=2),
        np.exceptions.AxisError,
        "axis 2 is out of bounds",
        id="sum-axis-out-of-range",
    ),
    C(
        lambda: ua.sum(mat(), axis=(0, 0)),
        ValueError,
        "axis 0 is repeated",
        id="sum-axis-repeated",
    ),
    C(lambda: ua.sum(mat(), axis=1.0), TypeError, "not float", id="sum-axis-float"),
    C(lambda: ua.sum(vec(), dtype="U1"), TypeError, "not supported", id="sum-dtype-str"),
    C(
        lambda: ua.sum(vec(), keepdims=1),
        TypeError,
        "keepdims must be a bool",
        id="sum-keepdims-int",
    ),
    C(lambda: ua.sum(np.ones(3)), TypeError, "numpy.ndarray", id="sum-numpy-array"),
    C(lambda: ua.prod(vec(), 0), TypeError, "positional", id="prod-positional-axis"),
    C(lambda: ua.max(empty_vector()), ValueError, "maximum which has no identity", id="max-empty"),
    C(
        lambda: ua.argmax(empty_vector()),
        ValueError,
        "argmax which has no identity",
        id="argmax-empty",
    ),
    C(lambda: ua.argmax(mat(), axis=(0, 1)), TypeError, "not tuple", id="argmax-axis-tuple"),
    C(
        lambda: ua.var(vec(), correction="a"),
        TypeError,
        "correction must be an int or a float",
        id="var-correction-str",
    ),
    C(
        lambda: ua.cumulative_sum(mat()),
        ValueError,
        "one-dimensional",
        id="cumulative-sum-2d-no-axis",
    ),
    C(
        lambda: ua.cumulative_sum(vec(), include_initial=1),
        TypeError,
        "include_initial must be a bool",
        id="cumulative-sum-initial-int",
    ),
    C(
        lambda: ua.cumulative_prod(mat(), axis=5),
        np.exceptions.AxisError,
        "axis 5 is out of bounds",
        id="cumulative-prod-axis",
    ),
    C(
        lambda: ua.cumulative_logsumexp(ua.astype(vec(), "c16")),
        ValueError,
        "cumulative_logsumexp takes real values, not an array of complex128",
        id="cumulative-logsumexp-complex",
    ),
    C(
        lambda: ua.cumulative_logsumexp(mat()),
        ValueError,
        "one-dimensional",
        id="cumulative-logsumexp-2d-no-axis",
    ),
    C(
        lambda: ua.cumulative_logsumexp(vec(), dtype="U1"),
        TypeError,
        "not supported",
        id="cumulative-logsumexp-dtype-str",
    ),
    C(
        lambda: ua.cumulative_logsumexp(vec(), out=ua.empty(6, dtype="f4", device="host")),
        ValueError,
        "float64",
        id="cumulative-logsumexp-out-dtype",
    ),
    C(lambda: ua.diff(vec(), n=-1), ValueError, "n must be non-negative", id="diff-negative-n"),
    C(lambda: ua.diff(scalar0d()), ValueError, "at least one dimension", id="diff-0d"),
    C(lambda: ua.sort(vec(), stable=1), TypeError, "stable must be a bool", id="sort-stable-int"),
    C(
        lambda: ua.sort(scalar0d(), axis=1),
        IndexError,
        "axis 1 is out of bounds",
        id="sort-0d-axis",
    ),
    C(lambda: ua.sort(vec(), kind="quicksort"), ValueError, "kind must be None", id="sort-kind"),
    C(lambda: ua.argsort(vec(), kind=1), ValueError, "kind must be None", id="argsort-kind"),
    C(
        lambda: ua.top_k(vec(), -1),
        ValueError,
        "k must be a non-negative integer",
        id="top-k-negative",
    ),
    C(lambda: ua.top_k(vec(), 99), ValueError, "k=99 is out of bounds", id="top-k-too-many"),
    C(
        lambda: ua.top_k(vec(), 1, mode="max"),
        ValueError,
        "mode must be 'largest'",
        id="top-k-mode",
    ),
    C(lambda: ua.top_k(vec(), "1"), TypeError, "integer", id="top-k-str"),
    C(lambda: ua.top_k([1.0], 1), TypeError, "top_k expects a USMArray", id="top-k-list"),
    C(
        lambda: ua.logsumexp(vec().astype("c8")),
        ValueError,
        "takes real values",
        id="logsumexp-complex",
    ),
    C(
        lambda: ua.reduce_hypot(vec(), axis=2),
        np.exceptions.AxisError,
        "axis 2",
        id="reduce-hypot-axis",
    ),
    C(lambda: ua.logsumexp(vec(), keepdims=1), TypeError, "keepdims", id="logsumexp-keepdims-int"),
    C(
        lambda: ua.argsort(mat(), axis=3),
        np.exceptions.AxisError,
        "axis 3 is out of bounds",
        id="argsort-axis",
    ),
    C(
        lambda: ua.sort(vec(), descending=1),
        TypeError,
        "descending must be a bool",
        id="sort-descending-int",
    ),
    C(
        lambda: ua.searchsorted(mat(), vec()),
        ValueError,
        "x1 must be one-dimensional",
        id="searchsorted-2d",
    ),
    C(
        lambda: ua.searchsorted(vec(), vec(), side="middle"),
        ValueError,
        "'left' or 'right'",
        id="searchsorted-side",
    ),
    C(
        lambda: ua.searchsorted(vec(), vec(), sorter=vec()),
        ValueError,
        "integer array",
        id="searchsorted-sorter-float",
    ),
    C(
        lambda: ua.searchsorted(vec(), vec(), sorter=ua.asarray(np.arange(2), device="host")),
        ValueError,
        "of x1's length",
        id="searchsorted-sorter-length",
    ),
    C(lambda: ua.nonzero(scalar0d()), ValueError, "nonzero(x[None])", id="nonzero-0d"),
    C(
        lambda: ua.count_nonzero(vec(), axis="a"),
        TypeError,
        "not str",
        id="count-nonzero-axis-str",
    ),
    C(lambda: ua.unique_values(np.ones(3)), TypeError, "numpy.ndarray", id="unique-values-numpy"),
    C(
        lambda: ua.all(mat(), axis=-3),
        np.exceptions.AxisError,
        "axis -3 is out of bounds",
        id="all-axis",
    ),
]


@pytest.mark.parametrize("call, exc, fragment", CASES)
def test_bad_input_raises_a_clear_exception(call, exc, fragment):
    raises_clearly(call, exc, fragment)
