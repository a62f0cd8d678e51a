"""The accuracy of usmarray's floating elementwise functions, measured in
ULP against a correctly rounded reference, per function, dtype and device.

    python tools/ew_ulp.py --device host        # measure, keep, rewrite the docs' table
    python tools/ew_ulp.py --device cuda --n 200000
    python tools/ew_ulp.py --table              # only rewrite the table from the JSON

The reference of a float32 result is the float64 function of the same
input; of a float64 result, the long double one (x86-64's 80-bit format,
11 bits wider), or mpmath's at 80 bits where long double is no wider than
double and mpmath is importable.  Either is within a small fraction of an
ULP of the exact value, so the error printed is that of the function, in
units of the spacing of the dtype at the exact result: 0.5 is correctly
rounded.  The inputs are random over each function's domain (uniform and
spread over the exponents) plus its edges.

Measurements are kept per device in benchmarks/results/ew_ulp.json; the
table between the ``ulp-table`` markers of docs/elementwise.rst shows every
device measured, a column each.
"""

import argparse
import datetime
import json
import pathlib
import re

import numpy as np
import usmarray as ua

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "ew_ulp.json"
DOC = ROOT / "docs" / "elementwise.rst"
DTYPES = ("float32", "float64")

# name: (arity, domain of each operand as (low, high), spread over the
# exponents too where the domain is wide).  Each bound is in float64.
BIG = 1e300
DOMAINS = {
    "exp": (1, [(-745.2, 709.8)]),
    "expm1": (1, [(-745.2, 709.8)]),
    "exp2": (1, [(-1075.0, 1024.0)]),
    "log": (1, [(0.0, BIG)]),
    "log1p": (1, [(-1.0, BIG)]),
    "log2": (1, [(0.0, BIG)]),
    "log10": (1, [(0.0, BIG)]),
    "sqrt": (1, [(0.0, BIG)]),
    "rsqrt": (1, [(0.0, BIG)]),
    "cbrt": (1, [(-BIG, BIG)]),
    "sin": (1, [(-1e4, 1e4)]),
    "cos": (1, [(-1e4, 1e4)]),
    "tan": (1, [(-1e4, 1e4)]),
    "sinh": (1, [(-710.0, 710.0)]),
    "cosh": (1, [(-710.0, 710.0)]),
    "tanh": (1, [(-20.0, 20.0)]),
    "asin": (1, [(-1.0, 1.0)]),
    "acos": (1, [(-1.0, 1.0)]),
    "atan": (1, [(-BIG, BIG)]),
    "asinh": (1, [(-BIG, BIG)]),
    "acosh": (1, [(1.0, BIG)]),
    "atanh": (1, [(-1.0, 1.0)]),
    "atan2": (2, [(-BIG, BIG), (-BIG, BIG)]),
    "hypot": (2, [(-1e150, 1e150), (-1e150, 1e150)]),
    "logaddexp": (2, [(-1000.0, 1000.0), (-1000.0, 1000.0)]),
    "pow": (2, [(0.0, 100.0), (-50.0, 50.0)]),
    "divide": (2, [(-BIG, BIG), (-BIG, BIG)]),
    "reciprocal": (1, [(-BIG, BIG)]),
}
NUMPY_NAMES = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh",
               "acosh": "arccosh", "atanh": "arctanh", "atan2": "arctan2", "pow": "power"}  # fmt: skip


