"""Dask arrays on the distributed scheduler, usmarray chunks beside CuPy's.

For one worker and then two (each worker on its own device where the
backend has two, else both on its one device), a Dask array of float64
chunks made and kept on the workers, twice as many rows on two workers as
on one, is reduced (``sum``) and multiplied by its transpose (``d.T @ d``,
each worker's blocks multiplied where they live and the partial products
added).  The same layouts run with CuPy chunks where CuPy imports: a
cluster of plain ``distributed`` workers, one per GPU, each with its own
``CUDA_VISIBLE_DEVICES``.  Then one chunk of --transfer-mib MiB is moved
from one worker to the other, as a usmarray array (serialized by
``usmarray.distributed``), a NumPy array and, with CuPy, a CuPy array; the
time includes the scheduling of the task that asks for it (a few ms).

Times are the best of --repeats runs after one warm-up, in milliseconds.

    python benchmarks/dask_distributed.py [--backend cuda] [--size 16384]
        [--cols 2048] [--repeats 3] [--transfer-mib 1024] [--json PATH]

--size is the rows of one worker's part; the chunks are --size/2 rows.  On
the host, small sizes (--size 1024 --cols 256 --transfer-mib 16) finish
in seconds.
"""

import argparse
import datetime
import json
import os
import platform
import time

import dask.array as da
import distributed
import numpy as np
import usmarray as ua
import usmarray.distributed as uad

try:
    import cupy
except ImportError:  # the CuPy rows stay out
    cupy = None


def usmarray_cluster(backend, workers):
    """One worker per device where the backend has enough, else all on its first."""
    devices = uad.device_filter_strings(backend)
    if len(devices) < workers:
        devices = devices[:1] * workers
    slots = sorted(set(devices), key=devices.index)
    cluster = uad.LocalCluster(
        devices=slots,
        workers_per_device=workers // len(slots),
        dashboard_address=":0",
        silence_logs=40,
    )
    return cluster, devices[:workers]


def cupy_cluster(workers):
    """A plain distributed cluster, one Nanny per GPU (CUDA_VISIBLE_DEVICES),
    or all on GPU 0 where there are fewer GPUs than workers, as above."""
    gpus = [str(i) for i in range(workers)]
    if cupy.cuda.runtime.getDeviceCount() < workers:
        gpus = ["0"] * workers
    spec = {
        i: {
            "cls": distributed.Nanny,
            "options": {"nthreads": 1, "env": {"CUDA_VISIBLE_DEVICES": g}},
        }
        for i, g in enumerate(gpus)
    }
    scheduler = {"cls": distributed.Scheduler, "options": {"dashboard_address": ":0"}}
    cluster = distributed.SpecCluster(scheduler=scheduler, workers=spec, silence_logs=40)
    return cluster, [f"cuda:{g}" for g in gpus]


def make_chunk(xp, rows, cols, block_info=None):
    """A chunk of random numbers made on the worker that runs it."""
    seed = block_info[None]["chunk-location"][0] if block_info else 0
    return xp.asarray(np.random.default_rng(seed).standard_normal((rows, cols)))


def best_ms(run, repeats):
    run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times) * 1e3


