"""Coverage-guided fuzzer of the Python entry points (atheris).

Each input drives one or more calls into the extension with arguments
built from the input: integers near the overflow limits, sequences and
dictionaries whose items' hooks (__index__, __getattr__, _get_capsule)
empty them mid-read, capsules with odd or NULL names, dtype-likes whose
dtype attribute changes, and interface dictionaries of real memory with
keys replaced.  A call may raise any exception a user can catch; a
SystemError (an error without an exception set), a crash or a sanitizer
report is a finding.

Run against the ASan + UBSan extension built with -fsanitize=fuzzer-no-link
(fuzz/python/run.sh does it all).  The seed corpus has one input per row
of the bad-input catalogue (tests/robustness/bad_inputs.py, which gathers
the rows of tests/robustness/test_bad_inputs_*.py): it replays the row,
then goes on with calls built from the rest of the input."""

import os
import sys

import atheris

HERE = os.path.dirname(os.path.abspath(__file__))
# The tests' shared helpers (conftest.py, dlpack_ctypes.py, ...), the
# bad-input catalogue with its helpers, and the elementwise tests' reading
# of the catalogue of functions.
TESTS = os.path.join(HERE, "..", "..", "tests")
sys.path[:0] = [TESTS, os.path.join(TESTS, "robustness"), os.path.join(TESTS, "api")]

import numpy as np  # noqa: E402
import pytest  # noqa: E402

with atheris.instrument_imports():
    import usmarray as ua

from conftest import Holder, suai  # noqa: E402
from dlpack_ctypes import Tensor  # noqa: E402
from hostile_objects import Clearing, DtypeAttr, null_name_capsule  # noqa: E402


def catalogue():
    """The rows of the bad-input catalogue, as zero-argument calls."""
    import bad_inputs

    return [case.values[0] for case in bad_inputs.CASES]


CATALOGUE = catalogue()

# Any of these is an answer a user can catch; SystemError is not among them.
EXPECTED = (
    TypeError,
    ValueError,
    IndexError,
    KeyError,
    BufferError,
    OverflowError,
    MemoryError,
    AttributeError,
    NotImplementedError,
    ua.USMAllocationError,
    ZeroDivisionError,
)


class Hook(Exception):
    """Raised by the fuzzer's own hooks."""


EDGES = [
    0,
    1,
    2,
    3,
    -1,
    -2,
    7,
    8,
    64,
    2**31 - 1,
    2**31,
    2**32,
    2**32 + 1,
    2**61,
    2**62,
    2**63 - 1,
    -(2**63),
    2**63,
    2**64,
    -(2**62),
    2**70,
]
LIMIT_BYTES = 1 << 24  # arrays larger than this are not allocated
LIMIT_SIZE = 1 << 20  # nor walked element by element


class Builder:
    def __init__(self, data):
        self.fdp = atheris.FuzzedDataProvider(data)
        self.containers = []  # what hooks may empty

    def pick(self, n):
        return self.fdp.ConsumeIntInRange(0, n - 1)

    def small(self):
        return self.fdp.ConsumeIntInRange(0, 6)

    def integer(self):
        k = self.pick(4)
        if k == 0:
            return EDGES[self.pick(len(EDGES))]
        if k == 1:
            return self.fdp.ConsumeIntInRange(-3, 16)
        if k == 2:
            return self.fdp.ConsumeInt(9)
        return self.small()

    def hook_error(self):
        return [None, None, TypeError("hook"), Hook("hook"), OverflowError("hook")][self.pick(5)]

    def index_like(self):
        """An integer, or something that claims to be one."""
        value = self.integer()
        k = self.pick(10)
        if k < 5:
            return value
        if k == 5:
            return np.int64(max(min(value, 2**63 - 1), -(2**63)))
        if k == 6:
            return [True, 1.5, "3", None, b"1", object()][self.pick(6)]
        return Clearing(value, *self.containers, error=self.hook_error())

    def int_sequence(self, n=None):
        n = self.pick(5) if n is None else n
        seq = [self.index_like() for _ in range(n)]
        self.containers.append(seq)
        k = self.pick(4)
        if k == 0:
            return tuple(seq)
        if k == 1 and seq:
            return seq[0]
        return seq

    def dtype(self):
        k = self.pick(12)
        options = ["f8", "f4", "i4", "u1", "?", "c16", "f2", ">f8", "V8", "O", "U3", "M8"]
        if k < 6:
            return options[self.pick(len(options))]
        if k == 6:
            return np.dtype(options[self.pick(7)])
        if k == 7:
            return [np.float32, np.int8, float, int, bool, complex][self.pick(6)]
        if k == 8:
            return DtypeAttr(np.dtype(options[self.pick(7)]))
        if k == 9:
            return None
        if k == 10:
            return self.index_like()
        return null_name_capsule()

    def device_like(self):
        k = self.pick(8)
        if k == 0:
            return None
        if k == 1:
            return "host"
        if k == 2:
            return ["", "cuda", "gpu", "host:cpu:1", "0", "1", "sycl", "host:cpu:0"][self.pick(8)]
        if k == 3:
            return ua.Queue("host")
        if k == 4:
            return null_name_capsule()
        if k == 5:
            return self.capsule_like()
        if k == 6:
            return self.index_like()
        return ua.Device("host")

    def capsule_like(self):
        import ctypes

        new = ctypes.pythonapi.PyCapsule_New
        new.restype = ctypes.py_object
        new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        names = [None, b"used_dltensor", b"x", b"SyclDeviceRef", b"", b"used_dltensor_versioned"]
        return new(ctypes.c_void_p(8), names[self.pick(len(names))], None)

    def usm_type(self):
        return ["host", "shared", "device", None, "bogus"][self.pick(5)]

    def order(self):
        return ["C", "F", "A", "K", "X", None][self.pick(6)]