def sample(low, high, dtype, n, rng):
    """n values of dtype in [low, high]: half uniform, half log-uniform in
    magnitude (both signs where the domain has them), edges first."""
    info = np.finfo(dtype)
    lo, hi = max(low, -float(info.max)), min(high, float(info.max))
    edges = [
        v for v in (lo, hi, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, float(info.tiny)) if lo <= v <= hi
    ]
    uniform = rng.uniform(lo, hi, n // 2)
    top = np.log2(max(abs(lo), abs(hi)))
    mags = np.exp2(rng.uniform(np.log2(float(info.tiny)), top, n - n // 2 - len(edges)))
    signs = rng.choice([-1.0, 1.0], mags.size) if lo < 0 < hi else np.sign(hi or -1.0)
    spread = np.clip(mags * signs, lo, hi)
    return np.concatenate([edges, uniform, spread]).astype(dtype)


def wide_reference(name, args, dtype):
    """The function in a type wider than dtype, and that type."""
    fn = getattr(np, NUMPY_NAMES.get(name, name), None)
    if name == "reciprocal":
        fn = np.reciprocal
    if name == "rsqrt":
        fn = lambda x: 1 / np.sqrt(x)  # noqa: E731
    if dtype == np.float32:
        wide = [a.astype(np.float64) for a in args]
        return fn(*wide)
    if np.finfo(np.longdouble).nmant > np.finfo(np.float64).nmant:
        return fn(*[a.astype(np.longdouble) for a in args])
    import mpmath  # only where long double is no wider

    mpmath.mp.prec = 80
    mp = {"log2": lambda x: mpmath.log(x, 2), "log10": mpmath.log10, "pow": mpmath.power,
          "atan2": mpmath.atan2, "hypot": mpmath.hypot, "reciprocal": lambda x: 1 / x,
          "divide": lambda x, y: x / y, "logaddexp": lambda x, y: mpmath.log(mpmath.exp(x) + mpmath.exp(y)),
          "asin": mpmath.asin, "acos": mpmath.acos, "atan": mpmath.atan, "asinh": mpmath.asinh,
          "acosh": mpmath.acosh, "atanh": mpmath.atanh, "exp2": lambda x: mpmath.power(2, x),
          "rsqrt": lambda x: 1 / mpmath.sqrt(x), "cbrt": mpmath.cbrt}.get(name, getattr(mpmath, name))  # fmt: skip
    out = [float(mp(*(mpmath.mpf(float(v)) for v in vals))) for vals in zip(*args)]
    return np.array(out, dtype=np.float64)


def ulp_error(got, ref, dtype, scale=None):
    """|got - ref| in units of dtype's spacing at ref (or at scale, where
    larger), where ref is finite in dtype; results that are NaN, infinite
    or zero on both sides agree."""
    got = got.astype(np.longdouble)
    ref = ref.astype(np.longdouble)
    rounded = ref.astype(dtype)
    finite = np.isfinite(rounded)
    at = np.abs(rounded) if scale is None else np.maximum(np.abs(rounded), scale)
    spacing = np.spacing(at.astype(dtype)).astype(np.longdouble)
    err = np.where(finite, np.abs(got - ref) / spacing, 0)
    same = (got == ref) | (np.isnan(got) & np.isnan(ref))
    mismatch = ~finite & ~same & ~(np.isinf(rounded) & (got == rounded.astype(np.longdouble)))
    err = np.where(same, 0, err)
    return np.where(mismatch, np.inf, err)


def measure(device, n, seed=0):
    rng = np.random.default_rng(seed)
    rows = {}
    for name, (arity, domains) in DOMAINS.items():
        rows[name] = {}
        for dtype in DTYPES:
            dt = np.dtype(dtype).type
            args = [sample(lo, hi, dt, n, rng) for lo, hi in domains]
            if arity == 2:
                args[1] = rng.permutation(args[1])
            with np.errstate(all="ignore"):
                ref = wide_reference(name, args, dt)
            got = ua.asnumpy(getattr(ua, name)(*(ua.asarray(a, device=device) for a in args)))
            # logaddexp is ill-conditioned where its result crosses zero:
            # there its error counts in ULP of its larger operand.
            scale = np.maximum(np.abs(args[0]), np.abs(args[1])) if name == "logaddexp" else None
            err = ulp_error(got, ref, dt, scale)
            rows[name][dtype] = float(np.max(err))
    return rows


def table(data):
    devices = sorted(data)
    lines = [
        "Largest error found, in ULP of the result (0.5: correctly rounded), by "
        + ", ".join(
            f"``{d}`` ({data[d]['date']}, {data[d]['n']:,} inputs a dtype)" for d in devices
        )
        + ".",
        "",
        ".. list-table::",
        "   :header-rows: 1",
        "",
        "   * - function",
    ]
    for d in devices:
        lines += [f"     - {d} float32", f"     - {d} float64"]
    for name in DOMAINS:
        lines.append(f"   * - ``{name}``")
        for d in devices:
            for dtype in DTYPES:
                v = data[d]["ulp"].get(name, {}).get(dtype)
                lines.append("     - " + ("" if v is None else f"{v:.2f}"))
    return lines


def rewrite_doc(data):
    text = DOC.read_text()
    start, end = ".. ulp-table-start", ".. ulp-table-end"
    block = "\n".join([start, "", *table(data), "", end])
    new = re.sub(re.escape(start) + r".*?" + re.escape(end), lambda m: block, text, flags=re.S)
    DOC.write_text(new)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="host")
    parser.add_argument("--n", type=int, default=100000, help="inputs per function and dtype")
    parser.add_argument("--table", action="store_true", help="only rewrite the table")
    args = parser.parse_args()
    data = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    if not args.table:
        rows = measure(args.device, args.n)
        key = ua.Device(args.device).backend
        data[key] = {"date": datetime.date.today().isoformat(), "n": args.n, "ulp": rows}
        RESULTS.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        for name, r in rows.items():
            print(f"{name:<12}" + "".join(f"{dt} {r[dt]:6.2f}   " for dt in DTYPES))
    rewrite_doc(data)


if __name__ == "__main__":
    main()
