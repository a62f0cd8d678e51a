"""Hostile inputs: user code that runs inside the library's calls
(__index__, __getattr__, properties) and changes what is being read, sizes
that overflow, capsules without names, and flags that must not be dropped.

Each test names a class of fault and drives every entry point the class
reaches.  CI runs this file against the ASan + UBSan extension with
PYTHONMALLOC=malloc, so a read of a freed Python object fails it."""

import warnings

import numpy as np
import pytest
import usmarray as ua
from conftest import Holder, suai
from hostile_objects import Clearing, DtypeAttr, emptied_list, null_name_capsule


class Boom(Exception):
    pass


def host(shape=(4,), dtype="f8"):
    n = int(np.prod(shape))
    return ua.arange(n, dtype=dtype, usm_type="host").reshape(shape)


# ---- 1. sequences that change while they are read ----------------------
#
# Every entry point that reads a sequence of integers: the first item's
# __index__ empties the sequence.  The library reads what the sequence held
# when it was passed; when the hook raises, its exception comes through.


def _shape_of_empty(seq):
    return ua.empty(seq, usm_type="host").shape


SEQUENCE_READERS = {
    "empty": lambda s: ua.empty(s, usm_type="host").shape,
    "zeros": lambda s: ua.zeros(s, usm_type="host").shape,
    "ones": lambda s: ua.ones(s, usm_type="host").shape,
    "full": lambda s: ua.full(s, 2.0, usm_type="host").shape,
    "USMArray-shape": lambda s: ua.USMArray(s, buffer="host").shape,
    "USMArray-strides": lambda s: ua.USMArray((2, 3, 4), buffer="host", strides=s).strides,
    "reshape-method": lambda s: host((24,)).reshape(s).shape,
    "reshape-function": lambda s: ua.reshape(host((24,)), s).shape,
    "transpose": lambda s: host((2, 3, 4)).transpose(s).shape,
    "permute_dims": lambda s: ua.permute_dims(host((2, 3, 4)), s).shape,
}

SEQUENCE_VALUES = {
    "empty": ([2, 3, 4], (2, 3, 4)),
    "zeros": ([2, 3, 4], (2, 3, 4)),
    "ones": ([2, 3, 4], (2, 3, 4)),
    "full": ([2, 3, 4], (2, 3, 4)),
    "USMArray-shape": ([2, 3, 4], (2, 3, 4)),
    "USMArray-strides": ([12, 4, 1], (12, 4, 1)),
    "reshape-method": ([4, 6], (4, 6)),
    "reshape-function": ([4, 6], (4, 6)),
    "transpose": ([2, 0, 1], (4, 2, 3)),
    "permute_dims": ([2, 0, 1], (4, 2, 3)),
}


@pytest.mark.parametrize("entry", sorted(SEQUENCE_READERS))
def test_a_sequence_emptied_by_its_item_is_read_as_passed(entry):
    values, expected = SEQUENCE_VALUES[entry]
    assert SEQUENCE_READERS[entry](emptied_list(values)) == expected


@pytest.mark.parametrize("entry", sorted(SEQUENCE_READERS))
def test_a_sequence_emptied_by_a_raising_item_raises_that_error(entry):
    values, _ = SEQUENCE_VALUES[entry]
    with pytest.raises(Boom, match="hook raised"):
        SEQUENCE_READERS[entry](emptied_list(values, error=Boom("hook raised")))


@pytest.mark.parametrize("entry", sorted(SEQUENCE_READERS))
def test_a_sequence_emptied_by_a_refusing_item_names_the_item(entry):
    """A TypeError from __index__ is reworded with the item's type: the
    item must still exist when the message is built."""
    values, _ = SEQUENCE_VALUES[entry]
    with pytest.raises(TypeError, match=r"\[0\] must be an integer, not Clearing"):
        SEQUENCE_READERS[entry](emptied_list(values, error=TypeError("no")))


# ---- 1 and 2. interface dictionaries changed while they are read -------
#
# The hook empties the dictionary (dropping the last reference to the
# values read before it) and the sequence it sits in.


def _suai_import(mutate, reader):
    mem = ua.MemoryUSMShared(64)
    iface = suai(mem, typestr="|u1", shape=(8, 8))
    mutate(iface)
    return reader(Holder(iface, keep=mem))


SUAI_READERS = {
    "asarray": lambda h: ua.asarray(h),
    "MemoryUSMShared": lambda h: ua.MemoryUSMShared(h),
    "as_usm_memory": lambda h: ua.as_usm_memory(h),
    "USMArray-buffer": lambda h: ua.USMArray((8, 8), "u1", buffer=ua.as_usm_memory(h)),
}


# Each hook holds the dictionary only, so that emptying it frees the value
# being read (and the items after the hook) unless the library holds
# references of its own.
def _clear_shape(iface):
    iface["shape"] = [Clearing(8, iface), 8]


def _clear_strides(iface):
    iface["strides"] = [Clearing(8, iface), 1]


def _clear_offset(iface):
    iface["offset"] = Clearing(0, iface, error=TypeError("no"))


def _clear_version(iface):
    iface["version"] = Clearing(1, iface, error=TypeError("no"))


class AttrClearing:
    """A syclobj whose attribute lookups empty the dictionary holding it
    (the first lookup; the import asks several: _get_capsule, sycl_queue and
    filter_string, the forms of dpctl's objects)."""

    def __init__(self, d):
        self.d = d

    def __getattr__(self, name):
        self.__dict__.pop("d", {}).clear()
        raise AttributeError(name)


def _clear_syclobj(iface):
    iface["syclobj"] = AttrClearing(iface)


