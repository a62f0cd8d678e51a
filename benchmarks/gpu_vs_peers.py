"""usmarray against CuPy, PyTorch and numba-cuda on one GPU, in one run: the
rows of the GPU table of docs/performance.rst.

Per-call rows time many calls with a wall clock (they measure Python-side
overhead); bandwidth rows time copies with CUDA events recorded on the stream
each library runs on, after a warm-up, on arrays larger than the L2 cache,
and count bytes read plus bytes written.  Prints a table and writes JSON.

    python benchmarks/gpu_vs_peers.py [--json PATH]
"""

import argparse
import datetime
import json
import os
import statistics
import sys
import time
import warnings

import numpy as np

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
# The warm rows time the full compiles' kernels: a first call's fast-level
# kernel gives way to its full compile's a few hundred milliseconds later,
# which a row's warm-up need not wait for.
os.environ.setdefault("USMARRAY_COMPILE_FIRST", "full")
import usmarray as ua

try:
    import cupy as cp
except ImportError:  # pragma: no cover - the GPU machine has it
    cp = None
try:
    import torch

    if not torch.cuda.is_available():
        torch = None
except ImportError:  # pragma: no cover
    torch = None
try:
    from numba import cuda as ncuda
except ImportError:  # pragma: no cover
    ncuda = None

GPU = "cuda:gpu:0"
MiB = 1 << 20


def per_call_us(fn, n=20000, rounds=5):
    """Best of rounds of the mean time of n calls, in microseconds."""
    for _ in range(n // 10):
        fn()
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n)
    return best * 1e6


def event_gbps(fn, stream_handle, nbytes, reps=10):
    """Median GB/s of fn over CUDA events recorded on the given stream."""
    with warnings.catch_warnings():  # newer CuPy prefers Stream.from_external
        warnings.simplefilter("ignore", DeprecationWarning)
        stream = cp.cuda.ExternalStream(stream_handle)
    for _ in range(3):
        fn()
    times = []
    for _ in range(reps):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record(stream)
        fn()
        end.record(stream)
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end) / 1e3)
    return nbytes / statistics.median(times) / 1e9


class CAIHolder:
    def __init__(self, d):
        self.__cuda_array_interface__ = d


