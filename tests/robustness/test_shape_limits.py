"""Shapes past the 64-dimension limit.

Every entry point that composes its result's shape from several operands
(the sum of their numbers of dimensions, a number of dimensions and extra
axes, the largest of them, a batch and a matrix), or takes a shape from its
arguments, refuses one of more than 64 dimensions with an exception that
names the limit: ValueError, IndexError for indexing, BufferError for
DLPack.  A shape at the limit still works where building it is cheap."""

import ctypes

import numpy as np
import pytest
import usmarray as ua
from conftest import Holder, suai
from dlpack_ctypes import Tensor

LIMIT = 64


def ones(nd, dtype="f8"):
    """An array of nd axes of length 1."""
    return ua.ones((1,) * nd, dtype=dtype)


def indices(nd):
    return ua.zeros((1,) * nd, dtype="i8")


def ones_from(nd, last):
    """An array of nd axes, all of length 1 but the last ones given."""
    return ua.ones((1,) * (nd - len(last)) + tuple(last))


def setitem(x, key, value):
    x[key] = value


def setattr_(obj, name, value):
    setattr(obj, name, value)


def nested_list(depth):
    v = 1.0
    for _ in range(depth):
        v = [v]
    return v


def array_interface(nd):
    class A:
        __array_interface__ = {
            "shape": (1,) * nd,
            "typestr": "<f8",
            "data": (np.zeros(1).ctypes.data, False),
            "version": 3,
        }

    return A()


def cuda_interface(nd):
    mem = ua.MemoryUSMShared(64, queue="host")
    d = {"shape": (1,) * nd, "typestr": "<f8", "data": (mem._pointer, False), "version": 3}
    return ua.asarray(type("C", (), {"__cuda_array_interface__": d, "keep": mem})())


def suai_import(nd):
    mem = ua.MemoryUSMShared(64)
    return ua.asarray(Holder(suai(mem, shape=(1,) * nd, strides=None), keep=mem))


def dlpack_import(nd):
    t = Tensor(np.ones(1), ndim=nd, shape=[1] * nd, strides=None)
    return ua.from_dlpack(t.capsule())


# ------------------------------------------------------------- the C API

_TABLE_NAME = b"usmarray._usmarray._C_API"
# The table's order is the ABI of version 1.0.
_NEW, _FROM_MEMORY = 9, 10


class _Table(ctypes.Structure):
    """The head of usmarray_api.h's UsmArray_CAPI."""

    _fields_ = [
        ("major", ctypes.c_uint),
        ("minor", ctypes.c_uint),
        ("types", ctypes.c_void_p * 8),
        ("functions", ctypes.c_void_p * 23),
    ]


def _table():
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    from usmarray import _usmarray

    return get(_usmarray._C_API, _TABLE_NAME)


def _capi(index, *argtypes):
    table = _table()
    address = _Table.from_address(table).functions[index]
    return table, ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, *argtypes)(address)


def capi_new(nd):
    table, new = _capi(
        _NEW,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_ssize_t),
        ctypes.c_int,
        ctypes.c_void_p,
        ctypes.c_char_p,
        ctypes.c_void_p,
    )
    shape = (ctypes.c_ssize_t * max(nd, 1))(*([1] * nd))
    return new(table, nd, shape, 12, None, None, None)


def capi_from_memory(nd):
    table, from_memory = _capi(
        _FROM_MEMORY,
        ctypes.py_object,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_ssize_t),
        ctypes.c_int,
        ctypes.c_void_p,
        ctypes.c_ssize_t,
    )
    shape = (ctypes.c_ssize_t * max(nd, 1))(*([1] * nd))
    return from_memory(table, ua.MemoryUSMShared(64), nd, shape, 12, None, 0)


# --------------------------------------------------------------- refusals

