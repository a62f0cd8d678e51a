"""usmarray.linalg and usmarray.fft against CuPy (cupy.linalg, cupy.fft) and
PyTorch (torch.linalg, torch.fft) on one GPU, in one run: dense
factorizations of 4096 x 4096 float32 matrices through cuSOLVER, 1,024
inverses of 8 x 8 matrices (the batched routines), and cuFFT transforms.

Each row is the median time of one call in milliseconds, between CUDA
events recorded on the stream each library runs on, after a warm-up
(gpu_vs_peers.py's helpers: CuPy's events, or PyTorch's without CuPy).
Every library computes the same thing from the same well-conditioned
inputs; the factorizations wait for their status codes as each library
does by default.  "vs best peer" is the best peer's time over ours (above 1:
usmarray is faster; the target is 0.95).  Prints a table and writes JSON
like gpu_vs_peers.py's.

    python benchmarks/gpu_linalg_fft.py [--json PATH] [--rows solve,svd,...]
"""

import argparse
import datetime
import json
import os
import statistics
import sys
import time

import numpy as np

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

GPU = "cuda:gpu:0"
N = 4096
TARGET = ">= 0.95x best peer"
ROWS = ("solve", "cholesky", "qr", "svd", "inv", "fft", "rfftn")


def event_ms(fn, stream_handle, reps):
    """Median milliseconds of fn between CUDA events on the given stream."""
    import gpu_vs_peers as g

    if g.cp is not None:
        # event_gbps counts nbytes per median second: 1e9 bytes make it calls/s
        return 1e3 / g.event_gbps(fn, stream_handle, 1e9, reps)
    if g.torch is not None:
        torch = g.torch
        stream = torch.cuda.ExternalStream(stream_handle or 0)
        for _ in range(3):
            fn()
        times = []
        for _ in range(reps):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record(stream)
            fn()
            end.record(stream)
            end.synchronize()
            times.append(start.elapsed_time(end))
        return statistics.median(times)
    return None


def wall_ms(fn, sync, reps):
    """Without a peer to make events: wall time, synchronized."""
    fn()
    sync()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        sync()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def inputs(rng):
    """Host inputs of every row, float32 (complex64 for fft)."""
    a = rng.standard_normal((N, N), dtype=np.float32)
    general = a + np.float32(N) * np.eye(N, dtype=np.float32)
    x = rng.standard_normal((N, N), dtype=np.float32) / np.float32(np.sqrt(N))
    spd = x @ x.T + np.eye(N, dtype=np.float32)
    small = rng.standard_normal((1024, 8, 8), dtype=np.float32) + 8 * np.eye(8, dtype=np.float32)
    signal = (
        rng.standard_normal(1 << 24, dtype=np.float32)
        + 1j * rng.standard_normal(1 << 24, dtype=np.float32)
    ).astype(np.complex64)
    cube = rng.standard_normal((512, 512, 512), dtype=np.float32)
    return {
        "solve": (general, rng.standard_normal(N, dtype=np.float32)),
        "cholesky": (spd,),
        "qr": (a,),
        "svd": (a,),
        "inv": (small,),
        "fft": (signal,),
        "rfftn": (cube,),
    }


def calls(name, ua, cp, torch):
    """The operation of a row in each library's own words."""
    ours = {
        "solve": lambda a, b: ua.linalg.solve(a, b),
        "cholesky": lambda a: ua.linalg.cholesky(a),
        "qr": lambda a: ua.linalg.qr(a),
        "svd": lambda a: ua.linalg.svd(a),
        "inv": lambda a: ua.linalg.inv(a),
        "fft": lambda x: ua.fft.fft(x),
        "rfftn": lambda x: ua.fft.rfftn(x),
    }[name]
    cupy = None
    if cp is not None:
        cupy = {
            "solve": lambda a, b: cp.linalg.solve(a, b),
            "cholesky": lambda a: cp.linalg.cholesky(a),
            "qr": lambda a: cp.linalg.qr(a),
            "svd": lambda a: cp.linalg.svd(a),
            "inv": lambda a: cp.linalg.inv(a),
            "fft": lambda x: cp.fft.fft(x),
            "rfftn": lambda x: cp.fft.rfftn(x),
        }[name]
    tch = None
    if torch is not None:
        tch = {
            "solve": lambda a, b: torch.linalg.solve(a, b),
            "cholesky": lambda a: torch.linalg.cholesky(a),
            "qr": lambda a: torch.linalg.qr(a),
            "svd": lambda a: torch.linalg.svd(a),
            "inv": lambda a: torch.linalg.inv(a),
            "fft": lambda x: torch.fft.fft(x),
            "rfftn": lambda x: torch.fft.rfftn(x),
        }[name]
    return ours, cupy, tch


LABELS = {
    "solve": f"solve, {N}^2 float32, one right-hand side",
    "cholesky": f"cholesky, {N}^2 float32",
    "qr": f"qr (reduced), {N}^2 float32",
    "svd": f"svd (full_matrices), {N}^2 float32",
    "inv": "inv, 1,024 x 8^2 float32",
    "fft": "fft, 2^24 complex64",
    "rfftn": "rfftn, 512^3 float32",
}


