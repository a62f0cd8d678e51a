"""usmarray.fuse on devices that compile kernels: a graph of elementwise
calls in one kernel, with the eager calls' bits (a NaN's sign and payload
aside), on CUDA devices and on a
SYCL CPU device on its own kernels (USMARRAY_DEVICE_KERNELS=1, the OpenCL
kernel text); what does not qualify runs eagerly, with the reason."""

import re

import numpy as np
import pytest
import usmarray as ua
from conftest import first_device_of_each_backend
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuse import (
    APART,
    AXES_STAGED,
    MIXED_LAYOUTS,
    NESTED,
    SHAPES_OF_Y,
    SHAPES_OF_Z,
    build,
    check_graph,
    gelu,
    graphs,
    mixed_arguments,
    trees,
)
from usmarray import _fuse_kernel

DEVICES = [d for d in first_device_of_each_backend() if not d.startswith("host")]
pytestmark = pytest.mark.skipif(not DEVICES, reason="no device that compiles kernels")
N = 10_007


def on_own_kernels(name, monkeypatch):
    if ua.Device(name).device_type == "cpu":
        monkeypatch.setenv("USMARRAY_DEVICE_KERNELS", "1")
    return name


@pytest.fixture(params=DEVICES)
def device(request, monkeypatch):
    return on_own_kernels(request.param, monkeypatch)


def sample(device, dtype, shape=(N,), seed=7):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        a = rng.integers(-50 if np.dtype(dtype).kind == "i" else 0, 50, shape)
    else:
        a = rng.standard_normal(shape) * 3
        a.reshape(-1)[:6] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0][: a.size]
    return ua.asarray(a.astype(dtype), device=device)


def same_bits(got, want):
    """got has want's dtype, shape and bits, but that a NaN matches any
    NaN: which operand's NaN an operation passes on (its sign and payload)
    is the compiler's choice once the operations are one kernel."""
    got = np.ascontiguousarray(ua.asnumpy(got))
    want = np.ascontiguousarray(np.asarray(want))
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind == "f":
        nan = np.isnan(want)
        np.testing.assert_array_equal(np.isnan(got), nan)
        got, want = got[~nan], want[~nan]
        got, want = got.view(f"u{want.itemsize}"), want.view(f"u{want.itemsize}")
    np.testing.assert_array_equal(got, want)


def within_reduction_error(got, want, terms, mean=False):
    """got is want but for a sum of terms (or their mean) added in another
    order: NaN and infinities where want has them, finite values within
    twice the pairwise sums' bound (both results within it of the exact
    sum), and the rounding of what the sum went into."""
    got = np.asarray(ua.asnumpy(got))
    want = np.asarray(ua.asnumpy(want) if isinstance(want, ua.USMArray) else want)
    assert got.dtype == want.dtype and got.shape == want.shape
    nan, fin = np.isnan(want), np.isfinite(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got[~fin & ~nan], want[~fin & ~nan])
    t = np.abs(np.asarray(ua.asnumpy(terms), dtype=np.float64))
    n = max(t.size, 1)
    eps = float(np.finfo(want.dtype).eps)
    bound = 2 * (21 + max(np.log2(n / 16), 0)) * eps * t.sum() / (n if mean else 1)
    w = want[fin].astype(np.float64)
    err = np.abs(got[fin].astype(np.float64) - w)
    assert np.all(err <= bound + 2 * np.spacing(np.abs(w))), (err.max(), bound)


def explained(kernels, fused, eager):
    """explain()'s count of a plan's kernels, reductions in their values'
    kernels and eager reductions."""
    if fused:
        return (
            f"{kernels} kernels, {fused} reductions in their values' kernels and {eager} reductions"
        )
    return f"{kernels} kernels and {eager} reductions"


def check(fn, *args, kernel=True):
    fused = ua.fuse(fn)
    got = fused(*args)
    with np.errstate(all="ignore"):
        same_bits(got, ua.asnumpy(fn(*args)))
    assert (fused.plan(*args).kernel is not None) == kernel, fused.explain(*args)
    return fused


FLOAT_GRAPHS = {
    "axpy": lambda x, y: 2.5 * x + y,
    "leaky": lambda x, y: ua.where(x > 0, x, 0.01 * x),
    "gelu": lambda x, y: gelu(x),
    "squares": lambda x, y: (x - y) ** 2 + x**3,
    "math": lambda x, y: ua.exp(-(x**2)) + ua.hypot(x, y) - ua.sqrt(ua.abs(y)),
    "tests": lambda x, y: ua.where(ua.isnan(x), y, ua.where(x <= y, -x, ua.floor(y / 3))),
}


@pytest.mark.parametrize("name", sorted(FLOAT_GRAPHS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_graphs_are_one_kernel_with_the_eager_bits(device, name, dtype):
    x, y = sample(device, dtype), sample(device, dtype, seed=8)
    fused = check(FLOAT_GRAPHS[name], x, y)
    assert "one kernel of" in fused.explain(x, y)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "int64"])
