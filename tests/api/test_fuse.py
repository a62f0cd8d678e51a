"""usmarray.fuse: traced once per signature, evaluated on the host in
blocks; elementwise results are the eager ones bit for bit, reductions over
blocks within the reductions' error; what cannot be traced runs eagerly
with its reason."""

import numpy as np
import pytest
import usmarray as ua
from conftest import same_bits
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# Small blocks so that the tests' arrays span many of them and a partial
# last one.
BLOCK = 1000
N = 10_007


def host(a):
    return ua.asarray(a, device="host")


@pytest.fixture(scope="module")
def xy():
    rng = np.random.default_rng(7)
    return host(rng.standard_normal(N)), host(rng.standard_normal(N))


def gelu(x):
    return 0.5 * x * (1 + ua.tanh(0.7978846 * (x + 0.044715 * x**3)))


ELEMENTWISE = {
    "axpy": lambda x, y: 2.5 * x + y,
    "leaky": lambda x, y: ua.where(x > 0, x, 0.01 * x),
    "gelu": lambda x, y: gelu(x),
    "reflected": lambda x, y: 2 - x / (1.5 + abs(y)),
    "compare": lambda x, y: ua.logical_and(x < y, ~(x == 0)),
    "clip_astype": lambda x, y: ua.astype(ua.clip(x, -0.5, y), ua.float32) * 3,
    "clip_keywords": lambda x, y: ua.clip(x, max=0.25) - ua.clip(y, min=-0.25),
    "math": lambda x, y: ua.exp(-(x**2)) + ua.hypot(x, y) - ua.sqrt(ua.abs(y)),
    "unary": lambda x, y: -((+x) ** 2),
}


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_elementwise_bits_are_eager(xy, name, dtype):
    x, y = (ua.astype(a, dtype) for a in xy)
    f = ELEMENTWISE[name]
    fused = ua.fuse(f, block=BLOCK)
    same_bits(fused(x, y), ua.asnumpy(f(x, y)))
    assert "plan: host, blocked" in fused.explain(x, y)


def many_constants(x, y):
    """Nine constants beside ten nodes: more nodes than a host walk
    keeps buffers for on its stack; each constant beside an array's values."""
    t = 1.25 * x + 0.5
    t = t * 0.75 - y * 3.0
    t = ua.where(t > 0.125, t, -2.0)
    return ua.maximum(t, -1.5) / 6.0 + 0.0625


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("block", [BLOCK, None])
def test_constants_beside_values_are_eager_bits(xy, dtype, block):
    x, y = (ua.astype(a, dtype) for a in xy)
    fused = ua.fuse(many_constants, block=block)
    same_bits(fused(x, y), ua.asnumpy(many_constants(x, y)))
    assert "plan: host, blocked" in fused.explain(x, y)


def test_integer_bitwise_and_shifts():
    rng = np.random.default_rng(1)
    a = host(rng.integers(-1000, 1000, N, dtype=np.int32))
    b = host(rng.integers(0, 8, N, dtype=np.int32))

    def f(a, b):
        return ((a << b) ^ (a >> 1)) | (a & 7) + a % 5 - a // 3

    same_bits(ua.fuse(f, block=BLOCK)(a, b), ua.asnumpy(f(a, b)))


def test_broadcasting_and_decorator_form():
    rng = np.random.default_rng(2)
    m = host(rng.standard_normal((50, 300)))
    row = host(rng.standard_normal(300))
    col = host(rng.standard_normal((50, 1)))

    @ua.fuse(block=BLOCK)
    def f(m, row, col):
        return m * row - col

    same_bits(f(m, row, col), ua.asnumpy(m * row - col))

    @ua.fuse
    def g(m, row):
        return m + row

    same_bits(g(m, row), ua.asnumpy(m + row))


def test_python_scalar_arguments():
    x = host(np.linspace(-2, 2, N, dtype=np.float32))
    fused = ua.fuse(lambda x, a: a * x + a, block=BLOCK)
    for a in (0.5, 3.0, -1.25):
        same_bits(fused(x, a), ua.asnumpy(a * x + a))
    assert fused.traces == 1
    # An int scalar is another signature; float32 stays float32 with either.
    out = fused(x, 2)
    assert fused.traces == 2 and out.dtype == ua.float32
    same_bits(out, ua.asnumpy(2 * x + 2))


def test_numpy_scalar_arguments():
    x = host(np.linspace(-2, 2, N, dtype=np.float32))
    fused = ua.fuse(lambda x, a: x * a - a, block=BLOCK)
    for a in (np.float64(0.5), np.float32(1.5), np.int8(3)):
        want = x * a - a
        same_bits(fused(x, a), ua.asnumpy(want))
    assert fused.traces == 3
    # A NumPy scalar constant in the function: strongly typed, as eagerly.
    for c in (np.float64(0.1), np.float32(0.1), np.int16(3)):
        constant = ua.fuse(lambda x, c=c: x * c, block=BLOCK)
        same_bits(constant(x), ua.asnumpy(x * c))
        assert "plan: host, blocked" in constant.explain(x)


def sse(x, y):
    return ua.sum((x - y) ** 2)


def variance(x, y):
    return ua.mean((x - ua.mean(x)) ** 2)


REDUCTIONS = {
    "sse": sse,
    "variance": variance,
    "prod": lambda x, y: ua.prod(1 + x / 1e4),
    "max": lambda x, y: ua.max(x * y),
    "min_keepdims": lambda x, y: ua.min(x - y, keepdims=True),
    "scaled_by_sum": lambda x, y: x / ua.sum(ua.abs(y)),
}


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_reductions_within_their_error(xy, name):
    x, y = xy
    f = REDUCTIONS[name]
    got, want = f(x, y), ua.fuse(f, block=BLOCK)(x, y)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(ua.asnumpy(got), ua.asnumpy(want), rtol=1e-12)


def test_boolean_and_integer_reductions_are_exact(xy):
    x, y = xy
    for f in (
        lambda x, y: ua.any(x > 3.5),
        lambda x, y: ua.all(x < 10),
        lambda x, y: ua.sum(x > y),
        lambda x, y: ua.sum(ua.astype(x * 100, ua.int8), dtype=ua.int16),
    ):
        same_bits(ua.fuse(f, block=BLOCK)(x, y), ua.asnumpy(f(x, y)))


def softmax(m):
    e = ua.exp(m - ua.max(m, axis=1, keepdims=True))
    return e / ua.sum(e, axis=1, keepdims=True)


def row_norms(m):
    return ua.sqrt(ua.sum(m * m, axis=1))


def centred(m):
    return m - ua.mean(m, axis=0)


def column_sums(m):
    return ua.sum(m * 2, axis=-2)


@pytest.mark.parametrize("f", [softmax, row_norms, centred, column_sums])
def test_reductions_along_axes(f):
    m = host(np.random.default_rng(3).standard_normal((200, 64)))
    fused = ua.fuse(f, block=BLOCK)
    got, want = fused(m), f(m)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(ua.asnumpy(got), ua.asnumpy(want), rtol=1e-12, atol=1e-15)


def test_rows_longer_than_a_block_stay_in_one():
    m = host(np.random.default_rng(4).standard_normal((6, 5000)))
    fused = ua.fuse(softmax, block=BLOCK)
    np.testing.assert_allclose(ua.asnumpy(fused(m)), ua.asnumpy(softmax(m)), rtol=1e-12)
    text = fused.explain(m)
    assert "blocks of 1 along axis 0 (5000 elements)" in text and "whole operand" not in text


