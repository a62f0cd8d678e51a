"""``usmarray.fuse``: a function of arrays traced once per signature into a
graph of the namespace's calls, then evaluated on the host in cache-sized
blocks.

This module is Python, not C: tracing runs once per signature and the
evaluation's work is the extension's own kernels called on block views, so
only the planning lives here.  Every block calls the same eager functions
with the same operands' types as the unfused code, so elementwise results
are the eager ones bit for bit; reductions over the blocked axis are
per-block partial results combined, which sums in another order.
"""

import functools
import itertools
import math
import operator
import os
import types

from . import _fuse_kernel
from . import _usmarray as _ua  # type: ignore[attr-defined]

# Bytes of the widest type a block: 256 KiB, 32 Ki float64 elements.  A
# block's temporaries stay in a core's L2 and L3 (512 KiB and 32 MiB on the
# 2-core EPYC measured), and a result of this size is the smallest that the
# extension computes with the GIL released, so that two threads' blocks run
# at once.  There, on a loaded machine, blocks of 16 Ki to 64 Ki float64
# were within the noise of each other on one thread, and two threads gained
# (GELU in 0.55 of one thread's time) only with blocks of this size.
BLOCK_BYTES = 256 * 1024
# Threads that take blocks: the calling one and one more.
THREADS = min(2, os.cpu_count() or 1)

_REDUCTIONS = ("sum", "prod", "max", "min", "mean", "any", "all")
_SCALAR_TYPES = (bool, int, float, complex)
# A value of each Python scalar type for the calls that find a result's type.
_SAMPLE = {bool: True, int: 1, float: 1.0, complex: 1j}


def _elementwise_names():
    """The namespace's elementwise functions: their docstrings, made from the
    catalogue, begin "The Array API's <name>()"."""
    names = set()
    for name in _ua.__all__:
        doc = getattr(getattr(_ua, name), "__doc__", None) or ""
        if callable(getattr(_ua, name)) and doc.startswith(f"The Array API's {name}()"):
            names.add(name)
    return frozenset(names)


_ELEMENTWISE = _elementwise_names()


class Untraceable(Exception):
    """What a traced function did that a graph cannot hold; the signature
    runs eagerly and keeps the message as its reason."""


class _Trace:
    """The graph being recorded: its nodes in the order they were made (a
    topological order) and the first reason it cannot be used."""

    def __init__(self, device):
        self.nodes = []
        self.reason = None
        self.device = device
        self.samples = {}
        self.calls = {}  # a call's key (_call_key): its node

    def refuse(self, reason):
        # Kept even where the function catches the exception.
        if self.reason is None:
            self.reason = reason
        raise Untraceable(reason)

    def sample(self, dtype, ndim):
        """A one-element array of dtype and ndim: the eager call on it gives
        a node's dtype and ndim, by the eager rules."""
        key = (str(dtype), ndim)
        if key not in self.samples:
            where = _sampling_device(self.device)
            self.samples[key] = _ua.ones((1,) * ndim, dtype=dtype, device=where)
        return self.samples[key]


def _sampling_device(device):
    """Where a trace's samples live: the host, where the device's dtypes
    follow the host's rules (its default dtypes, float64 and float16),
    since a call on the host compiles nothing (a first call on a GPU would
    otherwise compile each eager kernel the trace calls); else the device."""
    found = _sampling_device.__dict__.setdefault("by_device", {})
    if device not in found:
        host = _ua.Device("host")
        info = _ua.__array_namespace_info__()
        same = (
            device.has_aspect_fp64 == host.has_aspect_fp64
            and device.has_aspect_fp16 == host.has_aspect_fp16
            and info.default_dtypes(device=device) == info.default_dtypes(device=host)
        )
        found[device] = host if same else device
    return found[device]


