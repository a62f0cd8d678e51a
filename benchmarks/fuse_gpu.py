"""usmarray.fuse on a CUDA GPU beside usmarray's eager calls, CuPy's and
PyTorch's (eager, and torch.compile with --compile), in one run.

  python benchmarks/fuse_gpu.py [--mi 64] [--reps 20] [--compile] [--json F]
  python benchmarks/fuse_gpu.py --first-calls [--compile] [--only NAMES] [--json F]
      each expression's first fused call in a new process with an empty
      kernel cache (a fresh USMARRAY_CACHE_DIR and CUDA_CACHE_PATH), on 1 Mi
      elements, beside torch.compile's first call with --compile (a fresh
      TORCHINDUCTOR_CACHE_DIR): its trace, compile, launch and wait;
      --only: the expressions whose names begin with one of NAMES (a
      comma list).  The JSON is rewritten after each expression, so that
      a run stopped by its time limit keeps the rows it measured.

Each expression of float32 arrays of --mi Mi elements (past the L2
cache), timed with CUDA events on each library's own stream after a
warm-up, the median of --reps: one call between the events (the host's
work before the launch counted), and ten calls one after another
("queued": that work overlapping the kernels before it); then the host's
cost of a call on 1,000 elements, fused and eager.  GB/s counts the bytes a fused pass must
move (each argument read once, the result written once).  The rows with
reductions run as stages (kernels between the eager reductions); the
row norms and softmax read x as a square matrix."""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np
import usmarray as ua

try:
    import cupy as cp
except ImportError:  # pragma: no cover
    cp = None
try:
    import torch
except ImportError:  # pragma: no cover
    torch = None


def gelu(xp, x):
    return 0.5 * x * (1 + xp.tanh(0.7978846 * (x + 0.044715 * x**3)))


def gelu_products(xp, x):
    return 0.5 * x * (1 + xp.tanh(0.7978846 * (x + 0.044715 * (x * x * x))))


def row_max(xp, m):
    if xp is torch:
        return torch.amax(m, dim=1, keepdim=True)
    return xp.max(m, axis=1, keepdims=True)


def softmax(xp, m):
    e = xp.exp(m - row_max(xp, m))
    return e / xp.sum(e, axis=1, keepdims=True)


def log_softmax(xp, m):
    shifted = m - row_max(xp, m)
    return shifted - xp.log(xp.sum(xp.exp(shifted), axis=1, keepdims=True))


# name: (expression, the bytes a float32 element a single pass moves, and
# whether x is the square matrix m of the same elements)
EXPRESSIONS = {
    "2.5 * x + y": (lambda xp, x, y: 2.5 * x + y, 12, False),
    "where(x > 0, x, 0.01 * x)": (lambda xp, x, y: xp.where(x > 0, x, 0.01 * x), 8, False),
    "gelu(x)": (lambda xp, x, y: gelu(xp, x), 8, False),
    "(x - y) ** 2 + x ** 3": (lambda xp, x, y: (x - y) ** 2 + x**3, 12, False),
    # Where GELU's time goes: its power and its tanh alone, and GELU with
    # the cube as two products.
    "x ** 3": (lambda xp, x, y: x**3, 8, False),
    "tanh(x)": (lambda xp, x, y: xp.tanh(x), 8, False),
    "gelu(x), x * x * x": (lambda xp, x, y: gelu_products(xp, x), 8, False),
    # Stages: kernels of the elementwise nodes between eager reductions.
    "sum((x - y) ** 2)": (lambda xp, x, y: xp.sum((x - y) ** 2), 8, False),
    "mean((x - mean(x)) ** 2)": (lambda xp, x, y: xp.mean((x - xp.mean(x)) ** 2), 8, False),
    "sqrt(sum(m * m, axis=1))": (lambda xp, m, y: xp.sqrt(xp.sum(m * m, axis=1)), 4, True),
    "softmax(m, axis=1)": (lambda xp, m, y: softmax(xp, m), 8, True),
    "log_softmax(m, axis=1)": (lambda xp, m, y: log_softmax(xp, m), 8, True),
}