R = pytest.param
REFUSED = [
    # composed from several operands
    R(lambda: ua.tensordot(ones(33), ones(33), axes=0), ValueError, "tensordot: the result would have 66", id="tensordot-axes-0"),
    R(lambda: ua.tensordot(ones(33), ones(32), axes=([], [])), ValueError, "tensordot: the result would have 65", id="tensordot-empty-pairs"),
    R(lambda: ua.tensordot(ones(34), ones(33), axes=1), ValueError, "tensordot: the result would have 65", id="tensordot-axes-1"),
    R(lambda: ua.tensordot(ones(34), ones(33), axes=([0], [1])), ValueError, "tensordot: the result would have 65", id="tensordot-pairs"),
    R(lambda: ua.linalg.tensordot(ones(33), ones(33), axes=0), ValueError, "tensordot: the result would have 66", id="linalg-tensordot"),
    R(lambda: ua.stack([ones(64), ones(64)]), ValueError, "stack: the result would have 65", id="stack"),
    R(lambda: ua.expand_dims(ones(64), axis=0), ValueError, "expand_dims: the result would have 65", id="expand-dims"),
    R(lambda: ua.expand_dims(ones(33), axis=tuple(range(33))), ValueError, "expand_dims: the result would have 66", id="expand-dims-many-axes"),
    R(lambda: ua.meshgrid(*[ua.ones(1)] * 65), ValueError, "meshgrid: the result would have 65", id="meshgrid"),
    R(lambda: ua.meshgrid(*[ua.ones(1)] * 65, indexing="ij"), ValueError, "meshgrid: the result would have 65", id="meshgrid-ij"),
    R(lambda: ua.take(ones(64), indices(2), axis=0), ValueError, "take: the result would have 65", id="take"),
    R(lambda: ua.take(ones(33), indices(33), axis=5), ValueError, "take: the result would have 65", id="take-middle-axis"),
    R(lambda: ua.linalg.pinv(ones(64), rtol=ones(63)), ValueError, "pinv: the result would have 65", id="pinv-rtol"),
    R(lambda: ua.linalg.matrix_rank(ones(64), rtol=ones(64)), ValueError, "matrix_rank: the result would have 65", id="matrix-rank-rtol"),
    # indexing: IndexError
    R(lambda: ones(64)[None], IndexError, "an index adds axes beyond 64", id="getitem-newaxis"),
    R(lambda: ones(64)[None, ...], IndexError, "an index adds axes beyond 64", id="getitem-newaxis-ellipsis"),
    R(lambda: ones(64)[indices(2)], IndexError, "an index adds axes beyond 64", id="getitem-index-array"),
    R(lambda: ones(64)[indices(2), indices(2), None], IndexError, "an index adds axes beyond 64", id="getitem-index-arrays-newaxis"),
    R(lambda: ones(64)[ua.zeros((1,) * 33, dtype="i8"), ..., ua.zeros((1,) * 33, dtype="i8")], IndexError, "an index adds axes beyond 64", id="getitem-apart-indices"),
    R(lambda: setitem(ones(64), (indices(2),), 1.0), IndexError, "an index adds axes beyond 64", id="setitem-index-array"),
    R(lambda: setitem(ones(64), None, 1.0), IndexError, "an index adds axes beyond 64", id="setitem-newaxis"),
    # shapes taken from arguments
    R(lambda: ua.broadcast_to(ones(64), (1,) * 65), ValueError, "at most 64", id="broadcast-to"),
    R(lambda: ua.reshape(ones(33), (1,) * 65), ValueError, "at most 64", id="reshape"),
    R(lambda: ones(33).reshape((1,) * 65), ValueError, "at most 64", id="reshape-method"),
    R(lambda: setattr_(ones(33), "shape", (1,) * 65), ValueError, "at most 64", id="shape-setter"),
    R(lambda: ua.tile(ones(33), (1,) * 65), ValueError, "at most 64", id="tile"),
    R(lambda: ua.roll(ones(64), (1,) * 65, axis=(0,) * 65), ValueError, "at most 64", id="roll"),
    R(lambda: ua.flip(ones(64), axis=(0,) * 65), ValueError, "at most 64", id="flip"),
    R(lambda: ua.permute_dims(ones(64), tuple(range(65))), ValueError, "at most 64", id="permute-dims"),
    R(lambda: ua.zeros((1,) * 65), ValueError, "at most 64", id="zeros"),
    R(lambda: ua.ones((1,) * 65), ValueError, "at most 64", id="ones"),
    R(lambda: ua.empty((1,) * 65), ValueError, "at most 64", id="empty"),
    R(lambda: ua.full((1,) * 65, 2.0), ValueError, "at most 64", id="full"),
    R(lambda: ua.USMArray((1,) * 65), ValueError, "at most 64", id="constructor"),
    R(lambda: ua.asarray(nested_list(65)), ValueError, "64", id="asarray-nested"),
    R(lambda: ua.fft.fftn(ones(64, "c16"), s=(1,) * 65), ValueError, "at most 64", id="fftn-s"),
    R(lambda: ua.fft.ifftn(ones(64, "c16"), axes=(0,) * 65), ValueError, "at most 64", id="ifftn-axes"),
    R(lambda: ua.fft.rfftn(ones(64), s=(1,) * 65, axes=(0,) * 65), ValueError, "at most 64", id="rfftn-s-axes"),
    R(lambda: ua.fft.fftshift(ones(64), axes=(0,) * 65), ValueError, "at most 64", id="fftshift-axes"),
    # imports
    R(lambda: suai_import(65), ValueError, "at most 64", id="suai-import"),
    R(lambda: cuda_interface(65), ValueError, "at most 64", id="cai-import"),
    R(lambda: ua.asarray(array_interface(65)), ValueError, "64", id="array-interface-import"),
    R(lambda: dlpack_import(65), BufferError, "0 to 64", id="dlpack-import"),
    # the C API
    R(lambda: capi_new(65), ValueError, "UsmArray_New: nd must be in [0, 64]", id="capi-new"),
    R(lambda: capi_from_memory(65), ValueError, "UsmArray_FromMemory: nd must be in [0, 64]", id="capi-from-memory"),
]  # fmt: skip