SUAI_MUTATIONS = {
    "shape": (_clear_shape, ValueError, "no required key 'typestr'"),
    "strides": (_clear_strides, ValueError, "no required key 'syclobj'"),
    "offset": (_clear_offset, TypeError, r"\['offset'\] must be an integer, not Clearing"),
    "version": (_clear_version, TypeError, r"\['version'\] must be an integer, not Clearing"),
    "syclobj": (_clear_syclobj, TypeError, "not AttrClearing"),
}


@pytest.mark.parametrize("reader", sorted(SUAI_READERS))
@pytest.mark.parametrize("key", sorted(SUAI_MUTATIONS))
def test_suai_dictionary_emptied_while_read(key, reader):
    mutate, exc, fragment = SUAI_MUTATIONS[key]
    with pytest.raises(exc, match=fragment):
        _suai_import(mutate, SUAI_READERS[reader])


@pytest.mark.parametrize("key", ["shape", "strides", "offset", "version"])
def test_suai_values_dropped_after_reading_are_used_as_read(key):
    """The hook drops its own key and returns the value: the import
    sees the dictionary as it was when each key was read."""
    mem = ua.MemoryUSMShared(64)
    mem.copy_from_host(bytes(range(64)))
    iface = suai(mem, typestr="|u1", shape=(8,), strides=(2,), offset=4)
    value = {"shape": 8, "strides": 2, "offset": 4, "version": 1}[key]

    class Drop:
        def __index__(self):
            iface.pop(key)
            return value

    if key in ("shape", "strides"):
        iface[key] = [Drop()]
    else:
        iface[key] = Drop()
    x = ua.asarray(Holder(iface, keep=mem))
    assert ua.asnumpy(x).tolist() == list(range(4, 20, 2))


def _cai(mutate):
    # Host-backend memory: the import reads every key, then refuses the
    # pointer whatever the default device is (on a CUDA device it would
    # otherwise succeed with the values as read).
    mem = ua.MemoryUSMShared(64, queue="host")
    d = {
        "shape": (2, 4),
        "typestr": "<f8",
        "data": (mem._pointer, False),
        "version": 3,
        "strides": (32, 8),
    }
    mutate(d)
    return ua.asarray(type("C", (), {"__cuda_array_interface__": d})())


@pytest.mark.parametrize(
    "key, exc, fragment",
    [
        ("shape", ValueError, "no required key 'typestr'"),
        ("strides", ValueError, "CUDA"),
        ("version", TypeError, r"\['version'\] must be an integer, not Clearing"),
    ],
)
def test_cai_dictionary_emptied_while_read(key, exc, fragment):
    def mutate(d):
        if key == "version":
            d[key] = Clearing(3, d, error=TypeError("no"))
        else:
            d[key] = [Clearing(d[key][0], d), d[key][1]]

    with pytest.raises(exc, match=fragment):
        _cai(mutate)


# ---- 3. capsules without a name ------------------------------------------

NULL_CAPSULE_CALLS = {
    "empty-queue": lambda c: ua.empty(2, queue=c),
    "empty-device": lambda c: ua.empty(2, device=c),
    "Queue": lambda c: ua.Queue(c),
    "Context": lambda c: ua.Context(c),
    "Memory-queue": lambda c: ua.MemoryUSMShared(8, queue=c),
    "get_pointer_type": lambda c: ua.get_pointer_type(0, c),
    "suai-syclobj": lambda c: _suai_import(lambda d: d.update(syclobj=c), ua.asarray),
    "to_device": lambda c: host().to_device(c),
}


@pytest.mark.parametrize("entry", sorted(NULL_CAPSULE_CALLS))
def test_a_capsule_without_a_name_is_refused_by_name(entry):
    with pytest.raises((TypeError, ValueError)) as info:
        NULL_CAPSULE_CALLS[entry](null_name_capsule())
    assert "capsule" in str(info.value) or "PyCapsule" in str(info.value)


def test_from_dlpack_of_a_capsule_without_a_name_raises_type_error():
    with pytest.raises(TypeError, match="capsule without a name is not a DLPack capsule"):
        ua.from_dlpack(null_name_capsule())


# ---- 4. element and byte counts that do not fit in intp ----------------
#
# NumPy refuses a shape whose element count or byte count (zero extents
# left out) does not fit in intp, whatever the strides; so must every
# entry point that accepts a shape.


def numpy_refuses(shape, dtype="f8"):
    with pytest.raises(ValueError):
        np.empty(shape, dtype)


TOO_BIG = [
    ((2**62, 4), "f8"),
    ((2**32, 2**32), "u1"),
    ((2**61,), "f8"),
    ((0, 2**62, 4), "f8"),
    ((2**62, 4, 0), "u1"),
    ((0, 2**61, 2), "f8"),
]


def _zero_strides_view(shape, dtype):
    mem = ua.MemoryUSMShared(64)
    return ua.USMArray(shape, dtype, buffer=mem, strides=(0,) * len(shape))


def _suai_of(shape, dtype):
    mem = ua.MemoryUSMShared(64)
    iface = suai(mem, shape=shape, strides=(0,) * len(shape), typestr=np.dtype(dtype).str)
    return ua.asarray(Holder(iface, keep=mem))


def _cai_of(shape, dtype):
    mem = ua.MemoryUSMShared(64)
    d = {
        "shape": shape,
        "typestr": np.dtype(dtype).str,
        "version": 3,
        "data": (mem._pointer, False),
        "strides": (0,) * len(shape),
    }
    return ua.asarray(type("C", (), {"__cuda_array_interface__": d})())


def _dlpack_of(shape, dtype):
    from dlpack_ctypes import Tensor

    src = np.zeros(4, dtype)
    t = Tensor(src, ndim=len(shape), shape=shape, strides=[0] * len(shape))
    try:
        return ua.from_dlpack(t.capsule())
    finally:
        del t