def test_integer_graphs(device, dtype):
    x, y = sample(device, dtype), sample(device, dtype, seed=8)
    check(lambda x, y: (x * 3) ^ (y + 1), x, y)
    check(lambda x, y: ua.where(x < y, x - y, y // 3), x, y)
    check(lambda x, y: x**2 + ua.maximum(x, y) % 7, x, y)
    # A constant outside the dtype: the eager comparison is exact, no kernel.
    check(lambda x, y: ua.where(x < 1000, x, y), x, y, kernel=np.dtype(dtype).itemsize > 1)


def test_broadcasting_strides_and_shapes(device):
    m = sample(device, "float32", (64, 130))
    row = sample(device, "float32", (130,), seed=3)
    col = sample(device, "float32", (64, 1), seed=4)
    f = lambda x, y: ua.where(x > y, x * y, x - 1.5)  # noqa: E731
    check(f, m, row)
    check(f, m, col)
    check(f, m[::-3, 1::2], row[1::2])
    check(f, ua.permute_dims(m, (1, 0)), col[:, 0])
    zero_d = sample(device, "float64", ())
    check(f, zero_d, zero_d)
    empty = sample(device, "float64", (0, 5))
    check(f, empty, sample(device, "float64", (5,)))


def test_python_scalar_arguments_travel_with_each_call(device):
    x = sample(device, "float32")
    fused = ua.fuse(lambda x, a: a * x + 1)
    for a in (2.5, -1.0, 3):
        same_bits(fused(x, a), ua.asnumpy(a * x + 1))
    assert fused.traces == 2  # float and int: a signature each
    assert fused.plan(x, 2.5).kernel is not None
    # An integer computation takes no scalar argument (its range is the
    # eager call's business).
    i = sample(device, "int32")
    ints = check(lambda x, a: x + a, i, 7, kernel=False)
    assert "scalar argument 1" in ints.explain(i, 7)


def softmax(m):
    e = ua.exp(m - ua.max(m, axis=1, keepdims=True))
    return e / ua.sum(e, axis=1, keepdims=True)


# name: (graph, its kernels, reductions in their values' kernels and eager
# reductions, and the terms its fused sum adds, or None)
STAGED = {
    "sum of a product": (lambda x, y: ua.sum(x * y) + x, (1, 1, 0), lambda x, y: x * y),
    "squared distance": (lambda x, y: ua.sum((x - y) ** 2), (0, 1, 0), lambda x, y: (x - y) ** 2),
    # (the mean of all of x in a kernel of its own)
    "variance": (
        lambda x, y: ua.mean((x - ua.mean(x)) ** 2),
        (0, 2, 0),
        lambda x, y: (x - ua.mean(x)) ** 2,
    ),
    "largest square": (lambda x, y: ua.max(x * x) - ua.min(y * y), (1, 2, 0), None),
    # rows of 23 elements: their reductions, planned in the values'
    # kernels, run as the stage's kernel and the eager call (rows shorter
    # than any rows kernel takes: 32 elements on CUDA, 256 elsewhere)
    # (the square root on each row's value in the rows' kernel)
    "row norms": (lambda m, y: ua.sqrt(ua.sum(m * m, axis=1)), (0, 1, 0), None),
    "softmax": (lambda m, y: softmax(m), (1, 1, 1), None),
    "a reduction's value alone": (lambda x, y: ua.max(x), (0, 0, 1), None),
}


def check_staged(name, x, y):
    """The graph's result on the compiling device against the eager calls':
    the eager bits, but for a fused sum's order; and its plan's counts."""
    fn, counts, terms = STAGED[name]
    fused = ua.fuse(fn)
    got = fused(x, y)
    with np.errstate(all="ignore"):
        want = fn(x, y)
        if terms is None:
            same_bits(got, ua.asnumpy(want))
        else:
            within_reduction_error(got, want, terms(x, y), mean=name == "variance")
    assert fused.plan(x, y).kernel is not None, fused.explain(x, y)
    text = fused.explain(x, y)
    assert explained(*counts) in text, text
    return fused


@pytest.mark.parametrize("name", sorted(STAGED))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_graphs_with_reductions_run_as_kernels_between_them(device, name, dtype):
    """Each reduction's operand and the result as a kernel of the
    elementwise nodes before them, the reductions the eager calls between:
    the eager bits."""
    # rows shorter than any rows kernel takes, so that the stages run
    shape = (431, 23) if name in ("row norms", "softmax") else (N,)
    x, y = sample(device, dtype, shape), sample(device, dtype, shape, seed=8)
    check_staged(name, x, y)
    # finite values, whose sums the fused order changes
    x, y = ua.where(ua.isfinite(x), x, 1.5), ua.where(ua.isfinite(y), y, 1.5)
    check_staged(name, x, y)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_reduction_of_an_argument_runs_in_its_own_kernel_where_it_is_dense(
    device, monkeypatch, dtype
):
    """A mean of all of an argument that a later stage reads runs in a
    kernel of its own where the argument is dense in one memory order (C
    or F), once a call; a strided argument takes the eager mean of the
    argument itself, its bits, with no refused call of the kernel first."""
    calls = []
    real = _fuse_kernel._ua._fused_reduce

    def spy(*args):
        calls.append(args[2])
        return real(*args)

    monkeypatch.setattr(_fuse_kernel._ua, "_fused_reduce", spy)
    h = np.asarray(ua.asnumpy(sample(device, dtype, (300, 270))))
    h[~np.isfinite(h)] = 0.5
    centred = ua.fuse(lambda x: x - ua.mean(x))
    for x in (ua.asarray(h, device=device), ua.asarray(np.asfortranarray(h), device=device)):
        calls.clear()
        for _ in range(3):
            within_reduction_error(centred(x), x - ua.mean(x), x, mean=True)
        assert calls == ["mean"] * 3, centred.explain(x)
    strided = ua.asarray(h, device=device)[::2, 1::3]
    calls.clear()
    for _ in range(3):
        same_bits(centred(strided), ua.asnumpy(strided - ua.mean(strided)))
    assert calls == [], centred.explain(strided)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_first_call_compiles_its_steps_kernels_ahead(device, monkeypatch, dtype):
    """A call of several kernels (the variance's mean, then its squares'
    mean; x / sum(x)'s sum, then the quotients) hands them all to
    _fused_prepare before the first runs, once a signature, with a
    stand-in of the earlier step's one value: the calls the steps then
    make, their results, and a prepare of those calls that computes
    nothing.  A step the stand-in cannot give (a row's value read to the
    host) and what follows it compile on their calls."""
    prepared, reduced, ran = [], [], []
    real_prepare, real_reduce = _fuse_kernel._ua._fused_prepare, _fuse_kernel._ua._fused_reduce
    real_elementwise = _fuse_kernel._ua._fused_elementwise

    def prepare(calls):
        prepared.append(calls)
        return real_prepare(calls)

    def reduce(*args):
        ran.append(("reduce", args[2:]))
        reduced.append(args)
        return real_reduce(*args)

    def elementwise(*args):
        ran.append(("elementwise", ()))
        return real_elementwise(*args)

    monkeypatch.setattr(_fuse_kernel._ua, "_fused_prepare", prepare)
    monkeypatch.setattr(_fuse_kernel._ua, "_fused_reduce", reduce)
    monkeypatch.setattr(_fuse_kernel._ua, "_fused_elementwise", elementwise)
    h = np.asarray(ua.asnumpy(sample(device, dtype, (40_000,))))
    h[~np.isfinite(h)] = 0.5
    x = ua.asarray(h, device=device)
    variance = ua.fuse(lambda x: ua.mean((x - ua.mean(x)) ** 2))
    share = ua.fuse(lambda x: x / ua.sum(x))
    for f, want, kinds in (
        (variance, h.astype(np.float64).var(), ["reduce", "reduce"]),
        (share, h / h.astype(np.float64).sum(), ["reduce", "elementwise"]),
    ):
        prepared.clear(), ran.clear()
        for _ in range(3):
            got = f(x)
            np.testing.assert_allclose(
                ua.asnumpy(got), want, rtol=1e-5 if dtype == "float32" else 1e-12
            )
        assert len(prepared) == 1, f.explain(x)  # the first call alone
        calls = prepared[0]
        assert [kind for kind, _ in calls] == kinds
        assert [kind for kind, _ in ran[:2]] == kinds
        # the prepared calls are the steps' own (the stand-in aside)
        assert [args[2:] for kind, args in calls if kind == "reduce"] == [
            args for kind, args in ran[:2] if kind == "reduce"
        ]
        stand_in = calls[1][1][1][1]
        assert stand_in.shape == () and stand_in.dtype == dtype
    # a stand-in computes nothing: the first call's result equals a later one
    first = ua.fuse(lambda x: ua.mean((x - ua.mean(x)) ** 2))
    np.testing.assert_array_equal(ua.asnumpy(first(x)), ua.asnumpy(variance(x)))


def test_a_call_of_more_kernels_than_compile_at_once_compiles_the_rest_on_use(device):
    """_fused_prepare takes the first six kernels; the calls past them are
    checked as the others, and compile when they run: seven chained means
    of all the values give NumPy's values."""

    def chained(x):
        m = ua.mean(x)
        for _ in range(6):
            m = ua.mean(x - m)
        return m

    h = np.linspace(0.0, 1.0, 1 << 16)
    x = ua.asarray(h, device=device)
    want = h.mean()
    for _ in range(6):
        want = (h - want).mean()
    for _ in range(2):
        np.testing.assert_allclose(float(ua.fuse(chained)(x)), want, atol=1e-12)
    e = _fuse_kernel._ua._fused_expression((("multiply", (0, 0)),), (), "float64")
    calls = (("reduce", (e, (x,), "sum")),) * 7 + (("elementwise", (e, (x,))),)
    assert _fuse_kernel._ua._fused_prepare(calls) is None
    with pytest.raises(ValueError, match="call 8's kind is 'elementwise' or 'reduce'"):
        _fuse_kernel._ua._fused_prepare(calls + (("scan", ()),))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("keepdims", [False, True])
def test_a_reductions_value_stays_on_the_device_for_the_next_kernel(
    device, monkeypatch, dtype, keepdims
):
    """Past one row of all the values (where the chain's one kernel takes
    the variance), the variance's mean, a kernel's one-element result, is
    an operand of the next reduction's kernel in the device's memory, read
    once by the kernel, where a host scalar would wait for the device: the
    variance within the sums' bound, NaN and infinities as eagerly."""
    seen = []
    real = _fuse_kernel._ua._fused_reduce

    def spy(expression, operands, *rest):
        seen.append([type(a).__name__ for a in operands])
        return real(expression, operands, *rest)

    monkeypatch.setattr(_fuse_kernel._ua, "_fused_reduce", spy)

    def variance(x, y):
        return ua.mean((x - ua.mean(x, keepdims=keepdims)) ** 2)

    n = (40_009,)
    for x in (
        ua.where(ua.isfinite(sample(device, dtype, n)), sample(device, dtype, n), 1.5),
        sample(device, dtype, n),  # 0, -0, inf, -inf, NaN among the values
    ):
        fused = ua.fuse(variance)
        got, want = fused(x, x), variance(x, x)
        with np.errstate(all="ignore"):
            within_reduction_error(got, want, (x - ua.mean(x)) ** 2, mean=True)
    # the mean's call reads the array, the next the array and the mean: no
    # host scalar
    assert seen == [["USMArray"], ["USMArray", "USMArray"]] * 2, seen


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_math_functions_overflow_read_by_an_add_is_the_eager_one(device, dtype):
    """The math library's value read by a later node's add or subtract is
    the eager calls' stored value: where exp overflows, exp(x) - inf is
    NaN, as eagerly, not the -inf of its last product joined to the
    subtraction (CUDA's compiler fuses an unrounded product into the next
    add); the same in a chain's phase (all the values one row)."""
    big = 100.0 if dtype == "float32" else 800.0
    h = np.linspace(-3.0, 3.0, 1000).astype(dtype)
    h[::7] = big  # exp overflows to inf
    x = ua.asarray(h, device=device)
    y = ua.asarray(np.full(1000, np.inf, dtype), device=device)
    graphs = [
        lambda x, y: ua.exp(x) - y,
        lambda x, y: ua.exp(x * x) + (-y),
        lambda x, y: ua.sinh(x) - y,
        lambda x, y: x - ua.exp(x) + y,
        # passed on by a node that adds nothing itself
        lambda x, y: +ua.exp(x) - y,
        lambda x, y: -ua.exp(x) + y,
        lambda x, y: ua.where(x > 0, ua.exp(x), 0.0) - y,
        lambda x, y: ua.maximum(ua.exp(x), 0.5) - y,
        lambda x, y: ua.exp(x) - ua.sum(ua.exp(x) / 8 + 1),
    ]
    for fn in graphs:
        fused = ua.fuse(fn)
        with np.errstate(all="ignore"):
            want = ua.asnumpy(fn(x, y))
            got = ua.asnumpy(fused(x, y))
        assert np.isnan(want).any(), "the case must reach inf - inf"
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want), fused.explain(x, y))
        fin = np.isfinite(want)
        np.testing.assert_array_equal(got[~fin & ~np.isnan(want)], want[~fin & ~np.isnan(want)])


def test_ints_past_64_bits_in_a_float_computation_are_the_eager_ones(device):
    """A Python int that no 64-bit integer holds, as a constant or as an
    argument, is its nearest double, as in the eager call."""
    x = sample(device, "float32")
    check(lambda x: x * 2**70 + 1, x)
    fused = ua.fuse(lambda x, a: x + a)
    for a in (-(2**63) - 1, 2**64 + 5, 3):
        same_bits(fused(x, a), ua.asnumpy(x + a))


def test_a_reduction_read_by_another_runs_once(device):
    m = sample(device, "float32", (31, 37))
    m = ua.where(ua.isfinite(m), m, 0.5)
    fused = check(lambda m: ua.sum(ua.max(m, axis=1)) * m, m)
    assert "1 kernels and 2 reductions" in fused.explain(m)


FALLBACKS = {
    "a reduction of another dtype": lambda x, y, z, w: ua.sum(x < y) + x,
    "mixed dtypes": lambda x, y, z, w: x + ua.astype(y, ua.float64),
    "four arguments": lambda x, y, z, w: x * y + z * w,
    "astype": lambda x, y, z, w: ua.astype(x, ua.int32) + 1,
    "a bool value": lambda x, y, z, w: ua.logical_not(x < y),
}


@pytest.mark.parametrize("why", sorted(FALLBACKS))
def test_what_is_not_one_kernel_runs_eagerly(device, why):
    args = [sample(device, "float32", seed=s) for s in range(4)]
    fused = check(FALLBACKS[why], *args, kernel=False)
    assert "eager" in fused.explain(*args)


def test_a_graph_the_kernel_refuses_runs_eagerly_from_its_first_call(device):
    x, y = sample(device, "float32"), sample(device, "float32", seed=8)
    fused = ua.fuse(lambda x, y: (x > y) + x)  # arithmetic on a predicate's bool
    same_bits(fused(x, y), ua.asnumpy((x > y) + x))
    assert "the kernel refused the graph" in fused.explain(x, y)
    same_bits(fused(x, y), ua.asnumpy((x > y) + x))