@pytest.mark.parametrize("call, exc, fragment", REFUSED)
def test_a_shape_past_the_limit_is_refused_naming_it(call, exc, fragment):
    with pytest.raises(exc) as info:
        call()
    message = str(info.value)
    assert fragment in message and str(LIMIT) in message, message


def test_the_library_is_usable_after_the_refusals():
    for case in REFUSED:
        try:
            case.values[0]()
        except Exception:
            pass
    x = ua.arange(6.0).reshape(2, 3)
    assert ua.asnumpy(ua.tensordot(x, x.T, axes=1)).tolist() == [[5.0, 14.0], [14.0, 50.0]]


# ---------------------------------------------------------- at the limit

AT_LIMIT = [
    R(lambda: ua.tensordot(ones(32), ones(32), axes=0), id="tensordot-axes-0"),
    R(lambda: ua.tensordot(ones(33), ones(33), axes=1), id="tensordot-axes-1"),
    R(lambda: ua.linalg.tensordot(ones(34), ones(34), axes=([0, 1], [2, 3])), id="linalg-tensordot"),
    R(lambda: ua.stack([ones(63), ones(63)]), id="stack"),
    R(lambda: ua.expand_dims(ones(32), axis=tuple(range(32))), id="expand-dims"),
    R(lambda: ua.meshgrid(*[ua.ones(1)] * 64)[0], id="meshgrid"),
    R(lambda: ua.take(ones(63), indices(2), axis=62), id="take"),
    R(lambda: ua.take(ua.ones(3), indices(64)), id="take-one-dimensional"),
    R(lambda: ones(63)[indices(2)], id="getitem-index-array"),
    R(lambda: ones(63)[None], id="getitem-newaxis"),
    R(lambda: ones(64)[indices(1)], id="getitem-index-replaces-axis"),
    R(lambda: ua.matmul(ones(64), ones(64)), id="matmul"),
    R(lambda: ua.matmul(ones(64), ones(33)), id="matmul-broadcast"),
    R(lambda: ua.add(ones(64), ones(33)), id="add-broadcast"),
    R(lambda: ua.where(ones(64, "?"), ones(33), 1.0), id="where"),
    R(lambda: ua.clip(ones(33), ones(64), 2.0), id="clip"),
    R(lambda: ua.broadcast_arrays(ones(64), ones(33))[1], id="broadcast-arrays"),
    R(lambda: ua.broadcast_to(ones(33), (1,) * 64), id="broadcast-to"),
    R(lambda: ua.concat([ones(64), ones(64)]), id="concat"),
    R(lambda: ua.tile(ones(33), (1,) * 64), id="tile"),
    R(lambda: ua.repeat(ones(64), 2, axis=63), id="repeat"),
    R(lambda: ua.roll(ones(64), 1, axis=0), id="roll"),
    R(lambda: ua.take_along_axis(ones(64), indices(64), axis=0), id="take-along-axis"),
    R(lambda: ua.searchsorted(ua.arange(3.0), ones(64)), id="searchsorted"),
    R(lambda: ua.unique_inverse(ones(64)).inverse_indices, id="unique-inverse"),
    R(lambda: ua.sort(ones(64), axis=0), id="sort"),
    R(lambda: ua.cumulative_sum(ones(64), axis=0, include_initial=True), id="cumulative-sum"),
    R(lambda: ua.sum(ones(64), keepdims=True), id="sum-keepdims"),
    R(lambda: ua.linalg.solve(ones(64), ones(64)), id="solve"),
    R(lambda: ua.linalg.cross(ones_from(64, (3,)), ones_from(64, (3,))), id="cross"),
    R(lambda: ua.linalg.pinv(ones(64), rtol=ones(62)), id="pinv-rtol"),
    R(lambda: ua.linalg.matrix_norm(ones(64), keepdims=True), id="matrix-norm-keepdims"),
    R(lambda: ua.fft.fftn(ones(64, "c16"), s=(1,) * 64), id="fftn-s"),
    R(lambda: ua.asarray(nested_list(64)), id="asarray-nested"),
    R(lambda: suai_import(64), id="suai-import"),
    R(lambda: dlpack_import(64), id="dlpack-import"),
    R(lambda: capi_new(64), id="capi-new"),
]  # fmt: skip