SHAPE_TAKERS = {
    "empty": lambda shape, dt: ua.empty(shape, dtype=dt),
    "zeros": lambda shape, dt: ua.zeros(shape, dtype=dt, usm_type="host"),
    "full": lambda shape, dt: ua.full(shape, 1, dtype=dt, usm_type="shared"),
    "USMArray-allocating": lambda shape, dt: ua.USMArray(shape, dt, buffer="host"),
    "USMArray-zero-strides": _zero_strides_view,
    "reshape": lambda shape, dt: ua.empty(0, dtype=dt).reshape(shape),
    "reshape-infer": lambda shape, dt: ua.empty(0, dtype=dt).reshape(shape + (-1,)),
    "suai": _suai_of,
    "cai": _cai_of,
    "dlpack": _dlpack_of,
}


@pytest.mark.parametrize("shape, dtype", TOO_BIG)
@pytest.mark.parametrize("entry", sorted(SHAPE_TAKERS))
def test_shapes_too_big_for_intp_are_refused_as_numpy_refuses(entry, shape, dtype):
    numpy_refuses(shape, dtype)
    # DLPack import errors are BufferErrors, as NumPy's from_dlpack raises.
    exc = BufferError if entry == "dlpack" else ValueError
    with pytest.raises(exc, match="too many elements|more bytes than can be addressed"):
        SHAPE_TAKERS[entry](shape, dtype)


def test_the_largest_zero_strided_shape_numpy_takes_is_taken():
    shape = (2**31, 2**31 - 1)
    ref = np.lib.stride_tricks.as_strided(np.zeros(1, "u1"), shape, (0, 0))
    x = _zero_strides_view(shape, "u1")
    assert x.size == ref.size and x.nbytes == ref.nbytes


def test_strides_beyond_a_byte_count_are_refused_even_when_empty():
    mem = ua.MemoryUSMShared(64)
    with pytest.raises(ValueError, match=r"strides\[0\] .* beyond addressable memory"):
        ua.USMArray((3, 0), buffer=mem, strides=(2**62, 1))


def test_fill_of_a_broadcast_view_reaches_every_element():
    x = _zero_strides_view((2**20, 4), "f8")
    x[...] = 3.0
    assert x.size == 2**22
    assert ua.asnumpy(x[-1]).tolist() == [3.0] * 4


@pytest.mark.parametrize("step", [2**62, -(2**62), 2**63 - 1, -(2**63)])
def test_slicing_with_a_huge_step_matches_numpy(step):
    x, ref = host((4,)), np.arange(4.0)
    view = x[::step]
    assert ua.asnumpy(view).tolist() == ref[::step].tolist()
    assert view.shape == ref[::step].shape
    y, ref2 = host((3, 4)), np.arange(12.0).reshape(3, 4)
    assert ua.asnumpy(y[::step, 1]).tolist() == ref2[::step, 1].tolist()


def test_indexing_an_empty_array_with_huge_strides():
    mem = ua.MemoryUSMShared(64)
    e = ua.USMArray((3, 0), buffer=mem, strides=(2**59, 1))
    ref = np.empty((3, 0))
    assert e[2].shape == ref[2].shape and e[-3].shape == ref[-3].shape
    assert e[::2].shape == ref[::2].shape
    assert e[1:, ::-1].shape == ref[1:, ::-1].shape
    assert ua.empty_like(e).shape == (3, 0)
    assert ua.asnumpy(e[::2]).shape == (2, 0)


def test_copies_between_empty_arrays_with_huge_strides():
    mem = ua.MemoryUSMShared(64)
    e = ua.USMArray((3, 0), buffer=mem, strides=(2**59, 1))
    f = ua.USMArray((3, 0), buffer=mem, strides=(-(2**59), 1), offset=1)
    e[...] = f
    assert ua.asnumpy(e.copy()).shape == (3, 0)


# ---- 9. flags and options that must not be dropped ---------------------


def _layouts():
    base = np.arange(24.0).reshape(4, 6)
    return {
        "c": base,
        "f": np.asfortranarray(base),
        "strided": base[::2, ::3],
        "transposed-strided": base.T[::2],
    }


@pytest.mark.parametrize("layout", sorted(_layouts()))
@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_astype_without_copy_honours_order_as_numpy_does(layout, order):
    ref = _layouts()[layout]
    x = ua.asarray(ref, usm_type="host")
    if layout == "strided":
        x = ua.asarray(_layouts()["c"], usm_type="host")[::2, ::3]
    elif layout == "transposed-strided":
        x = ua.asarray(_layouts()["c"], usm_type="host").T[::2]
    y = x.astype(x.dtype, order=order, copy=False)
    ry = ref.astype(ref.dtype, order=order, copy=False)
    assert (y is x) == (ry is ref)
    assert y.flags.c_contiguous == ry.flags.c_contiguous
    assert y.flags.f_contiguous == ry.flags.f_contiguous
    assert ua.asnumpy(y).tolist() == ry.tolist()


@pytest.mark.parametrize("buffer", ["array", "view"])
def test_an_array_over_a_read_only_array_is_read_only(buffer):
    a = host((8,))
    a.flags.writable = False
    src = a if buffer == "array" else a[::2]
    b = ua.USMArray((8,), buffer=src)
    assert not b.flags.writable
    with pytest.raises(ValueError, match="read-only"):
        b[0] = 5.0
    assert ua.asnumpy(a)[0] == 0.0
    ref = np.arange(8.0)
    ref.flags.writeable = False
    assert not np.ndarray((8,), buffer=ref).flags.writeable


