"""The CUDA driver's one-time costs in a new process: each driver call a
reduction's first launch makes (a temporary from a stream-ordered pool, a
small upload from pageable memory, a stream-ordered free, a pinned
allocation, a synchronization), timed the first time and again, after the
steps a process takes before its first reduction (a context, a pool, 4 MiB
uploaded from pageable memory).  It separates what a warm-cache first
reduction pays once a process from what every call pays.

    python benchmarks/driver_first_costs.py [--json PATH]
"""

import argparse
import ctypes
import json
import time

CU_STREAM_NON_BLOCKING = 1
CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4
CU_MEMHOSTALLOC_PORTABLE = 1


class PoolProps(ctypes.Structure):
    _fields_ = [
        ("allocType", ctypes.c_int),
        ("handleTypes", ctypes.c_int),
        ("locType", ctypes.c_int),
        ("locId", ctypes.c_int),
        ("win32SecurityAttributes", ctypes.c_void_p),
        ("maxSize", ctypes.c_size_t),
        ("usage", ctypes.c_ushort),
        ("reserved", ctypes.c_ubyte * 64),
    ]


def check(r, what):
    if r != 0:
        raise RuntimeError(f"{what} failed: CUresult {r}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--json")
    a = p.parse_args()
    cu = ctypes.CDLL("libcuda.so.1")
    V = ctypes.c_void_p
    u64 = ctypes.c_uint64
    P = ctypes.POINTER
    for name, args in {
        "cuMemcpyAsync": [u64, u64, ctypes.c_size_t, V],
        "cuMemAllocFromPoolAsync": [P(u64), ctypes.c_size_t, V, V],
        "cuMemFreeAsync": [u64, V],
        "cuMemHostAlloc": [P(V), ctypes.c_size_t, ctypes.c_uint],
        "cuStreamSynchronize": [V],
        "cuMemPoolSetAttribute": [V, ctypes.c_int, V],
    }.items():
        getattr(cu, name).argtypes = args
    times = {}

    def timed(name, fn):
        t = time.perf_counter()
        fn()
        times[name] = round((time.perf_counter() - t) * 1e3, 3)

    check(cu.cuInit(0), "cuInit")
    dev, ctx, stream, pool = ctypes.c_int(), V(), V(), V()
    check(cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    timed("context", lambda: check(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "ctx"))
    check(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    check(cu.cuStreamCreate(ctypes.byref(stream), CU_STREAM_NON_BLOCKING), "cuStreamCreate")
    props = PoolProps(allocType=1, locType=1, locId=0)
    timed(
        "pool", lambda: check(cu.cuMemPoolCreate(ctypes.byref(pool), ctypes.byref(props)), "pool")
    )
    keep = u64(2**64 - 1)
    cu.cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, ctypes.byref(keep))
    big, host = u64(), ctypes.create_string_buffer(4 << 20)

    def alloc(ptr, n):
        check(cu.cuMemAllocFromPoolAsync(ctypes.byref(ptr), ctypes.c_size_t(n), pool, stream), "a")

    timed("pool alloc 4 MiB", lambda: alloc(big, 4 << 20))
    timed(
        "upload 4 MiB pageable",
        lambda: check(cu.cuMemcpyAsync(big, ctypes.addressof(host), 4 << 20, stream), "up"),
    )
    check(cu.cuStreamSynchronize(stream), "sync")
    small = ctypes.create_string_buffer(48)
    for round_ in ("first", "again"):
        tmp = u64()
        timed(f"pool alloc 48 B ({round_})", lambda: alloc(tmp, 48))
        timed(
            f"upload 48 B pageable ({round_})",
            lambda: check(cu.cuMemcpyAsync(tmp, ctypes.addressof(small), 48, stream), "up"),
        )
        timed(f"free async ({round_})", lambda: check(cu.cuMemFreeAsync(tmp, stream), "free"))
        timed(f"stream sync ({round_})", lambda: check(cu.cuStreamSynchronize(stream), "s"))
        pinned = V()
        timed(
            f"pinned alloc 64 KiB ({round_})",
            lambda: check(
                cu.cuMemHostAlloc(ctypes.byref(pinned), 1 << 16, CU_MEMHOSTALLOC_PORTABLE), "h"
            ),
        )
        timed(
            f"upload 48 B pinned ({round_})",
            lambda: check(cu.cuMemcpyAsync(big, pinned.value, 48, stream), "pin"),
        )
        check(cu.cuStreamSynchronize(stream), "sync")
    for name, ms in times.items():
        print(f"{name:32s} {ms:8.3f} ms")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(times, f, indent=1)


if __name__ == "__main__":
    main()