def affordable(shape):
    """Whether shape, if it holds plain integers, allocates little."""
    if not isinstance(shape, (list, tuple)):
        shape = (shape,)
    total = 16
    for v in shape:
        v = v.value if isinstance(v, Clearing) else v
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
            continue
        v = int(v)
        if v < 0:
            return True
        total *= max(v, 1)
    return total <= LIMIT_BYTES or total > 2**63


def small_array(b):
    shape = tuple(b.fdp.ConsumeIntInRange(0, 4) for _ in range(b.pick(4)))
    dtype = ["f8", "i4", "u1", "c8", "?", "f2"][b.pick(6)]
    x = ua.asarray(
        np.arange(int(np.prod(shape)), dtype="i4").astype(dtype).reshape(shape),
        usm_type=["host", "shared", "device"][b.pick(3)],
    )
    return x


def interface_dict(b, mem, cuda=False):
    d = suai(mem, shape=(8,), typestr="|u1")
    if cuda:
        d = {"shape": (8,), "typestr": "|u1", "data": (mem._pointer, False), "version": 3}
    b.containers.append(d)
    keys = ["shape", "strides", "offset", "version", "syclobj", "typestr", "data", "stream", "mask"]
    for _ in range(b.pick(4)):
        key = keys[b.pick(len(keys))]
        k = b.pick(6)
        if k == 0:
            d.pop(key, None)
        elif k in (1, 2) and key in ("shape", "strides"):
            d[key] = b.int_sequence()
        elif k == 3 and key == "data":
            d[key] = (mem._pointer + b.integer(), [False, True, 0][b.pick(3)])
        elif k == 4 and key == "syclobj":
            d[key] = b.device_like()
        else:
            d[key] = b.index_like()
    return d


def op_creation(b):
    shape = b.int_sequence()
    if not affordable(shape):
        return
    f = [ua.empty, ua.zeros, ua.ones][b.pick(3)]
    kw = {}
    if b.pick(2):
        kw["dtype"] = b.dtype()
    if b.pick(2):
        kw["usm_type"] = b.usm_type()
    if b.pick(3) == 0:
        kw["queue" if b.pick(2) else "device"] = b.device_like()
    if b.pick(3) == 0:
        kw["order"] = b.order()
    check_array(f(shape, **kw))


def op_constructor(b):
    shape = b.int_sequence()
    kw = {}
    if b.pick(2):
        kw["dtype"] = b.dtype()
    k = b.pick(3)
    if k == 0:
        kw["buffer"] = ua.MemoryUSMShared(64)
    elif k == 1:
        kw["buffer"] = ["host", "shared", "device"][b.pick(3)]
        if not affordable(shape):
            return
    else:
        kw["buffer"] = small_array(b)
    if b.pick(2):
        kw["strides"] = b.int_sequence()
    if b.pick(2):
        kw["offset"] = b.index_like()
    check_array(ua.USMArray(shape, **kw))


def op_view(b):
    x = small_array(b)
    for _ in range(1 + b.pick(3)):
        k = b.pick(6)
        if k == 0:
            x = x.reshape(b.int_sequence())
        elif k == 1:
            x = ua.permute_dims(x, b.int_sequence())
        elif k == 2:
            x = x[index_key(b)]
        elif k == 3:
            x[index_key(b)] = [b.integer(), 1.5, small_array(b), True][b.pick(4)]
        elif k == 4:
            x = x.astype(b.dtype(), order=b.order() or "K", copy=[True, False, None][b.pick(3)])
        else:
            x = x.copy(order=b.order())
        check_array(x)


def index_key(b):
    items = []
    for _ in range(b.pick(4)):
        k = b.pick(5)
        if k == 0:
            items.append(b.index_like())
        elif k == 1:
            items.append(
                slice(
                    b.index_like() if b.pick(2) else None,
                    b.index_like() if b.pick(2) else None,
                    b.index_like() if b.pick(2) else None,
                )
            )
        elif k == 2:
            items.append(None)
        elif k == 3:
            items.append(Ellipsis)
        else:
            items.append(b.integer())
    return tuple(items) if b.pick(3) else (items[0] if items else ())