def test_an_array_over_a_writable_array_stays_writable():
    a = host((8,))
    b = ua.USMArray((8,), buffer=a)
    b[0] = 5.0
    assert ua.asnumpy(a)[0] == 5.0


# ---- 7. the dtype cache keys only dtype-likes that cannot change -------

DTYPE_TAKERS = {
    "empty": lambda dt: ua.empty(2, dtype=dt).dtype,
    "USMArray": lambda dt: ua.USMArray(2, dtype=dt, buffer="host").dtype,
    "asarray": lambda dt: ua.asarray([1, 2], dtype=dt).dtype,
    "astype": lambda dt: host((2,)).astype(dt).dtype,
    "full": lambda dt: ua.full(2, 1, dtype=dt).dtype,
}


@pytest.mark.parametrize("entry", sorted(DTYPE_TAKERS))
def test_an_object_whose_dtype_attribute_changes_is_read_each_time(entry):
    obj = DtypeAttr(np.dtype("float32"))
    assert DTYPE_TAKERS[entry](obj) == np.dtype(obj) == np.float32
    obj.dtype = np.dtype("int64")
    assert DTYPE_TAKERS[entry](obj) == np.dtype(obj) == np.int64


def test_objects_that_compare_equal_do_not_share_an_entry():
    class Same(DtypeAttr):
        def __eq__(self, other):
            return isinstance(other, Same)

        def __hash__(self):
            return 1

    assert ua.empty(1, dtype=Same(np.dtype("f4"))).dtype == np.float32
    assert ua.empty(1, dtype=Same(np.dtype("i2"))).dtype == np.int16


def test_the_cache_keeps_no_user_object_alive():
    import gc
    import weakref

    obj = DtypeAttr(np.dtype("u2"))
    ref = weakref.ref(obj)
    assert ua.empty(1, dtype=obj).dtype == np.uint16
    del obj
    gc.collect()
    assert ref() is None


@pytest.mark.parametrize("dt", ["f4", np.float32, np.dtype("f4"), "float32"])
def test_immutable_dtype_likes_still_resolve(dt):
    for _ in range(3):
        assert ua.empty(1, dtype=dt).dtype == np.float32


# ---- found by the atheris fuzzer ----------------------------------------


def test_dlpack_import_refused_for_stride_bytes_leaves_the_capsule_unconsumed():
    """A tensor of one element whose stride is no byte count: it was
    consumed, then refused, and the producer's Python deleter ran with the
    error set (SystemError).  It is now refused before it is consumed."""
    from dlpack_ctypes import Tensor

    t = Tensor(np.arange(4.0), ndim=2, shape=(1, 1), strides=(-(2**63), 1))
    cap = t.capsule()
    with pytest.raises(BufferError, match="beyond addressable memory"):
        ua.from_dlpack(cap)
    with pytest.raises(BufferError, match="beyond addressable memory"):
        ua.from_dlpack(cap)  # still the producer's: not renamed "used_"


# ---- 8. data not aligned to its itemsize ---------------------------------
#
# NumPy accepts misaligned arrays (flags.aligned False) and computes with
# them correctly; so does every copy and cast here.  Under UBSan a typed
# load through a misaligned pointer fails these tests.


def misaligned_numpy(dtype, n=12):
    itemsize = np.dtype(dtype).itemsize
    raw = np.zeros(n * itemsize + 1, "u1")
    view = raw[1:].view(dtype)
    view[...] = np.arange(n) * 3 - 7
    assert not view.flags.aligned
    return view


def misaligned_suai(dtype, n=12):
    itemsize = np.dtype(dtype).itemsize
    mem = ua.MemoryUSMShared(n * itemsize + 16)
    values = (np.arange(n) * 3 - 7).astype(dtype)
    raw = bytearray(n * itemsize + 16)
    raw[1 : 1 + n * itemsize] = values.tobytes()
    mem.copy_from_host(bytes(raw))
    iface = suai(mem, shape=(n,), typestr=values.dtype.str, data=(mem._pointer + 1, False))
    return ua.asarray(Holder(iface, keep=mem)), values


@pytest.mark.parametrize("dtype", ["i2", "u4", "f4", "f8", "c8", "c16", "f2", "i8"])
@pytest.mark.parametrize("target", ["f8", "i4", "c16", "f2", "u1"])
def test_misaligned_host_data_copies_and_casts_as_numpy_does(dtype, target):
    src = misaligned_numpy(dtype)
    x = ua.asarray(src, usm_type="host", copy=False, queue="host")
    assert x._pointer % src.itemsize == 1
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        expected = src.astype(target)
        assert ua.asnumpy(x.astype(target)).tolist() == expected.tolist()
        assert ua.asnumpy(x[::-2].astype(target)).tolist() == expected[::-2].tolist()
    assert ua.asnumpy(x).tolist() == src.tolist()


@pytest.mark.parametrize("dtype", ["i2", "f4", "f8", "c16"])
def test_misaligned_destinations_are_written_correctly(dtype):
    src = misaligned_numpy(dtype)
    x = ua.asarray(src, usm_type="host", copy=False, queue="host")
    x[::2] = ua.asarray(np.arange(6).astype(dtype), usm_type="host", queue="host")
    x[1] = 5
    ref = misaligned_numpy(dtype)
    ref[::2] = np.arange(6).astype(dtype)
    ref[1] = 5
    assert src.tolist() == ref.tolist()


@pytest.mark.parametrize("dtype", ["i4", "f8", "c8"])
def test_misaligned_suai_pointers_are_read_correctly(dtype):
    x, values = misaligned_suai(dtype)
    assert x._pointer % values.itemsize != 0
    assert ua.asnumpy(x).tolist() == values.tolist()
    assert ua.asnumpy(x.astype("f8")).tolist() == values.astype("f8").tolist()
    assert ua.asnumpy(x[::-1].copy()).tolist() == values[::-1].tolist()