def rows():
    out = []
    q = ua.Queue(GPU)
    ours_stream = ua.empty(1, queue=q).__cuda_array_interface__["stream"]
    cupy_stream = cp.cuda.get_current_stream().ptr if cp else None
    torch_stream = torch.cuda.current_stream().cuda_stream if torch else None

    def row(name, unit, target, **values):
        out.append({"operation": name, "unit": unit, "target": target, **values})

    # -------- per-call rows
    x = ua.empty((1000, 1000), dtype="f4", queue=q)
    c = cp.empty((1000, 1000), dtype=cp.float32) if cp else None
    t = torch.empty((1000, 1000), dtype=torch.float32, device="cuda") if torch else None
    row(
        "export CAI dict",
        "us",
        "<= 0.5 us",
        usmarray=per_call_us(lambda: x.__cuda_array_interface__),
        cupy=per_call_us(lambda: c.__cuda_array_interface__) if cp else None,
        torch=per_call_us(lambda: t.__cuda_array_interface__) if torch else None,
    )

    holder = CAIHolder(c.__cuda_array_interface__ if cp else x.__cuda_array_interface__)
    row(
        "import a CAI object (zero-copy)",
        "us",
        "<= 1.5 us",
        usmarray=per_call_us(lambda: ua.asarray(holder)),
        cupy=per_call_us(lambda: cp.asarray(holder)) if cp else None,
        torch=per_call_us(lambda: torch.as_tensor(holder, device="cuda"), n=5000)
        if torch
        else None,
        numba=per_call_us(lambda: ncuda.as_cuda_array(holder), n=2000) if ncuda else None,
    )

    row(
        "import DLPack from the other",
        "us",
        "<= 3 us",
        usmarray=per_call_us(lambda: ua.from_dlpack(c if cp else x), n=5000),
        cupy=per_call_us(lambda: cp.from_dlpack(t), n=5000) if cp and torch else None,
        torch=per_call_us(lambda: torch.from_dlpack(c), n=5000) if cp and torch else None,
    )

    row(
        "strided view (slicing)",
        "us",
        "<= 0.5 us",
        usmarray=per_call_us(lambda: x[1:10, ::2]),
        cupy=per_call_us(lambda: c[1:10, ::2]) if cp else None,
        torch=per_call_us(lambda: t[1:10, ::2]) if torch else None,
    )

    for label, nbytes in (("1 MiB", MiB), ("256 MiB", 256 * MiB), ("1 GiB", 1024 * MiB)):
        calls = 20000 if nbytes == MiB else 2000
        row(
            f"empty({label}) on device, pooled",
            "us",
            "<= 1 us",
            usmarray=per_call_us(lambda: ua.empty(nbytes, dtype="u1", queue=q), n=calls),
            cupy=per_call_us(lambda: cp.empty(nbytes, dtype=cp.uint8), n=calls) if cp else None,
            torch=per_call_us(
                lambda: torch.empty(nbytes, dtype=torch.uint8, device="cuda"), n=calls
            )
            if torch
            else None,
        )

    if torch:
        tt = torch.empty((1000, 1000), dtype=torch.float32, device="cuda")
        row(
            "ua.from_dlpack(torch tensor)",
            "us",
            "<= 3 us",
            usmarray=per_call_us(lambda: ua.from_dlpack(tt), n=5000),
        )

    # -------- bandwidth rows (bytes read + written)
    n = 8192
    a = np.random.default_rng(0).random((n, n), dtype=np.float32)
    X = ua.asarray(a, queue=q)
    C = cp.asarray(a) if cp else None
    T = torch.as_tensor(a, device="cuda") if torch else None
    nb = 2 * a.nbytes
    row(
        "transpose copy 8192^2 float32",
        "GB/s",
        ">= 2300 GB/s",
        usmarray=event_gbps(lambda: X.T.copy(), ours_stream, nb),
        cupy=event_gbps(lambda: cp.ascontiguousarray(C.T), cupy_stream, nb) if cp else None,
        torch=event_gbps(lambda: T.T.contiguous(), torch_stream, nb) if torch else None,
    )

    p = np.random.default_rng(1).random((64, 64, 64, 64), dtype=np.float32)
    P = ua.asarray(p, queue=q)
    PC = cp.asarray(p) if cp else None
    PT = torch.as_tensor(p, device="cuda") if torch else None
    nb = 2 * p.nbytes
    row(
        "4-D permute (3,1,0,2) copy 64^4 float32",
        "GB/s",
        ">= 2000 GB/s",
        usmarray=event_gbps(lambda: ua.permute_dims(P, (3, 1, 0, 2)).copy(), ours_stream, nb),
        cupy=event_gbps(
            lambda: cp.ascontiguousarray(cp.transpose(PC, (3, 1, 0, 2))), cupy_stream, nb
        )
        if cp
        else None,
        torch=event_gbps(lambda: PT.permute(3, 1, 0, 2).contiguous(), torch_stream, nb)
        if torch
        else None,
    )

    g = np.random.default_rng(2).random((256, 256, 256))
    G = ua.asarray(g, queue=q)
    GC = cp.asarray(g) if cp else None
    GT = torch.as_tensor(g, device="cuda") if torch else None
    nb = 2 * g[::2, ::-1, 1::3].nbytes
    row(
        "gather x[::2, ::-1, 1::3] copy 256^3 float64",
        "GB/s",
        ">= 1500 GB/s",
        usmarray=event_gbps(lambda: G[::2, ::-1, 1::3].copy(), ours_stream, nb),
        cupy=event_gbps(lambda: GC[::2, ::-1, 1::3].copy(), cupy_stream, nb) if cp else None,
        # PyTorch has no negative steps: flip() copies once more.
        torch=None,
    )
    del G, GC, GT

    nb = 2 * a.nbytes
    row(
        "contiguous device copy 256 MiB",
        "GB/s",
        ">= 0.97x the best peer",
        usmarray=event_gbps(lambda: X.copy(), ours_stream, nb),
        cupy=event_gbps(lambda: C.copy(), cupy_stream, nb) if cp else None,
        torch=event_gbps(lambda: T.clone(), torch_stream, nb) if torch else None,
    )

    h = np.ones(256 * MiB // 4, dtype=np.float32)
    dst = ua.empty(h.shape, dtype="f4", queue=q)
    CD = cp.empty(h.shape, dtype=cp.float32) if cp else None
    TD = torch.empty(h.shape, dtype=torch.float32, device="cuda") if torch else None

    def ours_pageable():
        dst[...] = h

    row(
        "host->device from pageable memory, 256 MiB",
        "GB/s",
        ">= 20 GB/s",
        usmarray=event_gbps(ours_pageable, ours_stream, h.nbytes, reps=5),
        cupy=event_gbps(lambda: CD.set(h), cupy_stream, h.nbytes, reps=5) if cp else None,
        torch=event_gbps(lambda: TD.copy_(torch.from_numpy(h)), torch_stream, h.nbytes, reps=5)
        if torch
        else None,
    )

    pinned = ua.full(h.shape, 1.0, dtype="f4", usm_type="host", queue=q)

    def ours_pinned():
        dst[...] = pinned

    cpinned = None
    if cp:
        buf = cp.cuda.alloc_pinned_memory(h.nbytes)
        cpinned = np.frombuffer(buf, dtype=np.float32, count=h.size)
        cpinned[...] = 1
    tpinned = torch.ones(h.shape, dtype=torch.float32).pin_memory() if torch else None
    row(
        "host->device from pinned memory, 256 MiB",
        "GB/s",
        ">= 0.95x CuPy",
        usmarray=event_gbps(ours_pinned, ours_stream, h.nbytes),
        cupy=event_gbps(lambda: CD.set(cpinned), cupy_stream, h.nbytes) if cp else None,
        torch=event_gbps(lambda: TD.copy_(tpinned), torch_stream, h.nbytes) if torch else None,
    )
    del dst, CD, TD, pinned
    index_rows(row, q, ours_stream, cupy_stream, torch_stream)
    elementwise_rows(row, q, ours_stream, cupy_stream, torch_stream)
    reduction_rows(row, q, ours_stream, cupy_stream, torch_stream)
    return out


def part_rows(rows_of):
    """One part of the table alone (rows_of: reduction_rows, index_rows,
    elementwise_rows), on the streams the whole table uses."""
    out = []
    q = ua.Queue(GPU)
    ours_stream = ua.empty(1, queue=q).__cuda_array_interface__["stream"]
    cupy_stream = cp.cuda.get_current_stream().ptr if cp else None
    torch_stream = torch.cuda.current_stream().cuda_stream if torch else None

    def row(name, unit, target, **values):
        out.append({"operation": name, "unit": unit, "target": target, **values})

    rows_of(row, q, ours_stream, cupy_stream, torch_stream)
    return out


def reduction_rows(row, q, ours_stream, cupy_stream, torch_stream):
    """Issue 25's GPU table: reductions (GB/s of bytes read and written),
    scans, sorts (Gkeys/s), the float32 product without TF32 (TFLOP/s) and
    the per-call cost of a small sum, each library through its own call."""
    if torch:
        torch.backends.cuda.matmul.allow_tf32 = False
    rng = np.random.default_rng(11)
    n = 64 * MiB
    a = rng.standard_normal(n, dtype=np.float32)
    X = ua.asarray(a, queue=q)
    C = cp.asarray(a) if cp else None
    T = torch.as_tensor(a, device="cuda") if torch else None
    m = a[: 8192 * 8192].reshape(8192, 8192)
    MM = ua.asarray(m, queue=q)
    CM = cp.asarray(m) if cp else None
    TM = torch.as_tensor(m, device="cuda") if torch else None

    def both(name, unit, target, nbytes, ours, theirs_cp, theirs_t, reps=10):
        row(
            name,
            unit,
            target,
            usmarray=event_gbps(ours, ours_stream, nbytes, reps),
            cupy=event_gbps(theirs_cp, cupy_stream, nbytes, reps) if cp else None,
            torch=event_gbps(theirs_t, torch_stream, nbytes, reps) if torch else None,
        )

    both("sum(x), 64 Mi float32", "GB/s", ">= best peer, >= 0.95x copy", a.nbytes,
         lambda: ua.sum(X), lambda: cp.sum(C), lambda: torch.sum(T))  # fmt: skip
    both("max(x), 64 Mi float32", "GB/s", ">= best peer, >= 0.95x copy", a.nbytes,
         lambda: ua.max(X), lambda: cp.max(C), lambda: torch.max(T))  # fmt: skip
    both("argmax(x), 64 Mi float32", "GB/s", ">= best peer", a.nbytes,
         lambda: ua.argmax(X), lambda: cp.argmax(C), lambda: torch.argmax(T))  # fmt: skip
    both("sum(m, axis=0), 8192^2 float32", "GB/s", ">= best peer", m.nbytes,
         lambda: ua.sum(MM, axis=0), lambda: cp.sum(CM, axis=0),
         lambda: torch.sum(TM, dim=0))  # fmt: skip
    both("sum(m, axis=1), 8192^2 float32", "GB/s", ">= best peer", m.nbytes,
         lambda: ua.sum(MM, axis=1), lambda: cp.sum(CM, axis=1),
         lambda: torch.sum(TM, dim=1))  # fmt: skip
    s = a[: 16 * MiB]
    XS = ua.asarray(s, queue=q)
    CS = cp.asarray(s) if cp else None
    TS = torch.as_tensor(s, device="cuda") if torch else None
    both("cumulative_sum(x), 16 Mi float32", "GB/s", ">= best peer", 2 * s.nbytes,
         lambda: ua.cumulative_sum(XS), lambda: cp.cumsum(CS), lambda: torch.cumsum(TS, 0),
         reps=2)  # fmt: skip
    both("sort, 16 Mi float32", "Gkeys/s", ">= best peer", s.size,
         lambda: ua.sort(XS), lambda: cp.sort(CS), lambda: torch.sort(TS), reps=3)  # fmt: skip
    both("argsort, 16 Mi float32", "Gkeys/s", ">= best peer", s.size,
         lambda: ua.argsort(XS), lambda: cp.argsort(CS), lambda: torch.argsort(TS, stable=True),
         reps=3)  # fmt: skip
    # isin: 16 Mi int32 needles against a set of 1 Mi (sorted, then searched)
    n1, n2 = 16 * MiB, MiB
    i1 = rng.integers(0, 1 << 24, size=n1, dtype=np.int32)
    i2 = rng.integers(0, 1 << 24, size=n2, dtype=np.int32)
    U1, U2 = ua.asarray(i1, queue=q), ua.asarray(i2, queue=q)
    C1, C2 = (cp.asarray(i1), cp.asarray(i2)) if cp else (None, None)
    T1, T2 = (torch.as_tensor(i1, device="cuda"), torch.as_tensor(i2, device="cuda")) if torch \
        else (None, None)  # fmt: skip
    both("isin(x1, x2), 16 Mi in 1 Mi int32", "Gelem/s", ">= best peer", n1,
         lambda: ua.isin(U1, U2), lambda: cp.isin(C1, C2), lambda: torch.isin(T1, T2),
         reps=3)  # fmt: skip
    both("a @ b, 8192^2 float32, no TF32", "TFLOP/s", ">= 0.98x best peer",
         2 * 8192**3 / 1e3, lambda: MM @ MM, lambda: CM @ CM, lambda: TM @ TM, reps=2)  # fmt: skip
    small = a[:1000]
    x = ua.asarray(small, queue=q)
    c = cp.asarray(small) if cp else None
    t = torch.as_tensor(small, device="cuda") if torch else None
    row(
        "per call, 1,000 float32, sum(x)",
        "us",
        "<= 0.5x best peer",
        usmarray=synced_per_call_us(lambda: ua.sum(x), q.wait, n=2000),
        cupy=synced_per_call_us(lambda: cp.sum(c), cp.cuda.get_current_stream().synchronize,
                                n=2000) if cp else None,
        torch=synced_per_call_us(lambda: torch.sum(t), torch.cuda.synchronize, n=2000)
        if torch
        else None,
    )  # fmt: skip


def elementwise_rows(row, q, ours_stream, cupy_stream, torch_stream):
    """The elementwise functions and operators on 64 Mi float32 (bytes read
    plus written), beside a device-to-device copy of the same bytes (the
    ceiling of streaming work), and the per-call cost on 1,000 elements."""
    rng = np.random.default_rng(7)
    n = 64 * MiB
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    X, Y = ua.asarray(a, queue=q), ua.asarray(b, queue=q)
    C, D = (cp.asarray(a), cp.asarray(b)) if cp else (None, None)
    T, U = (
        (torch.as_tensor(a, device="cuda"), torch.as_tensor(b, device="cuda"))
        if torch
        else (None, None)
    )
    Z = ua.empty_like(X)
    CZ = cp.empty_like(C) if cp else None
    TZ = torch.empty_like(T) if torch else None
    row(
        "copy (device to device), 64 Mi float32",
        "GB/s",
        "the ceiling",
        usmarray=event_gbps(lambda: Z.__setitem__(Ellipsis, X), ours_stream, 2 * a.nbytes),
        cupy=event_gbps(lambda: CZ.__setitem__(Ellipsis, C), cupy_stream, 2 * a.nbytes)
        if cp
        else None,
        torch=event_gbps(lambda: TZ.copy_(T), torch_stream, 2 * a.nbytes) if torch else None,
    )
    mask = a < 0.5
    M = ua.asarray(mask, queue=q)
    CM = cp.asarray(mask) if cp else None
    TM = torch.as_tensor(mask, device="cuda") if torch else None
    m = a[: 8192 * 8192].reshape(8192, 8192)
    MM = ua.asarray(m, queue=q)
    CMM = cp.asarray(m) if cp else None
    TMM = torch.as_tensor(m, device="cuda") if torch else None
    cases = [
        ("x + y", 3 * a.nbytes, lambda x, y: x + y, (X, Y), (C, D), (T, U)),
        ("x * 3.0", 2 * a.nbytes, lambda x: x * 3.0, (X,), (C,), (T,)),
        ("exp(x)", 2 * a.nbytes, None, (X,), (C,), (T,)),
        ("x[::2] + y[::2]", 3 * a.nbytes // 2, lambda x, y: x[::2] + y[::2], (X, Y), (C, D),
         (T, U)),
        ("m + m[0] (8192 x 8192)", 2 * m.nbytes + m.nbytes // 8192, lambda m: m + m[0], (MM,),
         (CMM,), (TMM,)),
        ("x < y", 2 * a.nbytes + n, lambda x, y: x < y, (X, Y), (C, D), (T, U)),
        ("where(mask, x, y)", 3 * a.nbytes + n, None, (M, X, Y), (CM, C, D), (TM, T, U)),
    ]  # fmt: skip
    for name, nbytes, f, ours, theirs_cp, theirs_t in cases:
        fu = f or (ua.exp if name.startswith("exp") else ua.where)
        fc = f or ((cp.exp if name.startswith("exp") else cp.where) if cp else None)
        ft = f or ((torch.exp if name.startswith("exp") else torch.where) if torch else None)
        row(
            f"{name}, 64 Mi float32",
            "GB/s",
            ">= best peer, >= 0.97x copy" if "[" not in name else ">= best peer",
            usmarray=event_gbps(lambda: fu(*ours), ours_stream, nbytes),
            cupy=event_gbps(lambda: fc(*theirs_cp), cupy_stream, nbytes) if cp else None,
            torch=event_gbps(lambda: ft(*theirs_t), torch_stream, nbytes) if torch else None,
        )
    small = rng.random(1000, dtype=np.float32)
    x, y = ua.asarray(small, queue=q), ua.asarray(small, queue=q)
    c, d = (cp.asarray(small), cp.asarray(small)) if cp else (None, None)
    t, u = (
        (torch.as_tensor(small, device="cuda"), torch.as_tensor(small, device="cuda"))
        if torch
        else (None, None)
    )
    for name, fu, fc, ft in [
        ("x + y", lambda: x + y, lambda: c + d, lambda: t + u),
        ("x + 1.5", lambda: x + 1.5, lambda: c + 1.5, lambda: t + 1.5),
    ]:
        row(
            f"per call, 1,000 float32, {name}",
            "us",
            "<= 0.5x best peer",
            usmarray=synced_per_call_us(fu, q.wait),
            cupy=synced_per_call_us(fc, cp.cuda.get_current_stream().synchronize) if cp else None,
            torch=synced_per_call_us(ft, torch.cuda.synchronize) if torch else None,
        )


def synced_per_call_us(fn, sync, n=20000, rounds=5):
    """Best of rounds of n calls' wall time with one synchronization at the
    end, per call, in microseconds."""
    for _ in range(n // 10):
        fn()
    sync()
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        sync()
        best = min(best, (time.perf_counter() - t0) / n)
    return best * 1e6


def index_rows(row, q, ours_stream, cupy_stream, torch_stream):
    """Indexing by masks and integer arrays, and the manipulation functions
    that copy: bytes read and written at least (the source, the mask or the
    indices, and the result)."""
    rng = np.random.default_rng(5)
    n = 64 * MiB
    a = rng.random(n, dtype=np.float32)
    m = rng.random(n) < 0.5
    X, M = ua.asarray(a, queue=q), ua.asarray(m, queue=q)
    C, CM = (cp.asarray(a), cp.asarray(m)) if cp else (None, None)
    T, TM = (
        (torch.as_tensor(a, device="cuda"), torch.as_tensor(m, device="cuda"))
        if torch
        else (None, None)
    )
    nb = a.nbytes + m.nbytes + 4 * int(m.sum())
    row(
        "x[mask], 64 Mi float32, half true",
        "GB/s",
        ">= 650 GB/s",
        usmarray=event_gbps(lambda: X[M], ours_stream, nb),
        cupy=event_gbps(lambda: C[CM], cupy_stream, nb) if cp else None,
        torch=event_gbps(lambda: T[TM], torch_stream, nb) if torch else None,
    )
    idx = rng.integers(0, n, 16 * MiB)
    II = ua.asarray(idx, queue=q)
    CI = cp.asarray(idx) if cp else None
    TI = torch.as_tensor(idx, device="cuda") if torch else None
    nb = idx.nbytes + 2 * 4 * idx.size
    row(
        "take(x, idx), 64 Mi float32, 16 Mi int64 indices",
        "GB/s",
        ">= 500 GB/s",
        usmarray=event_gbps(lambda: ua.take(X, II), ours_stream, nb),
        cupy=event_gbps(lambda: cp.take(C, CI), cupy_stream, nb) if cp else None,
        torch=event_gbps(lambda: torch.take(T, TI), torch_stream, nb) if torch else None,
    )
    half = n // 2
    nb = 2 * a.nbytes
    for name, ours, cupy, tor in (
        (
            "concat",
            lambda: ua.concat([X[:half], X[half:]]),
            lambda: cp.concatenate([C[:half], C[half:]]),
            lambda: torch.cat([T[:half], T[half:]]),
        ),
        (
            "stack",
            lambda: ua.stack([X[:half], X[half:]]),
            lambda: cp.stack([C[:half], C[half:]]),
            lambda: torch.stack([T[:half], T[half:]]),
        ),
        ("flip", lambda: ua.flip(X).copy(), lambda: cp.flip(C).copy(), lambda: torch.flip(T, [0])),
        (
            "roll",
            lambda: ua.roll(X, 12345),
            lambda: cp.roll(C, 12345),
            lambda: torch.roll(T, 12345),
        ),
    ):
        if hasattr(ua, name):
            row(
                f"{name}, 64 Mi float32",
                "GB/s",
                ">= 0.95x the copy engine",
                usmarray=event_gbps(ours, ours_stream, nb),
                cupy=event_gbps(cupy, cupy_stream, nb) if cp else None,
                torch=event_gbps(tor, torch_stream, nb) if torch else None,
            )
    del X, M, C, CM, T, TM, II, CI, TI
    small = rng.random(1000, dtype=np.float32)
    sm = rng.random(1000) < 0.5
    Xs, Ms = ua.asarray(small, queue=q), ua.asarray(sm, queue=q)
    Cs, CMs = (cp.asarray(small), cp.asarray(sm)) if cp else (None, None)
    Ts, TMs = (
        (torch.as_tensor(small, device="cuda"), torch.as_tensor(sm, device="cuda"))
        if torch
        else (None, None)
    )
    row(
        "x[mask], 1000 float32",
        "us",
        "<= 0.5x the fastest peer",
        usmarray=per_call_us(lambda: Xs[Ms], n=2000),
        cupy=per_call_us(lambda: Cs[CMs], n=2000) if cp else None,
        torch=per_call_us(lambda: Ts[TMs], n=2000) if torch else None,
    )
    if hasattr(ua, "concat"):
        row(
            "concat, 2 x 500 float32",
            "us",
            "<= 0.5x the fastest peer",
            usmarray=per_call_us(lambda: ua.concat([Xs[:500], Xs[500:]]), n=2000),
            cupy=per_call_us(lambda: cp.concatenate([Cs[:500], Cs[500:]]), n=2000) if cp else None,
            torch=per_call_us(lambda: torch.cat([Ts[:500], Ts[500:]]), n=2000) if torch else None,
        )
        # The same without the slicing, whose cost differs between libraries.
        U2, C2, T2 = (
            (Xs[:500], Xs[500:]),
            (Cs[:500], Cs[500:]) if cp else None,
            (Ts[:500], Ts[500:]) if torch else None,
        )
        row(
            "concat of two 500-element float32 arrays",
            "us",
            "<= 0.5x the fastest peer",
            usmarray=per_call_us(lambda: ua.concat(U2), n=2000),
            cupy=per_call_us(lambda: cp.concatenate(C2), n=2000) if cp else None,
            torch=per_call_us(lambda: torch.cat(T2), n=2000) if torch else None,
        )


def peer_versions():
    return {
        name: mod.__version__
        for name, mod in (("cupy", cp), ("torch", torch), ("numpy", np))
        if mod is not None
    }


def peer_gbps(fn, stream_handle, device, nbytes, reps=10):
    """event_gbps with the events made on `device`, whose stream it is."""
    with cp.cuda.Device(device):
        return event_gbps(fn, stream_handle, nbytes, reps)


def peer_rows():
    """GPU 0 to GPU 1 over the link between them (NVLink on the two-H200
    machine): 256 MiB, timed by events on the stream each library copies on
    (the destination device's), bytes counted once.  None with fewer than
    two GPUs or without CuPy (its events time every row)."""
    if len(ua.get_devices(backend="cuda")) < 2 or cp is None:
        return []
    out = []
    q0, q1 = ua.Queue("cuda:gpu:0"), ua.Queue("cuda:gpu:1")
    a = np.random.default_rng(2).random(256 * MiB // 4, dtype=np.float32)
    X0 = ua.asarray(a, queue=q0)
    Y1 = ua.empty(a.shape, dtype="f4", queue=q1)
    ours_stream = ua.empty(1, queue=q1).__cuda_array_interface__["stream"]
    with cp.cuda.Device(0):
        C0 = cp.asarray(a)
    with cp.cuda.Device(1):
        C1 = cp.empty_like(C0)
        cstream = cp.cuda.get_current_stream()
        cupy_stream = cstream.ptr
    T0 = torch.as_tensor(a, device="cuda:0") if torch else None
    T1 = torch.empty_like(T0, device="cuda:1") if torch else None
    torch_stream = torch.cuda.current_stream(1).cuda_stream if torch else None

    def ours_into():
        Y1[...] = X0

    def cupy_into():
        C1.data.copy_from_device_async(C0.data, C0.nbytes, cstream)

    def cupy_array():
        with cp.cuda.Device(1):
            return cp.array(C0)

    link = "direct" if ua.Device("cuda:gpu:0").can_access_peer("cuda:gpu:1") else "through the host"
    out.append(
        {
            "operation": f"GPU->GPU copy 256 MiB into an existing array ({link})",
            "unit": "GB/s",
            "target": ">= 0.95x best peer",
            "usmarray": peer_gbps(ours_into, ours_stream, 1, a.nbytes),
            "cupy": peer_gbps(cupy_into, cupy_stream, 1, a.nbytes),
            "torch": peer_gbps(lambda: T1.copy_(T0), torch_stream, 1, a.nbytes) if torch else None,
        }
    )
    out.append(
        {
            "operation": f"GPU->GPU to_device 256 MiB, allocating ({link})",
            "unit": "GB/s",
            "target": ">= 0.95x best peer",
            "usmarray": peer_gbps(lambda: X0.to_device(q1), ours_stream, 1, a.nbytes),
            "cupy": peer_gbps(cupy_array, cupy_stream, 1, a.nbytes),
            "torch": peer_gbps(lambda: T0.to("cuda:1"), torch_stream, 1, a.nbytes)
            if torch
            else None,
        }
    )
    return out


def ratio(row, peer):
    ours, theirs = row.get("usmarray"), row.get(peer)
    if ours is None or theirs is None:
        return None
    # Above 1 means usmarray is better: less time, or more bandwidth.
    return theirs / ours if row["unit"] == "us" else ours / theirs


LIBRARIES = ("usmarray", "cupy", "torch", "numba")


def median_table(tables):
    """The rows of several runs of one table, matched by their names, each
    library's value the median of its runs' (each run's values kept beside
    it, in order)."""
    out = []
    by_name = [{r["operation"]: r for r in t} for t in tables]
    for first in tables[0]:
        rows = [t[first["operation"]] for t in by_name if first["operation"] in t]
        row = dict(first)
        for lib in LIBRARIES:
            values = [r.get(lib) for r in rows if r.get(lib) is not None]
            row[lib] = statistics.median(values) if values else None
            if len(tables) > 1 and values:
                row[f"{lib}_runs"] = values
        out.append(row)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--runs", type=int, default=1, help="the table this many times; each value the median"
    )
    parser.add_argument("--json", default=None)
    parser.add_argument("--peer-only", action="store_true", help="only the two-GPU rows")
    parser.add_argument("--elementwise-only", action="store_true", help="only the elementwise rows")
    parser.add_argument(
        "--index-only", action="store_true", help="only the indexing and copying rows"
    )
    parser.add_argument(
        "--reductions-only", action="store_true", help="only the reductions, sorts and products"
    )
    args = parser.parse_args()
    if not any(d.backend == "cuda" for d in ua.get_devices()):
        print("no CUDA device: nothing to measure")
        return 0

    def one_run():
        if args.elementwise_only:
            return part_rows(elementwise_rows)
        if args.index_only:
            return part_rows(index_rows)
        if args.reductions_only:
            return part_rows(reduction_rows)
        return (rows() if not args.peer_only else []) + peer_rows()

    table = median_table([one_run() for _ in range(max(args.runs, 1))])
    for r in table:
        r["ratio_vs_cupy"] = ratio(r, "cupy")
        r["ratio_vs_torch"] = ratio(r, "torch")

    def fmt(v):
        return "" if v is None else f"{v:.2f}"

    print(f"device: {ua.Device(GPU).name}")
    print(
        "| operation | unit | usmarray | CuPy | PyTorch | numba | vs CuPy | vs PyTorch | target |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in table:
        print(
            f"| {r['operation']} | {r['unit']} | {fmt(r['usmarray'])} | {fmt(r.get('cupy'))} | "
            f"{fmt(r.get('torch'))} | {fmt(r.get('numba'))} | {fmt(r['ratio_vs_cupy'])} | "
            f"{fmt(r['ratio_vs_torch'])} | {r['target']} |"
        )
    out = args.json or os.path.join(os.environ.get("OUT", "."), "gpu_vs_peers.json")
    with open(out, "w") as f:
        json.dump(
            {
                "device": ua.Device(GPU).name,
                "date": datetime.date.today().isoformat(),
                "peers": peer_versions(),
                "runs": max(args.runs, 1),
                "rows": table,
            },
            f,
            indent=1,
        )
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
