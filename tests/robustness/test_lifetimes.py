"""Lifetimes: whatever is imported or viewed keeps its producer alive for
exactly as long as it is needed, and create/export/import/destroy cycles
leave nothing behind."""

import gc
import os
import sys
import weakref

import numpy as np
import pytest
import usmarray as ua
from conftest import Holder, stress_scale
from dlpack_ctypes import Tensor

# The ASan run of CI scales the cycle counts down (instrumented code is
# slower); everywhere else the full counts run.
SCALE = stress_scale()
# ASan holds freed memory in quarantine, so the resident size grows there
# without a leak; its run checks objects and memory errors instead.
UNDER_ASAN = "libasan" in os.environ.get("LD_PRELOAD", "")


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class Producer:
    """A foreign producer: exposes x's SUAI and can be weakly referenced."""

    def __init__(self, x):
        self.x = x
        self.__sycl_usm_array_interface__ = x.__sycl_usm_array_interface__


def collected(ref):
    gc.collect()
    return ref() is None


def test_suai_imports_keep_the_producer_alive_until_the_last_view_dies():
    p = Producer(ua.arange(12.0, usm_type="shared"))
    ref = weakref.ref(p)
    y = ua.asarray(p)
    views = [y[1:], y[::2], y.reshape(3, 4).T, ua.asarray(y)]
    del p, y
    assert not collected(ref)
    for v in views[:-1]:
        del v
    views = views[-1:]
    assert not collected(ref)
    assert ua.asnumpy(views[0]).tolist() == list(range(12))
    del views
    assert collected(ref)


def test_host_data_wrapped_without_a_copy_keeps_it_alive():
    a = np.arange(10.0)
    ref = weakref.ref(a.base if a.base is not None else a)
    x = ua.asarray(a, usm_type="host", queue="host")
    del a
    assert not collected(ref)
    assert ua.asnumpy(x[3]) == 3.0
    del x
    assert collected(ref)


def test_numpy_views_and_buffers_keep_the_array_alive():
    x = ua.arange(6.0, usm_type="host", queue="host")
    ref = weakref.ref(x)
    n = np.asarray(x)
    m = memoryview(x)
    d = np.from_dlpack(x)
    del x
    assert not collected(ref)
    del n, d
    assert not collected(ref)
    m.release()
    del m
    assert collected(ref)


def test_memory_is_freed_when_the_last_array_over_it_dies():
    mem = ua.MemoryUSMHost(64)
    ref = weakref.ref(mem)
    ptr = mem._pointer
    x = ua.USMArray((8,), buffer=mem)
    del mem
    assert not collected(ref)
    assert ua.get_pointer_type(ptr) == "host"
    del x
    assert collected(ref)


def test_dlpack_capsule_from_an_array_keeps_it_alive_until_consumed_and_released():
    x = ua.arange(4.0, usm_type="host")
    ref = weakref.ref(x)
    cap = x.__dlpack__(max_version=(1, 0))
    del x
    assert not collected(ref)
    y = ua.from_dlpack(cap)
    del cap
    assert not collected(ref)
    del y
    assert collected(ref)


def test_unconsumed_capsules_release_their_array():
    x = ua.arange(4.0, usm_type="host")
    ref = weakref.ref(x)
    caps = [x.__dlpack__(), x.__dlpack__(max_version=(1, 0))]
    del x, caps
    assert collected(ref)


def test_dlpack_deleter_runs_once_per_import_chain():
    t = Tensor(np.arange(8.0))
    y = ua.from_dlpack(t.capsule())
    views = [y[::2], ua.asarray(y), y.reshape(2, 4)]
    del y
    gc.collect()
    assert t.deleted == 0
    del views
    gc.collect()
    assert t.deleted == 1


def test_producer_reference_counts_return_to_their_start():
    a = np.arange(16.0)
    x = ua.asarray(a, usm_type="host", queue="host")
    before_a, before_x = sys.getrefcount(a), sys.getrefcount(x)
    for _ in range(100):
        y = ua.asarray(Holder(x.__sycl_usm_array_interface__, keep=x))
        z = ua.from_dlpack(x)
        w = np.asarray(x)
        del y, z, w
    gc.collect()
    assert sys.getrefcount(a) == before_a
    assert sys.getrefcount(x) == before_x


def cycle(n):
    """n create/export/import/destroy cycles through every protocol, on the
    host backend, where NumPy takes every USM kind and host data is wrapped."""
    for i in range(n):
        x = ua.empty(16, dtype="f4", usm_type="host" if i & 1 else "shared", queue="host")
        y = ua.asarray(Holder(x.__sycl_usm_array_interface__, keep=x))
        z = ua.from_dlpack(y.__dlpack__(max_version=(1, 0)))
        w = np.from_dlpack(z)
        v = ua.asarray(w, usm_type="host", queue="host")
        m = ua.MemoryUSMHost(v)
        del x, y, z, w, v, m


def test_a_million_cycles_leave_no_memory_behind():
    n = int(1_000_000 * SCALE)
    cycle(max(n // 10, 1000))  # warm the pool, the registry and the caches
    gc.collect()
    objects, rss = len(gc.get_objects()), rss_bytes()
    cycle(n)
    gc.collect()
    assert len(gc.get_objects()) <= objects + 10
    grown = rss_bytes() - rss
    # A leak of 8 bytes a cycle would show as 8 MB.
    assert UNDER_ASAN or grown < 4 * 2**20, f"resident memory grew by {grown} bytes over {n} cycles"


@pytest.mark.parametrize("kind", ["device", "shared", "host"])
def test_pool_and_registry_are_empty_after_the_arrays_die(kind):
    ctx = ua.Queue().context
    ctx.release_pool()
    arrays = [ua.empty(1000 + i, usm_type=kind) for i in range(50)]
    pointers = [a._pointer for a in arrays]
    assert all(ua.get_pointer_type(p) == kind for p in pointers)
    del arrays
    gc.collect()
    assert ctx.pooled_nbytes > 0
    ctx.release_pool()
    assert ctx.pooled_nbytes == 0
    assert all(ua.get_pointer_type(p) == "unknown" for p in pointers)
