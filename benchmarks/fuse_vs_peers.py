"""usmarray.fuse on the host beside usmarray's eager calls, NumPy and
numexpr, in one run.

Each expression is written once over a namespace ``xp``; usmarray's fused
row is ``ua.fuse`` of it, the eager rows call it with usmarray and with
NumPy, and numexpr's row is its ``evaluate`` where numexpr can say it
(reductions only last and only sum and prod along an axis: the variance and
softmax rows mix numexpr with NumPy, and say so).  Times are the best of
--repeats calls in milliseconds; the ratios are the other row's time over
the fused one (above 1: fused is faster).  The machine's load average is
printed before and after, since the host is shared.

    python benchmarks/fuse_vs_peers.py [--n 16777216] [--repeats 5] [--runs 5] [--json PATH]
    python benchmarks/fuse_vs_peers.py --per-call [--n 1000]
    python benchmarks/fuse_vs_peers.py --device opencl:cpu [--n 4194304]

``--device`` puts usmarray's arrays on another device (a SYCL CPU device,
which runs the host's loops unless USMARRAY_DEVICE_KERNELS=1); each
usmarray call is timed to the end of its queue's work.

``--per-call`` times small calls instead (default 1,000 elements): each
expression fused and eager, beside one eager ``x + y``, in microseconds,
the median of interleaved rounds; the target is a fused call within two
eager calls' time.

numexpr is optional (``pip install ".[bench]"``); without it its column is
empty.
"""

import argparse
import datetime
import json
import math
import os
import platform
import statistics
import time

import numpy as np
import usmarray as ua

try:
    import numexpr as ne
except ImportError:  # the column stays empty
    ne = None


def axpy(xp, x, y):
    return 2.5 * x + y


def squared_distance(xp, x, y):
    return xp.sum((x - y) ** 2)


def leaky_relu(xp, x, y):
    return xp.where(x > 0, x, 0.01 * x)


def gelu(xp, x, y):
    return 0.5 * x * (1 + xp.tanh(0.7978846 * (x + 0.044715 * x**3)))


def variance(xp, x, y):
    return xp.mean((x - xp.mean(x)) ** 2)


def row_norms(xp, m):
    return xp.sqrt(xp.sum(m * m, axis=1))


def softmax(xp, m):
    e = xp.exp(m - xp.max(m, axis=1, keepdims=True))
    return e / xp.sum(e, axis=1, keepdims=True)


def numexpr_variance(x, y):
    n = x.size
    mu = float(ne.evaluate("sum(x)")) / n
    return ne.evaluate("sum((x - mu) ** 2)", local_dict={"x": x, "mu": mu}) / n


def numexpr_softmax(m):
    mx = m.max(axis=1, keepdims=True)
    e = ne.evaluate("exp(m - mx)", local_dict={"m": m, "mx": mx})
    s = ne.evaluate("sum(e, axis=1)", local_dict={"e": e})[:, None]
    return ne.evaluate("e / s", local_dict={"e": e, "s": s})


# name, the expression, its operands ("xy" or "m"), numexpr's form and
# whether that form needs NumPy too.
CASES = [
    ("2.5 * x + y", axpy, "xy", lambda x, y: ne.evaluate("2.5 * x + y"), False),
    ("sum((x - y) ** 2)", squared_distance, "xy", lambda x, y: ne.evaluate("sum((x - y) ** 2)"), False),
    ("where(x > 0, x, 0.01 * x)", leaky_relu, "xy", lambda x, y: ne.evaluate("where(x > 0, x, 0.01 * x)"), False),
    ("gelu(x)", gelu, "xy",
     lambda x, y: ne.evaluate("0.5 * x * (1 + tanh(0.7978846 * (x + 0.044715 * x ** 3)))"), False),
    ("mean((x - mean(x)) ** 2)", variance, "xy", numexpr_variance, False),
    ("sqrt(sum(m * m, axis=1))", row_norms, "m", lambda m: np.sqrt(ne.evaluate("sum(m * m, axis=1)")), True),
    ("softmax(m, axis=1)", softmax, "m", numexpr_softmax, True),
]  # fmt: skip


def best_ms(fn, args, repeats):
    done(fn(*args))  # warm: traces, page faults, numexpr's compile
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        done(fn(*args))
        times.append(time.perf_counter() - t)
    return min(times) * 1e3


def done(result):
    """The result once its queue's work is done (a usmarray array's)."""
    if isinstance(result, ua.USMArray):
        result.queue.wait()
    return result


def fused_of(expr):
    """ua.fuse of the expression over usmarray (the wrapper names ``ua``,
    which the tracer swaps for its namespace)."""

    def fused(*args):
        return expr(ua, *args)

    fused.__name__ = expr.__name__
    return ua.fuse(fused)


def operands(n, seed=0):
    rng = np.random.default_rng(seed)
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    side = math.isqrt(n)
    m = rng.standard_normal((side, side))
    return {"xy": (x, y), "m": (m,)}


def run_case(case, host, repeats, device="host"):
    name, expr, which, numexpr_form, mixed = case
    np_args = host[which]
    ua_args = tuple(ua.asarray(a, device=device) for a in np_args)
    fused = fused_of(expr)
    row = {
        "expression": name,
        "fused_ms": best_ms(fused, ua_args, repeats),
        "eager_ms": best_ms(lambda *a: expr(ua, *a), ua_args, repeats),
        "numpy_ms": best_ms(lambda *a: expr(np, *a), np_args, repeats),
        "numexpr_ms": best_ms(numexpr_form, np_args, repeats) if ne is not None else None,
        "numexpr_with_numpy": mixed,
        "plan": fused.explain(*ua_args).splitlines()[-1],
    }
    check(fused(*ua_args), expr(np, *np_args), name)
    return row