def test_explain_shows_the_stages():
    m = host(np.ones((200, 64)))
    text = ua.fuse(softmax, block=BLOCK).explain(m)
    assert "blocks of 15 along axis 0" in text and "2 threads" in text
    assert text.count("in each block") == 2
    x = host(np.ones(N))
    text = ua.fuse(variance, block=BLOCK).explain(x, x)
    assert "mean of all axes in the kernel of its values" in text
    assert "these arguments: the passes above" in text
    text = ua.fuse(REDUCTIONS["prod"], block=BLOCK).explain(x, x)
    assert "per-block partial results combined" in text and "prod(" in text
    assert "on the whole operand" in ua.fuse(column_sums, block=BLOCK).explain(m)


def test_a_repeated_call_is_one_node_and_its_operands_tell_repeats_apart():
    """The trace merges a call repeated with the same operands (log
    softmax's two calls of one max, its two m - max), so the max is
    computed once; operands that differ only as 0.0 and -0.0 are distinct
    calls, with the eager bits."""

    def log_softmax(m):
        return (
            m
            - ua.max(m, axis=-1, keepdims=True)
            - ua.log(ua.sum(ua.exp(m - ua.max(m, axis=-1, keepdims=True)), axis=-1, keepdims=True))
        )

    m = host(np.random.default_rng(3).standard_normal((40, 300)))
    fused = ua.fuse(log_softmax, block=BLOCK)
    graph = fused.explain(m).split("plan:")[0]
    assert graph.count(" max(") == 1 and graph.count(" sub(") == 2, graph
    np.testing.assert_allclose(ua.asnumpy(fused(m)), ua.asnumpy(log_softmax(m)), rtol=1e-13)

    def signed_zeros(x):
        return 1.0 / (x * 0.0) + 1.0 / (x * -0.0)

    x = host(np.array([1.0, 2.0, -3.0]))
    with np.errstate(all="ignore"):
        got, want = ua.asnumpy(ua.fuse(signed_zeros)(x)), ua.asnumpy(signed_zeros(x))
    assert np.isnan(want).all() and np.isnan(got).all()


def test_signatures_are_cached():
    fused = ua.fuse(lambda x, y: x * y + 1, block=BLOCK)
    a, b = host(np.ones(N)), host(np.ones(N + 5))
    fused(a, a)
    fused(b, b)
    assert fused.traces == 1
    fused(ua.astype(a, ua.float32), a)
    assert fused.traces == 2
    fused(host(np.ones(1)), a)  # an axis of length 1 broadcasts: another
    assert fused.traces == 3
    fused(host(np.ones((3, N))), a)
    assert fused.traces == 4 and len(fused.plans) == 4


def test_small_calls_take_their_shape_and_scalars_each_call():
    """A small call (arrays of one shape, at most a block) runs the plan's
    whole-array function from a lookup of its arrays' dtypes, shapes and
    devices: each shape and each scalar value gives its own result.  A
    graph that the host's loops run in one call (float64 here) is looked
    up so at any size and with broadcasting shapes; one they do not run
    (float16) takes the blocked path past a block."""
    rng = np.random.default_rng(11)
    for dtype, small in (("f8", 5), ("f2", 4)):
        fused = ua.fuse(lambda x, y, a: a * x + y, block=BLOCK)
        for n in (10, 999, 1000, 10, 1001, 3):
            xn = rng.standard_normal(n).astype(dtype)
            yn = rng.standard_normal(n).astype(dtype)
            for a in (2.5, -1.0, 3):
                same_bits(fused(host(xn), host(yn), a), ua.asnumpy(a * host(xn) + host(yn)))
        assert fused.traces == 2  # float, then int scalars
        assert len(fused._small) == 2 * small, dtype  # shapes, both scalar types
        m = rng.standard_normal((3, 4)).astype(dtype)
        same_bits(fused(host(m), host(m[:1]), 2.0), ua.asnumpy(2.0 * host(m) + host(m[:1])))
        assert len(fused._small) == 2 * small + (dtype == "f8"), dtype


def test_a_small_calls_straight_call_keeps_the_eager_outcome():
    """Once a small call has run the host's loops, its later calls go
    straight to them: a strided argument of the same shape gives the eager
    bits, and arguments the loops refuse (another queue) raise the eager
    calls' error, after which the straight call still serves."""
    x = host(np.arange(5.0))
    y = ua.asarray(np.arange(5.0), queue=ua.Queue("host", in_order=False))
    z = host(np.arange(10.0))[::2]
    fused = ua.fuse(lambda x, y: x * 2.5 + y)
    for _ in range(3):
        same_bits(fused(x, x), np.arange(5.0) * 2.5 + np.arange(5.0))
    (run,) = fused._small.values()
    (plan,) = fused.plans.values()
    assert run.fast is not None
    with pytest.raises(ValueError, match="different queues"):
        fused(x, y)
    # the arguments' error, not the graph's: the loops still run the plan
    assert plan.host_program is not None
    same_bits(fused(x, z), np.arange(5.0) * 2.5 + np.arange(0.0, 10.0, 2.0))
    same_bits(fused(x, x), np.arange(5.0) * 2.5 + np.arange(5.0))
    w = host(np.arange(7.0))
    with pytest.raises(ValueError, match="different queues"):
        fused(w, ua.asarray(np.arange(7.0), queue=y.queue))
    assert plan.host_program is not None
    assert "in one call of the host's loops" in fused.explain(w, w)
    same_bits(fused(w, w), np.arange(7.0) * 3.5)
    assert fused.traces == 1


def test_a_small_call_stops_the_straight_call_once_the_loops_refuse_the_graph():
    """Where the host's loops refuse a graph (the plan then runs its blocks
    from that call on), the straight call is dropped with it, so that later
    calls do not try it first in vain."""
    x = host(np.arange(5.0))
    fused = ua.fuse(lambda x: x * 2.5 + 1)
    for _ in range(2):
        fused(x)
    (run,) = fused._small.values()
    (plan,) = fused.plans.values()

    def refused(args):
        raise TypeError("the loops refuse this graph")

    run.fast, plan.host_program = refused, None  # as a refusal leaves them
    same_bits(fused(x), np.arange(5.0) * 2.5 + 1)
    assert run.fast is None
    same_bits(fused(x), np.arange(5.0) * 2.5 + 1)


def test_small_call_keys_tell_dtypes_shapes_devices_and_types_apart():
    from usmarray import _fuse

    key = _fuse._ua._fused_call_key
    a = host(np.zeros(3))
    assert key((a, 2.0)) == ((a.dtype, (3,), a.device, True), float)
    assert key((host(np.zeros(6))[::2],)) == ((a.dtype, (3,), a.device, False),)
    assert key((a, 2.0)) == key((host(np.ones(3)), 5.0))
    assert key((a,)) != key((host(np.zeros(4)),))
    assert key((a,)) != key((host(np.zeros(3, "f4")),))
    assert key((a, 2)) != key((a, 2.0))
    assert key((np.zeros(3),)) == (np.ndarray,)
    assert key(()) == ()
    with pytest.raises(TypeError, match="takes a tuple"):
        key([a])


def test_small_call_keys_stay_bounded():
    fused = ua.fuse(lambda x: x + 1)
    for n in range(2, 300):  # (1,) would be a signature of its own
        assert ua.asnumpy(fused(host(np.zeros(n))))[-1] == 1
    assert 0 < len(fused._small) <= 256 and fused.traces == 1