def time_layout(client, xp, meta, rows, cols, repeats):
    """sum and d.T @ d of a persisted array of rows x cols."""
    chunk = max(1, rows // 4)
    blocks = (rows + chunk - 1) // chunk
    d = da.map_blocks(
        lambda block_info=None: make_chunk(xp, chunk, cols, block_info),
        chunks=((chunk,) * blocks, (cols,)),
        dtype=np.float64,
        meta=meta,
    ).persist()
    distributed.wait(d)
    holders = {w for ws in client.who_has(distributed.futures_of(d)).values() for w in ws}
    sum_ms = best_ms(lambda: float(d.sum().compute()), repeats)
    gram_ms = best_ms(lambda: (d.T @ d).compute(), repeats)
    return d.shape, len(holders), sum_ms, gram_ms


def make_on_worker(kind, nbytes):
    n = nbytes // 8
    if kind == "usmarray":
        return ua.ones(n)
    if kind == "cupy":
        return cupy.ones(n)
    return np.ones(n)


def element_count(x):
    return int(x.shape[0])


def time_transfer(client, kind, nbytes, repeats):
    """Moves a fresh chunk from the first worker to the second, repeats
    times; the best time.  Each chunk is made (untimed) before its move."""
    a, b = sorted(client.scheduler_info()["workers"])[:2]
    times = []
    for _ in range(repeats + 1):
        f = client.submit(make_on_worker, kind, nbytes, workers=[a], pure=False)
        distributed.wait(f)
        start = time.perf_counter()
        got = client.submit(
            element_count, f, workers=[b], allow_other_workers=False, pure=False
        ).result()
        times.append(time.perf_counter() - start)
        assert got == nbytes // 8
        del f
    return min(times[1:]) * 1e3


def run(args):
    rows_out, moves = [], []
    peers = [("usmarray", lambda w: usmarray_cluster(args.backend, w))]
    if cupy is not None:
        peers.append(("cupy", cupy_cluster))
    for name, start in peers:
        xp = ua if name == "usmarray" else cupy
        for workers in (1, 2):
            cluster, devices = start(workers)
            with cluster, distributed.Client(cluster) as client:
                meta = client.submit(lambda: xp.empty((0, 0)), pure=False).result()
                shape, held_by, sum_ms, gram_ms = time_layout(
                    client, xp, meta, args.size * workers, args.cols, args.repeats
                )
                rows_out.append(
                    {"chunks": name, "workers": workers, "devices": devices, "shape": list(shape),
                     "workers_holding_chunks": held_by, "sum_ms": sum_ms, "gram_ms": gram_ms}
                )  # fmt: skip
                if workers == 2:
                    nbytes = args.transfer_mib << 20
                    kinds = [name] + (["numpy"] if name == "usmarray" else [])
                    for kind in kinds:
                        ms = time_transfer(client, kind, nbytes, args.repeats)
                        moves.append({"chunk": kind, "mib": args.transfer_mib, "ms": ms,
                                      "gb_per_s": nbytes / ms / 1e6, "devices": devices})  # fmt: skip
    return rows_out, moves


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--backend", default=None, help="usmarray's backend (default: the default device's)"
    )
    p.add_argument("--size", type=int, default=16384, help="rows of one worker's part")
    p.add_argument("--cols", type=int, default=2048)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--transfer-mib", type=int, default=1024)
    p.add_argument("--json", default=None, help="also write the results here")
    args = p.parse_args()
    if min(args.size, args.cols, args.repeats, args.transfer_mib) < 1:
        p.error("--size, --cols, --repeats and --transfer-mib must be positive")
    load = os.getloadavg()
    rows, moves = run(args)
    print(
        f"{'chunks':9} {'workers':>7} {'shape':>15} {'held by':>7} {'sum ms':>9} {'T@ ms':>9}  devices"
    )
    for r in rows:
        shape = "x".join(map(str, r["shape"]))
        print(f"{r['chunks']:9} {r['workers']:>7} {shape:>15} {r['workers_holding_chunks']:>7} "
              f"{r['sum_ms']:9.2f} {r['gram_ms']:9.2f}  {','.join(r['devices'])}")  # fmt: skip
    print(f"\n{'chunk moved':11} {'MiB':>6} {'ms':>9} {'GB/s':>7}  between")
    for m in moves:
        print(
            f"{m['chunk']:11} {m['mib']:>6} {m['ms']:9.2f} {m['gb_per_s']:7.2f}  {' and '.join(m['devices'])}"
        )
    print(f"load average before {load[0]:.2f}, after {os.getloadavg()[0]:.2f}")
    if args.json:
        meta = {"date": datetime.datetime.now(datetime.UTC).isoformat(), "host": platform.node(),
                "args": vars(args), "load_before": load[0]}  # fmt: skip
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "layouts": rows, "transfers": moves}, f, indent=1)


if __name__ == "__main__":
    main()
