"""The bad-input catalogue: each class of elementwise function (its type rule)
and the operators. Each row is a call, the exception a user can catch and a
fragment of its message.

The catalogue's other areas are the files test_bad_inputs_*.py beside this
one; bad_inputs.py gathers them, for test_bad_inputs.py and the atheris
fuzzer (fuzz/python/)."""

import operator

import numpy as np
import pytest
import usmarray as ua
from bad_input_helpers import BadIndex, dev, host, raises_clearly, readonly, refusing
from usmarray import _usmarray

C = pytest.param

CASES = [
    # ---- each class of elementwise function (its type rule), operators ----
    C(lambda: ua.add(host(), "a"), TypeError, "Python scalars, not str", id="ew-same-str"),
    C(lambda: ua.exp(np.ones(3)), TypeError, "ua.asarray", id="ew-to-float-numpy"),
    C(lambda: ua.sin("x"), TypeError, "sin() takes USMArrays", id="ew-to-float-str"),
    C(
        lambda: ua.signbit(host(dtype="c16")),
        TypeError,
        "signbit() does not accept an array of dtype complex128",
        id="ew-predicate-complex",
    ),
    C(
        lambda: ua.isnan(host(), host()),
        TypeError,
        "1 positional argument",
        id="ew-predicate-arity",
    ),
    C(lambda: ua.imag("x"), TypeError, "imag() takes USMArrays", id="ew-to-real-str"),
    C(
        lambda: ua.floor(host(dtype="c8")),
        TypeError,
        "floor() does not accept an array of dtype complex64",
        id="ew-rounding-complex",
    ),
    C(
        lambda: ua.bitwise_left_shift(host(), 1),
        TypeError,
        "does not accept an array of dtype float64",
        id="ew-integral-float",
    ),
    C(
        lambda: ua.bitwise_and(host(dtype="i8"), host(dtype="u8")),
        ValueError,
        "they promote to float64",
        id="ew-bitwise-promotes-to-float",
    ),
    C(lambda: ua.where(host() > 1, "a", host()), TypeError, "not str", id="ew-select-str"),
    C(lambda: ua.angle("x"), TypeError, "angle() takes USMArrays", id="ew-complex-to-real-str"),
    C(
        lambda: ua.proj(host(), host()),
        TypeError,
        "1 positional argument",
        id="ew-to-complex-arity",
    ),
    C(
        lambda: ua.angle(host(dtype="c8"), out=host(dtype="f8")),
        ValueError,
        "float32",
        id="ew-complex-to-real-out-dtype",
    ),
    C(
        lambda: ua.floor(host(dtype="c8")),
        TypeError,
        "floor() does not accept an array of dtype complex64",
        id="ew-like-first-complex",
    ),
    C(
        lambda: ua.clip(host(dtype="i1"), host(dtype="i1"), host(dtype="c16")),
        ValueError,
        "clip() does not accept an operand of dtype complex128 as a bound of an array of "
        "dtype int8: it must cast safely",
        id="clip-complex-bound-of-real",
    ),
    C(
        lambda: ua.clip(host(), 0, 1j),
        ValueError,
        "a Python complex as a bound of an array of dtype float64",
        id="clip-complex-scalar-bound-of-real",
    ),
    C(
        lambda: ua.clip(host(dtype="i4"), 2.5),
        ValueError,
        "a Python float as a bound of an array of dtype int32",
        id="clip-float-scalar-bound-of-int",
    ),
    C(
        lambda: ua.clip(host(dtype="i1"), host(dtype="i2"), None),
        ValueError,
        "an operand of dtype int16 as a bound of an array of dtype int8",
        id="clip-wider-bound",
    ),
    C(
        lambda: ua.clip(ua.ones(4, dtype="?"), 2),
        ValueError,
        "a Python int as a bound of an array of dtype bool",
        id="clip-int-bound-of-bool",
    ),
    C(lambda: ua.logical_and(host(), None), TypeError, "not NoneType", id="ew-logical-none"),
    C(lambda: host() + np.ones(4), TypeError, "ua.asarray", id="operator-numpy-right"),
    C(lambda: np.ones(4) + host(), TypeError, "ua.asarray", id="operator-numpy-left"),
    C(lambda: pow(host(), 2, 3), TypeError, "unsupported operand", id="operator-pow-modulus"),
    C(lambda: host(dtype="c16") % 2, TypeError, "remainder()", id="operator-mod-complex"),
    C(
        lambda: operator.iadd(host(dtype="i4"), 1.5),
        ValueError,
        "a Python float cannot be cast to the left operand's dtype int32",
        id="operator-in-place-dtype",
    ),
    C(
        lambda: operator.iadd(host(dtype="u1"), host(dtype="i1")),
        ValueError,
        "dtype int8 cannot be cast to the left operand's dtype uint8",
        id="operator-in-place-signed-into-unsigned",
    ),
    C(
        lambda: operator.itruediv(host(dtype="i4"), 2),
        ValueError,
        "float64, which the left operand's dtype int32 cannot hold",
        id="operator-in-place-divide-integers",
    ),
    C(
        lambda: operator.imatmul(ua.ones((2, 2), dtype="i4"), ua.ones((2, 2), dtype="f4")),
        ValueError,
        "cannot be cast to the left operand's dtype int32",
        id="operator-in-place-matmul-dtype",
    ),
    C(lambda: host() + np.array(1.0), TypeError, "ua.asarray", id="operator-numpy-0d-array"),
    C(lambda: host() + np.str_("a"), TypeError, "not supported", id="operator-numpy-str-scalar"),
    C(
        lambda: operator.iadd(host((1,)), host((3,))),
        ValueError,
        "broadcasting may not grow it",
        id="operator-in-place-grow",
    ),
    C(
        lambda: operator.iadd(readonly(), 1),
        ValueError,
        "read-only",
        id="operator-in-place-read-only",
    ),
    C(
        lambda: ua.where(host() > 1, host(), host((3,))),
        ValueError,
        "broadcast",
        id="where-broadcast",
    ),
    C(lambda: hash(dev()), TypeError, "unhashable type", id="array-unhashable"),
    C(lambda: {dev(): 1}, TypeError, "unhashable type", id="array-not-a-dict-key"),
    C(lambda: iter(ua.zeros(())), TypeError, "iteration over a 0-d array", id="iter-0d"),
    # NumPy 2: TypeError for int(), float(), complex() and index() of any
    # array that is not 0-d; only bool() names .any()/.all().
    C(lambda: int(dev()), TypeError, "only 0-dimensional arrays can be converted", id="int-of-4"),
    C(
        lambda: float(ua.ones(2)),
        TypeError,
        "only 0-dimensional arrays can be converted to Python scalars",
        id="float-of-2",
    ),
    C(lambda: bool(ua.ones(2)), ValueError, "usmarray.any(x) or usmarray.all(x)", id="bool-of-2"),
    C(
        lambda: int(dev((1,))),
        TypeError,
        "only 0-dimensional arrays can be converted",
        id="int-of-1d",
    ),
    C(lambda: int(dev((0,))), TypeError, "only 0-dimensional", id="int-of-empty"),
    C(lambda: bool(dev((1, 1))), TypeError, "this one has 2 dimensions", id="bool-of-1x1"),
    C(lambda: operator.index(dev((1,), "i8")), TypeError, "only 0-dimensional", id="index-of-1d"),
    C(lambda: operator.index(dev((2,), "i8")), TypeError, "has 1 dimension and 2", id="index-of-2"),
    C(
        lambda: float(ua.zeros((1,), usm_type="shared")),
        TypeError,
        "only 0-dimensional arrays",
        id="float-of-1d-shared",
    ),
    C(lambda: int(ua.asarray(1j)), TypeError, "not 'complex'", id="int-of-complex"),
    C(lambda: float(ua.asarray(1j)), TypeError, "not 'complex'", id="float-of-complex"),
    C(lambda: complex(dev((1,))), TypeError, "only 0-dimensional arrays", id="complex-of-1d"),
    C(
        lambda: [0][ua.asarray(0.0)],
        TypeError,
        "only integer scalar arrays can be converted to a scalar index",
        id="index-of-float",
    ),
    C(lambda: [0][ua.asarray(True)], TypeError, "only integer scalar arrays", id="index-of-bool"),
    C(lambda: bool(dev()), ValueError, "more than one element (it has 4)", id="bool-of-several"),
    C(
        lambda: dev().item(),
        ValueError,
        "can only convert an array of size 1 to a Python scalar",
        id="item-of-several",
    ),
    C(lambda: dev().item(4), IndexError, "index 4 is out of bounds for size 4", id="item-past-end"),
    C(lambda: dev().item("a"), TypeError, "item() index must be an integer", id="item-str"),
    C(
        lambda: dev((2, 2)).item(1, 2, 3),
        ValueError,
        "item() needs 2 indices",
        id="item-too-many-indices",
    ),
    C(
        lambda: dev((2, 2)).item(0, slice(None)),
        IndexError,
        "integer indices only",
        id="item-slice",
    ),
    C(
        lambda: format(dev(), ".2f"),
        TypeError,
        "unsupported format string '.2f'",
        id="format-nd-with-spec",
    ),
    C(
        lambda: np.asarray(ua.MemoryUSMDevice(8)),
        TypeError,
        "USM device memory cannot be converted to a NumPy",
        id="numpy-of-device-memory",
    ),
    C(
        lambda: ua.MemoryUSMDevice(8).__array__(dtype="f8"),
        TypeError,
        "copy_to_host()",
        id="numpy-of-device-memory-dtype",
    ),
    C(
        lambda: dev().to_device("host", stream=1),
        ValueError,
        "the host backend has no streams",
        id="to-device-stream-on-host",
    ),
    C(
        lambda: dev().to_device("host", stream="s"),
        TypeError,
        "stream must be None, a usmarray.Queue",
        id="to-device-stream-str",
    ),
    C(
        lambda: dev().to_device("host", stream=-5),
        ValueError,
        "stream -5 is not a stream handle",
        id="to-device-stream-negative",
    ),
    C(
        lambda: ua.asarray([1], device=2.5),
        TypeError,
        "device must be a usmarray.Device",
        id="asarray-device-float",
    ),
    C(
        lambda: ua.asarray([1], device="nosuch"),
        ValueError,
        "filter string 'nosuch'",
        id="asarray-device-unknown",
    ),
    C(
        lambda: host().astype("f4", copy="no"),
        TypeError,
        "copy must be None or a bool",
        id="method-astype-copy-str",
    ),
    C(lambda: bool(host()), ValueError, "ambiguous", id="bool-ambiguous"),
    # usmarray.fuse, and the kernel call it makes on a compiling device
    C(
        lambda: ua.fuse(lambda x, a: x + a)(host(dtype="i1"), 1000),
        OverflowError,
        "1000 out of bounds for int8",
        id="fuse-int-scalar-out-of-range",
    ),
    C(
        lambda: _usmarray._fused_expression((("add", (0, 0x200)),), (1000,), "int8"),
        OverflowError,
        "1000 out of bounds for int8",
        id="fused-kernel-constant-out-of-range",
    ),
    C(
        lambda: _usmarray._fused_expression((("nosuch", (0,)),), (), "float64"),
        ValueError,
        "no elementwise function 'nosuch'",
        id="fused-kernel-unknown-function",
    ),
    C(
        lambda: _usmarray._fused_expression(("add",), (), "float64"),
        TypeError,
        "a node is (name, (operand references...))",
        id="fused-kernel-node-not-a-pair",
    ),
    C(
        lambda: _usmarray._fused_elementwise(
            _usmarray._fused_expression((("add", (0, 0)),), (), "float64"), (1.0,)
        ),
        TypeError,
        "needs an array operand",
        id="fused-kernel-no-array",
    ),
    C(
        lambda: _usmarray._fused_elementwise((("add", (0, 0)),), (host(),)),
        TypeError,
        "the expression is _fused_expression()'s result, not tuple",
        id="fused-kernel-not-an-expression",
    ),
    C(
        lambda: _usmarray._fused_elementwise(
            _usmarray._fused_expression((("add", (0, 1)),), (), "int8"),
            (host(dtype="i1"), 1000),
        ),
        OverflowError,
        "1000 out of bounds for int8",
        id="fused-kernel-argument-out-of-range",
    ),
    C(
        lambda: _usmarray._fused_reduce(
            _usmarray._fused_expression((("multiply", (0, 0)),), (), "float64"), (host(),), "prod"
        ),
        ValueError,
        "the reduction is 'sum', 'max', 'min' or 'mean', not 'prod'",
        id="fused-reduce-unknown-reduction",
    ),
    C(
        lambda: _usmarray._fused_reduce(
            _usmarray._fused_expression((("multiply", (0, 0)),), (), "float64"),
            (host(),),
            "sum",
            -4,
        ),
        ValueError,
        "row is 0 (all the values) or a row's length, not -4",
        id="fused-reduce-negative-row",
    ),
    C(
        lambda: _usmarray._fused_reduce(
            _usmarray._fused_expression((("multiply", (0, 0)),), (), "float64"),
            (host(),),
            "sum",
            1,
            "sqrt",
        ),
        TypeError,
        "post is _fused_expression()'s result or None, not str",
        id="fused-reduce-post-not-an-expression",
    ),
    C(
        lambda: _usmarray._fused_reduce(
            _usmarray._fused_expression((("multiply", (0, 0)),), (), "float64"),
            (host(),),
            "sum",
            0,
            _usmarray._fused_expression((("sqrt", (0,)),), (), "float64"),
        ),
        ValueError,
        "the host's loops take no expression after the reduction",
        id="fused-reduce-post-on-the-host",
    ),
    C(
        lambda: _usmarray._fused_reduce(
            _usmarray._fused_expression((("multiply", (0, 0)),), (), "float64"),
            (host(),),
            "sum",
            1,
            _usmarray._fused_expression((("sqrt", (0,)),), (), "float32"),
        ),
        ValueError,
        "post computes in float32, the expression in float64",
        id="fused-reduce-post-of-another-dtype",
    ),
    C(
        lambda: _usmarray._fused_chain(
            (
                _usmarray._fused_expression((("positive", (0,)),), (), "float64"),
                _usmarray._fused_expression((("add", (0, 0x300)),), (), "float64", 1),
            ),
            ("max",),
            (host(),),
            8,
            _usmarray._fused_expression((("sqrt", (0,)),), (), "float64"),
        ),
        ValueError,
        "a post needs a reduction for the last phase too (2 phases, 1 reductions)",
        id="fused-chain-post-without-a-last-reduction",
    ),
    C(
        lambda: _usmarray._fused_chain(
            (
                _usmarray._fused_expression((("positive", (0,)),), (), "float64"),
                _usmarray._fused_expression((("add", (0, 0x300)),), (), "float64", 1),
            ),
            ("max",),
            (host(),),
            4,
            None,
            (1,),
        ),
        ValueError,
        "a shape is the rows' values', which a reduction for the last phase gives",
        id="fused-chain-shape-without-a-last-reduction",
    ),
    C(
        lambda: _usmarray._fused_expression((("positive", (0,)),), (), "float64", 9),
        ValueError,
        "a chain's phase reads 0 to 3 row values, not 9",
        id="fused-expression-too-many-row-values",
    ),
    C(
        lambda: _usmarray._fused_elementwise(
            _usmarray._fused_expression((("add", (0, 0x300)),), (), "float64", 1), (host(),)
        ),
        ValueError,
        "reads a chain's row values, which only _fused_chain() gives",
        id="fused-kernel-row-values-outside-a-chain",
    ),
    C(
        lambda: _usmarray._fused_chain(
            (_usmarray._fused_expression((("positive", (0,)),), (), "float64"),),
            (),
            (host(),),
            8,
        ),
        ValueError,
        "2 to 4 phases, a reduction for each but the last",
        id="fused-chain-one-phase",
    ),
    C(
        lambda: _usmarray._fused_chain(
            (_usmarray._fused_expression((("positive", (0,)),), (), "float64"), "exp"),
            ("max",),
            (host(),),
            8,
        ),
        TypeError,
        "phase 1 is not _fused_expression()'s result",
        id="fused-chain-not-an-expression",
    ),
    C(
        lambda: _usmarray._fused_chain(
            (
                _usmarray._fused_expression((("positive", (0,)),), (), "float64"),
                _usmarray._fused_expression((("add", (0, 0x300)),), (), "float64", 1),
            ),
            (3,),
            (host(),),
            8,
        ),
        ValueError,
        "reduction 0 is 'sum', 'max', 'min' or 'mean', not 3",
        id="fused-chain-unknown-reduction",
    ),
    C(
        lambda: _usmarray._fused_reduce(
            _usmarray._fused_expression((("multiply", (0, 0)),), (), "float64"), (host(),)
        ),
        TypeError,
        "_fused_reduce",
        id="fused-reduce-no-reduction",
    ),
    C(
        lambda: _usmarray._fused_reduce((("add", (0, 0)),), (host(),), "sum"),
        TypeError,
        "the expression is _fused_expression()'s result, not tuple",
        id="fused-reduce-not-an-expression",
    ),
    C(
        lambda: _usmarray._fused_prepare([]),
        TypeError,
        "_fused_prepare(): calls is a tuple, not list",
        id="fused-prepare-calls-not-a-tuple",
    ),
    C(
        lambda: _usmarray._fused_prepare((("reduce",),)),
        TypeError,
        "call 0 is a tuple (kind, args) of a str and a tuple, not tuple",
        id="fused-prepare-call-not-a-pair",
    ),
    C(
        lambda: _usmarray._fused_prepare((("chain", ()),)),
        ValueError,
        "call 0's kind is 'elementwise' or 'reduce', not 'chain'",
        id="fused-prepare-unknown-kind",
    ),
    C(
        lambda: _usmarray._fused_prepare(
            (
                (
                    "reduce",
                    (
                        _usmarray._fused_expression((("multiply", (0, 0)),), (), "float64"),
                        (host(),),
                        "prod",
                    ),
                ),
            )
        ),
        ValueError,
        "the reduction is 'sum', 'max', 'min' or 'mean', not 'prod'",
        id="fused-prepare-unknown-reduction",
    ),
    C(
        lambda: _usmarray._fused_prepare(
            (("reduce", (_usmarray._fused_expression((("add", (0, 0)),), (), "float64"),)),)
        ),
        TypeError,
        "_fused_prepare",
        id="fused-prepare-reduce-too-few-arguments",
    ),
    C(
        lambda: _usmarray._fused_prepare((("elementwise", ((("add", (0, 0)),), (host(),))),)),
        TypeError,
        "the expression is _fused_expression()'s result, not tuple",
        id="fused-prepare-not-an-expression",
    ),
    C(
        lambda: _usmarray._fused_prepare(
            (
                (
                    "elementwise",
                    (
                        _usmarray._fused_expression((("add", (0, 1)),), (), "float64"),
                        (host(), ua.ones(3, device="host")),
                    ),
                ),
            )
        ),
        ValueError,
        "could not be broadcast together",
        id="fused-prepare-operands-do-not-broadcast",
    ),
    C(
        lambda: _usmarray._fused_expression((("add", (0, 1)),), (), "float64", 0, [0, 1]),
        TypeError,
        "slots is None or a tuple of 1 to 3 indices of the call's operands, not list",
        id="fused-slots-not-a-tuple",
    ),
    C(
        lambda: _usmarray._fused_expression((("add", (0, 1)),), (), "float64", 0, ()),
        TypeError,
        "slots is None or a tuple of 1 to 3 indices",
        id="fused-slots-empty",
    ),
    C(
        lambda: _usmarray._fused_expression((("add", (0, 1)),), (), "float64", 0, (0, -1)),
        ValueError,
        "slot 1 is -1, not an index of the call's operands",
        id="fused-slots-negative",
    ),
    C(
        lambda: _usmarray._fused_expression((("add", (0, 1)),), (), "float64", 0, (0, "1")),
        TypeError,
        "'str' object cannot be interpreted as an integer",
        id="fused-slots-not-ints",
    ),
    C(
        lambda: _usmarray._fused_elementwise(
            _usmarray._fused_expression((("add", (0, 1)),), (), "float64", 0, (0, 5)),
            (host(), host()),
        ),
        TypeError,
        "a fused call reads its argument 5 of 2",
        id="fused-slots-past-the-arguments",
    ),
    C(
        lambda: _usmarray._fused_reduce(
            _usmarray._fused_expression((("multiply", (0, 0)),), (), "float64"),
            (host(),),
            "sum",
            3,
        ),
        ValueError,
        "the host's loops reduce all the values (row 0) or rows that divide them (4 values, "
        "not rows of 3)",
        id="fused-reduce-host-rows",
    ),
    C(
        lambda: _usmarray._fused_reduce(
            _usmarray._fused_expression((("multiply", (0, 0)),), (), "float64"),
            (host(),),
            "sum",
            4,
            None,
            (2, 1),
        ),
        ValueError,
        "the shape holds 2 elements, not the rows' 1",
        id="fused-reduce-shape-count",
    ),
    C(
        lambda: _usmarray._fused_reduce(
            _usmarray._fused_expression((("multiply", (0, 0)),), (), "float64"),
            (host(),),
            "sum",
            0,
            None,
            (1, 2),
        ),
        ValueError,
        "the shape holds 2 elements, not the one value's 1",
        id="fused-reduce-shape-of-the-value",
    ),
    C(
        lambda: _usmarray._fused_reduce(
            _usmarray._fused_expression((("multiply", (0, 0)),), (), "float64"),
            (host(),),
            "sum",
            0,
            None,
            (BadIndex(),),
        ),
        RuntimeError,
        "index failed",
        id="fused-reduce-shape-bad-index",
    ),
    C(
        lambda: _usmarray._fused_reduce(
            _usmarray._fused_expression((("multiply", (0, 0)),), (), "float64"),
            (host(),),
            "sum",
            0,
            None,
            refusing([1, 1]),
        ),
        TypeError,
        "shape[0] must be an integer",
        id="fused-reduce-shape-emptied-while-read",
    ),
    C(
        lambda: _usmarray._fused_reduce(
            _usmarray._fused_expression((("multiply", (0, 0)),), (), "float64"),
            (host(),),
            "sum",
            4,
            None,
            "x",
        ),
        TypeError,
        "shape",
        id="fused-reduce-shape-not-ints",
    ),
    C(
        lambda: _usmarray._fused_reduce(
            _usmarray._fused_expression((("multiply", (0, 0)),), (), "float64"),
            (host(),),
            "sum",
            4,
            None,
            (2**63 - 1, 2**63 - 1),
        ),
        ValueError,
        "the shape holds more elements than a size reaches (past dimension 1)",
        id="fused-reduce-shape-overflows",
    ),
    C(
        lambda: _usmarray._fused_chain(
            (
                _usmarray._fused_expression((("positive", (0,)),), (), "float64", 0, (1,)),
                _usmarray._fused_expression((("add", (0, 0x300)),), (), "float64", 1),
            ),
            ("max",),
            (host(), host()),
            4,
        ),
        ValueError,
        "phase 0 picks its operands (made with slots)",
        id="fused-chain-phase-with-slots",
    ),
    C(
        lambda: _usmarray._fused_reduce(
            _usmarray._fused_expression((("multiply", (0, 0)),), (), "float64"),
            (host(),),
            "sum",
            4,
            _usmarray._fused_expression((("sqrt", (0,)),), (), "float64", 0, (0,)),
        ),
        ValueError,
        "post reads the call's operands (made with slots)",
        id="fused-reduce-post-with-slots",
    ),
    C(
        lambda: ua.fuse(lambda x: x)._remember([host()], print),
        TypeError,
        "_remember() takes the call's arguments (a tuple) and its runner",
        id="fused-remember-not-a-tuple",
    ),
    C(
        lambda: ua.fuse(lambda x: x)._remember((host(),), 3),
        TypeError,
        "and its runner (a callable)",
        id="fused-remember-not-callable",
    ),
    # what a new user met, each named (issue 45's papercuts)
    C(
        lambda: ua.asarray([2, 3]) ** -1,
        ValueError,
        "negative integer powers",
        id="int-negative-power",
    ),
]


@pytest.mark.parametrize("call, exc, fragment", CASES)
def test_bad_input_raises_a_clear_exception(call, exc, fragment):
    raises_clearly(call, exc, fragment)