def test_the_small_calls_table_runs_a_runners_straight_call_then_its_generic_way():
    """The table (the base of a fused function, in C) serves a call of a
    known signature: a runner's fast(args) where it is set, its generic
    way where that is None, fails or answers NotImplemented; an exception
    that is not an Exception reaches the caller; a plain runner is called
    with the arguments.  Other signatures and keyword calls go to the
    fused function's own way."""
    fused = ua.fuse(lambda x: x + 1)
    x = host(np.arange(3.0))

    class Runner:
        def __init__(self):
            self.fast, self.log = None, []

        def generic(self, *args):
            self.log.append(("generic", args))
            return "generic"

        __call__ = generic

    def failing(error):
        def fast(args):
            raise error

        return fast

    run = Runner()
    assert fused._remember((x,), run) is True
    assert fused(x) == "generic" and run.log == [("generic", (x,))]
    run.fast = lambda args: ("fast", args)
    assert fused(x) == ("fast", (x,))
    for fast in (lambda args: NotImplemented, failing(ValueError("no"))):
        run.fast = fast
        assert fused(x) == "generic"
    run.fast = failing(KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        fused(x)
    assert len(run.log) == 3
    assert fused._remember((x,), lambda *args: ("plain", args)) is True
    assert fused(x) == ("plain", (x,)) and len(fused._small) == 1
    # another shape, dtype or scalar type: the function's own way
    same_bits(fused(host(np.arange(4.0))), np.arange(4.0) + 1)
    same_bits(fused(host(np.arange(3, dtype="f4"))), np.arange(3, dtype="f4") + 1)
    assert fused(2.5) == 3.5
    # too many arguments to remember: each call takes the function's way
    assert fused._remember((x,) * 17, print) is False


def test_a_small_call_in_another_layout_keeps_its_outcome_whatever_came_before():
    """The table tells C-contiguous arguments from others of the same
    shape: a reduction's passes (C-contiguous) never serve a reversed,
    strided or broadcast view, which runs the eager calls whether or not
    a contiguous call came first."""
    rng = np.random.default_rng(31)
    h = rng.standard_normal(300).astype("float32")
    x, y = host(h), host(rng.standard_normal(300).astype("float32"))
    row = host(rng.standard_normal(1).astype("float32"))
    for f in (variance, sse, lambda x, y: ua.mean(x * y + 1)):
        for view in (host(h)[::-1], host(np.repeat(h, 2))[::2], ua.broadcast_to(row, (300,))):
            fresh = ua.asnumpy(ua.fuse(f)(view, y))
            fused = ua.fuse(f)
            for _ in range(3):
                fused(x, y)
            same_bits(fused(view, y), fresh)
            same_bits(fused(view, y), ua.asnumpy(f(view, y)))


def test_threads_hold_for_every_call_of_a_signature(monkeypatch):
    """fuse(threads=n): the blocks of a signature's later calls take n
    threads too, not only its first call's."""
    from usmarray import _fuse

    seen = []
    real = _fuse._in_blocks
    monkeypatch.setattr(
        _fuse,
        "_in_blocks",
        lambda plan, args, block, threads: seen.append(threads) or real(plan, args, block, threads),
    )
    m = host(np.random.default_rng(3).standard_normal((300, 300)))
    fused = ua.fuse(variance, threads=1, block=BLOCK)
    for _ in range(4):
        fused(m.T, m.T)
    assert seen == [1] * 4


def test_a_fused_function_copies_and_pickles_as_a_new_one():
    """copy, deepcopy and pickle (of a function that pickles) give the
    fused function anew, with its block and threads, tracing on its own
    first calls."""
    import copy
    import pickle

    fused = ua.fuse(sse, block=BLOCK, threads=1)
    x = host(np.arange(5.0))
    want = ua.asnumpy(fused(x, x + 1))
    for other in (copy.copy(fused), copy.deepcopy(fused), pickle.loads(pickle.dumps(fused))):
        assert type(other) is type(fused) and other is not fused
        assert (other.fn, other.block, other.threads) == (sse, BLOCK, 1)
        assert other.traces == 0 and not other._small
        same_bits(other(x, x + 1), want)
        assert other.__name__ == "sse" and other.__wrapped__ is sse


def test_a_runner_may_empty_the_table_while_it_runs():
    """A runner that forgets every small call (as replacing the plans does)
    while the table is calling it: the call returns its result, and the
    next call takes the function's own way."""
    fused = ua.fuse(lambda x: x * 2)
    x = host(np.arange(3.0))

    def forgetting(*args):
        fused._forget()
        fused._remember((host(np.arange(5.0)),), print)
        return "ran"

    fused._remember((x,), forgetting)
    assert fused(x) == "ran"
    assert len(fused._small) == 1
    same_bits(fused(x), np.arange(3.0) * 2)


def test_a_fused_function_is_collected_with_its_table():
    """The table's runners refer back to the function (its plans and
    their forgetting): the cycle is the collector's, nothing leaks."""
    import gc
    import weakref

    fused = ua.fuse(lambda x: ua.sum(x * x))
    x = host(np.arange(5.0))
    for _ in range(3):
        fused(x)
    assert fused._small
    ref = weakref.ref(fused)
    del fused
    gc.collect()
    assert ref() is None


def test_a_result_is_made_on_the_arguments_queue():
    """Blocks write the result's own blocks (out=): the result is on the
    arguments' queue, not the device's default one, as eager results are."""
    q = ua.Queue("host", in_order=False)
    x = ua.asarray(np.arange(N, dtype="f8"), queue=q)
    fused = ua.fuse(lambda x: 2.5 * x + 1, block=BLOCK)
    got = fused(x)
    assert got.queue is q
    same_bits(got, 2.5 * np.arange(N, dtype="f8") + 1)


def test_the_planning_of_a_pass_does_not_grow_with_its_blocks(monkeypatch):
    """Whether a block's last call writes the result's block itself is
    decided once a pass from the layout, not from each block's shapes."""
    from usmarray import _fuse

    calls = []
    real = _fuse._ua.broadcast_shapes

    def counting(*shapes):
        calls.append(shapes)
        return real(*shapes)

    monkeypatch.setattr(_fuse._ua, "broadcast_shapes", counting)
    # float16: a graph that the host's loops do not run in one call
    fused = ua.fuse(lambda x, y: 2.5 * x + y, block=BLOCK)
    counts = []
    for n in (10 * BLOCK, 40 * BLOCK):
        x = host(np.arange(n, dtype="f2"))
        calls.clear()
        got = fused(x, x)
        counts.append(len(calls))
        same_bits(got, ua.asnumpy(2.5 * x + x))
    assert counts[0] == counts[1] > 0, counts


def test_emptying_the_plans_forgets_the_small_calls_runners():
    """The small calls' runners come from the plans: a call after the
    plans are emptied, or one replaced, runs a plan the dict holds."""
    from usmarray import _fuse

    fused = ua.fuse(lambda x: x + 1, block=BLOCK)
    x = host(np.arange(5.0))
    same_bits(fused(x), np.arange(5.0) + 1)
    assert fused.traces == 1 and fused._small
    fused.plans.clear()
    assert not fused._small
    same_bits(fused(x), np.arange(5.0) + 1)
    assert fused.traces == 2 and len(fused.plans) == 1

    (key,) = fused.plans
    fused.plans[key] = _fuse.Plan(key, reason="a plan put in by hand")
    assert not fused._small
    same_bits(fused(x), np.arange(5.0) + 1)
    assert "a plan put in by hand" in fused.explain(x)
    for forget in (
        lambda plans: plans.pop(key),
        lambda plans: plans.popitem(),
        lambda plans: plans.__delitem__(key),
        lambda plans: plans.update({}),
        lambda plans: plans.__ior__({}),
    ):
        fused.plans.clear()
        fused(x)
        assert fused._small
        forget(fused.plans)
        assert not fused._small
    fused(x)
    assert fused._small
    fused.plans = {}
    assert not fused._small and not fused.plans
    same_bits(fused(x), np.arange(5.0) + 1)
    assert fused.traces == 8


def test_bad_plans_are_refused():
    fused = ua.fuse(lambda x: x + 1)
    x = host(np.arange(5.0))
    fused(x)
    (key,) = fused.plans
    with pytest.raises(TypeError, match="plans are a dict"):
        fused.plans = [(key, fused.plans[key])]
    with pytest.raises(TypeError, match="usmarray.fuse Plans, not a int"):
        fused.plans[key] = 3
    with pytest.raises(TypeError, match="usmarray.fuse Plans, not a str"):
        fused.plans = {key: "eager"}
    with pytest.raises(TypeError, match="usmarray.fuse Plans, not a NoneType"):
        fused.plans.setdefault(("another",))
    with pytest.raises(TypeError, match="usmarray.fuse Plans, not a int"):
        fused.plans.update({key: 3})
    same_bits(fused(x), np.arange(5.0) + 1)
    assert fused.traces == 1


def laid_out(values, layout, device):
    """values (a 2-d NumPy array) on device as a C-ordered, an F-ordered, a
    transposed or a sliced (non-contiguous) array."""
    if layout == "C":
        return ua.asarray(np.ascontiguousarray(values), device=device)
    if layout == "F":
        return ua.asarray(np.asfortranarray(values), device=device)
    if layout == "transposed":
        return ua.permute_dims(ua.asarray(np.ascontiguousarray(values.T), device=device), (1, 0))
    if layout == "sliced":
        wider = np.zeros((2 * values.shape[0], values.shape[1] + 5), values.dtype)
        wider[::2, 3:-2] = values
        return ua.asarray(wider, device=device)[::2, 3:-2]
    raise ValueError(f"no layout {layout!r}")


MIXED_LAYOUTS = [
    ("C", "F"),
    ("F", "C"),
    ("F", "sliced"),
    ("sliced", "transposed"),
    ("transposed", "F"),
]

# Graphs whose reductions read both arguments, along and across axes.
AXES_STAGED = {
    "columns against rows": lambda x, y: (
        ua.sum(x * y, axis=0) + ua.max(y - x, axis=1, keepdims=True)
    ),
    "rows of a difference": lambda x, y: ua.sum(ua.exp(x - y), axis=1, keepdims=True) * x,
    "a mean's residual": lambda x, y: (x - ua.mean(x * y, axis=0)) / (y * y + 1),
}


def mixed_arguments(layouts, dtype, device, shape=(97, 103)):
    rng = np.random.default_rng(5)
    return [
        laid_out((rng.standard_normal(shape) * 3).astype(dtype), layout, device)
        for layout in layouts
    ]


HOST_STAGED = {
    "sse": sse,
    "variance": lambda x, y: variance(x - y, None),
    "softmax": lambda x, y: softmax(x) * y,
    "row norms": lambda x, y: row_norms(x - y),
    **AXES_STAGED,
}


@pytest.mark.parametrize("name", sorted(HOST_STAGED))
@pytest.mark.parametrize("layouts", MIXED_LAYOUTS, ids="-".join)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_graphs_with_reductions_of_mixed_layouts_have_the_eager_bits(name, layouts, dtype):
    """An argument that is not C-contiguous: the graph's calls on the whole
    arrays, the eager ones, whatever the other arguments' layouts."""
    x, y = mixed_arguments(layouts, dtype, "host")
    f = HOST_STAGED[name]
    fused = ua.fuse(f, block=BLOCK)
    same_bits(fused(x, y), ua.asnumpy(f(x, y)))
    assert "not C-contiguous" in fused.explain(x, y)


def test_non_contiguous_arguments_run_whole():
    m = host(np.arange(40000.0).reshape(200, 200))
    f = ua.fuse(lambda m: ua.sin(m) * 2, block=BLOCK)
    same_bits(f(m.T), ua.asnumpy(ua.sin(m.T) * 2))
    assert "not C-contiguous" in f.explain(m.T)


def branchy(x):
    if ua.sum(x) > 0:
        return x * 2
    return x


def indexed(x):
    return x[1:] * 2


def sorted_(x):
    return ua.sort(x) * 2


def reads_shape(x):
    return ua.reshape(x, (x.shape[0],))


def two_results(x):
    return x + 1, x - 1


def loop_on_values(x):
    return [v for v in x]


GLOBAL = host(np.ones(5))


def uses_a_global(x):
    return x + GLOBAL


def makes_an_array(x):
    return x + ua.ones(5, device=x.device)


FALLBACKS = {
    branchy: "truth value",
    indexed: "indexes",
    sorted_: "usmarray.sort is not fused",
    reads_shape: "reads .shape",
    two_results: "returns a tuple",
    loop_on_values: "iterates",
    uses_a_global: "not passed as an argument",
    makes_an_array: "makes an array inside",
}


@pytest.mark.parametrize("f", list(FALLBACKS), ids=lambda f: f.__name__)
def test_fallbacks_run_eagerly_with_their_reason(f):
    x = host(np.arange(5.0))
    fused = ua.fuse(f)
    want = f(x)
    got = fused(x)
    if isinstance(want, tuple):
        for g, w in zip(got, want, strict=True):
            same_bits(g, ua.asnumpy(w))
    elif isinstance(want, list):
        assert len(got) == len(want)
    else:
        same_bits(got, ua.asnumpy(want))
    text = fused.explain(x)
    assert "plan: eager: " in text and FALLBACKS[f] in text
    assert not fused.plans[next(iter(fused.plans))].fused


def test_a_caught_refusal_still_falls_back():
    def f(x):
        try:
            bool(x)
        except Exception:
            pass
        return x + 1

    fused = ua.fuse(f)
    x = host(np.arange(5.0))
    same_bits(fused(x), ua.asnumpy(x + 1))
    assert "truth value" in fused.explain(x)


def test_array_api_generic_helpers_trace():
    # A helper that takes its namespace from the array traces too.
    def helper(a):
        xp = a.__array_namespace__()
        return xp.exp(a) - 1

    fused = ua.fuse(lambda x: helper(x) * 2, block=BLOCK)
    x = host(np.linspace(-1, 1, N))
    same_bits(fused(x), ua.asnumpy(helper(x) * 2))
    assert "plan: host, blocked" in fused.explain(x)


XP = host(np.ones(1)).__array_namespace__()


def test_the_array_api_namespace_as_a_global_traces():
    fused = ua.fuse(lambda x: XP.sin(x) + XP.sum(x), block=BLOCK)
    x = host(np.linspace(-1, 1, N))
    # The sum cancels to about 0: its error is relative to sum(abs(x)).
    want = ua.asnumpy(ua.sin(x) + ua.sum(x))
    np.testing.assert_allclose(ua.asnumpy(fused(x)), want, rtol=1e-12, atol=1e-10)
    assert "plan: host, blocked" in fused.explain(x)


def test_errors_of_the_eager_calls_are_kept():
    fused = ua.fuse(lambda x, y: x + y, block=BLOCK)
    with pytest.raises(ValueError):
        fused(host(np.ones(N)), host(np.ones(N + 1)))
    # The traced types' error: the signature runs eagerly and raises it.
    ints = ua.fuse(lambda a: a**-1)
    with pytest.raises(ValueError, match="negative integer powers"):
        ints(host(np.arange(1, 4)))
    assert "ValueError" in ints.explain(host(np.arange(1, 4)))


def test_bad_inputs():
    with pytest.raises(TypeError, match="takes a function"):
        ua.fuse(3)
    with pytest.raises(ValueError, match="block must be a positive int"):
        ua.fuse(sse, block=0)
    fused = ua.fuse(sse)
    with pytest.raises(TypeError, match="argument 1 is a ndarray"):
        fused(host(np.ones(3)), np.ones(3))
    with pytest.raises(TypeError, match="argument 0 is a str"):
        fused("x", host(np.ones(3)))
    with pytest.raises(TypeError, match="by position"):
        fused(host(np.ones(3)), y=host(np.ones(3)))
    scalars_only = ua.fuse(lambda a: a + 1)
    assert scalars_only(2) == 3
    assert "no array argument" in scalars_only.explain(2)


def test_a_plan_off_the_host_runs_eagerly():
    from usmarray import _fuse

    class Device:
        backend, filter_string = "cuda", "cuda:gpu:0"

    plan = _fuse.Plan((("array", "float64", 1, (False,), Device()),), reason=None)
    assert not plan.fused and "not a host device" in plan.describe()


def test_empty_and_zero_d_arrays():
    f = ua.fuse(lambda x: ua.sum(x * 2) + x)
    for a in (host(np.ones(0)), host(np.array(3.0))):
        same_bits(f(a), ua.asnumpy(ua.sum(a * 2) + a))


# Random expression trees of catalogue functions over x and y, fused against
# eager: the helper takes its namespace from its operands, as generic code
# does, so that it traces.
UNARY = ["negative", "abs", "sin", "tanh", "square", "exp", "floor", "sign"]
BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "hypot", "atan2"]


