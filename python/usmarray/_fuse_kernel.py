"""``usmarray.fuse`` on a device that compiles kernels: a traced graph of
elementwise calls run as one kernel (``_usmarray._fused_elementwise``).

A graph qualifies where every array argument has one dtype T (an integer
type, float32 or float64), every node computes in T, giving T or, for a
comparison or a test of values, bool that only ``where`` reads as its
condition, and at most three arguments are read.  The kernel evaluates the
catalogue's expressions of the eager calls in T, so its results are the
eager ones bit for bit; what does not qualify runs as the eager calls."""

import functools
import math
import operator

from . import _usmarray as _ua  # type: ignore[attr-defined]

# The operators' catalogue names.
_OPERATORS = {
    operator.add: "add",
    operator.sub: "subtract",
    operator.mul: "multiply",
    operator.truediv: "divide",
    operator.floordiv: "floor_divide",
    operator.mod: "remainder",
    operator.pow: "pow",
    operator.and_: "bitwise_and",
    operator.or_: "bitwise_or",
    operator.xor: "bitwise_xor",
    operator.lshift: "bitwise_left_shift",
    operator.rshift: "bitwise_right_shift",
    operator.eq: "equal",
    operator.ne: "not_equal",
    operator.lt: "less",
    operator.le: "less_equal",
    operator.gt: "greater",
    operator.ge: "greater_equal",
    operator.neg: "negative",
    operator.pos: "positive",
    operator.abs: "abs",
    operator.invert: "bitwise_invert",
}
_PREDICATES = frozenset(
    {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
     "isnan", "isinf", "isfinite", "signbit"}
)  # fmt: skip
_TYPES = frozenset(
    {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
     "float32", "float64"}
)  # fmt: skip
_CONSTANTS = (bool, int, float)
_INPUT, _NODE, _CONSTANT, _ROW = 0, 0x100, 0x200, 0x300
_MAX_NODES, _MAX_CONSTANTS, _MAX_OPERANDS = 64, 32, 3
_MAX_PHASES = 4  # a chain's phases: its reductions and its result


class Unfusable(Exception):
    """Why a graph does not run as one kernel."""


class RunEagerly(Exception):
    """This call runs the eager calls, and the plan stays: a row chain
    without stages, called with arguments its kernel does not walk."""


class KernelRefused(Exception):
    """The kernel's own call (its expression's parse or its launch)
    refused the graph or these operands; an eager call between kernels
    raises its own error instead, the arguments' error as eagerly."""


# What the kernel's calls raise where they refuse: the checks of the graph
# and the operands (TypeError, ValueError) and a failed compile or launch.
_REFUSALS = (TypeError, ValueError, RuntimeError)


class Program:
    """The kernel's description: nodes (name, operand references), the
    constants, which arguments are its operands and the dtype it computes
    in."""

    def __init__(self, nodes, constants, slots, dtype, names=None):
        self.nodes, self.constants = tuple(nodes), tuple(constants)
        self.slots, self.dtype = tuple(slots), dtype
        # each operand's name in describe(): "argument i", or a stage's "#id"
        self.names = names or tuple(f"argument {i}" for i in slots)
        self.expression = None  # parsed by the binding on the first run

    def run(self, args):
        """The result (on a device that runs the host's loops, their run of
        each node over blocks in L1); args[slot] is each operand (the
        arguments, or a stage's values by node id).  KernelRefused where
        the kernel's calls refuse the graph or the operands."""
        operands = tuple([args[i] for i in self.slots])
        try:
            return _ua._fused_elementwise(self.parsed(), operands)
        except _REFUSALS as e:
            raise KernelRefused(str(e)) from e

    def parsed(self):
        """The binding's parse of the expression, made on the first call
        (its refusal raised as the binding's error)."""
        if self.expression is None:
            self.expression = _ua._fused_expression(self.nodes, self.constants, self.dtype)
        return self.expression

    def runner(self, nargs):
        """run() once its expression is parsed, for calls of nargs
        arguments, without its checks: the extension's call, whose own
        refusals reach the caller as they are."""
        return functools.partial(_ua._fused_elementwise, self.picking(nargs))

    def picking(self, nargs):
        """The parsed expression for calls on a tuple of nargs items of
        which its operands are the slots' (where those are not all the
        items in order, an expression that picks them: the binding's
        pick took a fifth of a Python one's time)."""
        if self.slots == tuple(range(nargs)):
            return self.expression
        return _ua._fused_expression(self.nodes, self.constants, self.dtype, 0, self.slots)

    def describe(self):
        """The kernel's nodes, its operands named by their arguments."""
        lines = [f"one kernel of {len(self.nodes)} nodes in {self.dtype}"]
        lines += _describe_nodes(self.nodes, self.constants, self.names, "  ")
        return "\n".join(lines)


def _describe_nodes(nodes, constants, names, indent):
    """A line for each node: its function and its operands, named (an
    argument's name from names, a chain's row value, a constant, k<j> an
    earlier node)."""

    def name(ref):
        if ref >= _ROW:
            return f"row value {ref - _ROW}"
        if ref >= _CONSTANT:
            return repr(constants[ref - _CONSTANT])
        if ref >= _NODE:
            return f"k{ref - _NODE}"
        return names[ref]

    return [
        f"{indent}k{i} = {f}({', '.join(name(r) for r in refs)})"
        for i, (f, refs) in enumerate(nodes)
    ]


