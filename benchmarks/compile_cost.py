"""The first call of an elementwise function in a new process on a run-time
compiled backend (CUDA, SYCL): with an empty kernel cache (it compiles) and
with a warm one (it reads the compiled kernel from disk), each in a fresh
process, beside the same call once warm in the process.

    python benchmarks/compile_cost.py [--device cuda:gpu:0] [--json PATH]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

SCRIPT = """
import sys, time
sys.path[:0] = {path!r}
try:
    import conftest  # noqa: F401  (the SYCL runtime's environment, in tests/)
except ImportError:
    pass
import numpy as np
import usmarray as ua
x = ua.asarray(np.arange(1000, dtype=np.float32), device={device!r})
ua.asnumpy(x)
t = time.perf_counter()
y = ua.exp(x) + x
ua.asnumpy(y)
first = time.perf_counter() - t
t = time.perf_counter()
y = ua.exp(x) + x
ua.asnumpy(y)
again = time.perf_counter() - t
print(first, again)
"""


def run(device, cache):
    here = os.path.dirname(os.path.abspath(__file__))
    path = [os.path.join(here, "..", "tests")] + sys.path
    env = dict(os.environ, USMARRAY_CACHE_DIR=cache)
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(path=path, device=device)],
        env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    first, again = map(float, out.stdout.split()[-2:])
    return first * 1e3, again * 1e3


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda:gpu:0")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        cold = run(args.device, cache)
        warm = run(args.device, cache)
    rows = [
        {"case": "empty cache (compiles 2 kernels)", "first_ms": cold[0], "again_ms": cold[1]},
        {"case": "warm cache (reads 2 kernels)", "first_ms": warm[0], "again_ms": warm[1]},
    ]
    print(f"device: {args.device}; exp(x) + x on 1,000 float32, first call of a fresh process")
    print("| case | first call (ms) | second call (ms) |")
    print("| --- | --- | --- |")
    for r in rows:
        print(f"| {r['case']} | {r['first_ms']:.1f} | {r['again_ms']:.3f} |")
    out = args.json or os.path.join(os.environ.get("OUT", "."), "compile_cost.json")
    with open(out, "w") as f:
        json.dump({"device": args.device, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