def test_a_cpu_device_on_the_hosts_loops_plans_as_the_host(monkeypatch):
    """A SYCL CPU device that runs the host's loops (USMARRAY_DEVICE_KERNELS
    unset) plans a graph as the host does: elementwise calls in one call
    of the loops with the eager bits, a reduction of all axes in the pass
    of its values (within the pairwise sums' bound), in blocks too, on
    the arguments' queue; with the device's own kernels, the kernel plan."""
    from usmarray import _fuse_kernel

    cpus = [d for d in DEVICES if ua.Device(d).device_type == "cpu"]
    if not cpus:
        pytest.skip("no SYCL CPU device")
    monkeypatch.delenv("USMARRAY_DEVICE_KERNELS", raising=False)
    assert _fuse_kernel._ua._runs_host_loops(ua.Device(cpus[0]))
    rng = np.random.default_rng(9)
    x, y = (ua.asarray(rng.standard_normal(N), device=cpus[0]) for _ in range(2))
    fused = ua.fuse(lambda x: 2 * x + 1)
    same_bits(fused(x), ua.asnumpy(2 * x + 1))
    assert fused.plan(x).kernel is None and "plan: host" in fused.explain(x)
    calls = []
    real = _fuse_kernel._ua._fused_reduce
    monkeypatch.setattr(_fuse_kernel._ua, "_fused_reduce", lambda *a: calls.append(1) or real(*a))
    for n in (1000, N):  # a small call, and one past a block of 1000
        reduced = ua.fuse(lambda x, y: ua.sum((x - y) ** 2), block=1000)
        for _ in range(3):
            got = reduced(x[:n], y[:n])
        h = ua.asnumpy(x[:n]) - ua.asnumpy(y[:n])
        np.testing.assert_allclose(float(got), float((h * h).sum()), rtol=1e-13)
        assert got.device == x.device
    assert len(calls) == 6, calls
    blocked = ua.fuse(lambda x, y: ua.exp(x) * y - x, block=1000)
    got = blocked(x, y)
    same_bits(got, ua.asnumpy(ua.exp(x) * y - x))
    assert got.device == x.device
    monkeypatch.setenv("USMARRAY_DEVICE_KERNELS", "1")
    assert not _fuse_kernel._ua._runs_host_loops(ua.Device(cpus[0]))
    assert ua.fuse(lambda x: 2 * x + 1).plan(x).kernel is not None


def test_bad_descriptions_are_refused(device):
    from usmarray import _usmarray

    x = sample(device, "float32")
    assert "host's loops" in _usmarray._fused_elementwise.__doc__

    def call(nodes, consts, ops, dtype):
        expression = _usmarray._fused_expression(nodes, consts, dtype)
        return _usmarray._fused_elementwise(expression, ops)

    bad = [
        ((("nope", (0,)),), (), (x,), "float32", ValueError, "no elementwise function"),
        ((("exp", (5,)),), (), (x,), "float32", ValueError, "not defined before it"),
        ((("exp", (0, 0)),), (), (x,), "float32", ValueError, "takes 1 operands"),
        ((("where", (0, 0, 0)),), (), (x,), "float32", TypeError, "reads a number"),
        ((("exp", (0,)),), (), (x,), "float64", TypeError, "not the computation's"),
        ((("exp", (0,)),), (), (x,), "complex64", TypeError, "computes in complex64"),
        ((("add", (0, 0x200)),), (1j,), (x,), "float32", TypeError, "bool, int or float"),
        ((("exp", (0,)),), (), (x, x, x, x), "float32", ValueError, "1 to 3 operands"),
        ((), (), (x,), "float32", ValueError, "1 to 64 nodes"),
        ((("exp", (0,)),), (), (1.0,), "float32", TypeError, "needs an array"),
        ((("exp", (0,)),), (), (x,), "no-such-dtype", TypeError, "no-such-dtype"),
        (((1, 2),), (), (x,), "float32", TypeError, "a node is"),
    ]
    for nodes, consts, ops, dtype, error, message in bad:
        with pytest.raises(error, match=message):
            call(nodes, consts, ops, dtype)
    # the host's loops run a graph of elementwise calls, node by node
    host = ua.asarray([1.0], device="host")
    same_bits(call((("exp", (0,)),), (), (host,), "float64"), ua.asnumpy(ua.exp(host)))


@pytest.mark.parametrize(
    "name, fn",
    [
        ("squared distance", lambda x, y: ua.sum((x - y) ** 2)),
        ("variance", lambda x, y: ua.mean((x - ua.mean(x)) ** 2)),
        ("kept dims of a matrix", lambda x, y: ua.max(x * y, keepdims=True)),
        ("a min before a sum", lambda x, y: ua.sum(x - ua.min(y))),
        ("a kept mean", lambda x, y: ua.sum((x - ua.mean(x, keepdims=True)) ** 2)),
        ("a one-element argument", lambda x, y: ua.sum((x - y) ** 2)),
    ],
)
@pytest.mark.parametrize("n", [N, 40_009])
def test_fused_reductions_run_in_their_values_kernel(device, monkeypatch, name, fn, n):
    """Each call reduces in the values' kernel (a reduction's value before
    it, one element, travels as a scalar), within the sums' bound of the
    eager result, with its shape: up to 32,768 values as one row of the
    rows' kernel, which writes the result, more in the groups' partials
    and their value; a reduction of an argument before it up to 32,768
    values in the same kernel (a chain's phase), more a kernel of its
    own."""
    from usmarray import _fuse_kernel

    calls, chains = [], []
    real, real_chain = _fuse_kernel._ua._fused_reduce, _fuse_kernel._ua._fused_chain

    def counted(*args):
        parts = real(*args)
        calls.append(args[3] if len(args) > 3 else 0)  # a call that reduced, not one refused
        return parts

    def counted_chain(*args):
        values = real_chain(*args)
        chains.append(args[3])
        return values

    monkeypatch.setattr(_fuse_kernel._ua, "_fused_reduce", counted)
    monkeypatch.setattr(_fuse_kernel._ua, "_fused_chain", counted_chain)
    x = sample(device, "float32", (n,))
    y = sample(device, "float32", (n,), seed=8)
    x, y = ua.where(ua.isfinite(x), x, 0.5), ua.where(ua.isfinite(y), y, 2)
    if name == "a one-element argument":
        y = y[:1]
    if name == "kept dims of a matrix":
        rows = n // 100
        x, y = ua.reshape(x[: rows * 100], (rows, 100)), ua.reshape(y[: rows * 100], (rows, 100))
    fused = ua.fuse(fn)
    for _ in range(2):
        got = fused(x, y)
        with np.errstate(all="ignore"):
            want = fn(x, y)
        assert got.shape == want.shape
        np.testing.assert_allclose(ua.asnumpy(got), ua.asnumpy(want), rtol=2e-5)
    one_row = x.size <= 32768 and x.device.backend != "host"
    chained = one_row and name in ("variance", "a min before a sum", "a kept mean")
    assert chains == ([x.size] * 2 if chained else []), fused.explain(x, y)
    # past one row, a reduction of an argument before the last its own call
    before = name in ("variance", "a min before a sum", "a kept mean") and not one_row
    per_call = [x.size if one_row else 0] * (1 + (before and x.device.backend != "host"))
    assert calls == ([] if chained else per_call * 2), fused.explain(x, y)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fused_reductions_of_millions_of_elements(device, dtype):
    """Past four elements a thread (1,024 groups of up to 512 threads), each
    thread computes four values before it takes them: the sums within the
    pairwise bound, max and min exact, a NaN or an infinity anywhere
    propagated."""
    n = 4_000_037
    rng = np.random.default_rng(11)
    h = rng.standard_normal(n).astype(dtype)
    x = ua.asarray(h, device=device)
    want = (h.astype(np.float64) * 3) ** 2
    squared = ua.fuse(lambda x: ua.sum((3 * x) ** 2))
    within_reduction_error(squared(x), ua.sum((3 * x) ** 2), (3 * x) ** 2)
    assert explained(0, 1, 0) in squared.explain(x)
    for name in ("max", "min"):
        f = ua.fuse(lambda x, name=name: getattr(ua, name)(x * x))
        same_bits(f(x), ua.asnumpy(getattr(ua, name)(x * x)))
    assert float(ua.fuse(lambda x: ua.mean(x * x))(x)) == pytest.approx((h * h).mean(), rel=1e-6)
    for k, bad in ((17, np.nan), (n - 3, np.inf), (2_500_000, -np.inf)):
        g = h.copy()
        g[k] = bad
        y = ua.asarray(g, device=device)
        with np.errstate(all="ignore"):
            for f in (lambda x: ua.sum(x * 2), lambda x: ua.max(x * 2), lambda x: ua.min(x * 2)):
                same_bits(ua.fuse(f)(y), ua.asnumpy(f(y)))
    assert want.sum() > 0


def test_a_stage_of_bools_is_not_reduced_in_its_kernel(device):
    """A kernel ending in a comparison of one argument and a constant (its
    operands are the expression's one input, not the comparison's two)."""
    x = sample(device, "float32")
    same_bits(ua.fuse(lambda x: x > 0.5)(x), ua.asnumpy(x > 0.5))
    fused = ua.fuse(lambda x: ua.sum(x > 0.0))
    same_bits(fused(x), ua.asnumpy(ua.sum(x > 0.0)))
    assert "in their values' kernels" not in fused.explain(x)