def _name_of(n):
    if n.kind != "ew":
        raise Unfusable(f"#{n.id} is a {n.kind} node (reductions and scalar arithmetic run apart)")
    name = _OPERATORS.get(n.op) or getattr(n.op, "__name__", None)
    if name in (None, "_astype", "_clip"):
        raise Unfusable(f"#{n.id} {n.label()} is not one catalogue function")
    return name


def _reachable(output, stop=()):
    """The nodes the output reads, in the trace's (a topological) order; a
    node of a kind in stop is read but not looked through."""
    seen, todo = {}, [output]
    while todo:
        n = todo.pop()
        if n.id not in seen:
            seen[n.id] = n
            if n is output or n.kind not in stop:
                # (a node's other arguments are constants: Python's, or
                # NumPy scalars that the builder refuses)
                todo += [a for a in n.args if hasattr(a, "kind")]
    return [seen[i] for i in sorted(seen)]


class _Builder:
    def __init__(self, dtype, staged=False):
        self.dtype = str(dtype)
        self.integer = self.dtype != "float32" and self.dtype != "float64"
        self.nodes, self.constants, self.slots, self.names = [], [], [], []
        self.ref = {}  # node id -> reference
        self.staged = staged

    def constant(self, value):
        if type(value) not in _CONSTANTS:
            raise Unfusable(f"the constant {value!r} is not a Python bool, int or float")
        if self.integer and type(value) is int:
            info = _ua.iinfo(self.dtype)
            if not info.min <= value <= info.max:
                raise Unfusable(f"the constant {value} is outside {self.dtype}")
        for i, c in enumerate(self.constants):
            # 0.0 and -0.0 are equal, and distinct constants
            if type(c) is type(value) and c == value and repr(c) == repr(value):
                return _CONSTANT + i
        if len(self.constants) == _MAX_CONSTANTS:
            raise Unfusable(f"more than {_MAX_CONSTANTS} constants")
        self.constants.append(value)
        return _CONSTANT + len(self.constants) - 1

    def argument(self, n):
        """An operand: an argument (its index a slot), or in a stage the
        value of a reduction before it (its node id a slot)."""
        if n.kind == "scalar" and (self.integer or n.pytype not in (bool, int, float)):
            raise Unfusable(f"scalar argument {n.index} in a {self.dtype} computation")
        if n.kind in ("arg", "reduce") and str(n.dtype) != self.dtype:
            what = f"argument {n.index}" if n.kind == "arg" else f"#{n.id} {n.label()}"
            raise Unfusable(f"{what} is {n.dtype}, not {self.dtype}")
        if n.kind == "reduce" and not self.staged:
            raise Unfusable(f"#{n.id} is a reduction")
        if len(self.slots) == _MAX_OPERANDS:
            raise Unfusable(f"more than {_MAX_OPERANDS} arguments are read")
        self.slots.append(n.id if self.staged else n.index)
        self.names.append(f"#{n.id}" if n.kind == "reduce" else f"argument {n.index}")
        return _INPUT + len(self.slots) - 1

    def operand(self, a):
        if not hasattr(a, "kind"):
            return self.constant(a)  # Unfusable unless Python's
        if a.id not in self.ref:
            self.ref[a.id] = self.argument(a)
        return self.ref[a.id]

    def node(self, n):
        name = _name_of(n)
        if str(n.dtype) != self.dtype and not (str(n.dtype) == "bool" and name in _PREDICATES):
            raise Unfusable(f"#{n.id} {n.label()} gives {n.dtype}, not {self.dtype}")
        args = list(n.args)
        if name == "pow" and isinstance(args[1], _CONSTANTS) and args[1] == 2:
            name, args = "multiply", [args[0], args[0]]  # the eager x ** 2
        elif name == "pow" and getattr(args[1], "kind", None) == "scalar":
            raise Unfusable(f"#{n.id}: the exponent is a scalar argument")
        refs = tuple(self.operand(a) for a in args)
        if len(self.nodes) == _MAX_NODES:
            raise Unfusable(f"more than {_MAX_NODES} nodes")
        self.nodes.append((name, refs))
        self.ref[n.id] = _NODE + len(self.nodes) - 1


def program_of(plan, compiles=True):
    """The Program of plan's graph, or where it holds reductions its
    Stages (for a device that compiles kernels, else the host's loops);
    Unfusable with the reason."""
    if plan.nodes is None:
        raise Unfusable("no traced graph")
    arrays = [n for n in plan.nodes if n.kind == "arg"]
    dtypes = {str(n.dtype) for n in arrays}
    if len(dtypes) != 1 or not dtypes <= _TYPES:
        raise Unfusable(f"the arrays' dtypes {sorted(dtypes)} are not one of {sorted(_TYPES)}")
    dtype = dtypes.pop()
    if any(n.kind == "reduce" for n in _reachable(plan.output)):
        try:
            stages = Stages(plan, dtype, compiles)
        except Unfusable:
            # the chain counts its reductions as no arguments
            chain = RowChain.of(plan, None, dtype)
            if chain is None:
                raise
            return chain
        return RowChain.of(plan, stages, dtype) or stages
    b = _Builder(dtype)
    for n in _reachable(plan.output):
        if n.kind not in ("arg", "scalar"):
            b.node(n)
    if not b.nodes:
        raise Unfusable("the result is an argument")
    return Program(b.nodes, b.constants, b.slots, b.dtype)


