"""The first call of common operations in a new process, on the GPU:
usmarray beside CuPy and PyTorch, each case in its own new process, with
an empty kernel cache (a fresh temporary folder as USMARRAY_CACHE_DIR and
CUPY_CACHE_DIR) and with a warm one (a second process on the same
folder).  The CUDA context's creation and cuBLAS's loading have rows of
their own; every call is followed by a synchronization.  A row's
"second" is the same call again in the same process: the warm speed.

  python benchmarks/first_call.py [--json out.json] [--libs usmarray,cupy,torch]
  USMARRAY_TRACE_COMPILE=1 ... also prints each program's compile time.
  python benchmarks/first_call.py --phases
      where a warm-cache first elementwise call spends its time: an
      allocation, x + y, x + y again, x * y and exp(x) (new kernels), each
      timed in a new process on a warm cache, with the driver's lazy module
      loading and with CUDA_MODULE_LOADING=EAGER: each step's call, then its
      wait for the device.
  python benchmarks/first_call.py --sycl [--json out.json] [--libs usmarray-sycl,dpnp]
      the same on the SYCL OpenCL CPU device (opencl:cpu) beside dpnp, for
      the calls a SYCL user meets first: exp(x) + x, sin(x) * y, integer
      x + 1, sum, sort, x[mask] and x @ y.
  python benchmarks/first_call.py --sequence
      every case's first call one after another in one new process on an
      empty cache, as a script meets them: NVRTC's start is paid once.
  python benchmarks/first_call.py --ahead [--json out.json]
      python -m usmarray --compile-kernels on an empty cache folder (its
      wall time), then each case's first call in a new process on it.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

N = 1 << 20
CASES = [
    "add_f32",
    "mul_scalar_i64",
    "exp",
    "sum",
    "mean_f64",
    "argmax",
    "cumulative_sum",
    "sort",
    "argsort",
    "mask",
    "take",
    "where",
    "unique_values",
    "matmul",
]
SYCL_CASES = ["exp_add", "sin_mul", "add_i32", "sum", "sort", "mask", "matmul"]
LABELS = {
    "exp_add": "exp(x) + x",
    "sin_mul": "sin(x) * y",
    "add_i32": "x + 1 (int32)",
    "add_f32": "x + y (float32)",
    "mul_scalar_i64": "x * 3 (int64)",
    "exp": "exp(x)",
    "sum": "sum(x)",
    "mean_f64": "mean(x) (float64)",
    "argmax": "argmax(x)",
    "cumulative_sum": "cumulative_sum(x)",
    "sort": "sort(x)",
    "argsort": "argsort(x)",
    "mask": "x[mask]",
    "take": "take(x, i)",
    "where": "where(m, x, y)",
    "unique_values": "unique_values(x)",
    "matmul": "matmul 64x64",
}


def host_inputs():
    import numpy as np

    rng = np.random.default_rng(0)
    x = rng.standard_normal(N).astype(np.float32) * 4
    return {
        "x": x,
        "y": rng.standard_normal(N).astype(np.float32),
        "x64": x.astype(np.float64),
        "i64": rng.integers(-1000, 1000, N, dtype=np.int64),
        "mask": x > 5,
        "idx": rng.integers(0, N, N // 4, dtype=np.int64),
        "small": rng.integers(0, 1000, N, dtype=np.int32),
        "i32": rng.integers(-1000, 1000, N, dtype=np.int32),
        "a": rng.standard_normal((64, 64)).astype(np.float32),
        "b": rng.standard_normal((64, 64)).astype(np.float32),
        "t8": rng.standard_normal((8, 8)).astype(np.float32),
        "t256": rng.standard_normal((256, 256)).astype(np.float32),
    }


def usmarray_lib():
    import usmarray as ua

    q = ua.Queue("cuda:gpu:0")

    def up(a):
        return ua.asarray(a, queue=q)

    ops = {
        "add_f32": lambda d: d["x"] + d["y"],
        "mul_scalar_i64": lambda d: d["i64"] * 3,
        "exp": lambda d: ua.exp(d["x"]),
        "sum": lambda d: ua.sum(d["x"]),
        "mean_f64": lambda d: ua.mean(d["x64"]),
        "argmax": lambda d: ua.argmax(d["x"]),
        "cumulative_sum": lambda d: ua.cumulative_sum(d["x"]),
        "sort": lambda d: ua.sort(d["x"]),
        "argsort": lambda d: ua.argsort(d["x"]),
        "mask": lambda d: d["x"][d["mask"]],
        "take": lambda d: ua.take(d["x"], d["idx"]),
        "where": lambda d: ua.where(d["mask"], d["x"], d["y"]),
        "unique_values": lambda d: ua.unique_values(d["small"]),
        "matmul": lambda d: ua.matmul(d["a"], d["b"]),
        # its products of up to 128**3 multiply-adds take its own kernel
        "cublas": lambda d: ua.matmul(d["t256"], d["t256"]),
    }
    return up, q.wait, ops


def cupy_lib():
    import cupy as cp

    ops = {
        "add_f32": lambda d: d["x"] + d["y"],
        "mul_scalar_i64": lambda d: d["i64"] * 3,
        "exp": lambda d: cp.exp(d["x"]),
        "sum": lambda d: cp.sum(d["x"]),
        "mean_f64": lambda d: cp.mean(d["x64"]),
        "argmax": lambda d: cp.argmax(d["x"]),
        "cumulative_sum": lambda d: cp.cumsum(d["x"]),
        "sort": lambda d: cp.sort(d["x"]),
        "argsort": lambda d: cp.argsort(d["x"]),
        "mask": lambda d: d["x"][d["mask"]],
        "take": lambda d: cp.take(d["x"], d["idx"]),
        "where": lambda d: cp.where(d["mask"], d["x"], d["y"]),
        "unique_values": lambda d: cp.unique(d["small"]),
        "matmul": lambda d: d["a"] @ d["b"],
        "cublas": lambda d: d["t8"] @ d["t8"],
    }
    return cp.asarray, cp.cuda.Device().synchronize, ops


def torch_lib():
    import torch

    ops = {
        "add_f32": lambda d: d["x"] + d["y"],
        "mul_scalar_i64": lambda d: d["i64"] * 3,
        "exp": lambda d: torch.exp(d["x"]),
        "sum": lambda d: torch.sum(d["x"]),
        "mean_f64": lambda d: torch.mean(d["x64"]),
        "argmax": lambda d: torch.argmax(d["x"]),
        "cumulative_sum": lambda d: torch.cumsum(d["x"], 0),
        "sort": lambda d: torch.sort(d["x"]).values,
        "argsort": lambda d: torch.argsort(d["x"]),
        "mask": lambda d: d["x"][d["mask"]],
        "take": lambda d: torch.take(d["x"], d["idx"]),
        "where": lambda d: torch.where(d["mask"], d["x"], d["y"]),
        "unique_values": lambda d: torch.unique(d["small"]),
        "matmul": lambda d: d["a"] @ d["b"],
        "cublas": lambda d: d["t8"] @ d["t8"],
    }
    return (lambda a: torch.as_tensor(a, device="cuda")), torch.cuda.synchronize, ops


def sycl_ops(ns):
    """The SYCL cases, through a namespace (usmarray's or dpnp's)."""
    return {
        "exp_add": lambda d: ns.exp(d["x"]) + d["x"],
        "sin_mul": lambda d: ns.sin(d["x"]) * d["y"],
        "add_i32": lambda d: d["i32"] + 1,
        "sum": lambda d: ns.sum(d["x"]),
        "sort": lambda d: ns.sort(d["x"]),
        "mask": lambda d: d["x"][d["mask"]],
        "matmul": lambda d: d["a"] @ d["b"],
        "cublas": lambda d: d["t8"] @ d["t8"],
    }


def usmarray_sycl_lib():
    import usmarray as ua

    q = ua.Queue("opencl:cpu")
    return (lambda a: ua.asarray(a, queue=q)), q.wait, sycl_ops(ua)


def dpnp_lib():
    # The OpenCL CPU runtime that dpctl's wheels install, named for the
    # ICD loader as the tests' conftest does (usmarray names it itself).
    runtime = os.path.join(sys.prefix, "lib", "libintelocl.so")
    if os.path.exists(runtime):
        os.environ.setdefault("OCL_ICD_FILENAMES", runtime)
    import dpctl
    import dpnp

    q = dpctl.SyclQueue("opencl:cpu")
    return (lambda a: dpnp.asarray(a, sycl_queue=q)), q.wait, sycl_ops(dpnp)


LIBS = {
    "usmarray": usmarray_lib,
    "cupy": cupy_lib,
    "torch": torch_lib,
    "usmarray-sycl": usmarray_sycl_lib,
    "dpnp": dpnp_lib,
}


def child(lib, case):
    """Times, in this new process: the library's import, the context (the
    first array on the device), the case's first call and its second."""
    t = time.perf_counter()
    up, sync, ops = LIBS[lib]()
    out = {"import_ms": (time.perf_counter() - t) * 1e3}
    host = host_inputs()
    t = time.perf_counter()
    first = up(host["t8"])
    sync()
    out["context_ms"] = (time.perf_counter() - t) * 1e3
    del first
    d = {k: up(v) for k, v in host.items()}
    sync()
    if case == "matmul":
        # cuBLAS's loading on a row of its own, before the timed product.
        t = time.perf_counter()
        ops["cublas"](d)
        sync()
        out["cublas_ms"] = (time.perf_counter() - t) * 1e3
    for key in ("first_ms", "second_ms"):
        t = time.perf_counter()
        ops[case](d)
        sync()
        out[key] = (time.perf_counter() - t) * 1e3
    print(json.dumps(out))