class Proxy:
    """A traced value: an array argument, a Python scalar argument, or the
    result of a recorded call.  ``dtype`` and ``ndim`` are known; sizes are
    not part of a signature, so ``shape`` cannot be read."""

    __array_priority__ = 1000

    def __init__(self, trace, kind, op, args, kwargs, dtype, ndim, pytype=None, index=None):
        self._trace, self.kind, self.op = trace, kind, op
        self.args, self.kwargs, self.index = args, kwargs, index
        self.dtype, self.ndim, self.pytype = dtype, ndim, pytype
        self.id = len(trace.nodes)
        trace.nodes.append(self)

    def __repr__(self):
        return f"<fuse proxy #{self.id} {self.kind} {self.label()}>"

    def label(self):
        what = {"arg": f"argument {self.index}", "scalar": f"scalar argument {self.index}"}
        if self.kind in what:
            return what[self.kind]
        name = getattr(self.op, "__name__", str(self.op))
        if isinstance(self.op, functools.partial):
            name = f"astype[{self.op.args[1]}]"
        args = [_describe(a) for a in self.args]
        args += [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return f"{name}({', '.join(args)})"

    # Reading what a signature does not fix, or control flow on values.
    def _refuse(self, what):
        self._trace.refuse(f"the function {what} of a traced array")

    def __bool__(self):
        self._refuse("takes the truth value (control flow on values)")

    def __int__(self):
        self._refuse("converts to int")

    def __float__(self):
        self._refuse("converts to float")

    def __complex__(self):
        self._refuse("converts to complex")

    def __index__(self):
        self._refuse("uses as an index")

    def __len__(self):
        self._refuse("takes the len()")

    def __iter__(self):
        self._refuse("iterates over the elements")

    def __getitem__(self, key):
        self._refuse("indexes (x[...])")

    def __setitem__(self, key, value):
        self._refuse("assigns into (x[...] = v)")

    def __matmul__(self, other):
        self._refuse("takes a matrix product (@)")

    __rmatmul__ = __matmul__

    def __array__(self, *args, **kwargs):
        self._refuse("converts to NumPy")

    def __array_namespace__(self, api_version=None):
        return _Namespace(self._trace)

    def __getattr__(self, name):
        if name == "device":
            return self._trace.device
        if name in ("shape", "size", "T", "mT"):
            self._refuse(f"reads .{name}")
        raise AttributeError(name)

    __hash__ = object.__hash__

    # The operators: the eager operator on the operands, recorded.
    def __add__(self, other):
        return _binary(operator.add, self, other)

    def __radd__(self, other):
        return _binary(operator.add, other, self)

    def __sub__(self, other):
        return _binary(operator.sub, self, other)

    def __rsub__(self, other):
        return _binary(operator.sub, other, self)

    def __mul__(self, other):
        return _binary(operator.mul, self, other)

    def __rmul__(self, other):
        return _binary(operator.mul, other, self)

    def __truediv__(self, other):
        return _binary(operator.truediv, self, other)

    def __rtruediv__(self, other):
        return _binary(operator.truediv, other, self)

    def __floordiv__(self, other):
        return _binary(operator.floordiv, self, other)

    def __rfloordiv__(self, other):
        return _binary(operator.floordiv, other, self)

    def __mod__(self, other):
        return _binary(operator.mod, self, other)

    def __rmod__(self, other):
        return _binary(operator.mod, other, self)

    def __pow__(self, other):
        return _binary(operator.pow, self, other)

    def __rpow__(self, other):
        return _binary(operator.pow, other, self)

    def __and__(self, other):
        return _binary(operator.and_, self, other)

    def __rand__(self, other):
        return _binary(operator.and_, other, self)

    def __or__(self, other):
        return _binary(operator.or_, self, other)

    def __ror__(self, other):
        return _binary(operator.or_, other, self)

    def __xor__(self, other):
        return _binary(operator.xor, self, other)

    def __rxor__(self, other):
        return _binary(operator.xor, other, self)

    def __lshift__(self, other):
        return _binary(operator.lshift, self, other)

    def __rlshift__(self, other):
        return _binary(operator.lshift, other, self)

    def __rshift__(self, other):
        return _binary(operator.rshift, self, other)

    def __rrshift__(self, other):
        return _binary(operator.rshift, other, self)

    def __eq__(self, other):  # type: ignore[override]
        return _binary(operator.eq, self, other)

    def __ne__(self, other):  # type: ignore[override]
        return _binary(operator.ne, self, other)

    def __lt__(self, other):  # type: ignore[override]
        return _binary(operator.lt, self, other)

    def __le__(self, other):  # type: ignore[override]
        return _binary(operator.le, self, other)

    def __gt__(self, other):  # type: ignore[override]
        return _binary(operator.gt, self, other)

    def __ge__(self, other):  # type: ignore[override]
        return _binary(operator.ge, self, other)

    def __neg__(self):
        return _record(self._trace, "ew", operator.neg, (self,))

    def __pos__(self):
        return _record(self._trace, "ew", operator.pos, (self,))

    def __abs__(self):
        return _record(self._trace, "ew", operator.abs, (self,))

    def __invert__(self):
        return _record(self._trace, "ew", operator.invert, (self,))


def _describe(a):
    return f"#{a.id}" if isinstance(a, Proxy) else repr(a)


class _Unkeyed(Exception):
    """A call's operand has no key: its call is not merged."""


def _key_part(v):
    """What tells operands apart: a node by its number, a float by its bits
    (0.0 and -0.0, 1 and 1.0 and True are distinct), a tuple by its parts,
    anything else hashable by its type and value."""
    if isinstance(v, Proxy):
        return ("node", v.id)
    if isinstance(v, float):
        return ("float", v.hex())
    if isinstance(v, complex):
        return ("complex", v.real.hex(), v.imag.hex())
    if isinstance(v, (tuple, list)):
        return (type(v).__name__, tuple(_key_part(p) for p in v))
    if _is_numpy_scalar(v):
        return ("numpy", str(v.dtype), v.tobytes())
    try:
        hash(v)
    except TypeError:
        raise _Unkeyed() from None
    return (type(v), v)


def _call_key(kind, op, args, kwargs):
    try:
        return (kind, op, _key_part(tuple(args)), _key_part(tuple(sorted(kwargs.items()))))
    except (_Unkeyed, TypeError):
        return None


def _record(trace, kind, op, args, kwargs=None):
    """A node for op(*args, **kwargs), its dtype and ndim from the eager call
    on samples: the promotion and the errors are the eager ones.  A call the
    trace has met already, with the same operands, gives the node it made
    then: the functions are pure, and a value computed once is read by both
    (log softmax's two calls of the same max are one phase)."""
    kwargs = kwargs or {}
    key = _call_key(kind, op, args, kwargs)
    if key is not None and key in trace.calls:
        return trace.calls[key]
    node = _record_new(trace, kind, op, args, kwargs)
    if key is not None:
        trace.calls[key] = node
    return node


def _record_new(trace, kind, op, args, kwargs):
    concrete = [_sample_of(trace, a) for a in args]
    try:
        result = op(*concrete, **kwargs)
    except Exception as e:
        trace.refuse(f"{_name(op)} on the traced types raised {type(e).__name__}: {e}")
    if isinstance(result, _ua.USMArray):
        return Proxy(trace, kind, op, tuple(args), kwargs, result.dtype, result.ndim)
    if isinstance(result, _SCALAR_TYPES):
        # Python scalars' arithmetic: a scalar, computed once a call.
        return Proxy(trace, "pyop", op, tuple(args), kwargs, None, 0, pytype=type(result))
    trace.refuse(f"{_name(op)} gave a {type(result).__name__}, not an array")


def _name(op):
    return getattr(op, "__name__", repr(op))


def _sample_of(trace, a):
    if isinstance(a, Proxy):
        if a._trace is not trace:
            trace.refuse("a traced value of another fused call is used")
        if a.dtype is None:
            return _SAMPLE[a.pytype] if a.pytype in _SAMPLE else a.pytype(1)
        return trace.sample(a.dtype, a.ndim)
    if a is None or isinstance(a, _SCALAR_TYPES) or _is_numpy_scalar(a):
        return a
    if isinstance(a, _ua.USMArray):
        trace.refuse("an array not passed as an argument (a global or one made inside) is used")
    trace.refuse(f"an operand of type {type(a).__name__} is used")


def _check_operands(trace, args):
    for a in args:
        _sample_of(trace, a)


def _binary(op, a, b):
    proxy = a if isinstance(a, Proxy) else b
    _check_operands(proxy._trace, (a, b))
    return _record(proxy._trace, "ew", op, (a, b))


class _Namespace:
    """What the traced function sees in place of the usmarray module: its
    elementwise functions, ``astype`` and reductions record nodes; any other
    function given a traced value refuses; the rest is the module's."""

    def __init__(self, trace):
        self._trace = trace

    def __getattr__(self, name):
        import usmarray

        real = getattr(usmarray, name)
        if name in _ELEMENTWISE or name in _REDUCTIONS or name == "astype":
            return functools.partial(_traced_call, self._trace, name, real)
        if callable(real) and not isinstance(real, type):
            return functools.partial(_refusing_call, self._trace, name, real)
        return real

    def __dir__(self):
        import usmarray

        return dir(usmarray)


def _traced_call(trace, name, real, *args, **kwargs):
    if not any(isinstance(a, Proxy) for a in (*args, *kwargs.values())):
        return real(*args, **kwargs)
    if name in _REDUCTIONS:
        return _trace_reduction(trace, name, real, args, kwargs)
    if name == "astype":
        return _trace_astype(trace, real, args, kwargs)
    if name == "clip":
        return _trace_clip(trace, real, args, kwargs)
    if kwargs:
        trace.refuse(f"usmarray.{name} was given keywords {sorted(kwargs)}")
    _check_operands(trace, args)
    return _record(trace, "ew", real, args)


def _trace_reduction(trace, name, real, args, kwargs):
    if (
        len(args) != 1
        or not isinstance(args[0], Proxy)
        or set(kwargs) - {"axis", "keepdims", "dtype"}
    ):
        trace.refuse(f"usmarray.{name} was called with other than (x, axis=, keepdims=, dtype=)")
    if isinstance(kwargs.get("axis"), Proxy) or isinstance(kwargs.get("keepdims"), Proxy):
        trace.refuse(f"usmarray.{name}'s axis or keepdims is a traced value")
    return _record(trace, "reduce", real, args, kwargs)


def _trace_astype(trace, real, args, kwargs):
    if len(args) != 2 or set(kwargs) - {"copy"}:
        trace.refuse("usmarray.astype was called with other than (x, dtype, copy=)")
    x, dtype = args
    if not isinstance(x, Proxy) or isinstance(dtype, Proxy):
        trace.refuse("usmarray.astype's dtype is a traced value")
    return _record(trace, "ew", functools.partial(_astype, real, dtype), (x,))


def _astype(real, dtype, x):
    return real(x, dtype)


def _trace_clip(trace, real, args, kwargs):
    if set(kwargs) - {"min", "max"} or len(args) > 3:
        trace.refuse("usmarray.clip was called with other than (x, min, max)")
    x, lo, hi = (*args, None, None)[:3]
    lo, hi = kwargs.get("min", lo), kwargs.get("max", hi)
    _check_operands(trace, (x, lo, hi))
    return _record(trace, "ew", _clip, (x, lo, hi))


def _clip(x, lo, hi):
    return _ua.clip(x, min=lo, max=hi)


def _refusing_call(trace, name, real, *args, **kwargs):
    if any(isinstance(a, Proxy) for a in (*args, *kwargs.values())):
        trace.refuse(f"usmarray.{name} is not fused")
    if isinstance(real(*args, **kwargs), _ua.USMArray):
        trace.refuse(f"usmarray.{name} makes an array inside the function")
    return real(*args, **kwargs)


# ---------------------------------------------------------------- signatures


_USMArray = _ua.USMArray
_ONE = 1


def signature_of(args):
    """The key a trace is kept under: each array's dtype, ndim, which axes
    have length 1 (they broadcast) and device; each scalar's type."""
    key = []
    for i, a in enumerate(args):
        if type(a) is _USMArray or isinstance(a, _USMArray):
            shape = a.shape
            key.append(("array", a.dtype, len(shape), tuple(map(_ONE.__eq__, shape)), a.device))
        elif type(a) in _SCALAR_TYPES or _is_numpy_scalar(a):
            key.append(("scalar", type(a)))
        else:
            raise TypeError(
                f"fuse: argument {i} is a {type(a).__name__}; a fused function takes "
                "usmarray arrays, Python scalars (bool, int, float, complex) and NumPy scalars"
            )
    return tuple(key)


def _is_numpy_scalar(a):
    """A NumPy scalar (an operand with its own dtype), told without
    importing NumPy."""
    return type(a).__module__ == "numpy" and getattr(a, "ndim", None) == 0 and hasattr(a, "dtype")


def _describe_signature(key):
    parts = []
    for k in key:
        if k[0] == "array":
            shape = ", ".join("1" if one else "n" for one in k[3])
            parts.append(f"{k[1]}[{shape}] on {k[4].filter_string}")
        else:
            parts.append(k[1].__name__)
    return "(" + ", ".join(parts) + ")"


def _is_host(device):
    """Whether the device runs the host's loops (the host, and a SYCL CPU
    device unless USMARRAY_DEVICE_KERNELS=1), for which a plan is the
    host's."""
    return device.backend == "host" or (type(device) is _ua.Device and _ua._runs_host_loops(device))


class Plan:
    """What one signature runs: a traced graph evaluated in blocks on the
    host or as one kernel on a device that compiles kernels, or the
    function called eagerly, with the reason."""

    def __init__(self, key, nodes=None, output=None, reason=None):
        self.key, self.nodes, self.output, self.reason = key, nodes, output, reason
        self.kernel, self.kernel_ran, self.host_program = None, False, None
        devices = {k[4] for k in key if k[0] == "array"}
        if reason is None and not all(_is_host(d) for d in devices):
            try:
                self.kernel = _fuse_kernel.program_of(self)
            except _fuse_kernel.Unfusable as e:
                self.reason = f"not a host device, and not one kernel ({e})"
        elif reason is None:
            self.host_program = _host_program(self)
        self.fused = self.reason is None

    def refuse_kernel(self, reason):
        """The signature runs eagerly from now on."""
        self.kernel, self.fused, self.reason = None, False, reason

    def describe(self):
        lines = [f"signature {_describe_signature(self.key)}"]
        if self.nodes is not None:
            lines.append("graph:")
            lines += [f"  #{n.id} {n.label()} -> {_node_type(n)}" for n in self.nodes]
            lines.append(f"  result: #{self.output.id}")
        if self.kernel is not None:
            lines.append(f"plan: {self.kernel.describe()}")
        else:
            lines.append("plan: " + ("host, blocked" if self.fused else f"eager: {self.reason}"))
        if type(self.host_program) is _fuse_kernel.Stages:
            lines.append(
                "  where the arrays are C-contiguous, in passes of the host's loops, each"
                " node's a few hundred elements at a time, a reduction of all axes or of"
                " rows in the pass of its values:"
            )
            lines.append("  " + self.host_program.describe().replace("\n", "\n  "))
        elif self.host_program is not None:
            lines.append(
                "  in one call of the host's loops, each node's a few hundred elements at a time:"
            )
            lines.append("  " + self.host_program.describe().replace("\n", "\n  "))
        return "\n".join(lines)


def _host_program(plan):
    """The graph as one call of the host's loops (the kernel's Program,
    which the host runs node by node over blocks in L1), where it holds no
    reduction and the Program takes it; or as passes of those loops (the
    Stages), where each reduction reduces all axes of its values in their
    pass or is the eager call on an argument; else None."""
    if plan.nodes is None:
        return None
    try:
        program = _fuse_kernel.program_of(plan, compiles=False)
    except _fuse_kernel.Unfusable:
        return None
    if type(program) is _fuse_kernel.RowChain:
        # a chain ending in a reduction was stages before chains took it:
        # its passes (kept-dims rows run in blocks)
        program = program.stages if program.shaped is not None else None
    if type(program) is _fuse_kernel.Stages and _passes_suit_the_host(program):
        return program
    return program if type(program) is _fuse_kernel.Program else None


def _passes_suit_the_host(stages):
    """Whether every reduction of the stages runs in the pass that computes
    its values (of all axes, or of rows: the last axes) or is the eager
    call on an argument, so that no pass writes values only for a
    reduction to read them back (the blocks keep those in cache)."""
    for n, step in stages.steps:
        if step is None and n.args[0].kind != "arg":
            return False
    return True


def _passes_take(plan, args, block):
    """Whether the host's passes (a Stages host program) run a call with
    these arguments: C-contiguous arrays whose shapes broadcast (a call of
    other layouts runs the eager calls on the whole arrays, with their
    bits, and so does one of shapes that do not broadcast, with their
    error).  A pass's sums add in their own order, whatever the size."""
    arrays = _used_args(plan, args)
    if not all(a.flags.c_contiguous for a in arrays):
        return False
    try:
        frame = _ua.broadcast_shapes(*[a.shape for a in arrays])
    except ValueError:
        return False
    # rows too short for a pass (a walk a row) run in the blocks, where the
    # eager reduction of a block's rows stays in cache
    return not any(
        isinstance(step, _fuse_kernel.FusedReduction)
        and step.first
        and step.node.args[0].ndim == len(frame)
        and math.prod(frame[step.first :]) < _fuse_kernel._SHORTEST_LOOPS_ROW
        for _, step in plan.host_program.steps
    )


def _run_host_program(plan, args):
    """The host program's result, or None where its call refuses the graph
    or these arguments (the blocks then run the signature, from then on,
    and raise the eager calls' error where the arguments are wrong)."""
    try:
        result = plan.host_program.run(args)
    except _fuse_kernel.KernelRefused:
        result = NotImplemented
    if result is NotImplemented:
        plan.host_program = None
        return None
    return result


def _node_type(n):
    return n.pytype.__name__ if n.dtype is None else f"{n.dtype}, {n.ndim}-d"


def trace(fn, args, key):
    """fn traced on proxies of args: a Plan, eager where tracing failed."""
    devices = [k[4] for k in key if k[0] == "array"]
    if not devices:
        return Plan(key, reason="no array argument")
    tr = _Trace(devices[0])
    proxies = []
    for i, (a, k) in enumerate(zip(args, key, strict=True)):
        if k[0] == "array":
            proxies.append(Proxy(tr, "arg", None, (), {}, a.dtype, a.ndim, index=i))
        else:
            proxies.append(Proxy(tr, "scalar", None, (), {}, None, 0, pytype=k[1], index=i))
    try:
        out = _with_namespace(fn, tr)(*proxies)
    except Untraceable:
        return Plan(key, reason=tr.reason)
    except Exception as e:
        return Plan(key, reason=tr.reason or f"tracing raised {type(e).__name__}: {e}")
    if tr.reason is not None:
        return Plan(key, reason=tr.reason)
    if not isinstance(out, Proxy):
        return Plan(key, reason=f"the function returns a {type(out).__name__}, not one array")
    if out.dtype is None:
        return Plan(key, reason="the function returns a Python scalar, not one array")
    return Plan(key, tr.nodes, out)


def _with_namespace(fn, tr, done=None):
    """fn with the usmarray module and its functions, where its globals and
    closure name them, replaced by the tracing namespace's; the Python
    functions it names are swapped the same way, so helpers trace too."""
    import usmarray

    done = {} if done is None else done
    code = getattr(fn, "__code__", None)
    if not isinstance(fn, types.FunctionType) or fn.__module__ == __name__:
        return fn
    if fn in done:
        return done[fn]
    ns = _Namespace(tr)

    def swap(value):
        if value is usmarray or value is _ua or value is _array_api_namespace():
            return ns
        if isinstance(value, types.FunctionType):
            return _with_namespace(value, tr, done)
        name = getattr(value, "__name__", None)
        if callable(value) and name is not None and getattr(_ua, name, None) is value:
            return getattr(ns, name)
        return value

    glob = dict(fn.__globals__)
    cells = tuple(types.CellType() for _ in fn.__closure__ or ())
    new = types.FunctionType(code, glob, fn.__name__, fn.__defaults__, cells or None)
    new.__kwdefaults__ = fn.__kwdefaults__
    # Known before the swaps, so that recursion ends.
    done[fn] = new
    for name in _names_of(code):
        if name in glob:
            glob[name] = swap(glob[name])
    for cell, old in zip(cells, fn.__closure__ or (), strict=True):
        try:
            cell.cell_contents = swap(old.cell_contents)
        except ValueError:  # a cell not yet filled: a later local of the caller
            pass
    return new


def _array_api_namespace():
    """The module an array's ``__array_namespace__()`` gives (its names are
    the package's)."""
    made = _array_api_namespace.__dict__
    if "ns" not in made:
        made["ns"] = _ua.empty(0, device="host").__array_namespace__()
    return made["ns"]


def _names_of(code):
    """The global names a code object and the code nested in it read."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names_of(const)
    return names


# ---------------------------------------------------------------- evaluation


def _compute(node, operands):
    if node.kind == "reduce":
        return node.op(*operands, **node.kwargs)
    return node.op(*operands)


def evaluate_whole(plan, args):
    """The graph on the whole arrays: the eager calls, one after another,
    as a Python function written once a plan (a small call's Python is its
    cost)."""
    run = plan.__dict__.get("_whole")
    if run is None:
        run = plan._whole = _whole_function(plan)
    return run(*args)


def _whole_function(plan):
    """A function of the arguments that makes the graph's needed calls in
    order, each temporary deleted after its last use, as plain Python:
    ``v2 = f2(c0, a0); v3 = f3(v2, a1); del v2; return v3``.  The calls,
    constants and keywords are the namespace's names, not text."""
    known = {n.id: None for n in plan.nodes if n.index is not None}
    names, lines = {}, []
    nargs = len(plan.key)
    for n, dead in _schedule(plan, known, plan.output):
        if n.index is not None:
            lines.append(f"    v{n.id} = a{n.index}")
            continue
        operands = []
        for a in n.args:
            if isinstance(a, Proxy):
                operands.append(f"v{a.id}")
            else:
                names[f"c{len(names)}"] = a
                operands.append(f"c{len(names) - 1}")
        names[f"f{n.id}"] = n.op
        call = f"f{n.id}({', '.join(operands)}"
        if n.kind == "reduce" and n.kwargs:
            names[f"k{n.id}"] = n.kwargs
            call += f", **k{n.id}"
        lines.append(f"    v{n.id} = {call})")
        lines += [f"    del v{d}" for d in dead]
    params = ", ".join(f"a{i}" for i in range(nargs))
    text = f"def run({params}):\n" + "\n".join(lines) + f"\n    return v{plan.output.id}\n"
    exec(compile(text, "<usmarray.fuse>", "exec"), names)
    return names["run"]


def _shapes(plan, args):
    """Each node's shape, by the eager rules of broadcasting and reducing."""
    shapes = {}
    for n in plan.nodes:
        if n.kind == "arg":
            shapes[n.id] = tuple(args[n.index].shape)
        elif n.dtype is None:
            shapes[n.id] = None
        elif n.kind == "reduce":
            shapes[n.id] = _reduced_shape(shapes[n.args[0].id], n.kwargs)
        else:
            operands = [shapes[a.id] for a in n.args if isinstance(a, Proxy) and shapes[a.id]]
            shapes[n.id] = tuple(_ua.broadcast_shapes(*operands)) if operands else ()
    return shapes


def _reduced_axes(ndim, kwargs):
    axis = kwargs.get("axis")
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, tuple) else (axis,)
    return tuple(sorted(a % ndim for a in axes))


