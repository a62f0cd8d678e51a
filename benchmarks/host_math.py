#!/usr/bin/env python3
"""Every elementwise function of the catalogue that takes floating
operands, in float32 and float64, on the host beside NumPy in one process
(or with --dtype complex64 --dtype complex128, every one that takes complex
operands: real and imag aside, which NumPy answers with views of the
parts and usmarray with new arrays).

The functions are read from src/core/compute/elementwise_catalogue.h (every
entry whose kinds admit floats; the bitwise and integral ones do not), so a
new entry joins the sweep without a change here.  Each row times --n
elements (1e6), usmarray and NumPy in turn, --rounds times; a run is one
sweep over every function and dtype, and --runs sweeps follow each other, so
that a neighbour's load on a shared machine falls on different rows in each.
The ratio is NumPy's best time over usmarray's (above 1: usmarray faster);
the JSON keeps each run's best and median times and the table
(tools/perf_tables.py, block ``perf-host-math``) shows the median over runs
of the best-of ratio and the runs' range.

  PYTHONPATH=... python benchmarks/host_math.py [--runs 3] [--rounds 7]
      [--json benchmarks/results/host_math.json] [--dtype float64] [name ...]
"""

import argparse
import datetime
import json
import pathlib
import platform
import re
import statistics
import time

import numpy as np
import usmarray as ua

ROOT = pathlib.Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "src" / "core" / "compute" / "elementwise_catalogue.h"
FLOAT_KINDS = ("UA_EW_ANY", "UA_EW_NUMERIC", "UA_EW_REAL", "UA_EW_REAL_B")
COMPLEX_KINDS = ("UA_EW_ANY", "UA_EW_NUMERIC")
# NumPy's real and imag of a complex array are views of its parts.
VIEWS_IN_NUMPY = ("real", "imag")


def catalogue(complex_operands=False):
    """(name, arity) of every entry whose operands may be floats (or
    complex numbers)."""
    text = CATALOGUE.read_text()
    found = re.findall(r"X\((\w+),\s*(\d),\s*(\w+),", text)
    if complex_operands:
        return [
            (name, int(arity))
            for name, arity, kinds in found
            if kinds in COMPLEX_KINDS and name not in VIEWS_IN_NUMPY
        ]
    return [(name, int(arity)) for name, arity, kinds in found if kinds in FLOAT_KINDS]


def operands(name, arity, n, dtype, rng):
    """Inputs in each function's usual range (its domain where it has one)."""

    def u(lo, hi):
        return rng.uniform(lo, hi, n).astype(dtype)

    def normal(scale=3.0):
        if np.dtype(dtype).kind == "c":
            return (rng.standard_normal(n) * scale + 1j * rng.standard_normal(n)).astype(dtype)
        return (rng.standard_normal(n) * scale).astype(dtype)

    if np.dtype(dtype).kind == "c":  # no domains to keep to
        if name == "where":
            return [rng.random(n) < 0.5, normal(), normal()]
        return [normal() for _ in range(arity)]

    if name in ("asin", "acos", "atanh"):
        return [u(-1, 1)]
    if name == "acosh":
        return [u(1, 10)]
    if name in ("log", "log2", "log10", "sqrt", "log1p", "rsqrt"):
        return [u(0, 10)]
    if name == "pow":
        return [u(0.5, 2), normal()]
    if name in ("divide", "floor_divide", "remainder"):
        b = u(0.5, 2) * np.where(rng.random(n) < 0.5, -1, 1).astype(dtype)
        return [normal(), b]
    if name == "where":
        return [rng.random(n) < 0.5, normal(), normal()]
    if name == "clip":
        return [normal()]
    return [normal() for _ in range(arity)]


