"""usmarray beside NumPy on the host backend, in one run.

Per-call times (best of several repeats, in microseconds) and copy throughput
(GB/s counting bytes read plus bytes written).  The ratio column is
NumPy's time divided by ours: above 1 means usmarray is faster.  --runs
repeats the whole sweep; each row then gives the median over the runs and
the ratio's range, the spread a reader needs to tell a difference from
noise.  The machine's load average is recorded before and after.  Writes
the rows as JSON for tools/perf_tables.py (docs/generated_tables.md's
``perf-host`` block).

    python benchmarks/host_vs_numpy.py [--quick] [--runs 5] [--one-thread] [--json PATH]

--one-thread times the sort and argsort rows again in a child process
whose host backend has one thread (USMARRAY_HOST_THREADS=1), and gives
that ratio beside the default threads' one.
"""

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import timeit

import numpy as np
import usmarray as ua


class SuaiHolder:
    def __init__(self, iface):
        self.__sycl_usm_array_interface__ = iface


class AiHolder:
    def __init__(self, iface):
        self.__array_interface__ = iface


def compare(ours, theirs, number, repeat):
    """Best seconds per call of each, timed in alternation so that a noisy
    neighbour on a shared machine slows both alike."""
    best = [float("inf"), float("inf")]
    for _ in range(repeat):
        for i, fn in enumerate((ours, theirs)):
            best[i] = min(best[i], timeit.timeit(fn, number=number) / number)
    return best


def per_call_rows(number):
    mem = ua.MemoryUSMDevice(64 * 64 * 8)
    buf = bytearray(64 * 64 * 8)
    x = ua.USMArray((64, 64), dtype="f8", buffer=mem)
    h = np.ndarray((64, 64), dtype="f8", buffer=buf)
    sx = SuaiHolder(x.__sycl_usm_array_interface__)
    ah = AiHolder(h.__array_interface__)
    return [
        (
            "view construction",
            lambda: ua.USMArray((64, 64), "f8", mem, (64, 1)),
            lambda: np.ndarray((64, 64), "f8", buf, 0, (512, 8)),
        ),
        ("slicing x[1:10, ::2]", lambda: x[1:10, ::2], lambda: h[1:10, ::2]),
        ("protocol export", lambda: x.__sycl_usm_array_interface__, lambda: h.__array_interface__),
        ("protocol import", lambda: ua.asarray(sx), lambda: np.asarray(ah)),
        ("empty(1024)", lambda: ua.empty(1024), lambda: np.empty(1024)),
        ("DLPack round trip", lambda: ua.from_dlpack(x), lambda: np.from_dlpack(h)),
    ] + elementwise_call_rows(), number


def elementwise_call_rows():
    """Per-call cost of small elementwise operations: 1,000 float32."""
    h, g = np.ones(1000, np.float32), np.full(1000, 2.0, np.float32)
    x, y = ua.asarray(h), ua.asarray(g)
    return [
        ("x + y, 1,000 float32", lambda: x + y, lambda: h + g),
        ("x + 1.5, 1,000 float32", lambda: x + 1.5, lambda: h + 1.5),
        ("exp(x), 1,000 float32", lambda: ua.exp(x), lambda: np.exp(h)),
    ]