def event_ms(fn, stream_handle, reps, calls=1):
    """Median milliseconds a call of fn takes among `calls` made one after
    another between two CUDA events on the stream: one call counts the
    host's work before its launch; several let it overlap the kernels
    queued before it ("queued")."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        stream = cp.cuda.ExternalStream(stream_handle)
    for _ in range(3):
        fn()
    times = []
    for _ in range(reps):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record(stream)
        for _ in range(calls):
            fn()
        end.record(stream)
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end) / calls)
    return statistics.median(times)


def queued_ms(fn, stream_handle, reps):
    """event_ms of ten calls one after another."""
    return event_ms(fn, stream_handle, reps, calls=10)


def per_call_us(fn, sync, n=3000):
    """Microseconds a call of fn takes on the host, n calls one after
    another and one synchronization (arguments of 1,000 elements)."""
    for _ in range(100):
        fn()
    sync()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    sync()
    return (time.perf_counter() - t0) / n * 1e6


def per_call_rows(rng):
    """Each expression fused and eager on 1,000 elements (the matrices 4 x
    250), beside two eager calls of exp: a fused call costs no more than
    two eager ones."""
    dev = "cuda:gpu:0"
    x = ua.asarray(rng.standard_normal(1000, dtype=np.float32), device=dev)
    y = ua.asarray(rng.standard_normal(1000, dtype=np.float32), device=dev)
    m = ua.reshape(x, (4, 250))

    def sync():
        ua.asnumpy(x[:1])

    two = 2 * per_call_us(lambda: ua.exp(x), sync)
    out = []
    print(f"per call, 1,000 float32, us (two eager calls of exp: {two:.1f})")
    for name, (f, _, matrix) in EXPRESSIONS.items():
        a = m if matrix else x
        fused = ua.fuse(lambda x, y, f=f: f(ua, x, y))
        row = {
            "expression": name,
            "fused_us": per_call_us(lambda: fused(a, y), sync),
            "eager_us": per_call_us(lambda: f(ua, a, y), sync),
            "two_eager_exp_us": two,
        }
        out.append(row)
        print(f"{name:30s} fused {row['fused_us']:.1f}  eager {row['eager_us']:.1f}", flush=True)
    return out


def variance_per_call_by_size(sizes=(1000, 4096, 16384, 32768)):
    """The fused variance (a chain over one row) and sum of squares (a row
    reduction) per call by the arguments' length, up to the longest taken
    as one row, beside two eager calls of exp of as many."""
    out = []
    rng = np.random.default_rng(1)
    fused = {
        "variance": ua.fuse(lambda x: ua.mean((x - ua.mean(x)) ** 2)),
        "sum of squares": ua.fuse(lambda x: ua.sum(x * x)),
    }
    for n in sizes:
        x = ua.asarray(rng.standard_normal(n, dtype=np.float32), device="cuda:gpu:0")

        def sync(x=x):
            ua.asnumpy(x[:1])

        two = 2 * per_call_us(lambda: ua.exp(x), sync)
        for name, f in fused.items():
            row = {
                "expression": f"{name} of {n:,}",
                "fused_us": per_call_us(lambda: f(x), sync),
                "two_eager_exp_us": two,
            }
            out.append(row)
            print(
                f"{row['expression']:30s} fused {row['fused_us']:.1f}  two exp {two:.1f}",
                flush=True,
            )
    return out


def copy_gbps(x, cx, tx, reps):
    """The device's copy bandwidth, the limits' measure: the best GB/s
    (a read and a write an element) of usmarray's, CuPy's and PyTorch's
    copies of x into an array of its own."""
    n = x.size * x.itemsize
    z, cz = ua.empty_like(x), cp.empty_like(cx)
    ours = x.__cuda_array_interface__["stream"]
    theirs = cp.cuda.get_current_stream().ptr
    best = {
        "usmarray": 2 * n / event_ms(lambda: z.__setitem__(..., x), ours, reps) / 1e6,
        "cupy": 2 * n / event_ms(lambda: cz.__setitem__(..., cx), theirs, reps) / 1e6,
    }
    if torch:
        tz = torch.empty_like(tx)
        ts = torch.cuda.current_stream().cuda_stream
        best["torch"] = 2 * n / event_ms(lambda: tz.copy_(tx), ts, reps) / 1e6
    return best


def row_norms(xp, m):
    return xp.sqrt(xp.sum(m * m, axis=1))


def softmax_by_row_length(x, args):
    """Fused softmax and row norms of x in rows of each length, beside
    PyTorch's one kernel of each (torch.softmax, torch.linalg.vector_norm)."""
    ours = x.__cuda_array_interface__["stream"]
    cases = (
        ("softmax", softmax, 8, lambda t: torch.softmax(t, dim=1)),
        ("row norms", row_norms, 4, lambda t: torch.linalg.vector_norm(t, dim=1)),
    )
    for name, fn, nbytes, peer in cases:
        fused = ua.fuse(lambda m, fn=fn: fn(ua, m))
        print(f"{name}, {args.mi} Mi float32, median of {args.reps}, ms "
              f"(GB/s of {nbytes} bytes an element)")  # fmt: skip
        for length in (int(v) for v in args.softmax_rows.split(",")):
            m = ua.reshape(x[: x.shape[0] // length * length], (-1, length))
            if fused.plan(m).kernel is None:
                print(f"rows of {length:6d}: not one kernel\n{fused.explain(m)}")
                continue
            ms = event_ms(lambda: fused(m), ours, args.reps)
            eager = event_ms(lambda: fn(ua, m), ours, args.reps)
            line = f"rows of {length:6d}: fused {ms:.3f} ({nbytes * m.size / ms / 1e6:.0f} GB/s)"
            line += f"  eager {eager:.3f}"
            if torch:
                tm = torch.as_tensor(cp.asarray(m), device="cuda")
                ts = torch.cuda.current_stream().cuda_stream
                t = event_ms(lambda: peer(tm), ts, args.reps)
                line += f"  torch {t:.3f} ({t / ms:.2f}x)"
            print(line, flush=True)


def first_call_child(lib, name):
    """In this new process: the first call of expression `name` (fused, or
    torch.compile's) and its second, each followed by a wait for the
    device, in ms, on arrays made beforehand."""
    f, _, matrix = EXPRESSIONS[name]
    rng = np.random.default_rng(0)
    host = [rng.standard_normal(1 << 20, dtype=np.float32) for _ in range(2)]
    if matrix:
        host[0] = host[0].reshape(1024, 1024)
    if lib == "usmarray one by one":
        # each kernel compiled when its step comes, as before the first
        # call compiled a call's kernels ahead, side by side
        from usmarray import _fuse_kernel

        _fuse_kernel.Stages._compile_ahead = lambda self, values: None
    if lib.startswith("usmarray"):
        x, y = (ua.asarray(h, device="cuda:gpu:0") for h in host)
        call = ua.fuse(lambda x, y: f(ua, x, y))

        def sync():
            ua.asnumpy(x[(0,) * x.ndim])
    else:
        x, y = (torch.as_tensor(h, device="cuda") for h in host)
        call = torch.compile(lambda p, q: f(torch, p, q))
        sync = torch.cuda.synchronize
    sync()
    out = {}
    for key in ("first_ms", "second_ms"):
        t = time.perf_counter()
        call(x, y)
        sync()
        out[key] = (time.perf_counter() - t) * 1e3
    print(json.dumps(out))


# The expressions of several kernels, whose first call compiles them
# ahead, side by side: timed with each compiled on its step too.
SEVERAL_KERNELS = ("mean((x - mean(x)) ** 2)",)


def run_facts():
    """The device and the day of a run, for its JSON."""
    name = "?"
    if cp is not None:
        name = cp.cuda.runtime.getDeviceProperties(0)["name"]
        name = name.decode() if isinstance(name, bytes) else name
    return {"device": name, "date": time.strftime("%Y-%m-%d")}


def first_calls(json_path, compile_too, only=None):
    """first_call_child of each expression, each library (torch.compile's
    where compile_too), in a new process on an empty cache folder of its
    own; an expression of several kernels also with each compiled when
    its step comes ("usmarray one by one")."""
    libs = ["usmarray"] + (["torch.compile"] if torch and compile_too else [])
    rows = []
    print("first calls in new processes, empty caches, 1 Mi float32, ms (first / second)")
    facts = run_facts()
    names = [n for n in EXPRESSIONS if not only or n.startswith(tuple(only.split(",")))]
    for name in names:
        row = {"expression": name}
        for lib in libs + (["usmarray one by one"] if name in SEVERAL_KERNELS else []):
            with tempfile.TemporaryDirectory(prefix="fuse_first_") as cache:
                env = dict(
                    os.environ,
                    USMARRAY_CACHE_DIR=cache,
                    CUDA_CACHE_PATH=os.path.join(cache, "nv"),
                    TORCHINDUCTOR_CACHE_DIR=os.path.join(cache, "inductor"),
                    TRITON_CACHE_DIR=os.path.join(cache, "triton"),
                )
                r = subprocess.run(
                    [sys.executable, __file__, "--first-child", lib, name],
                    env=env, capture_output=True, text=True, timeout=300,
                )  # fmt: skip
            if r.returncode != 0:
                row[lib] = {"error": (r.stderr.strip().splitlines() or ["?"])[-1]}
            else:
                row[lib] = json.loads(r.stdout.strip().splitlines()[-1])
        rows.append(row)
        cells = "  ".join(
            f"{lib} "
            + (v["error"] if "error" in v else f"{v['first_ms']:.1f} / {v['second_ms']:.2f}")
            for lib, v in row.items()
            if lib != "expression"
        )
        print(f"{name:30s} {cells}", flush=True)
        if json_path:
            with open(json_path, "w") as fh:
                json.dump({**facts, "n": 1 << 20, "rows": rows}, fh, indent=1)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--first-child":
        first_call_child(sys.argv[2], sys.argv[3])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mi", type=int, default=64)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--compile", action="store_true", help="torch.compile too")
    ap.add_argument("--json")
    ap.add_argument("--softmax-rows", help="row lengths, a comma list")
    ap.add_argument("--first-calls", action="store_true", help="first calls, empty caches")
    ap.add_argument("--per-call", action="store_true", help="the per-call rows alone")
    ap.add_argument("--only", help="--first-calls: names' beginnings, a comma list")
    args = ap.parse_args()
    if args.first_calls:
        first_calls(args.json, args.compile, args.only)
        return
    # The warm rows time the full compiles' kernels, as the peer table
    # does: a first call's fast-level kernel gives way to its full
    # compile's later (on the H100, x ** 3 and log softmax took 1.5x and
    # 2.8x as long before it), which a row's warm-up need not wait for.
    # Set before any kernel compiles, each first-call child aside.
    os.environ.setdefault("USMARRAY_COMPILE_FIRST", "full")
    if args.per_call:
        rows = per_call_rows(np.random.default_rng(0)) + variance_per_call_by_size()
        if args.json:
            with open(args.json, "w") as fh:
                json.dump({**run_facts(), "per_call": rows}, fh, indent=1)
        return
    if cp is None:
        sys.exit("CuPy times the events: install it")
    n = args.mi << 20
    rng = np.random.default_rng(0)
    x = ua.asarray(rng.standard_normal(n, dtype=np.float32), device="cuda:gpu:0")
    y = ua.asarray(rng.standard_normal(n, dtype=np.float32), device="cuda:gpu:0")
    ours = x.__cuda_array_interface__["stream"]
    cx, cy = cp.asarray(x), cp.asarray(y)
    tx = torch.as_tensor(cx, device="cuda") if torch else None
    ty = torch.as_tensor(cy, device="cuda") if torch else None
    if args.softmax_rows:
        softmax_by_row_length(x, args)
        return
    rows = []
    copies = copy_gbps(x, cx, tx, args.reps)
    bandwidth = max(copies.values())
    print("copy GB/s: " + ", ".join(f"{k} {v:.0f}" for k, v in copies.items()))
    print(f"{args.mi} Mi float32, median of {args.reps}, ms (GB/s of the fused bytes)")
    side = math.isqrt(n)
    for name, (f, per, matrix) in EXPRESSIONS.items():
        a, ca, ta = x, cx, tx
        if matrix:
            a = ua.reshape(x[: side * side], (side, side))
            ca, ta = (
                cp.asarray(a),
                (torch.as_tensor(cp.asarray(a), device="cuda") if torch else None),
            )
        fused = ua.fuse(lambda x, y, f=f: f(ua, x, y))
        assert fused.plan(a, y).kernel is not None, fused.explain(a, y)
        row = {
            "expression": name,
            "bytes_per_element": per,
            "fused": event_ms(lambda: fused(a, y), ours, args.reps),
            "fused_queued": queued_ms(lambda: fused(a, y), ours, args.reps),
            "eager": event_ms(lambda: f(ua, a, y), ours, args.reps),
            "cupy": event_ms(lambda: f(cp, ca, cy), cp.cuda.get_current_stream().ptr, args.reps),
        }
        if torch:
            ts = torch.cuda.current_stream().cuda_stream
            row["torch"] = event_ms(lambda: f(torch, ta, ty), ts, args.reps)
            if args.compile:
                # each expression compiled afresh: the one lambda's code
                # object, guarded per expression, passed dynamo's recompile
                # limit (8) at the ninth, which then ran eagerly
                torch._dynamo.reset()
                c = torch.compile(lambda p, q: f(torch, p, q))
                row["torch_compile"] = event_ms(lambda: c(ta, ty), ts, args.reps)
                row["torch_compile_queued"] = queued_ms(lambda: c(ta, ty), ts, args.reps)
        # the limit: the bytes a single pass must move at the copy's speed
        row["limit"] = per * (side * side if matrix else n) / bandwidth / 1e6
        row["of_limit"] = row["limit"] / row["fused"]
        row["queued_of_limit"] = row["limit"] / row["fused_queued"]
        rows.append(row)
        gbps = per * (side * side if matrix else n) / row["fused"] / 1e6
        others = "  ".join(f"{k} {v:.3f}" for k, v in row.items() if isinstance(v, float))
        print(f"{name:30s} {others}  fused {gbps:.0f} GB/s")
    per_call = per_call_rows(rng)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(
                {
                    **run_facts(),
                    "mi": args.mi,
                    "reps": args.reps,
                    "copy_gbps": copies,
                    "rows": rows,
                    "per_call": per_call,
                },
                fh,
                indent=1,
            )


if __name__ == "__main__":
    main()