@pytest.mark.parametrize("call", AT_LIMIT)
def test_a_shape_at_the_limit_works(call):
    assert call().ndim == LIMIT


# The batch of vecdot's operands keeps all their axes but one: operands of
# 64 dimensions give 63, through no intermediate of 65.
@pytest.mark.parametrize("vecdot", [ua.vecdot, ua.linalg.vecdot], ids=["vecdot", "linalg-vecdot"])
def test_vecdot_of_operands_at_the_limit(vecdot):
    x1 = ones_from(64, (2, 3))
    x2 = ua.full((1,) * 62 + (2, 3), 2.0)
    out = vecdot(x1, x2)
    assert out.shape == (1,) * 62 + (2,) and ua.asnumpy(out).ravel().tolist() == [6.0, 6.0]
    out = vecdot(x1, x2, axis=-2)
    assert out.shape == (1,) * 62 + (3,) and ua.asnumpy(out).ravel().tolist() == [4.0] * 3
    assert vecdot(ones(64), ua.ones(1)).shape == (1,) * 63


@pytest.mark.parametrize(
    "s1, s2, axis",
    [((3, 4), (4,), -1), ((2, 3, 4), (3, 4), -2), ((5, 1, 3), (4, 3), -1), ((3,), (3,), -1)],
)
def test_vecdot_pairs_vectors_as_numpy_does(s1, s2, axis):
    rng = np.random.default_rng(7)
    a = rng.standard_normal(s1) + 1j * rng.standard_normal(s1)
    b = rng.standard_normal(s2) + 1j * rng.standard_normal(s2)
    out = ua.vecdot(ua.asarray(a), ua.asarray(b), axis=axis)
    want = np.vecdot(a, b, axis=axis)
    assert out.shape == want.shape and out.dtype == want.dtype
    np.testing.assert_allclose(ua.asnumpy(out), want, rtol=1e-12)
    assert out.flags.writable


def test_vecdot_of_integers_keeps_their_promoted_dtype():
    i = ua.vecdot(ua.asarray(np.arange(3, dtype="i1")), ua.asarray(np.arange(3, dtype="i2")))
    assert i.dtype == ua.int16 and int(i) == 5


def test_the_limit_is_the_namespace_capability():
    assert ua.__array_namespace_info__().capabilities()["max dimensions"] == LIMIT
