"""The strided reductions' split (ua_red_lanes: a thread per output, runs
split into pieces until LANE_BYTES are in flight) swept on a CUDA device:
each USMARRAY_GPU_LANE_BYTES value in a process of its own, timed with
CUDA events after a warm-up, beside PyTorch's sum of the same matrix.

    python benchmarks/lanes_sweep.py [--mib 8 16 32 64] [--rows 8192 --cols 8192]
"""

import argparse
import json
import os
import subprocess
import sys

CHILD = """
import json, statistics, sys
import numpy as np
import usmarray as ua
import torch
rows, cols = {rows}, {cols}
q = ua.Queue("cuda:gpu:0")
m = np.random.default_rng(0).random((rows, cols), dtype=np.float32)
M = ua.asarray(m, queue=q)
T = torch.as_tensor(m, device="cuda")
# The interface's 1 and 2 name the legacy and the per-thread default
# streams, which ExternalStream does not take: torch's default stream is the
# legacy one.
handle = M.__cuda_array_interface__["stream"]
ours = torch.cuda.ExternalStream(handle) if handle not in (None, 0, 1, 2) else torch.cuda.default_stream()

def gbps(fn, stream):
    for _ in range(3):
        fn()
    times = []
    for _ in range(10):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(stream); fn(); b.record(stream); b.synchronize()
        times.append(a.elapsed_time(b) / 1e3)
    return m.nbytes / statistics.median(times) / 1e9

def gbps_back_to_back(fn, stream, calls=20):
    # 20 calls between two events: the GPU's time alone, without the wait
    # for a single call's first launch
    for _ in range(3):
        fn()
    times = []
    for _ in range(5):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(stream)
        for _ in range(calls):
            fn()
        b.record(stream); b.synchronize()
        times.append(a.elapsed_time(b) / 1e3 / calls)
    return m.nbytes / statistics.median(times) / 1e9

out = {{}}
for axis in (0, 1):
    out[f"usmarray axis={{axis}}"] = gbps(lambda: ua.sum(M, axis=axis), ours)
    out[f"torch axis={{axis}}"] = gbps(lambda: torch.sum(T, dim=axis), torch.cuda.current_stream())
    out[f"usmarray axis={{axis}} x20"] = gbps_back_to_back(lambda: ua.sum(M, axis=axis), ours)
    out[f"torch axis={{axis}} x20"] = gbps_back_to_back(
        lambda: torch.sum(T, dim=axis), torch.cuda.current_stream())
got = ua.asnumpy(ua.sum(M, axis=0))
out["max rel err"] = float(np.max(np.abs(got - m.sum(axis=0, dtype=np.float64)) / m.sum(axis=0)))
print(json.dumps(out))
"""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mib", type=int, nargs="+", default=[8, 16, 32, 64, 128])
    p.add_argument("--rows", type=int, default=8192)
    p.add_argument("--cols", type=int, default=8192)
    p.add_argument("--json")
    a = p.parse_args()
    results = {}
    for mib in a.mib:
        env = dict(
            os.environ, USMARRAY_GPU_LANE_BYTES=str(mib << 20), USMARRAY_COMPILE_FIRST="full"
        )
        run = subprocess.run(
            [sys.executable, "-c", CHILD.format(rows=a.rows, cols=a.cols)],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if run.returncode != 0:
            print(f"{mib} MiB: failed: {run.stderr[-800:]}")
            continue
        r = json.loads(run.stdout.strip().splitlines()[-1])
        results[mib] = r
        print(f"LANE_BYTES {mib:4d} MiB: " + ", ".join(f"{k} {v:.4g}" for k, v in r.items()))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0 if results else 1


if __name__ == "__main__":
    sys.exit(main())
