"""Measures shapes of the CUDA one-sweep radix sort's pass over 4-byte keys
in one GPU session: each variant sorts 16 Mi float32 in its own process
(USMARRAY_CUDA_SORT_TUNE is read once per process) beside CuPy's sort in
the same process, CUDA events after warm-up, the median of 15 calls.

  python3 benchmarks/cuda_sort_sweep.py [--json FILE] [variant ...]

A variant is "ipt,min_blocks,look,backoff" (cuda_sort.c): keys a thread
(a tile is 256 threads of them), blocks a multiprocessor the registers
are capped for, tiles a round of the look-back reads, and nanoseconds a
block sleeps before reading again counts not yet published (0: none).
benchmarks/results/cuda_sort_sweep.json is the H100's run of the pass that
ranked keys with __match_any_sync, before the ballots of its digit's bits
(benchmarks/cuda_sort_vs_cub.cu times today's pass beside CUB's)."""

import json
import os
import subprocess
import sys

VARIANTS = [
    "16,4,8,0",  # the default
    "16,4,8,50",
    "16,4,8,200",
    "16,4,8,1000",
    "12,5,8,0",
    "20,3,8,0",
    "8,6,8,0",
    "16,4,4,0",
    "16,4,16,0",
]
N = 16 << 20


def one():
    import cupy as cp
    import numpy as np
    import usmarray as ua

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gpu_busy_time  # the events' median, as its rows are timed

    q = ua.Queue("cuda:gpu:0")
    ours = gpu_busy_time.external(ua.empty(1, queue=q).__cuda_array_interface__["stream"])
    h = np.random.default_rng(5).standard_normal(N).astype(np.float32)
    x, c = ua.asarray(h, queue=q), cp.asarray(h)
    if not np.array_equal(ua.asnumpy(ua.sort(x)), np.sort(h)):
        raise SystemExit("the variant sorts wrongly")
    usm = gpu_busy_time.gpu_us(lambda: ua.sort(x), ours, False, reps=15)
    cupy = gpu_busy_time.gpu_us(lambda: cp.sort(c), cp.cuda.get_current_stream(), False, reps=15)
    print(json.dumps({"usmarray_us": usm, "cupy_us": cupy}))


def main():
    args = sys.argv[1:]
    out = None
    if args[:1] == ["--json"]:
        out, args = args[1], args[2:]
    results = {}
    print("| variant | usmarray µs | Gkeys/s | CuPy µs | vs CuPy |")
    print("| --- | --- | --- | --- | --- |")
    for v in args or VARIANTS:
        env = dict(os.environ, USMARRAY_CUDA_SORT_TUNE=v)
        r = subprocess.run([sys.executable, __file__, "--one"], env=env, capture_output=True,
                           text=True, timeout=300)  # fmt: skip
        if r.returncode != 0:
            print(f"| {v} | failed: {r.stderr.strip().splitlines()[-1:]} | | | |")
            continue
        row = json.loads(r.stdout.strip().splitlines()[-1])
        results[v] = row
        u, k = row["usmarray_us"], row["cupy_us"]
        print(f"| {v} | {u:.1f} | {N / u / 1e3:.2f} | {k:.1f} | {k / u:.3f} |", flush=True)
    if out:
        with open(out, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    one() if sys.argv[1:] == ["--one"] else main()
