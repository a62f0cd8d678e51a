"""usmarray beside dpctl/dpnp on the same SYCL device, in one run.

Per-call times (best of several repeats, in microseconds) and copy throughput
(GB/s counting bytes read plus bytes written).  The ratio column is the
partner's time divided by ours: above 1 means usmarray is faster.  The
throughput rows also time usmarray's same call on the host device, in the
same alternation: a SYCL CPU device runs the host's loops on its memory,
so its rows should be within 10% of the host's (``sycl_over_host``, the
host's time over the device's).  Writes the rows as JSON (--json PATH) for
the README's table.

    OCL_ICD_FILENAMES=$VIRTUAL_ENV/lib/libintelocl.so \\
        python benchmarks/sycl_vs_dpctl.py [--quick] [--json out.json]
"""

import argparse
import datetime
import json
import platform
import timeit

import dpctl
import dpctl.memory as dpm
import dpnp
import dpnp.tensor as dpt
import numpy as np
import usmarray as ua


class SuaiHolder:
    def __init__(self, iface):
        self.__sycl_usm_array_interface__ = iface


def compare(*fns, number, repeat):
    """Best seconds per call of each, timed in alternation."""
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            best[i] = min(best[i], timeit.timeit(fn, number=number) / number)
    return best


def on_host(a):
    return ua.asarray(a, device="host")


def synced(fn, queue):
    """fn, then a wait for its queue (the device's calls may be queued)."""

    def run():
        fn()
        queue.wait()

    return run


def per_call_rows(q, dq):
    mem = ua.MemoryUSMDevice(64 * 64 * 8, queue=q)
    dmem = dpm.MemoryUSMDevice(64 * 64 * 8, queue=dq)
    x = ua.USMArray((64, 64), dtype="f8", buffer=mem)
    d = dpt.usm_ndarray((64, 64), dtype="f8", buffer=dmem)
    from_ours = SuaiHolder(x.__sycl_usm_array_interface__)
    from_theirs = SuaiHolder(d.__sycl_usm_array_interface__)
    dn = dpnp.ones(1024, sycl_queue=dq)
    return [
        (
            "Memory allocation (4 KiB, device)",
            lambda: ua.MemoryUSMDevice(4096, queue=q),
            lambda: dpm.MemoryUSMDevice(4096, queue=dq),
        ),
        (
            "empty(1024) on the device",
            lambda: ua.empty(1024, device=q),
            lambda: dpt.empty(1024, sycl_queue=dq),
        ),
        (
            "array view construction",
            lambda: ua.USMArray((64, 64), "f8", mem, (64, 1)),
            lambda: dpt.usm_ndarray((64, 64), "f8", (64, 1), buffer=dmem),
        ),
        ("slicing x[1:10, ::2]", lambda: x[1:10, ::2], lambda: d[1:10, ::2]),
        (
            "SUAI export",
            lambda: x.__sycl_usm_array_interface__,
            lambda: d.__sycl_usm_array_interface__,
        ),
        (
            "SUAI import (the other's array)",
            lambda: ua.asarray(from_theirs),
            lambda: dpt.asarray(from_ours),
        ),
        (
            "DLPack import (the other's array)",
            lambda: ua.from_dlpack(dn),
            lambda: dpt.from_dlpack(x),
        ),
    ]


def elementwise_per_call_rows(q, dq):
    """x + y on 1,000 float32, each library's own call, synchronized once at
    the end of the timed calls (compare times them in batches)."""
    a = np.random.default_rng(2).random(1000, dtype=np.float32)
    x, y = ua.asarray(a, queue=q), ua.asarray(a, queue=q)
    d, e = dpnp.asarray(a, sycl_queue=dq), dpnp.asarray(a, sycl_queue=dq)
    return [("x + y, 1,000 float32", lambda: x + y, lambda: d + e)]


def elementwise_rows(q, dq, scale):
    n = (16 << 20) // scale
    a = np.random.default_rng(3).random(n, dtype=np.float32)
    x, y = ua.asarray(a, queue=q), ua.asarray(a, queue=q)
    d, e = dpnp.asarray(a, sycl_queue=dq), dpnp.asarray(a, sycl_queue=dq)
    hx, hy = on_host(a), on_host(a)
    # bytes read and written: two operands and the result (the caller
    # doubles nbytes, so half of it here)
    return [(f"x + y, {n >> 20} Mi float32", 3 * a.nbytes // 2, lambda: x + y, lambda: d + e,
             lambda: hx + hy)]  # fmt: skip