def op_suai(b):
    mem = [ua.MemoryUSMShared, ua.MemoryUSMHost, ua.MemoryUSMDevice][b.pick(3)](64)
    d = interface_dict(b, mem)
    holder = Holder(d, keep=mem)
    k = b.pick(4)
    if k == 0:
        check_array(ua.asarray(holder))
    elif k == 1:
        ua.as_usm_memory(holder)
    elif k == 2:
        ua.MemoryUSMShared(holder, copy=bool(b.pick(2)))
    else:
        check_array(ua.USMArray(8, "u1", buffer=ua.as_usm_memory(holder)))


def op_cai(b):
    mem = ua.MemoryUSMShared(64)
    d = interface_dict(b, mem, cuda=True)
    ua.asarray(type("C", (), {"__cuda_array_interface__": d})())


def op_dlpack(b):
    k = b.pick(5)
    if k == 0:
        src = np.arange(8.0)
        nd = b.pick(4)
        shape = [b.integer() for _ in range(nd)]
        strides = None if b.pick(3) == 0 else [b.integer() for _ in range(nd)]
        ok = all(0 <= s <= 2**63 - 1 for s in shape) and (
            strides is None or all(-(2**63) <= s < 2**63 for s in strides)
        )
        if not ok:
            return
        t = Tensor(src, ndim=nd, shape=shape, strides=strides, versioned=bool(b.pick(2)))
        x = ua.from_dlpack(t.capsule())
        # A view that passed must only reach the 64 bytes of src.
        check_array(x, walk=False)
        del x, t
    elif k == 1:
        ua.from_dlpack([b.capsule_like(), null_name_capsule()][b.pick(2)])
    elif k == 2:
        x = small_array(b)
        x.__dlpack__(
            max_version=tuple(b.index_like() for _ in range(b.pick(3))),
            dl_device=[None, (1, 0), (b.index_like(), b.index_like())][b.pick(3)],
            copy=[None, True, False][b.pick(3)],
        )
    elif k == 3:
        x = small_array(b)
        check_array(ua.from_dlpack(x, device=b.device_like(), copy=[None, True, False][b.pick(3)]))
    else:
        x = small_array(b)
        check_array(
            ua.asarray(
                x,
                dtype=b.dtype(),
                usm_type=b.usm_type(),
                copy=[None, True, False][b.pick(3)],
                order=b.order() or "K",
            )
        )


def op_devices(b):
    k = b.pick(6)
    arg = b.device_like()
    if k == 0:
        ua.Queue(arg)
    elif k == 1:
        ua.Context(arg)
    elif k == 2:
        ua.Device(arg)
    elif k == 3:
        ua.get_pointer_type(b.integer(), arg)
    elif k == 4:
        small_array(b).to_device(arg)
    else:
        ua.MemoryUSMShared(8, queue=arg)


def op_host_data(b):
    src = np.arange(12.0).reshape(3, 4)
    misaligned = np.frombuffer(bytearray(40), "u1")[1:33].view("f8")
    view = [src, src[::2], src.T, src[:, ::-1], misaligned, misaligned[::-1]][b.pick(6)]
    check_array(
        ua.asarray(
            view,
            usm_type=b.usm_type(),
            copy=[None, True, False][b.pick(3)],
            dtype=[None, "f4", "f8"][b.pick(3)],
        )
    )


def op_data_types(b):
    """The data type functions on hostile dtypes, arrays and scalars."""

    def operand():
        k = b.pick(4)
        if k < 2:
            return b.dtype()
        return [True, 7, 1.5, 2j][b.pick(4)] if k == 2 else small_array(b)

    f = b.pick(5)
    if f == 0:
        ua.result_type(*[operand() for _ in range(b.pick(4))])
    elif f == 1:
        ua.can_cast(operand(), b.dtype())
    elif f == 2:
        kind = [b.dtype(), "numeric", ("bool", b.dtype()), "nope", 3][b.pick(5)]
        ua.isdtype(b.dtype(), kind)
    else:
        info = (ua.iinfo if f == 3 else ua.finfo)(operand())
        assert info.bits in (8, 16, 32, 64) and info.max > info.min


def modest(counts):
    """Whether counts (an integer or a sequence), if it holds integers,
    holds only small ones: tile and repeat then allocate little."""
    if not isinstance(counts, (list, tuple)):
        counts = (counts,)
    for v in counts:
        v = v.value if isinstance(v, Clearing) else v
        if isinstance(v, (int, np.integer)) and abs(int(v)) > 16:
            return False
    return True