def trees():
    leaves = st.sampled_from(["x", "y", 0.5, 2, -1.5])

    def extend(children):
        return st.one_of(
            st.tuples(st.sampled_from(UNARY), children),
            st.tuples(st.sampled_from(BINARY), children, children),
            st.tuples(st.just("where"), children, children, children),
        )

    return st.recursive(leaves, extend, max_leaves=8)


def build(tree, x, y):
    xp = x.__array_namespace__()
    if isinstance(tree, str):
        return {"x": x, "y": y}[tree]
    if not isinstance(tree, tuple):
        return tree
    name, *args = tree
    values = [build(a, x, y) for a in args]
    if name == "where":
        c, a, b = values
        return xp.where(c > 0 if _is_array(c) else c > 0, a, b)
    if not any(_is_array(v) for v in values):
        # Scalars alone: the tree's leaf stands for x.
        values[0] = x
    return getattr(xp, name)(*values)


def _is_array(v):
    return not isinstance(v, bool | int | float)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=trees(), dtype=st.sampled_from(["float32", "float64"]))
def test_random_expression_trees(xy, tree, dtype):
    x, y = (ua.astype(a, dtype) for a in xy)
    try:
        want = build(tree, x, y)
    except (TypeError, ValueError) as e:
        with pytest.raises(type(e)):
            ua.fuse(lambda x, y: build(tree, x, y))(x, y)
        return
    if not _is_array(want):
        return
    fused = ua.fuse(lambda x, y: build(tree, x, y), block=BLOCK)
    same_bits(fused(x, y), ua.asnumpy(want))
    assert "plan: host, blocked" in fused.explain(x, y)