def _stage_program(sink, dtype):
    """The kernel of the elementwise nodes that sink reads back to the
    arguments and the reductions before it, or None where sink is itself
    an argument or a reduction's value."""
    if sink.kind in ("arg", "scalar", "reduce"):
        return None
    b = _Builder(dtype, staged=True)
    for n in _reachable(sink, stop=("reduce",)):
        if n.kind not in ("arg", "scalar", "reduce"):
            b.node(n)
    return Program(b.nodes, b.constants, b.slots, b.dtype, tuple(b.names))


def _argument_program(arg, dtype):
    """The kernel of an argument's values as they are, or None where it is
    not of the dtype."""
    b = _Builder(dtype, staged=True)
    try:
        b.nodes.append(("positive", (b.operand(arg),)))
    except Unfusable:
        return None
    return Program(b.nodes, b.constants, b.slots, b.dtype, tuple(b.names))


# Reductions that one kernel computes from a stage's values.
_FUSED_REDUCTIONS = frozenset({"sum", "mean", "max", "min"})
# The shortest row a kernel reduces: on CUDA a warp takes a short row (32
# threads), elsewhere a group of 256; shorter rows take the stage's kernel
# and the eager reduction.
_SHORTEST_ROW = {"cuda": 32}
_SHORTEST_GROUP_ROW = 256
# The host's loops: a row's walk costs about 27 ns besides its values, so
# that rows of 16 took as long as the eager calls (a million of them) and
# rows of 64 under half their time.
_SHORTEST_LOOPS_ROW = 32


def _row_too_short(arrays, row, loops=False):
    """Whether rows of `row` elements of these arrays are shorter than the
    kernel (or the host's loops) takes on their device."""
    if loops:
        return row < _SHORTEST_LOOPS_ROW
    return row < _SHORTEST_ROW.get(arrays[0].device.backend, _SHORTEST_GROUP_ROW)


_ROWS_WORDS = (
    "a group a row, on CUDA a warp a short row; rows shorter than 256 (32 on CUDA) "
    "or not dense in C order"
)


def _reduced_axes(n):
    """The axes reduction n reduces, sorted and non-negative, or None
    where its axis argument is not an int, a tuple of them or None."""
    ndim = n.args[0].ndim
    axis = n.kwargs.get("axis")
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if type(axis) is int else axis
    if not isinstance(axes, tuple) or not all(type(a) is int and -ndim <= a < ndim for a in axes):
        return None
    axes = sorted(a % ndim for a in axes)
    return tuple(axes) if len(set(axes)) == len(axes) else None


def _broadcast_shape(shapes):
    """The shapes broadcast together, or None where they do not."""
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for s in shapes:
        for k, n in enumerate(s, ndim - len(s)):
            if n != 1 and out[k] not in (1, n):
                return None
            out[k] = n if n != 1 else out[k]
    return tuple(out)


# The most values a reduction of all axes takes as one row of the rows'
# kernel (a group, or on CUDA a warp up to 1,024, reduces them).
_ONE_ROW = 32768