def op_manipulation(b):
    """The manipulation functions on small arrays of any layout, with
    hostile axes, shifts, shapes and counts."""
    x = small_array(b)
    if b.pick(3) == 0:
        x = [x[::-1], x.T, ua.flip(x)][b.pick(3)]

    def axes():
        return [None, b.index_like(), b.int_sequence()][b.pick(3)]

    f = b.pick(14)
    if f == 0:
        check_array(ua.broadcast_to(x, b.int_sequence()))
    elif f == 1:
        for y in ua.broadcast_arrays(*[x, small_array(b), x.T][: b.pick(4)]):
            check_array(y)
    elif f in (2, 3):
        items = [x] + [small_array(b) for _ in range(b.pick(3))]
        if b.pick(4) == 0:
            items.append(b.index_like())
        fn = ua.concat if f == 2 else ua.stack
        check_array(fn(items if b.pick(2) else tuple(items), axis=axes() if b.pick(2) else 0))
    elif f == 4:
        check_array(ua.expand_dims(x, axis=axes() if b.pick(3) else 0))
    elif f == 5:
        check_array(ua.flip(x, axis=axes()))
    elif f == 6:
        check_array(ua.moveaxis(x, b.int_sequence(), b.int_sequence()))
    elif f == 7:
        check_array(ua.squeeze(x, axes()))
    elif f == 8:
        for y in ua.unstack(x, axis=b.index_like()):
            check_array(y)
    elif f == 9:
        check_array(ua.roll(x, b.int_sequence(), axis=axes()))
    elif f == 10:
        reps = b.int_sequence()
        if modest(reps):
            check_array(ua.tile(x, reps))
    elif f == 11:
        counts = [b.integer(), b.int_sequence(), small_array(b)][b.pick(3)]
        if modest(counts):
            check_array(ua.repeat(x, counts, axis=[None, b.index_like()][b.pick(2)]))
    elif f == 12:
        check_array(ua.reshape(x, b.int_sequence(), copy=[None, True, False][b.pick(3)]))
    else:
        check_array(ua.permute_dims(x, b.int_sequence()))


def op_dpctl_extensions(b):
    """dpctl's indexing functions, top_k and scaled reductions on small
    arrays of any layout, with hostile indices, values, masks, axes, counts
    and modes: a write keeps the array's shape; a refusal is an exception a
    user catches."""
    x = small_array(b)
    if b.pick(3) == 0:
        x = [x[::-1], x.T, ua.flip(x)][b.pick(3)]
    shape = x.shape
    indices = [small_array(b), ua.asarray([b.integer()], dtype="i8"), b.int_sequence()][b.pick(3)]
    vals = [small_array(b), b.integer(), x][b.pick(3)]
    mode = ["wrap", "clip", None, b.index_like()][b.pick(4)]
    axis = [None, b.index_like()][b.pick(2)]
    f = b.pick(8)
    if f == 6:
        r = ua.top_k(x, b.integer() % 5, axis=axis, mode=["largest", "smallest", mode][b.pick(3)])
        check_array(r.values)
        check_array(r.indices)
    elif f == 7:
        fn = [ua.logsumexp, ua.reduce_hypot][b.pick(2)]
        check_array(fn(x, axis=axis, dtype=[None, "f4", "i2"][b.pick(3)], keepdims=b.pick(2) == 1))
    elif f == 0:
        check_array(ua.take(x, indices, axis=axis, mode=mode))
    elif f == 1:
        check_array(ua.take_along_axis(x, indices, axis=-1 if axis is None else axis, mode=mode))
    elif f == 2:
        ua.put(x, indices, vals, axis=axis, mode="wrap" if mode is None else mode)
    elif f == 3:
        ua.put_along_axis(
            x,
            indices,
            vals,
            axis=-1 if axis is None else axis,
            mode="wrap" if mode is None else mode,
        )
    elif f == 4:
        ua.place(x, [small_array(b), x][b.pick(2)], [small_array(b), vals][b.pick(2)])
    else:
        check_array(ua.extract([small_array(b), x][b.pick(2)], x))
    if x.shape != shape:
        raise AssertionError(f"a write changed the shape {shape} to {x.shape}")
    check_array(x)


def op_astype(b):
    """The astype function on hostile dtypes, copy flags and devices; an
    accepted cast keeps the shape and a copy=False that changes nothing
    returns the array itself."""
    x = small_array(b)
    dtype = b.dtype() if b.pick(2) else x.dtype
    copy = [True, False, None, 1][b.pick(4)]
    kw = {"copy": copy} if b.pick(2) else {}
    if b.pick(2):
        kw["device"] = b.device_like()
    y = ua.astype(x, dtype, **kw)
    if y.shape != x.shape:
        raise AssertionError(f"astype changed the shape {x.shape} to {y.shape}")
    if kw.get("copy") is False and y.dtype == x.dtype and kw.get("device") is None and y is not x:
        raise AssertionError("astype(copy=False) copied an array of its dtype")
    check_array(y)


def op_namespace_info(b):
    """__array_namespace_info__'s methods on hostile kinds and devices."""
    info = ua.__array_namespace_info__()
    kind = [None, "numeric", ("bool", "integral"), "nope", 3, b.dtype(), ("real floating", None)]
    device = b.device_like() if b.pick(2) else None
    f = b.pick(5)
    if f == 0:
        found = info.dtypes(device=device, kind=kind[b.pick(len(kind))])
        if "float16" in found:
            raise AssertionError("dtypes() lists float16, which the standard does not define")
    elif f == 1:
        assert set(info.default_dtypes(device=device)) == {
            "real floating", "complex floating", "integral", "indexing"
        }  # fmt: skip
    elif f == 2:
        assert info.default_device() in info.devices()
    else:
        assert info.capabilities()["max dimensions"] == 64