def test_fused_reductions_refuse_what_they_do_not_walk(device):
    """_fused_reduce: a sum, max, min or mean of float values of arrays of
    one shape, dense in one memory order, with elements, into their one
    value of the values' dtype (through post where given); each refusal
    names what it refused (usmarray.fuse then runs the kernel and the
    eager reduction)."""
    from usmarray import _usmarray

    x = sample(device, "float32", (40, 30))
    square = _usmarray._fused_expression((("multiply", (0, 0)),), (), "float32")
    most = _usmarray._fused_reduce(square, (x,), "max")
    assert most.dtype == ua.float32 and most.shape == (1,) and most.device == x.device
    assert np.isnan(ua.asnumpy(most)[0])  # the sample's NaN, propagated
    finite = ua.where(ua.isfinite(x), x, 2.0)
    h = ua.asnumpy(finite).astype(np.float64)
    sums = np.float32((h * h).sum())
    for op, want in (
        ("sum", sums),
        ("max", (h * h).max()),
        ("min", (h * h).min()),
        # the eager mean's: the sum rounded to float32, divided in float32
        ("mean", sums / np.float32(h.size)),
    ):
        got = ua.asnumpy(_usmarray._fused_reduce(square, (finite,), op, 0, None, ()))
        assert got.shape == () and got.dtype == np.float32, op
        assert got == pytest.approx(want, rel=1e-6), op
    # the mean is the same kernel's sum rounded to float32, then divided
    total = ua.asnumpy(_usmarray._fused_reduce(square, (finite,), "sum", 0, None, ()))
    mean = ua.asnumpy(_usmarray._fused_reduce(square, (finite,), "mean", 0, None, ()))
    same_bits(mean, total / np.float32(finite.size))
    # the value through post, in the kernel that reduces them
    root = _usmarray._fused_expression((("sqrt", (0,)),), (), "float32")
    norm = _usmarray._fused_reduce(square, (finite,), "sum", 0, root, (1, 1))
    assert norm.shape == (1, 1) and ua.asnumpy(norm)[0, 0] == pytest.approx(np.sqrt(sums), rel=1e-6)
    # the transpose is dense too, in the other order
    squares = ua.asnumpy(finite) * ua.asnumpy(finite)  # float32 products
    assert ua.asnumpy(_usmarray._fused_reduce(square, (finite.T,), "max"))[0] == squares.max()
    add = _usmarray._fused_expression((("add", (0, 1)),), (), "float32")
    f_ordered = ua.asarray(np.asfortranarray(ua.asnumpy(x)), device=device)
    bad = [
        ((square, (x,), "prod"), ValueError, "'sum', 'max', 'min' or 'mean'"),
        (
            (square, (x,), "sum", 0, None, (2,)),
            ValueError,
            "holds 2 elements, not the one value's 1",
        ),
        ((square, (x,), "sum", -1), ValueError, "a row's length"),
        ((square, (x,), "sum", 7), ValueError, "rows of 7 elements"),
        ((add, (x, x[:1]), "sum", 30), ValueError, "one element a row"),
        ((add, (x, f_ordered), "sum", 30), ValueError, "dense in C order"),
        ((square, (x.T,), "sum", 40), ValueError, "dense in C order"),
        ((add, (x, x[:1]), "sum"), ValueError, "broadcast"),
        ((square, (x[:0],), "sum"), ValueError, "no elements"),
        ((square, (x[:, ::2],), "sum"), ValueError, "one memory order"),
        ((add, (x, f_ordered), "sum"), ValueError, "one memory order"),
        (("square", (x,), "sum"), TypeError, "_fused_expression"),
    ]
    for args, error, message in bad:
        with pytest.raises(error, match=message):
            _usmarray._fused_reduce(*args)
    # the host's loops reduce all the values, all of them as one row (its
    # one value, in the shape given), or rows, with no post
    host = ua.asarray([[3.0, 1.0], [2.0, 0.5]], device="host")
    square64 = _usmarray._fused_expression((("multiply", (0, 0)),), (), "float64")
    assert ua.asnumpy(_usmarray._fused_reduce(square64, (host,), "sum")).tolist() == [14.25]
    for op, want in (("sum", 14.25), ("mean", 14.25 / 4), ("max", 9.0), ("min", 0.25)):
        for row in (0, 4):
            one = _usmarray._fused_reduce(square64, (host,), op, row, None, (1, 1))
            assert one.shape == (1, 1) and one.dtype == ua.float64
            assert ua.asnumpy(one)[0, 0] == want, (op, row)
    rows = _usmarray._fused_reduce(square64, (host,), "sum", 2, None, (2, 1))
    assert ua.asnumpy(rows).tolist() == [[10.0], [4.25]]
    with pytest.raises(ValueError, match="rows that divide them"):
        _usmarray._fused_reduce(square64, (host,), "sum", 3)
    root64 = _usmarray._fused_expression((("sqrt", (0,)),), (), "float64")
    with pytest.raises(ValueError, match="take no expression after the reduction"):
        _usmarray._fused_reduce(square64, (host,), "sum", 0, root64)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=trees(), dtype=st.sampled_from(["float32", "float64"]))
def test_random_expression_trees(tree, dtype):
    with pytest.MonkeyPatch.context() as mp:
        for name in DEVICES:
            d = on_own_kernels(name, mp)
            x, y = sample(d, dtype), sample(d, dtype, seed=8)
            try:
                with np.errstate(all="ignore"):
                    want = build(tree, x, y)
            except (TypeError, ValueError):
                continue
            if isinstance(want, bool | int | float):
                continue
            fused = ua.fuse(lambda x, y: build(tree, x, y))
            same_bits(fused(x, y), ua.asnumpy(want))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tree=trees(),
    dtype=st.sampled_from(["float32", "float64"]),
    reduction=st.sampled_from(["sum", "max", "min", "mean", "prod"]),
    finite=st.booleans(),
)
def test_random_trees_around_a_reduction(tree, dtype, reduction, finite):
    """A tree, reduced, then combined with the tree again: the eager bits,
    but for a sum's or a mean's order where it runs in its values'
    kernel."""
    with pytest.MonkeyPatch.context() as mp:
        for name in DEVICES:
            d = on_own_kernels(name, mp)
            x, y = sample(d, dtype), sample(d, dtype, seed=8)
            if finite:  # the sample's first elements are 0, -0, inf, -inf, NaN
                x, y = ua.where(ua.isfinite(x), x, 0.5), ua.where(ua.isfinite(y), y, -2.0)

            def f(x, y):
                value = build(tree, x, y)
                return value - getattr(x.__array_namespace__(), reduction)(value / 8 + 1)

            try:
                with np.errstate(all="ignore"):
                    want = f(x, y)
            except (TypeError, ValueError):
                continue
            if isinstance(want, bool | int | float):
                continue
            fused = ua.fuse(f)
            got = fused(x, y)
            with np.errstate(all="ignore"):
                if reduction in ("sum", "mean"):
                    terms = build(tree, x, y) / 8 + 1
                    within_reduction_error(got, want, terms, mean=reduction == "mean")
                else:
                    same_bits(got, ua.asnumpy(want))


# The kernels, the reductions in their values' kernels and the eager
# reductions of test_fuse's AXES_STAGED: a reduction of rows is planned in
# its values' kernel, and rows of 103 run as the stage's kernel and the
# eager call, with the eager bits.
AXES_STAGED_COUNTS = {
    "columns against rows": (2, 1, 1),
    "rows of a difference": (1, 1, 0),
    "a mean's residual": (2, 0, 1),
}


@pytest.mark.parametrize("name", sorted(STAGED) + sorted(AXES_STAGED))
@pytest.mark.parametrize("layouts", MIXED_LAYOUTS, ids="-".join)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_staged_graphs_of_mixed_layouts_have_the_eager_bits(device, name, layouts, dtype):
    """C- and F-ordered, transposed and sliced arguments: each stage's
    kernel lays its values out as the eager call does, so the reductions
    between the kernels sum in the eager order."""
    rows = name in ("row norms", "softmax")
    x, y = mixed_arguments(layouts, dtype, device, (431, 23) if rows else (97, 103))
    if name in STAGED:
        check_staged(name, x, y)
        return
    fused = check(AXES_STAGED[name], x, y)
    assert explained(*AXES_STAGED_COUNTS[name]) in fused.explain(x, y)


def test_an_eager_reductions_error_is_raised_and_the_kernels_stay(device):
    """The max of an empty array raises the eager call's ValueError; the
    signature keeps its kernels, which the next call runs."""

    def fn(x):
        return ua.max(x * 2) + x

    empty = sample(device, "float32", (0,))
    with pytest.raises(ValueError) as eager:
        fn(empty)
    fused = ua.fuse(fn)
    with pytest.raises(ValueError, match=re.escape(str(eager.value))):
        fused(empty)
    assert fused.plan(empty).kernel is not None, fused.explain(empty)
    x = sample(device, "float32")
    same_bits(fused(x), ua.asnumpy(fn(x)))
    assert fused.plan(x).kernel is not None and fused.plan(x).kernel_ran
    assert explained(1, 1, 0) in fused.explain(x)


def test_arguments_that_do_not_broadcast_raise_and_the_kernel_stays(device):
    """The kernel refuses shapes that do not broadcast, and so does the
    eager call: its error is raised and the signature keeps its kernel."""

    def fn(x, y):
        return 2.5 * x + y

    a, b = sample(device, "float32", (5,)), sample(device, "float32", (6,))
    with pytest.raises(ValueError) as eager:
        fn(a, b)
    fused = ua.fuse(fn)
    with pytest.raises(ValueError, match=re.escape(str(eager.value))):
        fused(a, b)
    x, y = sample(device, "float32"), sample(device, "float32", seed=8)
    same_bits(fused(x, y), ua.asnumpy(fn(x, y)))
    assert fused.plan(x, y).kernel_ran and "one kernel of" in fused.explain(x, y)


@pytest.mark.parametrize("name", sorted(APART))
def test_arrays_that_meet_only_through_reductions_or_not_at_all(device, name):
    """Arrays whose shapes do not broadcast together, joined by reductions
    or unused: each call gives the eager result (its reductions' sums
    within their error), and explain says how it runs."""
    x = sample(device, "float32", (400, 103))
    y = sample(device, "float32", (9,), seed=8)[::-2]
    z = sample(device, "float32", (400, 7, 2), seed=9)
    f = APART[name]
    fused = ua.fuse(f)
    want = f(x, y, z)
    terms = ua.where(ua.isfinite(x), x, 0.0)
    for _ in range(3):
        within_reduction_error(fused(x, y, z), want, terms)
    assert "graph:" in fused.explain(x, y, z)