class FusedReduction:
    """A reduction of a stage's values in one kernel that computes and
    reduces them (``_usmarray._fused_reduce``: in double, sums
    compensated), so the values are never written: of all axes, its
    groups' partials then reduced by a second launch of the kernel; or of
    the last axes (rows in C
    order, ``first`` the first of them), a group a row, each row's value
    written as the stage's dtype.  Arrays of the values' shape, or of one
    element a row (a kept-dims reduction before it: softmax's maximum),
    dense in one memory order (C for rows), with elements; other operands
    take the stage's kernel and the eager reduction.  On the host, whose
    loops reduce all the values, or rows of them in C order, in one pass
    of any layout, the arrays may broadcast, and post runs after."""

    def __init__(self, node, program, first=0):
        self.node, self.program, self.first = node, program, first
        self.name = node.op.__name__
        self.keepdims = bool(node.kwargs.get("keepdims", False))
        # the result's elementwise work on the reduction's value alone (row
        # norms' square root): a Program the rows' kernel runs on each
        # row's value before writing it, or that runs after the reduction
        self.post = None
        # why the device refused the reduction's kernel (a device without
        # doubles, a group it cannot run), after which the stage runs
        self.refused = None
        # the node id of the argument whose values the program reads as
        # they are (the variance's mean of x), whose staged way is the
        # eager reduction of the argument itself; else None
        self.argument = None

    def _walks(self, values):
        """Whether the kernel may walk the values: an argument read as it
        is must be dense in one memory order (a strided one takes the
        eager reduction without a refused call of the kernel first)."""
        if self.argument is None:
            return True
        a = values[self.argument]
        return not isinstance(a, _ua.USMArray) or a.flags.c_contiguous or a.flags.f_contiguous

    def run(self, values):
        if not self._walks(values):
            return self._staged(values)
        if not self.refused and self.program.expression is None:
            try:
                self.program.parsed()
            except ValueError:
                return self._staged(values)
            except (TypeError, RuntimeError) as e:
                self.refused = str(e)
                return self._staged(values)
        # up to _ONE_ROW values as one row (the rows' kernel: C order), else
        # the groups' partials (any one memory order)
        for one_row in (True, False):
            fast = self.runner(values, one_row)
            if fast is None:
                return self._staged(values)
            try:
                return fast(values)
            except ValueError:
                if not fast.one_row:
                    return self._staged(values)  # a layout the kernel does not walk
            except (TypeError, RuntimeError) as e:
                # the stage's own kernel and the eager reduction still serve
                self.refused = str(e)
                return self._staged(values)
        return self._staged(values)

    def runner(self, values, one_row=True):
        """For values of these dtypes, shapes and devices: the kernel's call
        with run()'s checks made once, a function of the values (its
        one_row saying whether it takes them as one row); None where the
        values take the stage's kernel and the eager reduction.  Up to
        _ONE_ROW values of all axes (one_row) are one row of the rows'
        kernel, one launch; more take two launches of the values' kernel
        (its groups' partials, then their value), where eager calls of the
        partials' sum, conversion and division each compiled a kernel more
        on a first call.  Both write the result as the dtype (a mean's sum
        as the dtype, then divided, as the eager mean)."""
        found = None
        if not self.refused and self.program.expression is not None and self._walks(values):
            found = self._operands(values)
        if found is None:
            return None
        shape, operands = found
        size = math.prod(shape)
        row = math.prod(shape[self.first :]) if self.first else 0
        arrays = [a for a in operands if isinstance(a, _ua.USMArray)]
        one_row = one_row and not row and size <= _ONE_ROW
        # the host's loops walk the operands as they are, broadcast too,
        # and take no expression after the value (it runs after)
        loops = _ua._runs_host_loops(arrays[0].device)
        # one row is C order; the groups' partials walk any one order
        dense_c = all(a.flags.c_contiguous for a in arrays if a.shape == shape)
        one_row = one_row and (loops or dense_c)
        ones = (1,) * len(shape)
        plan = []  # (slot, the shape its value is read as: None, a shape, float)
        for slot, given, used in zip(
            self.program.slots, map(values.get, self.program.slots), operands
        ):
            if isinstance(given, _ua.USMArray) and not isinstance(used, _ua.USMArray):
                plan.append((slot, float))  # a row's one element, read to the host
            elif not isinstance(used, _ua.USMArray):
                plan.append((slot, None))  # a Python scalar, read as it is
            elif one_row and not loops and used.shape != shape:
                plan.append((slot, ones))  # one element: the row's one
            else:
                plan.append((slot, used.shape if used.shape != given.shape else None))
        call, expression, dtype = _ua._fused_reduce, self.program.expression, self.program.dtype
        name = self.name
        rows = size if one_row else row
        post = None if loops else self._post_expression()
        after = self.post.run if self.post is not None and post is None else None
        post_key = self.node.id
        kept = len(shape) - self.first if row else len(shape)
        shaped = shape[: self.first if row else 0] + ((1,) * kept if self.keepdims else ())

        def read(value, to):
            if to is float:
                return float(_ua.reshape(value, ()))
            return value if to is None else _ua.reshape(value, to)

        def run(values):
            operands = tuple([read(values[s], to) for s, to in plan])
            result = call(expression, operands, name, rows, post, shaped)
            if result is NotImplemented or after is None:
                return result
            return after({post_key: result})

        run.one_row = one_row

        def straight(position):
            """run() as one call of the binding on the arguments' tuple,
            position mapping the values' node ids to their indices: where
            the kernel (or the host's loops) reduce the arguments as they
            are into the rows' values that nothing follows but post (a
            small call's sum((x - y) ** 2), row norms: on the host its
            stages' Python took 1.4 us of 2.6); else None."""
            if after is not None:
                return None
            if any(to is not None or s not in position for s, to in plan):
                return None
            picking = _ua._fused_expression(
                self.program.nodes,
                self.program.constants,
                dtype,
                0,
                tuple(position[s] for s, _ in plan),
            )
            return lambda args: call(picking, args, name, rows, post, shaped)

        run.straight = straight

        def arguments(values):
            """run()'s call as ``_fused_prepare`` takes it (its kind and
            arguments), or None where an operand is a row's one element
            read to the host, which the values stood in for cannot give."""
            if any(to is float for _, to in plan):
                return None
            operands = tuple([read(values[s], to) for s, to in plan])
            return ("reduce", (expression, operands, name, rows, post, shaped))

        run.arguments = arguments
        return run

    def _operands(self, values):
        """The values' shape and the kernel's operands: arrays of that
        shape, with elements, one element a row where rows are reduced,
        and a reduction's value before it of one element (the variance's
        mean) as the Python float it holds; None where the arrays are
        otherwise or the rows are short."""
        operands = [values[i] for i in self.program.slots]
        arrays = [a for a in operands if isinstance(a, _ua.USMArray)]
        shape = _broadcast_shape([a.shape for a in arrays])
        if not arrays or shape is None or len(shape) != self.node.args[0].ndim:
            return None
        per_row = shape[: self.first] + (1,) * (len(shape) - self.first)
        # the host's loops walk any layout of the values, broadcast too
        loops = _ua._runs_host_loops(arrays[0].device)
        for k, a in enumerate(operands):
            if isinstance(a, _ua.USMArray) and a.shape != shape:
                if a.size == 1 and not self.first:
                    # read once by the kernel from the device's memory: a
                    # host scalar would wait for the device
                    operands[k] = _ua.reshape(a, ())
                elif a.size == 1:
                    operands[k] = float(_ua.reshape(a, ()))
                elif not loops and (not self.first or a.shape != per_row):
                    return None
        if not loops and not any(
            isinstance(a, _ua.USMArray) and a.shape == shape for a in operands
        ):
            return None
        row = math.prod(shape[self.first :])
        if 0 in shape or (self.first and _row_too_short(arrays, row, loops)):
            return None
        return shape, tuple(operands)

    def _staged(self, values):
        if self.argument is not None:
            value = self.node.op(values[self.argument], **self.node.kwargs)
            return value if self.post is None else self.post.run({self.node.id: value})
        value = self.program.run(values)
        if value is NotImplemented:
            return NotImplemented
        value = self.node.op(value, **self.node.kwargs)
        return value if self.post is None else self.post.run({self.node.id: value})

    def _post_expression(self):
        """The post Program's parsed expression, for the rows' kernel;
        None where there is none or it does not parse (the Program then
        runs after, and refuses as a stage's kernel would)."""
        try:
            return None if self.post is None else self.post.parsed()
        except _REFUSALS:
            return None

    def describe(self):
        body = self.program.describe().replace("\n", "\n  ")
        where = "in the kernel of its values"
        if self.refused:
            where = f"as the stage's kernel and the eager call (the device refused: {self.refused})"
        axes = "all axes"
        if self.first:
            axes = (
                f"rows (axes {self.first} and on, {_ROWS_WORDS} as the stage's kernel and "
                "the eager call)"
            )
        text = f"{self.name} of {axes} {where}, {body}"
        if self.post is not None:
            after = self.post.describe().replace("\n", "\n  ")
            text += (
                f"\n  then on its value, in its kernel where that compiles, else after it: {after}"
            )
        return text