def sequence_child():
    up, sync, ops = LIBS["usmarray"]()
    host = host_inputs()
    d = {k: up(v) for k, v in host.items()}
    sync()
    out = {}
    for case in CASES:
        t = time.perf_counter()
        ops[case](d)
        sync()
        out[case] = round((time.perf_counter() - t) * 1e3, 1)
    print(json.dumps(out))


def sequence():
    with tempfile.TemporaryDirectory(prefix="first_call_sequence_") as cache:
        env = dict(os.environ, USMARRAY_CACHE_DIR=cache, CUDA_CACHE_PATH=os.path.join(cache, "nv"))
        r = subprocess.run([sys.executable, __file__, "--sequence-child"], env=env,
                           capture_output=True, text=True, timeout=600)  # fmt: skip
        sys.stderr.write(r.stderr)
        if r.returncode != 0:
            print(f"failed: {r.stderr.strip()[-300:]}")
            return
        rows = json.loads(r.stdout.strip().splitlines()[-1])
    print("First calls one after another in one process, empty cache (ms):")
    for case, ms in rows.items():
        print(f"  {LABELS[case]:20s} {ms:8.1f}")
    print(f"  {'sum':20s} {sum(rows.values()):8.1f}")


def phases_child():
    import numpy as np
    import usmarray as ua

    q = ua.Queue("cuda:gpu:0")
    x = ua.asarray(np.ones(N, np.float32), queue=q)
    y = ua.asarray(np.ones(N, np.float32), queue=q)
    q.wait()
    held = {}
    steps = [
        ("empty(N) float32", lambda: ua.empty(N, dtype=ua.float32, device=x.device)),
        ("empty(N) again", lambda: ua.empty(N, dtype=ua.float32, device=x.device)),
        ("x + y", lambda: x + y),
        ("x + y again", lambda: x + y),
        ("x * y", lambda: x * y),
        ("exp(x)", lambda: ua.exp(x)),
        ("exp(x) again", lambda: ua.exp(x)),
        ("mask = x > 0", lambda: held.update(mask=x > 0)),
    ]
    # The calls whose warm-cache first call took 7-15 ms more than their
    # second: their programs, temporaries and read-backs, twice each.
    for name, f in (
        ("sum(x)", lambda: ua.sum(x)),
        ("argmax(x)", lambda: ua.argmax(x)),
        ("cumulative_sum(x)", lambda: ua.cumulative_sum(x)),
        ("sort(x)", lambda: ua.sort(x)),
        ("x[mask]", lambda: x[held["mask"]]),
        ("unique_values(x)", lambda: ua.unique_values(x)),
    ):
        steps += [(name, f), (f"{name} again", f)]
    out = {}
    for name, f in steps:
        t = time.perf_counter()
        f()
        t1 = time.perf_counter()
        q.wait()
        # the call's own time, then the wait for its work
        out[name] = [round((t1 - t) * 1e3, 2), round((time.perf_counter() - t1) * 1e3, 2)]
    print(json.dumps(out))