def functions(name):
    """usmarray's callable and NumPy's, of the same operands."""
    if name == "clip":
        return (lambda x: ua.clip(x, -1.0, 1.0)), (lambda x: np.clip(x, -1.0, 1.0))
    if name == "rsqrt":  # NumPy has none: its two calls
        return ua.rsqrt, (lambda x: np.reciprocal(np.sqrt(x)))
    if not hasattr(np, name) or not hasattr(ua, name):
        return None
    return getattr(ua, name), getattr(np, name)


def bool_operands(name):
    return name.startswith("logical_")


def time_pair(ours, theirs, rounds):
    """Each one's seconds per call in every round, timed in turn."""
    tu, tn = [], []
    for _ in range(rounds):
        t0 = time.perf_counter()
        ours()
        t1 = time.perf_counter()
        theirs()
        t2 = time.perf_counter()
        tu.append(t1 - t0)
        tn.append(t2 - t1)
    return tu, tn


def sweep(names, dtypes, n, rounds, seed):
    rows = []
    for dtype in dtypes:
        rng = np.random.default_rng(seed)
        for name, arity in names:
            xs = operands(name, arity, n, dtype, rng)
            if bool_operands(name):
                xs = [x.real > 0 for x in xs]
            pair = functions(name)
            if pair is None:
                continue  # no NumPy function to time beside it
            us = [ua.asarray(x) for x in xs]
            uf, nf = pair
            try:
                uf(*us), nf(*xs)  # first calls: plans, pages
            except (TypeError, ValueError) as e:
                # not for this dtype in one of the two: said, not hidden
                print(f"skipped {name} {dtype}: {type(e).__name__}: {e}")
                continue
            tu, tn = time_pair(lambda: uf(*us), lambda: nf(*xs), rounds)
            rows.append(
                {
                    "function": name,
                    "dtype": dtype,
                    "usmarray_ms": min(tu) * 1e3,
                    "numpy_ms": min(tn) * 1e3,
                    "usmarray_median_ms": statistics.median(tu) * 1e3,
                    "numpy_median_ms": statistics.median(tn) * 1e3,
                    "ratio": min(tn) / min(tu),
                }
            )
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--n", type=int, default=1_000_000)
    p.add_argument(
        "--dtype", action="append", choices=("float32", "float64", "complex64", "complex128")
    )
    p.add_argument("--json", default=None)
    p.add_argument("names", nargs="*")
    a = p.parse_args()
    dtypes = a.dtype or ["float32", "float64"]
    complex_operands = any(np.dtype(d).kind == "c" for d in dtypes)
    if complex_operands and any(np.dtype(d).kind != "c" for d in dtypes):
        p.error("complex dtypes are a sweep of their own (their functions differ)")
    names = [(k, ar) for k, ar in catalogue(complex_operands) if not a.names or k in a.names]
    runs = []
    for run in range(a.runs):
        rows = sweep(names, dtypes, a.n, a.rounds, seed=run)
        runs.append(rows)
        print(f"run {run + 1} of {a.runs}")
    print(f"{'function':14s}{'dtype':9s}{'usmarray ms':>12s}{'numpy ms':>10s}  ratio (runs)")
    for i, r in enumerate(runs[0]):
        ratios = [run[i]["ratio"] for run in runs]
        mark = " <1" if statistics.median(ratios) < 1 else ""
        print(
            f"{r['function']:14s}{r['dtype']:9s}{r['usmarray_ms']:12.3f}{r['numpy_ms']:10.3f}"
            f"  {statistics.median(ratios):5.2f} ({min(ratios):.2f}-{max(ratios):.2f}){mark}"
        )
    if a.json:
        out = {
            "device": f"{ua.Device('host').name}",
            "machine": platform.processor() or platform.machine(),
            "date": datetime.date.today().isoformat(),
            "numpy": np.__version__,
            "n": a.n,
            "rounds": a.rounds,
            "runs": runs,
        }
        pathlib.Path(a.json).write_text(json.dumps(out, indent=1) + "\n")
        print(f"wrote {a.json}")


if __name__ == "__main__":
    main()