def check(got, want, name):
    np.testing.assert_allclose(ua.asnumpy(got), want, rtol=1e-10, atol=1e-12, err_msg=name)


def ratio(row, key):
    """The other row's time over the fused one (a median table's: the
    median of the runs' ratios)."""
    if not row[key]:
        return "-"
    return f"{row.get(key.replace('_ms', '_over_fused'), row[key] / row['fused_ms']):.2f}"


def print_table(rows):
    head = ("expression", "fused", "eager", "NumPy", "numexpr", "eager/f", "NumPy/f", "numexpr/f")
    print("%-28s %9s %9s %9s %9s %8s %8s %9s" % head)
    for r in rows:
        numexpr = "-" if r["numexpr_ms"] is None else f"{r['numexpr_ms']:.1f}"
        numexpr += "*" if r["numexpr_with_numpy"] and r["numexpr_ms"] else ""
        print(
            "%-28s %9.1f %9.1f %9.1f %9s %8s %8s %9s"
            % (r["expression"], r["fused_ms"], r["eager_ms"], r["numpy_ms"], numexpr,
               ratio(r, "eager_ms"), ratio(r, "numpy_ms"), ratio(r, "numexpr_ms"))
        )  # fmt: skip
    print("times in ms, best of the repeats; *: numexpr with NumPy's help")


def per_call_us(fn, args, calls=2000):
    """Microseconds a call, the best of three loops of `calls`."""
    best = math.inf
    for _ in range(3):
        t = time.perf_counter()
        for _ in range(calls):
            fn(*args)
        best = min(best, (time.perf_counter() - t) / calls)
    return best * 1e6


def per_call(n, rounds=11, device="host"):
    """Small calls: each expression of x and y fused and eager, and one
    eager x + y, interleaved round by round; medians (the host's time of
    the calls, their queue's work not waited for)."""
    x, y = operands(n)["xy"]
    args = (ua.asarray(x, device=device), ua.asarray(y, device=device))
    add = ua.add
    print(f"x, y: {n} float64 on {device}; microseconds a call, median of {rounds} rounds")
    print("%-28s %8s %8s %8s %12s" % ("expression", "fused", "eager", "x + y", "fused/(2 add)"))
    rows = []
    for name, expr, which, _, _ in CASES:
        if which != "xy":
            continue
        fused = fused_of(expr)
        eager = lambda *a: expr(ua, *a)  # noqa: E731
        fused(*args)
        samples = sorted(
            (per_call_us(fused, args), per_call_us(eager, args), per_call_us(add, args))
            for _ in range(rounds)
        )
        f, e, a = (statistics.median(col) for col in zip(*samples))
        rows.append({"expression": name, "fused_us": f, "eager_us": e, "add_us": a})
        print("%-28s %8.2f %8.2f %8.2f %12.2f" % (name, f, e, a, f / (2 * a)))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=None, help="elements of x and y")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--per-call", action="store_true", help="small calls' time")
    parser.add_argument("--json", help="write the rows here")
    parser.add_argument("--device", default="host", help="usmarray's device (default host)")
    parser.add_argument("--runs", type=int, default=1, help="whole tables, medians kept")
    args = parser.parse_args()
    if args.per_call:
        rows = per_call(args.n or 1000, device=args.device)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"n": args.n or 1000, "device": args.device, "rows": rows}, f, indent=1)
        return
    args.n = args.n or 16 * 1024 * 1024
    host = operands(args.n)
    side = host["m"][0].shape[0]
    runs, loads = [], []
    for run in range(args.runs):
        load_before = os.getloadavg()
        print(f"x, y: {args.n} float64; m: {side}x{side}; usmarray on {args.device}; "
              f"run {run + 1} of {args.runs}; load {load_before[0]:.2f}")  # fmt: skip
        runs.append([run_case(case, host, args.repeats, args.device) for case in CASES])
        loads.append([load_before[0], os.getloadavg()[0]])
        print_table(runs[-1])
    rows = medians(runs) if args.runs > 1 else runs[0]
    if args.runs > 1:
        print(f"the medians of {args.runs} runs:")
        print_table(rows)
    print(f"load average before and after each run: {loads}")
    if args.json:
        meta = {
            "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "machine": platform.processor() or platform.machine(),
            "cpus": os.cpu_count(),
            "n": args.n,
            "load": loads,
            "numexpr": getattr(ne, "__version__", None),
            "numpy": np.__version__,
            "device": args.device,
            "runs": args.runs,
            "statistic": "median over the runs of each run's best of --repeats "
            "(ratios: the median of each run's ratio)",
        }
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "rows": rows, "runs": runs}, f, indent=1)


def medians(runs):
    """Each row's median time over the runs, and its ratios' medians (the
    median of each run's ratio, not the ratio of the medians)."""
    rows = []
    for same in zip(*runs):
        row = dict(same[0])
        for key in ("fused_ms", "eager_ms", "numpy_ms", "numexpr_ms"):
            if row[key] is not None:
                row[key] = statistics.median(r[key] for r in same)
        for key in ("eager_ms", "numpy_ms", "numexpr_ms"):
            if row[key] is not None:
                ratio_of = key.replace("_ms", "_over_fused")
                row[ratio_of] = statistics.median(r[key] / r["fused_ms"] for r in same)
        rows.append(row)
    return rows


if __name__ == "__main__":
    main()