@pytest.mark.parametrize("f", [sse, variance, lambda x, y: gelu(x) - y])
def test_threads_give_the_same_bits(xy, f):
    x, y = xy
    one = ua.fuse(f, block=BLOCK, threads=1)(x, y)
    two = ua.fuse(f, block=BLOCK, threads=2)(x, y)
    same_bits(two, ua.asnumpy(one))
    with pytest.raises(ValueError, match="threads must be a positive int"):
        ua.fuse(f, threads=0)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=trees(), reduction=st.sampled_from(["sum", "mean", "max", "min", "prod"]))
def test_random_reductions_of_expression_trees(xy, tree, reduction):
    x, y = xy

    def f(x, y):
        value = build(tree, x, y)
        return getattr(x.__array_namespace__(), reduction)(value / 8 + 1)

    try:
        want = f(x, y)
    except (TypeError, ValueError):
        return
    fused = ua.fuse(f, block=BLOCK)
    got = fused(x, y)
    assert got.dtype == want.dtype and got.shape == want.shape
    # A sum's error is relative to the sum of magnitudes, not to the sum.
    scale = float(ua.sum(ua.abs(build(tree, x, y) / 8 + 1))) if reduction in ("sum", "mean") else 0
    atol = 1e-12 * scale / (N if reduction == "mean" else 1)
    # A product that underflows into the subnormals keeps fewer digits than
    # rtol asks: each order of its factors rounds there on its own.
    tiny = np.finfo(np.dtype(want.dtype)).tiny if reduction == "prod" else 0
    np.testing.assert_allclose(ua.asnumpy(got), ua.asnumpy(want), rtol=1e-11, atol=max(atol, tiny))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tree=trees(),
    reduction=st.sampled_from(["sum", "mean", "max", "min"]),
    layout=st.sampled_from(["C", "F", "strided", "column"]),
    keepdims=st.booleans(),
    dtype=st.sampled_from(["float32", "float64"]),
)
def test_random_row_reductions_of_expression_trees(tree, reduction, layout, keepdims, dtype):
    """Rows of random graphs (the last axis, in the loops' pass where the
    arguments are C-contiguous): the eager results, max and min exactly,
    sums within a row's bound; x in C or Fortran order, strided, or y a
    column that broadcasts along the rows."""
    rng = np.random.default_rng(47)
    h = rng.standard_normal((37, 300)).astype(dtype)
    g = rng.standard_normal((37, 1) if layout == "column" else (37, 300)).astype(dtype)
    x = {
        "F": host(np.asfortranarray(h)),
        "strided": host(np.repeat(h, 2, axis=1))[:, ::2],
    }.get(layout, host(h))
    y = host(g)

    def f(x, y):
        value = build(tree, x, y)
        xp = x.__array_namespace__()
        return getattr(xp, reduction)(value / 8 + 1, axis=-1, keepdims=keepdims)

    with np.errstate(all="ignore"):
        try:
            want = f(x, y)
        except (TypeError, ValueError):
            return
        got = ua.fuse(f)(x, y)
    assert got.dtype == want.dtype and got.shape == want.shape
    g, w = ua.asnumpy(got), ua.asnumpy(want)
    if reduction in ("max", "min"):
        same_bits(got, w)
        return
    with np.errstate(all="ignore"):
        terms = np.abs(ua.asnumpy(build(tree, x, y) / 8 + 1).astype(np.float64))
    scale = np.broadcast_to(terms, (37, 300)).sum(axis=-1)
    scale = scale / 300 if reduction == "mean" else scale
    eps = float(np.finfo(dtype).eps)
    bound = (2 * (21 + np.log2(300 / 16)) * eps * scale).reshape(g.shape)
    fin = np.isfinite(w)
    np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
    np.testing.assert_array_equal(g[~fin & ~np.isnan(w)], w[~fin & ~np.isnan(w)])
    err = np.abs(g[fin].astype(np.float64) - w[fin].astype(np.float64))
    assert np.all(err <= bound[fin] + 2 * np.spacing(np.abs(w[fin]))), err.max()