def op_reductions(b):
    """Reductions, scans, searches, sorts, sets and products on small arrays
    of any layout and dtype, with hostile axes, flags, dtypes and operands;
    an accepted reduction keeps the other axes (all of them, of length 1,
    with keepdims), a sort keeps the shape and a product's inner lengths
    agree."""
    x = small_array(b)
    if b.pick(3) == 0 and x.ndim:
        x = [x[::-1], x.T, ua.flip(x)][b.pick(3)]
    axis = [None, b.index_like(), b.int_sequence(), -1, 0][b.pick(5)]
    flag = [True, False, 1, None, "yes"][b.pick(5)]
    f = b.pick(12)
    if f < 5:
        fn = [ua.sum, ua.prod, ua.max, ua.min, ua.mean][f]
        kw = {"axis": axis, "keepdims": flag}
        if f in (0, 1) and b.pick(2):
            kw["dtype"] = b.dtype()
        y = fn(x, **kw)
        if isinstance(axis, int) and flag is True and x.ndim and y.ndim != x.ndim:
            raise AssertionError(f"keepdims gave {y.shape} of {x.shape}")
        check_array(y)
    elif f == 5:
        fn = [ua.var, ua.std][b.pick(2)]
        check_array(fn(x, axis=axis, correction=[0, 1, 2.5, -1, "a"][b.pick(5)]))
    elif f == 6:
        fn = [ua.all, ua.any, ua.count_nonzero][b.pick(3)]
        check_array(fn(x, axis=axis, keepdims=flag))
    elif f == 7:
        fn = [ua.argmax, ua.argmin][b.pick(2)]
        check_array(fn(x, axis=[None, b.index_like()][b.pick(2)], keepdims=flag))
    elif f == 8:
        fn = [ua.cumulative_sum, ua.cumulative_prod, ua.diff][b.pick(3)]
        if fn is ua.diff:
            check_array(fn(x, axis=b.index_like(), n=b.integer() % 4))
        else:
            check_array(fn(x, axis=[None, b.index_like()][b.pick(2)], include_initial=flag))
    elif f == 9:
        fn = [ua.sort, ua.argsort][b.pick(2)]
        kind = [None, "stable", "radixsort", b.index_like()][b.pick(4)]
        y = fn(x, axis=b.index_like(), descending=flag, stable=flag, kind=kind)
        if y.shape != x.shape:
            raise AssertionError(f"{fn.__name__} changed the shape {x.shape} to {y.shape}")
        check_array(y)
    elif f == 10:
        fn = [ua.unique_values, ua.unique_counts, ua.unique_inverse, ua.unique_all][b.pick(4)]
        out = fn(x)
        for y in out if isinstance(out, tuple) else (out,):
            check_array(y)
        if b.pick(2):
            check_array(ua.searchsorted(x, small_array(b), side=["left", "right", "x"][b.pick(3)]))
    else:
        y = small_array(b)
        g = b.pick(4)
        if g == 0:
            check_array(ua.matmul(x, y))
        elif g == 1:
            check_array(ua.tensordot(x, y, axes=[b.integer(), b.int_sequence()][b.pick(2)]))
        elif g == 2:
            check_array(ua.vecdot(x, y, axis=b.index_like()))
        else:
            check_array(ua.matrix_transpose(x))


def op_linalg(b):
    """The linalg extension on small arrays of any layout and dtype, with
    hostile orders, modes and flags: an accepted call gives arrays whose
    shapes follow the operand's batch."""
    x = small_array(b)
    if b.pick(3) == 0 and x.ndim:
        x = [x[::-1], x.T, ua.flip(x)][b.pick(3)]
    la = ua.linalg
    flag = [True, False, 1, None][b.pick(4)]
    order = [2, 1, -1, 0, float("inf"), "fro", "nuc", 3.5, "x", None][b.pick(10)]
    f = b.pick(10)
    if f == 0:
        fn = [la.inv, la.det, la.slogdet, la.eigvalsh, la.svdvals][b.pick(5)]
        out = fn(x)
    elif f == 1:
        out = la.cholesky(x, upper=flag)
    elif f == 2:
        out = la.qr(x, mode=["reduced", "complete", "r"][b.pick(3)])
    elif f == 3:
        out = la.svd(x, full_matrices=flag)
    elif f == 4:
        out = la.solve(x, small_array(b))
    elif f == 5:
        out = la.matrix_norm(x, keepdims=flag, ord=order)
    elif f == 6:
        out = la.vector_norm(x, axis=[None, b.index_like()][b.pick(2)], keepdims=flag, ord=order)
    elif f == 7:
        out = la.matrix_power(x, b.integer() % 5 - 2)
    elif f == 8:
        out = [la.pinv, la.matrix_rank][b.pick(2)](x)
    else:
        out = la.cross(x, small_array(b), axis=b.index_like())
    for y in out if isinstance(out, tuple) else (out,):
        check_array(y)