def _fused_reduction(n, kernel, stage_readers):
    """Reduction n with the stage kernel before it as one FusedReduction,
    or None: a float stage whose values nothing else reads (later stages
    compute their elementwise nodes again), reduced over all axes or over
    its last axes."""
    axes = _reduced_axes(n)
    ndim = n.args[0].ndim
    fits = (
        # a reduction of a fused reduction's value (a max of row minima)
        # takes the eager call
        type(kernel) is Program
        and kernel.dtype in ("float32", "float64")
        and str(n.args[0].dtype) == kernel.dtype
        and n.op.__name__ in _FUSED_REDUCTIONS
        and set(n.kwargs) <= {"axis", "keepdims"}
        and axes
        and axes == tuple(range(axes[0], ndim))
        and stage_readers.get(n.args[0].id) == {n.id}
    )
    return FusedReduction(n, kernel, axes[0]) if fits else None


class Stages:
    """A graph with reductions on a device that compiles kernels: each
    reduction's operand and the result are the kernels of the elementwise
    nodes before them (one pass each, no temporary between its nodes),
    and the reductions are the eager calls between the kernels, so the
    results are the eager ones bit for bit; but a sum, mean, max or min of
    all axes or of the last axes of a kernel's values runs in that kernel
    (FusedReduction), whose sums add in another order."""

    def __init__(self, plan, dtype, compiles=True):
        self.steps = []  # (node, Program or None)
        for n in _reachable(plan.output):
            if n.kind == "reduce":
                if len(n.args) != 1:
                    raise Unfusable(f"#{n.id} {n.label()} reads more than one array")
                self.steps.append((n.args[0], _stage_program(n.args[0], dtype)))
                self.steps.append((n, None))
            elif n.kind not in ("arg", "scalar", "ew"):
                raise Unfusable(f"#{n.id} is a {n.kind} node (scalar arithmetic runs apart)")
        if plan.output.kind != "reduce":
            self.steps.append((plan.output, _stage_program(plan.output, dtype)))
        # each value once: a reduction read by another is not run again
        seen = set()
        self.steps = [
            (n, k)
            for n, k in self.steps
            if (k is not None or n.kind == "reduce") and not (n.id in seen or seen.add(n.id))
        ]
        self.steps = self._fuse_reductions(plan, self.steps, dtype if compiles else None)
        self.inputs = [n for n in plan.nodes if n.kind in ("arg", "scalar")]
        self.output = plan.output
        self.ahead = False  # whether the first call compiled the kernels ahead

    @staticmethod
    def _fuse_reductions(plan, steps, dtype):
        """Each reduction whose operand is a stage's kernel that no other
        reduction reads and that is not the result, with that kernel, as
        one FusedReduction; and, given the dtype of a device that compiles
        kernels, a reduction of all of an argument's values that a later
        stage reads (the variance's mean) in a kernel of its own, where
        the eager reduction's first call compiled a program of its own
        beside the fused kernels (on the H100, 147 ms against about 60;
        the host's loops compile nothing, and its eager reduction keeps a
        small call straight)."""
        readers = {}  # a stage's values are read by reductions and the result
        for n in plan.nodes:
            for a in n.args:
                if not isinstance(a, _CONSTANTS) and a is not None and n.kind == "reduce":
                    readers.setdefault(a.id, set()).add(n.id)
        readers.setdefault(plan.output.id, set()).add(None)
        fused = []
        for n, kernel in steps:
            before = fused[-1] if fused else (None, None)
            together = None
            if n.kind == "reduce" and kernel is None and before[0] is n.args[0]:
                together = _fused_reduction(n, before[1], readers)
            if together is not None:
                fused[-1] = (n, together)
            elif (
                dtype is not None
                and n.kind == "reduce"
                and kernel is None
                and n.args[0].kind == "arg"
                and n is not plan.output
                and len(_reduced_axes(n)) == n.args[0].ndim
            ):
                reads = _argument_program(n.args[0], dtype)
                together = reads and _fused_reduction(n, reads, readers)
                if together:
                    together.argument = n.args[0].id
                fused.append((n, together or None))
            elif (
                n is plan.output
                and isinstance(before[1], FusedReduction)
                and before[1].post is None
                and isinstance(kernel, Program)
                and kernel.slots == (before[0].id,)
                and kernel.dtype == before[1].program.dtype
                and str(n.dtype) == kernel.dtype
            ):
                # the result is elementwise work on the reduction's value
                # alone: each row's value goes through it in the kernel
                before[1].post = kernel
                fused[-1] = (n, before[1])
            else:
                fused.append((n, kernel))
        return fused

    def run(self, args):
        """The result, or NotImplemented where a kernel's call answers so
        (a device that neither compiles nor runs the host's loops);
        KernelRefused where a kernel's calls refuse, and an eager
        reduction's own error (one the eager function raises for these
        arguments) as it is."""
        values = {n.id: args[n.index] for n in self.inputs}
        if not self.ahead:
            self.ahead = True
            self._compile_ahead(values)
        for n, kernel in self.steps:
            if kernel is not None:
                value = kernel.run(values)
                if value is NotImplemented:
                    return NotImplemented
            else:
                value = n.op(values[n.args[0].id], **n.kwargs)
            values[n.id] = value
        return values[self.output.id]

    def _compile_ahead(self, values):
        """Before the first call's steps run, on a device that compiles
        kernels: their kernels compiled side by side
        (``_usmarray._fused_prepare``), where each step compiled its own
        when it came to it (a variance's two fast compiles waited 71 and
        77 ms one after the other on the H100).  A step's values that a
        later step reads are stood in for by an empty array where they are
        one element (a reduction of all axes); the steps after another
        compile on their calls.  Computes nothing, and raises nothing: a
        step's own call meets and reports what fails here."""
        arrays = [v for v in values.values() if isinstance(v, _ua.USMArray)]
        if not arrays or _ua._runs_host_loops(arrays[0].device):
            return
        device, values, calls = arrays[0].device, dict(values), []
        try:
            for n, kernel in self.steps:
                if isinstance(kernel, Program):
                    operands = tuple([values[i] for i in kernel.slots])
                    calls.append(("elementwise", (kernel.parsed(), operands)))
                    break  # its values are as many as the arguments'
                if not isinstance(kernel, FusedReduction) or kernel.first:
                    break
                kernel.program.parsed()
                run = kernel.runner(values)
                call = run.arguments(values) if run is not None else None
                if call is None:
                    break
                calls.append(call)
                ndim = kernel.node.args[0].ndim
                shape = (1,) * ndim if kernel.keepdims else ()
                values[n.id] = _ua.empty(shape, dtype=n.dtype, device=device)
            if len(calls) > 1:
                _ua._fused_prepare(tuple(calls))
        except Exception:
            pass  # the steps' calls decide

    def runner(self, args):
        """For arguments of these dtypes, shapes and devices: the steps with
        their reductions' checks made once (FusedReduction.runner, made by
        its first call), a function of the arguments' tuple."""
        position = tuple((n.id, n.index) for n in self.inputs)
        steps, output = self.steps, self.output.id
        straight = self._straight(args, dict(position))
        if straight is not None:
            return straight
        fast = {}  # a step's runner, made by the first call

        def run(args):
            values = {i: args[j] for i, j in position}
            for k, (n, kernel) in enumerate(steps):
                if kernel is None:
                    value = n.op(values[n.args[0].id], **n.kwargs)
                elif k in fast:
                    value = fast[k](values) if fast[k] is not None else kernel.run(values)
                else:
                    value = kernel.run(values)
                    if isinstance(kernel, FusedReduction) and value is not NotImplemented:
                        fast[k] = kernel.runner(values)
                    else:
                        fast[k] = None
                if value is NotImplemented:
                    return NotImplemented
                values[n.id] = value
            return values[output]

        return run

    def _straight(self, args, position):
        """The steps as straight calls, where the host's loops reduce the
        last step's values into the result and every step before is an
        eager reduction of an argument or of an earlier step (a small
        variance: its eager mean, then one call of the binding): their
        values extend the arguments' tuple; else None."""
        *eager, (last, kernel) = self.steps
        if last.id != self.output.id or not isinstance(kernel, FusedReduction):
            return None
        if any(k is not None for _, k in eager):
            return None
        values = {i: args[j] for i, j in position.items()}
        reads = []  # (the eager reduction, the index it reads, its kwargs)
        try:
            for n, _ in eager:
                source = n.args[0].id
                if source not in position:
                    return None
                values[n.id] = n.op(values[source], **n.kwargs)
                position[n.id] = len(args) + len(reads)
                reads.append((n.op, position[source], n.kwargs))
            found = kernel.runner(values)
            direct = found.straight(position) if found is not None else None
        except Exception:
            return None  # the generic way serves these arguments
        if direct is None or not reads:
            return direct

        def run(args):
            extended = list(args)
            for op, j, kwargs in reads:
                extended.append(op(extended[j], **kwargs))
            return direct(tuple(extended))

        return run

    def describe(self):
        kernels = sum(isinstance(k, Program) for _, k in self.steps)
        fused = sum(isinstance(k, FusedReduction) for _, k in self.steps)
        eager = len(self.steps) - kernels - fused
        lines = [f"{kernels} kernels and {eager} reductions, in order:"]
        if fused:
            lines[0] = (
                f"{kernels} kernels, {fused} reductions in their values' kernels "
                f"and {eager} reductions, in order:"
            )
        for n, kernel in self.steps:
            if kernel is None:
                lines.append(f"  #{n.id} = {n.label()} (the eager reduction)")
            else:
                body = kernel.describe().replace("\n", "\n  ")
                lines.append(f"  #{n.id} = {body}")
        return "\n".join(lines)