@pytest.mark.parametrize("source", ["f8", "f4", "f2"])
@pytest.mark.parametrize("target", ["i8", "u8", "i4", "u1", "b1"])
def test_casting_nan_and_infinities_to_integers_is_defined(source, target):
    ref = np.array([np.nan, np.inf, -np.inf, 1e30 if source != "f2" else 6e4, -3.5, 2.5], source)
    x = ua.asarray(ref, usm_type="host")
    got = ua.asnumpy(x.astype(target))
    with np.errstate(all="ignore"):
        expected = ref.astype(target)
    # The values in range are NumPy's; the rest are defined, not undefined.
    assert got[-2:].tolist() == expected[-2:].tolist()
    if target in ("i8", "b1"):
        assert got.tolist() == expected.tolist()
    # Every device defines them as the host engine does.
    on_host = ua.asarray(ref, usm_type="host", queue="host").astype(target)
    assert got.tolist() == ua.asnumpy(on_host).tolist()


# ---- 6. memory the registry knows is found as what it is ----------------


@pytest.mark.parametrize("view", [slice(0, 0), slice(8, 8), slice(8, 24), slice(None)])
def test_wrapping_a_view_of_shared_memory_as_host_does_not_shadow_it(view):
    x = ua.arange(8.0, usm_type="shared")
    seen = np.asarray(x)[view]
    y = ua.asarray(seen, usm_type="host")
    assert y.usm_type == "host"
    # Shared memory cannot be host memory without a copy, and stays shared.
    assert ua.get_pointer_type(x._pointer, x.queue) == "shared"
    if seen.size:
        assert ua.get_pointer_type(seen.ctypes.data, x.queue) == "shared"
        assert y._pointer != seen.ctypes.data
    # The original imports through SUAI, whole and in part, as shared.
    z = ua.asarray(Holder(x.__sycl_usm_array_interface__, keep=x))
    assert z.usm_type == "shared" and ua.asnumpy(z).tolist() == list(range(8))
    part = x[1:3]
    w = ua.asarray(Holder(part.__sycl_usm_array_interface__, keep=part))
    assert w.usm_type == "shared" and ua.asnumpy(w).tolist() == [1.0, 2.0]
    del y


def test_wrapping_shared_memory_as_host_without_a_copy_is_refused():
    # Only the host backend borrows host data, so only there is the refusal
    # about the kind of memory found.
    x = ua.arange(8.0, usm_type="shared", queue="host")
    with pytest.raises(ValueError, match="USM shared memory"):
        ua.asarray(np.asarray(x)[2:6], usm_type="host", copy=False, queue="host")
    assert ua.get_pointer_type(x._pointer + 16, x.queue) == "shared"


@pytest.mark.parametrize("kind", ["device", "shared", "host"])
def test_dlpack_round_trips_through_numpy_keep_the_kind(kind):
    """On the host backend NumPy can import any of our memory as kDLCPU;
    wrapping a view of it as host memory once recorded a borrowed region
    that later imports found in the allocation's place."""
    x = ua.arange(6.0, usm_type=kind, queue="host")
    n = np.from_dlpack(x)
    keep = [
        ua.asarray(n, usm_type="host", queue="host"),
        ua.asarray(n[1:3], usm_type="host", queue="host"),
    ]
    y = ua.from_dlpack(n)
    assert y.usm_type == kind and type(y.base) is type(x.base)
    assert ua.get_pointer_type(x._pointer + 8, x.queue) == kind
    assert ua.asnumpy(y).tolist() == list(range(6))
    assert all(k.usm_type == "host" for k in keep)


def test_an_empty_borrow_inside_host_data_does_not_hide_the_rest():
    data = np.arange(8.0)
    e = ua.asarray(data[0:0], usm_type="host", copy=False, queue="host")
    whole = ua.asarray(data, usm_type="host", copy=False, queue="host")
    again = ua.asarray(Holder(whole.__sycl_usm_array_interface__, keep=whole))
    assert ua.asnumpy(again).tolist() == data.tolist()
    del e


def test_empty_like_of_an_empty_array_with_the_most_negative_stride():
    """Found by the extended C layout fuzzer: sorting axes by the magnitude
    of a stride of -2**63 overflowed (an empty array's strides reach
    nothing and may be anything that stays a byte count)."""
    mem = ua.MemoryUSMShared(8)
    e = ua.USMArray((0, 2), "u1", buffer=mem, strides=(-(2**63), 1))
    assert ua.empty_like(e).shape == (0, 2)
    assert ua.asnumpy(e.copy(order="K")).shape == (0, 2)


def test_a_region_reaching_down_to_the_most_negative_byte_offset_is_refused():
    """Found by the atheris fuzzer: a SUAI layout whose lowest byte offset
    is exactly -2**63 overflowed while the allocation holding it was
    looked for."""
    mem = ua.MemoryUSMShared(64)
    iface = suai(mem, shape=(2,), strides=(-(2**62),), typestr="<i2", offset=0)
    with pytest.raises(ValueError, match="not inside any USM allocation|outside"):
        ua.asarray(Holder(iface, keep=mem))


@pytest.mark.parametrize("buffer", ["host", "shared", "device"])
def test_allocating_for_a_stride_of_minus_two_to_the_63_is_refused(buffer):
    """Found by the atheris fuzzer: the span of the elements a layout
    reaches, hi - lo, overflowed when lo is -2**63."""
    with pytest.raises(ValueError, match="addressable|addressed"):
        ua.USMArray((2,), "u1", buffer=buffer, strides=(-(2**63),))


# ---- 8. containers read while the library calls out to Python ----------


