"""Batches of small matrices, clip and isinf on the host, beside NumPy in one
process (issue 43).

Each row times usmarray and NumPy in alternation (so that a noisy
neighbour on a shared machine slows both alike): the best and the median
microseconds per call over the repeats, and their ratios, NumPy's time
divided by ours (above 1: usmarray is faster).  Writes the rows as JSON in
the style of benchmarks/results/host_vs_numpy.json.

    python benchmarks/host_small_linalg.py [--quick] [--json PATH]
"""

import argparse
import datetime
import json
import platform
import statistics
import timeit

import numpy as np
import usmarray as ua


def compare(ours, theirs, number, repeat):
    """Seconds per call of each, every repeat, timed in alternation."""
    times = [[], []]
    for _ in range(repeat):
        for i, fn in enumerate((ours, theirs)):
            times[i].append(timeit.timeit(fn, number=number) / number)
    return times


def matrices(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def linalg_rows(quick):
    rng = np.random.default_rng(0)
    rows = []
    cases = [(1000, 4, "float64"), (10000, 4, "float64"), (1000, 2, "float64"),
             (1000, 3, "float64"), (1000, 8, "float64"), (1000, 16, "float64"),
             (1000, 4, "float32"), (1000, 4, "complex128")]  # fmt: skip
    if quick:
        cases = cases[:1] + cases[5:6]
    for batch, n, dt in cases:
        h = matrices(rng, (batch, n, n), dt)
        a = (h + n * np.eye(n)).astype(dt)
        spd = (h @ np.conj(np.swapaxes(h, -1, -2)) + n * np.eye(n)).astype(dt)
        b = matrices(rng, (batch, n, 1), dt)
        x, xa, xs, xb = (ua.asarray(v) for v in (h, a, spd, b))
        tag = f"{batch:,} {n}x{n} {dt}"
        rows += [
            (f"det, {tag}", lambda x=x: ua.linalg.det(x), lambda h=h: np.linalg.det(h)),
            (f"slogdet, {tag}", lambda x=x: ua.linalg.slogdet(x), lambda h=h: np.linalg.slogdet(h)),
            (f"inv, {tag}", lambda x=xa: ua.linalg.inv(x), lambda h=a: np.linalg.inv(h)),
            (
                f"solve (one column), {tag}",
                lambda x=xa, y=xb: ua.linalg.solve(x, y),
                lambda h=a, g=b: np.linalg.solve(h, g),
            ),
            (
                f"cholesky, {tag}",
                lambda x=xs: ua.linalg.cholesky(x),
                lambda h=spd: np.linalg.cholesky(h),
            ),
            (f"eigh, {tag}", lambda x=xs: ua.linalg.eigh(x), lambda h=spd: np.linalg.eigh(h)),
        ]
    return rows


def elementwise_rows(quick):
    rng = np.random.default_rng(1)
    rows = []
    for dt in ("float64",) if quick else ("float64", "float32"):
        h = rng.standard_normal(1_000_000).astype(dt)
        h[::7] = np.inf
        h[::11] = np.nan
        x = ua.asarray(h)
        tag = f"1e6 {dt}"
        rows += [
            (
                f"clip(x, -1, 1), {tag}",
                lambda x=x: ua.clip(x, -1, 1),
                lambda h=h: np.clip(h, -1, 1),
            ),
            (
                f"clip(x, -1.0, 1.0), {tag}",
                lambda x=x: ua.clip(x, -1.0, 1.0),
                lambda h=h: np.clip(h, -1.0, 1.0),
            ),
            (f"isinf, {tag}", lambda x=x: ua.isinf(x), lambda h=h: np.isinf(h)),
            (f"isnan, {tag}", lambda x=x: ua.isnan(x), lambda h=h: np.isnan(h)),
            (f"isfinite, {tag}", lambda x=x: ua.isfinite(x), lambda h=h: np.isfinite(h)),
        ]
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer rows and repeats")
    parser.add_argument("--json", default=None, help="where to write the rows")
    args = parser.parse_args()
    machine = f"{ua.Device('host').name}"
    print(
        f"machine: {platform.processor() or platform.machine()}, "
        f"{machine}; numpy {np.__version__}; usmarray {ua.__version__}"
    )
    print(f"{'operation (us per call)':<44}{'usmarray':>10}{'numpy':>10}{'ratio':>7}"
          f"{'median ratio':>14}")  # fmt: skip
    repeat = 5 if args.quick else 11
    table = []
    for name, ours, theirs in linalg_rows(args.quick) + elementwise_rows(args.quick):
        # about 20 ms a repeat
        per = min(timeit.timeit(theirs, number=1), timeit.timeit(ours, number=1))
        number = max(1, min(200, int(0.02 / max(per, 1e-7))))
        a, b = compare(ours, theirs, number, repeat)
        row = {
            "operation": name,
            "unit": "us",
            "usmarray": min(a) * 1e6,
            "numpy": min(b) * 1e6,
            "ratio": min(b) / min(a),
            "usmarray_median": statistics.median(a) * 1e6,
            "numpy_median": statistics.median(b) * 1e6,
            "ratio_median": statistics.median(b) / statistics.median(a),
        }
        table.append(row)
        print(
            f"{name:<44}{row['usmarray']:>10.1f}{row['numpy']:>10.1f}"
            f"{row['ratio']:>7.2f}{row['ratio_median']:>14.2f}",
            flush=True,
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {
                    "device": machine,
                    "date": datetime.date.today().isoformat(),
                    "numpy": np.__version__,
                    "quick": args.quick,
                    "rows": table,
                },
                f,
                indent=1,
            )
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
