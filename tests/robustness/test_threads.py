"""Threads: many threads allocating, freeing, viewing, exporting and
copying at once, through the registry, the pool and the copy engine; and
long copies that let other threads run."""

import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import usmarray as ua
from conftest import Holder, stress_scale

SCALE = stress_scale()
THREADS = 8
KINDS = ["device", "shared", "host"]


def churn(seed, rounds):
    """One thread's work; every value it reads back it wrote itself, so a
    block handed to two threads at once, or freed early, shows as a wrong
    value.  Returns the number of checks made."""
    rng = np.random.default_rng(seed)
    checks = 0
    live = []
    for r in range(rounds):
        kind = KINDS[r % 3]
        n = int(rng.integers(1, 5000))
        tag = seed * 100_000 + r
        x = ua.full(n, tag, dtype="i8", usm_type=kind)
        assert ua.get_pointer_type(x._pointer) == kind
        view = x[::-2]
        y = ua.asarray(Holder(view.__sycl_usm_array_interface__, keep=view))
        z = ua.from_dlpack(x) if kind != "device" else x.copy()
        c = y.astype("f8")
        live.append((x, tag))
        assert ua.asnumpy(y[:3]).tolist() == [tag] * min(3, y.shape[0])
        assert float(ua.asnumpy(c[0])) == float(tag)
        assert int(ua.asnumpy(z[n - 1])) == tag
        checks += 3
        if len(live) > 16:  # free in another order than allocated
            for a, t in live[::3]:
                assert int(ua.asnumpy(a[0])) == t
                checks += 1
            live = live[1::3] + live[2::3]
    for a, t in live:
        assert (ua.asnumpy(a) == t).all()
        checks += 1
    return checks


def test_many_threads_allocate_view_export_and_copy_without_mixing_up_memory():
    rounds = max(int(400 * SCALE), 20)
    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(churn, range(1, THREADS + 1), [rounds] * THREADS))
    assert all(r >= 3 * rounds for r in results)
    ctx = ua.Queue().context
    ctx.release_pool()
    assert ctx.pooled_nbytes == 0


def test_threads_share_one_array_for_reading_and_disjoint_writing():
    x = ua.zeros((THREADS, 100_000), dtype="f8", usm_type="shared")

    def work(i):
        for r in range(max(int(20 * SCALE), 2)):
            x[i] = float(i * 1000 + r)
            row = ua.asnumpy(x[i])
            assert (row == i * 1000 + r).all()
            _ = ua.asnumpy(x[:, ::1000])  # reads every row while others write

    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(work, range(THREADS)))
    last = max(int(20 * SCALE), 2) - 1
    assert ua.asnumpy(x[:, 0]).tolist() == [i * 1000.0 + last for i in range(THREADS)]


def test_dlpack_capsules_cross_threads():
    x = ua.arange(1000.0, usm_type="host")
    caps = [x.__dlpack__(max_version=(1, 0)) for _ in range(THREADS * 4)]

    def consume(c):
        return float(ua.asnumpy(ua.from_dlpack(c)).sum())

    with ThreadPoolExecutor(THREADS) as pool:
        sums = list(pool.map(consume, caps))
    assert sums == [sum(range(1000))] * len(caps)


def run_while_timing(copy, with_gap=False):
    """Runs copy() on a thread and counts the bytecode steps this thread
    makes while it runs: with the GIL held through the copy, none.  With
    with_gap, also the longest stretch of the call in which this thread
    made no step (the whole call, less its edges, when the GIL is held)."""
    marks = {}
    done = threading.Event()

    def worker():
        marks["start"] = time.perf_counter()
        copy()
        marks["end"] = time.perf_counter()
        done.set()

    stamps = []
    t = threading.Thread(target=worker)
    t.start()
    while not done.is_set():
        stamps.append(time.perf_counter())
    t.join()
    # The worker may lose the GIL for one switch interval on either side of
    # the call: leave those out.
    margin = 3 * sys.getswitchinterval()
    inside = [s for s in stamps if marks["start"] + margin < s < marks["end"] - margin]
    if not with_gap:
        return marks["end"] - marks["start"], len(inside)
    edges = [marks["start"]] + [s for s in stamps if marks["start"] < s < marks["end"]]
    gap = max(b - a for a, b in zip(edges, edges[1:] + [marks["end"]]))
    return marks["end"] - marks["start"], len(inside), gap


@pytest.mark.parametrize("what", ["copy", "astype", "asnumpy", "setitem", "transpose"])
def test_long_copies_release_the_gil(what):
    n = 8192
    # The host backend's copy engine; GPU copies wait without the GIL too,
    # but their time goes to allocating pinned memory.  512 MiB: a float32
    # astype of 288 MiB took 34.8 ms on an idle AVX-512 machine, under the
    # 35 ms that the check below needs to see steps.
    src = ua.ones((n, n), dtype="f8", usm_type="host", queue="host")
    dst = ua.empty((n, n), dtype="f8", usm_type="host", queue="host")
    host = np.ones((n, n))
    copies = {
        "copy": lambda: src.copy(),
        "astype": lambda: src.astype("f4"),
        "asnumpy": lambda: ua.asnumpy(src),
        "setitem": lambda: dst.__setitem__(..., host),
        "transpose": lambda: src.T.copy(),
    }
    duration, steps = run_while_timing(copies[what])
    assert duration > 6 * sys.getswitchinterval() + 5e-3, "the copy is too short to observe"
    # Python steps at microsecond intervals; a copy holding the GIL allows none.
    assert steps > 100, f"{steps} steps ran during a {duration * 1e3:.1f} ms copy"


def test_the_probe_sees_a_call_that_holds_the_gil():
    # ctypes.PyDLL calls C with the GIL held: the probe above must count
    # (almost) no steps for it, or its verdicts mean nothing.
    import ctypes

    hold = ctypes.PyDLL(None).usleep
    duration, steps, gap = run_while_timing(lambda: hold(100_000), with_gap=True)
    assert duration > 8 * sys.getswitchinterval()
    # On a loaded machine the OS may hand the GIL over late at either edge
    # of the call, letting a few steps in there; the call itself must still
    # be one unbroken stretch without steps.
    assert gap > 0.09, (
        f"the longest stretch without steps was {gap * 1e3:.1f} ms of {duration * 1e3:.1f}"
    )
    # And a call that releases the GIL shows no such stretch.
    free_duration, _, free_gap = run_while_timing(lambda: time.sleep(0.1), with_gap=True)
    assert free_gap < 0.5 * free_duration, (
        f"{free_gap * 1e3:.1f} ms without a step while the GIL was free"
    )