def throughput_rows(scale):
    n = 4096 // scale
    rows = []

    def case(name, make, ours, theirs, nbytes):
        h = make()
        x = ua.asarray(h, usm_type="device")
        rows.append((name, lambda: ours(x), lambda: theirs(h), nbytes(h)))

    case(
        "contiguous copy 64 MiB f8",
        lambda: np.ones((8 << 20) // scale),
        lambda x: x.copy(),
        lambda h: h.copy(),
        lambda h: 2 * h.nbytes,
    )
    case(
        f"copy() {128 // scale} MiB f8",
        lambda: np.ones((16 << 20) // scale),
        lambda x: x.copy(),
        lambda h: h.copy(),
        lambda h: 2 * h.nbytes,
    )
    case(
        f"transpose copy {n}x{n} f8",
        lambda: np.ones((n, n)),
        lambda x: x.T.copy(),
        lambda h: np.ascontiguousarray(h.T),
        lambda h: 2 * h.nbytes,
    )
    for m in (64, 48) if scale == 1 else (32, 24):
        case(
            f"permute (3,1,0,2) copy {m}^4 f4",
            lambda: np.ones((m,) * 4, np.float32),
            lambda x: ua.permute_dims(x, (3, 1, 0, 2)).copy(),
            lambda h: np.ascontiguousarray(h.transpose(3, 1, 0, 2)),
            lambda h: 2 * h.nbytes,
        )
    k = 256 // scale
    case(
        f"negative-step slice copy {k}^3 f8 [::-1, ::-2, ::-1]",
        lambda: np.ones((k, k, k)),
        lambda x: x[::-1, ::-2, ::-1].copy(),
        lambda h: h[::-1, ::-2, ::-1].copy(),
        lambda h: h.nbytes,
    )
    case(
        "astype f8->f4, 64 MiB",
        lambda: np.ones((8 << 20) // scale),
        lambda x: x.astype("f4"),
        lambda h: h.astype("f4"),
        lambda h: h.nbytes + h.nbytes // 2,
    )
    index_rows(rows, scale)
    compute_rows(rows, scale)
    elementwise_rows(rows, scale)
    return rows


def compute_rows(rows, scale):
    """Reductions, scans, sorting and products: float32, float64 and int64,
    contiguous and along axis 0 of a matrix; GB/s counts the input."""
    n = (16 << 20) // scale
    side = 4096 // scale
    for dt in ("float32", "float64", "int64"):
        h = (np.random.default_rng(0).standard_normal(n) * 1000).astype(dt)
        m = h[: side * side].reshape(side, side)
        x, xm = ua.asarray(h, usm_type="device"), ua.asarray(m, usm_type="device")
        for name, ours, theirs in (
            ("sum", ua.sum, np.sum),
            ("max", ua.max, np.max),
            ("argmax", ua.argmax, np.argmax),
            ("cumulative_sum", ua.cumulative_sum, np.cumulative_sum),
        ):
            rows.append(
                (
                    f"{name} {n >> 20} Mi {dt}",
                    lambda f=ours, a=x: f(a),
                    lambda g=theirs, a=h: g(a),
                    h.nbytes,
                )
            )
            rows.append(
                (
                    f"{name} axis=0 {side}x{side} {dt}",
                    lambda f=ours, a=xm: f(a, axis=0),
                    lambda g=theirs, a=m: g(a, axis=0),
                    m.nbytes,
                )
            )
        sort_rows(rows, h[: n // 4], dt)
        k = 1024 // scale
        a2 = h[: k * k].reshape(k, k)
        x2 = ua.asarray(a2, usm_type="device")
        rows.append(
            (
                f"{k}x{k} @ {dt} (bytes: 2 in, 1 out)",
                lambda a=x2: a @ a,
                lambda a=a2: a @ a,
                3 * a2.nbytes,
            )
        )


def sort_rows(rows, s, dt):
    """sort and argsort of s (the one-thread child process times these
    rows only)."""
    xs = ua.asarray(s, usm_type="device")
    for name, ours, theirs in (("sort", ua.sort, np.sort), ("argsort", ua.argsort, np.argsort)):
        rows.append(
            (
                f"{name} {len(s) >> 20} Mi {dt}",
                lambda f=ours, a=xs: f(a),
                lambda g=theirs, a=s: g(a),
                s.nbytes,
            )
        )


def sort_only_rows(scale):
    """The sort rows alone, on the inputs compute_rows gives them."""
    n = (16 << 20) // scale
    rows = []
    for dt in ("float32", "float64", "int64"):
        h = (np.random.default_rng(0).standard_normal(n) * 1000).astype(dt)
        sort_rows(rows, h[: n // 4], dt)
    return rows


def one_thread_ratios(quick, runs):
    """Each sort row's ratio with usmarray's host limited to one thread
    (USMARRAY_HOST_THREADS=1, read once per process: a child process),
    the median over runs sweeps: NumPy's sort is single-threaded, and the
    threads should be a gain on top of the one-thread time."""
    env = dict(os.environ, USMARRAY_HOST_THREADS="1")
    cmd = [sys.executable, __file__, "--sort-only", "--runs", str(runs)]
    out = subprocess.run(
        cmd + (["--quick"] if quick else []), env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.splitlines()[-1])


def elementwise_rows(rows, scale):
    """Elementwise functions on 16 Mi elements (bytes read and written):
    contiguous, every other element, and a row broadcast over a matrix."""
    rng = np.random.default_rng(3)
    n = (16 << 20) // scale
    for dtype in ("float32", "float64", "int64"):
        elementwise_dtype_rows(rows, rng, n, dtype)
    h, g = rng.random(2 * n, dtype=np.float32), rng.random(2 * n, dtype=np.float32)
    x, y = ua.asarray(h), ua.asarray(g)
    rows.append(
        (
            f"x[::2] + y[::2], {n >> 20} Mi float32",
            lambda: x[::2] + y[::2],
            lambda: h[::2] + g[::2],
            3 * 4 * n,
        )
    )
    side = 4096 // int(scale**0.5)
    hm = rng.random((side, side), dtype=np.float32)
    m = ua.asarray(hm)
    rows.append(
        (f"m + m[0], {side}x{side} float32", lambda: m + m[0], lambda: hm + hm[0], 2 * hm.nbytes)
    )


def elementwise_dtype_rows(rows, rng, n, dtype):
    if dtype == "int64":
        h, g = rng.integers(1, 1000, n), rng.integers(1, 1000, n)
    else:
        h, g = rng.random(n, dtype=dtype) + 0.5, rng.random(n, dtype=dtype) + 0.5
    x, y = ua.asarray(h), ua.asarray(g)
    size = h.itemsize
    wide = 8 if dtype == "int64" else size  # exp and sqrt of int64 give float64
    for name, ours, theirs, nbytes in (
        ("x + y", lambda: x + y, lambda: h + g, 3 * size),
        ("x * y", lambda: x * y, lambda: h * g, 3 * size),
        ("exp(x)", lambda: ua.exp(x), lambda: np.exp(h), size + wide),
        ("sqrt(x)", lambda: ua.sqrt(x), lambda: np.sqrt(h), size + wide),
        ("x < y", lambda: x < y, lambda: h < g, 2 * size + 1),
    ):
        rows.append((f"{name}, {n >> 20} Mi {dtype}", ours, theirs, n * nbytes))


def index_rows(rows, scale):
    """Indexing and the manipulation functions that copy, on 16 Mi float32
    (bytes read and written at least)."""
    rng = np.random.default_rng(5)
    n = (16 << 20) // scale
    h = rng.random(n, dtype=np.float32)
    m = rng.random(n) < 0.5
    idx = rng.integers(0, n, n // 4)
    x, xm, xi = (ua.asarray(a, usm_type="device") for a in (h, m, idx))
    half = n // 2
    rows.append(
        ("x[mask], half true", lambda: x[xm], lambda: h[m], h.nbytes + m.nbytes + 2 * h.nbytes // 2)
    )
    rows.append(
        (
            "take(x, idx), int64 indices",
            lambda: ua.take(x, xi),
            lambda: np.take(h, idx),
            idx.nbytes + 8 * idx.size,
        )
    )
    rows.append(
        (
            "concat of two halves",
            lambda: ua.concat([x[:half], x[half:]]),
            lambda: np.concatenate([h[:half], h[half:]]),
            2 * h.nbytes,
        )
    )
    rows.append(
        (
            "stack of two halves",
            lambda: ua.stack([x[:half], x[half:]]),
            lambda: np.stack([h[:half], h[half:]]),
            2 * h.nbytes,
        )
    )
    rows.append(("roll", lambda: ua.roll(x, 12345), lambda: np.roll(h, 12345), 2 * h.nbytes))
    rows.append(
        ("x[::-1] copy (flip)", lambda: ua.flip(x).copy(), lambda: np.flip(h).copy(), 2 * h.nbytes)
    )


def sort_sweep(quick):
    """One pass over the sort rows alone."""
    table = []
    for name, ours, theirs, _ in sort_only_rows(4 if quick else 1):
        a, b = compare(ours, theirs, 2, 7)
        table.append({"operation": name, "ratio": b / a})
    return table


def sweep(quick):
    """One pass over every row: best-of times, usmarray and NumPy alternating."""
    table = []
    rows, number = per_call_rows(2000 if quick else 20000)
    for name, ours, theirs in rows:
        a, b = compare(ours, theirs, number, 7)
        table.append(
            {"operation": name, "unit": "us", "usmarray": a * 1e6, "numpy": b * 1e6, "ratio": b / a}
        )
    for name, ours, theirs, nbytes in throughput_rows(4 if quick else 1):
        a, b = compare(ours, theirs, 2, 7)
        table.append(
            {
                "operation": name,
                "unit": "GB/s",
                "usmarray": nbytes / a / 1e9,
                "numpy": nbytes / b / 1e9,
                "ratio": b / a,
            }
        )
    return table


def median_row(rows):
    """A row's medians over the runs, and its ratio's range."""
    ratios = [r["ratio"] for r in rows]
    return {
        "operation": rows[0]["operation"],
        "unit": rows[0]["unit"],
        "usmarray": statistics.median(r["usmarray"] for r in rows),
        "numpy": statistics.median(r["numpy"] for r in rows),
        "ratio": statistics.median(ratios),
        "ratio_min": min(ratios),
        "ratio_max": max(ratios),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    parser.add_argument("--json", default=None, help="where to write the rows")
    parser.add_argument("--runs", type=int, default=1, help="sweeps, one after another")
    parser.add_argument(
        "--one-thread",
        action="store_true",
        help="also time the sort rows with the host on one thread (a child process)",
    )
    parser.add_argument("--sort-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.sort_only:
        runs = [sort_sweep(args.quick) for _ in range(args.runs)]
        print(
            json.dumps(
                {
                    r["operation"]: statistics.median(run[i]["ratio"] for run in runs)
                    for i, r in enumerate(runs[0])
                }
            )
        )
        return
    machine = f"{ua.Device('host').name}"
    print(
        f"machine: {platform.processor() or platform.machine()}, "
        f"{machine}; numpy {np.__version__}; usmarray {ua.__version__}"
    )
    print(f"{'operation':<48}{'usmarray':>12}{'numpy':>12}{'ratio':>8}  (range)")
    load_before = os.getloadavg()
    runs = [sweep(args.quick) for _ in range(args.runs)]
    table = [median_row([run[i] for run in runs]) for i in range(len(runs[0]))]
    one = one_thread_ratios(args.quick, args.runs) if args.one_thread else {}
    load_after = os.getloadavg()
    for r in table:
        if r["operation"] in one:
            r["ratio_one_thread"] = one[r["operation"]]
        print(
            f"{r['operation'] + ' (' + r['unit'] + ')':<48}{r['usmarray']:>12.3f}"
            f"{r['numpy']:>12.3f}{r['ratio']:>8.2f}  ({r['ratio_min']:.2f}-{r['ratio_max']:.2f})"
            + (f"  one thread {r['ratio_one_thread']:.2f}" if "ratio_one_thread" in r else "")
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {
                    "device": machine,
                    "date": datetime.date.today().isoformat(),
                    "numpy": np.__version__,
                    "quick": args.quick,
                    "cpus": os.cpu_count(),
                    "load_before": [round(v, 2) for v in load_before],
                    "load_after": [round(v, 2) for v in load_after],
                    "rows": table,
                    "runs": runs,
                },
                f,
                indent=1,
            )
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