def measure(label, fn, stream, args, reps, notes):
    """fn's time, or None with the reason kept in notes."""
    if fn is None:
        notes[label] = "absent"
        return None
    try:
        return event_ms(lambda: fn(*args), stream, reps)
    except Exception as e:  # a row reports, the run goes on
        notes[label] = f"{type(e).__name__}: {e}"[:200]
        return None


def rows(selected, reps_slow):
    import gpu_vs_peers as g
    import usmarray as ua

    cp, torch = g.cp, g.torch
    q = ua.Queue(GPU)
    # the queue's stream; 1, the legacy default stream, where no work is pending
    ours_stream = ua.zeros(1, queue=q).__cuda_array_interface__["stream"] or 1
    cupy_stream = cp.cuda.get_current_stream().ptr if cp is not None else None
    torch_stream = torch.cuda.current_stream().cuda_stream if torch is not None else None
    if torch is not None:
        torch.backends.cuda.matmul.allow_tf32 = False
    host = inputs(np.random.default_rng(0))
    out = []
    for name in selected:
        args = host[name]
        ours, cupy, tch = calls(name, ua, cp, torch)
        reps = reps_slow if name == "svd" else 10
        notes = {}
        mine = [ua.asarray(x, queue=q) for x in args]
        row = {"operation": LABELS[name], "unit": "ms", "target": TARGET}
        if cp is None and torch is None:
            row["usmarray"] = wall_ms(lambda: ours(*mine), q.wait, reps)
            notes["timing"] = "wall clock: no peer to make CUDA events"
        else:
            row["usmarray"] = measure("usmarray", ours, ours_stream, mine, reps, notes)
        mine = None  # the device's memory for the peers
        if cp is not None:
            theirs = [cp.asarray(x) for x in args]
            row["cupy"] = measure("cupy", cupy, cupy_stream, theirs, reps, notes)
            theirs = None
            cp.get_default_memory_pool().free_all_blocks()
        else:
            row["cupy"] = None
            notes["cupy"] = "absent"
        if torch is not None:
            theirs = [torch.as_tensor(x, device="cuda") for x in args]
            row["torch"] = measure("torch", tch, torch_stream, theirs, reps, notes)
            theirs = None
            torch.cuda.empty_cache()
        else:
            row["torch"] = None
            notes["torch"] = "absent"
        if notes:
            row["notes"] = notes
        out.append(row)
    return out


def ratio(ours, theirs):
    """Above 1: usmarray takes less time."""
    return None if ours is None or theirs is None else theirs / ours


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", default=None, help="where to write the rows")
    parser.add_argument(
        "--rows", default=",".join(ROWS), help=f"a comma-separated subset of {','.join(ROWS)}"
    )
    parser.add_argument(
        "--svd-reps", type=int, default=3, help="timed calls of the svd row (each takes seconds)"
    )
    args = parser.parse_args()
    selected = [r for r in args.rows.split(",") if r]
    unknown = sorted(set(selected) - set(ROWS))
    if unknown:
        parser.error(f"unknown rows {unknown}: choose among {', '.join(ROWS)}")

    import gpu_vs_peers as g
    import usmarray as ua

    if not any(d.backend == "cuda" for d in ua.get_devices()):
        print("no CUDA device: nothing to measure")
        return 0
    table = rows(selected, args.svd_reps)
    for r in table:
        peers = [r[p] for p in ("cupy", "torch") if r.get(p) is not None]
        r["ratio_vs_cupy"] = ratio(r["usmarray"], r["cupy"])
        r["ratio_vs_torch"] = ratio(r["usmarray"], r["torch"])
        r["ratio_vs_best_peer"] = ratio(r["usmarray"], min(peers)) if peers else None

    def fmt(r, key):
        """A number, or why there is none."""
        v = r.get(key)
        if v is not None:
            return f"{v:.3f}"
        return r.get("notes", {}).get(key, "")

    print(f"device: {ua.Device(GPU).name}; libraries: {ua.Device(GPU).libraries}")
    print(
        "| operation | unit | usmarray | CuPy | PyTorch | vs CuPy | vs PyTorch | vs best peer | target |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in table:
        print(
            f"| {r['operation']} | {r['unit']} | {fmt(r, 'usmarray')} | {fmt(r, 'cupy')} | "
            f"{fmt(r, 'torch')} | {fmt(r, 'ratio_vs_cupy')} | {fmt(r, 'ratio_vs_torch')} | "
            f"{fmt(r, 'ratio_vs_best_peer')} | {r['target']} |"
        )
    out = args.json or os.path.join(os.environ.get("OUT", "."), "gpu_linalg_fft.json")
    with open(out, "w") as f:
        json.dump(
            {
                "device": ua.Device(GPU).name,
                "libraries": ua.Device(GPU).libraries,
                "date": datetime.date.today().isoformat(),
                "peers": g.peer_versions(),
                "rows": table,
            },
            f,
            indent=1,
        )
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