# name: (graph of two arrays, dtype)
HOST_GRAPHS = {
    "axpy": (lambda x, y: 2.5 * x + y, "f8"),
    "a selection by a comparison": (lambda x, y: ua.where(x > y, ua.exp(x) * y, -x), "f8"),
    "float32 math": (lambda x, y: ua.sin(x) * ua.sqrt(ua.abs(y)) - x / 3, "f4"),
    "int32 floor division and bits": (lambda x, y: (x * 3 + y) // 7 - (x ^ y), "i4"),
    "uint8 wrapping": (lambda x, y: x * y + 200, "u1"),
    "int64 shifts": (lambda x, y: (x << 3) | (y & 255), "i8"),
    "a comparison's result": (lambda x, y: (x * 2) < y, "f8"),
    # more nodes than a walk keeps buffers for on its stack
    "eleven nodes": (lambda x, y: ((((x + y) * 2 - y) * 3 + x) / 5 - y) * 1.5 + x * y - 2, "f8"),
}


def _host_pair(dtype, layout, rng):
    """Two host arrays of dtype: dense, a strided view and a dense one, a
    matrix and a row that broadcasts, or 3 Mi elements (past the size
    that the host's threads split)."""
    shapes = {"dense": ((5000,), (5000,)), "strided": ((15000,), (5000,)),
              "broadcast": ((40, 50), (50,)), "large": ((3 << 20,), (3 << 20,))}  # fmt: skip
    made = []
    for shape in shapes[layout]:
        if np.dtype(dtype).kind == "f":
            a = rng.standard_normal(shape) * 4
        else:
            a = rng.integers(0, 200 if dtype == "u1" else 1000, shape)
        made.append(host(a.astype(dtype)))
    x, y = made
    return (x[::3] if layout == "strided" else x), y


def _counted_fused_elementwise(monkeypatch):
    from usmarray import _fuse_kernel

    calls = []
    real = _fuse_kernel._ua._fused_elementwise

    def counted(*args):
        """True where the host's loops ran the graph; False where they
        refused it (NotImplemented, or an error of the graph's parse)."""
        calls.append(False)
        out = real(*args)
        calls[-1] = out is not NotImplemented
        return out

    monkeypatch.setattr(_fuse_kernel._ua, "_fused_elementwise", counted)
    return calls


@pytest.mark.parametrize("name", sorted(HOST_GRAPHS))
@pytest.mark.parametrize("layout", ["dense", "strided", "broadcast", "large"])
def test_the_hosts_loops_run_an_elementwise_graph_in_one_call(monkeypatch, name, layout):
    """A graph of elementwise calls of one integer, float32 or float64
    dtype runs in one call of the host's loops, node by node over blocks
    that stay in L1: the eager results bit for bit, on any layout and on
    the host's threads."""
    f, dtype = HOST_GRAPHS[name]
    x, y = _host_pair(dtype, layout, np.random.default_rng(len(name)))
    calls = _counted_fused_elementwise(monkeypatch)
    fused = ua.fuse(f, block=BLOCK)
    with np.errstate(all="ignore"):
        same_bits(fused(x, y), ua.asnumpy(f(x, y)))
        same_bits(fused(x, y), ua.asnumpy(f(x, y)))  # the small calls' lookup
    assert calls == [True, True], fused.explain(x, y)
    assert "in one call of the host's loops" in fused.explain(x, y)


@pytest.mark.parametrize("a", [2.5, 3, True])
def test_the_hosts_loops_take_python_scalar_arguments(monkeypatch, a):
    calls = _counted_fused_elementwise(monkeypatch)
    fused = ua.fuse(lambda x, a: a * x + 1)
    x = host(np.linspace(-3, 3, 777))
    same_bits(fused(x, a), ua.asnumpy(a * x + 1))
    assert calls == [True]


@pytest.mark.parametrize(
    "f",
    [
        lambda x, y: ua.where(x, x, y) * 2,  # a float condition
        lambda x, y: (x > y) + x,  # a comparison's bools as numbers
    ],
)
def test_a_graph_the_hosts_loops_refuse_runs_in_blocks(monkeypatch, f):
    """A graph that the host's loops do not run node by node (a selection
    whose condition is not a comparison's, a comparison read as numbers):
    the call runs in blocks, and the signature keeps to them."""
    calls = _counted_fused_elementwise(monkeypatch)
    fused = ua.fuse(f, block=BLOCK)
    x = host(np.where(np.arange(N) % 3 == 0, 0.0, np.arange(N) / 7))
    y = host(np.arange(N) * 0.5)
    assert "in one call of the host's loops" in fused.explain(x, y)
    same_bits(fused(x, y), ua.asnumpy(f(x, y)))
    assert calls == [False]
    assert "in one call of the host's loops" not in fused.explain(x, y)
    assert "plan: host, blocked" in fused.explain(x, y)
    same_bits(fused(x, y), ua.asnumpy(f(x, y)))
    assert calls == [False]


# Reductions of all axes in the pass of their values: past the host's
# chunks of 64 Ki values, which its threads take.
BIG = 3 * 2**20 + 5


def _spied_fused_reduce(monkeypatch):
    from usmarray import _fuse_kernel

    calls = []
    real = _fuse_kernel._ua._fused_reduce

    def spied(*args):
        out = real(*args)
        calls.append(out is not NotImplemented)
        return out

    monkeypatch.setattr(_fuse_kernel._ua, "_fused_reduce", spied)
    return calls


def within_sum_bound(got, want, terms, mean=False):
    """got is want but for a sum of terms added in another order: the same
    NaN and infinities, finite values within twice the pairwise sums'
    bound of each other (both within it of the exact sum)."""
    got, want = np.asarray(ua.asnumpy(got)), np.asarray(ua.asnumpy(want))
    assert got.dtype == want.dtype and got.shape == want.shape
    nan, fin = np.isnan(want), np.isfinite(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got[~fin & ~nan], want[~fin & ~nan])
    t = np.abs(ua.asnumpy(terms).astype(np.float64))
    n = max(t.size, 1)
    eps = float(np.finfo(want.dtype).eps)
    bound = 2 * (21 + max(np.log2(n / 16), 0)) * eps * t.sum() / (n if mean else 1)
    w = want[fin].astype(np.float64)
    err = np.abs(got[fin].astype(np.float64) - w)
    assert np.all(err <= bound + 2 * np.spacing(np.abs(w))), (err.max(), bound)


PASSES = {
    "sse": (sse, lambda x, y: (x - y) ** 2, False),
    "variance": (variance, lambda x, y: (x - ua.mean(x)) ** 2, True),
    "kept mean of a product": (
        lambda x, y: ua.mean(x * y + 1, keepdims=True),
        lambda x, y: x * y + 1,
        True,
    ),
    "scaled by a sum": (lambda x, y: x / ua.sum(ua.abs(y)), None, False),
}


@pytest.fixture(scope="module")
def big():
    rng = np.random.default_rng(17)
    return rng.standard_normal(BIG) * 3, rng.standard_normal(BIG)


@pytest.mark.parametrize("name", sorted(PASSES))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_reduction_of_all_axes_runs_in_the_pass_of_its_values(monkeypatch, big, name, dtype):
    """The variance's second mean, a squared distance, a kept mean and a sum
    that scales the values: one call of the host's loops a reduction, its
    values never written, its sum within the pairwise sums' bound of the
    eager one (float32 values add in double, more closely still)."""
    x, y = (host(a.astype(dtype)) for a in big)
    f, terms, mean = PASSES[name]
    calls = _spied_fused_reduce(monkeypatch)
    fused = ua.fuse(f)
    got, want = fused(x, y), f(x, y)
    assert calls == [True], fused.explain(x, y)
    assert "these arguments: the passes above" in fused.explain(x, y)
    if terms is None:
        # the division by a sum of magnitudes within its bound (relative)
        eps = float(np.finfo(dtype).eps)
        rtol = (2 * (21 + np.log2(BIG / 16)) + 2) * eps
        np.testing.assert_allclose(ua.asnumpy(got), ua.asnumpy(want), rtol=rtol, atol=0)
        return
    within_sum_bound(got, want, terms(x, y), mean)
    same_bits(fused(x, y), ua.asnumpy(got))  # the same bits every call


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_the_passes_propagate_nan_and_infinities(monkeypatch, big, dtype):
    """A NaN or an infinity anywhere, in any chunk: the eager call's NaN or
    infinity; max and min are the eager ones exactly."""
    h = big[0].astype(dtype)
    calls = _spied_fused_reduce(monkeypatch)
    fs = {
        "sum": ua.fuse(lambda x: ua.sum(x * 2)),
        "mean": ua.fuse(lambda x: ua.mean((x - ua.mean(x)) ** 2)),
        "max": ua.fuse(lambda x: ua.max(x * 2)),
        "min": ua.fuse(lambda x: ua.min(x * 2)),
    }
    for where, bad in (
        ([17], [np.nan]),
        ([BIG - 3], [np.inf]),
        ([2_500_000], [-np.inf]),
        ([5, BIG - 1], [np.inf, -np.inf]),
    ):
        g = h.copy()
        g[where] = bad
        x = host(g)
        with np.errstate(all="ignore"):
            for name, f in fs.items():
                want = f.fn(x)
                if name in ("max", "min"):
                    same_bits(f(x), ua.asnumpy(want))
                else:
                    within_sum_bound(f(x), want, x * 2)
    assert calls and all(calls)
    same_bits(fs["max"](host(h)), ua.asnumpy(ua.max(host(h) * 2)))


def test_the_passes_walk_broadcast_operands_and_leave_other_layouts_eager(monkeypatch):
    """Arguments that broadcast (a column against a row) reduce in one pass
    over the values they make, never written; an argument that is not
    C-contiguous runs the eager calls on the whole arrays, with their
    bits."""
    rng = np.random.default_rng(23)
    col = host(rng.standard_normal((1500, 1)))
    row = host(rng.standard_normal((1, 1201)))
    calls = _spied_fused_reduce(monkeypatch)
    fused = ua.fuse(sse)
    within_sum_bound(fused(col, row), sse(col, row), (col - row) ** 2)
    assert calls == [True]
    m = host(rng.standard_normal((1201, 1500)))
    within_sum_bound(ua.fuse(variance)(m, m), variance(m, m), (m - ua.mean(m)) ** 2, True)
    assert calls == [True, True]
    strided = host(rng.standard_normal((1500, 2402)))[:, ::2]
    wide = ua.fuse(sse)
    same_bits(wide(strided, row), ua.asnumpy(sse(strided, row)))
    assert "not C-contiguous" in wide.explain(strided, row)
    same_bits(wide(m.T, m.T), ua.asnumpy(sse(m.T, m.T)))
    assert calls == [True, True]


SMALL_PASSES = {
    "sse": (sse, lambda x, y: (x - y) ** 2, False),
    "variance": (variance, lambda x, y: (x - ua.mean(x)) ** 2, True),
    "mean of a product": (lambda x, y: ua.mean(x * y + 1), lambda x, y: x * y + 1, True),
    "kept sum": (lambda x, y: ua.sum(x * 2, keepdims=True), lambda x, y: x * 2, False),
    "max": (lambda x, y: ua.max(x * y), None, False),
    "min": (lambda x, y: ua.min(x - y), None, False),
}


@pytest.mark.parametrize("name", sorted(SMALL_PASSES))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shapes", [((1,), (1,)), ((1000,), (1000,)), ((40, 50), (50,))])
def test_a_small_calls_reduction_is_one_call_of_the_loops(monkeypatch, name, dtype, shapes):
    """A small call (here below a block) of a reduction of all axes, after
    the signature's first call: one call of the host's loops on the
    arguments as they are (broadcast too), after the eager reductions
    that it reads (the variance's mean); max and min the eager ones
    exactly, sums within the pairwise sums' bound, the same bits every
    call, of the eager result's dtype and shape."""
    rng = np.random.default_rng(29)
    x, y = (host(rng.standard_normal(s).astype(dtype)) for s in shapes)
    f, terms, mean = SMALL_PASSES[name]
    calls = _spied_fused_reduce(monkeypatch)
    fused = ua.fuse(f)
    first = fused(x, y)
    same_bits(fused(x, y), ua.asnumpy(first))  # the generic way, once more
    (run,) = fused._small.values()
    assert "straight" in run.fast.__qualname__, fused.explain(x, y)
    for _ in range(3):
        same_bits(fused(x, y), ua.asnumpy(first))
    assert calls == [True] * 5
    want = f(x, y)
    if terms is None:
        same_bits(first, ua.asnumpy(want))
    else:
        within_sum_bound(first, want, terms(x, y), mean)


ROWS_PASSES = {
    "row sums of squares": (lambda m, c: ua.sum(m * m, axis=1), lambda m, c: m * m, False),
    "kept row means of a difference": (
        lambda m, c: ua.mean(ua.exp(m - c), axis=-1, keepdims=True),
        lambda m, c: ua.exp(m - c),
        True,
    ),
    "row maxima": (lambda m, c: ua.max(m * c, axis=1), None, False),
    "row minima of the last two axes": (lambda m, c: ua.min(m[None] + 1, axis=(1, 2)), None, False),
}


@pytest.mark.parametrize("name", sorted(ROWS_PASSES))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_reduction_of_rows_runs_in_the_pass_of_its_values(monkeypatch, name, dtype):
    """A sum, mean, max or min of the last axes (rows): one call of the
    host's loops reduces each row as it computes its values (a column that
    broadcasts along the rows too), the rows split among the threads, each
    row's sum in its own order.  Max and min are the eager ones exactly;
    sums within the pairwise sums' bound of each row."""
    rng = np.random.default_rng(41)
    m = host(rng.standard_normal((120, 300)).astype(dtype))
    c = host(rng.standard_normal((120, 1)).astype(dtype))
    f, terms, mean = ROWS_PASSES[name]
    calls = _spied_fused_reduce(monkeypatch)
    fused = ua.fuse(f)
    got, want = fused(m, c), f(m, c)
    if "last two" in name:
        assert not calls  # indexing is not traced: the eager calls
        same_bits(got, ua.asnumpy(want))
        return
    assert calls == [True], fused.explain(m, c)
    assert "these arguments: the passes above" in fused.explain(m, c)
    if terms is None:
        same_bits(got, ua.asnumpy(want))
        return
    g, w, t = (np.asarray(ua.asnumpy(a)) for a in (got, want, terms(m, c)))
    assert g.shape == w.shape and g.dtype == w.dtype
    for r in range(t.shape[0]):
        within_sum_bound(g.reshape(-1)[r : r + 1], w.reshape(-1)[r : r + 1], t[r], mean)


def test_row_norms_take_the_pass_and_their_square_root_after(monkeypatch):
    """sqrt(sum(m * m, axis=1)): the rows' sums in the pass, the square root
    an elementwise call on them; rows shorter than 32 values (a walk a
    row would cost more than the eager reduction) run in the blocks."""
    rng = np.random.default_rng(43)
    calls = _spied_fused_reduce(monkeypatch)
    for shape, passes in (((64, 1000), 1), ((64, 32), 1), ((4000, 16), 0)):
        norms = ua.fuse(lambda m: ua.sqrt(ua.sum(m * m, axis=1)), block=BLOCK)
        m = host(rng.standard_normal(shape))
        calls.clear()
        got, want = norms(m), ua.sqrt(ua.sum(m * m, axis=1))
        np.testing.assert_allclose(ua.asnumpy(got), ua.asnumpy(want), rtol=1e-14)
        assert got.shape == (shape[0],) and len(calls) == passes, shape
        assert ("in each block" in norms.explain(m)) == (not passes)


def test_the_passes_bits_do_not_depend_on_the_threads(big):
    """The chunks and the order of their partials depend on the values'
    count alone: one thread (USMARRAY_HOST_THREADS=1, a new process) gives
    the bits of the default threads."""
    import subprocess
    import sys

    code = (
        "import numpy as np, usmarray as ua\n"
        "h = np.random.default_rng(17).standard_normal(%d)\n"
        "x = ua.asarray(h, device='host')\n"
        "f = ua.fuse(lambda x: ua.mean((x - ua.mean(x)) ** 2))\n"
        "g = ua.fuse(lambda x: ua.sum(ua.astype(x, ua.float32) ** 2))\n"
        "print(float(f(x)).hex(), float(g(x)).hex())\n" % BIG
    )
    out = {}
    for threads in ("1", "2"):
        env = dict(__import__("os").environ, USMARRAY_HOST_THREADS=threads)
        run = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        out[threads] = run.stdout.split()
    assert out["1"] == out["2"]


# Arrays that meet only through reductions, or not at all: their shapes
# need not broadcast together, as in the eager calls.
APART = {
    "x - mean(y)": lambda x, y, z: x - ua.mean(y),
    "x * sum(y) + max(x)": lambda x, y, z: x * ua.sum(y) + ua.max(x),
    "exp(x), the others unused": lambda x, y, z: ua.exp(x) * 2,
    "softmax of x, the others unused": lambda x, y, z: softmax(x),
    "z alone": lambda x, y, z: ua.sin(z) + 1,
    "z, x read only by values the result does not need": lambda x, y, z: (
        ua.abs(x) * 2,
        z * ua.sum(ua.exp(z), axis=0),
    )[1],
}


@pytest.mark.parametrize("name", sorted(APART))
@pytest.mark.parametrize("rows", [3, 400])
def test_arrays_that_meet_only_through_reductions_or_not_at_all(name, rows):
    """Each call (the first, a small call's runner, the blocks) gives the
    eager bits, and explain says how it runs; the result is on the queue of
    the array it is computed from, not an unused argument's."""
    rng = np.random.default_rng(3)
    q = ua.Queue("host", in_order=True)  # not the default queue of x and y
    x = host(rng.standard_normal((rows, 103)))
    y = host(rng.standard_normal(5)[::-1])
    z = ua.asarray(rng.standard_normal((rows, 7, 2)), queue=q)
    f = APART[name]
    fused = ua.fuse(f, block=BLOCK)
    want = f(x, y, z)
    for _ in range(3):
        got = fused(x, y, z)
        same_bits(got, ua.asnumpy(want))
        assert got.queue == want.queue
    assert "graph:" in fused.explain(x, y, z)


def test_operands_that_do_not_broadcast_raise_the_eager_error():
    x, y = host(np.ones((400, 103))), host(np.ones(5))
    fused = ua.fuse(lambda x, y: ua.exp(x) + y, block=BLOCK)
    with pytest.raises(ValueError, match="could not be broadcast"):
        fused(x, y)
    assert "do not broadcast together" in fused.explain(x, y)


# A reduction of a reduction's values: the inner one may run in its values'
# pass (or kernel), the outer one then takes the eager call.
NESTED = {
    "max of row minima": lambda m: ua.max(
        ua.min(ua.maximum(m, 1.5), axis=-1, keepdims=True), axis=0, keepdims=True
    ),
    "min of row maxima": lambda m: ua.min(ua.max(m * 2, axis=1)),
    "max of all of a row max": lambda m: ua.max(ua.max(ua.abs(m), axis=1, keepdims=True)),
}


@pytest.mark.parametrize("name", sorted(NESTED))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_reduction_of_a_reductions_values(name, dtype):
    m = host((np.random.default_rng(4).standard_normal((50, 1000)) * 3).astype(dtype))
    f = NESTED[name]
    fused = ua.fuse(f, block=BLOCK)
    for _ in range(2):
        same_bits(fused(m), ua.asnumpy(f(m)))
    assert "graph:" in fused.explain(m)


# Random graphs with reductions along axes (maxima and minima: exact bits),
# nested too, over three arguments whose shapes may broadcast, or meet only
# through reductions, or not at all (the eager error).
SHAPES_OF_Y = [(40,), (60, 1), (5,), ()]
SHAPES_OF_Z = [(60, 40), (7, 3)]


def graphs():
    leaves = st.sampled_from(["x", "y", "z", 0.5, -2])

    def extend(children):
        return st.one_of(
            st.tuples(st.sampled_from(UNARY[:4]), children),
            st.tuples(st.sampled_from(["add", "multiply", "maximum"]), children, children),
            st.tuples(
                st.sampled_from(["max", "min"]),
                st.sampled_from([None, 0, -1]),
                st.booleans(),
                children,
            ),
        )

    return st.recursive(leaves, extend, max_leaves=6)


def build_graph(graph, x, y, z):
    xp = x.__array_namespace__()
    if isinstance(graph, str):
        return {"x": x, "y": y, "z": z}[graph]
    if not isinstance(graph, tuple):
        return graph
    name, *args = graph
    if name in ("max", "min"):
        axis, keepdims, child = args
        value = build_graph(child, x, y, z)
        if not _is_array(value):
            value = x
        return getattr(xp, name)(value, axis=axis, keepdims=keepdims)
    values = [build_graph(a, x, y, z) for a in args]
    if not any(_is_array(v) for v in values):
        values[0] = x
    return getattr(xp, name)(*values)


def check_graph(graph, x, y, z, block=None):
    """The fused call gives the eager call's dtype, shape and bits, or
    raises its exception's type."""
    try:
        want = build_graph(graph, x, y, z)
    except (TypeError, ValueError, IndexError) as e:
        with pytest.raises(type(e)):
            ua.fuse(lambda x, y, z: build_graph(graph, x, y, z), block=block)(x, y, z)
        return
    if not _is_array(want):
        return
    fused = ua.fuse(lambda x, y, z: build_graph(graph, x, y, z), block=block)
    for _ in range(2):
        same_bits(fused(x, y, z), ua.asnumpy(want))
    assert "graph:" in fused.explain(x, y, z)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    graph=graphs(),
    y_shape=st.sampled_from(SHAPES_OF_Y),
    z_shape=st.sampled_from(SHAPES_OF_Z),
    dtype=st.sampled_from(["float32", "float64"]),
)
def test_random_graphs_of_reductions_along_axes_and_shapes(graph, y_shape, z_shape, dtype):
    rng = np.random.default_rng(6)
    x, y, z = (
        host((rng.standard_normal(s) * 3).astype(dtype)) for s in ((60, 40), y_shape, z_shape)
    )
    check_graph(graph, x, y, z, block=BLOCK)