@pytest.mark.parametrize("name", sorted(NESTED))
def test_a_reduction_of_a_reductions_values(device, name):
    """The inner reduction in its values' kernel, the outer one eager:
    maxima and minima, exact."""
    m = sample(device, "float32", (50, 1000))
    f = NESTED[name]
    fused = ua.fuse(f)
    for _ in range(2):
        same_bits(fused(m), ua.asnumpy(f(m)))
    assert "graph:" in fused.explain(m)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    graph=graphs(),
    y_shape=st.sampled_from(SHAPES_OF_Y),
    z_shape=st.sampled_from(SHAPES_OF_Z),
)
def test_random_graphs_of_reductions_along_axes_and_shapes(graph, y_shape, z_shape):
    """test_fuse's random graphs of maxima and minima along axes, over
    arguments of several shapes, on each device: the eager bits or the
    eager exception's type."""
    with pytest.MonkeyPatch.context() as mp:
        for name in DEVICES:
            d = on_own_kernels(name, mp)
            rng = np.random.default_rng(6)
            x, y, z = (
                ua.asarray((rng.standard_normal(s) * 3).astype("float32"), device=d)
                for s in ((60, 40), y_shape, z_shape)
            )
            check_graph(graph, x, y, z)


def rows_within_reduction_error(got, want, terms, first, mean=False):
    """Each row's sum (or mean) within the sums' bound of the eager one."""
    got, want = np.asarray(ua.asnumpy(got)), np.asarray(ua.asnumpy(want))
    assert got.dtype == want.dtype and got.shape == want.shape
    t = np.asarray(ua.asnumpy(terms))
    rows = int(np.prod(t.shape[:first]))
    t = t.reshape(rows, -1)
    for r, (g, w) in enumerate(zip(got.reshape(rows), want.reshape(rows))):
        within_reduction_error(np.asarray(g), np.asarray(w), t[r], mean=mean)


def counted_fused_reduce(monkeypatch):
    """The rows each returned _fused_reduce call reduced (0: all values)."""
    from usmarray import _fuse_kernel

    calls = []
    real = _fuse_kernel._ua._fused_reduce

    def counted(*args):
        out = real(*args)
        calls.append(args[3] if len(args) > 3 else 0)
        return out

    monkeypatch.setattr(_fuse_kernel._ua, "_fused_reduce", counted)
    return calls


ROW_CASES = [
    ((37, 1000), 1, False),
    ((37, 1000), -1, True),
    ((5, 7, 300), (1, 2), False),
    ((5, 7, 300), 2, True),
    ((3, 2, 4, 130), (2, -1), True),
    ((40, 33), 1, True),
    ((24, 2048), 1, False),
    ((9, 2049), -1, False),
]


