"""Measures shapes of the CUDA elementwise kernels' contiguous path in one
GPU session: each variant runs the elementwise rows of gpu_vs_peers.py in
its own process (USMARRAY_CUDA_EW_TUNE is read once per process), beside
the peers of the same process, and the table gives GB/s and the ratio to
the best peer per row.

  python3 benchmarks/ew_cuda_sweep.py [--json FILE] [variant ...]

A variant is "threads,unroll,blocks_per_sm" (cuda_compute.c): threads a
block, vectors of 16 bytes a thread at a time (all loads before the
stores), and the grid's cap in blocks per multiprocessor (0: one block per
chunk).  benchmarks/results/ew_cuda_sweep.json is the H100's run."""

import json
import os
import subprocess
import sys

VARIANTS = [
    "256,1,32",  # grid-stride, one vector a thread at a time
    "128,4,0",  # one chunk of 4 vectors a thread, no grid-stride
    "512,2,0",  # the default
    "256,2,0",
    "512,4,0",
]


def one():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gpu_vs_peers

    rows = [r for r in gpu_vs_peers.part_rows(gpu_vs_peers.elementwise_rows) if r["unit"] == "GB/s"]
    print(json.dumps(rows))


def main():
    args = sys.argv[1:]
    out = None
    if args[:1] == ["--json"]:
        out, args = args[1], args[2:]
    results = {}
    for v in args or VARIANTS:
        env = dict(os.environ, USMARRAY_CUDA_EW_TUNE=v)
        r = subprocess.run([sys.executable, __file__, "--one"], env=env, capture_output=True,
                           text=True, timeout=120)  # fmt: skip
        if r.returncode != 0:
            print(f"{v}: failed\n{r.stderr[-2000:]}")
            continue
        results[v] = json.loads(r.stdout.strip().splitlines()[-1])
    names = [row["operation"] for row in next(iter(results.values()), [])]
    print(f"{'variant':14s}" + "".join(f" | {n[:18]:>18s}" for n in names))
    for v, rows in results.items():
        cells = []
        for row in rows:
            best = max(x for x in (row.get("cupy"), row.get("torch")) if x) if (
                row.get("cupy") or row.get("torch")) else None  # fmt: skip
            ratio = f"{row['usmarray'] / best:.3f}x" if best else "-"
            cells.append(f"{row['usmarray']:7.0f} {ratio:>9s}")
        print(f"{v:14s}" + "".join(f" | {c:>18s}" for c in cells))
    if out:
        with open(out, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    one() if sys.argv[1:] == ["--one"] else main()