def _reduced_shape(shape, kwargs):
    axes = _reduced_axes(len(shape), kwargs)
    if kwargs.get("keepdims"):
        return tuple(1 if i in axes else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in axes)


class _Layout:
    """How the graph maps onto the frame (the arguments' broadcast shape),
    split into blocks: blocks run over the frame's axes up to ``axis``,
    whole along the axes after it.  Each node's axes name the frame axes
    they run along (None where a node's length is 1)."""

    def __init__(self, plan, args, block):
        try:
            self.shapes = _shapes(plan, args)
        except ValueError:
            # the eager calls raise their own error, with their message
            raise _Unblockable("a call's operands do not broadcast together") from None
        arrays = [self.shapes[n.id] for n in _used_arrays(plan)]
        try:
            self.frame = tuple(_ua.broadcast_shapes(*arrays))
        except ValueError:
            # arrays that meet only through reductions (x - mean(y)):
            # no frame holds them both, so the eager calls take them whole
            raise _Unblockable("the arrays' shapes do not broadcast together") from None
        self.maps = _axis_maps(plan, self.shapes, self.frame)
        limit = self._first_axis_reduced_along(plan)
        self.axis, self.chunk = _block_axis(self.frame, block, limit)

    def _first_axis_reduced_along(self, plan):
        """The first frame axis that a reduction along some axes (not all of
        its operand's) reduces, or None."""
        first = None
        for n in plan.nodes:
            if n.kind != "reduce":
                continue
            operand = n.args[0].id
            shape = self.shapes[operand]
            axes = _reduced_axes(len(shape), n.kwargs)
            if len(axes) == len(shape):
                continue
            for a in axes:
                m = self.maps[operand][a]
                if m is not None and shape[a] > 1 and (first is None or m < first):
                    first = m
        return first

    def blocks(self):
        """Each block: a slice for each frame axis."""
        f, k = self.frame, self.axis
        outer = itertools.product(*(range(n) for n in f[:k]))
        for idx in outer:
            for start in range(0, f[k], self.chunk):
                head = tuple(slice(i, i + 1) for i in idx)
                tail = (slice(None),) * (len(f) - k - 1)
                yield (*head, slice(start, min(start + self.chunk, f[k])), *tail)

    def block_axes(self, node_id):
        """For each of a node's axes, the frame axis a block slices it
        along, or None where the block takes it whole."""
        return tuple(
            None if m is None or n == 1 else m
            for m, n in zip(self.maps[node_id], self.shapes[node_id], strict=True)
        )

    def spans_blocks(self, node_id):
        """Whether the node runs along every blocked frame axis (each block
        then is a part of it that no other block holds)."""
        runs = {m for m, n in zip(self.maps[node_id], self.shapes[node_id], strict=True) if n > 1}
        return all(self.frame[a] == 1 or a in runs for a in range(self.axis + 1))

    def is_local(self, node):
        """A reduction whose reduced axes each lie whole inside a block."""
        operand = node.args[0].id
        shape = self.shapes[operand]
        for a in _reduced_axes(len(shape), node.kwargs):
            m = self.maps[operand][a]
            if m is not None and shape[a] > 1 and m <= self.axis:
                return False
        return True