def op_fft(b):
    """The fft extension on small arrays of any dtype and layout, with
    hostile lengths, axes, norms, spacings and dtypes: an accepted
    transform keeps the number of axes, a shift the shape."""
    x = small_array(b)
    if b.pick(3) == 0 and x.ndim:
        x = [x[::-1], x.T, ua.flip(x)][b.pick(3)]
    norm = ["backward", "ortho", "forward", None, "x", 3][b.pick(6)]
    f = b.pick(5)
    if f < 2:
        name = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"][b.pick(6)]
        n = [None, b.integer(), b.index_like()][b.pick(3)]
        if not modest(n):
            return
        kw = {"n": n, "norm": norm}
        if b.pick(2):
            kw["axis"] = b.index_like()
        y = getattr(ua.fft, name)(x, **kw)
    elif f == 2:
        name = ["fftn", "ifftn", "rfftn", "irfftn"][b.pick(4)]
        s = [None, b.int_sequence()][b.pick(2)]
        if s is not None and not modest(s):
            return
        y = getattr(ua.fft, name)(x, s=s, axes=[None, b.int_sequence()][b.pick(2)], norm=norm)
    elif f == 3:
        n = b.index_like()
        if not modest(n):
            return
        kw = {}
        if b.pick(2):
            kw["d"] = [1.0, 0, -2.5, float("nan"), "a", 1j, b.index_like()][b.pick(7)]
        if b.pick(2):
            kw["dtype"] = b.dtype()
        if b.pick(2):
            kw["device"] = b.device_like()
        check_array([ua.fft.fftfreq, ua.fft.rfftfreq][b.pick(2)](n, **kw))
        return
    else:
        fn = [ua.fft.fftshift, ua.fft.ifftshift][b.pick(2)]
        y = fn(x, axes=[None, b.index_like(), b.int_sequence()][b.pick(3)])
        if y.shape != x.shape:
            raise AssertionError(f"a shift changed the shape {x.shape} to {y.shape}")
    if y.ndim != x.ndim:
        raise AssertionError(f"a transform made {y.ndim} axes of {x.ndim}")
    check_array(y)


def near_limit(b):
    """An array of 31 to 34 axes (one time in four 62 to 64), of length 1
    but for up to two of length 2: operands whose compositions land around
    the 64-dimension limit."""
    nd = b.fdp.ConsumeIntInRange(31, 34) if b.pick(4) else b.fdp.ConsumeIntInRange(62, 64)
    shape = [1] * nd
    for _ in range(b.pick(3)):
        shape[b.pick(nd)] = 2
    return ua.ones(tuple(shape), dtype=["f8", "c16", "i4"][b.pick(3)])


def deep_key(b):
    """An index of deep integer arrays, None and the ellipsis."""
    items = []
    for _ in range(1 + b.pick(3)):
        k = b.pick(4)
        if k < 2:
            items.append(ua.zeros((1,) * b.fdp.ConsumeIntInRange(1, 34), dtype="i8"))
        elif k == 2:
            items.append(None)
        elif Ellipsis not in items:
            items.append(Ellipsis)
    return tuple(items)


def op_shape_limits(b):
    """Every function that composes a shape from several operands (or from
    an operand and extra axes), on operands near the limit: an accepted
    call gives at most 64 axes; a refusal is an exception a user catches."""
    x, y = near_limit(b), near_limit(b)
    n = b.fdp.ConsumeIntInRange(31, 66)
    la = ua.linalg
    f = b.pick(15)
    if f == 0:
        axes = [b.fdp.ConsumeIntInRange(0, 3), ([], []), ([b.pick(x.ndim)], [b.pick(y.ndim)])]
        out = [ua.tensordot, la.tensordot][b.pick(2)](x, y, axes=axes[b.pick(3)])
    elif f == 1:
        out = [ua.vecdot, la.vecdot][b.pick(2)](x, y, axis=-1 - b.pick(3))
    elif f == 2:
        out = [ua.matmul, la.matmul][b.pick(2)](x, y)
    elif f == 3:
        out = ua.stack([x] * (1 + b.pick(2)), axis=b.fdp.ConsumeIntInRange(-x.ndim - 1, x.ndim))
    elif f == 4:
        out = ua.expand_dims(x, axis=tuple(range(b.fdp.ConsumeIntInRange(1, 35))))
    elif f == 5:
        grid = [ua.ones(2 if k < 2 and b.pick(2) else 1) for k in range(n)]
        out = ua.meshgrid(*grid, indexing=["xy", "ij"][b.pick(2)])
    elif f == 6:
        out = ua.take(x, ua.zeros(y.shape, dtype="i8"), axis=b.pick(x.ndim))
    elif f == 7:
        key = deep_key(b)
        if b.pick(2):
            out = x[key]
        else:
            x[key] = [1, y][b.pick(2)]
            out = x
    elif f == 8:
        out = ua.broadcast_to(x, (1,) * n)
    elif f == 9:
        out = [ua.reshape, ua.tile][b.pick(2)](x, (1,) * n)
    elif f == 10:
        out = [ua.add, ua.multiply, ua.atan2][b.pick(3)](x, y)
    elif f == 11:
        out = ua.where(ua.abs(x) > 0, y, [x, 1.0][b.pick(2)])
    elif f == 12:
        rtol = [y, y[..., 0], 1e-3][b.pick(3)]
        out = [la.pinv, la.matrix_rank][b.pick(2)](x, rtol=rtol)
    elif f == 13:
        out = ua.fft.fftn(x, s=(1,) * [x.ndim, x.ndim + 1, 65][b.pick(3)])
    elif b.pick(2):
        out = ua.broadcast_arrays(x, y)
    else:
        out = ua.concat([x, y] if b.pick(2) else [x, x], axis=[0, -1, None][b.pick(3)])
    for z in out if isinstance(out, (tuple, list)) else (out,):
        if isinstance(z, ua.USMArray) and z.ndim > 64:
            raise AssertionError(f"an array of {z.ndim} axes")
        check_array(z)


