"""Freed arrays and Memory objects are kept and reused for the next ones
(src/python/base/freelist.h): a reused object must be a new object in every way
a program can tell, and the objects of subclasses must never be reused."""

import gc
import sys
import weakref

import numpy as np
import pytest
import usmarray as ua


class WithDict(ua.MemoryUSMDevice):
    pass


class Slotted(ua.MemoryUSMHost):
    __slots__ = ()


def test_a_dead_weak_reference_stays_dead_when_the_object_is_reused():
    a = ua.empty(10)
    ref = weakref.ref(a)
    del a
    assert ref() is None
    fresh = [ua.empty(10) for _ in range(40)]
    assert ref() is None
    assert all(weakref.ref(b)() is b for b in fresh)


def test_reused_objects_hold_their_types_once():
    kinds = (ua.USMArray, ua.MemoryUSMDevice, ua.MemoryUSMShared, ua.MemoryUSMHost)
    gc.collect()
    before = [sys.getrefcount(t) for t in kinds]
    for _ in range(500):
        ua.empty(8, usm_type="device")
        ua.empty(8, usm_type="shared")
        ua.MemoryUSMHost(16)
    gc.collect()
    assert [sys.getrefcount(t) for t in kinds] == before


def test_memory_kinds_and_subclasses_interleave():
    for i in range(200):
        objs = [
            ua.MemoryUSMDevice(64),
            WithDict(64),
            Slotted(64),
            ua.MemoryUSMShared(64),
            ua.MemoryUSMHost(64),
        ]
        objs[1].tag = i
        assert [type(o) for o in objs] == [
            ua.MemoryUSMDevice,
            WithDict,
            Slotted,
            ua.MemoryUSMShared,
            ua.MemoryUSMHost,
        ]
        assert objs[1].tag == i and objs[1].__dict__ == {"tag": i}
        assert [o.nbytes for o in objs] == [64] * 5
        assert all(o.reference_obj is None for o in objs)
        del objs


def test_a_reused_array_has_its_own_state():
    ro = ua.asarray(np.arange(6.0), usm_type="host")
    ro_view = ua.USMArray((2, 3), "f8", ro.base, (3, 1))
    ro_view.flags.writable = False
    shape, strides = ro_view.shape, ro_view.strides
    assert not ro_view.flags.writable
    del ro_view, ro
    for _ in range(40):
        a = ua.empty((4, 5), dtype="i2")
        assert a.flags.writable and a.flags.c_contiguous
        assert (a.shape, a.strides, a.dtype) == ((4, 5), (5, 1), np.dtype("i2"))
        assert (a.shape, a.strides) != (shape, strides)
        assert gc.is_tracked(a) and gc.is_tracked(a.base)
        a[...] = 7
        assert (ua.asnumpy(a) == 7).all()


def test_cycles_through_reused_memory_are_collected():
    class Owner:
        pass

    refs = []
    for _ in range(50):
        owner = Owner()
        owner.mem = ua.MemoryUSMHost(32)
        owner.arr = ua.USMArray((32,), "u1", owner.mem)
        owner.self = owner
        refs.append(weakref.ref(owner.arr))
        del owner
    gc.collect()
    assert all(r() is None for r in refs)
    fresh = [ua.empty(32, dtype="u1") for _ in range(50)]
    assert all(r() is None for r in refs)
    del fresh


def test_many_arrays_alive_at_once_then_freed():
    live = [ua.empty(i + 1) for i in range(300)]
    assert [a.shape for a in live] == [(i + 1,) for i in range(300)]
    ids = {id(a) for a in live}
    assert len(ids) == 300
    del live
    again = [ua.empty(3) for _ in range(300)]
    assert len({id(a) for a in again}) == 300


@pytest.mark.parametrize("nd", [0, 1, 6, 7, 12])
def test_reuse_across_inline_and_allocated_shapes(nd):
    for _ in range(3):
        a = ua.empty((1,) * nd)
        assert a.shape == (1,) * nd and a.ndim == nd
        del a