def _block_axis(frame, block, limit):
    """The first frame axis whose trailing axes fit a block, and how many of
    its indices a block takes; an axis before limit where the reductions
    along axes (softmax's rows) would not fit a block otherwise: larger
    blocks that hold whole rows beat rows computed eagerly."""
    for k in range(len(frame)):
        inner = math.prod(frame[k + 1 :])
        if inner <= block or k + 1 == limit:
            return k, max(1, block // max(inner, 1))
    return 0, 1


class _Unblockable(Exception):
    pass


def _axis_maps(plan, shapes, frame):
    maps = {}
    for n in plan.nodes:
        shape = shapes[n.id]
        if shape is None:
            maps[n.id] = None
        elif n.kind == "arg":
            maps[n.id] = tuple(range(len(frame) - len(shape), len(frame)))
        elif n.kind == "reduce":
            source = maps[n.args[0].id]
            axes = _reduced_axes(len(source), n.kwargs)
            keep = n.kwargs.get("keepdims")
            maps[n.id] = tuple(m for i, m in enumerate(source) if keep or i not in axes)
        else:
            maps[n.id] = _broadcast_map(n, shapes, maps)
    return maps


def _broadcast_map(n, shapes, maps):
    """An elementwise node's frame axes: its operands', right-aligned, where
    they are longer than 1; operands that disagree cannot be blocked."""
    ndim = len(shapes[n.id])
    result = [None] * ndim
    for a in n.args:
        if not isinstance(a, Proxy) or shapes[a.id] is None:
            continue
        offset = ndim - len(shapes[a.id])
        for i, (m, length) in enumerate(zip(maps[a.id], shapes[a.id], strict=True)):
            if length == 1:
                continue
            if result[offset + i] not in (None, m):
                raise _Unblockable("operands' axes run along different frame axes")
            result[offset + i] = m
    return tuple(result)


def block_elements(plan, block=None):
    """Elements a block: block, else BLOCK_BYTES of the graph's widest type."""
    if block:
        return block
    found = plan.__dict__.get("_block")
    if found is None:
        widest = max(n.dtype.itemsize for n in plan.nodes if n.dtype is not None)
        found = plan._block = max(1024, BLOCK_BYTES // widest)
    return found


def _pool(workers):
    """The threads that take blocks beside the caller's, made once (a
    thread's start costs about a block's work)."""
    pools = _pool.__dict__.setdefault("made", {})
    if workers not in pools:
        # Imported here: importing usmarray stays as quick as it was.
        import concurrent.futures

        pools[workers] = concurrent.futures.ThreadPoolExecutor(
            workers, thread_name_prefix="usmarray-fuse"
        )
    return pools[workers]


def _map_blocks(layout, fn, threads):
    """fn of each block, in the blocks' order; the blocks split into
    contiguous runs, one a thread (the extension's calls on a block release
    the GIL)."""
    blocks = list(layout.blocks())
    if threads < 2 or len(blocks) < 2 * threads:
        return [fn(b) for b in blocks]
    step = -(-len(blocks) // threads)
    runs = [blocks[i : i + step] for i in range(0, len(blocks), step)]
    pool = _pool(threads - 1)
    others = [pool.submit(lambda run: [fn(b) for b in run], run) for run in runs[1:]]
    first = [fn(b) for b in runs[0]]
    return first + [r for f in others for r in f.result()]


def evaluate_blocked(plan, args, block=None, threads=None):
    """The graph over the frame's blocks: each block's chain of eager calls
    on block views, so its temporaries stay in cache."""
    block = block_elements(plan, block)
    program = plan.host_program
    if program is not None and (
        type(program) is not _fuse_kernel.Stages or _passes_take(plan, args, block)
    ):
        result = _run_host_program(plan, args)
        if result is not None:
            return result
        try:
            return _in_blocks(plan, args, block, threads)
        except Exception:
            # the arguments' error (another queue, shapes that do not
            # broadcast), which the host's call took for a refusal of the
            # graph: the program stays for the signature's later calls
            plan.host_program = program
            raise
    return _in_blocks(plan, args, block, threads)


def _in_blocks(plan, args, block, threads):
    """evaluate_blocked's blocks, once the host's own call of the graph has
    not run it."""
    threads = THREADS if threads is None else threads
    used = _used_args(plan, args)
    shapes = {a.shape for a in used}
    if len(shapes) == 1 and math.prod(next(iter(shapes))) <= block:
        # One block of arrays that do not broadcast: no layout to plan.
        return evaluate_whole(plan, args)
    try:
        layout = _Layout(plan, args, block)
    except _Unblockable:
        return evaluate_whole(plan, args)
    if math.prod(layout.frame) <= block or not all(_contiguous(a) for a in used):
        return evaluate_whole(plan, args)
    known = {n.id: args[n.index] for n in plan.nodes if n.index is not None}
    for n in plan.nodes:
        if n.kind == "pyop":
            known[n.id] = _compute(n, [known[a.id] if isinstance(a, Proxy) else a for a in n.args])
    for n in plan.nodes:
        if n.kind == "reduce" and not layout.is_local(n) and n.id not in known:
            known[n.id] = _global_reduction(plan, layout, known, n, threads)
    out = plan.output
    if out.id in known or not layout.shapes[out.id]:
        if out.id not in known:
            return _whole_value(plan, known, out)
        return known[out.id]
    # On the arguments' own queue, as the eager calls' results are.
    result = _ua.empty(layout.shapes[out.id], dtype=out.dtype, queue=args[_first_array(plan)].queue)
    program = _BlockProgram(plan, layout, known, out)
    axes, whole = layout.block_axes(out.id), slice(None)

    def write(blk):
        dst = result[tuple(whole if m is None else blk[m] for m in axes)]
        values = program.run(blk, dst)
        if values is not None:
            dst[...] = values

    _map_blocks(layout, write, threads)
    return result


def _used_arrays(plan):
    """The array arguments' nodes that the result reads, in their order (an
    argument the function leaves unused, or reads only for values the
    result does not need, takes no part in its shapes, layouts or queue)."""
    found = plan.__dict__.get("_used")
    if found is None:
        reached = _fuse_kernel._reachable(plan.output)
        found = plan._used = [n for n in reached if n.kind == "arg"]
    return found


def _used_args(plan, args):
    return [args[n.index] for n in _used_arrays(plan)]


def _first_array(plan):
    return _used_arrays(plan)[0].index


def _contiguous(a):
    return not isinstance(a, _ua.USMArray) or a.flags.c_contiguous


def _global_reduction(plan, layout, known, n, threads):
    """A reduction over a blocked axis: of all axes, per-block partial
    results combined (in another summation order); else on the whole
    operand."""
    operand = n.args[0]
    full = len(_reduced_axes(len(layout.shapes[operand.id]), n.kwargs)) == len(
        layout.shapes[operand.id]
    )
    name = n.op.__name__
    if not full or not layout.spans_blocks(operand.id) or math.prod(layout.shapes[operand.id]) == 0:
        whole = _whole_value(plan, known, operand)
        return n.op(whole, **n.kwargs)
    partial_op = _ua.sum if name == "mean" else n.op
    partial_kwargs = {k: v for k, v in n.kwargs.items() if k == "dtype"}
    program = _BlockProgram(plan, layout, known, operand)
    partials = _map_blocks(
        layout,
        lambda blk: partial_op(program.run(blk), **partial_kwargs),
        threads,
    )
    stacked = _ua.stack(partials)
    if name == "mean":
        total = _ua.sum(stacked) / math.prod(layout.shapes[operand.id])
    else:
        total = partial_op(stacked, **partial_kwargs)
    if total.dtype != n.dtype:
        total = _ua.astype(total, n.dtype)
    if n.kwargs.get("keepdims"):
        total = _ua.reshape(total, (1,) * len(layout.shapes[operand.id]))
    return total


def _whole_value(plan, known, target):
    """target's value computed on the whole arrays, from what it needs."""
    values = {}
    for n, dead in _schedule(plan, known, target):
        values[n.id] = known[n.id] if n.id in known else _compute(n, _operands(n, values))
        for d in dead:
            del values[d]
    return values[target.id]


def _operands(n, values):
    return [values[a.id] if isinstance(a, Proxy) else a for a in n.args]


class _BlockProgram:
    """target's chain of calls for one block, prepared once a pass so that a
    block costs little Python beyond its calls: the known values' views,
    then each call, its temporaries dropped after their last use so the
    block's working set stays small."""

    def __init__(self, plan, layout, known, target):
        self.target = target.id
        self.constants, self.leaves, self.steps = {}, [], []
        for n, dead in _schedule(plan, known, target):
            if n.id in known and (n.dtype is None or not layout.shapes[n.id]):
                self.constants[n.id] = known[n.id]  # a scalar or a 0-d array
            elif n.id in known:
                self.leaves.append((n.id, known[n.id], layout.block_axes(n.id)))
            else:
                operands = tuple(
                    (True, a.id) if isinstance(a, Proxy) else (False, a) for a in n.args
                )
                kwargs = n.kwargs if n.kind == "reduce" else {}
                self.steps.append((n.id, n.op, operands, kwargs, tuple(dead)))
        self.into = self._result_writer(layout)
        # The calls a block makes before the one that writes the result's
        # block, and that one's operands.
        self.steps_before_into = self.steps[:-1] if self.into else self.steps
        self.into_operands = self.steps[-1][2] if self.into else ()

    def _result_writer(self, layout):
        """The namespace's function that the last call is, where it writes
        the result's block itself (out=): no temporary and no copy of it
        into the result.  That needs an elementwise function without
        keywords whose operands make the target's shape; blocks slice every
        node along the same frame axes, so the whole operands' shapes decide
        it for every block, once a pass."""
        last = self.steps[-1] if self.steps and self.steps[-1][0] == self.target else None
        if last is None or last[3]:
            return None
        name = _fuse_kernel._OPERATORS.get(last[1]) or getattr(last[1], "__name__", "")
        if name not in _ELEMENTWISE:
            return None
        shapes = [layout.shapes[v] for node, v in last[2] if node and layout.shapes[v] is not None]
        broadcast = tuple(_ua.broadcast_shapes(*shapes)) if shapes else ()
        return getattr(_ua, name) if broadcast == layout.shapes[self.target] else None

    def run(self, blk, dst=None):
        """The target's values of the block, or None once written into dst
        (the result's block) by the last call."""
        values = dict(self.constants)
        whole = slice(None)
        for i, value, axes in self.leaves:
            values[i] = value[tuple(whole if m is None else blk[m] for m in axes)]
        writes = dst is not None and self.into is not None
        for i, op, operands, kwargs, dead in self.steps_before_into if writes else self.steps:
            values[i] = op(*[values[v] if node else v for node, v in operands], **kwargs)
            for d in dead:
                del values[d]
        if not writes:
            return values[self.target]
        self.into(*[values[v] if node else v for node, v in self.into_operands], out=dst)
        return None


def _schedule(plan, known, target):
    """The nodes target needs, in order, each with the values that die after
    it (cached per plan, known set and target)."""
    cache = plan.__dict__.setdefault("_schedules", {})
    key = (frozenset(known), target.id)
    if key in cache:
        return cache[key]
    needed, stack = set(), [target]
    while stack:
        n = stack.pop()
        if n.id in needed:
            continue
        needed.add(n.id)
        if n.id not in known:
            stack += [a for a in n.args if isinstance(a, Proxy)]
    order = [n for n in plan.nodes if n.id in needed]
    last = {}
    for i, n in enumerate(order):
        if n.id not in known:
            for a in n.args:
                if isinstance(a, Proxy):
                    last[a.id] = i
    steps = [
        (n, [d for d, j in last.items() if j == i and d != target.id]) for i, n in enumerate(order)
    ]
    cache[key] = steps
    return steps


# ---------------------------------------------------------------- the decorator


class _Plans(dict):
    """A fused function's plans by signature, which calls forget_runners
    where a plan is removed or replaced: the small calls' runners were
    made from the plans it held."""

    def __init__(self, forget_runners, plans):
        super().__init__(_checked_plans(plans))
        self._forget_runners = forget_runners

    def __setitem__(self, key, plan):
        _check_plan(key, plan)
        if key in self:
            self._forget_runners()
        super().__setitem__(key, plan)

    def setdefault(self, key, plan=None):
        if key not in self:
            _check_plan(key, plan)
        return super().setdefault(key, plan)

    def update(self, *args, **kwargs):
        super().update(_checked_plans(dict(*args, **kwargs)))
        self._forget_runners()

    def __ior__(self, other):  # type: ignore[misc]  # dict's update, in place
        self.update(other)
        return self

    def __delitem__(self, key):
        super().__delitem__(key)
        self._forget_runners()

    def pop(self, *args):
        self._forget_runners()
        return super().pop(*args)

    def popitem(self):
        self._forget_runners()
        return super().popitem()

    def clear(self):
        super().clear()
        self._forget_runners()


def _checked_plans(plans):
    if not isinstance(plans, dict):
        raise TypeError(
            f"a fused function's plans are a dict of signatures' plans, not a "
            f"{type(plans).__name__}"
        )
    for key, plan in plans.items():
        _check_plan(key, plan)
    return plans


def _check_plan(key, plan):
    if not isinstance(plan, Plan):
        raise TypeError(
            f"a fused function's plans are usmarray.fuse Plans, not a {type(plan).__name__} "
            f"(for the signature {key!r})"
        )


class Fused(_ua._FusedCalls):
    """A function traced once per signature and evaluated as a graph; see
    :func:`fuse`."""

    def __init__(self, fn, block=None, threads=None):
        if not callable(fn):
            raise TypeError(f"fuse() takes a function, not a {type(fn).__name__}")
        for name, value in (("block", block), ("threads", threads)):
            if value is not None and (type(value) is not int or value < 1):
                raise ValueError(f"fuse(): {name} must be a positive int, not {value!r}")
        functools.update_wrapper(self, fn)
        self.fn, self.block, self.threads = fn, block, threads
        # The base's table of small calls (_FusedCalls: each array's dtype,
        # shape, device and C-contiguity and each scalar's type -> what the
        # call runs, a plan's kernel or whole-array function) serves a call
        # before the signature's lookup; _call serves the others.
        self.plans = {}
        self.traces = 0

    @property
    def plans(self):
        """The plans by signature.  Removing or replacing one (or assigning
        another dict) forgets the small calls' runners too, so that every
        call runs a plan this dict holds."""
        return self._plans

    @plans.setter
    def plans(self, plans):
        self._forget()
        self._plans = _Plans(self._forget, plans)

    def plan(self, *args, **kwargs):
        """The Plan for these arguments' signature, traced on first use."""
        if kwargs:
            raise TypeError(
                f"a fused function takes its arguments by position, not {sorted(kwargs)}"
            )
        key = signature_of(args)
        found = self._plans.get(key)
        if found is None:
            self.traces += 1
            found = self._plans[key] = trace(self.fn, args, key)
        return found

    def explain(self, *args, **kwargs):
        """What a call with these arguments runs: the traced graph and the
        plan, or why the signature runs eagerly."""
        plan = self.plan(*args, **kwargs)
        text = plan.describe()
        block = block_elements(plan, self.block) if plan.fused else None
        if type(plan.host_program) is _fuse_kernel.Stages and _passes_take(plan, args, block):
            text += "\nthese arguments: the passes above"
        elif plan.fused and plan.kernel is None:
            threads = THREADS if self.threads is None else self.threads
            text += "\n" + _describe_blocks(plan, args, block_elements(plan, self.block), threads)
        return text

    def _call(self, args, kwargs):
        """A call that the small calls' table does not serve (the base's
        __call__): the signature's plan, and the runner of later calls
        with arguments of these dtypes, shapes and devices."""
        plan = self.plan(*args, **(kwargs or {}))
        run = None if kwargs else _small_runner(plan, self.fn, args, self.block, self.threads)
        if run is not None:
            self._remember(args, run)
            if type(run) is _KernelCall:
                return run(*args)
        if plan.kernel is not None:
            return _run_kernel(plan, self.fn, args)
        if not plan.fused:
            return self.fn(*args)
        return evaluate_blocked(plan, args, self.block, self.threads)

    def __reduce__(self):
        # A copy (or a pickle, where the function pickles) is the fused
        # function anew: it traces on its own first calls.
        return type(self), (self.fn, self.block, self.threads)

    def __repr__(self):
        return f"<usmarray.fuse of {self.fn!r}: {len(self._plans)} signatures>"


def _small_runner(plan, fn, args, block, threads):
    """What a call with arguments of these dtypes, shapes and devices runs
    with no more planning, where that is fixed: the plan's kernel (eager
    once the kernel refuses the graph), or on the host its one call of the
    host's loops (the blocks once that call refuses the graph), or the
    whole-array function for arrays of one shape of at most a block; else
    None."""
    if not all(type(a) is _USMArray or type(a) in _SCALAR_TYPES for a in args):
        return None
    if plan.kernel is not None:
        return _KernelCall(plan, fn)
    if plan.host_program is not None:
        return _HostCall(plan, block, threads)
    if not plan.fused:
        return None
    shapes = {a.shape for a in _used_args(plan, args)}
    if len(shapes) == 1 and math.prod(next(iter(shapes))) <= block_elements(plan, block):
        if "_whole" not in plan.__dict__:
            plan._whole = _whole_function(plan)
        return plan._whole
    return None


class _HostCall:
    """A small call's one call of the host's loops: once the program has
    parsed its expression, the extension's call on the arguments, with
    nothing between (its wrapper's tuple of operands and try took 0.4 of
    the 1.2 us of a 1,000-element call); any exception there takes the
    generic way, which gives the generic way's outcome (the blocks where
    the call refuses the graph, the eager calls' error)."""

    __slots__ = ("plan", "block", "threads", "fast")

    def __init__(self, plan, block, threads):
        self.plan, self.block, self.threads, self.fast = plan, block, threads, None

    def __call__(self, *args):
        """What the small calls' table does (_FusedCalls), in Python."""
        fast = self.fast
        if fast is not None:
            try:
                return fast(args)
            except Exception:
                pass
        return self.generic(*args)

    def generic(self, *args):
        """The generic way, after which the straight call serves again."""
        result = evaluate_blocked(self.plan, args, self.block, self.threads)
        program = self.plan.host_program  # None once the loops refused the graph
        if type(program) is _fuse_kernel.Stages:
            ready = _passes_take(self.plan, args, self.block)
            self.fast = program.runner(args) if ready else None
        else:
            ready = program is not None and program.expression is not None
            self.fast = program.runner(len(args)) if ready else None
        return result


class _KernelCall:
    """A small call's kernel, rows kernel or stages: once a call has run
    them, the next ones run them with no more checks (Program.runner,
    RowChain.runner, Stages.runner), where the generic way takes over for a call it fails
    (another layout of the same shapes, a refusal, an eager reduction's
    error), with the generic way's outcome.  Calls that fail it again and
    again (small strided arguments, which the kernel does not walk) take
    the generic way from the _FAST_MISSES-th on, where each tried it in
    vain first."""

    __slots__ = ("plan", "fn", "fast", "misses")

    def __init__(self, plan, fn):
        self.plan, self.fn, self.fast, self.misses = plan, fn, None, 0

    def __call__(self, *args):
        """What the small calls' table does (_FusedCalls), in Python."""
        fast = self.fast
        if fast is not None:
            try:
                result = fast(args)
            except Exception:
                result = NotImplemented
            if result is not NotImplemented:
                return result
        return self.generic(*args)

    def generic(self, *args):
        """The generic way, where the straight call (if any) has failed;
        it is made again unless it has failed too often (or the kernel is
        refused)."""
        if self.fast is not None:
            self.misses += 1
        result = _kernel_or_eager(self.plan, self.fn, *args)
        kernel = self.plan.kernel
        ready = kernel is not None and self.plan.kernel_ran and self.misses < _FAST_MISSES
        if not ready:
            self.fast = None
        elif type(kernel) is _fuse_kernel.Program:
            self.fast = kernel.runner(len(args))
        else:
            self.fast = kernel.runner(args)
        return result


# The failed straight calls after which a small call's signature takes the
# generic way for good.
_FAST_MISSES = 4


def _kernel_or_eager(plan, fn, *args):
    return _run_kernel(plan, fn, args) if plan.kernel is not None else fn(*args)


def _run_kernel(plan, fn, args):
    """The graph as one kernel, or as kernels between eager reductions.

    An eager reduction's error is the one the eager function raises for
    these arguments: it reaches the caller and the plan stays.  Where the
    kernel's own calls refuse, the eager calls decide: an error of theirs
    is the arguments' (a shape that does not broadcast), raised with the
    plan kept; a result means the kernel cannot compute what they do, and
    a signature whose kernel never ran runs eagerly from then on.  A device
    that runs the host's loops compiles nothing: eager for good."""
    refusal = None
    try:
        result = plan.kernel.run(args)
    except _fuse_kernel.RunEagerly:
        pass  # these arguments: the eager calls, the plan kept
    except _fuse_kernel.KernelRefused as e:
        refusal = str(e)
    else:
        if result is NotImplemented:
            plan.refuse_kernel("the device runs the host's loops, which compile nothing")
            return fn(*args)
        plan.kernel_ran = True
        return result
    # Outside the handler: the eager call's error is raised as its own, not
    # as one raised while handling the kernel's.
    result = fn(*args)
    if refusal is None:
        return result
    if not plan.kernel_ran:
        plan.refuse_kernel(f"the kernel refused the graph: {refusal}")
    return result


def _describe_blocks(plan, args, block, threads):
    try:
        layout = _Layout(plan, args, block)
    except _Unblockable as e:
        return f"stages: the whole arrays, one call at a time ({e})"
    if math.prod(layout.frame) <= block:
        return (
            f"stages: the whole arrays, one call at a time (the frame {layout.frame} fits a block)"
        )
    if not all(_contiguous(a) for a in _used_args(plan, args)):
        return "stages: the whole arrays, one call at a time (an argument is not C-contiguous)"
    lines = [
        f"frame {layout.frame}: blocks of {layout.chunk} along axis {layout.axis}"
        f" ({layout.chunk * math.prod(layout.frame[layout.axis + 1 :])} elements),"
        f" {threads} thread{'s' if threads > 1 else ''}"
    ]
    for n in plan.nodes:
        if n.kind == "reduce":
            where = "in each block" if layout.is_local(n) else _global_kind(layout, n)
            lines.append(f"  #{n.id} {n.op.__name__}: {where}")
    if plan.output.kind == "reduce" and not layout.is_local(plan.output):
        lines.append("result: the last reduction's")
    else:
        lines.append(f"result: written block by block, shape {layout.shapes[plan.output.id]}")
    return "\n".join(lines)


def _global_kind(layout, n):
    operand = n.args[0].id
    ndim = len(layout.shapes[operand])
    if len(_reduced_axes(ndim, n.kwargs)) == ndim and layout.spans_blocks(operand):
        return "a pass of its own, per-block partial results combined"
    return "on the whole operand (it reduces a blocked axis)"


def fuse(fn=None, *, block=None, threads=None):
    """A function of usmarray arrays evaluated as one fused expression.

    ``fuse(f)`` or ``@fuse`` (``@fuse(block=n, threads=t)`` for another
    block size in elements or number of threads)
    traces ``f`` once per signature of its arguments (each array's dtype,
    number of dimensions, axes of length 1 and device; each Python or NumPy
    scalar's type) into a graph of the namespace's elementwise functions, operators,
    ``where``, ``astype``, ``clip`` and the reductions ``sum``, ``prod``,
    ``max``, ``min``, ``mean``, ``any`` and ``all``.  On the host the graph
    runs in blocks that stay in cache; elementwise results equal the eager
    ones bit for bit, reductions over blocks sum in another order.  What
    cannot be traced (control flow on values, indexing, other functions)
    runs eagerly; ``explain(*args)`` gives the plan or the reason.
    """
    if fn is None:
        return functools.partial(fuse, block=block, threads=threads)
    return Fused(fn, block, threads)