def elementwise_entries():
    """The catalogue's functions and their arities (tests/api/test_elementwise.py
    reads them from the catalogue's header)."""
    from test_elementwise import ENTRIES

    return sorted((name, arity) for name, (arity, _, _) in ENTRIES.items())


ELEMENTWISE = elementwise_entries()
OPERATORS = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor",
             "lshift", "rshift", "eq", "ne", "lt", "le", "gt", "ge"]  # fmt: skip


def elementwise_operand(b):
    """An array of any dtype and layout, a Python scalar at the edges of
    the integer dtypes, a NumPy array (refused) or a hostile object."""
    k = b.pick(8)
    if k < 4:
        x = small_array(b)
        return [x, x[::-1], x.T, ua.flip(x)][k]
    if k < 6:
        values = [True, 0, -1, 7, 2**63, -(2**63) - 1, 2**64, 2**70, -(2**80), 1.5, float("nan"),
                  float("-inf"), 2j, complex("nan+1j")]  # fmt: skip
        return values[b.pick(len(values))]
    if k == 6:
        return np.ones(b.pick(4))
    return [b.index_like(), b.dtype(), None, "x"][b.pick(4)]


class Reshaper:
    """An integer, and an index array's or a value's data, whose hooks first
    give x another of the shapes its elements can take in place."""

    def __init__(self, b, x, value):
        self.x, self.value = x, value
        self.shape = reshapes_of(x)[b.pick(len(reshapes_of(x)))]
        self.raise_after = b.pick(8) == 0

    def _reshape(self):
        try:
            self.x.shape = self.shape
        except AttributeError:
            pass
        if self.raise_after:
            raise Hook("after reshaping")

    def __index__(self):
        self._reshape()
        return self.value if isinstance(self.value, int) else 0

    def __float__(self):
        self._reshape()
        return 1.5

    def __array__(self, dtype=None, copy=None):
        self._reshape()
        return np.asarray(self.value)