def test_a_list_subclass_whose_iterator_disagrees_is_read_by_its_items():
    """asarray of a list holding arrays copies the arrays to the host: the
    list's items are read from its storage, not through an __iter__ that
    yields fewer of them (a copy built from it was written past its end)."""

    class Short(list):
        def __iter__(self):
            return iter(())

    a, b = host((3,)), host((3,)) + 1
    got = ua.asnumpy(ua.asarray(Short([a, b]), usm_type="host"))
    assert got.tolist() == [[0.0, 1.0, 2.0], [1.0, 2.0, 3.0]]


class _Recorded:
    """Records when its attribute is read and when it is freed: a read
    after the free is a read of freed memory."""

    def __init__(self, events, name, value):
        self._events, self._name, self._value = events, name, value

    def __getattr__(self, name):
        if name != self._name:
            raise AttributeError(name)
        self._events.append("read")
        return self._value

    def __del__(self):
        self._events.append("freed")


def _read_before_freed(events):
    return "read" in events and "freed" not in events[: len(events) - events[::-1].index("read")]


def test_a_ufunc_dtype_keyword_dropped_by_the_ufunc_name_is_still_used():
    """__array_ufunc__'s dtype= is read from the keyword dictionary, which
    is the caller's own; a __name__ property that empties it must not free
    the dtype still to be used."""
    x = host((3,))
    events = []
    kwargs = {"dtype": _Recorded(events, "dtype", np.dtype("f4"))}

    class Negative:
        @property
        def __name__(self):
            kwargs.clear()
            return "negative"

    out = x.__array_ufunc__(Negative(), "__call__", x, **kwargs)
    assert out.dtype == np.float32
    assert ua.asnumpy(out).tolist() == [-0.0, -1.0, -2.0]
    assert _read_before_freed(events), events


def test_buffer_ctor_kwargs_emptied_by_the_alignment_keep_the_queue():
    """The alignment's __index__ empties buffer_ctor_kwargs, dropping the
    queue read from it before; the queue is still the one used."""
    events = []
    kwargs = {"queue": _Recorded(events, "sycl_queue", ua.Queue("host"))}
    kwargs["alignment"] = Clearing(64, kwargs)
    a = ua.USMArray((4,), buffer="shared", buffer_ctor_kwargs=kwargs)
    assert a.shape == (4,)
    assert not kwargs
    assert _read_before_freed(events), events


# ---- 9. user code that reshapes the array while its key is read --------
#
# USMArray.shape has a setter that reshapes in place.  Every number of a
# key (integers, slice bounds, the __index__ of list items) is read before
# the array's layout is: the key applies to the layout the array has once
# its last number is read, exactly as the same plain key would.


class _Reshaping:
    """An integer whose __index__ first gives the array another shape."""

    def __init__(self, x, value, shape):
        self.x, self.value, self.shape = x, value, shape

    def __index__(self):
        self.x.shape = self.shape
        return self.value


class _ReshapingIndex:
    """An index array whose __array__ first gives the array another shape."""

    def __init__(self, x, values, shape):
        self.x, self.values, self.shape = x, np.asarray(values), shape

    def __array__(self, dtype=None, copy=None):
        self.x.shape = self.shape
        return self.values


# Each key's hooks turn a (100, 1) array into (1, 100): a layout read before
# the hook would take 100 rows of one element, after it one row of 100.
_KEYS = {
    "integer then slice": lambda r: (r(99), slice(None)),
    "integer then integer": lambda r: (r(0), r(99)),
    "slice bounds": lambda r: (slice(r(0), r(1)), slice(r(0), r(100))),
    "slice step": lambda r: (slice(None, None, r(1)), slice(None, None, r(2))),
    "ellipsis and integer": lambda r: (Ellipsis, r(99)),
    "None and slice": lambda r: (None, r(0), slice(r(50), None)),
    "integer then index list": lambda r: (r(99), [0] * 4),
    "index list then slice": lambda r: ([0, 0], slice(r(0), r(100))),
    "index array's __array__": lambda r: (r.array([0]), slice(r(0), None)),
    "index array then integer": lambda r: (r.array([0, 0]), r(99)),
    "mask then slice": lambda r: (np.array([True]), slice(r(0), r(100), r(3))),
}


class _Hooks:
    """Makes a key's parts for x: integers and index arrays whose hooks
    reshape x to shape."""

    def __init__(self, x, shape):
        self.x, self.shape = x, shape

    def __call__(self, value):
        return _Reshaping(self.x, value, self.shape)

    def array(self, values):
        return _ReshapingIndex(self.x, values, self.shape)


class _Plain:
    def __call__(self, value):
        return value

    def array(self, values):
        return np.asarray(values)


def _index_outcome(x, do):
    try:
        got = do(x)
    except IndexError as e:
        return ("IndexError", str(e))
    return ("ok", None if got is None else ua.asnumpy(got).tolist())


@pytest.mark.parametrize("key", sorted(_KEYS))
def test_getitem_with_a_reshaping_key_applies_it_to_the_new_layout(key):
    x = host((100, 1))
    hooked = _index_outcome(x, lambda a: a[_KEYS[key](_Hooks(a, (1, 100)))])
    assert x.shape == (1, 100)
    plain = _index_outcome(x, lambda a: a[_KEYS[key](_Plain())])
    assert hooked == plain


@pytest.mark.parametrize("key", sorted(_KEYS))
def test_setitem_with_a_reshaping_key_writes_inside_the_new_layout(key):
    x, ref = host((100, 1)), host((1, 100))
    hooked = _index_outcome(x, lambda a: a.__setitem__(_KEYS[key](_Hooks(a, (1, 100))), -1.0))
    plain = _index_outcome(ref, lambda a: a.__setitem__(_KEYS[key](_Plain()), -1.0))
    assert hooked == plain
    assert x.shape == (1, 100)
    assert ua.asnumpy(x).tolist() == ua.asnumpy(ref).tolist()