def phases():
    """The warm-cache first elementwise call, step by step."""
    with tempfile.TemporaryDirectory(prefix="first_call_phases_") as cache:
        env = dict(os.environ, USMARRAY_CACHE_DIR=cache, CUDA_CACHE_PATH=os.path.join(cache, "nv"))
        cmd = [sys.executable, __file__, "--phases-child"]
        for label, extra in (("fill the cache", {}), ("lazy loading", {}),
                             ("eager loading", {"CUDA_MODULE_LOADING": "EAGER"})):  # fmt: skip
            r = subprocess.run(cmd, env=dict(env, **extra), capture_output=True, text=True)
            sys.stderr.write(r.stderr)
            print(f"{label}: {r.stdout.strip() or r.stderr.strip()[-300:]}")


def run_child(lib, case, cache_dir):
    # The driver's own cache of compiled code in the fresh folder too.
    env = dict(
        os.environ,
        USMARRAY_CACHE_DIR=cache_dir,
        CUPY_CACHE_DIR=cache_dir,
        CUDA_CACHE_PATH=os.path.join(cache_dir, "nv"),
    )
    r = subprocess.run(
        [sys.executable, __file__, "--child", lib, case],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if r.returncode != 0:
        return {"error": (r.stderr.strip().splitlines() or ["?"])[-1]}
    sys.stderr.write(r.stderr)
    return json.loads(r.stdout.strip().splitlines()[-1])


def measure(libs, cases):
    """Per library and case: a process on an empty cache folder, then one
    on the folder it filled (PyTorch keeps no kernel cache: once)."""
    results = {}
    for lib in libs:
        results[lib] = {}
        for case in cases:
            with tempfile.TemporaryDirectory(prefix=f"first_call_{lib}_") as cache:
                row = {"empty": run_child(lib, case, cache)}
                if lib != "torch":
                    row["warm"] = run_child(lib, case, cache)
            results[lib][case] = row
            e = row["empty"]
            print(
                f"  {lib:9s} {case:15s} "
                + (e["error"] if "error" in e else f"{e['first_ms']:8.1f} ms"),
                file=sys.stderr,
                flush=True,
            )
    return results


def cell(r, state, key):
    v = r.get(state, r.get("empty", {}))
    return "error" if "error" in v else f"{v[key]:.1f}"


def table(results, libs, cases):
    head = ["call"]
    for lib in libs:
        head += [f"{lib} empty", f"{lib} warm", f"{lib} 2nd"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def median_of(lib, key):
        vals = [
            r[s][key]
            for r in results[lib].values()
            for s in ("empty", "warm")
            if s in r and key in r[s]
        ]
        return f"{statistics.median(vals):.1f}" if vals else "-"

    for key, label in (("import_ms", "import (median)"), ("context_ms", "context (median)")):
        row = [label]
        for lib in libs:
            row += [median_of(lib, key), "", ""]
        lines.append("| " + " | ".join(row) + " |")
    row = ["BLAS load (first BLAS product: 8x8, usmarray 256x256)"]
    for lib in libs:
        r = results[lib]["matmul"]
        row += [cell(r, "empty", "cublas_ms"), cell(r, "warm", "cublas_ms"), ""]
    lines.append("| " + " | ".join(row) + " |")
    sums = {lib: [0.0, 0.0] for lib in libs}
    for case in cases:
        row = [LABELS[case]]
        for lib in libs:
            r = results[lib][case]
            row += [cell(r, "empty", "first_ms"), cell(r, "warm", "first_ms")]
            row.append(cell(r, "empty", "second_ms"))
            for i, s in enumerate(("empty", "warm")):
                v = r.get(s, r.get("empty"))
                sums[lib][i] += v.get("first_ms", 0.0)
        lines.append("| " + " | ".join(row) + " |")
    row = ["sum of first calls"]
    for lib in libs:
        row += [f"{sums[lib][0]:.1f}", f"{sums[lib][1]:.1f}", ""]
    lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def ahead(json_path=None):
    """The cache filled ahead by --compile-kernels, then the first calls."""
    with tempfile.TemporaryDirectory(prefix="first_call_ahead_") as cache:
        env = dict(os.environ, USMARRAY_CACHE_DIR=cache)
        t0 = time.perf_counter()
        r = subprocess.run(
            [sys.executable, "-m", "usmarray", "--compile-kernels"],
            env=env, capture_output=True, text=True, timeout=900,
        )  # fmt: skip
        fill_s = time.perf_counter() - t0
        print(r.stdout, file=sys.stderr)
        rows = {case: run_child("usmarray", case, cache) for case in CASES}
    lines = [f"python -m usmarray --compile-kernels: {fill_s:.1f} s (exit {r.returncode})",
             "", "| call | first call after it (ms) | second (ms) |", "|---|---|---|"]  # fmt: skip
    total = 0.0
    for case in CASES:
        e = rows[case]
        if "error" in e:
            lines.append(f"| {LABELS[case]} | {e['error']} | |")
            continue
        total += e["first_ms"]
        lines.append(f"| {LABELS[case]} | {e['first_ms']:.1f} | {e['second_ms']:.1f} |")
    lines.append(f"| sum of first calls | {total:.1f} | |")
    print("\n".join(lines))
    if json_path:
        with open(json_path, "w") as f:
            json.dump({"fill_s": fill_s, "exit": r.returncode, "rows": rows}, f, indent=1)


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--ahead":
        ahead(sys.argv[3] if len(sys.argv) == 4 and sys.argv[2] == "--json" else None)
        return
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
        return
    if sys.argv[1:] == ["--phases-child"]:
        phases_child()
        return
    if sys.argv[1:] in (["--sequence"], ["--sequence-child"]):
        sequence_child() if sys.argv[1] == "--sequence-child" else sequence()
        return
    if sys.argv[1:] == ["--phases"]:
        phases()
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--sycl", action="store_true", help="opencl:cpu beside dpnp")
    ap.add_argument("--libs", default=None)
    args = ap.parse_args()
    default = "usmarray-sycl,dpnp" if args.sycl else "usmarray,cupy,torch"
    cases = SYCL_CASES if args.sycl else CASES
    libs = []
    for lib in (args.libs or default).split(","):
        try:
            __import__(lib.split("-")[0])
            libs.append(lib)
        except ImportError:
            print(f"{lib} is not installed: left out", file=sys.stderr)
    results = measure(libs, cases)
    print(f"First calls in new processes, ms (n = {N}; empty and warm kernel cache):")
    print(table(results, libs, cases))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"n": N, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
