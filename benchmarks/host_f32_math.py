#!/usr/bin/env python3
"""float32 transcendental functions on the host against NumPy, in one
process: 1e6 elements, the two timed in turn, best of --repeat.

  PYTHONPATH=... python3 benchmarks/host_f32_math.py [--repeat 7] [name ...]

Prints NumPy's time over usmarray's (above 1: usmarray faster)."""

import argparse
import time

import numpy as np
import usmarray as ua

NAMES = ["atanh", "tanh", "sinh", "atan2", "expm1", "tan", "atan", "asinh", "log1p",
         "asin", "log10", "acos", "sin", "cos", "cosh", "exp"]  # fmt: skip
NUMPY = {"acos": "arccos", "asin": "arcsin", "asinh": "arcsinh", "atan": "arctan",
         "atanh": "arctanh", "atan2": "arctan2"}  # fmt: skip


def operands(name, n, rng):
    if name in ("atanh", "asin", "acos"):
        return [rng.uniform(-1, 1, n).astype(np.float32)]
    if name in ("log1p", "log10"):
        return [rng.uniform(0, 10, n).astype(np.float32)]
    if name == "atan2":
        return [rng.standard_normal(n).astype(np.float32) for _ in range(2)]
    return [(rng.standard_normal(n) * 3).astype(np.float32)]


def best(f, repeat):
    t = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        t.append(time.perf_counter() - t0)
    return min(t)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--n", type=int, default=1_000_000)
    p.add_argument("names", nargs="*")
    a = p.parse_args()
    rng = np.random.default_rng(1)
    for name in a.names or NAMES:
        xs = operands(name, a.n, rng)
        us = [ua.asarray(x) for x in xs]
        nf, uf = getattr(np, NUMPY.get(name, name)), getattr(ua, name)
        uf(*us), nf(*xs)
        tn = tu = float("inf")
        for _ in range(a.repeat):  # interleaved
            tu = min(tu, best(lambda: uf(*us), 1))
            tn = min(tn, best(lambda: nf(*xs), 1))
        print(
            f"{name:6s} numpy {tn * 1e3:7.3f} ms  usmarray {tu * 1e3:7.3f} ms  ratio {tn / tu:.2f}"
        )


if __name__ == "__main__":
    main()
