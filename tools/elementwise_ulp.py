#!/usr/bin/env python3
"""Measures the largest error, in ULPs of the result's dtype, of each
transcendental elementwise function on one device, against NumPy's long
double (x86's 80-bit extended) results of the same inputs.

  python3 tools/elementwise_ulp.py [--device host] [--json FILE] [--n 20000]

Inputs per dtype: normal values, values of every magnitude of both signs,
and values near 1 and -1 (where the inverse functions are steep); complex
dtypes combine them; pow takes normal bases and exponents.  The measure is |got - reference| / spacing of the
reference rounded to the dtype, over the finite references; results that
are NaN where the reference is not (or the reverse) are counted apart.
docs/elementwise.rst's accuracy table comes from these numbers:
  python3 tools/elementwise_ulp.py --rst benchmarks/results/ulp_*.json"""

import argparse
import json
import sys
import warnings

import numpy as np

UNARY = ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp", "expm1",
         "log", "log1p", "log2", "log10", "sin", "sinh", "sqrt", "tan", "tanh"]  # fmt: skip
BINARY = ["atan2", "hypot", "logaddexp", "pow"]
REAL_ONLY = {"atan2", "hypot", "logaddexp", "expm1", "log1p"}
NUMPY = {"acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh",
         "atan": "arctan", "atanh": "arctanh", "atan2": "arctan2", "pow": "power"}  # fmt: skip


def real_inputs(rt, n, rng):
    emax = 30 if rt == np.float32 else 250
    sign = rng.choice([-1.0, 1.0], n)
    parts = [rng.standard_normal(n) * 3, sign * 10.0 ** rng.uniform(-emax, emax, n),
             sign * (1 + rng.choice([-1.0, 1.0], n) * 10.0 ** rng.uniform(-12, 0, n))]  # fmt: skip
    return np.concatenate(parts).astype(rt)


def inputs(dtype, n, rng):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return real_inputs(dt.type, n, rng)
    rt = np.float32 if dt == np.complex64 else np.float64
    re, im = real_inputs(rt, n, rng), real_inputs(rt, n, rng)
    return (re + 1j * rng.permutation(im)).astype(dt)


def ulps(got, ref, dtype):
    """Largest error in ULPs over finite references, and NaN mismatches."""
    if np.dtype(dtype).kind == "c":
        rt = np.float32 if dtype == "complex64" else np.float64
        a, na = ulps(got.real, ref.real, rt)
        b, nb = ulps(got.imag, ref.imag, rt)
        return max(a, b), na + nb
    ref_d = ref.astype(dtype)
    finite = np.isfinite(ref_d)
    nan_mismatch = int(np.sum(np.isnan(got) != np.isnan(ref_d)))
    spacing = np.spacing(np.abs(ref_d[finite])).astype(np.longdouble)
    err = np.abs(got[finite].astype(np.longdouble) - ref[finite]) / spacing
    err = err[np.isfinite(err)]
    return (float(np.max(err)) if err.size else 0.0), nan_mismatch


def measure(ua, device, n):
    rng = np.random.default_rng(5)
    out = {}
    for name in UNARY + BINARY:
        for dtype in ("float32", "float64", "complex64", "complex128"):
            if dtype.startswith("complex") and name in REAL_ONLY:
                continue
            x = inputs(dtype, n, rng)
            args = [x] if name in UNARY else [x, inputs(dtype, n, rng)]
            if name == "pow":
                # bounded exponents: |b log a| large makes any exp(b log a)
                # lose its digits, the peers' and the C library's too
                a, b = (rng.standard_normal((2, 3 * n)) * [[3], [2]]).astype(dtype)
                if dtype.startswith("c"):
                    a = a + 1j * rng.standard_normal(3 * n).astype(a.dtype)
                    b = b + 1j * rng.standard_normal(3 * n).astype(b.dtype)
                args = [np.abs(a) if dtype.startswith("f") else a, b]
            wide = [a.astype(np.clongdouble if a.dtype.kind == "c" else np.longdouble)
                    for a in args]  # fmt: skip
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ref = getattr(np, NUMPY.get(name, name))(*wide)
                try:
                    got = ua.asnumpy(getattr(ua, name)(*[ua.asarray(a, device=device)
                                                         for a in args]))  # fmt: skip
                except Exception as e:  # a device without float64, say
                    out.setdefault(name, {})[dtype] = str(e)
                    continue
                worst, nans = ulps(got, ref, dtype)
            out.setdefault(name, {})[dtype] = {"max_ulp": round(worst, 2), "nan_mismatch": nans}
    return out


def rst_table(paths):
    """docs/elementwise.rst's table from the JSON of several devices."""
    runs = [json.load(open(p)) for p in paths]
    dtypes = ["float32", "float64", "complex64", "complex128"]
    head = ["function"] + [f"{r['device'].split(':')[0]} {d}" for d in dtypes for r in runs]
    lines = [head]
    for name in runs[0]["ulp"]:
        row = [name]
        for d in dtypes:
            for r in runs:
                v = r["ulp"].get(name, {}).get(d)
                row.append(f"{v['max_ulp']:.3g}" if isinstance(v, dict) else "")
        lines.append(row)
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    rule = " ".join("=" * w for w in widths)
    fmt = [" ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() for line in lines]
    return "\n".join([rule, fmt[0], rule, *fmt[1:], rule])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="host")
    p.add_argument("--json")
    p.add_argument("--n", type=int, default=20000)
    p.add_argument("--rst", nargs="+", metavar="JSON", help="print the docs' table of these runs")
    args = p.parse_args()
    if args.rst:
        print(rst_table(args.rst))
        return 0
    import usmarray as ua

    result = {"device": args.device, "ulp": measure(ua, args.device, args.n)}
    for name, per in result["ulp"].items():
        cells = [f"{d} {v['max_ulp']:g}" + (f" ({v['nan_mismatch']} NaN)" if v["nan_mismatch"]
                 else "") if isinstance(v, dict) else f"{d} -" for d, v in per.items()]  # fmt: skip
        print(f"{name:10s} " + ", ".join(cells))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