class _ReshapingValue:
    """A value whose conversion (__array__, __float__) first reshapes the
    array it is being written into."""

    def __init__(self, x, value):
        self.x, self.value = x, np.asarray(value, dtype="f8")

    def _reshape(self):
        self.x.shape = (1, 100)

    def __array__(self, dtype=None, copy=None):
        self._reshape()
        return self.value

    def __float__(self):
        self._reshape()
        return float(self.value)


class _ReshapingSUAI(_ReshapingValue):
    """A USM array whose interface property first reshapes the target."""

    __array__ = None

    def __init__(self, x, value):
        super().__init__(x, value)
        self.source = ua.asarray(self.value, usm_type="host")

    @property
    def __sycl_usm_array_interface__(self):
        self._reshape()
        return self.source.__sycl_usm_array_interface__


_VALUE_WRITES = {
    "basic key, __array__": (lambda x: (slice(None), 0), _ReshapingValue, np.full(100, 7.0)),
    "basic key, __float__": (lambda x: (slice(None), 0), _ReshapingValue, 7.0),
    "basic key, SUAI": (lambda x: (slice(None), 0), _ReshapingSUAI, np.full(100, 7.0)),
    "index list, SUAI": (lambda x: ([0, 99], 0), _ReshapingSUAI, np.full(2, 7.0)),
    "ellipsis, __array__": (lambda x: Ellipsis, _ReshapingValue, np.full((100, 1), 7.0)),
    "index list, __array__": (lambda x: ([0, 99], 0), _ReshapingValue, np.full(2, 7.0)),
    "index list, __float__": (lambda x: ([0, 99], 0), _ReshapingValue, 7.0),
    "mask, __array__": (lambda x: x >= 50, _ReshapingValue, np.full(50, 7.0)),
}


@pytest.mark.parametrize("case", sorted(_VALUE_WRITES))
def test_a_value_that_reshapes_the_target_is_written_where_the_key_chose(case):
    """The key selects before the value is converted: the elements written
    are those the key chose in the layout it was applied to."""
    key, kind, value = _VALUE_WRITES[case]
    x = host((100, 1))
    want = np.arange(100.0).reshape(100, 1)
    want[key(want)] = value
    x[key(x)] = kind(x, value)
    assert x.shape == (1, 100)
    assert ua.asnumpy(x).ravel().tolist() == want.ravel().tolist()


def test_the_shape_setter_reading_a_reshaping_length_uses_the_lengths_read():
    x = host((100, 1))
    x.shape = (_Reshaping(x, 4, (1, 100)), 25)
    assert x.shape == (4, 25)
    assert ua.asnumpy(x).ravel().tolist() == list(range(100))


# Work on an array that another thread reshapes: work long enough to run
# without the GIL reads the layout it was given, which the setter leaves
# as it is meanwhile (eight axes keep it outside the array's own storage).
_SHAPES = ((2,) * 7 + (4096,), (4096,) + (2,) * 7)
_THREADED = {
    "sum": lambda x: ua.sum(x, axis=-1),
    "sort": lambda x: ua.sort(x, axis=-1),
    "cumulative_sum": lambda x: ua.cumulative_sum(x, axis=-1),
    "diff": lambda x: ua.diff(x, axis=-1),
    "copy": lambda x: ua.asarray(x, copy=True),
    "add": lambda x: x + x,
    "concat": lambda x: ua.concat([x, x], axis=-1),
    "stack": lambda x: ua.stack([x, x]),
    "roll": lambda x: ua.roll(x, 3, axis=-1),
    # Indices of length-1 axes broadcast against either shape: indices
    # made from x.shape would race the other thread's reshape.
    "take_along_axis": lambda x: ua.take_along_axis(
        x, ua.zeros((1,) * 8, dtype="i8", usm_type="host"), axis=-1
    ),
}


@pytest.mark.parametrize("op", sorted(_THREADED))
def test_work_without_the_gil_survives_another_thread_reshaping(op):
    import threading

    from conftest import stress_scale

    # 8 MiB: past the size from which work runs without the GIL.
    x = ua.ones(_SHAPES[0], usm_type="host")
    shapes = {tuple(_THREADED[op](ua.ones(s, usm_type="host")).shape) for s in _SHAPES}
    stop = threading.Event()

    def flip():
        while not stop.is_set():
            for s in _SHAPES:
                x.shape = s

    t = threading.Thread(target=flip)
    t.start()
    try:
        for _ in range(max(2, int(40 * stress_scale()))):
            assert tuple(_THREADED[op](x).shape) in shapes
    finally:
        stop.set()
        t.join()