class _ChainBuilder(_Builder):
    """A chain phase's builder: the phases share one list of operands (the
    arguments they read), and a reduction of the chain before the phase is
    its row value."""

    def __init__(self, dtype, slots, names, rows):
        super().__init__(dtype, staged=True)
        self.slots, self.names, self.rows = slots, names, rows
        self.reads_array = False

    def argument(self, n):
        if n.kind == "reduce":
            if n.id not in self.rows:
                raise Unfusable(f"#{n.id} is not a reduction of the chain before this phase")
            return _ROW + self.rows[n.id]
        if n.kind == "scalar" and n.pytype not in (bool, int, float):
            raise Unfusable(f"scalar argument {n.index} in a {self.dtype} computation")
        if n.kind == "arg" and str(n.dtype) != self.dtype:
            raise Unfusable(f"argument {n.index} is {n.dtype}, not {self.dtype}")
        self.reads_array = self.reads_array or n.kind == "arg"
        if n.id not in self.slots:
            if len(self.slots) == _MAX_OPERANDS:
                raise Unfusable(f"more than {_MAX_OPERANDS} arguments are read")
            self.slots.append(n.id)
            self.names.append(f"argument {n.index}")
        return _INPUT + self.slots.index(n.id)


class RowChain:
    """A graph of reductions of the last axes and elementwise work that
    reads them back, a row at a time (softmax, centred rows): one kernel,
    a group of threads a row (``_usmarray._fused_chain``), each reduction
    a phase over the row whose value the later phases read, the result
    the last phase's values, or a last reduction's row values (a
    variance, the sums of squares of centred rows), through the
    elementwise work on them alone (``post``: a standard deviation's
    square root); the arguments cross memory once and the result once.
    Reductions before the last keep their dimensions, but where every
    axis is reduced by a last reduction: then all the values are one row,
    of at most _ONE_ROW elements.  Arrays of the values' shape, dense in C order,
    rows of at least 256 elements (32 on CUDA); other calls run the
    stages."""

    def __init__(self, stages, phases, reductions, first, slots, names, dtype):
        self.stages, self.phases, self.reductions = stages, phases, reductions
        self.first, self.slots, self.names, self.dtype = first, tuple(slots), names, dtype
        self.expressions = None
        self.refused = None
        self.inputs = []  # the graph's argument nodes
        # where the last phase reduces: the result's shape from the
        # values' (None: the values'), and the Program after it or None
        self.shaped, self.post = None, None

    @classmethod
    def of(cls, plan, stages, dtype):
        """The graph's chain, or None where it is not one; stages (None
        where the graph's stages cannot be built: they read more than
        three arguments, counting the reductions) run the calls the kernel
        does not walk, else the eager calls do."""
        out = plan.output
        if dtype not in ("float32", "float64") or str(out.dtype) != dtype:
            return None
        last, post = cls._last_reduction(out, dtype)
        if out.kind != "ew" and last is None:
            return None
        reductions = [n for n in _reachable(out) if n.kind == "reduce" and n is not last]
        if not 1 <= len(reductions) < _MAX_PHASES:
            return None
        reduced = reductions + ([last] if last is not None else [])  # each phase's that reduces
        ndim = last.args[0].ndim if last is not None else out.ndim
        first = None
        for n in reduced:
            axes = _reduced_axes(n)
            if (
                not axes
                or n.args[0].ndim != ndim
                or axes != tuple(range(axes[0], ndim))
                or first not in (None, axes[0])
                or not set(n.kwargs) <= {"axis", "keepdims"}
                or n.op.__name__ not in _FUSED_REDUCTIONS
                or n.args[0].kind not in ("arg", "ew")
                or str(n.args[0].dtype) != dtype
                or str(n.dtype) != dtype
            ):
                return None
            first = axes[0]
        # a row value read back into the row keeps its dimensions, but
        # where the row is all the values; and those are a row only for a
        # last reduction (a variance): the stages divide x / sum(x) with
        # the eager quotient's bits, where a chain multiplies by the
        # reciprocal (within a rounding)
        if first != 0 and not all(n.kwargs.get("keepdims") for n in reductions):
            return None
        if first == 0 and last is None:
            return None
        slots, names, rows, phases = [], [], {}, []
        try:
            for n in reductions:
                phases.append(cls._phase(n.args[0], dtype, slots, names, rows))
                rows[n.id] = len(rows)
            phases.append(
                cls._phase(last.args[0] if last is not None else out, dtype, slots, names, rows)
            )
        except Unfusable:
            return None
        names_of = tuple(n.op.__name__ for n in reduced)
        chain = cls(stages, phases, names_of, first, slots, tuple(names), dtype)
        chain.inputs = [n for n in plan.nodes if n.kind in ("arg", "scalar")]
        if last is not None:
            kept = ndim - first if last.kwargs.get("keepdims") else 0
            chain.shaped, chain.post = (first, kept), post
        return chain

    @staticmethod
    def _last_reduction(out, dtype):
        """(the reduction whose row values are the result, the Program of
        the elementwise work on its value alone after it, or None), or
        (None, None) where the result is not a reduction's."""
        if out.kind == "reduce":
            return out, None
        read = _reachable(out, stop=("reduce",))
        found = [n for n in read if n.kind == "reduce"]
        if out.kind != "ew" or len(found) != 1 or any(n.kind == "arg" for n in read):
            return None, None
        try:
            post = _stage_program(out, dtype)
        except Unfusable:
            return None, None
        return (found[0], post) if post.slots == (found[0].id,) else (None, None)

    @staticmethod
    def _phase(sink, dtype, slots, names, rows):
        b = _ChainBuilder(dtype, slots, names, dict(rows))
        if sink.kind == "arg":
            b.nodes.append(("positive", (b.operand(sink),)))
        else:
            for n in _reachable(sink, stop=("reduce",)):
                if n.kind not in ("arg", "scalar", "reduce"):
                    b.node(n)
        if not b.reads_array:
            # its values, of a row value's shape, are not the row's
            raise Unfusable(f"#{sink.id} reads no array argument")
        return b.nodes, b.constants, len(rows)

    def _staged(self, args):
        if self.stages is None:
            raise RunEagerly()
        return self.stages.run(args)

    def run(self, args):
        if self.refused:
            return self._staged(args)
        values = {n.id: args[n.index] for n in self.inputs}
        operands = tuple(values[i] for i in self.slots)
        arrays = [a for a in operands if isinstance(a, _ua.USMArray)]
        shape = max(arrays, key=lambda a: a.size).shape if arrays else ()
        if not arrays or any(a.shape != shape for a in arrays) or not self._takes(arrays, shape):
            return self._staged(args)
        try:
            if self.expressions is None:
                self.expressions = tuple(
                    _ua._fused_expression(tuple(nodes), tuple(constants), self.dtype, rows)
                    for nodes, constants, rows in self.phases
                )
                if self.post is not None:
                    self.post.parsed()
        except _REFUSALS as e:
            return self._refuse(args, e)
        try:
            return self._call(shape)(operands)
        except ValueError:
            return self._staged(args)  # a layout the kernel does not walk
        except (TypeError, RuntimeError) as e:
            return self._refuse(args, e)

    def _takes(self, arrays, shape):
        """Whether the kernel takes arrays of this shape: elements, rows
        long enough, and where all the values are one row, at most
        _ONE_ROW of them."""
        row = math.prod(shape[self.first :])
        return (
            0 not in shape and not _row_too_short(arrays, row) and (self.first or row <= _ONE_ROW)
        )

    def _call(self, shape):
        """The kernel's call on the operands, for values of this shape."""
        call, expressions, reductions = _ua._fused_chain, self.expressions, self.reductions
        row = math.prod(shape[self.first :])
        if self.shaped is None:
            return lambda operands: call(expressions, reductions, operands, row)
        first, kept = self.shaped
        shaped = shape[:first] + (1,) * kept
        post = None if self.post is None else self.post.expression
        return lambda operands: call(expressions, reductions, operands, row, post, shaped)

    def runner(self, args):
        """For calls whose arguments have these dtypes, shapes and devices
        (a fused function's small calls): the kernel's one call with run()'s
        checks made once, a function of the arguments' tuple; where run()
        takes the stages for them (arrays past one row of all the values,
        short rows), the stages' runner; else None."""
        position = {n.id: n.index for n in self.inputs}
        index = tuple(position[i] for i in self.slots)
        arrays = [args[j] for j in index if isinstance(args[j], _ua.USMArray)]
        shape = arrays[0].shape if arrays else ()
        staged = not arrays or any(a.shape != shape for a in arrays)
        if self.refused or staged or not self._takes(arrays, shape):
            return self.stages.runner(args) if self.stages is not None else None
        if self.expressions is None:
            return None
        call = self._call(shape)
        if index == tuple(range(len(args))):
            return call  # the arguments are the operands, in order

        def run(args):
            return call(tuple([args[j] for j in index]))

        return run

    def _refuse(self, args, e):
        """The kernel refused the graph: the stages from now on, or where
        there are none the plan's refusal (KernelRefused)."""
        self.refused = str(e)
        if self.stages is None:
            raise KernelRefused(self.refused) from e
        return self.stages.run(args)

    def describe(self):
        lines = [
            f"one kernel over rows (axes {self.first} and on, {_ROWS_WORDS} as below) "
            f"in {self.dtype}"
        ]
        if not self.first:
            lines[0] = (
                f"one kernel over all the values as one row (at most {_ONE_ROW:,}, else, or "
                f"{_ROWS_WORDS}, as below) in {self.dtype}"
            )
        if self.refused:
            lines[0] = f"the stages below (the rows' kernel refused the graph: {self.refused})"
        for p, (nodes, consts, _) in enumerate(self.phases):
            what = (
                f"row value {p} = {self.reductions[p]} over the row of"
                if p < len(self.reductions)
                else "the result:"
            )
            if self.shaped is not None and p == len(self.phases) - 1:
                what = f"the result: each row's {self.reductions[p]} of"
            lines.append(f"  {what}")
            lines += _describe_nodes(nodes, consts, self.names, "    ")
        if self.post is not None:
            lines.append("  then on each row's value, in the kernel:")
            lines += _describe_nodes(self.post.nodes, self.post.constants, ("it",), "    ")
        if self.stages is None:
            lines.append(
                "  other calls: the eager calls (its stages would read more than three arguments)"
            )
        else:
            lines.append("  " + self.stages.describe().replace("\n", "\n  "))
        return "\n".join(lines)