@pytest.mark.parametrize("case", ROW_CASES, ids=lambda c: f"{c[0]}-axis{c[1]}-keep{c[2]}")
@pytest.mark.parametrize("name", ["sum", "mean", "max", "min"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_reductions_of_rows_run_in_their_values_kernel(device, monkeypatch, case, name, dtype):
    """A reduction of the last axes: a group a row in the values' kernel,
    each row's value as the stage's dtype: max and min the eager bits, a
    NaN or an infinity in a row that row's; sums and means within the
    sums' bound, row by row."""
    shape, axis, keepdims = case
    calls = counted_fused_reduce(monkeypatch)
    x, y = sample(device, dtype, shape), sample(device, dtype, shape, seed=8)

    def fn(x, y):
        return getattr(ua, name)((x - y) * 1.5, axis=axis, keepdims=keepdims)

    fused = ua.fuse(fn)
    got = fused(x, y)
    with np.errstate(all="ignore"):
        want = fn(x, y)
        if name in ("max", "min"):
            same_bits(got, ua.asnumpy(want))
        else:
            axes = (axis,) if isinstance(axis, int) else axis
            first = min(a % len(shape) for a in axes)
            rows_within_reduction_error(got, want, (x - y) * 1.5, first, mean=name == "mean")
    row = int(np.prod([shape[a % len(shape)] for a in np.atleast_1d(axis)]))
    # rows shorter than the device's kernel takes: the stage and the eager call
    taken = not _fuse_kernel._row_too_short([x], row)
    assert calls == ([row] if taken else []), fused.explain(x, y)
    assert "rows (axes" in fused.explain(x, y)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_centred_rows_read_a_kept_reduction_per_row(device, monkeypatch, dtype):
    """A kept-dims reduction before a row reduction (a row's mean) is a
    phase of the same kernel (a chain whose last phase reduces), one read
    of each row; the result is the eager one but for the fused sums'
    order."""
    calls = counted_fused_reduce(monkeypatch)
    chains = []
    real = _fuse_kernel._ua._fused_chain
    monkeypatch.setattr(
        _fuse_kernel._ua, "_fused_chain", lambda *a: chains.append(a[3]) or real(*a)
    )
    x = sample(device, dtype, (4, 3, 700))
    x = ua.where(ua.isfinite(x), x, -1.0)

    def centred(x):
        return ua.sum((x - ua.mean(x, axis=-1, keepdims=True)) ** 2, axis=-1)

    mean = ua.mean(x, axis=-1, keepdims=True)
    rows_within_reduction_error(ua.fuse(centred)(x), centred(x), (x - mean) ** 2, 2)
    assert chains == [700] and calls == []


POST_CASES = [
    ("row norms", lambda m: ua.sqrt(ua.sum(m * m, axis=-1)), lambda m: ua.sum(m * m, axis=-1)),
    (
        "log-sum-exp, scaled",
        lambda m: ua.log(ua.sum(ua.exp(m), axis=-1)) * 2.0 - 1.0,
        lambda m: ua.sum(ua.exp(m), axis=-1),
    ),
    ("rms", lambda m: ua.sqrt(ua.mean(m * m)), lambda m: ua.mean(m * m)),
    ("kept max", lambda m: -ua.max(ua.abs(m), axis=-1, keepdims=True), None),
]


@pytest.mark.parametrize("shape", [(37, 1000), (5, 7, 300), (2, 3000), (1,), (40, 33)])
@pytest.mark.parametrize("case", POST_CASES, ids=lambda c: c[0])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_work_on_a_rows_value_alone_runs_in_the_rows_kernel(
    device, monkeypatch, shape, case, dtype
):
    """A result that is elementwise work on a reduction's value alone (row
    norms' square root, a root mean square of all the values) runs on each
    row's value, or on all the values' one value, in the reduction's
    kernel before it is written: one call, where the square root was a
    second kernel, with the bits of the fused reduction followed by that
    work (its eager calls but for the fused sum's order)."""
    name, fn, reduction = case
    seen = []
    real = _fuse_kernel._ua._fused_reduce

    def spy(*args):
        out = real(*args)
        seen.append(len(args) > 4 and args[4] is not None)
        return out

    monkeypatch.setattr(_fuse_kernel._ua, "_fused_reduce", spy)
    x = sample(device, dtype, shape)
    if name != "kept max":
        x = ua.where(ua.isfinite(x), x, 0.5)  # exp of an infinity aside
    fused = ua.fuse(fn)
    got = fused(x)
    seen, calls = [], seen
    if reduction is None:
        same_bits(got, ua.asnumpy(fn(x)))
    else:
        partial = ua.fuse(reduction)(x)
        tail = {"row norms": ua.sqrt, "rms": ua.sqrt}.get(name)
        want = tail(partial) if tail else ua.log(partial) * 2.0 - 1.0
        same_bits(got, ua.asnumpy(want))
    if name == "rms" or len(shape) == 1:  # all the values: one value, however many
        in_rows = True
    else:
        in_rows = not _fuse_kernel._row_too_short([x], shape[-1])
    assert calls == [True] if in_rows else not any(calls), fused.explain(x)
    assert "then on its value, in its kernel" in fused.explain(x)
    # the same signature again, straight to the kernel, the same bits
    same_bits(fused(x), ua.asnumpy(got))


def test_a_rows_post_expression_is_checked(device):
    """_fused_reduce's post: a _fused_expression of the rows' values (or of
    all the values' one value) in the reduction's dtype; each refusal
    names what it refused."""
    from usmarray import _usmarray

    x = sample(device, "float32", (4, 300))
    square = _usmarray._fused_expression((("multiply", (0, 0)),), (), "float32")
    root = _usmarray._fused_expression((("sqrt", (0,)),), (), "float32")
    root64 = _usmarray._fused_expression((("sqrt", (0,)),), (), "float64")
    test = _usmarray._fused_expression((("isnan", (0,)),), (), "float32")
    two = _usmarray._fused_expression((("add", (0, 1)),), (), "float32")
    shifted = _usmarray._fused_expression((("subtract", (0, 0x300)),), (), "float32", 1)
    got = ua.asnumpy(_usmarray._fused_reduce(square, (x,), "max", 300, root))
    want = ua.asnumpy(ua.sqrt(_usmarray._fused_reduce(square, (x,), "max", 300)))
    same_bits(got, want)
    assert np.isnan(got[0])  # the sample's NaN, through the square root
    finite = ua.where(ua.isfinite(x), x, 0.5)
    got = ua.asnumpy(_usmarray._fused_reduce(square, (finite,), "max", 0, root))
    same_bits(got, ua.asnumpy(ua.sqrt(ua.max(finite * finite)))[None])
    bad = [
        ((square, (x,), "sum", -2, root), ValueError, "row is 0 .all the values. or a row's"),
        ((square, (x,), "sum", 300, "sqrt"), TypeError, "post is _fused_expression"),
        ((square, (x,), "sum", 300, root64), ValueError, "post computes in float64, the expr"),
        ((square, (x,), "sum", 300, test), ValueError, "gives bool .isnan., not the reduction"),
        ((square, (x,), "sum", 300, two), ValueError, "reads operand 1 in node 0 .add."),
        ((square, (x,), "sum", 300, shifted), ValueError, "post reads a chain's row values"),
    ]
    for args, error, message in bad:
        with pytest.raises(error, match=message):
            _usmarray._fused_reduce(*args)


def softmax_of_all(x):
    e = ua.exp(x - ua.max(x))
    return e / ua.sum(e)


# name: (graph, whether its result is a row's value)
ROW_CHAINS = {
    "variance": lambda x: ua.mean((x - ua.mean(x)) ** 2),
    "standard deviation, kept": lambda x: ua.sqrt(
        ua.mean((x - ua.mean(x, keepdims=True)) ** 2, keepdims=True)
    ),
    "centred rows' sums of squares": lambda x: ua.sum(
        (x - ua.mean(x, axis=-1, keepdims=True)) ** 2, axis=-1
    ),
    "rows' spread, kept": lambda x: (
        ua.max(x - ua.min(x, axis=-1, keepdims=True), axis=-1, keepdims=True) * 0.5
    ),
}


EVERY_AXIS = ("variance", "standard deviation, kept")


def test_values_divided_by_a_reduction_of_all_of_them_keep_the_eager_quotient(device):
    """x / sum(x) and the softmax of a vector (every axis reduced, the
    result elementwise) run as stages, whose division is the eager one
    bit for bit, not as a chain's one row (a product by the reciprocal)."""
    x = ua.where(
        ua.isfinite(sample(device, "float32", (1000,))), sample(device, "float32", (1000,)), 0.5
    )
    for fn in (softmax_of_all, lambda x: x / ua.sum(ua.abs(x)), lambda x: x - ua.mean(x)):
        fused = ua.fuse(fn)
        with np.errstate(all="ignore"):
            same_bits(fused(x), ua.asnumpy(fn(x)))
        assert type(fused.plan(x).kernel) is _fuse_kernel.Stages, fused.explain(x)


ROW_CHAIN_CASES = [
    (name, shape)
    for name in sorted(ROW_CHAINS)
    for shape in (
        [(1000,), (2049,), (32_768,), (40_009,)] if name in EVERY_AXIS else [(3, 4, 700), (20, 300)]
    )
]


@pytest.mark.parametrize("name, shape", ROW_CHAIN_CASES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_chains_over_all_the_values_or_ending_in_a_reduction(
    device, monkeypatch, shape, name, dtype
):
    """A reduction before another of the same rows (a variance, centred
    rows' sums of squares) is a phase of one kernel, whose last phase
    reduces and writes each row's value (through the work on it alone: a
    standard deviation's square root); where every axis is reduced, all
    the values are one row of at most 32,768 (a group's, on CUDA too: kept
    in registers, in local memory, or read again).  The eager shapes, NaN where
    eagerly, values within the sums' rounding; more values take the
    stages."""
    fn = ROW_CHAINS[name]
    chains = []
    real = _fuse_kernel._ua._fused_chain
    monkeypatch.setattr(
        _fuse_kernel._ua, "_fused_chain", lambda *a: chains.append(a[3]) or real(*a)
    )
    every_axis = name in EVERY_AXIS
    fused = ua.fuse(fn)
    for x in (
        sample(device, dtype, shape),
        ua.where(ua.isfinite(sample(device, dtype, shape)), sample(device, dtype, shape), 0.75),
    ):
        with np.errstate(all="ignore"):
            got, want = ua.asnumpy(fused(x)), ua.asnumpy(fn(x))
        assert got.dtype == want.dtype and got.shape == want.shape, fused.explain(x)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        fin = np.isfinite(want)
        rtol = 2e-5 if dtype == "float32" else 1e-12
        np.testing.assert_allclose(got[fin], want[fin], rtol=rtol, atol=rtol * 1e-3)
    row = x.size if every_axis else shape[-1]
    taken = row <= _fuse_kernel._ONE_ROW and not _fuse_kernel._row_too_short([x], row)
    assert chains == ([row] * 2 if taken else []), fused.explain(x)
    assert type(fused.plan(x).kernel) is _fuse_kernel.RowChain, fused.explain(x)
    assert "the result: each row's" in fused.explain(x)


def test_rows_the_kernel_does_not_walk_take_the_stage_and_the_eager_call(device, monkeypatch):
    """Short rows, F-ordered and sliced arguments: the stage's kernel and
    the eager reduction, with the eager bits; rows in C order then reduce
    in the kernel again."""
    calls = counted_fused_reduce(monkeypatch)
    fn = lambda x: ua.max(x * 3.0, axis=-1)  # noqa: E731
    fused = ua.fuse(fn)
    h = np.asarray(ua.asnumpy(sample(device, "float32", (300, 400))))
    for x in (
        ua.asarray(h[:, :20], device=device),  # rows of 20, shorter than any kernel takes
        ua.asarray(np.asfortranarray(h), device=device),
        ua.asarray(h, device=device)[:, ::2],
        ua.asarray(h, device=device).T,
    ):
        same_bits(fused(x), ua.asnumpy(fn(x)))
    assert calls == []
    x = ua.asarray(h, device=device)
    same_bits(fused(x), ua.asnumpy(fn(x)))
    assert calls == [400]


def counted_chains(monkeypatch):
    """The reductions of each returned _fused_chain call."""
    from usmarray import _fuse_kernel

    calls = []
    real = _fuse_kernel._ua._fused_chain

    def counted(*args):
        out = real(*args)
        calls.append(args[1])
        return out

    monkeypatch.setattr(_fuse_kernel._ua, "_fused_chain", counted)
    return calls


# name: (graph, the reductions its chain's phases compute: a call of a
# reduction is a phase, its repeats with the same operands the same one,
# as log softmax's two calls of the same maximum)
CHAINS = {
    "softmax": (softmax, ("max", "sum")),
    "log softmax": (
        lambda m: m - ua.max(m, axis=-1, keepdims=True)
        - ua.log(ua.sum(ua.exp(m - ua.max(m, axis=-1, keepdims=True)), axis=-1, keepdims=True)),
        ("max", "sum"),
    ),
    "standardized rows": (
        lambda m: (m - ua.mean(m, axis=-1, keepdims=True))
        / ua.sqrt(ua.mean((m - ua.mean(m, axis=-1, keepdims=True)) ** 2, axis=-1, keepdims=True)),
        ("mean", "mean"),
    ),
    # the last phase reads the sum's values alone (kept in the row's
    # place where the row is kept), its constant's bits those of the
    # sum's phase; then one that reads the shift as well (recomputed)
    "scaled softmax": (
        lambda m: ua.exp(0.5 * (m - ua.max(m, axis=-1, keepdims=True)))
        / ua.sum(ua.exp(0.5 * (m - ua.max(m, axis=-1, keepdims=True))), axis=-1, keepdims=True)
        * 3.0,
        ("max", "sum"),
    ),
    "softmax plus its shift": (
        lambda m: (lambda s: ua.exp(s) / ua.sum(ua.exp(s), axis=-1, keepdims=True) + s)(
            m - ua.max(m, axis=-1, keepdims=True)
        ),
        ("max", "sum"),
    ),
    "rows scaled by their extremes": (
        lambda m: (m - ua.min(m, axis=(1, 2), keepdims=True))
        * (ua.max(m, axis=(1, 2), keepdims=True) + 2.0),
        ("min", "max"),
    ),
}  # fmt: skip


@pytest.mark.parametrize(
    "length", [1, 32, 33, 256, 257, 1000, 1024, 1025, 2048, 2049, 4096, 4097, 8192, 8193, 20000]
)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_chain_rows_kept_in_registers_or_read_again_match_the_eager_calls(
    device, monkeypatch, length, dtype
):
    """A chain keeps a row of up to 8 elements a thread in registers
    between its phases (rows of up to 2,048 elements in groups of 256
    threads, a power of two of slots each; on CUDA, rows of up to 1,024 a
    warp each, up to 32 slots a thread), a longer row of up to 32 KiB in
    its group's local memory on CUDA, and reads a longer one again in each
    phase: all give the eager results, within the sums' rounding, at each
    boundary."""
    calls = counted_chains(monkeypatch)
    m = sample(device, dtype, (3, length), seed=length)
    fused = ua.fuse(softmax)
    got, want = ua.asnumpy(fused(m)), ua.asnumpy(softmax(m))
    taken = not _fuse_kernel._row_too_short([m], length)
    assert calls == ([("max", "sum")] if taken else []), fused.explain(m)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    fin = np.isfinite(want)
    eps = float(np.finfo(dtype).eps)
    np.testing.assert_allclose(got[fin], want[fin], rtol=200 * eps, atol=200 * eps)


def test_repeated_chain_calls_take_the_kernel_straight_with_the_same_results(device, monkeypatch):
    """A fused function's later calls with arguments of the same dtypes,
    shapes and device call the rows' kernel with no more checks, with the
    first call's bits; arguments of those shapes in another layout (rows
    sliced out of wider ones) take the stages, with their results, and a
    dense argument the kernel again."""
    from usmarray import _fuse_kernel

    calls = counted_chains(monkeypatch)
    checked = []
    run = _fuse_kernel.RowChain.run
    monkeypatch.setattr(_fuse_kernel.RowChain, "run", lambda *a: checked.append(1) or run(*a))
    fused = ua.fuse(softmax)
    h = np.asarray(ua.asnumpy(sample(device, "float32", (40, 300))))
    m = ua.asarray(h, device=device)
    first = ua.asnumpy(fused(m))
    for _ in range(3):
        np.testing.assert_array_equal(ua.asnumpy(fused(m)), first)
    assert len(calls) == 4 and len(checked) == 1
    wide = ua.asarray(np.pad(h, ((0, 0), (0, 20))), device=device)[:, :300]
    with np.errstate(all="ignore"):
        got, want = ua.asnumpy(fused(wide)), ua.asnumpy(softmax(wide))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    fin = np.isfinite(want)
    np.testing.assert_allclose(got[fin], want[fin], rtol=200 * np.finfo("float32").eps)
    assert len(calls) == 4 and len(checked) == 2
    np.testing.assert_array_equal(ua.asnumpy(fused(m)), first)
    assert len(calls) == 5 and len(checked) == 2


def test_small_calls_the_kernel_does_not_walk_stop_trying_it_straight(device, monkeypatch):
    """Small calls with arguments the rows' kernel does not walk (rows
    sliced out of wider ones, of the first call's shape) try the straight
    call four times, then take the checked way alone, each with the
    stages' results."""
    from usmarray import _fuse_kernel

    tried = []
    real = _fuse_kernel._ua._fused_chain

    def counted(*args):
        tried.append(1)
        return real(*args)

    monkeypatch.setattr(_fuse_kernel._ua, "_fused_chain", counted)
    fused = ua.fuse(softmax)
    h = np.asarray(ua.asnumpy(sample(device, "float32", (40, 300))))
    fused(ua.asarray(h, device=device))
    wide = ua.asarray(np.pad(h, ((0, 0), (0, 20))), device=device)[:, :300]
    with np.errstate(all="ignore"):
        want = ua.asnumpy(softmax(wide))
        for _ in range(8):
            got = ua.asnumpy(fused(wide))
            np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
            fin = np.isfinite(want)
            np.testing.assert_allclose(got[fin], want[fin], rtol=200 * np.finfo("float32").eps)
    # the first call; four tried straight, then checked; four checked alone
    assert len(tried) == 1 + 4 * 2 + 4


def test_a_few_values_in_another_memory_order_take_the_groups_partials(device, monkeypatch):
    """A reduction of all of a few values in F order, which the rows'
    kernel does not walk as one row, takes the groups' partials (any one
    memory order) with the eager result; in C order, the one row."""
    from usmarray import _fuse_kernel

    calls = []
    real = _fuse_kernel._ua._fused_reduce

    def counted(*args):
        parts = real(*args)
        calls.append(args[3])  # a call that reduced, not one refused
        return parts

    monkeypatch.setattr(_fuse_kernel._ua, "_fused_reduce", counted)
    h = np.asarray(ua.asnumpy(sample(device, "float64", (60, 100))))
    h[~np.isfinite(h)] = 0.25
    fused = ua.fuse(lambda m: ua.mean((m - 1.5) ** 2))
    for m in (ua.asarray(np.asfortranarray(h), device=device), ua.asarray(h, device=device)):
        np.testing.assert_allclose(
            ua.asnumpy(fused(m)), ua.asnumpy(ua.mean((m - 1.5) ** 2)), rtol=1e-13
        )
    assert calls == [0, 6000], fused.explain(m)


@pytest.mark.parametrize("n", [N, 40_009])
@pytest.mark.parametrize(
    "fn",
    [
        lambda x: ua.sum((x - 1.5) ** 2),
        lambda x: ua.mean((x - ua.mean(x)) ** 2, keepdims=True),
        lambda m: ua.sqrt(ua.sum(m * 2.0, axis=1)),
    ],
    ids=["sum", "variance", "rows"],
)
def test_repeated_reduction_calls_take_their_kernels_straight_with_the_same_results(
    device, monkeypatch, fn, n
):
    """A fused function's later calls of a graph of stages whose reduction
    runs in its values' kernel (one row, the groups' partials, or rows)
    make that reduction's checks once, with the first call's bits; an
    argument of those shapes in another layout takes the checked way with
    the eager results, and a dense one the straight way again."""
    from usmarray import _fuse_kernel

    checked, chained = [], []
    run, chain_run = _fuse_kernel.FusedReduction.run, _fuse_kernel.RowChain.run
    monkeypatch.setattr(_fuse_kernel.FusedReduction, "run", lambda *a: checked.append(1) or run(*a))
    monkeypatch.setattr(_fuse_kernel.RowChain, "run", lambda *a: chained.append(1) or chain_run(*a))
    h = np.asarray(ua.asnumpy(sample(device, "float32", (n,))))
    h[~np.isfinite(h)] = 0.5
    if fn.__code__.co_varnames[0] == "m":  # rows of 256
        h = h[: n // 256 * 256].reshape(-1, 256)
    x = ua.asarray(h, device=device)
    fused = ua.fuse(fn)
    first = ua.asnumpy(fused(x))
    for _ in range(4):
        np.testing.assert_array_equal(ua.asnumpy(fused(x)), first)
    kernel = x.device.backend != "host"
    # the variance of one row of all the values: a chain's one kernel
    chain = kernel and type(fused.plan(x).kernel) is _fuse_kernel.RowChain and n <= 32768
    # rows, or all the values (one row of them, or the groups' partials
    # and their value), reduced into the result (or through post) alone:
    # the straight call, the binding's one call on the arguments; past one
    # row, the variance's mean is a kernel's call of its own before it,
    # in the stages' runner
    before = "mean" in fn.__code__.co_names and n > 32768
    straight = kernel and not chain and not before
    (runner,) = fused._small.values()
    assert ("straight" in getattr(runner.fast, "__qualname__", "")) == straight
    # each reduction checked by the plan's first run, and again by the
    # stages' runner's
    reductions = 1 + bool(before)
    checks = 1 if chain or straight else 2 * reductions
    assert len(chained if chain else checked) == (kernel and checks), fused.explain(x)
    np.testing.assert_allclose(first, ua.asnumpy(fn(x)), rtol=2e-5)
    strided = ua.asarray(np.repeat(h, 2, axis=-1), device=device)[..., ::2]
    np.testing.assert_allclose(ua.asnumpy(fused(strided)), ua.asnumpy(fn(strided)), rtol=2e-5)
    np.testing.assert_array_equal(ua.asnumpy(fused(x)), first)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_rows_divided_by_their_sums_give_the_quotients_at_every_scale(device, monkeypatch, dtype):
    """A chain divides by a row's value through its reciprocal, computed
    once a row: each quotient within a rounding of the eager division's
    where the sums are subnormal, tiny, huge or of either sign; a zero sum
    gives the infinities and NaN of x / 0, an infinite one zeros and NaN,
    a NaN one NaN, as the eager division gives them."""
    calls = counted_chains(monkeypatch)
    fi = np.finfo(dtype)
    tiny = float(fi.smallest_subnormal)
    rng = np.random.default_rng(5)
    scales = [tiny, 64 * tiny, float(fi.tiny), 1e-30, 1.0, -3.0, 1e30, float(fi.max) / 1e3]
    rows = [rng.uniform(0.5, 1.0, 300) * s for s in scales]
    # a tiny sum of normal values with subnormal ones beside them, whose
    # quotients are normal: their bits are not to be lost on the way
    mixed = (
        rng.uniform(0.5, 1.0, 300) * 1e-33
        if dtype == "float32"
        else rng.uniform(0.5, 1.0, 300) * 1e-280
    )
    mixed[::7] = tiny * np.arange(1, 44)
    rows.append(mixed)
    rows.append(np.zeros(300))  # a zero sum: 0 / 0
    # a zero sum of nonzero values, exact in any order: x / 0
    rows.append(np.where(np.arange(300) % 2 == 0, 0.75, -0.75))
    rows.append(np.where(np.arange(300) == 7, np.inf, 1.0))  # an infinite sum
    rows.append(np.where(np.arange(300) == 9, np.nan, 1.0))  # a NaN sum
    m = ua.asarray(np.asarray(rows).astype(dtype), device=device)

    def scaled(m):
        return m / ua.sum(m, axis=-1, keepdims=True)

    fused = ua.fuse(scaled)
    with np.errstate(all="ignore"):
        got, want = ua.asnumpy(fused(m)), ua.asnumpy(scaled(m))
    assert calls == [("sum",)], fused.explain(m)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    inf = np.isinf(want)
    np.testing.assert_array_equal(got[inf], want[inf])
    fin = np.isfinite(want)
    np.testing.assert_array_equal(np.signbit(got[fin]), np.signbit(want[fin]))
    eps = float(fi.eps)
    np.testing.assert_allclose(got[fin], want[fin], rtol=8 * eps, atol=0)


@pytest.mark.parametrize("name", sorted(CHAINS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_reductions_read_back_by_their_rows_run_as_one_kernel(device, monkeypatch, name, dtype):
    """Kept-dims reductions of the last axes whose values the rows' later
    work reads (softmax): one kernel, a group a row, each reduction a
    phase; the eager results but for the sums' order (a few eps, as the
    row's sum's rounding gives), max and min exact; NaN and infinities in
    a row as the eager calls give them."""
    calls = counted_chains(monkeypatch)
    fn, reductions = CHAINS[name]
    shape = (6, 3, 150) if name == "rows scaled by their extremes" else (33, 2000)
    m = sample(device, dtype, shape)  # row 0 holds 0, -0, inf, -inf, NaN
    fused = ua.fuse(fn)
    with np.errstate(all="ignore"):
        got, want = ua.asnumpy(fused(m)), ua.asnumpy(fn(m))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    fin = np.isfinite(want)
    np.testing.assert_array_equal(got[~fin & ~np.isnan(want)], want[~fin & ~np.isnan(want)])
    eps = float(np.finfo(dtype).eps)
    np.testing.assert_allclose(got[fin], want[fin], rtol=200 * eps, atol=200 * eps)
    assert calls == [reductions], fused.explain(m)
    assert "one kernel over rows" in fused.explain(m)


def test_a_chain_the_kernel_does_not_walk_runs_its_stages(device, monkeypatch):
    """Short rows, F-ordered and sliced arguments: the stages, with their
    results; rows in C order then take the one kernel."""
    calls = counted_chains(monkeypatch)
    fused = ua.fuse(softmax)
    h = np.asarray(ua.asnumpy(sample(device, "float64", (300, 400))))
    for m in (
        ua.asarray(h[:, :20], device=device),  # rows shorter than any kernel takes
        ua.asarray(np.asfortranarray(h), device=device),
        ua.asarray(h, device=device)[:, ::2],
    ):
        with np.errstate(all="ignore"):
            np.testing.assert_allclose(ua.asnumpy(fused(m)), ua.asnumpy(softmax(m)), rtol=1e-13)
    assert calls == []
    m = ua.asarray(h, device=device)
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(ua.asnumpy(fused(m)), ua.asnumpy(softmax(m)), rtol=1e-13)
    assert len(calls) == 1


def test_fused_chains_refuse_bad_descriptions(device):
    """_fused_chain: 2 to 4 phases of one dtype, a known reduction for each
    but the last, phases reading only the row values before them, arrays
    of the values' shape; each refusal names what it refused."""
    from usmarray import _usmarray

    x = sample(device, "float32", (4, 300))
    top = _usmarray._fused_expression((("positive", (0,)),), (), "float32")
    shift = _usmarray._fused_expression((("subtract", (0, 0x300)),), (), "float32", 1)
    late = _usmarray._fused_expression((("subtract", (0, 0x301)),), (), "float32", 2)
    top64 = _usmarray._fused_expression((("positive", (0,)),), (), "float64")
    add = _usmarray._fused_expression((("add", (0, 0x300)),), (), "float32", 1)
    root = _usmarray._fused_expression((("sqrt", (0,)),), (), "float32")
    root64 = _usmarray._fused_expression((("sqrt", (0,)),), (), "float64")
    bad = [
        (((top,), (), (x,), 300), ValueError, "2 to 4 phases"),
        (((top, shift), ("max", "sum", "min"), (x,), 300), ValueError, "a reduction for each"),
        (((top, shift), ("max",), (x,), 300, root), ValueError, "a post needs a reduction for"),
        (((top, shift), ("max", "sum"), (x,), 300, "sqrt"), TypeError, "post is"),
        (((top, shift), ("max", "sum"), (x,), 300, root64), ValueError, "post computes in float64"),
        (((top, shift), ("prod",), (x,), 300), ValueError, "'sum', 'max', 'min' or 'mean'"),
        (((top, shift), ("max",), (x,), 0), ValueError, "at least one element"),
        (((top, shift), ("max",), (x,), 7), ValueError, "rows of 7 elements"),
        (((top64, shift), ("max",), (x,), 300), TypeError, "one dtype"),
        (((top, late), ("max",), (x,), 300), ValueError, "row values"),
        (((top, add), ("max",), (x, x[:1]), 300), ValueError, "broadcast"),
        (((top, shift), ("max",), (ua.asarray(np.asfortranarray(ua.asnumpy(x)), device=device),), 300),
         ValueError, "dense in C order"),
        (((top, "shift"), ("max",), (x,), 300), TypeError, "phase 1"),
    ]  # fmt: skip
    for args, error, message in bad:
        with pytest.raises(error, match=message):
            _usmarray._fused_chain(*args)
    with pytest.raises(ValueError, match="only _fused_chain"):
        _usmarray._fused_elementwise(shift, (x,))
    with pytest.raises(ValueError, match="row values"):
        _usmarray._fused_expression((("positive", (0,)),), (), "float32", 4)
    got = ua.asnumpy(_usmarray._fused_chain((top, shift), ("max",), (x,), 300))
    h = ua.asnumpy(x)
    np.testing.assert_array_equal(got, h - h.max(axis=1, keepdims=True))
    # a last phase that reduces: each row's value, through post
    finite = ua.where(ua.isfinite(x), x, 1.0)
    f = ua.asnumpy(finite)
    below = -(f - f.max(axis=1, keepdims=True))
    got = ua.asnumpy(_usmarray._fused_chain((top, shift), ("max", "min"), (finite,), 300))
    np.testing.assert_array_equal(got, -below.max(axis=1))
    got = ua.asnumpy(_usmarray._fused_chain((top, shift), ("max", "min"), (finite,), 300, root))
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(got, np.sqrt(-below.max(axis=1)))


def scaled_row_shift(x, t):
    return x * t - ua.max(x * t, axis=-1, keepdims=True)


# name: (graph of x (4, 300) float32 and a second argument, that argument)
ROW_EDGES = {
    # a Python scalar read by a chain's reduced phase, rows of 300 (the
    # kernel's loop past its last whole eight elements)
    "a scalar in a chain's reduction": (scaled_row_shift, 3.0),
    "a scalar in a chain's sum": (
        lambda x, t: x / ua.sum(x + t, axis=-1, keepdims=True),
        0.5,
    ),
    # a result of a row value's shape, and a reduction of a row value: not
    # a chain (their values are not the row's)
    "a row value doubled": (lambda x, t: ua.max(x, axis=-1, keepdims=True) * t, 2.0),
    "a reduction of a row value": (
        lambda x, t: x - ua.sum(ua.max(x, axis=-1, keepdims=True) * t, axis=-1, keepdims=True),
        1.0,
    ),
    # a one-element operand of more dimensions than the values
    "a (1, 1, 1) operand, rows": (lambda x, c: ua.sum(x * c, axis=(1, 2)), "cube"),
    "a (1, 1, 1) operand, kept": (lambda x, c: ua.sum(x * c, axis=(1, 2), keepdims=True), "cube"),
    "a (1, 1, 1) operand, all axes": (lambda x, c: ua.mean(x * c, keepdims=True), "cube"),
    # a reduction given a dtype is not a chain's phase
    "a sum given its dtype": (
        lambda x, t: x / ua.sum(x, axis=-1, keepdims=True, dtype=ua.float32) + t,
        0.0,
    ),
    # a bool result is not a chain
    "a comparison with the row's mean": (
        lambda x, t: x > ua.mean(x, axis=-1, keepdims=True) + t,
        0.0,
    ),
}


@pytest.mark.parametrize("name", sorted(ROW_EDGES))
def test_edges_of_rows_and_chains_have_the_eager_results(device, name):
    """Scalars read by a chain's phases, graphs whose values are a row
    value's, one-element operands of more dimensions: the eager shapes and
    results (within the sums' rounding)."""
    fn, extra = ROW_EDGES[name]
    x = sample(device, "float32", (4, 300))
    x = ua.where(ua.isfinite(x), x, 1.25)
    if extra == "cube":
        extra = ua.asarray(np.full((1, 1, 1), 1.5, np.float32), device=device)
    fused = ua.fuse(fn)
    for _ in range(2):
        got, want = ua.asnumpy(fused(x, extra)), ua.asnumpy(fn(x, extra))
        assert got.dtype == want.dtype and got.shape == want.shape, fused.explain(x, extra)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    chain = "one kernel over rows" in fused.explain(x, extra)
    assert chain == name.startswith("a scalar in a chain"), fused.explain(x, extra)


def test_row_sums_keep_signed_zeros_and_means_overflow_as_eagerly(device):
    """A row of -0.0 sums to -0.0 (a sum starts from -0.0, the identity of
    addition), and a float32 mean whose sum overflows is infinite, as the
    eager mean's float32 sum is."""
    zeros = ua.asarray(np.full((3, 300), -0.0, np.float32), device=device)
    for fn in (
        lambda x: ua.mean(x * 1.0, axis=-1),
        lambda x: ua.sum(x * 1.0, axis=-1, keepdims=True),
        lambda x: x - ua.mean(x, axis=-1, keepdims=True),
        lambda x: ua.sum(x * 1.0),
    ):
        same_bits(ua.fuse(fn)(zeros), ua.asnumpy(fn(zeros)))
    big = ua.asarray(np.full((4, 300), 3e38, np.float32), device=device)
    for fn in (
        lambda x: ua.mean(x * 1.0, axis=-1),
        lambda x: (x - ua.mean(x, axis=-1, keepdims=True)) * 2.0,
        lambda x: ua.mean(x * 1.0),
    ):
        with np.errstate(all="ignore"):
            same_bits(ua.fuse(fn)(big), ua.asnumpy(fn(big)))


def test_one_expression_reduced_by_each_reduction_with_a_scalar(device):
    """A scalar operand's plan says nothing about rows: each reduction of
    one expression runs its own kernel (not the sum's, cached before)."""
    from usmarray import _usmarray

    x = ua.where(
        ua.isfinite(sample(device, "float32", (4, 300))), sample(device, "float32", (4, 300)), 0.0
    )
    times = _usmarray._fused_expression((("multiply", (0, 1)),), (), "float32")
    h = ua.asnumpy(x).astype(np.float64) * 2.0
    for _ in range(3):
        for name, want in (
            ("sum", h.sum(1)),
            ("max", h.max(1)),
            ("min", h.min(1)),
            ("mean", h.mean(1)),
        ):
            got = ua.asnumpy(_usmarray._fused_reduce(times, (x, 2.0), name, 300))
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4, err_msg=name)


def tempered_softmax(m, t):
    e = ua.exp(m / t - ua.max(m / t, axis=-1, keepdims=True))
    return e / ua.sum(e, axis=-1, keepdims=True)


def min_max_scaled(m, t):
    low = ua.min(m, axis=-1, keepdims=True)
    return (m - low) / (ua.max(m, axis=-1, keepdims=True) - low + t)


@pytest.mark.parametrize("fn", [tempered_softmax, min_max_scaled], ids=lambda f: f.__name__)
def test_a_chain_whose_stages_read_four_operands(device, monkeypatch, fn):
    """A softmax with a temperature, rows scaled by their range: their
    stages would read more than three operands (the reductions among
    them), the chain reads only the arguments; calls the kernel does not
    walk (short rows) run the eager calls, and the plan keeps its kernel."""
    calls = counted_chains(monkeypatch)
    fused = ua.fuse(fn)
    m = sample(device, "float64", (17, 900))
    m = ua.where(ua.isfinite(m), m, 0.75)
    for x in (m, m[:, :100], m):
        got, want = ua.asnumpy(fused(x, 2.0)), ua.asnumpy(fn(x, 2.0))
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15)
    assert len(calls) == 2, fused.explain(m, 2.0)
    text = fused.explain(m, 2.0)
    assert "one kernel over rows" in text and "other calls: the eager calls" in text, text


def test_a_chain_without_stages_that_its_kernel_refuses_runs_eagerly(device):
    """A chain whose stages read four operands and whose kernel refuses
    the graph (a predicate's bool read as a number): the plan runs
    eagerly from then on, with the kernel's reason; an error of the
    arguments is the eager call's own, raised outside any other."""

    def masked(m, t):
        low = ua.min(m, axis=-1, keepdims=True)
        return (m - low) / (ua.max(m, axis=-1, keepdims=True) - low + t) * (m > low)

    m = sample(device, "float64", (4, 300))
    m = ua.where(ua.isfinite(m), m, 0.5)
    fused = ua.fuse(masked)
    for _ in range(2):
        np.testing.assert_allclose(
            ua.asnumpy(fused(m, 2.0)), ua.asnumpy(masked(m, 2.0)), rtol=1e-13
        )
    text = fused.explain(m, 2.0)
    assert "eager" in text and "refused the graph" in text, text
    scaled = ua.fuse(min_max_scaled)
    with pytest.raises(ValueError) as eager:
        scaled(m, sample(device, "float64", (4, 200)))
    assert eager.value.__context__ is None
    assert "one kernel over rows" in scaled.explain(m, 2.0)