# Namespace functions read their operands' layouts before converting their
# other arguments, whose hooks may then reshape an operand in place: each
# works on the layout its operands had when it was called.  Eight axes
# hooked down to two: a layout read after the hook would have fewer axes
# than the axis arguments were checked against.
_EIGHT, _TWO = (2, 2, 2, 2, 2, 2, 2, 4), (16, 32)
_HOOKED_CALLS = {
    "flip": lambda x, h: ua.flip(x, axis=(h(4), h(5))),
    "moveaxis": lambda x, h: ua.moveaxis(x, h(4), h(5)),
    "permute_dims": lambda x, h: ua.permute_dims(x, tuple(h(i) for i in range(8))[::-1]),
    "squeeze": lambda x, h: ua.squeeze(ua.expand_dims(x, axis=5), axis=h(5)),
    "expand_dims": lambda x, h: ua.expand_dims(x, axis=h(6)),
    "reshape": lambda x, h: ua.reshape(x, (h(4), h(128))),
    "broadcast_to": lambda x, h: ua.broadcast_to(x, (h(3),) + _EIGHT),
    "unstack": lambda x, h: ua.stack(ua.unstack(x, axis=h(5))),
    "take": lambda x, h: ua.take(x, ua.asarray([1, 0], usm_type="host"), axis=h(5)),
    "take_along_axis": lambda x, h: ua.take_along_axis(
        x, ua.zeros((1,) * 8, dtype="i8", usm_type="host"), axis=h(5)
    ),
    "sort": lambda x, h: ua.sort(-x, axis=h(5)),
    "argsort": lambda x, h: ua.argsort(-x, axis=h(5)),
    "cumulative_sum": lambda x, h: ua.cumulative_sum(x, axis=h(5)),
    "cumulative_prod": lambda x, h: ua.cumulative_prod(x, axis=h(5)),
    "diff": lambda x, h: ua.diff(x, axis=h(5), n=h(1)),
    "sum": lambda x, h: ua.sum(x, axis=(h(4), h(5))),
    "prod": lambda x, h: ua.prod(x, axis=h(5)),
    "mean": lambda x, h: ua.mean(x, axis=h(5)),
    "var": lambda x, h: ua.var(x, axis=h(5), correction=1),
    "std": lambda x, h: ua.std(x, axis=(h(5),)),
    "max": lambda x, h: ua.max(x, axis=h(5)),
    "min": lambda x, h: ua.min(x, axis=h(5)),
    "argmax": lambda x, h: ua.argmax(x, axis=h(5)),
    "argmin": lambda x, h: ua.argmin(x, axis=h(5)),
    "any": lambda x, h: ua.any(x, axis=h(5)),
    "all": lambda x, h: ua.all(x, axis=h(5)),
    "count_nonzero": lambda x, h: ua.count_nonzero(x, axis=h(5)),
    "roll": lambda x, h: ua.roll(x, h(1), axis=h(5)),
    "repeat": lambda x, h: ua.repeat(x, h(2), axis=h(5)),
    "concat": lambda x, h: ua.concat([x, x], axis=h(5)),
    "stack": lambda x, h: ua.stack([x, x], axis=h(5)),
    "tril": lambda x, h: ua.tril(x, k=h(1)),
    "triu": lambda x, h: ua.triu(x, k=h(1)),
    "diagonal": lambda x, h: ua.linalg.diagonal(x, offset=h(1)),
    "trace": lambda x, h: ua.linalg.trace(x, offset=h(1)),
    "tensordot": lambda x, h: ua.tensordot(x, x, axes=((h(4), h(5)), (h(4), h(5)))),
    "vecdot": lambda x, h: ua.vecdot(x, x, axis=h(-3)),
    "vector_norm": lambda x, h: ua.linalg.vector_norm(x, axis=(h(4), h(5)), ord=3),
    "fft": lambda x, h: ua.fft.fft(x, n=h(4), axis=h(5)),
    "rfft": lambda x, h: ua.fft.rfft(x, n=h(4), axis=h(5)),
    "irfft": lambda x, h: ua.fft.irfft(x, n=h(4), axis=h(5)),
    "fftn": lambda x, h: ua.fft.fftn(x, s=(h(2), h(4)), axes=(h(4), h(5))),
    "rfftn": lambda x, h: ua.fft.rfftn(x, s=(h(2), h(4)), axes=(h(4), h(5))),
    "fftshift": lambda x, h: ua.fft.fftshift(x, axes=(h(4), h(5))),
}


@pytest.mark.parametrize("name", sorted(_HOOKED_CALLS))
def test_a_function_works_on_the_layout_its_operand_had_when_called(name):
    call = _HOOKED_CALLS[name]
    values = np.arange(1.0, 513.0).reshape(_EIGHT)
    x = ua.asarray(values, usm_type="host")
    got = call(x, lambda v: _Reshaping(x, v, _TWO))
    assert x.shape == _TWO
    want = call(ua.asarray(values, usm_type="host"), lambda v: v)
    assert got.shape == want.shape
    np.testing.assert_allclose(ua.asnumpy(got), ua.asnumpy(want), rtol=1e-12)


def test_a_result_that_is_the_operand_is_the_operand_itself():
    x = host((2, 3))
    assert ua.reshape(x, (2, 3)) is x


def test_none_before_slices_cannot_add_axes_past_the_limit():
    x = ua.ones((2,) * 8, usm_type="host")
    with pytest.raises(IndexError, match="beyond 64"):
        x[(None,) * 64 + (slice(None, None, 2**40),) * 8]


def test_a_mask_reshaped_by_a_later_items_hook_is_applied_as_it_was():
    x = ua.ones((2, 1, 1, 1, 1, 1, 1), usm_type="host")
    m = ua.asarray([True, True], usm_type="host")
    got = x[m, _Reshaping(m, 0, (2, 1, 1, 1, 1, 1, 1))]
    assert m.shape == (2, 1, 1, 1, 1, 1, 1)
    assert got.shape == np.ones((2, 1, 1, 1, 1, 1, 1))[np.array([True, True]), 0].shape


def test_the_transpose_method_with_reshaping_axes_permutes_the_layout_it_counted():
    x = ua.asarray(np.arange(128.0).reshape(8, 16), usm_type="host")
    got = x.transpose(1, _Reshaping(x, 0, (2,) * 7))
    assert x.shape == (2,) * 7
    assert ua.asnumpy(got).tolist() == np.arange(128.0).reshape(8, 16).T.tolist()


def test_too_many_indices_is_named_before_a_bad_slice_bound():
    with pytest.raises(IndexError, match="too many indices"):
        host((3,))[0, 0, "a":]