def reshapes_of(x):
    """Shapes of x's size: a few orders of its axes and merges and splits."""
    n = x.size
    shapes = [x.shape, (n,), (n, 1), (1, n), (1, 1, n), (n, 1, 1, 1, 1, 1, 1, 1)]
    for d in (2, 3, 4):
        if n % d == 0 and n:
            shapes += [(d, n // d), (n // d, d), (1,) * 6 + (d, n // d)]
    return shapes


def op_reshaping_hooks(b):
    """Keys, values and arguments whose hooks reshape the array mid-call: the
    call works on one consistent layout, the one before or after the hook."""
    x = small_array(b)
    if b.pick(2) and x.ndim > 0:
        x = x.reshape(reshapes_of(x)[b.pick(len(reshapes_of(x)))])

    def part():
        k = b.pick(4)
        if k == 0:
            return Reshaper(b, x, b.index_like() if b.pick(2) else b.pick(5))
        if k == 1:
            bound = lambda: Reshaper(b, x, b.pick(6) - 2) if b.pick(2) else None  # noqa: E731
            return slice(bound(), bound(), Reshaper(b, x, 1 + b.pick(3)) if b.pick(2) else None)
        if k == 2:
            return Reshaper(b, x, [b.pick(4) for _ in range(1 + b.pick(3))])
        return [None, Ellipsis, slice(None), 0][b.pick(4)]

    key = tuple(part() for _ in range(b.pick(5)))
    k = b.pick(9)
    if k == 0:
        check_array(x[key])
    elif k == 1:
        x[key] = [Reshaper(b, x, 0), 2, small_array(b)][b.pick(3)]
    elif k == 2:
        x[key] = Reshaper(b, x, np.ones(b.pick(5)))
    elif k == 3:
        check_array(ua.roll(x, Reshaper(b, x, 1), axis=Reshaper(b, x, b.pick(3))))
    elif k == 4:
        check_array(ua.repeat(x, Reshaper(b, x, 2), axis=Reshaper(b, x, b.pick(3))))
    elif k == 5:
        other = [x, small_array(b), x[...]][b.pick(3)]
        fn = [ua.concat, ua.stack][b.pick(2)]
        check_array(fn([x, other], axis=Reshaper(b, x, b.pick(3))))
    elif k == 6:
        fn = [ua.sum, ua.sort, ua.cumulative_sum, ua.flip, ua.argmax, ua.diff][b.pick(6)]
        check_array(fn(x, axis=Reshaper(b, x, b.pick(3))))
    elif k == 7:
        x.shape = tuple(Reshaper(b, x, v) for v in reshapes_of(x)[b.pick(len(reshapes_of(x)))])
    else:
        check_array(ua.take(x, Reshaper(b, x, [b.pick(4)]), axis=Reshaper(b, x, b.pick(3))))
    check_array(x)


def op_elementwise(b):
    """Every elementwise function and operator on operands of any dtype,
    layout and kind: an accepted call gives the broadcast shape."""
    name, arity = ELEMENTWISE[b.pick(len(ELEMENTWISE))]
    ops = [elementwise_operand(b) for _ in range(arity)]
    k = b.pick(4)
    if k == 0 and arity == 2:
        import operator

        if not any(isinstance(o, ua.USMArray) for o in ops):
            return  # Python's own operators on two scalars (2**70 ** 2**63 never ends)

        op = OPERATORS[b.pick(len(OPERATORS))]
        if b.pick(2) and isinstance(ops[0], ua.USMArray):
            ops[0] = ua.asarray(ops[0], copy=True)
            out = getattr(
                operator, f"i{op}" if op not in ("eq", "ne", "lt", "le", "gt", "ge") else op
            )(*ops)
        else:
            out = getattr(operator, op if op not in ("and", "or") else op + "_")(*ops)
    elif k == 1 and name == "clip":
        if not b.pick(2):
            ops = ops[:2]  # no max: the result broadcasts x and min alone
        out = ua.clip(ops[0], min=ops[1], max=ops[2] if len(ops) > 2 else None)
    else:
        out = getattr(ua, name)(*ops)
    if isinstance(out, ua.USMArray):
        shapes = [o.shape for o in ops if isinstance(o, ua.USMArray)]
        want = np.broadcast_shapes(*shapes)
        if out.shape != want:
            raise AssertionError(f"{name}: shape {out.shape}, broadcast {want}")
        check_array(out)


def op_catalogue(b):
    CATALOGUE[b.fdp.ConsumeIntInRange(0, len(CATALOGUE) - 1)]()


OPS = [
    op_catalogue,
    op_creation,
    op_constructor,
    op_view,
    op_suai,
    op_cai,
    op_dlpack,
    op_devices,
    op_host_data,
    op_data_types,
    op_manipulation,
    op_dpctl_extensions,
    op_astype,
    op_namespace_info,
    op_reductions,
    op_linalg,
    op_elementwise,
    op_fft,
    op_shape_limits,
    op_reshaping_hooks,
]


def check_array(x, walk=True):
    """What an accepted array promises: a size that is the product of its
    shape and elements that can be read back."""
    if not isinstance(x, ua.USMArray):
        return
    n = 1
    for s in x.shape:
        n *= s
    if x.size != n or x.nbytes != n * x.itemsize:
        raise AssertionError(f"size {x.size} of shape {x.shape}")
    if walk and n <= LIMIT_SIZE:
        host = ua.asnumpy(x)
        if host.shape != x.shape:
            raise AssertionError("asnumpy changed the shape")


SEED_TAG = b"catalogue:"


def run_one(data):
    ops = []
    if data.startswith(SEED_TAG) and len(data) >= len(SEED_TAG) + 2:
        row = int.from_bytes(data[len(SEED_TAG) : len(SEED_TAG) + 2], "big")
        ops.append(lambda b: CATALOGUE[row % len(CATALOGUE)]())
        data = data[len(SEED_TAG) + 2 :]
    b = Builder(data)
    ops += [OPS[b.pick(len(OPS))] for _ in range(1 + b.pick(2))]
    for op in ops:
        try:
            op(b)
        except SystemError:
            raise
        except (Hook, RuntimeError) + EXPECTED:
            pass
        except pytest.skip.Exception:
            pass  # a catalogue row for a device this machine lacks


def write_seeds(directory):
    """One seed per catalogue row: the row, then a few more calls."""
    os.makedirs(directory, exist_ok=True)
    for row in range(len(CATALOGUE)):
        tail = bytes((row * 7 + k * 13) % 256 for k in range(24))
        with open(os.path.join(directory, f"row{row:04d}"), "wb") as f:
            f.write(SEED_TAG + row.to_bytes(2, "big") + tail)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--write-seeds":
        write_seeds(sys.argv[2])
        return
    atheris.Setup(sys.argv, run_one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