def copy_rows(q, dq, scale):
    n = 2048 // scale
    a = np.random.default_rng(0).standard_normal((n, n)).astype("f4")
    x, d, hx = ua.asarray(a, queue=q), dpt.asarray(a, sycl_queue=dq), on_host(a)
    m = 64 // scale
    b = np.random.default_rng(1).standard_normal((m, m, m, m)).astype("f4")
    y, e, hy = ua.asarray(b, queue=q), dpt.asarray(b, sycl_queue=dq), on_host(b)
    return [
        (
            f"contiguous copy {n}x{n} f4",
            a.nbytes,
            lambda: x.copy(),
            lambda: dpt.copy(d),
            lambda: hx.copy(),
        ),
        (
            f"transpose copy {n}x{n} f4",
            a.nbytes,
            lambda: x.T.copy(),
            lambda: dpt.copy(d.T, order="C"),
            lambda: hx.T.copy(),
        ),
        (
            f"4-D permute (3,1,0,2) {m}^4 f4",
            b.nbytes,
            lambda: ua.permute_dims(y, (3, 1, 0, 2)).copy(),
            lambda: dpt.copy(dpt.permute_dims(e, (3, 1, 0, 2)), order="C"),
            lambda: ua.permute_dims(hy, (3, 1, 0, 2)).copy(),
        ),
    ]


def reduction_rows(q, dq, scale):
    """Issue 25's SYCL rows: (name, unit, work per call in the unit's
    count, ours, dpnp's)."""
    rng = np.random.default_rng(5)
    n = (16 << 20) // scale
    a = rng.standard_normal(n).astype("f4")
    x, d, hx = ua.asarray(a, queue=q), dpnp.asarray(a, sycl_queue=dq), on_host(a)
    k = (4 << 20) // scale
    y, e, hy = ua.asarray(a[:k], queue=q), dpnp.asarray(a[:k], sycl_queue=dq), on_host(a[:k])
    m = 2048 // scale
    b = rng.standard_normal((m, m)).astype("f4")
    u, v, hu = ua.asarray(b, queue=q), dpnp.asarray(b, sycl_queue=dq), on_host(b)
    return [
        (f"sum(x), {n >> 20} Mi float32", "GB/s", a.nbytes / 1e9,
         lambda: ua.sum(x), lambda: dpnp.sum(d), lambda: ua.sum(hx)),
        (f"sort, {k >> 20} Mi float32", "Mkeys/s", k / 1e6,
         lambda: ua.sort(y), lambda: dpnp.sort(e), lambda: ua.sort(hy)),
        (f"a @ b, {m}^2 float32", "GFLOP/s", 2 * m**3 / 1e9, lambda: u @ u, lambda: v @ v,
         lambda: hu @ hu),
    ]  # fmt: skip


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    p.add_argument("--json")
    p.add_argument(
        "--reductions-only", action="store_true", help="only the reduction, sort and product rows"
    )
    args = p.parse_args()
    q = ua.Queue(ua.get_devices(backend="sycl")[0])
    dq = dpctl.SyclQueue(q._get_capsule())
    number, repeat = (200, 3) if args.quick else (2000, 7)
    rows = []
    print(f"SYCL device: {q.device.name}; {platform.processor() or platform.machine()}")
    print(f"{'operation':40} {'usmarray':>10} {'dpctl/dpnp':>11} {'ratio':>7} {'host':>10} "
          f"{'sycl/host':>9}")  # fmt: skip
    scale = 4 if args.quick else 1
    for name, unit, work, ours, theirs, host in reduction_rows(q, dq, scale):
        ours(), theirs(), host()  # kernels built before timing
        a, b, h = compare(synced(ours, q), synced(theirs, dq), host, number=1, repeat=repeat)
        rows.append({"row": name, "unit": unit, "usmarray": work / a, "dpnp": work / b,
                     "ratio": b / a, "host": work / h, "sycl_over_host": h / a})  # fmt: skip
        print(f"{name:40} {work / a:7.2f}{unit} {work / b:8.2f}{unit} {b / a:6.2f}x "
              f"{work / h:7.2f}{unit} {h / a:8.2f}x")  # fmt: skip
    if args.reductions_only:
        per_call, bandwidth = [], []
    else:
        per_call = per_call_rows(q, dq) + elementwise_per_call_rows(q, dq)
        bandwidth = copy_rows(q, dq, scale) + elementwise_rows(q, dq, scale)
    for name, ours, theirs in per_call:
        a, b = compare(ours, theirs, number=number, repeat=repeat)
        rows.append({"row": name, "usmarray_us": a * 1e6, "dpctl_us": b * 1e6, "ratio": b / a})
        print(f"{name:40} {a * 1e6:8.2f}us {b * 1e6:9.2f}us {b / a:6.1f}x")
    for name, nbytes, ours, theirs, host in bandwidth:
        ours(), theirs(), host()  # kernels built before timing
        a, b, h = compare(synced(ours, q), synced(theirs, dq), host, number=3, repeat=repeat)
        ga, gb, gh = (2 * nbytes / t / 1e9 for t in (a, b, h))
        rows.append({"row": name, "usmarray_GBps": ga, "dpnp_GBps": gb, "ratio": ga / gb,
                     "host_GBps": gh, "sycl_over_host": ga / gh})  # fmt: skip
        print(f"{name:40} {ga:7.2f}GB/s {gb:8.2f}GB/s {ga / gb:6.2f}x {gh:7.2f}GB/s "
              f"{ga / gh:8.2f}x")  # fmt: skip
    if args.json:
        with open(args.json, "w") as f:
            report = {
                "device": q.device.name,
                "date": datetime.date.today().isoformat(),
                "dpctl": dpctl.__version__,
                "dpnp": dpnp.__version__,
                "rows": rows,
            }
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
